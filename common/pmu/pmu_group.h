/*
 * pmu_group.h: counting groups through perf_event_open(2).
 *
 * A group is up to PMU_MAX_GROUP events of one PMU, opened on every CPU of
 * the PMU (pmu_sysfs.h): the leader disabled with group_fd -1, members with
 * the leader's fd, pid -1 (system-wide on that CPU), no exclude bits
 * (uncore PMUs reject them), read_format GROUP | ID | TOTAL_TIME_ENABLED |
 * TOTAL_TIME_RUNNING, so one read() per CPU returns every count of the
 * group over the same window:
 *
 *   nr, time_enabled, time_running, { value, id } x nr
 *
 * Counting follows perf stat -I: each read is differenced against the
 * previous one per CPU first (value, enabled and running:
 * tools/perf/util/evsel.c evsel__compute_deltas), then the delta is scaled
 * by its own enabled / running (tools/lib/perf/evsel.c
 * perf_counts_values__scale); an interval with no running time was not
 * counted, and has no value. The open is the first baseline (the kernel
 * starts every count and time at 0). Readings: a PMU whose cpumask lists
 * several CPUs (one per socket or die) gives one reading per CPU, since
 * each counts its own hardware; a PMU with one cpumask CPU gives one
 * reading; a PMU without a cpumask (core, msr, software) gives one
 * reading summed over every online CPU (per-CPU scaled deltas added up),
 * as `perf stat -a` does. Every kernel call goes through `kernel` (kernel.h).
 * Buffers are allocated at open: reading allocates nothing.
 */
#ifndef COMMON_PMU_PMU_GROUP_H
#define COMMON_PMU_PMU_GROUP_H

#include "common/core/kernel.h"
#include "common/core/log.h"
#include "common/pmu/pmu_event_resolve.h"
#include "common/pmu/pmu_sysfs.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One group read on one CPU, as the kernel returned it (cumulative since
 * the open, never scaled); or the difference of two of them. */
struct pmu_counts {
  uint64_t enabled_ns, running_ns;
  uint64_t values[PMU_MAX_GROUP];
};

/* perf_counts_values__scale's verdict on an interval (its `pscaled`). */
enum pmu_scaled {
  PMU_NOT_COUNTED = -1, /* no running time: no value */
  PMU_EXACT = 0,        /* ran the whole enabled time */
  PMU_SCALED = 1,       /* multiplexed: value * enabled / running */
};

/* One read of a group on the CPUs a reading covers. */
struct pmu_reading {
  int cpu;       /* the CPU, or -1 when summed over several */
  size_t n_cpus; /* CPUs summed into it */
  /* cumulative since the open, summed over those CPUs, not scaled */
  uint64_t enabled_ns, running_ns;
  uint64_t counts[PMU_MAX_GROUP];
  /* this read minus the previous one (or the open), summed over the CPUs;
   * delta[] holds the scaled deltas, and is 0 when not counted */
  uint64_t d_enabled_ns, d_running_ns;
  uint64_t delta[PMU_MAX_GROUP];
  enum pmu_scaled scaled; /* NOT_COUNTED when no CPU ran in this interval */
};

struct pmu_group {
  const char *plugin;              /* borrowed: for messages */
  const struct kernel_ops *kernel; /* borrowed */
  char pmu[PMU_NAME_MAX];
  uint32_t type;
  int *cpus; /* owned copy of the PMU's CPUs */
  size_t n_cpus;
  bool per_cpu; /* one reading per CPU (a cpumask of several CPUs) */
  size_t n_events;
  struct pmu_event events[PMU_MAX_GROUP];
  size_t n_readings;            /* n_cpus when per_cpu, else 1 */
  struct pmu_reading *readings; /* owned, n_readings: the last read */
  int *fds;                     /* n_cpus x n_events, -1 when closed */
  uint64_t *ids;                /* the same shape: PERF_EVENT_IOC_ID */
  uint64_t *readbuf;            /* 3 + 2 * n_events words */
  struct pmu_counts *prev;      /* owned, n_cpus: the previous read */
  struct pmu_counts *cur;       /* owned, n_cpus: this read */
  bool open;
  struct log_complaint complaint; /* open failures, logged once */
};

/*
 * Set up `g` (caller-owned storage) for `n` resolved events (copied) on
 * `pmu`'s CPUs; nothing is opened. `plugin` and `kernel` are borrowed and
 * must outlive the group. Returns 0, -EINVAL (n is 0 or above
 * PMU_MAX_GROUP) or -ENOMEM. Release with pmu_group_fini().
 */
int pmu_group_init(struct pmu_group *g, const char *plugin,
                   const struct kernel_ops *kernel, const struct pmu_desc *pmu,
                   const struct pmu_event *events, size_t n);

/* Close and free everything `g` owns. */
void pmu_group_fini(struct pmu_group *g);

/*
 * Open the group on every CPU and enable it. Returns 0 or the negative errno
 * of the first failing call, with every fd closed again; a perf_event_open
 * failure is logged once until an open succeeds (EACCES/EPERM with the
 * perf_event_paranoid hint).
 */
int pmu_group_open(struct pmu_group *g);

/* Close every fd (set to -1); the group can be opened again. */
void pmu_group_close(struct pmu_group *g);

/*
 * One read() per CPU, decoded and differenced into g->readings. Returns 0,
 * the negative errno of a failed read (ENODEV: PMU gone or CPU unplugged),
 * or -EIO for a short or malformed answer; after an error the readings and
 * the baseline are those of the last successful read.
 */
int pmu_group_read(struct pmu_group *g);

/*
 * Decode one group read (`n_words` words as read) whose events carry `ids`
 * (n_events of them) into `out`: enabled, running and each event's value in
 * `ids` order, as read; `out` is zeroed first. Pure. Returns 0 or -EIO
 * (short buffer, nr other than n_events, unknown id).
 */
int pmu_group_decode(const uint64_t *words, size_t n_words, const uint64_t *ids,
                     size_t n_events, struct pmu_counts *out);

/*
 * perf's counting of one interval on one CPU: `out` = `now` - `prev` for
 * value, enabled and running (modulo 2^64, as evsel__compute_deltas
 * subtracts), then the values scaled as perf_counts_values__scale does:
 * running 0 -> not counted, values 0; running < enabled -> value *
 * enabled / running, in double as perf computes it (saturating at
 * UINT64_MAX where the double exceeds 64 bits); otherwise exact. Pure.
 */
enum pmu_scaled pmu_counts_delta(const struct pmu_counts *prev,
                                 const struct pmu_counts *now, size_t n_events,
                                 struct pmu_counts *out);

#endif
