/*
 * kernel.h: the one seam between plugin edge code and the kernel.
 *
 * Every open, ioctl, read, poll, mmap, close, eventfd and perf_event_open
 * that a plugin issues on a device, stream or counter, and every stat and
 * directory listing it makes of /proc, /sys or /dev, goes through a
 * `struct kernel_ops` table. kernel_real (kernel.c) calls the system;
 * tests link tests/shim in-process and pass its table instead (shim.h), or
 * preload the same shim under the real daemon, where kernel_real's calls
 * reach the shim's interposers. The hosts hand the table to each instance
 * in `struct plugin_host` (plugin.h).
 *
 * Every entry behaves as the libc call it is named after: it returns -1
 * (or MAP_FAILED) and sets errno on failure. Files read for text
 * (procfs, sysfs) go through fileio.h, which is not part of the seam.
 */
#ifndef COMMON_CORE_KERNEL_H
#define COMMON_CORE_KERNEL_H

#include <dirent.h>
#include <poll.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

struct perf_event_attr;

struct kernel_ops {
  int (*open)(const char *path, int flags, mode_t mode);
  int (*openat)(int dirfd, const char *path, int flags, mode_t mode);
  int (*close)(int fd);
  ssize_t (*read)(int fd, void *buf, size_t len);
  int (*ioctl)(int fd, unsigned long request, void *arg);
  int (*poll)(struct pollfd *fds, nfds_t n, int timeout_ms);
  void *(*mmap)(void *addr, size_t len, int prot, int flags, int fd,
                off_t offset);
  int (*munmap)(void *addr, size_t len);
  int (*eventfd)(unsigned int initval, int flags);
  int (*perf_event_open)(struct perf_event_attr *attr, pid_t pid, int cpu,
                         int group_fd, unsigned long flags);
  /* fstatat(2); fstat is fstatat(fd, "", st, AT_EMPTY_PATH). */
  int (*fstatat)(int dirfd, const char *path, struct stat *st, int flags);
  /* Directory listing: fdopendir takes over `fd` (closedir closes it);
   * readdir returns NULL at the end (errno unchanged) or on error. */
  DIR *(*fdopendir)(int fd);
  struct dirent *(*readdir)(DIR *dir);
  int (*closedir)(DIR *dir);
  /* inotify(7); events are read with `read`. */
  int (*inotify_init1)(int flags);
  int (*inotify_add_watch)(int fd, const char *path, uint32_t mask);
  /* pread(2): a sysfs attribute kept open is read again from offset 0
   * (its show function runs again). NULL in a table that lacks it: callers
   * then open, read and close. */
  ssize_t (*pread)(int fd, void *buf, size_t len, off_t offset);
};

/* The real system calls. */
extern const struct kernel_ops kernel_real;

/* Retry `ops->read` on EINTR; the result of the last attempt. */
ssize_t kernel_read_retry(const struct kernel_ops *ops, int fd, void *buf,
                          size_t len);

/* Retry `ops->ioctl` on EINTR and EAGAIN (libdrm's drmIoctl rule). */
int kernel_ioctl_retry(const struct kernel_ops *ops, int fd,
                       unsigned long request, void *arg);

#endif
