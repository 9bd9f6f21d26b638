/*
 * shim_perf.c: perf_event_open on fake PMUs, for PMU types from
 * SHIM_PERF_TYPE_BASE (4000) up, so tests point the plugin at a synthetic
 * sysfs whose `type` files hold such numbers.
 *
 * Validation as the kernel does for uncore PMUs (reference sheet): pid
 * must be -1 (EINVAL), sampling is refused (EOPNOTSUPP), exclude bits are
 * refused (EINVAL), a member must join a leader of the same PMU (EINVAL).
 * SHIM_PERF_EACCES_TYPE=<type> makes opens of that type fail with EACCES.
 *
 * Counting: every event counts at a rate fixed by its config,
 *   rate = 1e6 * (1 + (config & 0xffffffff) % 97 + (config >> 32))  per s
 * since the group was enabled (CLOCK_MONOTONIC), and time_running equals
 * time_enabled. Tests derive their expectations from the same formula, so
 * every ratio the plugin computes is exact whatever the scheduling.
 * Reads follow read_format GROUP | ID | TOTAL_TIME_ENABLED | RUNNING.
 */
#include "tests/shim/shim.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SHIM_PERF_MAX_GROUP 16

struct shim_perf_event {
  uint32_t type;
  uint64_t config;
  uint64_t id;
  uint64_t read_format;
  struct shim_perf_event *leader;                       /* self for leaders */
  struct shim_perf_event *members[SHIM_PERF_MAX_GROUP]; /* leader only */
  size_t n_members;
  uint64_t enabled_at_ns; /* 0 while disabled */
};

static uint64_t shim_perf_next_id = 1;

static uint64_t shim_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static uint64_t shim_perf_rate(uint64_t config) {
  return 1000000ull * (1 + (config & 0xffffffffu) % 97 + (config >> 32));
}

static ssize_t shim_perf_read(struct shim_file *f, void *buf, size_t len) {
  struct shim_perf_event *e = f->data;
  if (e->leader != e || !(e->read_format & PERF_FORMAT_GROUP)) {
    errno = EINVAL; /* only group reads on the leader are emulated */
    return -1;
  }
  size_t words = 3 + 2 * e->n_members;
  if (len < words * sizeof(uint64_t)) {
    errno = ENOSPC;
    return -1;
  }
  uint64_t elapsed = e->enabled_at_ns ? shim_now_ns() - e->enabled_at_ns : 0;
  uint64_t *w = buf;
  w[0] = e->n_members;
  w[1] = elapsed;
  w[2] = elapsed;
  for (size_t i = 0; i < e->n_members; i++) {
    const struct shim_perf_event *m = e->members[i];
    /* counts = rate * elapsed, in 128-bit to stay exact */
    w[3 + 2 * i] = (uint64_t)((unsigned __int128)shim_perf_rate(m->config) *
                              elapsed / 1000000000u);
    w[4 + 2 * i] = m->id;
  }
  return (ssize_t)(words * sizeof(uint64_t));
}

static int shim_perf_ioctl(struct shim_file *f, unsigned long request,
                           void *arg) {
  struct shim_perf_event *e = f->data;
  switch (request) {
  case PERF_EVENT_IOC_ID:
    *(uint64_t *)arg = e->id;
    return 0;
  case PERF_EVENT_IOC_ENABLE:
    if (e->enabled_at_ns == 0)
      e->enabled_at_ns = shim_now_ns();
    return 0;
  case PERF_EVENT_IOC_DISABLE:
    e->enabled_at_ns = 0;
    return 0;
  case PERF_EVENT_IOC_RESET:
    return 0;
  }
  errno = ENOTTY;
  return -1;
}

static void shim_perf_release(struct shim_file *f) {
  struct shim_perf_event *e = f->data;
  struct shim_perf_event *leader = e->leader;
  if (leader != e) /* a member: leave the leader's list */
    for (size_t i = 0; i < leader->n_members; i++)
      if (leader->members[i] == e)
        leader->members[i] = leader->members[--leader->n_members];
  free(e);
}

static const struct shim_perf_ops_holder {
  struct shim_ops ops;
} shim_perf = {{shim_perf_read, shim_perf_ioctl, shim_perf_release}};

long shim_perf_event_open(void *attr_ptr, long pid, long cpu, long group_fd,
                          long flags) {
  (void)cpu;
  (void)flags;
  /* callers pass int arguments through syscall()'s varargs: only the low
   * 32 bits are defined, as in the kernel's own prototype */
  int pid_arg = (int)pid, group = (int)group_fd;
  const struct perf_event_attr *attr = attr_ptr;
  const char *eacces = getenv("SHIM_PERF_EACCES_TYPE");
  if (eacces != NULL && strtoul(eacces, NULL, 10) == attr->type) {
    errno = EACCES;
    return -1;
  }
  if (pid_arg != -1 || attr->exclude_user || attr->exclude_kernel ||
      attr->exclude_hv || attr->exclude_idle || attr->inherit) {
    errno = EINVAL;
    return -1;
  }
  if (attr->sample_period != 0 || attr->freq) {
    errno = EOPNOTSUPP;
    return -1;
  }
  shim_lock();
  struct shim_perf_event *leader = NULL;
  if (group >= 0) {
    struct shim_file *lf = shim_file_get(group);
    leader = lf ? lf->data : NULL;
    if (leader == NULL || leader->type != attr->type ||
        leader->n_members == SHIM_PERF_MAX_GROUP) {
      shim_unlock();
      errno = EINVAL;
      return -1;
    }
  }
  struct shim_perf_event *e = calloc(1, sizeof(*e));
  if (e == NULL) {
    shim_unlock();
    errno = ENOMEM;
    return -1;
  }
  e->type = attr->type;
  e->config = attr->config;
  e->read_format = attr->read_format;
  e->id = shim_perf_next_id++;
  e->leader = leader ? leader : e;
  e->leader->members[e->leader->n_members++] = e;
  int fd = shim_file_new(&shim_perf.ops, e);
  if (fd < 0) {
    int err = errno;
    e->leader->n_members--;
    free(e);
    shim_unlock();
    errno = err;
    return -1;
  }
  shim_unlock();
  return fd;
}
