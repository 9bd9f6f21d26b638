/*
 * shim_fd.c: the shim core (shim.h): the fake fd table, the registered
 * device paths, and the entry points that route a call on a fake fd to its
 * driver and any other call to libc.
 *
 * Locking: `shim_table_mutex` guards the table and the device list and is
 * held only for a lookup or an update, never across a driver call; a call
 * on a real fd sees an empty slot and takes no lock at all. Each
 * file has its own lock around its handlers, dropped while a blocking read
 * waits, so one thread blocked on a fake file never holds up another
 * file, the table, or an ioctl on the same file (collectd reads from
 * several threads). Files are refcounted: every table slot (one per fd
 * after dup) and every call in flight holds a reference, and the driver's
 * release runs when the last one goes, as the kernel's file release does.
 */
#include "tests/shim/shim.h"
#include "tests/shim/shim_libc.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/ioctl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define SHIM_MAX_FDS 65536
#define SHIM_MAX_DEVICES 32
#define SHIM_MAX_LOGGED 64

struct shim_device {
  char path[PATH_MAX];
  dev_t rdev;
  const struct shim_file_ops *ops;
  void *ctx;
};

static pthread_mutex_t shim_table_mutex = PTHREAD_MUTEX_INITIALIZER;
static struct shim_file *shim_table[SHIM_MAX_FDS];
static struct shim_device shim_devices[SHIM_MAX_DEVICES];
static size_t shim_n_devices;

int shim_file_new(const struct shim_file_ops *ops, void *data, int flags) {
  const struct shim_libc *libc = shim_libc();
  int fd = eventfd(0, (flags & O_CLOEXEC ? EFD_CLOEXEC : 0) |
                          (flags & O_NONBLOCK ? EFD_NONBLOCK : 0));
  if (fd < 0)
    return -1;
  int err = ENOMEM;
  struct shim_file *f = NULL;
  if (fd >= SHIM_MAX_FDS) {
    err = EMFILE;
    goto out;
  }
  f = calloc(1, sizeof(*f));
  if (f == NULL)
    goto out;
  f->notify_fd = libc->fcntl(fd, F_DUPFD_CLOEXEC, 0);
  if (f->notify_fd < 0) {
    err = errno;
    goto out;
  }
  f->ops = ops;
  f->data = data;
  f->refs = 1; /* the table slot's */
  pthread_mutex_init(&f->lock, NULL);
  pthread_mutex_init(&f->ready_lock, NULL);
  pthread_mutex_lock(&shim_table_mutex);
  struct shim_file *stale = shim_table[fd]; /* closed behind our back */
  __atomic_store_n(&shim_table[fd], f, __ATOMIC_RELEASE);
  pthread_mutex_unlock(&shim_table_mutex);
  if (stale != NULL)
    shim_file_put(stale);
  return fd;
out:
  if (f != NULL && f->notify_fd >= 0)
    libc->close(f->notify_fd);
  free(f);
  libc->close(fd);
  errno = err;
  return -1;
}

struct shim_file *shim_file_get(int fd) {
  /* most calls are on real fds: an empty slot needs no lock (a racing
   * install is the same as the call having come first) */
  if (fd < 0 || fd >= SHIM_MAX_FDS ||
      __atomic_load_n(&shim_table[fd], __ATOMIC_ACQUIRE) == NULL)
    return NULL;
  pthread_mutex_lock(&shim_table_mutex);
  struct shim_file *f = shim_table[fd];
  if (f != NULL)
    __atomic_add_fetch(&f->refs, 1, __ATOMIC_ACQ_REL);
  pthread_mutex_unlock(&shim_table_mutex);
  return f;
}

void shim_file_put(struct shim_file *f) {
  if (f == NULL || __atomic_sub_fetch(&f->refs, 1, __ATOMIC_ACQ_REL) != 0)
    return;
  if (f->ops->release != NULL)
    f->ops->release(f);
  shim_libc()->close(f->notify_fd);
  pthread_mutex_destroy(&f->lock);
  pthread_mutex_destroy(&f->ready_lock);
  free(f);
}

void shim_file_set_ready(struct shim_file *f, bool ready) {
  pthread_mutex_lock(&f->ready_lock);
  uint64_t one = 1, count;
  /* the eventfd counts 1 while ready: poll reports POLLIN; it is read
   * back only when it is 1, so neither call can block */
  if (ready && !f->ready && write(f->notify_fd, &one, sizeof(one)) > 0)
    f->ready = true;
  else if (!ready && f->ready &&
           shim_libc()->read(f->notify_fd, &count, sizeof(count)) > 0)
    f->ready = false;
  pthread_mutex_unlock(&f->ready_lock);
}

/* Put `f` (a reference the caller hands over, or NULL) at `fd`. */
static void shim_table_install(int fd, struct shim_file *f) {
  if (fd < 0 || fd >= SHIM_MAX_FDS) {
    shim_file_put(f);
    return;
  }
  pthread_mutex_lock(&shim_table_mutex);
  struct shim_file *old = shim_table[fd];
  __atomic_store_n(&shim_table[fd], f, __ATOMIC_RELEASE);
  pthread_mutex_unlock(&shim_table_mutex);
  shim_file_put(old);
}

/* ---- devices ---- */

int shim_device_add(const char *path, dev_t rdev,
                    const struct shim_file_ops *ops, void *ctx) {
  if (path[0] != '/' || strlen(path) >= PATH_MAX) {
    errno = ENAMETOOLONG;
    return -1;
  }
  int err = 0;
  pthread_mutex_lock(&shim_table_mutex);
  for (size_t i = 0; i < shim_n_devices; i++)
    if (strcmp(shim_devices[i].path, path) == 0)
      err = EEXIST;
  if (err == 0 && shim_n_devices == SHIM_MAX_DEVICES)
    err = ENOMEM;
  if (err == 0) {
    struct shim_device *d = &shim_devices[shim_n_devices++];
    strcpy(d->path, path);
    d->rdev = rdev;
    d->ops = ops;
    d->ctx = ctx;
  }
  pthread_mutex_unlock(&shim_table_mutex);
  errno = err;
  return err ? -1 : 0;
}

int shim_device_remove(const char *path) {
  int err = ENOENT;
  pthread_mutex_lock(&shim_table_mutex);
  for (size_t i = 0; i < shim_n_devices; i++)
    if (strcmp(shim_devices[i].path, path) == 0) {
      shim_devices[i] = shim_devices[--shim_n_devices];
      err = 0;
      break;
    }
  pthread_mutex_unlock(&shim_table_mutex);
  errno = err;
  return err ? -1 : 0;
}

/* The device `path` (relative to `dirfd`) names, copied to `out`. */
static bool shim_device_find(int dirfd, const char *path,
                             struct shim_device *out) {
  if (__atomic_load_n(&shim_n_devices, __ATOMIC_ACQUIRE) == 0 || path == NULL ||
      path[0] == '\0')
    return false;
  char full[PATH_MAX];
  if (path[0] != '/') {
    char dir[PATH_MAX], link[64];
    ssize_t n;
    if (dirfd == AT_FDCWD) {
      if (getcwd(dir, sizeof(dir)) == NULL)
        return false;
    } else {
      snprintf(link, sizeof(link), "/proc/self/fd/%d", dirfd);
      n = readlink(link, dir, sizeof(dir) - 1);
      if (n <= 0)
        return false;
      dir[n] = '\0';
    }
    if ((size_t)snprintf(full, sizeof(full), "%s/%s", dir, path) >=
        sizeof(full))
      return false;
    path = full;
  }
  bool found = false;
  pthread_mutex_lock(&shim_table_mutex);
  for (size_t i = 0; i < shim_n_devices && !found; i++)
    if (strcmp(shim_devices[i].path, path) == 0) {
      *out = shim_devices[i];
      found = true;
    }
  pthread_mutex_unlock(&shim_table_mutex);
  return found;
}

static const struct shim_file_ops shim_failed_ops = {.name = "closed"};

static int shim_device_open(const struct shim_device *d, int flags) {
  if ((flags & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL)) {
    errno = EEXIST;
    return -1;
  }
  if (flags & O_DIRECTORY) {
    errno = ENOTDIR;
    return -1;
  }
  int fd = shim_file_new(d->ops, NULL, flags);
  if (fd < 0)
    return -1;
  struct shim_file *f = shim_file_get(fd);
  f->rdev = d->rdev;
  int rc = 0, err = 0;
  if (d->ops->open != NULL) {
    pthread_mutex_lock(&f->lock);
    rc = d->ops->open(f, d->ctx, flags);
    err = errno;
    pthread_mutex_unlock(&f->lock);
  }
  if (rc < 0)
    f->ops = &shim_failed_ops; /* nothing to release */
  shim_file_put(f);
  if (rc < 0) {
    shim_close(fd);
    errno = err;
    return -1;
  }
  return fd;
}

/* ---- entry points ---- */

int shim_open(const char *path, int flags, mode_t mode) {
  return shim_openat(AT_FDCWD, path, flags, mode);
}

int shim_openat(int dirfd, const char *path, int flags, mode_t mode) {
  struct shim_device d;
  if (shim_device_find(dirfd, path, &d))
    return shim_device_open(&d, flags);
  return shim_libc()->openat(dirfd, path, flags, mode);
}

int shim_close(int fd) {
  struct shim_file *f = NULL;
  if (fd >= 0 && fd < SHIM_MAX_FDS) {
    pthread_mutex_lock(&shim_table_mutex);
    f = shim_table[fd];
    __atomic_store_n(&shim_table[fd], NULL, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&shim_table_mutex);
  }
  int rc = shim_libc()->close(fd);
  int err = errno;
  shim_file_put(f);
  errno = err;
  return rc;
}

ssize_t shim_read(int fd, void *buf, size_t len) {
  const struct shim_libc *libc = shim_libc();
  struct shim_file *f = shim_file_get(fd);
  if (f == NULL)
    return libc->read(fd, buf, len);
  ssize_t n = -1;
  int err = EINVAL; /* a file without read */
  while (f->ops->read != NULL) {
    pthread_mutex_lock(&f->lock);
    n = f->ops->read(f, buf, len);
    err = errno;
    pthread_mutex_unlock(&f->lock);
    if (n >= 0 || err != EAGAIN || (libc->fcntl(fd, F_GETFL) & O_NONBLOCK))
      break;
    /* no data on a blocking file: wait, without any lock, for the
     * driver to make the file ready */
    struct pollfd p = {.fd = f->notify_fd, .events = POLLIN};
    if (libc->poll(&p, 1, -1) < 0) {
      err = errno;
      break;
    }
  }
  shim_file_put(f);
  if (n < 0)
    errno = err;
  return n;
}

int shim_ioctl(int fd, unsigned long request, void *arg) {
  struct shim_file *f = shim_file_get(fd);
  if (f == NULL)
    return shim_libc()->ioctl(fd, request, arg);
  int rc = -1, err = ENOTTY;
  if (f->ops->ioctl != NULL) {
    pthread_mutex_lock(&f->lock);
    rc = f->ops->ioctl(f, request, arg);
    err = errno;
    pthread_mutex_unlock(&f->lock);
  } else {
    shim_log_unhandled(f->ops->name, request);
  }
  shim_file_put(f);
  if (rc < 0)
    errno = err;
  return rc;
}

void (*shim_wait_hook)(void);

static int shim_poll_any(struct pollfd *fds, nfds_t n,
                         const struct timespec *tmo, const sigset_t *mask,
                         int timeout_ms, bool is_ppoll) {
  const struct shim_libc *libc = shim_libc();
  if (shim_wait_hook != NULL)
    shim_wait_hook();
  struct pollfd local[64], *p = local;
  if (n > 64 && (p = calloc(n, sizeof(*p))) == NULL) {
    errno = ENOMEM;
    return -1;
  }
  for (nfds_t i = 0; i < n; i++) {
    p[i] = fds[i];
    struct shim_file *f = shim_file_get(fds[i].fd);
    if (f != NULL && f->ops->poll != NULL) {
      pthread_mutex_lock(&f->lock);
      short can = f->ops->poll(f);
      pthread_mutex_unlock(&f->lock);
      /* ask the eventfd only for what the driver's file can report */
      p[i].events &= (short)(can | POLLERR | POLLHUP);
    }
    shim_file_put(f);
  }
  int rc =
      is_ppoll ? libc->ppoll(p, n, tmo, mask) : libc->poll(p, n, timeout_ms);
  int err = errno;
  for (nfds_t i = 0; i < n; i++)
    fds[i].revents = p[i].revents;
  if (p != local)
    free(p);
  errno = err;
  return rc;
}

int shim_poll(struct pollfd *fds, nfds_t n, int timeout_ms) {
  return shim_poll_any(fds, n, NULL, NULL, timeout_ms, /*is_ppoll=*/false);
}

int shim_ppoll(struct pollfd *fds, nfds_t n, const struct timespec *tmo,
               const sigset_t *mask) {
  return shim_poll_any(fds, n, tmo, mask, -1, /*is_ppoll=*/true);
}

void *shim_mmap(void *addr, size_t len, int prot, int flags, int fd,
                off_t offset) {
  struct shim_file *f = (flags & MAP_ANONYMOUS) ? NULL : shim_file_get(fd);
  if (f == NULL)
    return shim_libc()->mmap(addr, len, prot, flags, fd, offset);
  void *p = MAP_FAILED;
  int err = ENODEV;
  if (f->ops->mmap != NULL) {
    pthread_mutex_lock(&f->lock);
    p = f->ops->mmap(f, addr, len, prot, flags, offset);
    err = errno;
    pthread_mutex_unlock(&f->lock);
  }
  shim_file_put(f);
  if (p == MAP_FAILED)
    errno = err;
  return p;
}

int shim_dup(int fd) {
  struct shim_file *f = shim_file_get(fd);
  int newfd = shim_libc()->dup(fd);
  if (newfd >= 0)
    shim_table_install(newfd, f);
  else
    shim_file_put(f);
  return newfd;
}

int shim_dup3(int fd, int newfd, int flags) {
  const struct shim_libc *libc = shim_libc();
  if (flags < 0 && fd == newfd)
    return libc->dup2(fd, newfd); /* a no-op on a valid fd */
  struct shim_file *f = shim_file_get(fd);
  int rc = flags < 0 ? libc->dup2(fd, newfd) : libc->dup3(fd, newfd, flags);
  int err = errno;
  if (rc >= 0)
    shim_table_install(rc, f); /* a fake newfd's file loses that fd */
  else
    shim_file_put(f);
  errno = err;
  return rc;
}

int shim_dupfd(int fd, int cmd, int minfd) {
  struct shim_file *f = shim_file_get(fd);
  int newfd = shim_libc()->fcntl(fd, cmd, minfd);
  int err = errno;
  if (newfd >= 0)
    shim_table_install(newfd, f);
  else
    shim_file_put(f);
  errno = err;
  return newfd;
}

static void shim_stat_chr(struct stat *st, dev_t rdev) {
  st->st_mode = S_IFCHR | 0666;
  st->st_rdev = rdev;
}

int shim_fstat(int fd, struct stat *st) {
  int rc = shim_libc()->fstat(fd, st);
  struct shim_file *f = rc == 0 ? shim_file_get(fd) : NULL;
  if (f != NULL && f->rdev != 0)
    shim_stat_chr(st, f->rdev);
  shim_file_put(f);
  return rc;
}

int shim_stat_device(int dirfd, const char *path, struct stat *st) {
  struct shim_device d;
  if (!shim_device_find(dirfd, path, &d))
    return 0;
  memset(st, 0, sizeof(*st));
  shim_stat_chr(st, d.rdev);
  st->st_dev = makedev(0, 5); /* devtmpfs-like */
  st->st_ino = (ino_t)d.rdev;
  st->st_nlink = 1;
  st->st_blksize = 4096;
  return 1;
}

int shim_ioctl_dispatch(const struct shim_ioctl *table, size_t n,
                        struct shim_file *f, unsigned long request, void *arg) {
  for (size_t i = 0; i < n; i++) {
    if (table[i].request != request)
      continue;
    if (_IOC_SIZE(request) != 0 && arg == NULL) {
      errno = EFAULT;
      return -1;
    }
    return table[i].fn(f, arg);
  }
  shim_log_unhandled(f->ops->name, request);
  errno = ENOTTY;
  return -1;
}

void shim_log_unhandled(const char *driver, unsigned long request) {
  static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
  static struct {
    const char *driver;
    unsigned long request;
  } seen[SHIM_MAX_LOGGED];
  static size_t n_seen;
  bool first = true;
  pthread_mutex_lock(&mutex);
  for (size_t i = 0; i < n_seen && first; i++)
    first = !(seen[i].driver == driver && seen[i].request == request);
  if (first && n_seen < SHIM_MAX_LOGGED)
    seen[n_seen++].driver = driver, seen[n_seen - 1].request = request;
  pthread_mutex_unlock(&mutex);
  if (first)
    fprintf(stderr, "shim: %s: ioctl 0x%lx: not emulated\n", driver, request);
}
