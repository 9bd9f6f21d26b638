/*
 * shim_xe.c: the xe DRM device of the shim (shim_xe.h), following
 * drivers/gpu/drm/xe/xe_query.c (xe_query_ioctl and query_*),
 * xe_observation.c (xe_observation_ioctl) and xe_oa.c
 * (xe_oa_stream_open_ioctl, xe_oa_user_extensions, the stream fops).
 * Where it knowingly differs: one OAG unit serving the render and compute
 * engines (no OAM units), no exec-queue, sync or buffer-size properties
 * (refused as unknown), ADD_CONFIG takes the seven flex registers only
 * (xe_oa_is_valid_config_reg_addr also takes the NOA mux and B/C counter
 * ranges), reports are queued by the test or written per drain instead
 * of by a timer, and poll is ready exactly when something is queued.
 */
#include "tests/shim/shim_xe.h"

#include "common/xe/xe_uapi.h"
#include "tests/shim/shim.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

/* The formats emulated, as xe_oa.c: oa_formats lists them ({counter
 * select, size, type, header, counter size, BC report}), with the
 * counter layout igt's lib/xe/xe_oa.c reads: A24u40_A14u32_B8_C8 and
 * OAR's A32u40_A4u32_B8_C8 before Xe2 (xe_oa_init_supported_formats:
 * graphics 12.55+), PEC64u64 on Xe2. */
enum { FMT_A24U40, FMT_OAR_A32U40, FMT_PEC64U64, FMT_N };

struct xe_fmt {
  uint8_t type, sel, counter_size, bc;
  uint16_t size;
  bool header64, xe2;
};

static const struct xe_fmt xe_fmts[FMT_N] = {
    [FMT_A24U40] = {DRM_XE_OA_FMT_TYPE_OAG, 5, 0, 0, 256, false, false},
    [FMT_OAR_A32U40] = {DRM_XE_OA_FMT_TYPE_OAR, 5, 0, 0, 256, false, false},
    [FMT_PEC64U64] = {DRM_XE_OA_FMT_TYPE_PEC, 1, 1, 0, 576, true, true},
};

static uint64_t fmt_value(const struct xe_fmt *f) {
  return (uint64_t)f->type | (uint64_t)f->sel << 8 |
         (uint64_t)f->counter_size << 16 | (uint64_t)f->bc << 24;
}

struct shim_xe_stream {
  bool enabled;
  size_t report_size;
  int format; /* FMT_* */
  bool armed; /* the next poll or read writes a batch */
  uint64_t next_report, batches;
};

static pthread_mutex_t xe_lock = PTHREAD_MUTEX_INITIALIZER;
static struct shim_xe_scenario xe_s;
static char xe_path[256];
static bool xe_present;
static struct shim_xe_open xe_stats;
static struct shim_file *xe_stream_file; /* the open stream, or NULL */
static uint8_t *xe_queue;
static size_t xe_queue_len, xe_queue_off;
static uint64_t xe_status; /* DRM_XE_OASTATUS_* pending */
/* configs added with OP_ADD_CONFIG: id (0 free) and uuid */
#define SHIM_XE_CONFIGS 16
static uint64_t xe_cfg_id[SHIM_XE_CONFIGS];
static char xe_cfg_uuid[SHIM_XE_CONFIGS][37];

static int fail(int err) {
  errno = err;
  return -1;
}

void shim_xe_scenario_mtl(struct shim_xe_scenario *s) {
  memset(s, 0, sizeof *s);
  s->devid = 0x7D55;
  s->revid = 4;
  s->ip_major = 12;
  s->ip_minor = 70;
  s->reference_clock = 19200000;
  s->oa_timestamp_hz = 19200000;
  s->has_oa = true;
  s->paranoid = true;
  s->perfmon = true;
  s->metrics[0] = 1;
  s->batch = 0;
  s->ts_step = 19200;
  s->clk_step = 1000000;
  s->ctr_step = 1000;
}

void shim_xe_scenario_bmg(struct shim_xe_scenario *s) {
  shim_xe_scenario_mtl(s);
  s->devid = 0xE20B;
  s->revid = 0;
  s->ip_major = 20;
  s->ip_minor = 1;
  s->xe2 = true;
}

/* ---- queries (xe_query.c) ---- */

/* The size protocol of every query_* function: size 0 asks, any other
 * size but the exact one is EINVAL. 1 when answered with the size. */
static int size_probe(struct drm_xe_device_query *q, size_t size) {
  if (q->size == 0) {
    q->size = (uint32_t)size;
    return 1;
  }
  return q->size != size ? fail(EINVAL) : 0;
}

static int query_config(struct drm_xe_device_query *q) {
  /* xe_query.c: query_config, five info[] entries */
  size_t size = sizeof(struct drm_xe_query_config) + 5 * sizeof(uint64_t);
  int rc = size_probe(q, size);
  if (rc != 0)
    return rc < 0 ? rc : 0;
  struct drm_xe_query_config *c = (void *)(uintptr_t)q->data;
  memset(c, 0, size);
  c->num_params = 5;
  c->info[DRM_XE_QUERY_CONFIG_REV_AND_DEVICE_ID] =
      (uint64_t)xe_s.revid << 16 | xe_s.devid;
  return 0;
}

static int query_gt_list(struct drm_xe_device_query *q) {
  /* xe_query.c: query_gt_list, one main GT */
  size_t size = sizeof(struct drm_xe_query_gt_list) + sizeof(struct drm_xe_gt);
  int rc = size_probe(q, size);
  if (rc != 0)
    return rc < 0 ? rc : 0;
  struct drm_xe_query_gt_list *l = (void *)(uintptr_t)q->data;
  memset(l, 0, size);
  l->num_gt = 1;
  l->gt_list[0].type = DRM_XE_QUERY_GT_TYPE_MAIN;
  l->gt_list[0].reference_clock = xe_s.reference_clock;
  l->gt_list[0].ip_ver_major = xe_s.ip_major;
  l->gt_list[0].ip_ver_minor = xe_s.ip_minor;
  return 0;
}

static int query_engines(struct drm_xe_device_query *q) {
  size_t size =
      sizeof(struct drm_xe_query_engines) + 2 * sizeof(struct drm_xe_engine);
  int rc = size_probe(q, size);
  if (rc != 0)
    return rc < 0 ? rc : 0;
  struct drm_xe_query_engines *e = (void *)(uintptr_t)q->data;
  memset(e, 0, size);
  e->num_engines = 2;
  e->engines[0].instance.engine_class = DRM_XE_ENGINE_CLASS_RENDER;
  e->engines[1].instance.engine_class = DRM_XE_ENGINE_CLASS_COMPUTE;
  return 0;
}

static int query_oa_units(struct drm_xe_device_query *q) {
  /* xe_query.c: query_oa_units: no units when OA is not initialised */
  unsigned n = xe_s.has_oa ? 1 : 0;
  size_t size = sizeof(struct drm_xe_query_oa_units) +
                n * (sizeof(struct drm_xe_oa_unit) +
                     2 * sizeof(struct drm_xe_engine_class_instance));
  int rc = size_probe(q, size);
  if (rc != 0)
    return rc < 0 ? rc : 0;
  uint8_t *p = (void *)(uintptr_t)q->data;
  memset(p, 0, size);
  struct drm_xe_query_oa_units *h = (void *)p;
  h->num_oa_units = n;
  if (n) {
    struct drm_xe_oa_unit *u = (void *)(p + sizeof *h);
    u->oa_unit_id = 0;
    u->oa_unit_type = DRM_XE_OA_UNIT_TYPE_OAG;
    u->capabilities = DRM_XE_OA_CAPS_BASE;
    u->oa_timestamp_freq = xe_s.oa_timestamp_hz;
    u->num_engines = 2;
    u->eci[0].engine_class = DRM_XE_ENGINE_CLASS_RENDER;
    u->eci[1].engine_class = DRM_XE_ENGINE_CLASS_COMPUTE;
  }
  return 0;
}

static int ioc_query(void *arg) {
  struct drm_xe_device_query *q = arg;
  /* xe_query.c: xe_query_ioctl */
  if (q->extensions || q->reserved[0] || q->reserved[1])
    return fail(EINVAL);
  if (q->size != 0 && q->data == 0)
    return fail(EFAULT);
  switch (q->query) {
  case DRM_XE_DEVICE_QUERY_ENGINES:
    return query_engines(q);
  case DRM_XE_DEVICE_QUERY_CONFIG:
    return query_config(q);
  case DRM_XE_DEVICE_QUERY_GT_LIST:
    return query_gt_list(q);
  case DRM_XE_DEVICE_QUERY_OA_UNITS:
    if (xe_s.old_kernel) /* before the query existed: an unknown id */
      return fail(EINVAL);
    return query_oa_units(q);
  default:
    return fail(EINVAL);
  }
}

/* ---- the stream fd (xe_oa.c: xe_oa_fops) ---- */

static uint64_t wrap(uint64_t v, unsigned bits) {
  return bits >= 64 ? v : v & ((UINT64_C(1) << bits) - 1);
}

static void le(uint8_t *p, uint64_t v, unsigned bytes) {
  for (unsigned i = 0; i < bytes; i++)
    p[i] = (uint8_t)(v >> (8 * i));
}

/* Counter `n` (0-based in the report's own order: A0.., then B0-7,
 * C0-7; PEC0-63) moves by (n + 1) * ctr_step per report. */
static uint64_t ctr(uint64_t r, unsigned n, unsigned bits) {
  return wrap(r * xe_s.ctr_step * (n + 1), bits);
}

/* One A24u40_A14u32_B8_C8 (and OAR A32u40_A4u32_B8_C8) report's counters
 * (igt lib/xe/xe_oa.c: the A..u40 layouts: low dwords from byte 16, high
 * bytes from 160, B from 192, C from 224). */
static void fill_oag(uint8_t *rep, int fmt, uint64_t r) {
  for (unsigned a = 0; a < 38; a++) {
    bool wide =
        fmt == FMT_A24U40 ? (a >= 4 && a < 24) || (a >= 28 && a < 32) : a < 32;
    if (fmt == FMT_OAR_A32U40 && a >= 36)
      break;
    unsigned low = a < 37 ? 16 + 4 * a : 184;
    uint64_t v = ctr(r, a, wide ? 40 : 32);
    le(rep + low, v, 4);
    if (wide)
      rep[160 + a] = (uint8_t)(v >> 32);
  }
  unsigned n_a = fmt == FMT_A24U40 ? 38 : 36;
  for (unsigned b = 0; b < 16; b++)
    le(rep + 192 + 4 * b, ctr(r, n_a + b, 32), 4);
}

/* Queue one batch of the device's own reports (xe_lock held). */
static void write_batch(struct shim_xe_stream *st) {
  const struct xe_fmt *f = &xe_fmts[st->format];
  size_t n = xe_s.batch, size = f->size;
  st->batches++;
  if (xe_s.status_at != 0 && st->batches == xe_s.status_at)
    xe_status |= xe_s.status;
  size_t left = xe_queue_len - xe_queue_off;
  uint8_t *q = malloc(left + n * size);
  if (q == NULL)
    return;
  if (left)
    memcpy(q, xe_queue + xe_queue_off, left);
  for (size_t k = 0; k < n; k++) {
    uint8_t *rep = q + left + k * size;
    /* near_wrap: report 0 sits two steps before every field's wrap */
    uint64_t r = st->next_report++ - (xe_s.near_wrap ? 2 : 0);
    memset(rep, 0, size);
    if (f->header64) {               /* igt: 56-bit timestamp, 64-bit ticks */
      le(rep, UINT64_C(1) << 19, 8); /* reason: timer */
      le(rep + 8, wrap(r * xe_s.ts_step, 56), 8);
      le(rep + 24, r * xe_s.clk_step, 8);
      for (unsigned c = 0; c < 64; c++) /* PEC0-63 at 32 + 8c */
        le(rep + 32 + 8 * c, ctr(r, c, 64), 8);
    } else {
      le(rep, UINT32_C(1) << 19, 4);
      le(rep + 4, wrap(r * xe_s.ts_step, 32), 4);
      le(rep + 12, wrap(r * xe_s.clk_step, 32), 4);
      fill_oag(rep, st->format, r);
    }
  }
  free(xe_queue);
  xe_queue = q;
  xe_queue_len = left + n * size;
  xe_queue_off = 0;
}

static ssize_t stream_read(struct shim_file *f, void *buf, size_t len) {
  struct shim_xe_stream *st = f->data;
  /* xe_oa.c: xe_oa_read: a disabled stream is EINVAL */
  if (!st->enabled)
    return fail(EINVAL);
  pthread_mutex_lock(&xe_lock);
  ssize_t rc;
  if (st->armed && xe_queue_off == xe_queue_len && xe_status == 0) {
    st->armed = false;
    write_batch(st);
  }
  if (xe_status) { /* __xe_oa_read: a pending status is EIO */
    rc = fail(EIO);
  } else if (xe_queue_off == xe_queue_len) {
    rc = fail(EAGAIN);
  } else if (len < st->report_size) { /* xe_oa_append_reports */
    rc = fail(ENOSPC);
  } else {
    size_t left = xe_queue_len - xe_queue_off;
    size_t n = len - len % st->report_size;
    n = n < left ? n : left;
    memcpy(buf, xe_queue + xe_queue_off, n);
    xe_queue_off += n;
    rc = (ssize_t)n;
  }
  bool ready = xe_status != 0 || xe_queue_off < xe_queue_len;
  pthread_mutex_unlock(&xe_lock);
  shim_file_set_ready(f, ready);
  return rc;
}

static short stream_poll(struct shim_file *f) {
  struct shim_xe_stream *st = f->data;
  pthread_mutex_lock(&xe_lock);
  bool ready = xe_status != 0 || xe_queue_off < xe_queue_len;
  if (xe_s.batch > 0 && st->enabled) {
    /* a poll that finds nothing ends a drain and arms the next batch */
    if (!ready && !st->armed)
      st->armed = true;
    else if (st->armed)
      ready = true;
  }
  pthread_mutex_unlock(&xe_lock);
  shim_file_set_ready(f, ready);
  return POLLIN;
}

static int stream_ioctl(struct shim_file *f, unsigned long request, void *arg) {
  struct shim_xe_stream *st = f->data;
  switch (request) {
  case DRM_XE_OBSERVATION_IOCTL_ENABLE:
    st->enabled = true;
    pthread_mutex_lock(&xe_lock);
    xe_stats.enables++;
    pthread_mutex_unlock(&xe_lock);
    return 0;
  case DRM_XE_OBSERVATION_IOCTL_DISABLE:
    st->enabled = false;
    return 0;
  case DRM_XE_OBSERVATION_IOCTL_STATUS: {
    /* xe_oa.c: xe_oa_status_locked: report and clear */
    if (arg == NULL)
      return fail(EFAULT);
    struct drm_xe_oa_stream_status s = {0};
    pthread_mutex_lock(&xe_lock);
    s.oa_status = xe_status;
    xe_status = 0;
    xe_stats.status_ioctls++;
    pthread_mutex_unlock(&xe_lock);
    memcpy(arg, &s, sizeof s);
    return 0;
  }
  case DRM_XE_OBSERVATION_IOCTL_INFO: {
    if (arg == NULL)
      return fail(EFAULT);
    struct drm_xe_oa_stream_info i = {.oa_buf_size = 16u << 20};
    memcpy(arg, &i, sizeof i);
    return 0;
  }
  default:
    return fail(EINVAL);
  }
}

static void stream_release(struct shim_file *f) {
  pthread_mutex_lock(&xe_lock);
  if (xe_stream_file == f)
    xe_stream_file = NULL;
  pthread_mutex_unlock(&xe_lock);
  free(f->data);
  f->data = NULL;
}

static const struct shim_file_ops xe_stream_ops = {
    .name = "xe-oa-stream",
    .read = stream_read,
    .ioctl = stream_ioctl,
    .poll = stream_poll,
    .release = stream_release,
};

/* ---- OBSERVATION (xe_observation.c, xe_oa.c) ---- */

struct open_param {
  bool sample;
  uint64_t unit, metric_set, format;
  int64_t exponent; /* -1: not given */
  int64_t engine_instance;
};

/* The format of OA_FORMAT value `v` among those the platform has
 * (xe_oa.c: decode_oa_format matches the fields against oa_formats and
 * the platform's format mask): FMT_*, or -1. */
static int format_find(uint64_t v) {
  for (int i = 0; i < FMT_N; i++)
    if (xe_fmts[i].xe2 == xe_s.xe2 && fmt_value(&xe_fmts[i]) == v)
      return i;
  return -1;
}

static bool id_used(uint64_t id) {
  for (size_t i = 0; i < SHIM_XE_MAX_METRICS; i++)
    if (xe_s.metrics[i] == id)
      return true;
  for (size_t i = 0; i < SHIM_XE_CONFIGS; i++)
    if (xe_cfg_id[i] == id)
      return true;
  return false;
}

static bool uuid_valid(const char *u) {
  for (int i = 0; i < 36; i++) {
    bool dash = i == 8 || i == 13 || i == 18 || i == 23;
    char c = u[i];
    bool hex = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
               (c >= 'A' && c <= 'F');
    if (dash ? c != '-' : !hex)
      return false;
  }
  return true;
}

static void sysfs_config(const char *uuid, uint64_t id, bool add) {
  if (xe_s.card_dir[0] == '\0')
    return;
  char path[512];
  snprintf(path, sizeof path, "%s/metrics", xe_s.card_dir);
  mkdir(path, 0755);
  snprintf(path, sizeof path, "%s/metrics/%s", xe_s.card_dir, uuid);
  if (!add) {
    char idp[600];
    snprintf(idp, sizeof idp, "%s/id", path);
    unlink(idp);
    rmdir(path);
    return;
  }
  mkdir(path, 0755);
  char idp[600];
  snprintf(idp, sizeof idp, "%s/id", path);
  FILE *f = fopen(idp, "w");
  if (f != NULL) {
    fprintf(f, "%llu\n", (unsigned long long)id); /* show_dynamic_id */
    fclose(f);
  }
}

/* xe_oa.c: xe_oa_add_config_ioctl (xe_lock held) */
static int add_config(const struct drm_xe_oa_config *c) {
  static const uint32_t flex[7] = {0xE458, 0xE558, 0xE658, 0xE758,
                                   0xE45C, 0xE55C, 0xE65C};
  if (!xe_s.has_oa)
    return fail(ENODEV);
  if (xe_s.paranoid && !xe_s.perfmon)
    return fail(EACCES);
  if (c->extensions || !c->regs_ptr || !c->n_regs)
    return fail(EINVAL);
  if (!uuid_valid(c->uuid))
    return fail(EINVAL);
  const uint32_t *regs = (const void *)(uintptr_t)c->regs_ptr;
  for (uint32_t i = 0; i < c->n_regs; i++) {
    bool ok = false;
    for (int f = 0; f < 7; f++)
      ok |= regs[2 * i] == flex[f];
    if (!ok) /* xe_oa_alloc_regs: an address no list takes */
      return fail(EINVAL);
  }
  size_t slot = SHIM_XE_CONFIGS;
  for (size_t i = 0; i < SHIM_XE_CONFIGS; i++) {
    if (xe_cfg_id[i] != 0 && memcmp(xe_cfg_uuid[i], c->uuid, 36) == 0)
      return fail(EADDRINUSE);
    if (xe_cfg_id[i] == 0 && slot == SHIM_XE_CONFIGS)
      slot = i;
  }
  if (slot == SHIM_XE_CONFIGS)
    return fail(ENOSPC);
  uint64_t id = 1; /* idr_alloc(&oa->metrics_idr, oa_config, 1, 0) */
  while (id_used(id))
    id++;
  xe_cfg_id[slot] = id;
  memcpy(xe_cfg_uuid[slot], c->uuid, 36);
  xe_cfg_uuid[slot][36] = '\0';
  sysfs_config(xe_cfg_uuid[slot], id, true);
  return (int)id;
}

/* xe_oa.c: xe_oa_remove_config_ioctl (xe_lock held) */
static int remove_config(const uint64_t *idp) {
  if (!xe_s.has_oa)
    return fail(ENODEV);
  if (xe_s.paranoid && !xe_s.perfmon)
    return fail(EACCES);
  if (idp == NULL)
    return fail(EFAULT);
  for (size_t i = 0; i < SHIM_XE_CONFIGS; i++)
    if (xe_cfg_id[i] != 0 && xe_cfg_id[i] == *idp) {
      sysfs_config(xe_cfg_uuid[i], 0, false);
      xe_cfg_id[i] = 0;
      return 0;
    }
  return fail(ENOENT);
}

static int ioc_observation(void *arg) {
  const struct drm_xe_observation_param *p = arg;
  /* xe_observation.c: xe_observation_ioctl */
  if (p->extensions)
    return fail(EINVAL);
  if (p->observation_type != DRM_XE_OBSERVATION_TYPE_OA)
    return fail(EINVAL);
  if (p->observation_op == DRM_XE_OBSERVATION_OP_ADD_CONFIG ||
      p->observation_op == DRM_XE_OBSERVATION_OP_REMOVE_CONFIG) {
    bool add = p->observation_op == DRM_XE_OBSERVATION_OP_ADD_CONFIG;
    pthread_mutex_lock(&xe_lock);
    int rc = add ? add_config((const void *)(uintptr_t)p->param)
                 : remove_config((const void *)(uintptr_t)p->param);
    if (add)
      rc < 0 ? xe_stats.add_refusals++ : xe_stats.adds++;
    else
      rc < 0 ? xe_stats.remove_refusals++ : xe_stats.removes++;
    pthread_mutex_unlock(&xe_lock);
    return rc;
  }
  if (p->observation_op != DRM_XE_OBSERVATION_OP_STREAM_OPEN)
    return fail(EINVAL);
  pthread_mutex_lock(&xe_lock);
  struct shim_xe_scenario s = xe_s;
  xe_stats.n_props = 0;
  pthread_mutex_unlock(&xe_lock);
  /* xe_oa.c: xe_oa_stream_open_ioctl: no OA at all is ENODEV first */
  if (!s.has_oa)
    return fail(ENODEV);
  /* xe_oa_user_extensions: at most 16, each a SET_PROPERTY with pad 0
   * and a known property, validated as it is set */
  struct open_param op = {.exponent = -1, .engine_instance = 0};
  uint64_t next = p->param;
  for (unsigned n = 0; next != 0; n++) {
    if (n >= 16)
      return fail(E2BIG);
    struct drm_xe_ext_set_property e;
    memcpy(&e, (const void *)(uintptr_t)next, sizeof e);
    if (e.base.name != DRM_XE_OA_EXTENSION_SET_PROPERTY)
      return fail(EINVAL);
    if (e.property == 0 || e.property > DRM_XE_OA_PROPERTY_OA_ENGINE_INSTANCE ||
        e.property == DRM_XE_OA_PROPERTY_EXEC_QUEUE_ID || e.pad)
      return fail(EINVAL);
    pthread_mutex_lock(&xe_lock);
    if (n < 16) {
      xe_stats.props[n][0] = e.property;
      xe_stats.props[n][1] = e.value;
      xe_stats.n_props = n + 1;
    }
    pthread_mutex_unlock(&xe_lock);
    switch (e.property) {
    case DRM_XE_OA_PROPERTY_OA_UNIT_ID: /* xe_oa_set_prop_oa_unit_id */
      if (e.value >= 1)
        return fail(EINVAL);
      op.unit = e.value;
      break;
    case DRM_XE_OA_PROPERTY_SAMPLE_OA:
      op.sample = e.value != 0;
      break;
    case DRM_XE_OA_PROPERTY_OA_METRIC_SET:
      op.metric_set = e.value;
      break;
    case DRM_XE_OA_PROPERTY_OA_FORMAT: /* xe_oa_set_prop_oa_format */
      if (format_find(e.value) < 0)
        return fail(EINVAL);
      op.format = e.value;
      break;
    case DRM_XE_OA_PROPERTY_OA_PERIOD_EXPONENT: /* OA_EXPONENT_MAX */
      if (e.value > XE_UAPI_OA_EXPONENT_MAX)
        return fail(EINVAL);
      op.exponent = (int64_t)e.value;
      break;
    case DRM_XE_OA_PROPERTY_OA_ENGINE_INSTANCE:
      op.engine_instance = (int64_t)e.value;
      break;
    default: /* OA_DISABLED */
      break;
    }
    next = e.base.next_extension;
  }
  if (!op.sample) /* "Only OA report sampling supported" */
    return fail(EINVAL);
  /* xe_oa.c: xe_oa_assign_hwe: without an exec queue (none here) the
   * stream takes the unit's first engine; ENGINE_INSTANCE is not looked
   * at (xe_oa_set_prop_engine_instance only stores it) */
  (void)op.engine_instance;
  if (op.format == 0)
    return fail(EINVAL);
  /* "Requesting samples from OAG buffer is a privileged operation" */
  if (op.exponent >= 0 && s.paranoid && !s.perfmon)
    return fail(EACCES);
  pthread_mutex_lock(&xe_lock);
  bool known = op.metric_set != 0 && id_used(op.metric_set);
  pthread_mutex_unlock(&xe_lock);
  if (!known) /* xe_oa_stream_init: "Invalid OA config id" */
    return fail(EINVAL);
  pthread_mutex_lock(&xe_lock);
  bool busy = xe_stream_file != NULL;
  pthread_mutex_unlock(&xe_lock);
  if (busy) /* xe_oa_stream_open_ioctl_locked: exclusive_stream */
    return fail(EBUSY);
  struct shim_xe_stream *st = calloc(1, sizeof *st);
  if (st == NULL)
    return fail(ENOMEM);
  st->format = format_find(op.format);
  st->report_size = xe_fmts[st->format].size;
  st->armed = true;
  int fd = shim_file_new(&xe_stream_ops, st, 0);
  if (fd < 0) {
    free(st);
    return -1;
  }
  pthread_mutex_lock(&xe_lock);
  xe_stream_file = shim_file_get(fd);
  if (xe_stream_file)
    shim_file_put(xe_stream_file); /* borrowed: release clears it */
  xe_stats.opens++;
  pthread_mutex_unlock(&xe_lock);
  return fd;
}

/* ---- the device ---- */

static int ioc_version(void *arg) {
  struct drm_version *v = arg;
  static const char name[] = "xe";
  size_t len = sizeof name - 1;
  if (v->name != NULL && v->name_len > 0)
    memcpy(v->name, name, len < v->name_len ? len : v->name_len);
  v->name_len = len;
  v->version_major = 1;
  v->version_minor = 1;
  return 0;
}

static int dev_ioctl(struct shim_file *f, unsigned long request, void *arg) {
  (void)f;
  if (arg == NULL && _IOC_SIZE(request) != 0)
    return fail(EFAULT);
  int rc;
  switch (request) {
  case DRM_IOCTL_VERSION:
    return ioc_version(arg);
  case DRM_IOCTL_XE_DEVICE_QUERY:
    pthread_mutex_lock(&xe_lock);
    rc = ioc_query(arg);
    pthread_mutex_unlock(&xe_lock);
    return rc;
  case DRM_IOCTL_XE_OBSERVATION:
    if (xe_s.old_kernel) { /* drm_ioctl: a number the driver lacks */
      errno = ENOTTY;
      return -1;
    }
    rc = ioc_observation(arg);
    if (rc < 0) {
      pthread_mutex_lock(&xe_lock);
      xe_stats.refusals++;
      pthread_mutex_unlock(&xe_lock);
    }
    return rc;
  default:
    shim_log_unhandled("xe", request);
    return fail(ENOTTY);
  }
}

static int dev_open(struct shim_file *f, void *ctx, int flags) {
  (void)flags;
  f->data = ctx;
  return 0;
}

static const struct shim_file_ops xe_dev_ops = {
    .name = "xe",
    .open = dev_open,
    .ioctl = dev_ioctl,
};

int shim_xe_add(const char *path, const struct shim_xe_scenario *s) {
  if (strlen(path) >= sizeof xe_path)
    return fail(ENAMETOOLONG);
  pthread_mutex_lock(&xe_lock);
  if (xe_present) {
    pthread_mutex_unlock(&xe_lock);
    return fail(EEXIST);
  }
  xe_s = *s;
  strcpy(xe_path, path);
  memset(&xe_stats, 0, sizeof xe_stats);
  free(xe_queue);
  xe_queue = NULL;
  xe_queue_len = xe_queue_off = 0;
  xe_status = 0;
  memset(xe_cfg_id, 0, sizeof xe_cfg_id);
  xe_present = true;
  pthread_mutex_unlock(&xe_lock);
  if (shim_device_add(path, makedev(226, 128), &xe_dev_ops, NULL) < 0) {
    pthread_mutex_lock(&xe_lock);
    xe_present = false;
    pthread_mutex_unlock(&xe_lock);
    return -1;
  }
  return 0;
}

void shim_xe_remove(void) {
  pthread_mutex_lock(&xe_lock);
  bool was = xe_present;
  xe_present = false;
  pthread_mutex_unlock(&xe_lock);
  if (was)
    shim_device_remove(xe_path);
}

int shim_xe_queue_reports(const uint8_t *buf, size_t len) {
  pthread_mutex_lock(&xe_lock);
  struct shim_file *f = xe_stream_file;
  if (f == NULL) {
    pthread_mutex_unlock(&xe_lock);
    return fail(ENOENT);
  }
  size_t left = xe_queue_len - xe_queue_off;
  uint8_t *q = malloc(left + len);
  if (q == NULL) {
    pthread_mutex_unlock(&xe_lock);
    return fail(ENOMEM);
  }
  if (left)
    memcpy(q, xe_queue + xe_queue_off, left);
  memcpy(q + left, buf, len);
  free(xe_queue);
  xe_queue = q;
  xe_queue_len = left + len;
  xe_queue_off = 0;
  pthread_mutex_unlock(&xe_lock);
  shim_file_set_ready(f, true);
  return 0;
}

int shim_xe_queue_status(uint64_t bits) {
  pthread_mutex_lock(&xe_lock);
  struct shim_file *f = xe_stream_file;
  if (f == NULL) {
    pthread_mutex_unlock(&xe_lock);
    return fail(ENOENT);
  }
  xe_status |= bits;
  pthread_mutex_unlock(&xe_lock);
  shim_file_set_ready(f, true);
  return 0;
}

void shim_xe_stats(struct shim_xe_open *out) {
  pthread_mutex_lock(&xe_lock);
  *out = xe_stats;
  pthread_mutex_unlock(&xe_lock);
}

/* ---- the preloaded shim's environment ---- */

void shim_xe_load_env(void) {
  const char *path = getenv("SHIM_XE_PATH");
  if (path == NULL || path[0] == '\0')
    path = "/dev/dri/renderD128";
  struct shim_xe_scenario s;
  shim_xe_scenario_mtl(&s);
  s.batch = 4;
  const char *env = getenv("SHIM_XE_SCENARIO");
  char buf[1024];
  snprintf(buf, sizeof buf, "%s", env ? env : "");
  size_t n_metrics = 0;
  for (char *save = NULL, *kv = strtok_r(buf, ",", &save); kv != NULL;
       kv = strtok_r(NULL, ",", &save)) {
    char *eq = strchr(kv, '=');
    if (eq == NULL) {
      fprintf(stderr, "shim: xe: SHIM_XE_SCENARIO: %s: not key=value\n", kv);
      continue;
    }
    *eq = '\0';
    const char *v = eq + 1;
    if (strcmp(kv, "card_dir") == 0) {
      snprintf(s.card_dir, sizeof s.card_dir, "%s", v);
      continue;
    }
    if (strcmp(kv, "platform") == 0) {
      struct shim_xe_scenario p;
      if (strcmp(v, "bmg") == 0)
        shim_xe_scenario_bmg(&p);
      else
        shim_xe_scenario_mtl(&p);
      s.devid = p.devid;
      s.revid = p.revid;
      s.ip_major = p.ip_major;
      s.ip_minor = p.ip_minor;
      s.xe2 = p.xe2;
      continue;
    }
    char *end;
    unsigned long long x = strtoull(v, &end, 0);
    if (end == v || *end != '\0') {
      fprintf(stderr, "shim: xe: SHIM_XE_SCENARIO: %s=%s: not a number\n", kv,
              v);
      continue;
    }
    if (strcmp(kv, "paranoid") == 0)
      s.paranoid = x != 0;
    else if (strcmp(kv, "perfmon") == 0)
      s.perfmon = x != 0;
    else if (strcmp(kv, "has_oa") == 0)
      s.has_oa = x != 0;
    else if (strcmp(kv, "batch") == 0)
      s.batch = (unsigned)x;
    else if (strcmp(kv, "ts_step") == 0)
      s.ts_step = x;
    else if (strcmp(kv, "clk_step") == 0)
      s.clk_step = x;
    else if (strcmp(kv, "ctr_step") == 0)
      s.ctr_step = x;
    else if (strcmp(kv, "near_wrap") == 0)
      s.near_wrap = x != 0;
    else if (strcmp(kv, "status_at") == 0)
      s.status_at = (unsigned)x;
    else if (strcmp(kv, "status") == 0)
      s.status = x;
    else if (strcmp(kv, "metric") == 0 && n_metrics < SHIM_XE_MAX_METRICS)
      s.metrics[n_metrics++] = x;
    else
      fprintf(stderr, "shim: xe: SHIM_XE_SCENARIO: %s: unknown key\n", kv);
  }
  if (shim_xe_add(path, &s) < 0)
    fprintf(stderr, "shim: xe: %s: %s\n", path, strerror(errno));
}
