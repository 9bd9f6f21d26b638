/*
 * module.c: the collectd entry point of example.
 */
#include "common/collectd/host_collectd.h"
#include "plugins/example/example.h"

/* The only symbol the .so exports (the build hides everything else). */
__attribute__((visibility("default"))) void module_register(void) {
  host_collectd_register(&example_ops);
}
