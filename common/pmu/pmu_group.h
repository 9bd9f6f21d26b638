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
 * Counts are scaled by enabled / running when the kernel multiplexed the
 * group. Readings: a PMU whose cpumask lists several CPUs (one per socket or
 * die) gives one reading per CPU, since each counts its own hardware; a PMU
 * with one cpumask CPU gives one reading; a PMU without a cpumask (core,
 * msr, software) gives one reading summed over every online CPU, as
 * `perf stat -a` does. Every kernel call goes through `kernel` (kernel.h).
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

/* One read of a group on the CPUs a reading covers. */
struct pmu_reading {
  int cpu;                         /* the CPU, or -1 when summed over several */
  size_t n_cpus;                   /* CPUs summed into it */
  uint64_t enabled_ns, running_ns; /* summed over those CPUs */
  uint64_t counts[PMU_MAX_GROUP];  /* multiplex-scaled, summed */
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
 * One read() per CPU, decoded into g->readings. Returns 0, the negative
 * errno of a failed read (ENODEV: PMU gone or CPU unplugged), or -EIO for a
 * short or malformed answer; after an error the readings are not valid
 * (some CPUs may hold the new read) until a read succeeds.
 */
int pmu_group_read(struct pmu_group *g);

/*
 * Decode one group read (`n_words` words as read) whose events carry `ids`
 * (n_events of them) into `out`: enabled, running and each event's count in
 * `ids` order, scaled by enabled / running (exactly, saturating at
 * UINT64_MAX; 0 when it never ran); `out`
 * is zeroed first (cpu 0, n_cpus 0: the caller says which CPUs). Pure.
 * Returns 0 or -EIO (short buffer, nr other than n_events, unknown id).
 */
int pmu_group_decode(const uint64_t *words, size_t n_words, const uint64_t *ids,
                     size_t n_events, struct pmu_reading *out);

#endif
