/*
 * test_pmu_group.c: counting groups (common/pmu/pmu_group.h): the decoder
 * of a group read, and opening and reading on every CPU of a PMU through a
 * kernel_ops double that counts config x 100 x (cpu + 1) per read.
 */
#include "common/pmu/pmu_group.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

static void pmu_group_decode__table(void **state) {
  (void)state;
  static const struct {
    const char *name;
    uint64_t words[7];
    size_t n_words, n_events;
    uint64_t ids[2];
    int rc;
    uint64_t enabled, running, counts[2];
  } cases[] = {
      {"ids in any order",
       {2, 100, 100, 5, 11, 7, 22},
       7,
       2,
       {22, 11},
       0,
       100,
       100,
       {7, 5}},
      {"multiplexed: scaled by 100/50",
       {1, 100, 50, 10, 1},
       5,
       1,
       {1},
       0,
       100,
       50,
       {20}},
      {"never ran: 0", {1, 100, 0, 10, 1}, 5, 1, {1}, 0, 100, 0, {0}},
      {"nr is not the group size",
       {2, 100, 100, 5, 1},
       5,
       1,
       {1},
       -EIO,
       0,
       0,
       {0}},
      {"short", {1, 100, 100, 5}, 4, 1, {1}, -EIO, 0, 0, {0}},
      {"unknown id", {1, 100, 100, 5, 9}, 5, 1, {1}, -EIO, 0, 0, {0}},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    struct pmu_reading r;
    int rc = pmu_group_decode(cases[i].words, cases[i].n_words, cases[i].ids,
                              cases[i].n_events, &r);
    if (rc != cases[i].rc)
      fail_msg("%s: rc %d", cases[i].name, rc);
    if (rc == 0 &&
        (r.enabled_ns != cases[i].enabled || r.running_ns != cases[i].running ||
         memcmp(r.counts, cases[i].counts,
                cases[i].n_events * sizeof(uint64_t)) != 0))
      fail_msg(
          "%s: %llu %llu %llu", cases[i].name, (unsigned long long)r.enabled_ns,
          (unsigned long long)r.running_ns, (unsigned long long)r.counts[0]);
  }
}

/* ---- the kernel double ---- */
#define FAKE_FDS 32
static struct {
  bool open;
  int cpu, leader;
  uint64_t config;
} fds[FAKE_FDS];
static int fail_cpu = -1;

static int fake_open(struct perf_event_attr *attr, pid_t pid, int cpu,
                     int group_fd, unsigned long flags) {
  (void)pid;
  (void)flags;
  if (cpu == fail_cpu) {
    errno = EBUSY;
    return -1;
  }
  for (int i = 0; i < FAKE_FDS; i++)
    if (!fds[i].open) {
      fds[i].open = true;
      fds[i].cpu = cpu;
      fds[i].config = attr->config;
      fds[i].leader = group_fd < 0 ? i : group_fd;
      return i;
    }
  errno = EMFILE;
  return -1;
}

static int fake_ioctl(int fd, unsigned long request, void *arg) {
  if (request == PERF_EVENT_IOC_ID)
    *(uint64_t *)arg = 1000 + (uint64_t)fd;
  return 0;
}

static ssize_t fake_read(int fd, void *buf, size_t len) {
  uint64_t *w = buf;
  size_t n = 0;
  for (int i = 0; i < FAKE_FDS; i++)
    if (fds[i].open && fds[i].leader == fd) {
      if ((5 + 2 * n) * 8 > len) {
        errno = ENOSPC;
        return -1;
      }
      w[3 + 2 * n] = fds[i].config * 100 * (uint64_t)(fds[i].cpu + 1);
      w[4 + 2 * n] = 1000 + (uint64_t)i;
      n++;
    }
  w[0] = n;
  w[1] = w[2] = 1000;
  return (ssize_t)((3 + 2 * n) * 8);
}

static int fake_close(int fd) {
  fds[fd].open = false;
  return 0;
}

static const struct kernel_ops fake = {.perf_event_open = fake_open,
                                       .read = fake_read,
                                       .ioctl = fake_ioctl,
                                       .close = fake_close};

/* A group of events config 1 and 2 on `cpus`, opened and read once. */
static void group_on(struct pmu_group *g, int *cpus, size_t n_cpus,
                     bool cpumask) {
  struct pmu_desc pmu = {.name = "u",
                         .type = 7,
                         .cpus = cpus,
                         .n_cpus = n_cpus,
                         .has_cpumask = cpumask};
  struct pmu_event ev[2] = {{.text = "a", .config = {1}, .scale = 1},
                            {.text = "b", .config = {2}, .scale = 1}};
  memset(fds, 0, sizeof(fds));
  assert_int_equal(pmu_group_init(g, "test", &fake, &pmu, ev, 2), 0);
  assert_int_equal(pmu_group_open(g), 0);
  assert_int_equal(pmu_group_read(g), 0);
}

static void pmu_group_read__cpumask_of_two_cpus(void **state) {
  (void)state;
  int cpus[] = {0, 2};
  struct pmu_group g;
  group_on(&g, cpus, 2, /*cpumask=*/true);
  assert_true(g.per_cpu);
  assert_int_equal(g.n_readings, 2);
  assert_int_equal(g.readings[0].cpu, 0);
  assert_int_equal(g.readings[0].counts[0], 100);
  assert_int_equal(g.readings[0].counts[1], 200);
  assert_int_equal(g.readings[0].enabled_ns, 1000);
  assert_int_equal(g.readings[1].cpu, 2);
  assert_int_equal(g.readings[1].counts[0], 300);
  assert_int_equal(g.readings[1].counts[1], 600);
  pmu_group_fini(&g);
  for (int i = 0; i < FAKE_FDS; i++)
    assert_false(fds[i].open);
}

static void pmu_group_read__single_and_summed(void **state) {
  (void)state;
  int one[] = {88};
  struct pmu_group g;
  group_on(&g, one, 1, /*cpumask=*/true);
  assert_false(g.per_cpu);
  assert_int_equal(g.n_readings, 1);
  assert_int_equal(g.readings[0].cpu, 88);
  assert_int_equal(g.readings[0].counts[0], 8900);
  pmu_group_fini(&g);
  int online[] = {0, 1};
  group_on(&g, online, 2, /*cpumask=*/false);
  assert_int_equal(g.n_readings, 1);
  assert_int_equal(g.readings[0].cpu, -1);
  assert_int_equal(g.readings[0].n_cpus, 2);
  assert_int_equal(g.readings[0].counts[0], 100 + 200);
  assert_int_equal(g.readings[0].counts[1], 200 + 400);
  assert_int_equal(g.readings[0].enabled_ns, 2000);
  pmu_group_fini(&g);
}

static void pmu_group_open__failure_closes_every_cpu(void **state) {
  (void)state;
  int cpus[] = {0, 2};
  struct pmu_desc pmu = {
      .name = "u", .type = 7, .cpus = cpus, .n_cpus = 2, .has_cpumask = true};
  struct pmu_event ev = {.text = "a", .config = {1}, .scale = 1};
  struct pmu_group g;
  memset(fds, 0, sizeof(fds));
  fail_cpu = 2;
  assert_int_equal(pmu_group_init(&g, "test", &fake, &pmu, &ev, 1), 0);
  assert_int_equal(pmu_group_open(&g), -EBUSY);
  assert_false(g.open);
  assert_int_equal(pmu_group_read(&g), -EBADF);
  for (int i = 0; i < FAKE_FDS; i++)
    assert_false(fds[i].open);
  fail_cpu = -1;
  assert_int_equal(pmu_group_open(&g), 0);
  pmu_group_fini(&g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(pmu_group_decode__table),
      cmocka_unit_test(pmu_group_read__cpumask_of_two_cpus),
      cmocka_unit_test(pmu_group_read__single_and_summed),
      cmocka_unit_test(pmu_group_open__failure_closes_every_cpu),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
