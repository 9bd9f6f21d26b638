/*
 * fake_plugin_module.c: the collectd host around the fake core
 * (fake_plugin_ops.h), built into build/tests/fake_plugin.so.
 */
#include "common/collectd/host_collectd.h"
#include "tests/tools/fake_plugin_ops.h"

/* The only symbol the .so exports (the build hides everything else). */
__attribute__((visibility("default"))) void module_register(void) {
  host_collectd_register(&fake_plugin_ops);
}
