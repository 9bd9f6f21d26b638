/*
 * shim_kernel.c: shim_kernel, the kernel seam (common/core/kernel.h) of
 * in-process tests: the shim core's entry points, perf_event_open through
 * the perf driver for the types it claims, everything else real.
 */
#include "tests/shim/shim.h"
#include "tests/shim/shim_libc.h"
#include "tests/shim/shim_perf.h"

#include <sys/eventfd.h>
#include <sys/syscall.h>

static int shim_kernel_munmap(void *addr, size_t len) {
  return shim_libc()->munmap(addr, len);
}

static int shim_kernel_eventfd(unsigned int initval, int flags) {
  return eventfd(initval, flags);
}

static int shim_kernel_perf_event_open(struct perf_event_attr *attr, pid_t pid,
                                       int cpu, int group_fd,
                                       unsigned long flags) {
  if (attr != NULL && shim_perf_claims(attr))
    return shim_perf_event_open(attr, pid, cpu, group_fd, flags);
  return (int)shim_libc()->syscall(__NR_perf_event_open, attr, (long)pid,
                                   (long)cpu, (long)group_fd, flags);
}

const struct kernel_ops shim_kernel = {
    .open = shim_open,
    .openat = shim_openat,
    .close = shim_close,
    .read = shim_read,
    .ioctl = shim_ioctl,
    .poll = shim_poll,
    .mmap = shim_mmap,
    .munmap = shim_kernel_munmap,
    .eventfd = shim_kernel_eventfd,
    .perf_event_open = shim_kernel_perf_event_open,
};
