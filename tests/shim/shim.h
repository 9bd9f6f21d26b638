/*
 * shim.h: the kernel emulation for tests (Mesa's drm-shim is the model).
 *
 * One core (shim_fd.c) owns the table of fake fds and routes calls on them
 * to a driver; one driver file per kernel interface emulates it
 * (shim_perf.c: perf_event_open on fake PMUs; shim_demo.c: a character
 * device with a stream and a buffer, for the shim's own tests;
 * shim_i915*.c: an i915 DRM device with perf OA streams; shim_panthor*.c:
 * a panthor node with the perf uAPI). Two ways
 * to use it:
 *   - in-process: link $(BUILD)/libshim.a, register drivers
 *     (shim_perf_register(), shim_device_add(), shim_demo_register()) and
 *     pass &shim_kernel as the plugin host's kernel;
 *   - LD_PRELOAD $(BUILD)/tests/shim.so: libc interposers (shim_preload.c)
 *     route the same calls; SHIM_DRIVERS=perf,demo,i915,panthor picks the
 *     drivers (default "perf").
 * Every fake fd is a real eventfd, so close(), dup() and poll() behave;
 * a driver makes a file readable for poll with shim_file_set_ready().
 * Calls on other fds and paths reach the real system. Errors as the
 * kernel: -1 with errno set.
 */
#ifndef TESTS_SHIM_SHIM_H
#define TESTS_SHIM_SHIM_H

#include "common/core/kernel.h"

#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>

/* Routes fake fds and registered paths to drivers, the rest to libc. */
extern const struct kernel_ops shim_kernel;

struct shim_file;

/* A driver's handlers; NULL entries answer as the kernel does for a file
 * without that operation (read EINVAL, ioctl ENOTTY, mmap ENODEV). Every
 * handler but release runs with the file's own lock held, never the
 * table's, so a handler may block another file's callers only. */
struct shim_file_ops {
  const char *name; /* driver name, for messages */
  /* Device opens only: set up f->data from the device's ctx. */
  int (*open)(struct shim_file *f, void *dev_ctx, int flags);
  /* -1/EAGAIN when no data: the core then waits (unless O_NONBLOCK) for
   * shim_file_set_ready(f, true) and calls read again. */
  ssize_t (*read)(struct shim_file *f, void *buf, size_t len);
  int (*ioctl)(struct shim_file *f, unsigned long request, void *arg);
  /* Refresh readiness (shim_file_set_ready) and return the poll events
   * this file can report (POLLIN, ...); NULL: the eventfd's own. */
  short (*poll)(struct shim_file *f);
  void *(*mmap)(struct shim_file *f, void *addr, size_t len, int prot,
                int flags, off_t offset);
  /* The last fd and call on the file are gone: free f->data. */
  void (*release)(struct shim_file *f);
};

struct shim_file {
  const struct shim_file_ops *ops; /* borrowed, static */
  void *data;                      /* the driver's object */
  dev_t rdev;                      /* device files: st_rdev; else 0 */
  /* the rest is the core's */
  int refs;                   /* atomic */
  int notify_fd;              /* private dup of the backing eventfd */
  bool ready;                 /* under ready_lock */
  pthread_mutex_t lock;       /* serialises driver handlers */
  pthread_mutex_t ready_lock; /* guards `ready` and notify_fd's count */
};

/* A new fake fd with `ops` and `data` (taken over: released through
 * ops->release on the last close). `flags`: O_CLOEXEC, O_NONBLOCK.
 * Returns the fd, or -1 with errno (data is then not released). */
int shim_file_new(const struct shim_file_ops *ops, void *data, int flags);

/* The file behind fake fd `fd` with a reference taken, or NULL. */
struct shim_file *shim_file_get(int fd);
/* Drop a reference; the last one releases the file. NULL: no-op. */
void shim_file_put(struct shim_file *f);
/* Make the file readable for poll (true) or not. Any thread, any lock. */
void shim_file_set_ready(struct shim_file *f, bool ready);

/* Register a character device at absolute `path` (copied): open/openat
 * of it yields a fake fd with `ops` (ops->open gets `ctx`, borrowed),
 * stat/fstat report S_IFCHR|0666 and `rdev`. 0, or -1 with errno
 * (EEXIST, ENOMEM, ENAMETOOLONG). */
int shim_device_add(const char *path, dev_t rdev,
                    const struct shim_file_ops *ops, void *ctx);
/* Forget the device at `path`; open fds stay valid. 0, or -1/ENOENT. */
int shim_device_remove(const char *path);

/* Core entry points behind shim_kernel and the interposers. */
int shim_open(const char *path, int flags, mode_t mode);
int shim_openat(int dirfd, const char *path, int flags, mode_t mode);
int shim_close(int fd);
ssize_t shim_read(int fd, void *buf, size_t len);
int shim_ioctl(int fd, unsigned long request, void *arg);
/* Called by shim_poll/shim_ppoll before they wait (NULL: nothing): lets a
 * driver deliver what an interrupt would while the caller sleeps. */
extern void (*shim_wait_hook)(void);
int shim_poll(struct pollfd *fds, nfds_t n, int timeout_ms);
int shim_ppoll(struct pollfd *fds, nfds_t n, const struct timespec *tmo,
               const sigset_t *mask);
void *shim_mmap(void *addr, size_t len, int prot, int flags, int fd,
                off_t offset);
int shim_dup(int fd);
/* dup2 (`flags` -1) or dup3 (`flags` 0 or O_CLOEXEC). */
int shim_dup3(int fd, int newfd, int flags);
/* fcntl F_DUPFD / F_DUPFD_CLOEXEC. */
int shim_dupfd(int fd, int cmd, int minfd);
int shim_fstat(int fd, struct stat *st);
/* stat/lstat/fstatat on a path: 1 when the path is a registered device
 * (`st` filled), 0 when it is not (the caller asks the system). */
int shim_stat_device(int dirfd, const char *path, struct stat *st);

/* A driver's ioctl table: one handler per request number. */
struct shim_ioctl {
  unsigned long request;
  int (*fn)(struct shim_file *f, void *arg); /* -1 with errno */
};
/* Run the entry of `table` (n entries) for `request`, as a driver's
 * ops->ioctl would: EFAULT when the request carries data (_IOC_SIZE) and
 * `arg` is NULL, ENOTTY (logged once) when no entry matches. */
int shim_ioctl_dispatch(const struct shim_ioctl *table, size_t n,
                        struct shim_file *f, unsigned long request, void *arg);

/* Log "shim: DRIVER: ioctl 0x...: not emulated" once per request. */
void shim_log_unhandled(const char *driver, unsigned long request);

#endif
