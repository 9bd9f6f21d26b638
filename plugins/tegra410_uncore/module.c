/*
 * module.c: the collectd entry point of tegra410_uncore.
 */
#include "common/collectd/host_collectd.h"
#include "plugins/tegra410_uncore/t410.h"

/* The only symbol the .so exports (the build hides everything else). */
__attribute__((visibility("default"))) void module_register(void) {
  host_collectd_register(&tegra410_uncore_ops);
}
