/*
 * bench_i915_live.c: i915_oa's live read path against the shim's i915
 * device (in-process, tests/shim): allocations per read (malloc, calloc
 * and realloc counted while 20000 drains of 64 reports each run, after
 * a warm-up that sizes every buffer) and the time per drain.
 * Environment: BENCH_I915_READS (default 20000).
 */
#include "bench/bench_util.h"
#include "common/i915/i915_device.h"
#include "tests/shim/shim.h"
#include "tests/shim/shim_i915.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define DEV "/bench/dri/renderD128"
#define UUID "01234567-89ab-cdef-0123-456789abcdef"

static uint64_t bytes;
static void discard(void *ctx, const uint8_t *data, size_t len) {
  (void)ctx;
  (void)data;
  bytes += len;
}

int main(void) {
  const char *env = getenv("BENCH_I915_READS");
  long reads = env ? atol(env) : bench_count(20000, 5);
  struct shim_i915_scenario sc;
  shim_i915_scenario_default(&sc);
  sc.reports = 64;
  if (shim_i915_add(DEV, &sc) < 0 || shim_i915_add_metric(DEV, UUID, 1) < 0) {
    perror("bench_i915_live: shim");
    return 1;
  }
  struct drm_node node;
  memset(&node, 0, sizeof node);
  snprintf(node.path, sizeof node.path, "%s", DEV);
  snprintf(node.name, sizeof node.name, "renderD128");
  node.minor = 128;
  struct i915_device dev;
  i915_device_init(&dev, &node);
  struct i915_device_params p = {
      .plugin = "i915_oa",
      .sysfs_root = "/nonexistent",
      .metric_set = "1",
      .format = 10,
      .exponent = 16,
      .engine_class = -1,
      .engine_instance = -1,
  };
  if (i915_device_open(&shim_kernel, &dev, &p, 0) < 0)
    return 1;
  for (int i = 0; i < 10; i++) /* warm-up: buffers reach their size */
    i915_device_drain(&shim_kernel, &dev, &p, 0, discard, NULL);
  long before = allocations;
  bytes = 0;
  double t0 = bench_now_s();
  for (long i = 0; i < reads; i++)
    if (i915_device_drain(&shim_kernel, &dev, &p, 0, discard, NULL) < 0)
      return 1;
  double dt = bench_now_s() - t0;
  long allocs = allocations - before;
  printf("i915 live drain: %ld drains of 64 reports, %.2f allocations per "
         "read, %.2f us per drain, %.0f MB/s through the shim\n",
         reads, (double)allocs / (double)reads, dt / (double)reads * 1e6,
         (double)bytes / dt / 1e6);
  i915_device_stop(&shim_kernel, &dev, &p);
  shim_i915_reset();
  return allocs == 0 ? 0 : 1;
}
