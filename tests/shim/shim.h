/*
 * shim.h: the kernel emulation for tests, loaded with LD_PRELOAD into the
 * plugin executables or the real collectd daemon.
 *
 * shim_core.c owns the interposers and the table of fake fds: every fake
 * fd is a real fd (an eventfd) so close(), dup() and poll() behave, and the
 * table maps it to the driver object behind it. A driver (shim_perf.c:
 * perf_event_open on fake PMUs) registers handlers for the calls it
 * emulates; calls on other fds go to libc untouched. Drivers reply the
 * way the kernel does: -1 with errno set.
 */
#ifndef TESTS_SHIM_SHIM_H
#define TESTS_SHIM_SHIM_H

#include <stddef.h>
#include <sys/types.h>

struct shim_file;

struct shim_ops {
  ssize_t (*read)(struct shim_file *f, void *buf, size_t len);
  int (*ioctl)(struct shim_file *f, unsigned long request, void *arg);
  void (*release)(struct shim_file *f);
};

struct shim_file {
  int fd;
  const struct shim_ops *ops;
  void *data; /* the driver's object */
};

/* Register a new fake fd (backed by a fresh eventfd); -1 with errno. */
int shim_file_new(const struct shim_ops *ops, void *data);
/* The fake file behind `fd`, or NULL. Call with the table locked. */
struct shim_file *shim_file_get(int fd);
void shim_lock(void);
void shim_unlock(void);

/* The real libc functions. */
long shim_real_syscall(long number, long a1, long a2, long a3, long a4,
                       long a5);

/* shim_perf.c: perf_event_open for PMU types >= SHIM_PERF_TYPE_BASE. */
#define SHIM_PERF_TYPE_BASE 4000
long shim_perf_event_open(void *attr, long pid, long cpu, long group_fd,
                          long flags);

#endif
