/*
 * t410_perf.c: counting groups through perf_event_open(2).
 *
 * One group per Event option and CPU: the leader is opened disabled with
 * group_fd -1, members with the leader's fd, pid -1 (system-wide on that
 * CPU), no exclude bits (uncore PMUs reject them), read_format
 * GROUP | ID | TOTAL_TIME_ENABLED | TOTAL_TIME_RUNNING, so one read()
 * returns every count of the group over the same window:
 *
 *   nr, time_enabled, time_running, { value, id } x nr
 *
 * Counts are scaled by enabled / running when the kernel multiplexed the
 * group. The read buffer is allocated at open: reading allocates nothing.
 */
#include "plugins/tegra410_uncore/t410.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#define T410_ATTR_SIZE_VER8 136      /* add: config3 (Linux 6.3) */
#define T410_ATTR_CONFIG3_OFFSET 128 /* right after sig_data */

static int t410_sys_perf_event_open(struct perf_event_attr *attr, pid_t pid,
                                    int cpu, int group_fd,
                                    unsigned long flags) {
  /* glibc has no wrapper */
  return (int)syscall(__NR_perf_event_open, attr, pid, cpu, group_fd, flags);
}

static int t410_sys_ioctl(int fd, unsigned long request, void *arg) {
  return ioctl(fd, request, arg);
}

const struct t410_kernel t410_kernel_real = {
    .perf_event_open = t410_sys_perf_event_open,
    .read = read,
    .ioctl = t410_sys_ioctl,
    .close = close,
};

void t410_group_close(struct t410_group *g) {
  if (g->fds != NULL)
    for (size_t i = 0; i < g->n_cpus * g->n_counters; i++)
      if (g->fds[i] >= 0) {
        g->kernel->close(g->fds[i]);
        g->fds[i] = -1;
      }
  free(g->fds);
  free(g->ids);
  free(g->readbuf);
  g->fds = NULL;
  g->ids = NULL;
  g->readbuf = NULL;
  g->open = false;
}

int t410_group_open(struct t410_group *g) {
  size_t n = g->n_cpus * g->n_counters;
  g->fds = malloc(n * sizeof(*g->fds));
  g->ids = calloc(n, sizeof(*g->ids));
  g->readbuf = calloc(3 + 2 * g->n_counters, sizeof(*g->readbuf));
  if (g->fds == NULL || g->ids == NULL || g->readbuf == NULL) {
    t410_group_close(g);
    return -ENOMEM;
  }
  for (size_t i = 0; i < n; i++)
    g->fds[i] = -1;
  for (size_t c = 0; c < g->n_cpus; c++) {
    int leader = -1;
    for (size_t k = 0; k < g->n_counters; k++) {
      const struct t410_counter *ctr = &g->counters[k];
      /* config3 (Linux 6.3) sits after sig_data at offset 128; these
       * headers predate it, so the attr is built in a larger buffer and
       * its size grows to PERF_ATTR_SIZE_VER8 only when config3 is used */
      union {
        struct perf_event_attr attr;
        unsigned char bytes[T410_ATTR_SIZE_VER8];
      } a;
      memset(&a, 0, sizeof(a));
      struct perf_event_attr *attr = &a.attr;
      attr->size = ctr->config[3] ? T410_ATTR_SIZE_VER8 : sizeof(*attr);
      attr->type = g->type;
      attr->config = ctr->config[0];
      attr->config1 = ctr->config[1];
      attr->config2 = ctr->config[2];
      if (ctr->config[3])
        memcpy(a.bytes + T410_ATTR_CONFIG3_OFFSET, &ctr->config[3],
               sizeof(ctr->config[3]));
      attr->read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID |
                          PERF_FORMAT_TOTAL_TIME_ENABLED |
                          PERF_FORMAT_TOTAL_TIME_RUNNING;
      attr->disabled = k == 0;
      int fd = g->kernel->perf_event_open(attr, -1, g->cpus[c], leader,
                                          PERF_FLAG_FD_CLOEXEC);
      if (fd < 0) {
        int err = errno;
        char object[PMU_NAME_MAX + T410_EVENT_TEXT_MAX + 2];
        snprintf(object, sizeof(object), "%s/%s/", g->pmu, ctr->event);
        if (log_complaint_raise(&g->complaint))
          log_errno(
              LOG_LEVEL_WARNING, T410_PLUGIN, object, "perf_event_open", err,
              "system-wide counting needs kernel.perf_event_paranoid <= 0, "
              "or CAP_PERFMON (CAP_SYS_ADMIN before Linux 5.8)");
        t410_group_close(g);
        return -err;
      }
      g->fds[c * g->n_counters + k] = fd;
      if (g->kernel->ioctl(fd, PERF_EVENT_IOC_ID,
                           &g->ids[c * g->n_counters + k]) < 0) {
        int err = errno;
        t410_group_close(g);
        return -err;
      }
      if (k == 0)
        leader = fd;
    }
    if (g->kernel->ioctl(leader, PERF_EVENT_IOC_ENABLE,
                         (void *)(uintptr_t)PERF_IOC_FLAG_GROUP) < 0) {
      int err = errno;
      t410_group_close(g);
      return -err;
    }
  }
  if (log_complaint_release(&g->complaint))
    log_msg(LOG_LEVEL_INFO, T410_PLUGIN, g->pmu, "perf_event_open",
            "\"%s\" is counting again", g->text);
  for (size_t k = 0; k < g->n_counters; k++)
    g->counters[k].have_prev = false;
  g->open = true;
  return 0;
}

int t410_group_read(struct t410_group *g) {
  size_t words = 3 + 2 * g->n_counters;
  uint64_t sums[PMU_MAX_GROUP] = {0};
  uint64_t enabled = 0, running = 0;
  for (size_t c = 0; c < g->n_cpus; c++) {
    ssize_t n = g->kernel->read(g->fds[c * g->n_counters], g->readbuf,
                                words * sizeof(uint64_t));
    if (n < 0)
      return -errno;
    if ((size_t)n != words * sizeof(uint64_t) || g->readbuf[0] != g->n_counters)
      return -EIO;
    uint64_t e = g->readbuf[1], r = g->readbuf[2];
    enabled += e;
    running += r;
    for (size_t i = 0; i < g->n_counters; i++) {
      uint64_t value = g->readbuf[3 + 2 * i], id = g->readbuf[4 + 2 * i];
      for (size_t k = 0; k < g->n_counters; k++) {
        if (g->ids[c * g->n_counters + k] != id)
          continue;
        /* multiplexed: the group ran for r of e ns */
        if (r > 0 && r < e)
          value = (uint64_t)((double)value * (double)e / (double)r);
        sums[k] += r > 0 ? value : 0;
      }
    }
  }
  for (size_t k = 0; k < g->n_counters; k++)
    g->counters[k].count = sums[k];
  g->prev_enabled_ns = g->enabled_ns;
  g->enabled_ns = enabled;
  g->running_ns = running;
  return 0;
}
