/*
 * main.c: the standalone executable of drm_fdinfo (see host_exec.h).
 */
#include "common/exec/host_exec.h"
#include "plugins/drm_fdinfo/drm_fdinfo.h"

int main(int argc, char **argv) {
  return host_exec_main(&drm_fdinfo_ops, argc, argv);
}
