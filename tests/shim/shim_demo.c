/*
 * shim_demo.c: the demonstration device of the shim's tests (shim_demo.h),
 * a model for the device drivers to come: per-open state in f->data,
 * readiness through shim_file_set_ready(), mmap of shared memory.
 */
#include "tests/shim/shim_demo.h"
#include "tests/shim/shim.h"
#include "tests/shim/shim_libc.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sysmacros.h>
#include <unistd.h>

struct shim_demo_stream {
  uint64_t values[SHIM_DEMO_STREAM_MAX];
  size_t head, n;
};

static pthread_mutex_t shim_demo_mutex = PTHREAD_MUTEX_INITIALIZER;
static int shim_demo_memfd = -1;
static void *shim_demo_map;
static uint64_t shim_demo_calls; /* atomic */

static int shim_demo_open(struct shim_file *f, void *dev_ctx, int flags) {
  (void)dev_ctx;
  (void)flags;
  f->data = calloc(1, sizeof(struct shim_demo_stream));
  if (f->data == NULL) {
    errno = ENOMEM;
    return -1;
  }
  return 0;
}

static ssize_t shim_demo_read(struct shim_file *f, void *buf, size_t len) {
  struct shim_demo_stream *s = f->data;
  if (len < sizeof(uint64_t)) {
    errno = ENOSPC;
    return -1;
  }
  if (s->n == 0) {
    errno = EAGAIN;
    return -1;
  }
  size_t k = 0;
  for (; k < len / sizeof(uint64_t) && s->n > 0; k++, s->n--) {
    memcpy((char *)buf + k * sizeof(uint64_t), &s->values[s->head],
           sizeof(uint64_t));
    s->head = (s->head + 1) % SHIM_DEMO_STREAM_MAX;
  }
  shim_file_set_ready(f, s->n > 0);
  return (ssize_t)(k * sizeof(uint64_t));
}

static int shim_demo_push(struct shim_file *f, void *arg) {
  struct shim_demo_stream *s = f->data;
  if (s->n == SHIM_DEMO_STREAM_MAX) {
    errno = ENOSPC;
    return -1;
  }
  memcpy(&s->values[(s->head + s->n++) % SHIM_DEMO_STREAM_MAX], arg,
         sizeof(uint64_t));
  shim_file_set_ready(f, true);
  return 0;
}

static int shim_demo_calls_read(struct shim_file *f, void *arg) {
  (void)f;
  uint64_t calls = __atomic_load_n(&shim_demo_calls, __ATOMIC_ACQUIRE) - 1;
  memcpy(arg, &calls, sizeof(calls));
  return 0;
}

static int shim_demo_poke(struct shim_file *f, void *arg) {
  (void)f;
  struct shim_demo_poke poke;
  memcpy(&poke, arg, sizeof(poke));
  if (poke.offset % 4 != 0 || poke.offset > SHIM_DEMO_BUF_SIZE - 4) {
    errno = EINVAL;
    return -1;
  }
  __atomic_store_n((uint32_t *)((char *)shim_demo_map + poke.offset),
                   poke.value, __ATOMIC_RELEASE);
  return 0;
}

static const struct shim_ioctl shim_demo_ioctls[] = {
    {SHIM_DEMO_IOC_PUSH, shim_demo_push},
    {SHIM_DEMO_IOC_CALLS, shim_demo_calls_read},
    {SHIM_DEMO_IOC_POKE, shim_demo_poke},
};

static int shim_demo_ioctl(struct shim_file *f, unsigned long request,
                           void *arg) {
  __atomic_add_fetch(&shim_demo_calls, 1, __ATOMIC_ACQ_REL);
  return shim_ioctl_dispatch(
      shim_demo_ioctls, sizeof(shim_demo_ioctls) / sizeof(shim_demo_ioctls[0]),
      f, request, arg);
}

static short shim_demo_poll(struct shim_file *f) {
  const struct shim_demo_stream *s = f->data;
  shim_file_set_ready(f, s->n > 0);
  return POLLIN | POLLRDNORM;
}

static void *shim_demo_mmap(struct shim_file *f, void *addr, size_t len,
                            int prot, int flags, off_t offset) {
  (void)f;
  if (offset < 0 || len == 0 || (size_t)offset > SHIM_DEMO_BUF_SIZE ||
      len > SHIM_DEMO_BUF_SIZE - (size_t)offset) {
    errno = EINVAL;
    return MAP_FAILED;
  }
  return shim_libc()->mmap(addr, len, prot, flags, shim_demo_memfd, offset);
}

static void shim_demo_release(struct shim_file *f) {
  free(f->data);
  f->data = NULL;
}

static const struct shim_file_ops shim_demo_ops = {
    .name = "demo",
    .open = shim_demo_open,
    .read = shim_demo_read,
    .ioctl = shim_demo_ioctl,
    .poll = shim_demo_poll,
    .mmap = shim_demo_mmap,
    .release = shim_demo_release,
};

int shim_demo_register(const char *path) {
  int err = 0;
  pthread_mutex_lock(&shim_demo_mutex);
  if (shim_demo_memfd < 0) {
    int fd = memfd_create("shim-demo", MFD_CLOEXEC);
    void *map = MAP_FAILED;
    if (fd >= 0 && ftruncate(fd, SHIM_DEMO_BUF_SIZE) == 0)
      map = shim_libc()->mmap(NULL, SHIM_DEMO_BUF_SIZE, PROT_READ | PROT_WRITE,
                              MAP_SHARED, fd, 0);
    if (map == MAP_FAILED) {
      err = errno;
      if (fd >= 0)
        shim_libc()->close(fd);
    } else {
      shim_demo_memfd = fd;
      shim_demo_map = map;
    }
  }
  pthread_mutex_unlock(&shim_demo_mutex);
  if (err != 0) {
    errno = err;
    return -1;
  }
  return shim_device_add(path, makedev(SHIM_DEMO_MAJOR, SHIM_DEMO_MINOR),
                         &shim_demo_ops, NULL);
}

void *shim_demo_buffer(void) {
  pthread_mutex_lock(&shim_demo_mutex);
  void *map = shim_demo_map;
  pthread_mutex_unlock(&shim_demo_mutex);
  return map;
}
