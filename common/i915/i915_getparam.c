/*
 * i915_getparam.c: GETPARAM and the topology QUERY (i915_getparam.h),
 * following include/uapi/drm/i915_drm.h: GETPARAM writes an int through a
 * user pointer; QUERY fills an item's length on a first call with length
 * 0, and the data on a second call with that length.
 */
#include "common/i915/i915_getparam.h"
#include "common/i915/i915_uapi.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int i915_getparam(const struct kernel_ops *k, int fd, int param, int *value) {
  int v = 0;
  struct drm_i915_getparam gp;
  memset(&gp, 0, sizeof gp);
  gp.param = param;
  gp.value = &v;
  if (kernel_ioctl_retry(k, fd, DRM_IOCTL_I915_GETPARAM, &gp) < 0)
    return -errno;
  *value = v;
  return 0;
}

/* One QUERY of TOPOLOGY_INFO with `length` bytes at `data`: the length
 * the kernel wrote back (negative: an errno), or -errno of the ioctl. */
static int topology_query(const struct kernel_ops *k, int fd, int32_t length,
                          void *data, int32_t *out) {
  struct drm_i915_query_item item;
  struct drm_i915_query q;
  memset(&item, 0, sizeof item);
  memset(&q, 0, sizeof q);
  item.query_id = DRM_I915_QUERY_TOPOLOGY_INFO;
  item.length = length;
  item.data_ptr = (uintptr_t)data;
  q.num_items = 1;
  q.items_ptr = (uintptr_t)&item;
  if (kernel_ioctl_retry(k, fd, DRM_IOCTL_I915_QUERY, &q) < 0)
    return -errno;
  *out = item.length;
  return 0;
}

int i915_getparam_topology(const struct kernel_ops *k, int fd, void **blob,
                           size_t *len) {
  int32_t need = 0, got = 0;
  int rc = topology_query(k, fd, 0, NULL, &need);
  if (rc < 0)
    return rc;
  if (need < 0)
    return need; /* the item's own error, e.g. -ENODEV before Gen8 */
  if ((size_t)need < sizeof(struct drm_i915_query_topology_info))
    return -EINVAL;
  if (need > I915_GETPARAM_TOPOLOGY_MAX)
    return -E2BIG;
  void *buf = calloc(1, (size_t)need);
  if (buf == NULL)
    return -ENOMEM;
  rc = topology_query(k, fd, need, buf, &got);
  if (rc == 0 && got < 0)
    rc = got;
  else if (rc == 0 && got != need)
    rc = -EINVAL; /* the topology changed between the calls */
  if (rc < 0) {
    free(buf);
    return rc;
  }
  *blob = buf;
  *len = (size_t)need;
  return 0;
}

static uint16_t get16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }

/* Bit `bit` of the mask at data[offset...], bounds-checked. */
static int mask_bit(const uint8_t *data, size_t n, size_t offset, size_t bit,
                    int *set) {
  if (offset + bit / 8 >= n)
    return -EINVAL;
  *set = (data[offset + bit / 8] >> (bit % 8)) & 1;
  return 0;
}

int i915_getparam_topology_eus(const void *blob, size_t len, uint32_t *eus) {
  const uint8_t *p = blob;
  if (len < sizeof(struct drm_i915_query_topology_info))
    return -EINVAL;
  size_t max_s = get16(p + 2), max_ss = get16(p + 4), max_eu = get16(p + 6);
  size_t ss_off = get16(p + 8), ss_stride = get16(p + 10);
  size_t eu_off = get16(p + 12), eu_stride = get16(p + 14);
  const uint8_t *data = p + 16;
  size_t n = len - 16;
  uint32_t total = 0;
  for (size_t s = 0; s < max_s; s++) {
    int on;
    if (mask_bit(data, n, 0, s, &on) < 0)
      return -EINVAL;
    for (size_t ss = 0; on && ss < max_ss; ss++) {
      int ss_on;
      if (mask_bit(data, n, ss_off + s * ss_stride, ss, &ss_on) < 0)
        return -EINVAL;
      for (size_t e = 0; ss_on && e < max_eu; e++) {
        int eu_on;
        if (mask_bit(data, n, eu_off + (s * max_ss + ss) * eu_stride, e,
                     &eu_on) < 0)
          return -EINVAL;
        total += (uint32_t)eu_on;
      }
    }
  }
  *eus = total;
  return 0;
}

int i915_getparam_identity(const struct kernel_ops *k, int fd,
                           struct i915_identity *out) {
  struct i915_identity id;
  memset(&id, 0, sizeof id);
  int v = 0;
  int rc = i915_getparam(k, fd, I915_PARAM_CHIPSET_ID, &v);
  if (rc < 0)
    return rc;
  id.devid = (uint32_t)v;
  /* kernels before perf revisions existed fail the param: revision 1 */
  id.perf_revision =
      i915_getparam(k, fd, I915_PARAM_PERF_REVISION, &v) == 0 && v > 0 ? v : 1;
  if (i915_getparam(k, fd, I915_UAPI_PARAM_OA_TIMESTAMP_FREQUENCY, &v) == 0 &&
      v > 0) {
    id.oa_timestamp_hz = (uint32_t)v;
    id.oa_timestamp_param = I915_UAPI_PARAM_OA_TIMESTAMP_FREQUENCY;
  } else if (i915_getparam(k, fd, I915_PARAM_CS_TIMESTAMP_FREQUENCY, &v) == 0 &&
             v > 0) {
    id.oa_timestamp_hz = (uint32_t)v;
    id.oa_timestamp_param = I915_PARAM_CS_TIMESTAMP_FREQUENCY;
  }
  void *blob = NULL;
  size_t len = 0;
  uint32_t eus = 0;
  if (i915_getparam_topology(k, fd, &blob, &len) == 0 &&
      i915_getparam_topology_eus(blob, len, &eus) == 0 && eus > 0) {
    id.eu_total = eus;
    id.eu_from_topology = 1;
  } else if (i915_getparam(k, fd, I915_PARAM_EU_TOTAL, &v) == 0 && v > 0) {
    id.eu_total = (uint32_t)v;
  }
  free(blob);
  *out = id;
  return 0;
}
