/*
 * module.c: the collectd entry point of drm_fdinfo (see host_collectd.h).
 */
#include "common/collectd/host_collectd.h"
#include "plugins/drm_fdinfo/drm_fdinfo.h"

/* The only symbol the .so exports (the build hides everything else). */
__attribute__((visibility("default"))) void module_register(void) {
  host_collectd_register(&drm_fdinfo_ops);
}
