/* xe_oa.c: xe OA observation streams (xe_query.c, xe_observation.c,
 * xe_oa.c). */
#include "common/xe/xe_oa.h"

#include "common/core/le.h"
#include "common/i915/oa_platform.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>

int xe_oa_units_parse(const uint8_t *buf, size_t len,
                      struct xe_oa_unit_info *out, size_t max) {
  const size_t head = sizeof(struct drm_xe_query_oa_units);
  const size_t unit = sizeof(struct drm_xe_oa_unit);
  const size_t eci = sizeof(struct drm_xe_engine_class_instance);
  if (len < head)
    return -EINVAL;
  uint32_t n = le32(buf + offsetof(struct drm_xe_query_oa_units, num_oa_units));
  size_t off = head, kept = 0;
  for (uint32_t i = 0; i < n; i++) {
    if (len - off < unit)
      return -EINVAL;
    const uint8_t *u = buf + off;
    uint64_t n_eng = le64(u + offsetof(struct drm_xe_oa_unit, num_engines));
    if (n_eng > (len - off - unit) / eci)
      return -EINVAL;
    if (kept < max) {
      struct xe_oa_unit_info *o = &out[kept++];
      memset(o, 0, sizeof *o);
      o->id = le32(u + offsetof(struct drm_xe_oa_unit, oa_unit_id));
      o->type = le32(u + offsetof(struct drm_xe_oa_unit, oa_unit_type));
      o->capabilities = le64(u + offsetof(struct drm_xe_oa_unit, capabilities));
      o->timestamp_hz =
          le64(u + offsetof(struct drm_xe_oa_unit, oa_timestamp_freq));
      for (uint64_t e = 0; e < n_eng && o->n_engines < XE_OA_UNIT_MAX_ENGINES;
           e++) {
        const uint8_t *p = u + unit + e * eci;
        struct drm_xe_engine_class_instance *x = &o->engines[o->n_engines++];
        x->engine_class = (uint16_t)(p[0] | p[1] << 8);
        x->engine_instance = (uint16_t)(p[2] | p[3] << 8);
        x->gt_id = (uint16_t)(p[4] | p[5] << 8);
        x->pad = 0;
      }
    }
    off += unit + (size_t)n_eng * eci;
  }
  return (int)kept;
}

int xe_query(const struct kernel_ops *k, int fd, uint32_t query, void **out,
             uint32_t *size) {
  struct drm_xe_device_query q = {.query = query};
  if (kernel_ioctl_retry(k, fd, DRM_IOCTL_XE_DEVICE_QUERY, &q) < 0)
    return -errno;
  if (q.size == 0)
    return -EINVAL;
  void *buf = calloc(1, q.size);
  if (buf == NULL)
    return -ENOMEM;
  q.data = (uintptr_t)buf;
  if (kernel_ioctl_retry(k, fd, DRM_IOCTL_XE_DEVICE_QUERY, &q) < 0) {
    int err = errno;
    free(buf);
    return -err;
  }
  *out = buf;
  *size = q.size;
  return 0;
}

int xe_identity_read(const struct kernel_ops *k, int fd, struct xe_identity *id,
                     const char **what) {
  memset(id, 0, sizeof *id);
  void *blob;
  uint32_t size;
  *what = "DEVICE_QUERY CONFIG";
  int rc = xe_query(k, fd, DRM_XE_DEVICE_QUERY_CONFIG, &blob, &size);
  if (rc < 0)
    return rc;
  const struct drm_xe_query_config *cfg = blob;
  if (size < sizeof *cfg + 8 * (DRM_XE_QUERY_CONFIG_REV_AND_DEVICE_ID + 1) ||
      cfg->num_params <= DRM_XE_QUERY_CONFIG_REV_AND_DEVICE_ID) {
    free(blob);
    return -EINVAL;
  }
  uint64_t v = cfg->info[DRM_XE_QUERY_CONFIG_REV_AND_DEVICE_ID];
  id->devid = (uint16_t)(v & 0xFFFF);
  id->revid = (uint8_t)(v >> 16);
  free(blob);

  *what = "DEVICE_QUERY GT_LIST";
  rc = xe_query(k, fd, DRM_XE_DEVICE_QUERY_GT_LIST, &blob, &size);
  if (rc < 0)
    return rc;
  const struct drm_xe_query_gt_list *gts = blob;
  if (size < sizeof *gts ||
      gts->num_gt > (size - sizeof *gts) / sizeof(struct drm_xe_gt)) {
    free(blob);
    return -EINVAL;
  }
  for (uint32_t i = 0; i < gts->num_gt; i++)
    if (gts->gt_list[i].type == DRM_XE_QUERY_GT_TYPE_MAIN) {
      id->graphics_major = gts->gt_list[i].ip_ver_major;
      id->graphics_minor = gts->gt_list[i].ip_ver_minor;
      id->reference_clock = gts->gt_list[i].reference_clock;
      break;
    }
  free(blob);

  *what = "DEVICE_QUERY OA_UNITS";
  rc = xe_query(k, fd, DRM_XE_DEVICE_QUERY_OA_UNITS, &blob, &size);
  if (rc < 0)
    return rc;
  *what = "OA_UNITS answer"; /* a malformed blob, not a missing query */
  rc = xe_oa_units_parse(blob, size, id->units, XE_OA_MAX_UNITS);
  free(blob);
  if (rc < 0)
    return rc;
  id->n_units = (size_t)rc;
  return 0;
}

const struct xe_oa_unit_info *xe_oa_unit_for(const struct xe_identity *id,
                                             int cls, int inst) {
  for (size_t u = 0; u < id->n_units; u++) {
    const struct xe_oa_unit_info *unit = &id->units[u];
    if (unit->type != DRM_XE_OA_UNIT_TYPE_OAG)
      continue;
    for (uint32_t e = 0; e < unit->n_engines; e++)
      if (unit->engines[e].engine_class == cls &&
          (inst < 0 || unit->engines[e].engine_instance == inst))
        return unit;
  }
  return NULL;
}

unsigned xe_identity_gfx_ver(const struct xe_identity *id) {
  if (id->graphics_major != 0)
    return id->graphics_major * 100u + id->graphics_minor;
  return oa_platform_lookup(id->devid)->gfx_ver;
}

uint32_t xe_oa_default_format(unsigned gfx_ver) {
  if (gfx_ver >= 2000)
    return OA_FORMAT_XE_PEC64u64;
  if (gfx_ver >= 1255)
    return I915_UAPI_OA_FORMAT_A24u40_A14u32_B8_C8;
  return I915_OA_FORMAT_A32u40_A4u32_B8_C8;
}

static uint64_t fmt_fields(unsigned type, unsigned sel, unsigned size,
                           unsigned bc) {
  return (uint64_t)type | (uint64_t)sel << 8 | (uint64_t)size << 16 |
         (uint64_t)bc << 24;
}

uint64_t xe_oa_format_property(uint32_t id) {
  /* xe_oa.c: oa_formats {counter_select, size, type, header,
   * counter_size, bc_report} of the formats this project decodes */
  switch (id) {
  case I915_OA_FORMAT_A12:
    return fmt_fields(DRM_XE_OA_FMT_TYPE_OAG, 0, 0, 0);
  case I915_OA_FORMAT_A12_B8_C8:
    return fmt_fields(DRM_XE_OA_FMT_TYPE_OAG, 2, 0, 0);
  case I915_OA_FORMAT_C4_B8:
    return fmt_fields(DRM_XE_OA_FMT_TYPE_OAG, 7, 0, 0);
  case I915_OA_FORMAT_A32u40_A4u32_B8_C8:
  case I915_UAPI_OA_FORMAT_A24u40_A14u32_B8_C8:
    return fmt_fields(DRM_XE_OA_FMT_TYPE_OAG, 5, 0, 0);
  case I915_UAPI_OAR_FORMAT_A32u40_A4u32_B8_C8:
    return fmt_fields(DRM_XE_OA_FMT_TYPE_OAR, 5, 0, 0);
  case I915_UAPI_OAM_FORMAT_MPEC8u64_B8_C8:
    return fmt_fields(DRM_XE_OA_FMT_TYPE_OAM_MPEC, 1, 0, 0);
  case I915_UAPI_OAM_FORMAT_MPEC8u32_B8_C8:
    return fmt_fields(DRM_XE_OA_FMT_TYPE_OAM_MPEC, 2, 0, 0);
  case OA_FORMAT_XE_PEC64u64:
    return fmt_fields(DRM_XE_OA_FMT_TYPE_PEC, 1, 1, 0);
  default:
    return 0;
  }
}

uint32_t xe_oa_format_decoded(unsigned gfx_ver, uint32_t id) {
  /* xe_oa.c: xe_oa_init_supported_formats, the formats this project
   * decodes (no two of one set share an encoding) */
  static const uint32_t gen12[] = {I915_OA_FORMAT_A12, I915_OA_FORMAT_A12_B8_C8,
                                   I915_OA_FORMAT_A32u40_A4u32_B8_C8,
                                   I915_OA_FORMAT_C4_B8};
  static const uint32_t dg2[] = {I915_UAPI_OAR_FORMAT_A32u40_A4u32_B8_C8,
                                 I915_UAPI_OA_FORMAT_A24u40_A14u32_B8_C8};
  static const uint32_t mtl[] = {I915_UAPI_OAR_FORMAT_A32u40_A4u32_B8_C8,
                                 I915_UAPI_OA_FORMAT_A24u40_A14u32_B8_C8,
                                 I915_UAPI_OAM_FORMAT_MPEC8u64_B8_C8,
                                 I915_UAPI_OAM_FORMAT_MPEC8u32_B8_C8};
  static const uint32_t xe2[] = {I915_UAPI_OAM_FORMAT_MPEC8u64_B8_C8,
                                 I915_UAPI_OAM_FORMAT_MPEC8u32_B8_C8,
                                 OA_FORMAT_XE_PEC64u64};
  const uint32_t *set = gfx_ver >= 2000   ? xe2
                        : gfx_ver >= 1270 ? mtl
                        : gfx_ver >= 1255 ? dg2
                                          : gen12;
  size_t n = gfx_ver >= 2000   ? sizeof xe2 / sizeof xe2[0]
             : gfx_ver >= 1270 ? sizeof mtl / sizeof mtl[0]
             : gfx_ver >= 1255 ? sizeof dg2 / sizeof dg2[0]
                               : sizeof gen12 / sizeof gen12[0];
  uint64_t want = xe_oa_format_property(id);
  for (size_t i = 0; want != 0 && i < n; i++)
    if (xe_oa_format_property(set[i]) == want)
      return set[i];
  return 0;
}

static void prop(struct drm_xe_ext_set_property *ext, size_t *n, uint32_t p,
                 uint64_t v) {
  struct drm_xe_ext_set_property *e = &ext[*n];
  memset(e, 0, sizeof *e);
  e->base.name = DRM_XE_OA_EXTENSION_SET_PROPERTY;
  e->property = p;
  e->value = v;
  if (*n > 0)
    ext[*n - 1].base.next_extension = (uintptr_t)e;
  (*n)++;
}

size_t xe_oa_open_props(const struct xe_oa_open_args *a,
                        struct drm_xe_ext_set_property *ext) {
  size_t n = 0;
  prop(ext, &n, DRM_XE_OA_PROPERTY_OA_UNIT_ID, a->oa_unit_id);
  prop(ext, &n, DRM_XE_OA_PROPERTY_SAMPLE_OA, 1);
  prop(ext, &n, DRM_XE_OA_PROPERTY_OA_METRIC_SET, a->metric_set);
  prop(ext, &n, DRM_XE_OA_PROPERTY_OA_FORMAT, xe_oa_format_property(a->format));
  if (a->exponent >= 0)
    prop(ext, &n, DRM_XE_OA_PROPERTY_OA_PERIOD_EXPONENT, (uint64_t)a->exponent);
  if (a->engine_instance >= 0)
    prop(ext, &n, DRM_XE_OA_PROPERTY_OA_ENGINE_INSTANCE,
         (uint64_t)a->engine_instance);
  prop(ext, &n, DRM_XE_OA_PROPERTY_OA_DISABLED, 1);
  return n;
}

int xe_oa_stream_open(const struct kernel_ops *k, int fd,
                      const struct xe_oa_open_args *a, const char **what) {
  struct drm_xe_ext_set_property ext[XE_OA_MAX_PROPS];
  xe_oa_open_props(a, ext);
  struct drm_xe_observation_param p = {
      .observation_type = DRM_XE_OBSERVATION_TYPE_OA,
      .observation_op = DRM_XE_OBSERVATION_OP_STREAM_OPEN,
      .param = (uintptr_t)&ext[0],
  };
  *what = "OBSERVATION STREAM_OPEN";
  int sfd = kernel_ioctl_retry(k, fd, DRM_IOCTL_XE_OBSERVATION, &p);
  if (sfd < 0)
    return -errno;
  /* The uAPI has no O_NONBLOCK property, but xe_oa_read honours the
   * file's flag: set it (the drain also polls first, so a kernel or an
   * emulation that ignored it still never blocks a read). fcntl on the fd
   * just opened is not part of the seam: an emulated fd is a real one. */
  int fl = fcntl(sfd, F_GETFL);
  if (fl >= 0)
    (void)fcntl(sfd, F_SETFL, fl | O_NONBLOCK);
  *what = "OBSERVATION_IOCTL_ENABLE";
  if (kernel_ioctl_retry(k, sfd, DRM_XE_OBSERVATION_IOCTL_ENABLE, NULL) < 0) {
    int err = errno;
    k->close(sfd);
    return -err;
  }
  return sfd;
}

int xe_oa_add_config(const struct kernel_ops *k, int fd, const char *uuid,
                     const uint32_t *pairs, size_t n, uint64_t *id) {
  if (n == 0 || n > UINT32_MAX)
    return -EINVAL;
  struct drm_xe_oa_config c;
  memset(&c, 0, sizeof c);
  memcpy(c.uuid, uuid, sizeof c.uuid);
  c.n_regs = (uint32_t)n;
  c.regs_ptr = (uintptr_t)pairs;
  struct drm_xe_observation_param p = {
      .observation_type = DRM_XE_OBSERVATION_TYPE_OA,
      .observation_op = DRM_XE_OBSERVATION_OP_ADD_CONFIG,
      .param = (uintptr_t)&c,
  };
  int rc = kernel_ioctl_retry(k, fd, DRM_IOCTL_XE_OBSERVATION, &p);
  if (rc < 0)
    return -errno;
  if (rc < 1)
    return -EPROTO; /* idr_alloc from 1 */
  *id = (uint64_t)rc;
  return 0;
}

int xe_oa_remove_config(const struct kernel_ops *k, int fd, uint64_t id) {
  struct drm_xe_observation_param p = {
      .observation_type = DRM_XE_OBSERVATION_TYPE_OA,
      .observation_op = DRM_XE_OBSERVATION_OP_REMOVE_CONFIG,
      .param = (uintptr_t)&id,
  };
  return kernel_ioctl_retry(k, fd, DRM_IOCTL_XE_OBSERVATION, &p) < 0 ? -errno
                                                                     : 0;
}

const char *xe_oa_open_hint(int err) {
  switch (err) {
  case EACCES:
    return "system-wide OA needs dev.xe.observation_paranoid=0 or "
           "CAP_PERFMON (xe_oa.c: xe_oa_stream_open_ioctl)";
  case ENODEV:
    return "the device has no OA (an SR-IOV VF, no GuC, or a kernel "
           "without xe OA)";
  case EBUSY:
    return "another OA stream holds the unit";
  case EADDRINUSE:
    return "a config with this uuid is registered already";
  case EINVAL:
    return "the kernel refused a property (format, exponent, engine)";
  case ENOTTY:
    return "the kernel has no xe observation interface";
  default:
    return "";
  }
}

void xe_oa_accum_status(struct oa_accum *a, struct xe_oa_stream_counts *c,
                        uint64_t status) {
  if (status & DRM_XE_OASTATUS_REPORT_LOST)
    oa_accum_status(a, DRM_I915_PERF_RECORD_OA_REPORT_LOST);
  if (status & DRM_XE_OASTATUS_BUFFER_OVERFLOW)
    oa_accum_status(a, DRM_I915_PERF_RECORD_OA_BUFFER_LOST);
  if (status & DRM_XE_OASTATUS_COUNTER_OVERFLOW)
    c->counter_overflow++;
  if (status & DRM_XE_OASTATUS_MMIO_TRG_Q_FULL)
    c->mmio_trigger_queue_full++;
}

void xe_oa_accum_reports(struct oa_accum *a, struct xe_oa_stream_counts *c,
                         const uint8_t *buf, size_t len) {
  size_t size = a->fmt->size, off = 0;
  for (; len - off >= size; off += size)
    oa_accum_report(a, buf + off);
  c->partial_bytes += len - off;
}

int64_t xe_oa_drain_fd(const struct kernel_ops *k, int fd, uint8_t *buf,
                       size_t cap, size_t report_size,
                       const struct xe_oa_drain_ops *ops, void *ctx,
                       struct xe_oa_stream_counts *c) {
  if (report_size == 0 || cap < report_size)
    return -ENOSPC;
  size_t want = cap - cap % report_size; /* whole reports only */
  uint64_t total = 0;
  unsigned statuses = 0;
  while (total < XE_OA_DRAIN_MAX) {
    struct pollfd pfd = {.fd = fd, .events = POLLIN};
    int pr = k->poll(&pfd, 1, 0);
    if (pr < 0) {
      if (errno == EINTR)
        continue;
      return -errno;
    }
    if (pr == 0 || !(pfd.revents & (POLLIN | POLLERR | POLLHUP)))
      break;
    ssize_t n = kernel_read_retry(k, fd, buf, want);
    if (n > 0) {
      c->reads++;
      c->bytes += (uint64_t)n;
      total += (uint64_t)n;
      ops->reports(ctx, buf, (size_t)n);
      continue;
    }
    if (n == 0 || errno == EAGAIN)
      break;
    if (errno != EIO)
      return -errno;
    /* xe_oa.c: __xe_oa_read returns EIO while a status is pending;
     * xe_oa_status_locked returns and clears it. A kernel that kept
     * answering EIO would loop: give up after a few in one drain. */
    if (++statuses > 64)
      return -EIO;
    struct drm_xe_oa_stream_status st;
    memset(&st, 0, sizeof st);
    if (kernel_ioctl_retry(k, fd, DRM_XE_OBSERVATION_IOCTL_STATUS, &st) < 0)
      return -errno;
    c->status_reads++;
    ops->status(ctx, st.oa_status);
  }
  return (int64_t)total;
}

struct accum_ctx {
  struct oa_accum *a;
  struct xe_oa_stream_counts *c;
};

static void accum_reports(void *ctx, const uint8_t *buf, size_t len) {
  struct accum_ctx *x = ctx;
  xe_oa_accum_reports(x->a, x->c, buf, len);
}

static void accum_status(void *ctx, uint64_t oa_status) {
  struct accum_ctx *x = ctx;
  xe_oa_accum_status(x->a, x->c, oa_status);
}

int64_t xe_oa_drain(const struct kernel_ops *k, int fd, uint8_t *buf,
                    size_t cap, struct oa_accum *a,
                    struct xe_oa_stream_counts *c) {
  static const struct xe_oa_drain_ops ops = {accum_reports, accum_status};
  struct accum_ctx x = {a, c};
  return xe_oa_drain_fd(k, fd, buf, cap, a->fmt->size, &ops, &x, c);
}
