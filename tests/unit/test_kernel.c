/*
 * test_kernel.c: kernel_real, the seam's table of real calls, against the
 * live kernel: every entry does what the libc call it names does, errors
 * come back as -1 with errno, and the retry helpers stop on success.
 */
#include "common/core/kernel.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

static void kernel_real__eventfd_read_poll_close(void **state) {
  (void)state;
  const struct kernel_ops *k = &kernel_real;
  int fd = k->eventfd(3, EFD_NONBLOCK | EFD_CLOEXEC);
  assert_true(fd >= 0);
  struct pollfd p = {.fd = fd, .events = POLLIN};
  assert_int_equal(k->poll(&p, 1, 0), 1);
  assert_true(p.revents & POLLIN);
  uint64_t v = 0;
  assert_int_equal(kernel_read_retry(k, fd, &v, sizeof(v)), sizeof(v));
  assert_int_equal(v, 3);
  /* drained: a non-blocking read says EAGAIN, poll says nothing ready */
  assert_int_equal(k->read(fd, &v, sizeof(v)), -1);
  assert_int_equal(errno, EAGAIN);
  assert_int_equal(k->poll(&p, 1, 0), 0);
  assert_int_equal(k->close(fd), 0);
  assert_int_equal(k->close(fd), -1);
  assert_int_equal(errno, EBADF);
}

static void kernel_real__open_openat_mmap(void **state) {
  (void)state;
  const struct kernel_ops *k = &kernel_real;
  assert_int_equal(k->open("/nonexistent/x", O_RDONLY, 0), -1);
  assert_int_equal(errno, ENOENT);
  int dir = k->open("/proc/self", O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
  assert_true(dir >= 0);
  int fd = k->openat(dir, "status", O_RDONLY | O_CLOEXEC, 0);
  assert_true(fd >= 0);
  char buf[5];
  assert_int_equal(kernel_read_retry(k, fd, buf, sizeof(buf)), 5);
  assert_memory_equal(buf, "Name:", 5);
  k->close(fd);
  k->close(dir);

  int mem = memfd_create("kernel-test", MFD_CLOEXEC);
  assert_true(mem >= 0);
  assert_int_equal(ftruncate(mem, 4096), 0);
  unsigned char *p =
      k->mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, mem, 0);
  assert_true(p != MAP_FAILED);
  p[100] = 0x5a;
  unsigned char back = 0;
  assert_int_equal(pread(mem, &back, 1, 100), 1);
  assert_int_equal(back, 0x5a);
  assert_int_equal(k->munmap(p, 4096), 0);
  assert_true(k->mmap(NULL, 4096, PROT_READ, MAP_SHARED, -1, 0) == MAP_FAILED);
  assert_int_equal(errno, EBADF);
  close(mem);
}

static void kernel_real__ioctl_errno(void **state) {
  (void)state;
  int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
  assert_true(fd >= 0);
  int n = 0;
  /* /dev/null answers no terminal ioctl */
  assert_int_equal(kernel_ioctl_retry(&kernel_real, fd, FIONREAD, &n), -1);
  assert_true(errno == ENOTTY || errno == EINVAL);
  close(fd);
}

/* A software event of this thread: counts task clock once enabled. */
static void kernel_real__perf_event_open_software(void **state) {
  (void)state;
  struct perf_event_attr attr;
  memset(&attr, 0, sizeof(attr));
  attr.size = sizeof(attr);
  attr.type = PERF_TYPE_SOFTWARE;
  attr.config = PERF_COUNT_SW_TASK_CLOCK;
  attr.disabled = 1;
  attr.exclude_kernel = 1; /* allowed at perf_event_paranoid 2 */
  attr.exclude_hv = 1;
  int fd = kernel_real.perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
  if (fd < 0 && (errno == EACCES || errno == EPERM || errno == ENOSYS ||
                 errno == ENOENT)) {
    skip(); /* perf_event_paranoid 3, or perf disabled in a container */
  }
  assert_true(fd >= 0);
  assert_int_equal(
      kernel_ioctl_retry(&kernel_real, fd, PERF_EVENT_IOC_ENABLE, NULL), 0);
  volatile uint64_t spin = 0;
  for (int i = 0; i < 1000000; i++)
    spin = spin + (uint64_t)i;
  assert_true(spin > 0); /* the loop ran: task clock advanced */
  uint64_t count = 0;
  assert_int_equal(kernel_read_retry(&kernel_real, fd, &count, sizeof(count)),
                   sizeof(count));
  assert_true(count > 0);
  /* the kernel's validation comes back through the seam: bad attr size */
  attr.size = 1;
  assert_int_equal(kernel_real.perf_event_open(&attr, 0, -1, -1, 0), -1);
  assert_int_equal(errno, E2BIG);
  close(fd);
}

/* fstatat (with AT_EMPTY_PATH as fstat), a directory listing and
 * inotify through the seam, on a directory of our own. */
static void kernel_real__stat_list_watch(void **state) {
  (void)state;
  const struct kernel_ops *k = &kernel_real;
  char dir[] = "/tmp/kernel-test.XXXXXX";
  assert_non_null(mkdtemp(dir));
  int dfd = k->open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
  assert_true(dfd >= 0);
  int wfd = openat(dfd, "a", O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
  assert_true(wfd >= 0);
  assert_int_equal(write(wfd, "12345", 5), 5);
  close(wfd);
  struct stat st;
  assert_int_equal(k->fstatat(dfd, "a", &st, 0), 0);
  assert_true(S_ISREG(st.st_mode));
  assert_int_equal(st.st_size, 5);
  assert_int_equal(k->fstatat(dfd, "", &st, AT_EMPTY_PATH), 0);
  assert_true(S_ISDIR(st.st_mode));
  assert_int_equal(k->fstatat(dfd, "missing", &st, 0), -1);
  assert_int_equal(errno, ENOENT);

  int nfd = k->inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  assert_true(nfd >= 0);
  assert_true(k->inotify_add_watch(nfd, dir, IN_OPEN | IN_ONLYDIR) >= 0);
  assert_int_equal(k->inotify_add_watch(nfd, "/nonexistent", IN_OPEN), -1);
  assert_int_equal(errno, ENOENT);
  char ev[256] __attribute__((aligned(__alignof__(struct inotify_event))));
  assert_int_equal(k->read(nfd, ev, sizeof(ev)), -1); /* nothing yet */
  assert_int_equal(errno, EAGAIN);
  int rfd = openat(dfd, "a", O_RDONLY | O_CLOEXEC);
  close(rfd);
  ssize_t n = k->read(nfd, ev, sizeof(ev));
  assert_true(n >= (ssize_t)sizeof(struct inotify_event));
  const struct inotify_event *e = (const struct inotify_event *)ev;
  assert_true(e->mask & IN_OPEN);
  assert_string_equal(e->name, "a");
  k->close(nfd);

  int lfd = k->openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
  DIR *d = k->fdopendir(lfd);
  assert_non_null(d);
  int names = 0, a = 0;
  struct dirent *de;
  while ((de = k->readdir(d)) != NULL) {
    names++;
    a += strcmp(de->d_name, "a") == 0;
  }
  assert_int_equal(names, 3); /* ".", "..", "a" */
  assert_int_equal(a, 1);
  assert_int_equal(k->closedir(d), 0);
  assert_null(k->fdopendir(-1));
  assert_int_equal(errno, EBADF);
  assert_int_equal(unlinkat(dfd, "a", 0), 0);
  k->close(dfd);
  assert_int_equal(rmdir(dir), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(kernel_real__eventfd_read_poll_close),
      cmocka_unit_test(kernel_real__open_openat_mmap),
      cmocka_unit_test(kernel_real__ioctl_errno),
      cmocka_unit_test(kernel_real__perf_event_open_software),
      cmocka_unit_test(kernel_real__stat_list_watch),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
