/*
 * plugin_host.h: what a host hands each plugin instance at init.
 *
 * The instance name, its read interval, the clocks and the kernel seam
 * (kernel.h). Tests replace the clocks with scripted ones, so that no test
 * needs real time to check a value, and the kernel with tests/shim.
 * Hosts own the struct and keep it valid until instance_free().
 */
#ifndef COMMON_CORE_PLUGIN_HOST_H
#define COMMON_CORE_PLUGIN_HOST_H

#include "common/core/kernel.h"

#include <stdint.h>

struct plugin_clock {
  uint64_t (*monotonic_ns)(void *ctx); /* CLOCK_MONOTONIC: intervals */
  uint64_t (*realtime_ns)(void *ctx);  /* Unix time: record timestamps */
  void *ctx;                           /* passed back to both */
};

struct plugin_host {
  const char *instance;            /* borrowed: <Instance> label or plugin */
  uint64_t interval_ns;            /* this instance's read interval */
  struct plugin_clock clock;       /* see plugin_clock_system */
  const struct kernel_ops *kernel; /* borrowed: &kernel_real by default */
};

/* CLOCK_MONOTONIC and CLOCK_REALTIME of the system. */
extern const struct plugin_clock plugin_clock_system;

/* Fill `host` with the system clocks and kernel_real. */
void plugin_host_init(struct plugin_host *host, const char *instance,
                      uint64_t interval_ns);

static inline uint64_t plugin_host_monotonic_ns(const struct plugin_host *h) {
  return h->clock.monotonic_ns(h->clock.ctx);
}

static inline uint64_t plugin_host_realtime_ns(const struct plugin_host *h) {
  return h->clock.realtime_ns(h->clock.ctx);
}

#endif
