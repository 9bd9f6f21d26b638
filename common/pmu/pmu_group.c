/*
 * pmu_group.c: counting groups through perf_event_open(2) (pmu_group.h).
 */
#include "common/pmu/pmu_group.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* include/uapi/linux/perf_event.h: config3 and config4 follow sig_data */
#define PMU_ATTR_SIZE_VER8 136      /* adds config3 (Linux 6.3) */
#define PMU_ATTR_SIZE_VER9 144      /* adds config4 */
#define PMU_ATTR_CONFIG3_OFFSET 128 /* right after sig_data */
#define PMU_ATTR_CONFIG4_OFFSET 136

int pmu_group_init(struct pmu_group *g, const char *plugin,
                   const struct kernel_ops *kernel, const struct pmu_desc *pmu,
                   const struct pmu_event *events, size_t n) {
  memset(g, 0, sizeof(*g));
  if (n == 0 || n > PMU_MAX_GROUP || pmu->n_cpus == 0)
    return -EINVAL;
  g->plugin = plugin;
  g->kernel = kernel;
  snprintf(g->pmu, sizeof(g->pmu), "%s", pmu->name);
  g->type = pmu->type;
  g->n_cpus = pmu->n_cpus;
  /* a cpumask of several CPUs: one uncore instance per CPU (socket, die),
   * kept apart; no cpumask: a per-CPU PMU, summed */
  g->per_cpu = pmu->has_cpumask && pmu->n_cpus > 1;
  g->n_readings = g->per_cpu ? g->n_cpus : 1;
  g->n_events = n;
  memcpy(g->events, events, n * sizeof(*events));
  g->cpus = malloc(g->n_cpus * sizeof(*g->cpus));
  g->readings = calloc(g->n_readings, sizeof(*g->readings));
  if (g->cpus == NULL || g->readings == NULL) {
    pmu_group_fini(g);
    return -ENOMEM;
  }
  memcpy(g->cpus, pmu->cpus, g->n_cpus * sizeof(*g->cpus));
  for (size_t r = 0; r < g->n_readings; r++) {
    g->readings[r].cpu = g->per_cpu ? g->cpus[r] : -1;
    g->readings[r].n_cpus = g->per_cpu ? 1 : g->n_cpus;
    if (!g->per_cpu && g->n_cpus == 1)
      g->readings[r].cpu = g->cpus[0];
  }
  return 0;
}

void pmu_group_fini(struct pmu_group *g) {
  pmu_group_close(g);
  free(g->cpus);
  free(g->readings);
  g->cpus = NULL;
  g->readings = NULL;
  g->n_cpus = g->n_readings = 0;
}

void pmu_group_close(struct pmu_group *g) {
  if (g->fds != NULL)
    for (size_t i = 0; i < g->n_cpus * g->n_events; i++)
      if (g->fds[i] >= 0) {
        g->kernel->close(g->fds[i]);
        g->fds[i] = -1;
      }
  free(g->fds);
  free(g->ids);
  free(g->readbuf);
  free(g->prev);
  free(g->cur);
  g->fds = NULL;
  g->ids = NULL;
  g->readbuf = NULL;
  g->prev = NULL;
  g->cur = NULL;
  g->open = false;
}

/* perf_event_open of event `k` on CPU `cpu`; the fd or -errno. */
static int pmu_event_open(struct pmu_group *g, size_t k, int cpu, int leader) {
  const struct pmu_event *ev = &g->events[k];
  /* config3 (Linux 6.3) sits after sig_data at offset 128, config4 at
   * 136; older headers lack them, so the attr is built in a larger buffer
   * and its size grows to PERF_ATTR_SIZE_VER8 or VER9 only when they are
   * used (a kernel without them refuses a larger attr whose extra bytes
   * are not zero with E2BIG: perf_copy_attr) */
  union {
    struct perf_event_attr attr;
    unsigned char bytes[PMU_ATTR_SIZE_VER9];
  } a;
  memset(&a, 0, sizeof(a));
  struct perf_event_attr *attr = &a.attr;
  attr->size = ev->config[4]   ? PMU_ATTR_SIZE_VER9
               : ev->config[3] ? PMU_ATTR_SIZE_VER8
                               : sizeof(*attr);
  attr->type = g->type;
  attr->config = ev->config[0];
  attr->config1 = ev->config[1];
  attr->config2 = ev->config[2];
  if (ev->config[3])
    memcpy(a.bytes + PMU_ATTR_CONFIG3_OFFSET, &ev->config[3],
           sizeof(ev->config[3]));
  if (ev->config[4])
    memcpy(a.bytes + PMU_ATTR_CONFIG4_OFFSET, &ev->config[4],
           sizeof(ev->config[4]));
  attr->read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID |
                      PERF_FORMAT_TOTAL_TIME_ENABLED |
                      PERF_FORMAT_TOTAL_TIME_RUNNING;
  attr->disabled = k == 0;
  int fd =
      g->kernel->perf_event_open(attr, -1, cpu, leader, PERF_FLAG_FD_CLOEXEC);
  if (fd >= 0)
    return fd;
  int err = errno;
  char object[PMU_NAME_MAX + PMU_EVENT_TEXT_MAX + 2];
  snprintf(object, sizeof(object), "%s/%s/", g->pmu, ev->text);
  if (log_complaint_raise(&g->complaint))
    log_errno(LOG_LEVEL_WARNING, g->plugin, object, "perf_event_open", err,
              "system-wide counting needs kernel.perf_event_paranoid <= 0, "
              "or CAP_PERFMON (CAP_SYS_ADMIN before Linux 5.8)");
  return -err;
}

/* Open and enable the group on the CPU at index `c`. */
static int pmu_group_open_cpu(struct pmu_group *g, size_t c) {
  int leader = -1;
  for (size_t k = 0; k < g->n_events; k++) {
    int fd = pmu_event_open(g, k, g->cpus[c], leader);
    if (fd < 0)
      return fd;
    g->fds[c * g->n_events + k] = fd;
    if (kernel_ioctl_retry(g->kernel, fd, PERF_EVENT_IOC_ID,
                           &g->ids[c * g->n_events + k]) < 0)
      return -errno;
    if (k == 0)
      leader = fd;
  }
  if (kernel_ioctl_retry(g->kernel, leader, PERF_EVENT_IOC_ENABLE,
                         (void *)(uintptr_t)PERF_IOC_FLAG_GROUP) < 0)
    return -errno;
  return 0;
}

int pmu_group_open(struct pmu_group *g) {
  size_t n = g->n_cpus * g->n_events;
  pmu_group_close(g);
  g->fds = malloc(n * sizeof(*g->fds));
  g->ids = calloc(n, sizeof(*g->ids));
  g->readbuf = calloc(3 + 2 * g->n_events, sizeof(*g->readbuf));
  /* the first baseline: the kernel starts counts and times at 0 */
  g->prev = calloc(g->n_cpus, sizeof(*g->prev));
  g->cur = calloc(g->n_cpus, sizeof(*g->cur));
  if (g->fds == NULL || g->ids == NULL || g->readbuf == NULL ||
      g->prev == NULL || g->cur == NULL) {
    pmu_group_close(g);
    return -ENOMEM;
  }
  for (size_t i = 0; i < n; i++)
    g->fds[i] = -1;
  for (size_t c = 0; c < g->n_cpus; c++) {
    int rc = pmu_group_open_cpu(g, c);
    if (rc < 0) {
      pmu_group_close(g);
      return rc;
    }
  }
  if (log_complaint_release(&g->complaint))
    log_msg(LOG_LEVEL_INFO, g->plugin, g->pmu, "perf_event_open",
            "counting again");
  g->open = true;
  return 0;
}

int pmu_group_decode(const uint64_t *words, size_t n_words, const uint64_t *ids,
                     size_t n_events, struct pmu_counts *out) {
  memset(out, 0, sizeof(*out));
  if (n_events > PMU_MAX_GROUP || n_words < 3 + 2 * n_events ||
      words[0] != n_events)
    return -EIO;
  out->enabled_ns = words[1];
  out->running_ns = words[2];
  for (size_t i = 0; i < n_events; i++) {
    uint64_t value = words[3 + 2 * i], id = words[4 + 2 * i];
    size_t k = 0;
    while (k < n_events && ids[k] != id)
      k++;
    if (k == n_events)
      return -EIO;
    out->values[k] = value;
  }
  return 0;
}

enum pmu_scaled pmu_counts_delta(const struct pmu_counts *prev,
                                 const struct pmu_counts *now, size_t n_events,
                                 struct pmu_counts *out) {
  memset(out, 0, sizeof(*out));
  if (n_events > PMU_MAX_GROUP)
    n_events = PMU_MAX_GROUP;
  /* evsel__compute_deltas: u64 differences of all three */
  uint64_t ena = now->enabled_ns - prev->enabled_ns;
  uint64_t run = now->running_ns - prev->running_ns;
  out->enabled_ns = ena;
  out->running_ns = run;
  /* perf_counts_values__scale: run 0 is "not counted", value 0 */
  if (run == 0)
    return PMU_NOT_COUNTED;
  enum pmu_scaled scaled = run < ena ? PMU_SCALED : PMU_EXACT;
  for (size_t k = 0; k < n_events; k++) {
    uint64_t val = now->values[k] - prev->values[k];
    if (scaled == PMU_SCALED) {
      /* perf's own arithmetic, (u64)((double)val * ena / run); a result
       * of 2^64 or more, which that conversion leaves undefined,
       * saturates */
      double v = (double)val * (double)ena / (double)run;
      val = v >= 18446744073709551616.0 ? UINT64_MAX : (uint64_t)v;
    }
    out->values[k] = val;
  }
  return scaled;
}

int pmu_group_read(struct pmu_group *g) {
  if (!g->open)
    return -EBADF;
  size_t words = 3 + 2 * g->n_events;
  for (size_t c = 0; c < g->n_cpus; c++) {
    ssize_t n = kernel_read_retry(g->kernel, g->fds[c * g->n_events],
                                  g->readbuf, words * sizeof(uint64_t));
    if (n < 0)
      return -errno;
    if ((size_t)n != words * sizeof(uint64_t) ||
        pmu_group_decode(g->readbuf, words, &g->ids[c * g->n_events],
                         g->n_events, &g->cur[c]) < 0)
      return -EIO;
  }
  /* every CPU read: difference each against its baseline, then commit */
  for (size_t r = 0; r < g->n_readings; r++) {
    struct pmu_reading *out = &g->readings[r];
    size_t first = g->per_cpu ? r : 0, last = g->per_cpu ? r + 1 : g->n_cpus;
    bool counted = false, scaled = false;
    out->enabled_ns = out->running_ns = 0;
    out->d_enabled_ns = out->d_running_ns = 0;
    memset(out->counts, 0, sizeof(out->counts));
    memset(out->delta, 0, sizeof(out->delta));
    for (size_t c = first; c < last; c++) {
      struct pmu_counts d;
      enum pmu_scaled s =
          pmu_counts_delta(&g->prev[c], &g->cur[c], g->n_events, &d);
      counted |= s != PMU_NOT_COUNTED;
      scaled |= s == PMU_SCALED;
      out->enabled_ns += g->cur[c].enabled_ns;
      out->running_ns += g->cur[c].running_ns;
      out->d_enabled_ns += d.enabled_ns;
      out->d_running_ns += d.running_ns;
      for (size_t k = 0; k < g->n_events; k++) {
        out->counts[k] += g->cur[c].values[k];
        out->delta[k] += d.values[k];
      }
    }
    out->scaled = !counted ? PMU_NOT_COUNTED : scaled ? PMU_SCALED : PMU_EXACT;
  }
  memcpy(g->prev, g->cur, g->n_cpus * sizeof(*g->prev));
  return 0;
}
