/*
 * fake_multi.c: the one-process host (host_exec_main_multi, as in
 * gpu-telemetry) around two fake plugins, fake_plugin and fake_other
 * (fake_plugin_ops.h), built into build/tests/fake_multi: a slow or hung
 * plugin beside a healthy one (tests/e2e/exec_runner.sh).
 */
#include "common/exec/host_exec.h"
#include "tests/tools/fake_plugin_ops.h"

int main(int argc, char **argv) {
  static const struct plugin_ops *const table[] = {&fake_plugin_ops,
                                                   &fake_other_ops};
  return host_exec_main_multi("fake_multi", table, 2, argc, argv);
}
