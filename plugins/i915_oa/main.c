/*
 * main.c: the standalone executable of i915_oa.
 */
#include "common/exec/host_exec.h"
#include "plugins/i915_oa/i915_oa.h"

int main(int argc, char **argv) {
  return host_exec_main(&i915_oa_ops, argc, argv);
}
