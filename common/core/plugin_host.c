/*
 * plugin_host.c: the system clocks and the default host context
 * (plugin_host.h).
 */
#include "common/core/plugin_host.h"

#include <time.h>

static uint64_t plugin_clock_read(clockid_t id) {
  struct timespec ts;
  clock_gettime(id, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static uint64_t plugin_clock_monotonic(void *ctx) {
  (void)ctx;
  return plugin_clock_read(CLOCK_MONOTONIC);
}

static uint64_t plugin_clock_realtime(void *ctx) {
  (void)ctx;
  return plugin_clock_read(CLOCK_REALTIME);
}

const struct plugin_clock plugin_clock_system = {
    .monotonic_ns = plugin_clock_monotonic,
    .realtime_ns = plugin_clock_realtime,
    .ctx = NULL,
};

void plugin_host_init(struct plugin_host *host, const char *instance,
                      uint64_t interval_ns) {
  host->instance = instance;
  host->interval_ns = interval_ns;
  host->clock = plugin_clock_system;
  host->kernel = &kernel_real;
}
