/*
 * fake_plugin.c: the exec host around the fake core (fake_plugin_ops.h),
 * built into build/tests/fake_plugin.
 */
#include "common/exec/host_exec.h"
#include "tests/tools/fake_plugin_ops.h"

int main(int argc, char **argv) {
  return host_exec_main(&fake_plugin_ops, argc, argv);
}
