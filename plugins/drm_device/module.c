/*
 * module.c: the collectd entry point of drm_device.
 */
#include "common/collectd/host_collectd.h"
#include "plugins/drm_device/drm_device.h"

/* The only symbol the .so exports (the build hides everything else). */
__attribute__((visibility("default"))) void module_register(void) {
  host_collectd_register(&drm_device_ops);
}
