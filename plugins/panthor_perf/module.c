/*
 * module.c: the collectd entry point of panthor_perf.
 */
#include "common/collectd/host_collectd.h"
#include "plugins/panthor_perf/panthor_perf.h"

/* The only symbol the .so exports (the build hides everything else). */
__attribute__((visibility("default"))) void module_register(void) {
  host_collectd_register(&panthor_perf_ops);
}
