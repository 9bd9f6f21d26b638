/*
 * main.c: the standalone executable of panthor_perf.
 */
#include "common/exec/host_exec.h"
#include "plugins/panthor_perf/panthor_perf.h"

int main(int argc, char **argv) {
  return host_exec_main(&panthor_perf_ops, argc, argv);
}
