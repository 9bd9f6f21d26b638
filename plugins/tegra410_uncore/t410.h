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

#include "common/core/log.h"
#include "common/core/metric.h"
#include "common/core/plugin.h"
#include "common/pmu/pmu_event_parse.h"
#include "common/pmu/pmu_format.h"

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#define T410_PLUGIN "tegra410_uncore"
#define T410_MAX_STRINGS 64 /* Event options */
#define T410_MAX_CPUS 1024  /* CPUs a per-CPU PMU is opened on */
#define T410_EVENT_TEXT_MAX 256

extern const struct plugin_ops tegra410_uncore_ops;

/* The kernel calls the engine makes; tests swap in a double that plays
 * scripted counts, multiplexing and errors on fake PMUs. */
struct t410_kernel {
  int (*perf_event_open)(struct perf_event_attr *attr, pid_t pid, int cpu,
                         int group_fd, unsigned long flags);
  ssize_t (*read)(int fd, void *buf, size_t len);
  int (*ioctl)(int fd, unsigned long request, void *arg);
  int (*close)(int fd);
};
extern const struct t410_kernel t410_kernel_real;
/* Use `kernel` (borrowed) for every later open/read; for tests. */
void t410_set_kernel(void *inst, const struct t410_kernel *kernel);

/* Roles of preset counters in the kernel documentation's formulas. */
enum t410_role {
  T410_NONE = 0,
  T410_CYCLES,
  T410_RD_BYTES,
  T410_WR_BYTES,
  T410_RD_REQ,
  T410_WR_REQ,
  T410_RD_CUM_OUTS,
  T410_WR_CUM_OUTS,
  T410_SLC_BYTES_RD,
  T410_SLC_BYTES_WR,
  T410_SLC_ACCESS_RD,
  T410_SLC_ACCESS_WR,
  T410_ROLE_COUNT,
};

enum t410_kind {
  T410_GENERIC = 0,
  T410_UCF,
  T410_PCIE,
  T410_PCIE_TGT,
  T410_CMEM,
  T410_C2C,
};

/* What a preset group is: which PMU instance, and which formulas apply. */
struct t410_preset_tags {
  enum t410_kind kind;
  char socket[12];
  char rc[12];       /* PCIE, PCIE-TGT */
  char direction[4]; /* C2C family: "in" or "out" */
  const char *part;  /* static: which of a PMU's preset groups, or NULL */
  char filter[32];   /* the Filter block's name, "" when unfiltered */
};

/* A Filter block: extra terms for every preset event of one PMU kind,
 * reported as its own series. */
#define T410_MAX_FILTERS 16
struct t410_filter {
  char name[32];
  enum t410_kind kind;
  char terms[200]; /* "src_bdf=0x0180,src_bdf_en=1" */
};

/* Deltas of one read of one preset group. */
struct t410_sample {
  bool have[T410_ROLE_COUNT];
  double delta[T410_ROLE_COUNT];
  double elapsed_ns; /* the window the counts cover */
};

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
  char identifier[64]; /* identifier: PMIIDR or ACPI HID, "" if none */
  char peer[64];       /* peer: C2C-family link partner, "" if none */
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
  enum t410_role role; /* preset groups: its part in a formula */
  uint64_t count;      /* multiplex-scaled, summed over CPUs, cumulative */
  uint64_t prev_count;
  bool have_prev;
};

/* One group, opened once per CPU of its PMU. */
struct t410_group {
  const struct t410_kernel *kernel; /* borrowed */
  struct t410_preset_tags preset;   /* kind T410_GENERIC for Event groups */
  uint64_t prev_enabled_ns;
  char text[1024]; /* the Event option it came from, for messages */
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
  bool preset; /* Preset "Tegra410" (the default without Event) */
  struct t410_filter filters[T410_MAX_FILTERS];
  size_t n_filters;
  char *events[T410_MAX_STRINGS];
  size_t n_events;
};

/* A Tegra410 root port's DVSEC: which PCI segment an RC serves. */
struct t410_pcie_label {
  unsigned socket, rc;
  char segment[8]; /* "0002" */
};
#define T410_MAX_PCIE_LABELS 64

struct t410 {
  struct t410_config cfg;
  struct t410_pcie_label pcie_labels[T410_MAX_PCIE_LABELS];
  size_t n_pcie_labels;
  const struct t410_kernel *kernel;
  struct t410_pmu *pmus;
  size_t n_pmus;
  struct t410_group *groups;
  size_t n_groups, cap_groups;
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

/* t410_preset.c: every Tegra410 PMU under sysfs, as Event texts with
 * their tags and roles. Calls `add` per group; returns how many. */
typedef bool (*t410_preset_add_fn)(void *ctx, const char *text,
                                   const struct t410_preset_tags *tags,
                                   const enum t410_role *roles, size_t n);
int t410_preset_scan(const char *sysfs_root, const struct t410_filter *filters,
                     size_t n_filters, t410_preset_add_fn add, void *ctx);
/* Recognise a Tegra410 PMU name (anchored); fills kind, socket, rc. */
bool t410_preset_match(const char *name, struct t410_preset_tags *tags);

/* t410_metrics.c: the kernel documentation's formulas, pure. Adds the
 * fields that the sample's counters allow to `m`. */
void t410_metrics_add(enum t410_kind kind, const struct t410_sample *s,
                      struct metric *m);

/* t410_pcie.c: DVSEC labels of every NVIDIA root port; the segment of
 * (socket, rc) or NULL. */
size_t t410_pcie_labels_scan(const char *sysfs_root,
                             struct t410_pcie_label *labels, size_t max);
const char *t410_pcie_segment(const struct t410_pcie_label *labels, size_t n,
                              const char *socket, const char *rc);

/* t410_perf.c */
int t410_group_open(struct t410_group *g);
void t410_group_close(struct t410_group *g);
int t410_group_read(struct t410_group *g);

#endif
