/*
 * shim_panthor_perf.c: the perf sessions of the shim's panthor node
 * (shim_panthor.h): PERF_CONTROL's commands with the validation, errno
 * and session lifecycle of the v5/v6-era kernel code
 * (drivers/gpu/drm/panthor/panthor_perf.c of the tree that carries it:
 * panthor_perf_session_setup, session_start/stop/sample,
 * panthor_perf_session_teardown, sampler_request, session_emit_sample),
 * the sample ring, eventfd signalling, scripted counters and the
 * environment.
 *
 * Where it knowingly differs: the firmware ring, its IRQ and the 32-bit
 * counter accumulation are not modelled (a sample is written whole when
 * its request is handled); START takes no baseline sample; the kernel's
 * NULL dereference on TEARDOWN of a free id is counted (teardown_oops)
 * and answered EFAULT instead of an oops.
 */
#include "tests/shim/shim_libc.h"
#include "tests/shim/shim_panthor_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PT_IDS 2 /* session ids cyclic in [0, 1] */
#define PT_MAX_COUNTERS 128
#define PT_RATE_DEFAULT UINT64_MAX

/* session_sample_type: a request waiting for its IRQ (irq_late). */
enum { PT_PENDING_NONE, PT_PENDING_REGULAR };

struct pt_session {
  bool used;
  struct pt_file *owner; /* NULL: another process's session */
  uint8_t set;
  int efd; /* our duplicate of the session's eventfd */
  struct pt_bo *ring, *ctrl;
  uint32_t slots;
  uint64_t enable[PT_TYPES][2];
  bool active;
  uint64_t last_period; /* pt_periods at the last delivery or START */
  uint64_t last_ns;     /* the clock then */
  uint64_t samples;     /* SAMPLE calls that got past validation */
  int pending;          /* pending_sample_request */
  uint64_t pending_user_data;
  uint32_t pending_flags;
  bool pending_drop;
};

/* The kernel's xarray of session ids, and the sessions it no longer
 * names but never removed from its sampler (a failed TEARDOWN, see
 * pt_teardown): they keep the runtime-PM reference and the counter set. */
#define PT_ORPHANS 16
static struct pt_session pt_sessions[PT_IDS];
static struct pt_session pt_orphans[PT_ORPHANS];
static unsigned pt_next_id;
static uint64_t pt_clock_ns = 1000000000ull;
static uint64_t pt_periods;
static uint64_t pt_rates[PT_TYPES][PT_MAX_COUNTERS];
static bool pt_rates_set;

uint64_t pt_now_ns(void) { return pt_clock_ns; }

uint64_t shim_panthor_rate(unsigned type, unsigned k) {
  pthread_mutex_lock(&pt_mutex);
  uint64_t r = k;
  if (pt_rates_set && type < PT_TYPES && k < PT_MAX_COUNTERS &&
      pt_rates[type][k] != PT_RATE_DEFAULT)
    r = pt_rates[type][k];
  pthread_mutex_unlock(&pt_mutex);
  return r;
}

static uint64_t pt_rate(unsigned type, unsigned k) {
  if (pt_rates_set && pt_rates[type][k] != PT_RATE_DEFAULT)
    return pt_rates[type][k];
  return k;
}

static int pt_fail(int err) {
  errno = err;
  return -1;
}

/* ---- the session table ---- */

static void pt_session_destroy(struct pt_session *s) {
  if (s->efd >= 0)
    shim_libc()->close(s->efd);
  pt_bo_put(s->ring);
  pt_bo_put(s->ctrl);
  memset(s, 0, sizeof(*s));
  s->efd = -1;
}

/* panthor_postclose (panthor_drv.c) of that tree destroys groups and VMs,
 * not perf sessions: a closed file's sessions keep their id, their BO
 * references, the runtime-PM reference and the counter set. Nobody can
 * address them any more (session_find: another pfile is EINVAL). */
void pt_sessions_of_file_closed(struct pt_file *pf) {
  for (int i = 0; i < PT_IDS; i++) {
    struct pt_session *s = &pt_sessions[i];
    if (!s->used || s->owner != pf)
      continue;
    s->owner = NULL;
    if (s->efd >= 0)
      shim_libc()->close(s->efd);
    s->efd = -1;
    pt_stats.sessions_leaked++;
  }
}

/* The session leaves the id table but stays with the sampler. */
static void pt_orphan(struct pt_session *s) {
  int i = 0;
  while (i < PT_ORPHANS && pt_orphans[i].used)
    i++;
  if (i == PT_ORPHANS) { /* more than the shim keeps: forget the oldest */
    pt_session_destroy(&pt_orphans[0]);
    i = 0;
  }
  pt_orphans[i] = *s;
  memset(s, 0, sizeof(*s));
  s->efd = -1;
  pt_stats.sessions_leaked++;
}

void pt_sessions_reset(void) {
  for (int i = 0; i < PT_IDS; i++)
    if (pt_sessions[i].used)
      pt_session_destroy(&pt_sessions[i]);
  for (int i = 0; i < PT_ORPHANS; i++)
    if (pt_orphans[i].used)
      pt_session_destroy(&pt_orphans[i]);
  pt_next_id = 0;
  pt_clock_ns = 1000000000ull;
  pt_periods = 0;
  pt_generation++; /* files of an earlier test are dead */
}

void pt_sessions_add_others(void) {
  for (uint32_t i = 0; i < pt_cfg.others && i < PT_IDS; i++) {
    struct pt_session *s = &pt_sessions[i];
    memset(s, 0, sizeof(*s));
    s->used = true;
    s->efd = -1;
    s->set = (uint8_t)pt_cfg.other_set;
    s->active = true;
    pt_next_id = (i + 1) % PT_IDS;
  }
}

uint32_t pt_sessions_count(void) {
  uint32_t n = 0;
  pt_stats.orphans = 0;
  for (int i = 0; i < PT_ORPHANS; i++)
    pt_stats.orphans += pt_orphans[i].used;
  pt_stats.ring_maps = pt_stats.writable_maps = 0;
  for (int i = 0; i < PT_IDS; i++) {
    if (!pt_sessions[i].used)
      continue;
    n++;
    if (pt_sessions[i].ring != NULL) {
      pt_stats.ring_maps += pt_sessions[i].ring->maps;
      pt_stats.writable_maps += pt_sessions[i].ring->writable_maps;
    }
  }
  return n;
}

/* ---- the ring ---- */

static uint64_t pt_load(const struct pt_session *s, size_t at) {
  return __atomic_load_n((uint64_t *)(s->ctrl->map + at), __ATOMIC_ACQUIRE);
}

static uint32_t pt_free_slots(const struct pt_session *s) {
  uint64_t raw = pt_load(s, 0);
  if (raw > pt_stats.max_extract)
    pt_stats.max_extract = raw; /* a free-running extract shows here */
  uint64_t ext = raw % s->slots, ins = pt_load(s, 8) % s->slots;
  return (uint32_t)((ext - ins - 1 + s->slots) % s->slots);
}

static const uint8_t pt_raw_rfc[PT_TYPES] = {1, 2, 3, 4, 5, 6};
static const uint8_t pt_raw_v6[PT_TYPES] = {1, 0, 2, 3, 4, 5};

static void pt_write_sample(const struct pt_session *s, uint8_t *p,
                            const struct pt_geometry *g, uint64_t start,
                            uint64_t end, uint32_t flags, uint64_t user_data,
                            uint64_t periods) {
  memset(p, 0, g->sample_size);
  struct pp_sample_header h = {0};
  h.timestamp_start_ns = start;
  h.timestamp_end_ns = end;
  h.block_set = s->set;
  h.flags = flags;
  h.user_data = user_data;
  memcpy(p, &h, sizeof(h));
  size_t off = g->sample_header_size;
  const uint8_t *raw =
      pt_cfg.layout == SHIM_PANTHOR_RFC_V2 ? pt_raw_rfc : pt_raw_v6;
  uint32_t n = g->counters_per_block;
  for (int t = 0; t < PT_TYPES; t++) {
    uint64_t mask[2] = {s->enable[t][0], n > 64 ? s->enable[t][1] : 0};
    if (n < 64)
      mask[0] &= (1ull << n) - 1;
    for (uint32_t i = 0; i < g->blocks[t]; i++, off += g->block_size) {
      struct pp_block_header bh = {0};
      bh.block_type = raw[t];
      bh.block_idx = (uint8_t)i;
      bh.enable_mask[0] = mask[0];
      bh.enable_mask[1] = mask[1];
      memcpy(p + off, &bh, sizeof(bh));
      uint64_t c[PT_MAX_COUNTERS] = {end & 0xffffffffu, end >> 32,
                                     (uint32_t)mask[0], 0};
      for (uint32_t k = 4; k < n; k++)
        if (mask[k / 64] >> (k % 64) & 1)
          c[k] = pt_rate((unsigned)t, k) * (i + 1) * periods;
      memcpy(p + off + g->block_header_size, c, 8 * (size_t)n);
    }
  }
}

/* One sample event for `s`: a period passes; the sample goes into the
 * ring unless it is full (or `drop`), then its counts carry over. */
static void pt_emit(struct pt_session *s, uint64_t user_data, uint32_t flags,
                    bool drop) {
  uint64_t start = pt_clock_ns;
  pt_clock_ns += pt_cfg.tick_ns ? pt_cfg.tick_ns : 1000000u;
  pt_periods++;
  if (drop || pt_free_slots(s) == 0) {
    pt_stats.samples_dropped++;
    return;
  }
  struct pt_geometry g;
  pt_geometry(&g);
  uint64_t ins = pt_load(s, 8) % s->slots;
  pt_write_sample(s, s->ring->map + ins * g.sample_size, &g, start, pt_clock_ns,
                  flags, user_data, pt_periods - s->last_period);
  s->last_period = pt_periods;
  s->last_ns = pt_clock_ns;
  __atomic_store_n((uint64_t *)(s->ctrl->map + 8), (ins + 1) % s->slots,
                   __ATOMIC_RELEASE);
  uint64_t one = 1;
  if (s->efd >= 0 && write(s->efd, &one, sizeof(one)) != (ssize_t)sizeof(one))
    fprintf(stderr, "shim: panthor: eventfd write failed\n");
  pt_stats.samples_written++;
}

/* The IRQ of a session's request (panthor_perf_report_irq ->
 * session_emit_sample): its sample goes into the ring, the eventfd is
 * signalled and the request is no longer pending. */
static void pt_irq_session(struct pt_session *s) {
  if (!s->used || s->pending == PT_PENDING_NONE)
    return;
  pt_emit(s, s->pending_user_data, s->pending_flags, s->pending_drop);
  s->pending = PT_PENDING_NONE;
}

void shim_panthor_irq(void) {
  pthread_mutex_lock(&pt_mutex);
  for (int i = 0; i < PT_IDS; i++)
    pt_irq_session(&pt_sessions[i]);
  for (int i = 0; i < PT_ORPHANS; i++)
    pt_irq_session(&pt_orphans[i]);
  pthread_mutex_unlock(&pt_mutex);
}

/* sampler_request: one request at a time per session; handled at once
 * (the IRQ wins the race with the caller's next ioctl) unless irq_late,
 * where it waits for the caller to wait (shim_panthor_irq). */
static int pt_request(struct pt_session *s, uint64_t user_data, uint32_t flags,
                      bool drop) {
  if (s->pending != PT_PENDING_NONE)
    return pt_fail(EBUSY);
  s->pending = PT_PENDING_REGULAR;
  s->pending_user_data = user_data;
  s->pending_flags = flags;
  s->pending_drop = drop;
  if (!pt_cfg.irq_late)
    pt_irq_session(s);
  return 0;
}

/*
 * panthor_perf_session_teardown and session_teardown: the id is cleared
 * in the table first (__xa_store NULL) and never restored after a refusal:
 * an active session is EINVAL, and a session with no pending request is
 * EBUSY (the comparison the review found inverted: session_teardown tests
 * pending_sample_request == SAMPLE_TYPE_NONE), both left with the sampler
 * (runtime PM, firmware sampling, the counter set) and unreachable.
 * teardown_fixed: EBUSY while a request is pending, as reviewed. A free
 * id is a NULL dereference in that code (session->pfile).
 */
static int pt_teardown(struct pt_file *pf, uint32_t handle) {
  if (handle >= PT_IDS || !pt_sessions[handle].used) {
    pt_stats.teardown_oops++;
    return pt_fail(EFAULT);
  }
  struct pt_session *s = &pt_sessions[handle];
  if (s->owner != pf)
    return pt_fail(EINVAL); /* restored */
  int err = 0;
  if (s->active)
    err = EINVAL;
  else if (pt_cfg.teardown_fixed ? s->pending != PT_PENDING_NONE
                                 : s->pending == PT_PENDING_NONE)
    err = EBUSY;
  if (err != 0) {
    pt_orphan(s);
    return pt_fail(err);
  }
  pt_session_destroy(s);
  pt_stats.teardowns++;
  return 0;
}

/* ---- commands ---- */

static int pt_eventfd_check(int fd) {
  char link[64], target[64];
  if (fd < 0 || fcntl(fd, F_GETFD) < 0)
    return EBADF;
  snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
  ssize_t n = readlink(link, target, sizeof(target) - 1);
  if (n < 0)
    return EBADF;
  target[n] = '\0';
  return strcmp(target, "anon_inode:[eventfd]") == 0 ? 0 : EINVAL;
}

static int pt_setup(struct pt_file *pf, const uint8_t *a) {
  bool rfc = pt_cfg.layout == SHIM_PANTHOR_RFC_V2;
  struct pp_setup_v6 c; /* the common prefix of both layouts */
  memcpy(&c, a, offsetof(struct pp_setup_v6, fw_enable_mask));
  for (int i = 0; i < 7; i++)
    if (c.pad[i] != 0)
      return pt_fail(EINVAL);
  if (c.block_set > PP_SET_TERTIARY)
    return pt_fail(EINVAL);
  if (c.block_set != PP_SET_PRIMARY && pt_cfg.unprivileged)
    return pt_fail(EACCES);
  if (c.sample_freq_ns != 0)
    return pt_fail(EOPNOTSUPP);
  /* panthor_perf_sampler_add: one counter set while any session (an
   * orphan too) is with the sampler */
  for (int i = 0; i < PT_IDS; i++)
    if (pt_sessions[i].used && pt_sessions[i].set != c.block_set)
      return pt_fail(EBUSY);
  for (int i = 0; i < PT_ORPHANS; i++)
    if (pt_orphans[i].used && pt_orphans[i].set != c.block_set)
      return pt_fail(EBUSY);
  /* panthor_perf_session_setup never reads control_offset: the indices
   * are at the start of the control BO (session->control = its vmap) */
  struct pt_bo *ring = pt_bo_lookup(pf, c.ringbuf_handle);
  struct pt_bo *ctrl = pt_bo_lookup(pf, c.control_handle);
  if (ring == NULL || ctrl == NULL)
    return pt_fail(EINVAL);
  int err = pt_eventfd_check(c.fd);
  if (err != 0)
    return pt_fail(err);
  struct pt_geometry g;
  pt_geometry(&g);
  uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
  uint64_t stride = (uint64_t)g.sample_size + pt_cfg.size_skew;
  uint64_t want = (stride * c.sample_slots + page - 1) / page * page;
  if (c.sample_slots == 0 || ring->size != want)
    return pt_fail(ENOMEM);
  int id = -1;
  for (unsigned k = 0; k < PT_IDS && id < 0; k++)
    if (!pt_sessions[(pt_next_id + k) % PT_IDS].used)
      id = (int)((pt_next_id + k) % PT_IDS);
  if (id < 0)
    return pt_fail(EBUSY); /* two sessions already */
  int efd = shim_libc()->dup(c.fd);
  if (efd < 0)
    return pt_fail(errno);
  struct pt_session *s = &pt_sessions[id];
  memset(s, 0, sizeof(*s));
  s->used = true;
  s->owner = pf;
  s->set = c.block_set;
  s->efd = efd;
  s->ring = ring;
  s->ctrl = ctrl;
  ring->refs++;
  ctrl->refs++;
  s->slots = c.sample_slots;
  static const int rfc_order[PT_TYPES] = {PT_FW,    PT_CSG,    PT_CSHW,
                                          PT_TILER, PT_MEMSYS, PT_SHADER};
  static const int v6_order[PT_TYPES - 1] = {PT_FW, PT_CSHW, PT_TILER,
                                             PT_MEMSYS, PT_SHADER};
  const int *order = rfc ? rfc_order : v6_order;
  int n = rfc ? PT_TYPES : PT_TYPES - 1;
  for (int i = 0; i < n; i++)
    memcpy(s->enable[order[i]], a + 40 + 16 * i, 16);
  memset(ctrl->map, 0, 16); /* both indices zeroed */
  pt_next_id = (unsigned)(id + 1) % PT_IDS;
  pt_stats.setups++;
  return id;
}

static int pt_sample(struct pt_session *s, uint64_t user_data) {
  if (!s->active)
    return 0; /* the kernel's no-op on an inactive session */
  pt_stats.sample_calls++;
  if (pt_cfg.reset_at != 0 && pt_stats.sample_calls == pt_cfg.reset_at) {
    /* GPU reset / unplug: every file of ours is dead, its sessions gone */
    for (int i = 0; i < PT_IDS; i++)
      if (pt_sessions[i].used && pt_sessions[i].owner != NULL)
        pt_session_destroy(&pt_sessions[i]);
    pt_generation++;
    return pt_fail(pt_cfg.reset_errno ? pt_cfg.reset_errno : ENODEV);
  }
  if (pt_free_slots(s) < 2)
    return pt_fail(EBUSY); /* one slot is kept for STOP */
  if (s->pending != PT_PENDING_NONE)
    return pt_fail(EBUSY); /* sampler_request: still pending */
  uint64_t n = ++s->samples;
  if (pt_cfg.busy_every != 0 && n % pt_cfg.busy_every == 0)
    return pt_fail(EBUSY); /* a previous request is still pending */
  if (pt_cfg.corrupt_at != 0 && n == pt_cfg.corrupt_at) {
    __atomic_store_n((uint64_t *)(s->ctrl->map + 8), (uint64_t)s->slots + 3,
                     __ATOMIC_RELEASE);
    return 0;
  }
  for (uint32_t i = 0; i < pt_cfg.auto_burst; i++)
    pt_emit(s, 0, 0, false);
  uint32_t flags = 0;
  if (pt_cfg.overflow_every != 0 && n % pt_cfg.overflow_every == 0)
    flags |= PP_SAMPLE_OVERFLOW;
  if (pt_cfg.error_every != 0 && n % pt_cfg.error_every == 0)
    flags |= PP_SAMPLE_ERROR;
  return pt_request(s, user_data, flags,
                    pt_cfg.drop_every != 0 && n % pt_cfg.drop_every == 0);
}

static const uint64_t pt_cmd_size_v6[5] = {120, 0, 8, 8, 8};
static const uint64_t pt_cmd_size_rfc[5] = {136, 0, 8, 8, 8};

int pt_perf_control(struct pt_file *pf, void *arg, size_t size) {
  struct pp_perf_control ctl = {0};
  memcpy(&ctl, arg, size < sizeof(ctl) ? size : sizeof(ctl));
  if (ctl.cmd > PP_CMD_SAMPLE)
    return pt_fail(EINVAL);
  const uint64_t *sizes =
      pt_cfg.layout == SHIM_PANTHOR_RFC_V2 ? pt_cmd_size_rfc : pt_cmd_size_v6;
  if (ctl.pointer == 0) { /* a size probe, for every command */
    ctl.size = sizes[ctl.cmd];
    memcpy(arg, &ctl, size < sizeof(ctl) ? size : sizeof(ctl));
    return 0;
  }
  uint8_t a[136] = {0};
  size_t n = ctl.size < sizes[ctl.cmd] ? (size_t)ctl.size : sizes[ctl.cmd];
  memcpy(a, (const void *)(uintptr_t)ctl.pointer, n);
  if (ctl.cmd == PP_CMD_SETUP)
    return pt_setup(pf, a);
  if (ctl.cmd == PP_CMD_TEARDOWN)
    return pt_teardown(pf, ctl.handle);
  if (ctl.handle >= PT_IDS || !pt_sessions[ctl.handle].used)
    return pt_fail(EBADF);
  struct pt_session *s = &pt_sessions[ctl.handle];
  if (s->owner != pf)
    return pt_fail(EINVAL);
  uint64_t user_data;
  memcpy(&user_data, a, sizeof(user_data));
  switch (ctl.cmd) {
  case PP_CMD_START:
    if (!s->active) { /* the baseline sample is discarded */
      s->active = true;
      s->last_period = pt_periods;
      s->last_ns = pt_clock_ns;
    }
    return 0;
  case PP_CMD_STOP:
    if (!s->active)
      return 0;
    if (pt_free_slots(s) == 0)
      return pt_fail(EBUSY);
    if (pt_request(s, user_data, 0, false) < 0)
      return -1; /* EBUSY: a SAMPLE still pending; the session stays active */
    s->active = false;
    return 0;
  default:
    return pt_sample(s, user_data);
  }
}

/* ---- environment ---- */

int shim_panthor_set_rates(const char *spec) {
  static const char *names[PT_TYPES] = {"fw",    "csg",    "cshw",
                                        "tiler", "memsys", "shader"};
  uint64_t rates[PT_TYPES][PT_MAX_COUNTERS];
  for (int t = 0; t < PT_TYPES; t++)
    for (int k = 0; k < PT_MAX_COUNTERS; k++)
      rates[t][k] = PT_RATE_DEFAULT;
  for (const char *p = spec; p != NULL && *p != '\0';) {
    char name[16];
    unsigned k;
    unsigned long long v;
    int used = 0;
    if (sscanf(p, "%15[a-z]:%u=%llu%n", name, &k, &v, &used) != 3 ||
        k >= PT_MAX_COUNTERS)
      return pt_fail(EINVAL);
    int t = 0;
    while (t < PT_TYPES && strcmp(names[t], name) != 0)
      t++;
    if (t == PT_TYPES)
      return pt_fail(EINVAL);
    rates[t][k] = v;
    p += used;
    if (*p == ',')
      p++;
    else if (*p != '\0')
      return pt_fail(EINVAL);
  }
  pthread_mutex_lock(&pt_mutex);
  memcpy(pt_rates, rates, sizeof(rates));
  pt_rates_set = true;
  pthread_mutex_unlock(&pt_mutex);
  return 0;
}

static int pt_scenario(struct shim_panthor_config *c, const char *spec) {
  struct {
    const char *key;
    uint32_t *u32;
  } keys[] = {
      {"overflow_every", &c->overflow_every}, {"error_every", &c->error_every},
      {"busy_every", &c->busy_every},         {"drop_every", &c->drop_every},
      {"auto_burst", &c->auto_burst},         {"reset_at", &c->reset_at},
      {"corrupt_at", &c->corrupt_at},         {"others", &c->others},
      {"sample_pad", &c->sample_pad},         {"header_pad", &c->header_pad},
      {"size_skew", &c->size_skew},
  };
  for (const char *p = spec; *p != '\0';) {
    size_t len = strcspn(p, ",");
    char item[64];
    if (len >= sizeof(item))
      return -1;
    memcpy(item, p, len);
    item[len] = '\0';
    p += len + (p[len] == ',');
    char *eq = strchr(item, '=');
    if (eq == NULL) {
      if (strcmp(item, "unprivileged") == 0)
        c->unprivileged = true;
      else if (strcmp(item, "teardown_fixed") == 0)
        c->teardown_fixed = true;
      else if (strcmp(item, "irq_late") == 0)
        c->irq_late = true;
      else if (item[0] != '\0')
        return -1;
      continue;
    }
    *eq++ = '\0';
    unsigned long long v = strtoull(eq, NULL, 10);
    if (strcmp(item, "tick_ns") == 0) {
      c->tick_ns = v;
    } else if (strcmp(item, "other_set") == 0) {
      c->other_set = (int)v;
    } else if (strcmp(item, "reset_errno") == 0) {
      c->reset_errno = strcmp(eq, "EIO") == 0 ? EIO : ENODEV;
    } else {
      size_t i = 0;
      while (i < sizeof(keys) / sizeof(keys[0]) && strcmp(keys[i].key, item))
        i++;
      if (i == sizeof(keys) / sizeof(keys[0]))
        return -1;
      *keys[i].u32 = (uint32_t)v;
    }
  }
  return 0;
}

int shim_panthor_load_env(void) {
  struct shim_panthor_config c = {.layout = SHIM_PANTHOR_V6,
                                  .model = SHIM_PANTHOR_G720};
  const char *s = getenv("SHIM_PANTHOR_LAYOUT");
  if (s != NULL) {
    if (strcmp(s, "rfc-v2") == 0)
      c.layout = SHIM_PANTHOR_RFC_V2;
    else if (strcmp(s, "none") == 0)
      c.layout = SHIM_PANTHOR_NONE;
    else if (strcmp(s, "v6") != 0)
      goto bad;
  }
  static const char *models[] = {"g710", "g610", "g715", "g720", "g725"};
  if ((s = getenv("SHIM_PANTHOR_GPU")) != NULL) {
    size_t i = 0;
    while (i < 5 && strcmp(models[i], s) != 0)
      i++;
    if (i == 5)
      goto bad;
    c.model = (enum shim_panthor_model)i;
  }
  if ((s = getenv("SHIM_PANTHOR_SCENARIO")) != NULL && pt_scenario(&c, s) < 0)
    goto bad;
  if ((s = getenv("SHIM_PANTHOR_RATES")) != NULL &&
      shim_panthor_set_rates(s) < 0)
    goto bad;
  shim_panthor_configure(&c);
  const char *paths = getenv("SHIM_PANTHOR_PATH");
  if (paths == NULL)
    paths = SHIM_PANTHOR_PATH;
  unsigned minor = 128;
  for (const char *p = paths; *p != '\0'; minor++) {
    char path[256];
    size_t len = strcspn(p, ",");
    if (len == 0 || len >= sizeof(path))
      goto bad;
    memcpy(path, p, len);
    path[len] = '\0';
    p += len + (p[len] == ',');
    if (shim_panthor_register(path, minor) < 0) {
      fprintf(stderr, "shim: panthor: %s: %s\n", path, strerror(errno));
      return -1;
    }
  }
  return 0;
bad:
  fprintf(stderr, "shim: panthor: %s: not understood\n", s ? s : "(path)");
  errno = EINVAL;
  return -1;
}
