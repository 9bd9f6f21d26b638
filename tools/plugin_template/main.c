/*
 * main.c: the standalone executable of example.
 */
#include "common/exec/host_exec.h"
#include "plugins/example/example.h"

int main(int argc, char **argv) {
  return host_exec_main(&example_ops, argc, argv);
}
