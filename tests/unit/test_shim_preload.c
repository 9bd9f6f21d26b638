/*
 * test_shim_preload.c: every interposer of $(BUILD)/tests/shim.so, called
 * by name from a process the shim is preloaded into. main() re-executes
 * this binary with LD_PRELOAD set (the sanitizer runtimes first when the
 * binary is built with them) and SHIM_DRIVERS=perf,demo, so it runs as a
 * plain unit test. Nothing here links the in-process shim.
 */
#include "tests/shim/shim_demo.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cmocka.h>

/* glibc's fortify entry points (declared only under _FORTIFY_SOURCE) */
extern int __open_2(const char *path, int flags);
extern int __open64_2(const char *path, int flags);
extern int __openat_2(int dirfd, const char *path, int flags);
extern int __openat64_2(int dirfd, const char *path, int flags);
extern ssize_t __read_chk(int fd, void *buf, size_t len, size_t buflen);

#define DEV "/dev/shim-demo-test" /* absent from /dev: only the shim has it */
#define RDEV makedev(SHIM_DEMO_MAJOR, SHIM_DEMO_MINOR)
#define FMT_ALL                                                                \
  (PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_TOTAL_TIME_ENABLED |       \
   PERF_FORMAT_TOTAL_TIME_RUNNING)

static void expect_device_fd(int fd) {
  struct stat st;
  if (fd < 0)
    fail_msg("open: %s", strerror(errno));
  assert_int_equal(fstat(fd, &st), 0);
  assert_true(S_ISCHR(st.st_mode));
  assert_int_equal(st.st_rdev, RDEV);
  assert_int_equal(close(fd), 0);
}

static void push(int fd, uint64_t v) {
  assert_int_equal(ioctl(fd, SHIM_DEMO_IOC_PUSH, &v), 0);
}

static void preload_open__every_entry_point(void **state) {
  (void)state;
  int dev = open("/dev", O_RDONLY | O_DIRECTORY);
  assert_true(dev >= 0);
  expect_device_fd(open(DEV, O_RDWR));
  expect_device_fd(open64(DEV, O_RDWR | O_CLOEXEC));
  expect_device_fd(openat(AT_FDCWD, DEV, O_RDONLY));
  expect_device_fd(openat64(dev, "shim-demo-test", O_RDONLY));
  expect_device_fd(__open_2(DEV, O_RDWR));
  expect_device_fd(__open64_2(DEV, O_RDWR));
  expect_device_fd(__openat_2(dev, "shim-demo-test", O_RDWR));
  expect_device_fd(__openat64_2(AT_FDCWD, DEV, O_RDWR));
  /* other paths are the system's, with the mode when O_CREAT is set */
  char tmp[] = "/tmp/shim-preload.XXXXXX";
  assert_non_null(mkdtemp(tmp));
  int dir = open(tmp, O_RDONLY | O_DIRECTORY);
  int fd = openat(dir, "f", O_CREAT | O_WRONLY, 0640);
  assert_true(fd >= 0);
  struct stat st;
  assert_int_equal(fstat(fd, &st), 0);
  assert_true(S_ISREG(st.st_mode));
  assert_int_equal(st.st_mode & 0777 & ~0022, 0640 & ~0022);
  close(fd);
  errno = 0;
  assert_int_equal(open("/dev/shim-demo-none", O_RDONLY), -1);
  assert_int_equal(errno, ENOENT);
  unlinkat(dir, "f", 0);
  close(dir);
  rmdir(tmp);
  close(dev);
}

static void preload_stat__character_device(void **state) {
  (void)state;
  struct stat st;
  struct stat64 st64;
  memset(&st, 0, sizeof(st));
  assert_int_equal(stat(DEV, &st), 0);
  assert_true(S_ISCHR(st.st_mode));
  assert_int_equal(st.st_rdev, RDEV);
  assert_int_equal(lstat(DEV, &st), 0);
  assert_int_equal(st.st_rdev, RDEV);
  assert_int_equal(stat64(DEV, &st64), 0);
  assert_int_equal(st64.st_rdev, RDEV);
  assert_int_equal(lstat64(DEV, &st64), 0);
  assert_int_equal(st64.st_rdev, RDEV);
  int dev = open("/dev", O_RDONLY | O_DIRECTORY);
  assert_int_equal(fstatat(dev, "shim-demo-test", &st, 0), 0);
  assert_int_equal(st.st_rdev, RDEV);
  assert_int_equal(fstatat64(AT_FDCWD, DEV, &st64, 0), 0);
  assert_int_equal(st64.st_rdev, RDEV);
  int fd = open(DEV, O_RDWR);
  assert_int_equal(fstat64(fd, &st64), 0);
  assert_int_equal(st64.st_rdev, RDEV);
  assert_int_equal(fstatat(fd, "", &st, AT_EMPTY_PATH), 0);
  assert_int_equal(st.st_rdev, RDEV);
  struct statx stx;
  assert_int_equal(statx(AT_FDCWD, DEV, 0, STATX_BASIC_STATS, &stx), 0);
  assert_true(S_ISCHR(stx.stx_mode));
  assert_int_equal(stx.stx_rdev_major, SHIM_DEMO_MAJOR);
  assert_int_equal(stx.stx_rdev_minor, SHIM_DEMO_MINOR);
  memset(&stx, 0, sizeof(stx));
  assert_int_equal(statx(fd, "", AT_EMPTY_PATH, STATX_BASIC_STATS, &stx), 0);
  assert_int_equal(stx.stx_rdev_minor, SHIM_DEMO_MINOR);
  /* the rest is real */
  assert_int_equal(stat("/", &st), 0);
  assert_true(S_ISDIR(st.st_mode));
  assert_int_equal(statx(dev, "null", 0, STATX_BASIC_STATS, &stx), 0);
  assert_int_equal(stx.stx_rdev_major, 1);
  assert_int_equal(stx.stx_rdev_minor, 3);
  close(fd);
  close(dev);
}

static void preload_dup__and_fcntl_share_the_file(void **state) {
  (void)state;
  int fd = open(DEV, O_RDWR);
  int fds[] = {dup(fd),
               dup2(fd, 300),
               dup3(fd, 301, O_CLOEXEC),
               fcntl(fd, F_DUPFD, 310),
               fcntl(fd, F_DUPFD_CLOEXEC, 320),
               fcntl64(fd, F_DUPFD, 330)};
  const size_t n = sizeof(fds) / sizeof(fds[0]);
  assert_int_equal(fds[1], 300);
  assert_int_equal(fds[2], 301);
  assert_true(fds[3] >= 310 && fds[4] >= 320 && fds[5] >= 330);
  assert_int_equal(fcntl(fds[2], F_GETFD), FD_CLOEXEC);
  assert_int_equal(fcntl(fds[4], F_GETFD), FD_CLOEXEC);
  assert_int_equal(fcntl(fds[3], F_GETFD), 0);
  assert_int_equal(dup3(fd, 302, 0x4000000), -1); /* bad flags */
  assert_int_equal(errno, EINVAL);
  for (size_t i = 0; i < n; i++)
    push(fds[i], 100 + i);
  assert_int_equal(close(fd), 0);
  uint64_t v[8];
  assert_int_equal(read(fds[0], v, sizeof(v)), (ssize_t)(n * 8));
  for (size_t i = 0; i < n; i++)
    assert_int_equal(v[i], 100 + i);
  /* F_SETFL (an int argument) reaches the shared description */
  assert_int_equal(fcntl(fds[1], F_SETFL, O_NONBLOCK), 0);
  assert_int_equal(fcntl(fds[5], F_GETFL) & O_NONBLOCK, O_NONBLOCK);
  errno = 0;
  assert_int_equal(read(fds[5], v, sizeof(v)), -1);
  assert_int_equal(errno, EAGAIN);
  for (size_t i = 0; i < n; i++)
    assert_int_equal(close(fds[i]), 0);
  /* a pointer argument: F_GETLK on a real file */
  FILE *tmp = tmpfile();
  struct flock lk = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
  assert_int_equal(fcntl(fileno(tmp), F_GETLK, &lk), 0);
  assert_int_equal(lk.l_type, F_UNLCK);
  fclose(tmp);
}

static void preload_read__poll_ppoll_and_fortify(void **state) {
  (void)state;
  int fd = open(DEV, O_RDWR | O_NONBLOCK);
  struct pollfd p = {.fd = fd, .events = POLLIN};
  assert_int_equal(poll(&p, 1, 0), 0);
  struct timespec zero = {0, 0};
  assert_int_equal(ppoll(&p, 1, &zero, NULL), 0);
  push(fd, 9);
  push(fd, 10);
  assert_int_equal(poll(&p, 1, 0), 1);
  assert_int_equal(p.revents, POLLIN);
  p.revents = 0;
  assert_int_equal(ppoll(&p, 1, &zero, NULL), 1);
  assert_int_equal(p.revents, POLLIN);
  uint64_t v[2];
  assert_int_equal(__read_chk(fd, v, 8, sizeof(v)), 8);
  assert_int_equal(v[0], 9);
  assert_int_equal(read(fd, v, sizeof(v)), 8);
  assert_int_equal(v[0], 10);
  errno = 0;
  assert_int_equal(read(fd, v, sizeof(v)), -1);
  assert_int_equal(errno, EAGAIN);
  assert_int_equal(ioctl(fd, _IO('S', 77)), -1); /* logged once */
  assert_int_equal(errno, ENOTTY);
  close(fd);
}

static void preload_mmap__both_sides_see_the_buffer(void **state) {
  (void)state;
  int fd = open(DEV, O_RDWR);
  uint32_t *a = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  uint32_t *b =
      mmap64(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 4096);
  assert_true(a != MAP_FAILED && b != MAP_FAILED);
  struct shim_demo_poke poke = {.offset = 4100, .value = 77};
  assert_int_equal(ioctl(fd, SHIM_DEMO_IOC_POKE, &poke), 0);
  assert_int_equal(b[1], 77);
  a[5] = 5;
  uint32_t *c = mmap(NULL, 8192, PROT_READ, MAP_SHARED, fd, 0);
  assert_true(c != MAP_FAILED);
  assert_int_equal(c[5], 5);
  assert_int_equal(c[1025], 77);
  assert_int_equal(munmap(a, 4096), 0);
  assert_int_equal(munmap(b, 4096), 0);
  assert_int_equal(munmap(c, 8192), 0);
  errno = 0;
  assert_true(mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 8192) == MAP_FAILED);
  assert_int_equal(errno, EINVAL);
  close(fd);
}

static int perf_open(uint32_t type, uint64_t config, int disabled, pid_t pid,
                     int group, uint64_t sample_period) {
  struct perf_event_attr a;
  memset(&a, 0, sizeof(a));
  a.type = type;
  a.size = sizeof(a);
  a.config = config;
  a.disabled = disabled;
  a.read_format = FMT_ALL;
  a.sample_period = sample_period;
  return (int)syscall(__NR_perf_event_open, &a, pid, 0, group, 0ul);
}

static void preload_syscall__perf_event_open(void **state) {
  (void)state;
  /* SHIM_PERF_RATE=4001:*:1000 SHIM_PERF_RUNNING=4001:1:2
   * SHIM_PERF_FAIL=4009:13 (see main) */
  int leader = perf_open(4001, 0, 1, -1, -1, 0);
  int member = perf_open(4001, 1, 0, -1, leader, 0);
  assert_true(leader >= 0 && member >= 0);
  int other = perf_open(4002, 0, 1, -1, -1, 0);
  errno = 0;
  assert_int_equal(perf_open(4001, 0, 0, 0, -1, 0), -1);
  assert_int_equal(errno, EINVAL); /* a task */
  assert_int_equal(perf_open(4001, 0, 0, -1, -1, 1000), -1);
  assert_int_equal(errno, EOPNOTSUPP); /* sampling */
  assert_int_equal(perf_open(4002, 0, 0, -1, leader, 0), -1);
  assert_int_equal(errno, EINVAL); /* another PMU's group */
  assert_int_equal(perf_open(4009, 0, 0, -1, -1, 0), -1);
  assert_int_equal(errno, EACCES);
  assert_int_equal(ioctl(leader, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP),
                   0);
  usleep(20000);
  uint64_t w[16];
  assert_int_equal(read(leader, w, sizeof(w)), 7 * 8);
  assert_int_equal(w[0], 2);
  assert_true(w[1] >= 20000000ull);
  assert_int_equal(w[2], w[1] / 2); /* ran half the time */
  assert_int_equal(w[3], 1000 * w[2] / 1000000000ull);
  uint64_t id = 0;
  assert_int_equal(ioctl(member, PERF_EVENT_IOC_ID, &id), 0);
  assert_int_equal(w[6], id);
  /* the leader goes first, as the plugin closes it: the member is a
   * counting singleton from then on */
  assert_int_equal(close(leader), 0);
  assert_int_equal(read(member, w, sizeof(w)), 5 * 8);
  assert_int_equal(w[0], 1);
  assert_int_equal(w[4], id);
  assert_int_equal(close(member), 0);
  assert_int_equal(close(other), 0);
  /* everything else is forwarded */
  assert_int_equal(syscall(SYS_getpid), getpid());
}

struct waiter {
  int fd, rc, done;
  short revents;
};

static void *waiter_run(void *arg) {
  struct waiter *w = arg;
  struct pollfd p = {.fd = w->fd, .events = POLLIN};
  w->rc = poll(&p, 1, 30000);
  w->revents = p.revents;
  __atomic_store_n(&w->done, 1, __ATOMIC_RELEASE);
  return NULL;
}

static void preload_poll__blocked_thread_leaves_ioctls_free(void **state) {
  (void)state;
  int fd = open(DEV, O_RDWR);
  struct waiter w = {.fd = fd};
  pthread_t t;
  assert_int_equal(pthread_create(&t, NULL, waiter_run, &w), 0);
  uint64_t first = 0, last = 0;
  assert_int_equal(ioctl(fd, SHIM_DEMO_IOC_CALLS, &first), 0);
  for (int i = 0; i < 500; i++)
    assert_int_equal(ioctl(fd, SHIM_DEMO_IOC_CALLS, &last), 0);
  assert_int_equal(last, first + 500);
  usleep(20000);
  assert_int_equal(__atomic_load_n(&w.done, __ATOMIC_ACQUIRE), 0);
  push(fd, 1);
  assert_int_equal(pthread_join(t, NULL), 0);
  assert_int_equal(w.rc, 1);
  assert_int_equal(w.revents, POLLIN);
  close(fd);
}

/* Append the mapped library whose file name contains `name` to `out`. */
static void add_mapped_library(const char *name, char *out, size_t len) {
  FILE *maps = fopen("/proc/self/maps", "r");
  char line[1024];
  while (maps != NULL && fgets(line, sizeof(line), maps) != NULL) {
    char *path = strchr(line, '/');
    if (path == NULL || strstr(path, name) == NULL)
      continue;
    path[strcspn(path, "\n")] = '\0';
    size_t used = strlen(out);
    snprintf(out + used, len - used, "%s%s", used ? ":" : "", path);
    break;
  }
  if (maps != NULL)
    fclose(maps);
}

int main(int argc, char **argv) {
  (void)argc;
  if (getenv("SHIM_PRELOAD_TEST") == NULL) {
    char exe[4096], preload[8192] = "";
    ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    if (n <= 0)
      return 1;
    exe[n] = '\0';
    *strrchr(exe, '/') = '\0';
    /* sanitizer runtimes must come first in the library list */
    add_mapped_library("/libasan.so", preload, sizeof(preload));
    add_mapped_library("/libubsan.so", preload, sizeof(preload));
    size_t used = strlen(preload);
    snprintf(preload + used, sizeof(preload) - used, "%s%s/shim.so",
             used ? ":" : "", exe);
    setenv("LD_PRELOAD", preload, 1);
    setenv("SHIM_PRELOAD_TEST", "1", 1);
    setenv("SHIM_DRIVERS", "perf,demo", 1);
    setenv("SHIM_DEMO_PATH", DEV, 1);
    setenv("SHIM_PERF_RATE", "4001:*:1000", 1);
    setenv("SHIM_PERF_RUNNING", "4001:1:2", 1);
    setenv("SHIM_PERF_FAIL", "4009:13", 1);
    execv("/proc/self/exe", argv);
    perror("execv");
    return 1;
  }
  alarm(60); /* a deadlock fails the run instead of hanging it */
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(preload_open__every_entry_point),
      cmocka_unit_test(preload_stat__character_device),
      cmocka_unit_test(preload_dup__and_fcntl_share_the_file),
      cmocka_unit_test(preload_read__poll_ppoll_and_fortify),
      cmocka_unit_test(preload_mmap__both_sides_see_the_buffer),
      cmocka_unit_test(preload_syscall__perf_event_open),
      cmocka_unit_test(preload_poll__blocked_thread_leaves_ioctls_free),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
