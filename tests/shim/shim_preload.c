/*
 * shim_preload.c: the libc interposers of $(BUILD)/tests/shim.so, the only
 * symbols it exports (-fvisibility=hidden), and the loader of the drivers
 * SHIM_DRIVERS names (comma-separated: perf, demo, i915, xe, panthor; default
 * "perf").
 *
 * Interposed (glibc >= 2.33 names; the 64 forms alias or wrap them):
 * open, openat and their fortified __open_2/__openat_2 forms; close, dup,
 * dup2, dup3, fcntl (F_DUPFD, F_DUPFD_CLOEXEC; the rest forwarded with
 * the argument type of the command); ioctl; read, __read_chk; poll,
 * ppoll; mmap, munmap; syscall (only __NR_perf_event_open on claimed PMU
 * types, the rest forwarded with six long arguments); stat, lstat, fstat,
 * fstatat, statx. eventfd is not interposed. Real symbols come from
 * dlsym(RTLD_NEXT) on first use, all at once; a call re-entering during
 * that resolution aborts with a message rather than recursing.
 */
#undef _FILE_OFFSET_BITS
#undef _TIME_BITS
#include "tests/shim/shim.h"
#include "tests/shim/shim_demo.h"
#include "tests/shim/shim_i915.h"
#include "tests/shim/shim_libc.h"
#include "tests/shim/shim_panthor.h"
#include "tests/shim/shim_perf.h"
#include "tests/shim/shim_xe.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define SHIM_EXPORT __attribute__((visibility("default")))

static struct shim_libc shim_real;
static int (*shim_real_stat)(const char *, struct stat *);
static int (*shim_real_lstat)(const char *, struct stat *);
static int (*shim_real_fstatat)(int, const char *, struct stat *, int);
static int (*shim_real_statx)(int, const char *, int, unsigned int,
                              struct statx *);
static int shim_real_ready; /* atomic: 0, then 1 once resolved */

static void *shim_sym(const char *name) {
  void *fn = dlsym(RTLD_NEXT, name);
  if (fn == NULL) {
    fprintf(stderr, "shim: %s: not found after the shim\n", name);
    abort();
  }
  return fn;
}

#define SHIM_RESOLVE(field, name) (*(void **)&(field) = shim_sym(name))

const struct shim_libc *shim_libc(void) {
  static __thread int resolving;
  if (__atomic_load_n(&shim_real_ready, __ATOMIC_ACQUIRE))
    return &shim_real;
  if (resolving) {
    static const char msg[] = "shim: libc call re-entered dlsym\n";
    (void)!write(2, msg, sizeof(msg) - 1);
    abort();
  }
  resolving = 1;
  /* several threads may race here: they store the same pointers */
  SHIM_RESOLVE(shim_real.open, "open");
  SHIM_RESOLVE(shim_real.openat, "openat");
  SHIM_RESOLVE(shim_real.close, "close");
  SHIM_RESOLVE(shim_real.read, "read");
  SHIM_RESOLVE(shim_real.ioctl, "ioctl");
  SHIM_RESOLVE(shim_real.poll, "poll");
  SHIM_RESOLVE(shim_real.ppoll, "ppoll");
  SHIM_RESOLVE(shim_real.mmap, "mmap");
  SHIM_RESOLVE(shim_real.munmap, "munmap");
  SHIM_RESOLVE(shim_real.dup, "dup");
  SHIM_RESOLVE(shim_real.dup2, "dup2");
  SHIM_RESOLVE(shim_real.dup3, "dup3");
  SHIM_RESOLVE(shim_real.fcntl, "fcntl");
  SHIM_RESOLVE(shim_real.fstat, "fstat");
  SHIM_RESOLVE(shim_real.syscall, "syscall");
  SHIM_RESOLVE(shim_real_stat, "stat");
  SHIM_RESOLVE(shim_real_lstat, "lstat");
  SHIM_RESOLVE(shim_real_fstatat, "fstatat");
  SHIM_RESOLVE(shim_real_statx, "statx");
  __atomic_store_n(&shim_real_ready, 1, __ATOMIC_RELEASE);
  resolving = 0;
  return &shim_real;
}

__attribute__((constructor)) static void shim_preload_init(void) {
  shim_libc();
  const char *list = getenv("SHIM_DRIVERS");
  if (list == NULL)
    list = "perf";
  for (const char *p = list; *p != '\0';) {
    size_t n = strcspn(p, ",");
    if (n == 4 && strncmp(p, "perf", n) == 0) {
      shim_perf_load_env();
    } else if (n == 4 && strncmp(p, "demo", n) == 0) {
      const char *path = getenv("SHIM_DEMO_PATH");
      if (shim_demo_register(path ? path : SHIM_DEMO_PATH) < 0)
        fprintf(stderr, "shim: demo: %s: %s\n", path ? path : SHIM_DEMO_PATH,
                strerror(errno));
    } else if (n == 4 && strncmp(p, "i915", n) == 0) {
      shim_i915_load_env(); /* SHIM_I915_PATH, SHIM_I915_SCENARIO */
    } else if (n == 2 && strncmp(p, "xe", n) == 0) {
      shim_xe_load_env(); /* SHIM_XE_PATH, SHIM_XE_SCENARIO */
    } else if (n == 7 && strncmp(p, "panthor", n) == 0) {
      shim_panthor_load_env(); /* says on stderr what it did not take */
    } else if (n > 0) {
      fprintf(stderr, "shim: SHIM_DRIVERS: unknown driver \"%.*s\"\n", (int)n,
              p);
    }
    p += n + (p[n] == ',');
  }
}

/* ---- open ---- */

static mode_t shim_mode(int flags, va_list ap) {
  /* the mode argument exists only with O_CREAT or O_TMPFILE */
  if ((flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE)
    return (mode_t)va_arg(ap, int);
  return 0;
}

SHIM_EXPORT int open(const char *path, int flags, ...) {
  va_list ap;
  va_start(ap, flags);
  mode_t mode = shim_mode(flags, ap);
  va_end(ap);
  return shim_open(path, flags, mode);
}

SHIM_EXPORT int openat(int dirfd, const char *path, int flags, ...) {
  va_list ap;
  va_start(ap, flags);
  mode_t mode = shim_mode(flags, ap);
  va_end(ap);
  return shim_openat(dirfd, path, flags, mode);
}

SHIM_EXPORT int open64(const char *path, int flags, ...)
    __attribute__((alias("open")));
SHIM_EXPORT int openat64(int dirfd, const char *path, int flags, ...)
    __attribute__((alias("openat")));

int __open_2(const char *path, int flags);
int __openat_2(int dirfd, const char *path, int flags);

/* _FORTIFY_SOURCE's two-argument open: glibc aborts if a mode is due. */
SHIM_EXPORT int __openat_2(int dirfd, const char *path, int flags) {
  if ((flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE) {
    fprintf(stderr, "*** invalid openat64 call: O_CREAT or O_TMPFILE "
                    "without mode ***\n");
    abort();
  }
  return shim_openat(dirfd, path, flags, 0);
}

SHIM_EXPORT int __open_2(const char *path, int flags) {
  return __openat_2(AT_FDCWD, path, flags);
}

SHIM_EXPORT int __open64_2(const char *path, int flags)
    __attribute__((alias("__open_2")));
SHIM_EXPORT int __openat64_2(int dirfd, const char *path, int flags)
    __attribute__((alias("__openat_2")));

/* ---- fds ---- */

SHIM_EXPORT int close(int fd) { return shim_close(fd); }
SHIM_EXPORT int dup(int fd) { return shim_dup(fd); }
SHIM_EXPORT int dup2(int fd, int newfd) { return shim_dup3(fd, newfd, -1); }

SHIM_EXPORT int dup3(int fd, int newfd, int flags) {
  if (flags & ~O_CLOEXEC) {
    errno = EINVAL;
    return -1;
  }
  return shim_dup3(fd, newfd, flags);
}

SHIM_EXPORT int fcntl(int fd, int cmd, ...) {
  va_list ap;
  va_start(ap, cmd);
  int rc;
  switch (cmd) {
  case F_DUPFD:
  case F_DUPFD_CLOEXEC:
    rc = shim_dupfd(fd, cmd, va_arg(ap, int));
    break;
  case F_GETFD:
  case F_GETFL:
  case F_GETOWN:
  case F_GETSIG:
  case F_GETLEASE:
  case F_GETPIPE_SZ:
  case F_GET_SEALS:
    rc = shim_libc()->fcntl(fd, cmd); /* no argument */
    break;
  case F_GETLK:
  case F_SETLK:
  case F_SETLKW:
  case F_OFD_GETLK:
  case F_OFD_SETLK:
  case F_OFD_SETLKW:
  case F_GETOWN_EX:
  case F_SETOWN_EX:
#ifdef F_GET_RW_HINT
  case F_GET_RW_HINT:
  case F_SET_RW_HINT:
  case F_GET_FILE_RW_HINT:
  case F_SET_FILE_RW_HINT:
#endif
    rc = shim_libc()->fcntl(fd, cmd, va_arg(ap, void *));
    break;
  default: /* F_SETFD, F_SETFL, F_SETOWN, F_SETSIG, ...: an int */
    rc = shim_libc()->fcntl(fd, cmd, va_arg(ap, int));
    break;
  }
  va_end(ap);
  return rc;
}

SHIM_EXPORT int fcntl64(int fd, int cmd, ...) __attribute__((alias("fcntl")));

SHIM_EXPORT int ioctl(int fd, unsigned long request, ...) {
  va_list ap;
  va_start(ap, request);
  void *arg = va_arg(ap, void *);
  va_end(ap);
  return shim_ioctl(fd, request, arg);
}

SHIM_EXPORT ssize_t read(int fd, void *buf, size_t len) {
  return shim_read(fd, buf, len);
}

ssize_t __read_chk(int fd, void *buf, size_t len, size_t buflen);
SHIM_EXPORT ssize_t __read_chk(int fd, void *buf, size_t len, size_t buflen) {
  if (len > buflen) {
    fprintf(stderr, "*** buffer overflow detected ***: terminated\n");
    abort(); /* what glibc's __chk_fail does */
  }
  return shim_read(fd, buf, len);
}

SHIM_EXPORT int poll(struct pollfd *fds, nfds_t n, int timeout_ms) {
  return shim_poll(fds, n, timeout_ms);
}

SHIM_EXPORT int ppoll(struct pollfd *fds, nfds_t n, const struct timespec *tmo,
                      const sigset_t *mask) {
  return shim_ppoll(fds, n, tmo, mask);
}

SHIM_EXPORT void *mmap(void *addr, size_t len, int prot, int flags, int fd,
                       off_t offset) {
  return shim_mmap(addr, len, prot, flags, fd, offset);
}

SHIM_EXPORT void *mmap64(void *addr, size_t len, int prot, int flags, int fd,
                         off_t offset) __attribute__((alias("mmap")));

/* Driver mappings are real mappings of real memory: munmap is libc's. */
SHIM_EXPORT int munmap(void *addr, size_t len) {
  return shim_libc()->munmap(addr, len);
}

SHIM_EXPORT long syscall(long number, ...) {
  va_list ap;
  va_start(ap, number);
  long a[6];
  for (int i = 0; i < 6; i++)
    a[i] = va_arg(ap, long);
  va_end(ap);
  struct perf_event_attr *attr = (struct perf_event_attr *)a[0];
  /* callers pass ints through the varargs: only the low 32 bits of pid,
   * cpu and group_fd are defined, as in the kernel's prototype */
  if (number == __NR_perf_event_open && attr != NULL && shim_perf_claims(attr))
    return shim_perf_event_open(attr, (pid_t)a[1], (int)a[2], (int)a[3],
                                (unsigned long)a[4]);
  return shim_libc()->syscall(number, a[0], a[1], a[2], a[3], a[4], a[5]);
}

/* ---- stat ---- */

SHIM_EXPORT int stat(const char *path, struct stat *st) {
  shim_libc();
  return shim_stat_device(AT_FDCWD, path, st) ? 0 : shim_real_stat(path, st);
}

SHIM_EXPORT int lstat(const char *path, struct stat *st) {
  shim_libc();
  return shim_stat_device(AT_FDCWD, path, st) ? 0 : shim_real_lstat(path, st);
}

SHIM_EXPORT int fstat(int fd, struct stat *st) { return shim_fstat(fd, st); }

SHIM_EXPORT int fstatat(int dirfd, const char *path, struct stat *st,
                        int flags) {
  shim_libc();
  if ((flags & AT_EMPTY_PATH) && path[0] == '\0' && dirfd != AT_FDCWD)
    return shim_fstat(dirfd, st);
  if (shim_stat_device(dirfd, path, st))
    return 0;
  return shim_real_fstatat(dirfd, path, st, flags);
}

/* On 64-bit glibc struct stat64 is struct stat. */
_Static_assert(sizeof(struct stat) == sizeof(struct stat64), "LP64 stat");
SHIM_EXPORT int stat64(const char *path, struct stat64 *st) {
  return stat(path, (struct stat *)st);
}
SHIM_EXPORT int lstat64(const char *path, struct stat64 *st) {
  return lstat(path, (struct stat *)st);
}
SHIM_EXPORT int fstat64(int fd, struct stat64 *st) {
  return fstat(fd, (struct stat *)st);
}
SHIM_EXPORT int fstatat64(int dirfd, const char *path, struct stat64 *st,
                          int flags) {
  return fstatat(dirfd, path, (struct stat *)st, flags);
}

SHIM_EXPORT int statx(int dirfd, const char *path, int flags, unsigned int mask,
                      struct statx *stx) {
  shim_libc();
  struct stat st;
  int found = shim_stat_device(dirfd, path, &st);
  if (!found && (flags & AT_EMPTY_PATH) && path[0] == '\0') {
    struct shim_file *f = shim_file_get(dirfd);
    if (f != NULL && f->rdev != 0 && shim_fstat(dirfd, &st) == 0)
      found = 1;
    shim_file_put(f);
  }
  if (!found)
    return shim_real_statx(dirfd, path, flags, mask, stx);
  memset(stx, 0, sizeof(*stx));
  stx->stx_mask = STATX_BASIC_STATS;
  stx->stx_mode = (uint16_t)st.st_mode;
  stx->stx_nlink = (uint32_t)st.st_nlink;
  stx->stx_ino = st.st_ino;
  stx->stx_blksize = (uint32_t)st.st_blksize;
  stx->stx_rdev_major = major(st.st_rdev);
  stx->stx_rdev_minor = minor(st.st_rdev);
  stx->stx_dev_major = major(st.st_dev);
  stx->stx_dev_minor = minor(st.st_dev);
  return 0;
}
