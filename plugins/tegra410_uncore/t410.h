/*
 * t410.h: internal types of the tegra410_uncore plugin, a generic engine
 * for sysfs-described PMUs (Documentation/admin-guide/perf/ and the
 * perf_event_open(2) uAPI) on which the Tegra410 preset will stand:
 *
 *   t410_sysfs.c   discovering PMUs: type, cpumask, format/, events/
 *   t410_events.c  resolving perf-syntax event strings into attr configs
 *   t410_perf.c    opening counting groups, one read() per group
 *   t410_config.c  options
 *   tegra410_uncore.c  plugin_ops: groups, deltas, records
 */
#ifndef PLUGINS_TEGRA410_UNCORE_T410_H
#define PLUGINS_TEGRA410_UNCORE_T410_H

#include "common/metric.h"
#include "common/log.h"
#include "common/plugin.h"
#include "common/pmu_event_parse.h"
#include "common/pmu_format.h"

#include <stdbool.h>
#include <stdint.h>

#define T410_PLUGIN "tegra410_uncore"
#define T410_MAX_STRINGS 64 /* Event options */
#define T410_MAX_CPUS 1024  /* CPUs a per-CPU PMU is opened on */
#define T410_EVENT_TEXT_MAX 256

extern const struct plugin_ops tegra410_uncore_ops;

struct t410_term_format {
  char name[PMU_NAME_MAX];
  struct pmu_format format;
};

struct t410_named_event {
  char name[PMU_NAME_MAX];
  char terms[T410_EVENT_TEXT_MAX]; /* events/<name>, e.g. "event=0x113" */
  double scale;                    /* events/<name>.scale, 1 when absent */
  char unit[32];                   /* events/<name>.unit, "" when absent */
};

/* One PMU as sysfs describes it at init. */
struct t410_pmu {
  char name[PMU_NAME_MAX];
  uint32_t type; /* attr.type; changes between boots, never cached */
  int *cpus;     /* cpumask, or every online CPU when there is none */
  size_t n_cpus;
  bool has_cpumask;
  struct t410_term_format *formats;
  size_t n_formats;
  struct t410_named_event *events;
  size_t n_events;
};

/* One counter of a group, resolved. */
struct t410_counter {
  char event[T410_EVENT_TEXT_MAX]; /* the event's terms as written */
  uint64_t config[PMU_CONFIG_WORDS];
  double scale;
  char unit[32];
  /* state, per read */
  uint64_t count; /* multiplex-scaled, summed over CPUs, cumulative */
  uint64_t prev_count;
  bool have_prev;
};

/* One group, opened once per CPU of its PMU. */
struct t410_group {
  char text[512]; /* the Event option it came from, for messages */
  char pmu[PMU_NAME_MAX];
  uint32_t type;
  int *cpus;
  size_t n_cpus;
  size_t n_counters;
  struct t410_counter counters[PMU_MAX_GROUP];
  int *fds;          /* n_cpus x n_counters, -1 when closed */
  uint64_t *ids;     /* the same shape: PERF_EVENT_IOC_ID */
  uint64_t *readbuf; /* 3 + 2 * n_counters words, allocated at open */
  uint64_t enabled_ns, running_ns; /* summed over CPUs */
  uint64_t prev_time_ns;
  bool open;
  uint64_t retry_at_ns; /* backoff after an open failure */
  uint64_t backoff_ns;
  struct log_complaint complaint;
};

struct t410_config {
  char *sysfs_root;
  char *events[T410_MAX_STRINGS];
  size_t n_events;
};

struct t410 {
  struct t410_config cfg;
  struct t410_pmu *pmus;
  size_t n_pmus;
  struct t410_group *groups;
  size_t n_groups;
};

/* t410_config.c */
int t410_config_apply(struct t410_config *cfg, const struct cfg_item *item);
void t410_config_fini(struct t410_config *cfg);

/* t410_sysfs.c */
int t410_pmu_load(const char *sysfs_root, const char *name,
                  struct t410_pmu *out);
void t410_pmu_fini(struct t410_pmu *pmu);
/* Parse a CPU list ("0-3,8"); returns the count or -EINVAL. Pure. */
int t410_cpulist_parse(const char *text, int *cpus, size_t max);

/* t410_events.c: resolve one parsed event against its PMU. On error,
 * writes a message naming the term into `why`. */
int t410_event_resolve(const struct t410_pmu *pmu,
                       const struct pmu_event_spec *spec,
                       struct t410_counter *out, char *why, size_t why_size);

/* t410_perf.c */
int t410_group_open(struct t410_group *g);
void t410_group_close(struct t410_group *g);
int t410_group_read(struct t410_group *g);

#endif
