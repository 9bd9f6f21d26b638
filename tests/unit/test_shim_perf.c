/*
 * test_shim_perf.c: the shim's perf_event_open driver in-process, through
 * shim_kernel as a plugin sees it: the kernel's validation errnos, group
 * reads with scripted rates, clock and multiplexing, enable/disable/reset,
 * closing a leader before its members, and the inspection visitor.
 */
#include "tests/shim/shim.h"
#include "tests/shim/shim_perf.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <cmocka.h>

#define FMT_ALL                                                                \
  (PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_TOTAL_TIME_ENABLED |       \
   PERF_FORMAT_TOTAL_TIME_RUNNING)
#define SEC 1000000000ull

static uint64_t clock_ns;
static uint64_t test_clock(void *ctx) {
  (void)ctx;
  return clock_ns;
}

static int setup(void **state) {
  (void)state;
  shim_perf_register();
  shim_perf_reset();
  clock_ns = 100 * SEC;
  shim_perf_set_clock(test_clock, NULL);
  return 0;
}

static int teardown(void **state) {
  (void)state;
  assert_int_equal(shim_perf_for_each(NULL, NULL), 0); /* all closed */
  shim_perf_reset();
  return 0;
}

static struct perf_event_attr attr_of(uint32_t type, uint64_t config,
                                      int disabled) {
  struct perf_event_attr a;
  memset(&a, 0, sizeof(a));
  a.type = type;
  a.size = sizeof(a);
  a.config = config;
  a.disabled = disabled;
  a.read_format = FMT_ALL;
  return a;
}

static int open_event(uint32_t type, uint64_t config, int disabled, int group) {
  struct perf_event_attr a = attr_of(type, config, disabled);
  return shim_kernel.perf_event_open(&a, -1, 0, group, PERF_FLAG_FD_CLOEXEC);
}

static uint64_t event_id(int fd) {
  uint64_t id = 0;
  assert_int_equal(shim_kernel.ioctl(fd, PERF_EVENT_IOC_ID, &id), 0);
  return id;
}

static void ioctl_group(int fd, unsigned long request) {
  assert_int_equal(
      shim_kernel.ioctl(fd, request, (void *)(uintptr_t)PERF_IOC_FLAG_GROUP),
      0);
}

/* Read a group and compare every word with `want` (n words). */
static void expect_read(int fd, const uint64_t *want, size_t n) {
  uint64_t got[32] = {0};
  assert_int_equal(shim_kernel.read(fd, got, sizeof(got)),
                   (ssize_t)(n * sizeof(uint64_t)));
  for (size_t i = 0; i < n; i++)
    if (got[i] != want[i])
      fail_msg("word %zu: got %llu, want %llu", i, (unsigned long long)got[i],
               (unsigned long long)want[i]);
}

static void shim_perf_event_open__kernel_errnos(void **state) {
  (void)state;
  shim_perf_fail_type(4009, EACCES);
  int leader = open_event(4001, 0, 1, -1);
  assert_true(leader >= 0);
  int member = open_event(4001, 1, 0, leader);
  assert_true(member >= 0);
  int other = open_event(4002, 0, 1, -1);
  assert_true(other >= 0);
  int efd = eventfd(0, EFD_CLOEXEC);
  static const struct {
    const char *what;
    uint32_t type;
    pid_t pid;
    int cpu, group_fd, err;
    uint32_t size;
    int sample, exclude;
  } cases[] = {
      {"a task (pid 0)", 4001, 0, 0, -1, EINVAL, 0, 0, 0},
      {"any CPU (cpu -1)", 4001, -1, -1, -1, EINVAL, 0, 0, 0},
      {"sampling", 4001, -1, 0, -1, EOPNOTSUPP, 0, 1, 0},
      {"exclude_kernel", 4001, -1, 0, -1, EINVAL, 0, 0, 1},
      {"a group of another PMU", 4002, -1, 0, -2, EINVAL, 0, 0, 0},
      {"a member as group_fd", 4001, -1, 0, -3, EINVAL, 0, 0, 0},
      {"a group on another CPU", 4001, -1, 1, -2, EINVAL, 0, 0, 0},
      {"an eventfd as group_fd", 4001, -1, 0, -4, EBADF, 0, 0, 0},
      {"attr.size 32", 4001, -1, 0, -1, E2BIG, 32, 0, 0},
      {"a refused type", 4009, -1, 0, -1, EACCES, 0, 0, 0},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    struct perf_event_attr a = attr_of(cases[i].type, 0, 0);
    if (cases[i].size)
      a.size = cases[i].size;
    a.sample_period = cases[i].sample ? 1000 : 0;
    a.exclude_kernel = cases[i].exclude ? 1 : 0;
    int g = cases[i].group_fd == -2   ? leader
            : cases[i].group_fd == -3 ? member
            : cases[i].group_fd == -4 ? efd
                                      : -1;
    errno = 0;
    int fd = shim_kernel.perf_event_open(&a, cases[i].pid, cases[i].cpu, g, 0);
    if (fd != -1 || errno != cases[i].err)
      fail_msg("%s: fd %d errno %d, want -1 errno %d", cases[i].what, fd, errno,
               cases[i].err);
  }
  /* types below the base are not the shim's */
  struct perf_event_attr low = attr_of(SHIM_PERF_TYPE_BASE - 1, 0, 0);
  assert_int_equal(shim_perf_claims(&low), 0);
  low.type = SHIM_PERF_TYPE_BASE;
  assert_int_equal(shim_perf_claims(&low), 1);
  errno = 0;
  assert_int_equal(shim_kernel.ioctl(leader, PERF_EVENT_IOC_ID, NULL), -1);
  assert_int_equal(errno, EFAULT);
  assert_int_equal(shim_kernel.ioctl(leader, PERF_EVENT_IOC_PERIOD, NULL), -1);
  assert_int_equal(errno, ENOTTY);
  close(efd);
  assert_int_equal(shim_kernel.close(other), 0);
  assert_int_equal(shim_kernel.close(member), 0);
  assert_int_equal(shim_kernel.close(leader), 0);
}

static void shim_perf_read__scripted_rates_and_multiplexing(void **state) {
  (void)state;
  assert_int_equal(shim_perf_set_rate(4001, 0, 1000), 0);
  assert_int_equal(shim_perf_set_rate(4001, 1, 3000), 0);
  assert_int_equal(shim_perf_set_rate(4001, SHIM_PERF_ANY_CONFIG, 7), 0);
  shim_perf_set_running_ratio(4001, 1, 2);
  int fd[3];
  fd[0] = open_event(4001, 0, 1, -1);
  fd[1] = open_event(4001, 1, 0, fd[0]);
  fd[2] = open_event(4001, 2, 0, fd[0]);
  uint64_t id[3] = {event_id(fd[0]), event_id(fd[1]), event_id(fd[2])};
  assert_true(id[0] < id[1] && id[1] < id[2]);
  clock_ns += 5 * SEC; /* opened disabled: nothing counts yet */
  expect_read(fd[0], (uint64_t[]){3, 0, 0, 0, id[0], 0, id[1], 0, id[2]}, 9);
  ioctl_group(fd[0], PERF_EVENT_IOC_ENABLE);
  clock_ns += 2 * SEC; /* ran half of 2 s */
  expect_read(fd[0],
              (uint64_t[]){3, 2 * SEC, SEC, 1000, id[0], 3000, id[1], 7, id[2]},
              9);
  /* a member's group read is its leader's */
  expect_read(fd[2],
              (uint64_t[]){3, 2 * SEC, SEC, 1000, id[0], 3000, id[1], 7, id[2]},
              9);
  ioctl_group(fd[0], PERF_EVENT_IOC_DISABLE);
  clock_ns += 5 * SEC;
  ioctl_group(fd[0], PERF_EVENT_IOC_ENABLE);
  clock_ns += 2 * SEC;
  expect_read(
      fd[0],
      (uint64_t[]){3, 4 * SEC, 2 * SEC, 2000, id[0], 6000, id[1], 14, id[2]},
      9);
  /* RESET without the group flag: that event only */
  assert_int_equal(shim_kernel.ioctl(fd[1], PERF_EVENT_IOC_RESET, 0), 0);
  clock_ns += 2 * SEC;
  expect_read(
      fd[0],
      (uint64_t[]){3, 6 * SEC, 3 * SEC, 3000, id[0], 3000, id[1], 21, id[2]},
      9);
  /* the buffer must hold the whole group */
  uint64_t small[8];
  errno = 0;
  assert_int_equal(shim_kernel.read(fd[0], small, sizeof(small)), -1);
  assert_int_equal(errno, ENOSPC);
  for (int i = 2; i >= 0; i--)
    assert_int_equal(shim_kernel.close(fd[i]), 0);
}

static void shim_perf_read__single_event_formats(void **state) {
  (void)state;
  assert_int_equal(shim_perf_set_rate(4003, 5, 250), 0);
  struct perf_event_attr a = attr_of(4003, 5, 0);
  a.read_format = PERF_FORMAT_ID | PERF_FORMAT_TOTAL_TIME_ENABLED;
  int fd = shim_kernel.perf_event_open(&a, -1, 2, -1, 0);
  assert_true(fd >= 0);
  clock_ns += 4 * SEC; /* enabled at open */
  expect_read(fd, (uint64_t[]){1000, 4 * SEC, event_id(fd)}, 3);
  assert_int_equal(shim_kernel.close(fd), 0);
}

/* The plugin closes a group's leader first. The members' reads and
 * closes after that used to reach the freed leader; in the kernel they
 * become singleton events that keep counting (perf_group_detach). */
static void shim_perf_close__leader_before_members(void **state) {
  (void)state;
  assert_int_equal(shim_perf_set_rate(4002, SHIM_PERF_ANY_CONFIG, 1000), 0);
  int leader = open_event(4002, 0, 1, -1);
  int m1 = open_event(4002, 1, 0, leader);
  int m2 = open_event(4002, 2, 0, leader);
  uint64_t id1 = event_id(m1), id2 = event_id(m2);
  ioctl_group(leader, PERF_EVENT_IOC_ENABLE);
  clock_ns += SEC;
  assert_int_equal(shim_kernel.close(leader), 0);
  clock_ns += SEC;
  expect_read(m1, (uint64_t[]){1, 2 * SEC, 2 * SEC, 2000, id1}, 5);
  expect_read(m2, (uint64_t[]){1, 2 * SEC, 2 * SEC, 2000, id2}, 5);
  ioctl_group(m2, PERF_EVENT_IOC_DISABLE); /* m2 is its own group now */
  clock_ns += SEC;
  expect_read(m1, (uint64_t[]){1, 3 * SEC, 3 * SEC, 3000, id1}, 5);
  expect_read(m2, (uint64_t[]){1, 2 * SEC, 2 * SEC, 2000, id2}, 5);
  assert_int_equal(shim_perf_for_each(NULL, NULL), 2);
  assert_int_equal(shim_kernel.close(m1), 0);
  assert_int_equal(shim_kernel.close(m2), 0);
}

struct seen {
  struct shim_perf_info info[4];
  size_t n;
};

static void collect(const struct shim_perf_info *info, void *ctx) {
  struct seen *s = ctx;
  if (s->n < 4)
    s->info[s->n++] = *info;
}

static void shim_perf_for_each__reports_attrs(void **state) {
  (void)state;
  union {
    struct perf_event_attr attr;
    unsigned char raw[136];
  } u;
  memset(&u, 0, sizeof(u));
  u.attr.type = 4005;
  u.attr.size = 136; /* config3 at offset 128 */
  u.attr.config = 0x100000000ull;
  u.attr.config1 = 0x3;
  u.attr.config2 = 0x44;
  uint64_t config3 = 0x5;
  memcpy(u.raw + 128, &config3, sizeof(config3));
  int leader = shim_kernel.perf_event_open(&u.attr, -1, 3, -1, 0);
  assert_true(leader >= 0);
  struct perf_event_attr small = attr_of(4005, 9, 0);
  small.size = PERF_ATTR_SIZE_VER0; /* no config2 */
  small.config2 = 0x77;
  int member = shim_kernel.perf_event_open(&small, -1, 3, leader, 0);
  assert_true(member >= 0);
  struct seen s = {.n = 0};
  assert_int_equal(shim_perf_for_each(collect, &s), 2);
  assert_int_equal(s.info[0].type, 4005);
  assert_int_equal(s.info[0].attr_size, 136);
  assert_int_equal(s.info[0].config, 0x100000000ull);
  assert_int_equal(s.info[0].config1, 0x3);
  assert_int_equal(s.info[0].config2, 0x44);
  assert_int_equal(s.info[0].config3, 0x5);
  assert_int_equal(s.info[0].cpu, 3);
  assert_int_equal(s.info[0].leader_id, s.info[0].id);
  assert_int_equal(s.info[1].config, 9);
  assert_int_equal(s.info[1].config2, 0);
  assert_int_equal(s.info[1].config3, 0);
  assert_int_equal(s.info[1].leader_id, s.info[0].id);
  assert_int_equal(shim_kernel.close(leader), 0);
  assert_int_equal(shim_kernel.close(member), 0);
}

/* The LD_PRELOAD controls: valid items apply, malformed ones are
 * reported and the call says EINVAL. */
static void shim_perf_load_env__scripts_from_the_environment(void **state) {
  (void)state;
  setenv("SHIM_PERF_RATE", "4006:0x10:500,4006:*:20,bogus", 1);
  setenv("SHIM_PERF_RUNNING", "4006:1:4", 1);
  setenv("SHIM_PERF_FAIL", "4007:1", 1);
  setenv("SHIM_PERF_EACCES_TYPE", "4008", 1);
  setenv("SHIM_PERF_COUNTERS", "4009:1", 1);
  errno = 0;
  assert_int_equal(shim_perf_load_env(), -1);
  assert_int_equal(errno, EINVAL);
  unsetenv("SHIM_PERF_RATE");
  unsetenv("SHIM_PERF_RUNNING");
  unsetenv("SHIM_PERF_FAIL");
  unsetenv("SHIM_PERF_EACCES_TYPE");
  unsetenv("SHIM_PERF_COUNTERS");
  /* one counter: a group of two never fits */
  int one = open_event(4009, 1, 0, -1);
  assert_true(one >= 0);
  assert_int_equal(open_event(4009, 2, 0, one), -1);
  assert_int_equal(errno, EINVAL);
  assert_int_equal(shim_kernel.close(one), 0);
  assert_int_equal(open_event(4007, 0, 0, -1), -1);
  assert_int_equal(errno, EPERM);
  assert_int_equal(open_event(4008, 0, 0, -1), -1);
  assert_int_equal(errno, EACCES);
  int leader = open_event(4006, 0x10, 0, -1);
  int member = open_event(4006, 0x11, 0, leader);
  uint64_t id0 = event_id(leader), id1 = event_id(member);
  clock_ns += 8 * SEC; /* runs a quarter: 2 s */
  expect_read(leader, (uint64_t[]){2, 8 * SEC, 2 * SEC, 1000, id0, 40, id1}, 7);
  assert_int_equal(shim_kernel.close(member), 0);
  assert_int_equal(shim_kernel.close(leader), 0);
}

#define CYC 0x100000000ull /* arm_cspmu's default cycles event */

/* Open {events[0], ...} as one disabled group; fds out. */
static void open_group(uint32_t type, const uint64_t *configs, size_t n,
                       int *fds) {
  for (size_t i = 0; i < n; i++) {
    fds[i] = open_event(type, configs[i], i == 0, i ? fds[0] : -1);
    assert_true(fds[i] >= 0);
  }
}

static void close_group(int *fds, size_t n) {
  for (size_t i = n; i-- > 0;)
    assert_int_equal(shim_kernel.close(fds[i]), 0);
}

/* enabled and running time of a group, from a read of its leader */
static void times_of(int fd, uint64_t *enabled, uint64_t *running) {
  uint64_t w[32];
  assert_true(shim_kernel.read(fd, w, sizeof(w)) > 0);
  *enabled = w[1];
  *running = w[2];
}

/* Two groups that each lead with cycles on a PMU with one dedicated cycle
 * counter (arm_cspmu_get_event_idx) cannot run together: the second waits,
 * and every multiplexing interval perf_rotate_context swaps them. A group
 * that could never fit (two cycles events, or more events than general
 * counters) is refused at open (arm_cspmu_validate_group). */
static void shim_perf_schedule__one_cycle_counter_rotates(void **state) {
  (void)state;
  shim_perf_set_counters(4020, 2, /*has_cycle=*/true, CYC);
  shim_perf_set_mux_interval(SEC);
  assert_int_equal(shim_perf_set_rate(4020, CYC, 1000), 0);
  assert_int_equal(shim_perf_set_rate(4020, 1, 10), 0);
  assert_int_equal(shim_perf_set_rate(4020, 2, 20), 0);
  int a[2], b[2];
  open_group(4020, (uint64_t[]){CYC, 1}, 2, a);
  open_group(4020, (uint64_t[]){CYC, 2}, 2, b);
  /* a second cycles event in one group, a third general event: EINVAL */
  assert_int_equal(open_event(4020, CYC, 0, a[0]), -1);
  assert_int_equal(errno, EINVAL);
  int c = open_event(4020, 3, 0, a[0]);
  assert_true(c >= 0);
  assert_int_equal(open_event(4020, 4, 0, a[0]), -1);
  assert_int_equal(errno, EINVAL);
  assert_int_equal(shim_kernel.close(c), 0);
  ioctl_group(a[0], PERF_EVENT_IOC_ENABLE);
  ioctl_group(b[0], PERF_EVENT_IOC_ENABLE);
  uint64_t ida[2] = {event_id(a[0]), event_id(a[1])};
  uint64_t idb[2] = {event_id(b[0]), event_id(b[1])};
  clock_ns += SEC / 2; /* a on the counters, b waiting */
  expect_read(a[0], (uint64_t[]){2, SEC / 2, SEC / 2, 500, ida[0], 5, ida[1]},
              7);
  expect_read(b[0], (uint64_t[]){2, SEC / 2, 0, 0, idb[0], 0, idb[1]}, 7);
  clock_ns += SEC; /* the tick at 1 s rotated: b runs since */
  expect_read(a[0], (uint64_t[]){2, 3 * SEC / 2, SEC, 1000, ida[0], 10, ida[1]},
              7);
  expect_read(
      b[0], (uint64_t[]){2, 3 * SEC / 2, SEC / 2, 500, idb[0], 10, idb[1]}, 7);
  close_group(b, 2); /* the counter is free again: a runs from now on */
  clock_ns += 3 * SEC;
  expect_read(
      a[0], (uint64_t[]){2, 9 * SEC / 2, 4 * SEC, 4000, ida[0], 40, ida[1]}, 7);
  close_group(a, 2);
}

/* Groups are scheduled in order, all or nothing (group_sched_in); once one
 * does not fit no later group is tried in that pass, even one that would
 * fit (merge_sched_in clears can_add_hw); each tick moves the first
 * scheduled group to the end (ctx_event_to_rotate, rotate_ctx). With 3
 * counters and A {2 events}, B {2}, C {1}:
 *   [0,1) A          (B does not fit, C is not tried)
 *   [1,2) B, C       (A does not fit)
 *   [2,3) C, A       (B does not fit)
 *   [3,4) A          (B does not fit, C is not tried) */
static void shim_perf_schedule__in_order_all_or_nothing(void **state) {
  (void)state;
  shim_perf_set_counters(4021, 3, /*has_cycle=*/false, 0);
  shim_perf_set_mux_interval(SEC);
  int a[2], b[2], c[1];
  open_group(4021, (uint64_t[]){1, 2}, 2, a);
  open_group(4021, (uint64_t[]){3, 4}, 2, b);
  open_group(4021, (uint64_t[]){5}, 1, c);
  ioctl_group(a[0], PERF_EVENT_IOC_ENABLE);
  ioctl_group(b[0], PERF_EVENT_IOC_ENABLE);
  ioctl_group(c[0], PERF_EVENT_IOC_ENABLE);
  clock_ns += 7 * SEC / 2;
  uint64_t e, r;
  times_of(a[0], &e, &r);
  assert_int_equal(e, 7 * SEC / 2);
  assert_int_equal(r, 5 * SEC / 2);
  times_of(b[0], &e, &r);
  assert_int_equal(e, 7 * SEC / 2);
  assert_int_equal(r, SEC);
  times_of(c[0], &e, &r);
  assert_int_equal(e, 7 * SEC / 2);
  assert_int_equal(r, 2 * SEC);
  close_group(c, 1);
  close_group(b, 2);
  close_group(a, 2);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(shim_perf_event_open__kernel_errnos,
                                      setup, teardown),
      cmocka_unit_test_setup_teardown(
          shim_perf_read__scripted_rates_and_multiplexing, setup, teardown),
      cmocka_unit_test_setup_teardown(shim_perf_read__single_event_formats,
                                      setup, teardown),
      cmocka_unit_test_setup_teardown(shim_perf_close__leader_before_members,
                                      setup, teardown),
      cmocka_unit_test_setup_teardown(shim_perf_for_each__reports_attrs, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(
          shim_perf_load_env__scripts_from_the_environment, setup, teardown),
      cmocka_unit_test_setup_teardown(
          shim_perf_schedule__one_cycle_counter_rotates, setup, teardown),
      cmocka_unit_test_setup_teardown(
          shim_perf_schedule__in_order_all_or_nothing, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
