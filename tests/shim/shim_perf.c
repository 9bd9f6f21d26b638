/*
 * shim_perf.c: perf_event_open(2) on fake PMUs (shim_perf.h), with the
 * validation the kernel applies to uncore PMUs (drivers/perf/arm_cspmu/
 * arm_cspmu.c arm_cspmu_event_init): pid must be -1 and cpu >= 0
 * (EINVAL), sampling is refused (EOPNOTSUPP), exclude and inherit bits are
 * refused (EINVAL; kernel/events/core.c perf_event_open checks
 * PERF_PMU_CAP_NO_EXCLUDE), a member must join a leader (not a member) of
 * the same PMU on the same CPU (EINVAL), a group_fd that is no perf fd is
 * EBADF, attr.size below 64 or above a page is E2BIG.
 *
 * Groups follow kernel/events/core.c: enabling a leader with
 * PERF_IOC_FLAG_GROUP acts on every member; a group read reports the
 * leader's times and every member's value (perf_read_group). Events are
 * refcounted: a member holds a reference on its leader, and when the
 * leader's fd is closed first its members become singleton events that
 * keep counting, as perf_group_detach() makes them.
 *
 * Counters and multiplexing, for a PMU type given counters
 * (shim_perf_set_counters): the PMU has N general counters and, when
 * given, one dedicated cycle counter that only its cycles event can use
 * and that event can use nothing else (arm_cspmu.c
 * arm_cspmu_get_event_idx). A group that can never fit is refused at open
 * with EINVAL (arm_cspmu_validate_group). Per (PMU, CPU) context the
 * enabled groups are scheduled in order, all or nothing
 * (group_sched_in); once one does not fit, no later group is tried in
 * that pass (merge_sched_in clears can_add_hw) and rotation becomes
 * necessary. Every multiplexing interval (perf_event_mux_interval_ms;
 * 4 ms, 1000 / HZ at HZ=250, unless scripted) perf_rotate_context moves
 * the first scheduled group to the end of the list and schedules again
 * (ctx_event_to_rotate, rotate_ctx, ctx_sched_in). An enabled event's
 * time_enabled advances all the time, time_running only while it is on a
 * counter (perf_event_update_time), and its count grows by its rate over
 * its running time. Where it simplifies: only flexible groups (no pinned
 * or exclusive events), every state change reschedules the whole context
 * at once as ctx_resched does, the timer ticks exactly on time, and a
 * type without scripted counters has as many as any group needs (then a
 * scripted running ratio, shim_perf_set_running_ratio, stands in for
 * multiplexing).
 */
#include "tests/shim/shim_perf.h"
#include "tests/shim/shim.h"
#include "tests/shim/shim_libc.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SHIM_PERF_MAX_GROUP 16
#define SHIM_PERF_MAX_RATES 256
#define SHIM_PERF_MAX_TYPES 64
#ifndef PERF_FORMAT_LOST
#define PERF_FORMAT_LOST (1u << 4) /* Linux 6.0 */
#endif

struct shim_perf_event {
  int refs; /* the fd's, and one per member naming it as leader */
  struct shim_perf_info info;
  uint64_t read_format;
  struct shim_perf_event *leader;                     /* self, or held */
  struct shim_perf_event *group[SHIM_PERF_MAX_GROUP]; /* leader: self 1st */
  size_t n_group;
  bool on;        /* its own enable state (attr.disabled, ioctls) */
  bool counting;  /* on and its leader on: time_enabled advances */
  bool active;    /* on a counter: time_running and the count advance */
  uint64_t order; /* a leader's place in its context (group_index) */
  uint64_t enabled_ns, running_ns, since_ns; /* accounted up to since_ns */
  unsigned __int128 acc;                     /* rate x running ns, summed */
  uint64_t reset_base;                       /* raw count at the last RESET */
  struct shim_perf_event *next;              /* the list of open events */
};

static pthread_mutex_t shim_perf_mutex = PTHREAD_MUTEX_INITIALIZER;
static bool shim_perf_on;
static uint32_t shim_perf_base = SHIM_PERF_TYPE_BASE;
static uint64_t shim_perf_next_id = 1;
static struct shim_perf_event *shim_perf_events; /* oldest first */
static struct {
  uint32_t type;
  uint64_t config, per_s;
} shim_perf_rates[SHIM_PERF_MAX_RATES];
static size_t shim_perf_n_rates;
static struct {
  uint32_t type, num, den;
  int err;                /* fail_type */
  bool counted;           /* counters scripted: contention is modelled */
  uint32_t n_counters;    /* general counters */
  bool has_cycle;         /* plus one dedicated cycle counter */
  uint64_t cycles_config; /* the event that uses it */
} shim_perf_types[SHIM_PERF_MAX_TYPES];
static size_t shim_perf_n_types;
/* Per (type, CPU) context: the rotation timer (perf_mux_hrtimer). */
#define SHIM_PERF_MAX_CTX 256
static struct {
  uint32_t type;
  int cpu;
  bool timer;         /* hrtimer_active */
  uint64_t next_tick; /* when it fires next */
} shim_perf_ctx[SHIM_PERF_MAX_CTX];
static size_t shim_perf_n_ctx;
#define SHIM_PERF_MUX_DEFAULT_NS 4000000ull /* 1000 / HZ ms, HZ = 250 */
static uint64_t shim_perf_mux_ns = SHIM_PERF_MUX_DEFAULT_NS;
static uint64_t shim_perf_next_order = 1;
static uint64_t (*shim_perf_clock)(void *ctx);
static void *shim_perf_clock_ctx;

static uint64_t shim_perf_now(void) {
  if (shim_perf_clock != NULL)
    return shim_perf_clock(shim_perf_clock_ctx);
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* The script entry of `type`, created on demand when `add`. */
static size_t shim_perf_type_slot(uint32_t type, bool add) {
  for (size_t i = 0; i < shim_perf_n_types; i++)
    if (shim_perf_types[i].type == type)
      return i;
  if (!add || shim_perf_n_types == SHIM_PERF_MAX_TYPES)
    return SIZE_MAX;
  shim_perf_types[shim_perf_n_types].type = type;
  shim_perf_types[shim_perf_n_types].num = 1;
  shim_perf_types[shim_perf_n_types].den = 1;
  shim_perf_types[shim_perf_n_types].err = 0;
  shim_perf_types[shim_perf_n_types].counted = false;
  return shim_perf_n_types++;
}

static uint64_t shim_perf_rate(uint32_t type, uint64_t config) {
  uint64_t any = 0;
  bool have_any = false;
  for (size_t i = 0; i < shim_perf_n_rates; i++) {
    if (shim_perf_rates[i].type != type)
      continue;
    if (shim_perf_rates[i].config == config)
      return shim_perf_rates[i].per_s;
    if (shim_perf_rates[i].config == SHIM_PERF_ANY_CONFIG)
      any = shim_perf_rates[i].per_s, have_any = true;
  }
  if (have_any)
    return any;
  return 1000000ull * (1 + (config & 0xffffffffu) % 97 + (config >> 32));
}

/* The raw count of `e` (its value before any RESET). */
static uint64_t shim_perf_raw(const struct shim_perf_event *e) {
  return (uint64_t)(e->acc / 1000000000u);
}

/* perf_event_update_time: account `e` from since_ns up to `t`. */
static void shim_perf_accrue(struct shim_perf_event *e, uint64_t t) {
  if (t <= e->since_ns)
    return;
  uint64_t dt = t - e->since_ns, run = 0;
  e->since_ns = t;
  if (!e->counting)
    return;
  e->enabled_ns += dt;
  size_t ts = shim_perf_type_slot(e->info.type, false);
  if (ts != SIZE_MAX && shim_perf_types[ts].counted)
    run = e->active ? dt : 0;
  else if (ts != SIZE_MAX)
    run = (uint64_t)((unsigned __int128)dt * shim_perf_types[ts].num /
                     shim_perf_types[ts].den);
  else
    run = dt;
  e->running_ns += run;
  e->acc +=
      (unsigned __int128)shim_perf_rate(e->info.type, e->info.config) * run;
}

static bool shim_perf_in_ctx(const struct shim_perf_event *e, uint32_t type,
                             int cpu) {
  return e->info.type == type && e->info.cpu == cpu;
}

static void shim_perf_ctx_accrue(uint32_t type, int cpu, uint64_t t) {
  for (struct shim_perf_event *e = shim_perf_events; e; e = e->next)
    if (shim_perf_in_ctx(e, type, cpu))
      shim_perf_accrue(e, t);
}

static size_t shim_perf_ctx_slot(uint32_t type, int cpu) {
  for (size_t i = 0; i < shim_perf_n_ctx; i++)
    if (shim_perf_ctx[i].type == type && shim_perf_ctx[i].cpu == cpu)
      return i;
  if (shim_perf_n_ctx == SHIM_PERF_MAX_CTX)
    return SIZE_MAX;
  shim_perf_ctx[shim_perf_n_ctx].type = type;
  shim_perf_ctx[shim_perf_n_ctx].cpu = cpu;
  shim_perf_ctx[shim_perf_n_ctx].timer = false;
  return shim_perf_n_ctx++;
}

/* Whether `e` takes the dedicated cycle counter of its type `ts`
 * (arm_cspmu: is_cycle_counter_event). */
static bool shim_perf_is_cycles(size_t ts, const struct shim_perf_event *e) {
  return shim_perf_types[ts].has_cycle &&
         e->info.config == shim_perf_types[ts].cycles_config;
}

/* The counters a group's events in `only_on` state need. */
static void shim_perf_group_needs(size_t ts,
                                  const struct shim_perf_event *leader,
                                  bool only_on, uint32_t *cycles,
                                  uint32_t *general) {
  *cycles = *general = 0;
  for (size_t i = 0; i < leader->n_group; i++) {
    const struct shim_perf_event *m = leader->group[i];
    if (only_on && !m->counting)
      continue;
    if (shim_perf_is_cycles(ts, m))
      (*cycles)++;
    else
      (*general)++;
  }
}

/* The enabled leader of the context with the lowest order above `after`
 * (perf_event_groups iteration order), or NULL. */
static struct shim_perf_event *shim_perf_next_leader(uint32_t type, int cpu,
                                                     uint64_t after) {
  struct shim_perf_event *best = NULL;
  for (struct shim_perf_event *e = shim_perf_events; e; e = e->next)
    if (shim_perf_in_ctx(e, type, cpu) && e->leader == e && e->on &&
        e->order > after && (best == NULL || e->order < best->order))
      best = e;
  return best;
}

/* ctx_resched / ctx_sched_in of the flexible groups at `now` (every event
 * accounted up to `now` already); true when a group did not fit
 * (rotate_necessary). */
static bool shim_perf_ctx_sched(uint32_t type, int cpu, uint64_t now) {
  size_t ts = shim_perf_type_slot(type, false);
  bool counted = ts != SIZE_MAX && shim_perf_types[ts].counted;
  for (struct shim_perf_event *e = shim_perf_events; e; e = e->next)
    if (shim_perf_in_ctx(e, type, cpu))
      e->active = !counted && e->counting;
  if (!counted)
    return false;
  uint32_t free_general = shim_perf_types[ts].n_counters;
  uint32_t free_cycle = shim_perf_types[ts].has_cycle ? 1 : 0;
  bool can_add_hw = true, failed = false;
  for (struct shim_perf_event *l = shim_perf_next_leader(type, cpu, 0); l;
       l = shim_perf_next_leader(type, cpu, l->order)) {
    uint32_t cycles, general;
    shim_perf_group_needs(ts, l, /*only_on=*/true, &cycles, &general);
    /* group_sched_in: every event gets a counter, or none does */
    if (can_add_hw && cycles <= free_cycle && general <= free_general) {
      free_cycle -= cycles;
      free_general -= general;
      for (size_t i = 0; i < l->n_group; i++)
        l->group[i]->active = l->group[i]->counting;
    } else {
      can_add_hw = false; /* merge_sched_in: no later group this pass */
      failed = true;
    }
  }
  size_t c = shim_perf_ctx_slot(type, cpu);
  if (failed && c != SIZE_MAX && !shim_perf_ctx[c].timer) {
    /* perf_mux_hrtimer_restart */
    shim_perf_ctx[c].timer = true;
    shim_perf_ctx[c].next_tick = now + shim_perf_mux_ns;
  }
  return failed;
}

/* perf_rotate_context at `t`: the first scheduled group (or, with none
 * scheduled, the first group) goes to the end, then schedule again. */
static void shim_perf_ctx_rotate(uint32_t type, int cpu, uint64_t t) {
  struct shim_perf_event *pick = NULL;
  for (struct shim_perf_event *l = shim_perf_next_leader(type, cpu, 0); l;
       l = shim_perf_next_leader(type, cpu, l->order))
    if (l->active) {
      pick = l;
      break;
    }
  if (pick == NULL)
    pick = shim_perf_next_leader(type, cpu, 0);
  if (pick != NULL)
    pick->order = shim_perf_next_order++;
  shim_perf_ctx_sched(type, cpu, t);
}

/* Bring the context of (type, cpu) up to `now`: every rotation tick that
 * fell due, then the time since. */
static void shim_perf_ctx_advance(uint32_t type, int cpu, uint64_t now) {
  size_t c = shim_perf_ctx_slot(type, cpu);
  while (c != SIZE_MAX && shim_perf_ctx[c].timer &&
         shim_perf_ctx[c].next_tick <= now) {
    uint64_t t = shim_perf_ctx[c].next_tick;
    shim_perf_ctx_accrue(type, cpu, t);
    bool waiting = false; /* rotate_necessary: an enabled group is off */
    for (struct shim_perf_event *e = shim_perf_events; e; e = e->next)
      waiting |= shim_perf_in_ctx(e, type, cpu) && e->counting && !e->active;
    if (!waiting) {
      shim_perf_ctx[c].timer = false; /* the handler does not restart it */
      break;
    }
    shim_perf_ctx_rotate(type, cpu, t);
    shim_perf_ctx[c].next_tick = t + shim_perf_mux_ns;
  }
  shim_perf_ctx_accrue(type, cpu, now);
}

static void shim_perf_event_put(struct shim_perf_event *e) {
  if (--e->refs == 0)
    free(e);
}

/* ---- the file ---- */

static ssize_t shim_perf_read(struct shim_file *f, void *buf, size_t len) {
  struct shim_perf_event *e = f->data;
  pthread_mutex_lock(&shim_perf_mutex);
  uint64_t now = shim_perf_now(), fmt = e->read_format;
  bool group = fmt & PERF_FORMAT_GROUP;
  /* perf_event_read: bring the counts and times up to date first */
  shim_perf_ctx_advance(e->info.type, e->info.cpu, now);
  const struct shim_perf_event *t = group ? e->leader : e;
  size_t n = group ? t->n_group : 1;
  size_t per = 1 + !!(fmt & PERF_FORMAT_ID) + !!(fmt & PERF_FORMAT_LOST);
  size_t words = !!group + !!(fmt & PERF_FORMAT_TOTAL_TIME_ENABLED) +
                 !!(fmt & PERF_FORMAT_TOTAL_TIME_RUNNING) + n * per;
  if (len < words * sizeof(uint64_t)) {
    pthread_mutex_unlock(&shim_perf_mutex);
    errno = ENOSPC;
    return -1;
  }
  uint64_t *w = buf;
  size_t k = 0;
  if (group)
    w[k++] = n;
  else
    w[k++] = shim_perf_raw(t) - t->reset_base;
  /* perf_read_group: the leader's times for the whole group */
  if (fmt & PERF_FORMAT_TOTAL_TIME_ENABLED)
    w[k++] = t->enabled_ns;
  if (fmt & PERF_FORMAT_TOTAL_TIME_RUNNING)
    w[k++] = t->running_ns;
  for (size_t i = 0; i < n; i++) {
    const struct shim_perf_event *m = group ? t->group[i] : t;
    if (group)
      w[k++] = shim_perf_raw(m) - m->reset_base;
    if (fmt & PERF_FORMAT_ID)
      w[k++] = m->info.id;
    if (fmt & PERF_FORMAT_LOST)
      w[k++] = 0;
  }
  pthread_mutex_unlock(&shim_perf_mutex);
  return (ssize_t)(words * sizeof(uint64_t));
}

static int shim_perf_ioctl(struct shim_file *f, unsigned long request,
                           void *arg) {
  struct shim_perf_event *e = f->data;
  bool all = (uintptr_t)arg & PERF_IOC_FLAG_GROUP;
  if (request == PERF_EVENT_IOC_ID) {
    if (arg == NULL) {
      errno = EFAULT;
      return -1;
    }
    *(uint64_t *)arg = e->info.id;
    return 0;
  }
  if (request != PERF_EVENT_IOC_ENABLE && request != PERF_EVENT_IOC_DISABLE &&
      request != PERF_EVENT_IOC_RESET) {
    shim_log_unhandled("perf", request);
    errno = ENOTTY;
    return -1;
  }
  pthread_mutex_lock(&shim_perf_mutex);
  uint64_t now = shim_perf_now();
  struct shim_perf_event *leader = e->leader;
  /* the group flag acts on the whole group, from its leader */
  struct shim_perf_event *const *targets = all ? leader->group : &e;
  size_t n = all ? leader->n_group : 1;
  shim_perf_ctx_advance(e->info.type, e->info.cpu, now);
  for (size_t i = 0; i < n; i++) {
    if (request == PERF_EVENT_IOC_RESET)
      targets[i]->reset_base = shim_perf_raw(targets[i]);
    else
      targets[i]->on = request == PERF_EVENT_IOC_ENABLE;
  }
  for (size_t i = 0; i < leader->n_group; i++)
    leader->group[i]->counting = leader->group[i]->on && leader->on;
  /* __perf_event_enable / __perf_event_disable: ctx_resched */
  shim_perf_ctx_sched(e->info.type, e->info.cpu, now);
  pthread_mutex_unlock(&shim_perf_mutex);
  return 0;
}

static void shim_perf_release(struct shim_file *f) {
  struct shim_perf_event *e = f->data;
  pthread_mutex_lock(&shim_perf_mutex);
  uint64_t now = shim_perf_now();
  uint32_t type = e->info.type;
  int cpu = e->info.cpu;
  shim_perf_ctx_advance(type, cpu, now);
  for (struct shim_perf_event **p = &shim_perf_events; *p; p = &(*p)->next)
    if (*p == e) {
      *p = e->next;
      break;
    }
  struct shim_perf_event *leader = e->leader;
  if (leader == e) {
    /* perf_group_detach(): members become singleton groups */
    for (size_t i = 1; i < e->n_group; i++) {
      struct shim_perf_event *m = e->group[i];
      m->leader = m;
      m->group[0] = m;
      m->n_group = 1;
      m->counting = m->on;
      m->order = shim_perf_next_order++;
      m->info.leader_id = m->info.id;
    }
    /* the members' references; the fd's own is dropped below */
    e->refs -= (int)(e->n_group - 1);
    e->n_group = 1;
  } else {
    for (size_t i = 1; i < leader->n_group; i++)
      if (leader->group[i] == e) {
        memmove(&leader->group[i], &leader->group[i + 1],
                (leader->n_group - i - 1) * sizeof(leader->group[0]));
        leader->n_group--;
        break;
      }
    shim_perf_event_put(leader);
  }
  shim_perf_event_put(e);
  /* perf_remove_from_context frees the counters: schedule again */
  shim_perf_ctx_sched(type, cpu, now);
  pthread_mutex_unlock(&shim_perf_mutex);
}

static const struct shim_file_ops shim_perf_ops = {
    .name = "perf",
    .read = shim_perf_read,
    .ioctl = shim_perf_ioctl,
    .release = shim_perf_release,
};

/* ---- perf_event_open ---- */

int shim_perf_claims(const struct perf_event_attr *attr) {
  pthread_mutex_lock(&shim_perf_mutex);
  int claimed = shim_perf_on && attr->type >= shim_perf_base;
  pthread_mutex_unlock(&shim_perf_mutex);
  return claimed;
}

static int shim_perf_check(const struct perf_event_attr *attr, pid_t pid,
                           int cpu, unsigned long flags) {
  if (flags & ~(unsigned long)(PERF_FLAG_FD_NO_GROUP | PERF_FLAG_FD_OUTPUT |
                               PERF_FLAG_PID_CGROUP | PERF_FLAG_FD_CLOEXEC))
    return EINVAL;
  if (attr->size != 0 && (attr->size < PERF_ATTR_SIZE_VER0 ||
                          attr->size > (uint32_t)sysconf(_SC_PAGESIZE)))
    return E2BIG;
  size_t t = shim_perf_type_slot(attr->type, false);
  if (t != SIZE_MAX && shim_perf_types[t].err != 0)
    return shim_perf_types[t].err;
  /* uncore PMUs count per CPU, system-wide, and cannot sample */
  if (pid != -1 || cpu < 0 || attr->exclude_user || attr->exclude_kernel ||
      attr->exclude_hv || attr->exclude_idle || attr->inherit)
    return EINVAL;
  if (attr->sample_period != 0 || attr->freq)
    return EOPNOTSUPP;
  return 0;
}

int shim_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu,
                         int group_fd, unsigned long flags) {
  struct shim_file *lf = group_fd >= 0 ? shim_file_get(group_fd) : NULL;
  struct shim_perf_event *e = calloc(1, sizeof(*e));
  int err = ENOMEM, fd = -1;
  if (e == NULL)
    goto out;
  pthread_mutex_lock(&shim_perf_mutex);
  err = shim_perf_check(attr, pid, cpu, flags);
  struct shim_perf_event *leader = e;
  if (err == 0 && group_fd >= 0) {
    leader = lf != NULL && lf->ops == &shim_perf_ops ? lf->data : NULL;
    if (leader == NULL)
      err = EBADF;
    else if (leader->leader != leader || leader->info.type != attr->type ||
             leader->info.cpu != cpu || leader->n_group == SHIM_PERF_MAX_GROUP)
      err = EINVAL;
  }
  size_t ts = shim_perf_type_slot(attr->type, false);
  if (err == 0 && ts != SIZE_MAX && shim_perf_types[ts].counted) {
    /* arm_cspmu_validate_group: the group with this event must fit the
     * PMU's counters at once, or it could never be scheduled */
    uint32_t cycles = 0, general = 0;
    if (leader != e)
      shim_perf_group_needs(ts, leader, /*only_on=*/false, &cycles, &general);
    if (shim_perf_types[ts].has_cycle &&
        attr->config == shim_perf_types[ts].cycles_config)
      cycles++;
    else
      general++;
    if (cycles > (shim_perf_types[ts].has_cycle ? 1u : 0u) ||
        general > shim_perf_types[ts].n_counters)
      err = EINVAL;
  }
  if (err != 0) {
    pthread_mutex_unlock(&shim_perf_mutex);
    goto out;
  }
  uint64_t now = shim_perf_now();
  shim_perf_ctx_advance(attr->type, cpu, now);
  uint32_t size = attr->size ? attr->size : PERF_ATTR_SIZE_VER0;
  e->refs = 1;
  e->info = (struct shim_perf_info){
      .type = attr->type,
      .attr_size = size,
      .config = attr->config,
      .config1 = attr->config1,
      .config2 = size >= PERF_ATTR_SIZE_VER1 ? attr->config2 : 0,
      .config3 =
          size >= 136 ? *(const uint64_t *)((const char *)attr + 128) : 0,
      .config4 =
          size >= 144 ? *(const uint64_t *)((const char *)attr + 136) : 0,
      .id = shim_perf_next_id++,
      .cpu = cpu};
  e->read_format = attr->read_format;
  e->on = !attr->disabled;
  e->since_ns = now;
  e->order = shim_perf_next_order++;
  e->leader = leader;
  e->info.leader_id = leader->info.id;
  if (leader != e)
    leader->refs++;
  leader->group[leader->n_group++] = e;
  e->counting = e->on && leader->on;
  struct shim_perf_event **tail = &shim_perf_events;
  while (*tail != NULL)
    tail = &(*tail)->next;
  *tail = e;
  shim_perf_ctx_sched(attr->type, cpu, now);
  pthread_mutex_unlock(&shim_perf_mutex);
  /* outside the driver's lock: the table may release a stale file */
  fd = shim_file_new(&shim_perf_ops, e,
                     (flags & PERF_FLAG_FD_CLOEXEC) ? O_CLOEXEC : 0);
  err = errno;
  if (fd < 0) {
    struct shim_file undo = {.ops = &shim_perf_ops, .data = e};
    shim_perf_release(&undo);
    e = NULL;
  }
out:
  shim_file_put(lf);
  if (fd < 0) {
    free(e);
    errno = err;
  }
  return fd;
}

/* ---- scripting ---- */

int shim_perf_register(void) {
  pthread_mutex_lock(&shim_perf_mutex);
  shim_perf_on = true;
  pthread_mutex_unlock(&shim_perf_mutex);
  return 0;
}

void shim_perf_reset(void) {
  pthread_mutex_lock(&shim_perf_mutex);
  shim_perf_n_rates = 0;
  shim_perf_n_types = 0;
  shim_perf_n_ctx = 0;
  shim_perf_mux_ns = SHIM_PERF_MUX_DEFAULT_NS;
  shim_perf_base = SHIM_PERF_TYPE_BASE;
  shim_perf_clock = NULL;
  shim_perf_clock_ctx = NULL;
  pthread_mutex_unlock(&shim_perf_mutex);
}

void shim_perf_set_type_base(uint32_t base) {
  pthread_mutex_lock(&shim_perf_mutex);
  shim_perf_base = base;
  pthread_mutex_unlock(&shim_perf_mutex);
}

int shim_perf_set_rate(uint32_t type, uint64_t config, uint64_t per_s) {
  int rc = 0;
  pthread_mutex_lock(&shim_perf_mutex);
  size_t i = 0;
  while (i < shim_perf_n_rates && !(shim_perf_rates[i].type == type &&
                                    shim_perf_rates[i].config == config))
    i++;
  if (i == SHIM_PERF_MAX_RATES) {
    rc = -1;
  } else {
    shim_perf_rates[i].type = type;
    shim_perf_rates[i].config = config;
    shim_perf_rates[i].per_s = per_s;
    if (i == shim_perf_n_rates)
      shim_perf_n_rates++;
  }
  pthread_mutex_unlock(&shim_perf_mutex);
  if (rc < 0)
    errno = ENOMEM;
  return rc;
}

void shim_perf_set_running_ratio(uint32_t type, uint32_t num, uint32_t den) {
  if (den == 0)
    return;
  pthread_mutex_lock(&shim_perf_mutex);
  size_t t = shim_perf_type_slot(type, /*add=*/true);
  if (t != SIZE_MAX) {
    shim_perf_types[t].num = num;
    shim_perf_types[t].den = den;
  }
  pthread_mutex_unlock(&shim_perf_mutex);
}

void shim_perf_set_counters(uint32_t type, uint32_t n_general, bool has_cycle,
                            uint64_t cycles_config) {
  pthread_mutex_lock(&shim_perf_mutex);
  size_t t = shim_perf_type_slot(type, /*add=*/true);
  if (t != SIZE_MAX) {
    shim_perf_types[t].counted = true;
    shim_perf_types[t].n_counters = n_general;
    shim_perf_types[t].has_cycle = has_cycle;
    shim_perf_types[t].cycles_config = cycles_config;
  }
  pthread_mutex_unlock(&shim_perf_mutex);
}

void shim_perf_set_mux_interval(uint64_t ns) {
  pthread_mutex_lock(&shim_perf_mutex);
  shim_perf_mux_ns = ns > 0 ? ns : SHIM_PERF_MUX_DEFAULT_NS;
  pthread_mutex_unlock(&shim_perf_mutex);
}

void shim_perf_fail_type(uint32_t type, int err) {
  pthread_mutex_lock(&shim_perf_mutex);
  size_t t = shim_perf_type_slot(type, /*add=*/true);
  if (t != SIZE_MAX)
    shim_perf_types[t].err = err;
  pthread_mutex_unlock(&shim_perf_mutex);
}

void shim_perf_set_clock(uint64_t (*now_ns)(void *ctx), void *ctx) {
  pthread_mutex_lock(&shim_perf_mutex);
  shim_perf_clock = now_ns;
  shim_perf_clock_ctx = ctx;
  pthread_mutex_unlock(&shim_perf_mutex);
}

size_t shim_perf_for_each(void (*fn)(const struct shim_perf_info *info,
                                     void *ctx),
                          void *ctx) {
  size_t n = 0;
  pthread_mutex_lock(&shim_perf_mutex);
  for (const struct shim_perf_event *e = shim_perf_events; e; e = e->next) {
    if (fn != NULL)
      fn(&e->info, ctx);
    n++;
  }
  pthread_mutex_unlock(&shim_perf_mutex);
  return n;
}

/* Parse "a:b[:c]" numbers of one list item; the count parsed. */
static int shim_perf_parse_item(const char *item, uint64_t *v, int max) {
  int n = 0;
  const char *p = item;
  while (n < max) {
    char *end;
    if (*p == '*') {
      v[n++] = SHIM_PERF_ANY_CONFIG;
      end = (char *)p + 1;
    } else {
      errno = 0;
      v[n++] = strtoull(p, &end, 0);
      if (end == p || errno != 0)
        return -1;
    }
    if (*end == '\0' || *end == ',')
      return n;
    if (*end != ':')
      return -1;
    p = end + 1;
  }
  return -1;
}

/* Apply each comma-separated item of env `name` that has `want` fields. */
static int shim_perf_env_list(const char *name, int want) {
  const char *s = getenv(name);
  int rc = 0;
  for (const char *p = s; p != NULL && *p != '\0';) {
    uint64_t v[3];
    int got = shim_perf_parse_item(p, v, 3);
    bool counters = strcmp(name, "SHIM_PERF_COUNTERS") == 0;
    if (got != want && !(counters && got == 2)) {
      fprintf(stderr, "shim: perf: %s: malformed item \"%s\"\n", name, p);
      rc = -1;
    } else if (counters) {
      shim_perf_set_counters((uint32_t)v[0], (uint32_t)v[1],
                             /*has_cycle=*/got == 3, got == 3 ? v[2] : 0);
    } else if (want == 2) {
      shim_perf_fail_type((uint32_t)v[0], (int)v[1]);
    } else if (strcmp(name, "SHIM_PERF_RATE") == 0) {
      shim_perf_set_rate((uint32_t)v[0], v[1], v[2]);
    } else {
      shim_perf_set_running_ratio((uint32_t)v[0], (uint32_t)v[1],
                                  (uint32_t)v[2]);
    }
    p = strchr(p, ',');
    p = p ? p + 1 : NULL;
  }
  return rc;
}

int shim_perf_load_env(void) {
  shim_perf_register();
  int rc = 0;
  const char *s = getenv("SHIM_PERF_TYPE_BASE");
  if (s != NULL)
    shim_perf_set_type_base((uint32_t)strtoul(s, NULL, 10));
  s = getenv("SHIM_PERF_EACCES_TYPE");
  if (s != NULL)
    shim_perf_fail_type((uint32_t)strtoul(s, NULL, 10), EACCES);
  rc |= shim_perf_env_list("SHIM_PERF_FAIL", 2);
  rc |= shim_perf_env_list("SHIM_PERF_RATE", 3);
  rc |= shim_perf_env_list("SHIM_PERF_RUNNING", 3);
  rc |= shim_perf_env_list("SHIM_PERF_COUNTERS", 3);
  s = getenv("SHIM_PERF_MUX_MS");
  if (s != NULL)
    shim_perf_set_mux_interval(strtoull(s, NULL, 10) * 1000000ull);
  if (rc < 0)
    errno = EINVAL;
  return rc;
}
