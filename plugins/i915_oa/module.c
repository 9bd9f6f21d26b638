/*
 * module.c: the collectd entry point of i915_oa.
 */
#include "common/collectd/host_collectd.h"
#include "plugins/i915_oa/i915_oa.h"

/* The only symbol the .so exports (the build hides everything else). */
__attribute__((visibility("default"))) void module_register(void) {
  host_collectd_register(&i915_oa_ops);
}
