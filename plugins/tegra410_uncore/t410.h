/*
 * t410.h: the tegra410_uncore plugin core. The counting engine is generic
 * and lives in common/pmu (pmu_sysfs: discovery; pmu_event_resolve: event
 * strings to config words; pmu_group: perf_event_open groups); here:
 *
 *   t410_config.c      options
 *   t410_preset.c      Tegra410 PMUs and their groups   (t410_preset.h)
 *   t410_metrics.c     the kernel documentation's formulas
 *   t410_pcie.c        PCI segment labels
 *   t410_state.c       read -> state: deltas, windows (pure)
 *   t410_report.c      state -> records (const)
 *   t410_hotplug.c     the PMU directory watch (t410_hotplug.h): a layer
 *                      under the plugin that says which PMUs came and went
 *   tegra410_uncore.c  plugin_ops: groups, the read loop, what a PMU that
 *                      came or went means to the groups
 */
#ifndef PLUGINS_TEGRA410_UNCORE_T410_H
#define PLUGINS_TEGRA410_UNCORE_T410_H

#include "common/core/cfg.h"
#include "common/core/counter.h"
#include "common/core/devsession.h"
#include "common/core/log.h"
#include "common/core/metric.h"
#include "common/core/plugin.h"
#include "common/pmu/pmu_group.h"
#include "plugins/tegra410_uncore/t410_hotplug.h"
#include "plugins/tegra410_uncore/t410_preset.h"

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#define T410_MAX_STRINGS 64 /* Event options */
#define T410_MAX_SPECS_PER_EVENT                                               \
  8 /* groups of one Event (config checks it)                                  \
     */

#include "plugins/tegra410_uncore/tegra410_uncore.h" /* the ops */

/* The state of one reading (one CPU, or the sum) of a group: what the
 * last read added, as perf stat -I counts it (pmu_group.h), and totals. */
struct t410_series {
  bool have;                       /* read at least once since open */
  bool counted;                    /* the last interval ran: deltas valid */
  uint64_t delta[PMU_MAX_GROUP];   /* scaled, over the last interval */
  uint64_t total[PMU_MAX_GROUP];   /* sum of every counted delta */
  double window_ns;                /* enabled time of the interval, per CPU */
  double running_percent;          /* running / enabled of the interval */
  bool have_running;               /* the interval had enabled time */
  uint64_t enabled_ns, running_ns; /* cumulative, summed over CPUs */
  uint64_t not_counted;            /* intervals in which it never ran */
  uint64_t counts[PMU_MAX_GROUP];  /* the last cumulative counts */
  bool have_counts;                /* counts[] holds a reading */
  uint64_t resets;                 /* intervals dropped: a count stepped back */
};

/* One group: the engine's group, its preset meaning and its state. */
struct t410_group {
  struct pmu_group pg;
  struct t410_preset_tags preset; /* kind T410_GENERIC for Event groups */
  enum t410_role roles[PMU_MAX_GROUP];
  struct t410_series *series; /* owned, pg.n_readings */
  struct devsession session;  /* reopen after an open or read failure */
  struct log_complaint write_complaint; /* records that could not be built */
};

struct t410_config {
  char *sysfs_root;
  bool preset; /* Preset "Tegra410" (the default without Event) */
  struct t410_filter filters[T410_MAX_FILTERS];
  size_t n_filters;
  char *events[T410_MAX_STRINGS];
  size_t n_events;
};

struct t410 {
  struct t410_config cfg;
  const struct plugin_host *host; /* borrowed, from init */
  struct t410_pcie_label pcie_labels[T410_MAX_PCIE_LABELS];
  size_t n_pcie_labels;
  struct pmu_desc *pmus;
  size_t n_pmus;
  char (*bad_pmus)[PMU_NAME_MAX]; /* failed to load: said once, not retried */
  size_t n_bad_pmus;
  struct t410_group *groups; /* grown as groups are added */
  size_t n_groups, cap_groups;
  bool preset_on;       /* the preset's PMUs are looked for */
  bool sysfs_root_set;  /* SysfsRoot was configured (not the default) */
  const char *pmu_what; /* static: how a PMU's INFO line names the
                         * occasion ("PMU" at init, "appeared" later) */
  /* The PMU directory as listed at the last read (t410_hotplug.h). */
  struct t410_hotplug pmu_watch;
};

/* tegra410_uncore.c: the PMU `name`, loaded once; NULL when it cannot be
 * counted (said once by pmu_desc_load, and not tried again by later
 * groups until it is registered again). `what` names the occasion in its
 * INFO line. */
const struct pmu_desc *t410_pmu_get(struct t410 *d, const char *name,
                                    const char *what);
/* Build group n_groups from a parsed spec; NULL (logged) if it cannot be,
 * with *config_error set when the spec itself is wrong (mixed PMUs, an
 * event or term the PMU does not have) rather than the PMU absent or
 * unusable. The caller commits it by incrementing n_groups. */
struct t410_group *t410_group_build(struct t410 *d, const char *text,
                                    const struct pmu_group_spec *spec,
                                    bool *config_error);
/* t410_preset_scan's callback (ctx: the struct t410): one preset group. */
bool t410_preset_add(void *ctx, const char *text,
                     const struct t410_preset_tags *tags,
                     const enum t410_role *roles, size_t n);
/* Open `g` (its state starts afresh); on failure, retry after the
 * backoff (pmu_group_open says why, once). */
int t410_group_start(struct t410_group *g, uint64_t now);
void t410_group_fini(struct t410_group *g);

/* t410_config.c */
int t410_config_apply(struct t410_config *cfg, const struct cfg_item *item);
/* The keys t410_config_apply() takes (cfg.h), for --help. */
extern const struct cfg_option t410_options[];
void t410_config_fini(struct t410_config *cfg);

/* t410_state.c: fold the engine's `r` (n events) into `s`. The window is
 * the group's enabled time over the interval per CPU (ELAPSED_TIME_IN_NS
 * of the kernel doc). An interval without running time leaves the totals
 * as they are and is counted in not_counted. Pure. */
void t410_series_update(struct t410_series *s, const struct pmu_reading *r,
                        size_t n);
/* Forget everything (after a reopen, counts restart at 0). */
void t410_series_reset(struct t410_series *s);

/* t410_report.c: the records of reading `i` of `g` at Unix time `time_ns`.
 * Builds from state only; 0 or the first error of building or writing. */
int t410_report(const struct t410 *d, const struct t410_group *g, size_t i,
                struct metric_sink *sink, uint64_t time_ns);

#endif
