/*
 * shim_i915_int.h: what the i915 device (shim_i915.c) and its stream
 * (shim_i915_stream.c) share. Not for tests.
 */
#ifndef TESTS_SHIM_SHIM_I915_INT_H
#define TESTS_SHIM_SHIM_I915_INT_H

#include "common/i915/i915_uapi.h"
#include "tests/shim/shim.h"
#include "tests/shim/shim_i915.h"

#include <pthread.h>
#include <stddef.h>

struct shim_i915_config {
  char uuid[I915_UAPI_UUID_LEN + 1];
  uint64_t id;
};

struct shim_i915_dev {
  char path[PATH_MAX];
  pthread_mutex_t lock; /* guards everything below */
  struct shim_i915_scenario s;
  struct shim_i915_stats stats;
  struct shim_i915_config configs[SHIM_I915_MAX_CONFIGS];
  size_t n_configs;
  uint64_t next_id;
  bool unit_busy; /* one of our streams holds the OA unit */
};

/* Create a stream fd on `dev` (format `format`, report size `size`,
 * perf-open `flags`); the caller holds dev->lock. fd, or -1 with errno. */
int shim_i915_stream_new(struct shim_i915_dev *dev, uint32_t format,
                         size_t size, uint32_t flags);

/* Write report number `r` of `dev`'s scenario in `format` (`size` bytes)
 * to `out`. */
void shim_i915_report_write(const struct shim_i915_scenario *s, uint64_t r,
                            uint32_t format, size_t size, uint8_t *out);

#endif
