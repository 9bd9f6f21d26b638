/*
 * shim_libc.h: the real libc calls the shim core makes (internal).
 *
 * In libshim.a (shim_libc.c) they are libc's own functions; in shim.so
 * (shim_preload.c) they come from dlsym(RTLD_NEXT), because the names
 * themselves are the interposers there.
 */
#ifndef TESTS_SHIM_SHIM_LIBC_H
#define TESTS_SHIM_SHIM_LIBC_H

#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>

struct shim_libc {
  int (*open)(const char *path, int flags, ...);
  int (*openat)(int dirfd, const char *path, int flags, ...);
  int (*close)(int fd);
  ssize_t (*read)(int fd, void *buf, size_t len);
  int (*ioctl)(int fd, unsigned long request, ...);
  int (*poll)(struct pollfd *fds, nfds_t n, int timeout_ms);
  int (*ppoll)(struct pollfd *fds, nfds_t n, const struct timespec *tmo,
               const sigset_t *mask);
  void *(*mmap)(void *addr, size_t len, int prot, int flags, int fd,
                off_t offset);
  int (*munmap)(void *addr, size_t len);
  int (*dup)(int fd);
  int (*dup2)(int fd, int newfd);
  int (*dup3)(int fd, int newfd, int flags);
  int (*fcntl)(int fd, int cmd, ...);
  int (*fstat)(int fd, struct stat *st);
  long (*syscall)(long number, ...);
};

/* The table; never NULL entries. */
const struct shim_libc *shim_libc(void);

#endif
