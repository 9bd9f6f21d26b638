/*
 * kernel.c: kernel_real, the seam's table of real system calls (kernel.h).
 *
 * perf_event_open has no libc wrapper; it goes through syscall(2), whose
 * varargs carry each argument as a long.
 */
#include "common/core/kernel.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

static int kernel_sys_open(const char *path, int flags, mode_t mode) {
  return open(path, flags, mode);
}

static int kernel_sys_openat(int dirfd, const char *path, int flags,
                             mode_t mode) {
  return openat(dirfd, path, flags, mode);
}

static int kernel_sys_ioctl(int fd, unsigned long request, void *arg) {
  return ioctl(fd, request, arg);
}

static int kernel_sys_eventfd(unsigned int initval, int flags) {
  return eventfd(initval, flags);
}

static int kernel_sys_perf_event_open(struct perf_event_attr *attr, pid_t pid,
                                      int cpu, int group_fd,
                                      unsigned long flags) {
  return (int)syscall(__NR_perf_event_open, attr, (long)pid, (long)cpu,
                      (long)group_fd, flags);
}

const struct kernel_ops kernel_real = {
    .open = kernel_sys_open,
    .openat = kernel_sys_openat,
    .close = close,
    .read = read,
    .ioctl = kernel_sys_ioctl,
    .poll = poll,
    .mmap = mmap,
    .munmap = munmap,
    .eventfd = kernel_sys_eventfd,
    .perf_event_open = kernel_sys_perf_event_open,
    .fstatat = fstatat,
    .fdopendir = fdopendir,
    .readdir = readdir,
    .closedir = closedir,
    .inotify_init1 = inotify_init1,
    .inotify_add_watch = inotify_add_watch,
    .pread = pread,
};

ssize_t kernel_read_retry(const struct kernel_ops *ops, int fd, void *buf,
                          size_t len) {
  ssize_t n;
  do
    n = ops->read(fd, buf, len);
  while (n < 0 && errno == EINTR);
  return n;
}

int kernel_ioctl_retry(const struct kernel_ops *ops, int fd,
                       unsigned long request, void *arg) {
  int rc;
  do
    rc = ops->ioctl(fd, request, arg);
  while (rc < 0 && (errno == EINTR || errno == EAGAIN));
  return rc;
}
