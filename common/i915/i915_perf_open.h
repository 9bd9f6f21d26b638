/*
 * i915_perf_open.h: opening an i915 perf OA stream (i915_perf.c:
 * i915_perf_open_ioctl, read_properties_unlocked): the property list a
 * perf revision allows, the ioctl through
 * the kernel seam, and the kernel's refusals explained in words.
 */
#ifndef COMMON_I915_I915_PERF_OPEN_H
#define COMMON_I915_I915_PERF_OPEN_H

#include "common/core/kernel.h"

#include <stddef.h>
#include <stdint.h>

/* Most (id, value) pairs the builder writes. */
#define I915_PERF_OPEN_MAX_PROPS 7

struct i915_perf_open_args {
  int perf_revision;       /* GETPARAM 54 (1 when missing) */
  uint64_t metrics_set;    /* config id, != 0 */
  uint32_t format;         /* drm_i915_oa_format value */
  int exponent;            /* 0..31; < 0: not periodic (no OA_EXPONENT) */
  uint64_t poll_period_ns; /* 0: kernel default; sent on revision >= 5 */
  int engine_class;        /* < 0: default engine; sent on revision >= 6 */
  int engine_instance;     /* with engine_class */
};

/* Write the property pairs of `a` to `props` (2 * I915_PERF_OPEN_MAX_PROPS
 * u64): SAMPLE_OA, OA_METRICS_SET, OA_FORMAT, OA_EXPONENT when periodic,
 * POLL_OA_PERIOD when set and revision >= 5, OA_ENGINE_CLASS/INSTANCE
 * when set and revision >= 6. Returns the number of pairs. Pure. */
size_t i915_perf_open_props(const struct i915_perf_open_args *a,
                            uint64_t *props);

/* DRM_IOCTL_I915_PERF_OPEN on device fd `fd` with CLOEXEC|NONBLOCK: the
 * new stream fd, or -errno (see i915_perf_open_hint for the words). */
int i915_perf_open(const struct kernel_ops *k, int fd,
                   const struct i915_perf_open_args *a);

/* What the kernel means when PERF_OPEN (or ADD_CONFIG) fails with `err`:
 * a static sentence naming the knob or the culprit, or NULL when the
 * errno needs no explanation beyond strerror. */
const char *i915_perf_open_hint(int err);

/* strerror(err), with "Unknown error 524" named as ENOTSUPP. Static. */
const char *i915_perf_open_strerror(int err);

/* The sampling rate the kernel's check computes for `exponent` at OA
 * timestamp frequency `freq_hz` (i915_perf.c: period = ceil(2^(e+1) *
 * 1e9 / f); rate = 1e9 / period, 0 above a second). 0 when freq_hz is 0.
 * Pure. */
uint64_t i915_perf_open_rate(int exponent, uint64_t freq_hz);

/* The smallest exponent (0..31) whose rate is within `max_rate_hz`, i.e.
 * the shortest period an unprivileged stream may use; 31 when none. */
int i915_perf_open_min_exponent(uint64_t freq_hz, uint64_t max_rate_hz);

/* dev.i915.oa_max_sample_rate under `proc_root` (normally /proc): 0 with
 * `*hz` set, or -errno (-EINVAL when the file holds no number). */
int i915_perf_open_max_rate(const char *proc_root, uint64_t *hz);

#endif
