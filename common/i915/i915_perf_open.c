/*
 * i915_perf_open.c: the PERF_OPEN property list and errno words
 * (i915_perf_open.h). Property ids and revisions follow
 * include/uapi/drm/i915_drm.h; the errno meanings follow the checks of
 * i915_perf_open_ioctl() and read_properties_unlocked() in
 * drivers/gpu/drm/i915/i915_perf.c.
 */
#include "common/i915/i915_perf_open.h"
#include "common/core/fileio.h"
#include "common/i915/i915_uapi.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t i915_perf_open_props(const struct i915_perf_open_args *a,
                            uint64_t *props) {
  size_t n = 0;
#define PROP(id, value) (props[2 * n] = (id), props[2 * n + 1] = (value), n++)
  PROP(DRM_I915_PERF_PROP_SAMPLE_OA, 1);
  PROP(DRM_I915_PERF_PROP_OA_METRICS_SET, a->metrics_set);
  PROP(DRM_I915_PERF_PROP_OA_FORMAT, a->format);
  if (a->exponent >= 0)
    PROP(DRM_I915_PERF_PROP_OA_EXPONENT, (uint64_t)a->exponent);
  /* POLL_OA_PERIOD arrived with revision 5, engines with 6: an older
   * kernel refuses unknown ids with EINVAL */
  if (a->poll_period_ns != 0 && a->perf_revision >= 5)
    PROP(DRM_I915_PERF_PROP_POLL_OA_PERIOD, a->poll_period_ns);
  if (a->engine_class >= 0 && a->perf_revision >= 6) {
    PROP(I915_UAPI_PROP_OA_ENGINE_CLASS, (uint64_t)a->engine_class);
    PROP(I915_UAPI_PROP_OA_ENGINE_INSTANCE,
         (uint64_t)(a->engine_instance < 0 ? 0 : a->engine_instance));
  }
#undef PROP
  return n;
}

int i915_perf_open(const struct kernel_ops *k, int fd,
                   const struct i915_perf_open_args *a) {
  uint64_t props[2 * I915_PERF_OPEN_MAX_PROPS];
  struct drm_i915_perf_open_param param;
  memset(&param, 0, sizeof param);
  param.flags = I915_PERF_FLAG_FD_CLOEXEC | I915_PERF_FLAG_FD_NONBLOCK;
  param.num_properties = (uint32_t)i915_perf_open_props(a, props);
  param.properties_ptr = (uintptr_t)props;
  int sfd = kernel_ioctl_retry(k, fd, DRM_IOCTL_I915_PERF_OPEN, &param);
  return sfd < 0 ? -errno : sfd;
}

const char *i915_perf_open_hint(int err) {
  switch (err) {
  case EACCES:
  case EPERM:
    return "system-wide OA streams and metric configs need CAP_PERFMON (or "
           "CAP_SYS_ADMIN) or sysctl dev.i915.perf_stream_paranoid=0; a "
           "sampling rate above dev.i915.oa_max_sample_rate needs "
           "CAP_PERFMON too";
  case EBUSY:
    return "another OA stream owns this OA unit (only one at a time: "
           "gputop, intel_gpu_top's OA mode, Mesa's perf layer "
           "(INTEL_performance_query) or another collector)";
  case EINVAL:
    return "the kernel refused the OA format, metric set, engine or a "
           "property on this platform (check Format, MetricSet and Engine)";
  case I915_UAPI_ENOTSUPP:
  case EOPNOTSUPP:
    return "i915 perf is not initialised on this device (the kernel has no "
           "OA support for this platform)";
  case ENODEV:
  case ENXIO:
    return "the device is gone";
  case EADDRINUSE:
    return "a metric config with this uuid is already registered";
  default:
    return NULL;
  }
}

const char *i915_perf_open_strerror(int err) {
  if (err == I915_UAPI_ENOTSUPP)
    return "Operation not supported (ENOTSUPP)";
  return strerror(err);
}

uint64_t i915_perf_open_rate(int exponent, uint64_t freq_hz) {
  if (freq_hz == 0 || exponent < 0 || exponent > 31)
    return 0;
  unsigned __int128 num = (unsigned __int128)1000000000u << (exponent + 1);
  uint64_t period = (uint64_t)((num + freq_hz - 1) / freq_hz);
  return period > 1000000000u ? 0 : 1000000000u / period;
}

int i915_perf_open_min_exponent(uint64_t freq_hz, uint64_t max_rate_hz) {
  for (int e = 0; e < 31; e++)
    if (i915_perf_open_rate(e, freq_hz) <= max_rate_hz)
      return e;
  return 31;
}

int i915_perf_open_max_rate(const char *proc_root, uint64_t *hz) {
  char path[PATH_MAX], text[64];
  int n = snprintf(path, sizeof path, "%s/sys/dev/i915/oa_max_sample_rate",
                   proc_root);
  if (n < 0 || (size_t)n >= sizeof path)
    return -ENAMETOOLONG;
  ssize_t len = fileio_read_line_at(AT_FDCWD, path, text, sizeof text);
  if (len < 0)
    return (int)len;
  char *end;
  errno = 0;
  unsigned long long v = strtoull(text, &end, 10);
  if (end == text || *end != '\0' || errno != 0)
    return -EINVAL;
  *hz = v;
  return 0;
}
