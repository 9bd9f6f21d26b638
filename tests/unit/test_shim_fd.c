/*
 * test_shim_fd.c: the shim core in-process, driven through the demo
 * device (tests/shim/shim_demo.h): opening a registered path (absolute
 * and relative to a directory fd), fstat/stat of the character device,
 * dup/dup3/F_DUPFD sharing one file, stream reads and poll, mmap of the
 * buffer shared with the driver, release on the last close, and two
 * threads: one blocked in poll or read on a fake file while the other
 * issues ioctls on it.
 */
#include "tests/lib/fakeproc.h"
#include "tests/shim/shim.h"
#include "tests/shim/shim_demo.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cmocka.h>

static struct fakeproc fp;
static char dev_path[512];

static int setup(void **state) {
  (void)state;
  assert_int_equal(fakeproc_init(&fp), 0);
  snprintf(dev_path, sizeof(dev_path), "%s/demo0", fp.root);
  assert_int_equal(shim_demo_register(dev_path), 0);
  alarm(60); /* a deadlock fails the run instead of hanging it */
  return 0;
}

static int teardown(void **state) {
  (void)state;
  assert_int_equal(shim_device_remove(dev_path), 0);
  fakeproc_fini(&fp);
  return 0;
}

static void push(int fd, uint64_t v) {
  assert_int_equal(shim_kernel.ioctl(fd, SHIM_DEMO_IOC_PUSH, &v), 0);
}

static uint64_t pop(int fd) {
  uint64_t v = 0;
  assert_int_equal(shim_kernel.read(fd, &v, sizeof(v)), sizeof(v));
  return v;
}

static void shim_open__registered_paths(void **state) {
  (void)state;
  int fd = shim_kernel.open(dev_path, O_RDWR | O_CLOEXEC, 0);
  assert_true(fd >= 0);
  struct stat st;
  assert_int_equal(shim_fstat(fd, &st), 0);
  assert_true(S_ISCHR(st.st_mode));
  assert_int_equal(major(st.st_rdev), SHIM_DEMO_MAJOR);
  assert_int_equal(minor(st.st_rdev), SHIM_DEMO_MINOR);
  assert_int_equal(fcntl(fd, F_GETFD), FD_CLOEXEC);
  /* relative to a directory fd, and to the working directory */
  int dir = open(fp.root, O_RDONLY | O_DIRECTORY);
  assert_true(dir >= 0);
  int fd2 = shim_kernel.openat(dir, "demo0", O_RDONLY, 0);
  assert_true(fd2 >= 0);
  assert_int_equal(shim_stat_device(dir, "demo0", &st), 1);
  assert_int_equal(st.st_rdev, makedev(SHIM_DEMO_MAJOR, SHIM_DEMO_MINOR));
  assert_int_equal(shim_stat_device(dir, "demo1", &st), 0);
  /* the seam's fstatat: the node by path, the fake fd by AT_EMPTY_PATH,
   * anything else from the system */
  memset(&st, 0, sizeof(st));
  assert_int_equal(shim_kernel.fstatat(dir, "demo0", &st, 0), 0);
  assert_true(S_ISCHR(st.st_mode));
  assert_int_equal(st.st_rdev, makedev(SHIM_DEMO_MAJOR, SHIM_DEMO_MINOR));
  memset(&st, 0, sizeof(st));
  assert_int_equal(shim_kernel.fstatat(fd2, "", &st, AT_EMPTY_PATH), 0);
  assert_int_equal(st.st_rdev, makedev(SHIM_DEMO_MAJOR, SHIM_DEMO_MINOR));
  assert_int_equal(shim_kernel.fstatat(dir, "", &st, AT_EMPTY_PATH), 0);
  assert_true(S_ISDIR(st.st_mode));
  assert_int_equal(shim_kernel.fstatat(dir, "demo1", &st, 0), -1);
  assert_int_equal(errno, ENOENT);
  char cwd[4096];
  assert_non_null(getcwd(cwd, sizeof(cwd)));
  assert_int_equal(fchdir(dir), 0);
  int fd3 = shim_kernel.open("demo0", O_RDONLY, 0);
  assert_int_equal(chdir(cwd), 0);
  assert_true(fd3 >= 0);
  /* each open is its own stream */
  push(fd, 11);
  push(fd2, 22);
  assert_int_equal(pop(fd2), 22);
  assert_int_equal(pop(fd), 11);
  /* the kernel's answers on a device node */
  errno = 0;
  assert_int_equal(shim_kernel.open(dev_path, O_CREAT | O_EXCL, 0600), -1);
  assert_int_equal(errno, EEXIST);
  assert_int_equal(shim_kernel.open(dev_path, O_DIRECTORY, 0), -1);
  assert_int_equal(errno, ENOTDIR);
  assert_int_equal(shim_kernel.ioctl(fd, _IO('S', 99), NULL), -1);
  assert_int_equal(errno, ENOTTY);
  assert_int_equal(shim_kernel.ioctl(fd, SHIM_DEMO_IOC_PUSH, NULL), -1);
  assert_int_equal(errno, EFAULT);
  assert_int_equal(shim_device_add(dev_path, 0, NULL, NULL), -1);
  assert_int_equal(errno, EEXIST);
  /* other paths reach the system */
  int real = shim_kernel.openat(dir, "nothing-here", O_RDONLY, 0);
  assert_int_equal(real, -1);
  assert_int_equal(errno, ENOENT);
  assert_int_equal(shim_kernel.close(fd3), 0);
  assert_int_equal(shim_kernel.close(fd2), 0);
  assert_int_equal(shim_kernel.close(fd), 0);
  close(dir);
}

static void shim_dup__shares_one_file(void **state) {
  (void)state;
  int fd = shim_kernel.open(dev_path, O_RDWR, 0);
  assert_true(fd >= 0);
  int a = shim_dup(fd);
  int b = shim_dupfd(fd, F_DUPFD_CLOEXEC, 100);
  int c = shim_dup3(fd, 200, O_CLOEXEC);
  int d = shim_dup3(fd, 201, -1); /* dup2 */
  assert_true(a >= 0);
  assert_true(b >= 100);
  assert_int_equal(c, 200);
  assert_int_equal(d, 201);
  assert_int_equal(fcntl(b, F_GETFD), FD_CLOEXEC);
  assert_int_equal(fcntl(d, F_GETFD), 0);
  struct shim_file *f = shim_file_get(fd);
  assert_ptr_equal(shim_file_get(a), f);
  assert_ptr_equal(shim_file_get(b), f);
  assert_ptr_equal(shim_file_get(c), f);
  /* 5 fds + 4 references taken here */
  assert_int_equal(__atomic_load_n(&f->refs, __ATOMIC_ACQUIRE), 9);
  for (int i = 0; i < 3; i++)
    shim_file_put(f);
  push(a, 1);
  push(b, 2);
  assert_int_equal(shim_kernel.close(fd), 0);
  assert_int_equal(pop(c), 1);
  assert_int_equal(pop(d), 2);
  /* dup2 of a real fd over a fake one drops it from that fd */
  int real = open("/dev/null", O_RDONLY);
  assert_int_equal(shim_dup3(real, d, -1), d);
  assert_null(shim_file_get(d));
  close(real);
  close(d);
  assert_int_equal(__atomic_load_n(&f->refs, __ATOMIC_ACQUIRE), 4);
  shim_file_put(f);
  assert_int_equal(shim_kernel.close(a), 0);
  assert_int_equal(shim_kernel.close(b), 0);
  assert_int_equal(shim_kernel.close(c), 0);
  assert_null(shim_file_get(c));
}

static void shim_read__stream_and_poll(void **state) {
  (void)state;
  int fd = shim_kernel.open(dev_path, O_RDONLY | O_NONBLOCK, 0);
  assert_true(fd >= 0);
  uint64_t buf[4];
  errno = 0;
  assert_int_equal(shim_kernel.read(fd, buf, sizeof(buf)), -1);
  assert_int_equal(errno, EAGAIN);
  struct pollfd p = {.fd = fd, .events = POLLIN | POLLOUT};
  assert_int_equal(shim_kernel.poll(&p, 1, 0), 0); /* no POLLOUT: a stream */
  push(fd, 5);
  push(fd, 6);
  push(fd, 7);
  assert_int_equal(shim_kernel.poll(&p, 1, 0), 1);
  assert_int_equal(p.revents, POLLIN);
  assert_int_equal(shim_kernel.read(fd, buf, 4), -1);
  assert_int_equal(errno, ENOSPC);
  assert_int_equal(shim_kernel.read(fd, buf, 16), 16);
  assert_int_equal(buf[0], 5);
  assert_int_equal(buf[1], 6);
  assert_int_equal(shim_kernel.poll(&p, 1, 0), 1);
  assert_int_equal(shim_kernel.read(fd, buf, sizeof(buf)), 8);
  assert_int_equal(buf[0], 7);
  assert_int_equal(shim_kernel.poll(&p, 1, 0), 0);
  for (uint64_t i = 0; i < SHIM_DEMO_STREAM_MAX; i++)
    push(fd, i);
  uint64_t v = 1;
  assert_int_equal(shim_kernel.ioctl(fd, SHIM_DEMO_IOC_PUSH, &v), -1);
  assert_int_equal(errno, ENOSPC);
  assert_int_equal(shim_kernel.close(fd), 0);
}

static void shim_mmap__buffer_shared_with_the_driver(void **state) {
  (void)state;
  int fd = shim_kernel.open(dev_path, O_RDWR, 0);
  uint32_t *map = shim_kernel.mmap(NULL, SHIM_DEMO_BUF_SIZE,
                                   PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  assert_true(map != MAP_FAILED);
  uint32_t *driver = shim_demo_buffer();
  struct shim_demo_poke poke = {.offset = 4096, .value = 0xfeedbeef};
  assert_int_equal(shim_kernel.ioctl(fd, SHIM_DEMO_IOC_POKE, &poke), 0);
  assert_int_equal(map[1024], 0xfeedbeef);
  map[3] = 0x1234;
  assert_int_equal(driver[3], 0x1234);
  assert_int_equal(shim_kernel.munmap(map, SHIM_DEMO_BUF_SIZE), 0);
  errno = 0;
  assert_true(shim_kernel.mmap(NULL, SHIM_DEMO_BUF_SIZE + 4096, PROT_READ,
                               MAP_SHARED, fd, 0) == MAP_FAILED);
  assert_int_equal(errno, EINVAL);
  poke.offset = SHIM_DEMO_BUF_SIZE;
  assert_int_equal(shim_kernel.ioctl(fd, SHIM_DEMO_IOC_POKE, &poke), -1);
  assert_int_equal(errno, EINVAL);
  assert_int_equal(shim_kernel.close(fd), 0);
}

struct waiter {
  int fd;
  int use_read;
  int done; /* atomic */
  int rc;
  uint64_t value;
};

static void *waiter_run(void *arg) {
  struct waiter *w = arg;
  if (w->use_read) {
    w->rc = (int)shim_kernel.read(w->fd, &w->value, sizeof(w->value));
  } else {
    struct pollfd p = {.fd = w->fd, .events = POLLIN};
    w->rc = shim_kernel.poll(&p, 1, 30000);
    w->value = (uint64_t)p.revents;
  }
  __atomic_store_n(&w->done, 1, __ATOMIC_RELEASE);
  return NULL;
}

/* One thread blocks on the file; the other's ioctls on that same file
 * must go through, and its push must wake the first. */
static void blocked_thread_case(int use_read) {
  int fd = shim_kernel.open(dev_path, O_RDWR, 0);
  struct waiter w = {.fd = fd, .use_read = use_read};
  pthread_t t;
  assert_int_equal(pthread_create(&t, NULL, waiter_run, &w), 0);
  uint64_t before = 0, after = 0;
  assert_int_equal(shim_kernel.ioctl(fd, SHIM_DEMO_IOC_CALLS, &before), 0);
  for (int i = 0; i < 1000; i++)
    assert_int_equal(shim_kernel.ioctl(fd, SHIM_DEMO_IOC_CALLS, &after), 0);
  assert_int_equal(after, before + 1000);
  usleep(20000);
  assert_int_equal(__atomic_load_n(&w.done, __ATOMIC_ACQUIRE), 0);
  push(fd, 42);
  assert_int_equal(pthread_join(t, NULL), 0);
  if (use_read) {
    assert_int_equal(w.rc, 8);
    assert_int_equal(w.value, 42);
  } else {
    assert_int_equal(w.rc, 1);
    assert_int_equal(w.value, POLLIN);
    assert_int_equal(pop(fd), 42);
  }
  assert_int_equal(shim_kernel.close(fd), 0);
}

static void shim_poll__blocked_poll_leaves_ioctls_free(void **state) {
  (void)state;
  blocked_thread_case(/*use_read=*/0);
}

static void shim_read__blocked_read_leaves_ioctls_free(void **state) {
  (void)state;
  blocked_thread_case(/*use_read=*/1);
}

static void shim_kernel__other_fds_reach_the_system(void **state) {
  (void)state;
  char path[600];
  snprintf(path, sizeof(path), "%s/plain", fp.root);
  assert_int_equal(fakeproc_write(&fp, "plain", "hello\n"), 0);
  int fd = shim_kernel.open(path, O_RDONLY, 0);
  assert_true(fd >= 0);
  assert_null(shim_file_get(fd));
  char buf[16];
  assert_int_equal(shim_kernel.read(fd, buf, sizeof(buf)), 6);
  assert_memory_equal(buf, "hello\n", 6);
  struct pollfd p = {.fd = fd, .events = POLLIN};
  assert_int_equal(shim_kernel.poll(&p, 1, 0), 1);
  assert_int_equal(shim_kernel.close(fd), 0);
  int efd = shim_kernel.eventfd(3, 0);
  uint64_t v = 0;
  assert_int_equal(shim_kernel.read(efd, &v, sizeof(v)), 8);
  assert_int_equal(v, 3);
  assert_int_equal(shim_kernel.close(efd), 0);
  assert_int_equal(shim_kernel.close(efd), -1);
  assert_int_equal(errno, EBADF);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(shim_open__registered_paths),
      cmocka_unit_test(shim_dup__shares_one_file),
      cmocka_unit_test(shim_read__stream_and_poll),
      cmocka_unit_test(shim_mmap__buffer_shared_with_the_driver),
      cmocka_unit_test(shim_poll__blocked_poll_leaves_ioctls_free),
      cmocka_unit_test(shim_read__blocked_read_leaves_ioctls_free),
      cmocka_unit_test(shim_kernel__other_fds_reach_the_system),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
