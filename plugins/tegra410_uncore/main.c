/*
 * main.c: the standalone executable of tegra410_uncore.
 */
#include "common/exec/host_exec.h"
#include "plugins/tegra410_uncore/t410.h"

int main(int argc, char **argv) {
  return host_exec_main(&tegra410_uncore_ops, argc, argv);
}
