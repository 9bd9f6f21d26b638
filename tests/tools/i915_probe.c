/*
 * i915_probe.c: the live device path of i915_oa (common/i915) in one
 * executable, for tests under the preloaded kernel emulation and as a
 * diagnostic on real hardware: finds the i915 devices, prints each
 * device's identity, opens its OA stream and drains it N times, counting
 * records by type, with time injected (no sleeping) so the reopen backoff
 * can be walked through.
 *
 * Usage: i915_probe [--dev-root=/dev/dri] [--sysfs-root=/sys]
 *   [--device=PATH|PCI]... [--metric-set=UUID|ID] [--flex=SEL,...]
 *   [--format=10] [--exponent=16] [--drains=N] [--step-ms=MS] [--rss]
 * Output, one line each: "device <object> path=... devid=0x... rev=N
 * oa_hz=N eus=N card=cardN", "drain <i> <object> rc=N samples=N lost=N
 * buffer_lost=N bad=N", and at the end "total <object> samples=N opens=N
 * reopens=N" (and "rss_kb <after first drain> <at the end>" with --rss).
 * Messages go to stderr. Exit 0 when every device drained at least once.
 */
#include "common/core/kernel.h"
#include "common/core/log.h"
#include "common/i915/i915_device.h"
#include "common/i915/i915_uapi.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROBE_MAX 8

struct counts {
  uint64_t samples, lost, buffer_lost, bad;
};

/* Count records by type; a bad size skips the rest of the chunk. */
static void count(void *ctx, const uint8_t *data, size_t len) {
  struct counts *c = ctx;
  for (size_t off = 0; off + 8 <= len;) {
    uint32_t type;
    uint16_t size;
    memcpy(&type, data + off, 4);
    memcpy(&size, data + off + 6, 2);
    if (size < 8 || size % 8 != 0 || size > len - off) {
      c->bad++;
      return;
    }
    if (type == DRM_I915_PERF_RECORD_SAMPLE)
      c->samples++;
    else if (type == DRM_I915_PERF_RECORD_OA_REPORT_LOST)
      c->lost++;
    else if (type == DRM_I915_PERF_RECORD_OA_BUFFER_LOST)
      c->buffer_lost++;
    off += size;
  }
}

static long rss_kb(void) {
  FILE *f = fopen("/proc/self/statm", "r");
  long pages = 0, rss = 0;
  if (f != NULL) {
    if (fscanf(f, "%ld %ld", &pages, &rss) != 2)
      rss = 0;
    fclose(f);
  }
  return rss * 4;
}

static void on_missing(void *ctx, const char *entry, int err) {
  (void)ctx;
  fprintf(stderr, "i915_probe: %s: %s\n", entry,
          err == -ENODEV ? "not an i915 device" : strerror(-err));
}

int main(int argc, char **argv) {
  const char *dev_root = "/dev/dri", *sysfs_root = "/sys";
  const char *wanted[PROBE_MAX];
  size_t n_wanted = 0, n_flex = 0;
  struct i915_flex_event flex[I915_FLEX_COUNTERS];
  struct i915_device_params p = {.plugin = "i915_probe",
                                 .format = 10,
                                 .exponent = 16,
                                 .engine_class = -1,
                                 .engine_instance = -1};
  long drains = 3, step_ms = 0;
  int want_rss = 0;
  static const struct option opts[] = {{"dev-root", 1, 0, 'd'},
                                       {"sysfs-root", 1, 0, 's'},
                                       {"device", 1, 0, 'D'},
                                       {"metric-set", 1, 0, 'm'},
                                       {"flex", 1, 0, 'f'},
                                       {"format", 1, 0, 'F'},
                                       {"exponent", 1, 0, 'e'},
                                       {"drains", 1, 0, 'n'},
                                       {"step-ms", 1, 0, 't'},
                                       {"rss", 0, 0, 'r'},
                                       {0, 0, 0, 0}};
  int c;
  while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
    switch (c) {
    case 'd':
      dev_root = optarg;
      break;
    case 's':
      sysfs_root = optarg;
      break;
    case 'D':
      if (n_wanted < PROBE_MAX)
        wanted[n_wanted++] = optarg;
      break;
    case 'm':
      p.metric_set = optarg;
      break;
    case 'f':
      for (char *tok = strtok(optarg, ","); tok && n_flex < I915_FLEX_COUNTERS;
           tok = strtok(NULL, ","))
        flex[n_flex++] =
            (struct i915_flex_event){0, (uint32_t)strtoul(tok, NULL, 0)};
      break;
    case 'F':
      p.format = (uint32_t)strtoul(optarg, NULL, 0);
      break;
    case 'e':
      p.exponent = atoi(optarg);
      break;
    case 'n':
      drains = atol(optarg);
      break;
    case 't':
      step_ms = atol(optarg);
      break;
    case 'r':
      want_rss = 1;
      break;
    default:
      return 2;
    }
  }
  p.sysfs_root = sysfs_root;
  uint32_t pairs[2 * I915_FLEX_REGS];
  unsigned counters[I915_FLEX_COUNTERS];
  if (n_flex > 0) {
    size_t n_regs = 0;
    if (i915_flex_build(flex, n_flex, pairs, &n_regs, counters) < 0)
      return 2;
    p.flex = pairs;
    p.n_flex = n_regs;
  }
  const struct kernel_ops *k = &kernel_real;
  struct drm_node nodes[PROBE_MAX];
  int n = i915_device_find(k, dev_root, sysfs_root, wanted, n_wanted, nodes,
                           PROBE_MAX, on_missing, NULL);
  if (n <= 0) {
    fprintf(stderr, "i915_probe: no i915 device (%s)\n",
            n < 0 ? strerror(-n) : "none found");
    return 1;
  }
  struct i915_device devs[PROBE_MAX];
  struct counts counts[PROBE_MAX];
  memset(counts, 0, sizeof counts);
  uint64_t now = 0;
  for (int i = 0; i < n; i++) {
    i915_device_init(&devs[i], &nodes[i]);
    i915_device_open(k, &devs[i], &p, now);
    struct i915_device *d = &devs[i];
    printf("device %s path=%s devid=0x%04x rev=%d oa_hz=%llu eus=%u "
           "card=%s\n",
           d->object, d->node.path, d->id.devid, d->id.perf_revision,
           (unsigned long long)d->id.oa_timestamp_hz, d->id.eu_total, d->card);
  }
  long rss_first = 0;
  for (long r = 0; r < drains; r++) {
    for (int i = 0; i < n; i++) {
      struct counts before = counts[i];
      int64_t rc = i915_device_drain(k, &devs[i], &p, now, count, &counts[i]);
      printf("drain %ld %s rc=%lld samples=%llu lost=%llu buffer_lost=%llu "
             "bad=%llu\n",
             r, devs[i].object, (long long)rc,
             (unsigned long long)(counts[i].samples - before.samples),
             (unsigned long long)(counts[i].lost - before.lost),
             (unsigned long long)(counts[i].buffer_lost - before.buffer_lost),
             (unsigned long long)(counts[i].bad - before.bad));
    }
    if (r == 0)
      rss_first = rss_kb();
    now += (uint64_t)step_ms * 1000000u;
  }
  int rc = 0;
  for (int i = 0; i < n; i++) {
    printf("total %s samples=%llu opens=%llu reopens=%llu\n", devs[i].object,
           (unsigned long long)counts[i].samples,
           (unsigned long long)devs[i].session.opens,
           (unsigned long long)devs[i].session.reopens);
    if (devs[i].session.opens == 0)
      rc = 1;
    i915_device_stop(k, &devs[i], &p);
  }
  if (want_rss)
    printf("rss_kb %ld %ld\n", rss_first, rss_kb());
  return rc;
}
