/*
 * main.c: the standalone executable of drm_device.
 */
#include "common/exec/host_exec.h"
#include "plugins/drm_device/drm_device.h"

int main(int argc, char **argv) {
  return host_exec_main(&drm_device_ops, argc, argv);
}
