/*
 * shim_core.c: interposers and the fake fd table (see shim.h).
 *
 * Interposed: syscall (only __NR_perf_event_open is looked at; everything
 * else is forwarded with six long arguments), read and __read_chk, ioctl,
 * close. Real symbols come from dlsym(RTLD_NEXT) on first use. The table
 * is locked: collectd reads from several threads.
 */
#include "tests/shim/shim.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#define SHIM_EXPORT __attribute__((visibility("default")))
#define SHIM_MAX_FDS 4096

static pthread_mutex_t shim_mutex = PTHREAD_MUTEX_INITIALIZER;
static struct shim_file *shim_files[SHIM_MAX_FDS];

void shim_lock(void) { pthread_mutex_lock(&shim_mutex); }
void shim_unlock(void) { pthread_mutex_unlock(&shim_mutex); }

static void *shim_real(const char *name) {
  void *fn = dlsym(RTLD_NEXT, name);
  if (fn == NULL) {
    fprintf(stderr, "shim: %s: not found in libc\n", name);
    abort();
  }
  return fn;
}

long shim_real_syscall(long number, long a1, long a2, long a3, long a4,
                       long a5) {
  static long (*real)(long, ...);
  if (real == NULL)
    real = (long (*)(long, ...))shim_real("syscall");
  return real(number, a1, a2, a3, a4, a5);
}

static ssize_t shim_real_read(int fd, void *buf, size_t len) {
  static ssize_t (*real)(int, void *, size_t);
  if (real == NULL)
    real = (ssize_t(*)(int, void *, size_t))shim_real("read");
  return real(fd, buf, len);
}

static int shim_real_close(int fd) {
  static int (*real)(int);
  if (real == NULL)
    real = (int (*)(int))shim_real("close");
  return real(fd);
}

int shim_file_new(const struct shim_ops *ops, void *data) {
  int fd = eventfd(0, EFD_CLOEXEC);
  if (fd < 0)
    return -1;
  if (fd >= SHIM_MAX_FDS) {
    shim_real_close(fd);
    errno = EMFILE;
    return -1;
  }
  struct shim_file *f = calloc(1, sizeof(*f));
  if (f == NULL) {
    shim_real_close(fd);
    errno = ENOMEM;
    return -1;
  }
  f->fd = fd;
  f->ops = ops;
  f->data = data;
  shim_files[fd] = f;
  return fd;
}

struct shim_file *shim_file_get(int fd) {
  return fd >= 0 && fd < SHIM_MAX_FDS ? shim_files[fd] : NULL;
}

SHIM_EXPORT long syscall(long number, ...) {
  va_list ap;
  va_start(ap, number);
  long a1 = va_arg(ap, long), a2 = va_arg(ap, long), a3 = va_arg(ap, long),
       a4 = va_arg(ap, long), a5 = va_arg(ap, long);
  va_end(ap);
  if (number == SYS_perf_event_open) {
    const unsigned *type = (const unsigned *)a1; /* attr->type is first */
    if (type != NULL && *type >= SHIM_PERF_TYPE_BASE)
      return shim_perf_event_open((void *)a1, a2, a3, a4, a5);
  }
  return shim_real_syscall(number, a1, a2, a3, a4, a5);
}

SHIM_EXPORT ssize_t read(int fd, void *buf, size_t len) {
  shim_lock();
  struct shim_file *f = shim_file_get(fd);
  if (f == NULL || f->ops->read == NULL) {
    shim_unlock();
    return shim_real_read(fd, buf, len);
  }
  ssize_t n = f->ops->read(f, buf, len);
  shim_unlock();
  return n;
}

SHIM_EXPORT ssize_t __read_chk(int fd, void *buf, size_t len, size_t buflen);
SHIM_EXPORT ssize_t __read_chk(int fd, void *buf, size_t len, size_t buflen) {
  if (len > buflen)
    abort(); /* what glibc's fortify check does */
  return read(fd, buf, len);
}

SHIM_EXPORT int ioctl(int fd, unsigned long request, ...) {
  va_list ap;
  va_start(ap, request);
  void *arg = va_arg(ap, void *);
  va_end(ap);
  shim_lock();
  struct shim_file *f = shim_file_get(fd);
  if (f != NULL && f->ops->ioctl != NULL) {
    int rc = f->ops->ioctl(f, request, arg);
    shim_unlock();
    return rc;
  }
  shim_unlock();
  static int (*real)(int, unsigned long, ...);
  if (real == NULL)
    real = (int (*)(int, unsigned long, ...))shim_real("ioctl");
  return real(fd, request, arg);
}

SHIM_EXPORT int close(int fd) {
  shim_lock();
  struct shim_file *f = shim_file_get(fd);
  if (f != NULL) {
    shim_files[fd] = NULL;
    if (f->ops->release != NULL)
      f->ops->release(f);
    free(f);
  }
  shim_unlock();
  return shim_real_close(fd);
}
