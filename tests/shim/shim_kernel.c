/*
 * shim_kernel.c: shim_kernel, the kernel seam (common/core/kernel.h) of
 * in-process tests: the shim core's entry points, perf_event_open through
 * the perf driver for the types it claims, fstatat of a registered device
 * node as the shim's stat says (S_IFCHR with its rdev), everything else
 * (directory listings, inotify) real.
 */
#include "tests/shim/shim.h"
#include "tests/shim/shim_libc.h"
#include "tests/shim/shim_perf.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <sys/stat.h>
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

static int shim_kernel_fstatat(int dirfd, const char *path, struct stat *st,
                               int flags) {
  if ((flags & AT_EMPTY_PATH) && path[0] == '\0' && dirfd != AT_FDCWD)
    return shim_fstat(dirfd, st);
  if (shim_stat_device(dirfd, path, st))
    return 0;
  return fstatat(dirfd, path, st, flags);
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
    .fstatat = shim_kernel_fstatat,
    .fdopendir = fdopendir,
    .readdir = readdir,
    .closedir = closedir,
    .inotify_init1 = inotify_init1,
    .inotify_add_watch = inotify_add_watch,
    /* real files only (sysfs trees): the shim's fake fds have no offset */
    .pread = pread,
};
