/*
 * test_pmu_group.c: counting groups (common/pmu/pmu_group.h): the decoder
 * of a group read, and opening and reading on every CPU of a PMU through
 * the shim's perf driver in-process (tests/shim), scripted with rates and
 * the test's clock so every count is exact.
 */
#include "common/pmu/pmu_group.h"
#include "tests/shim/shim.h"
#include "tests/shim/shim_perf.h"

#include <errno.h>
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
    uint64_t enabled, running, values[2];
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
      /* values are as read: scaling belongs to the interval, not here */
      {"multiplexed: as read",
       {1, 100, 50, 10, 1},
       5,
       1,
       {1},
       0,
       100,
       50,
       {10}},
      {"never ran: as read", {1, 100, 0, 10, 1}, 5, 1, {1}, 0, 100, 0, {10}},
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
    struct pmu_counts r;
    int rc = pmu_group_decode(cases[i].words, cases[i].n_words, cases[i].ids,
                              cases[i].n_events, &r);
    if (rc != cases[i].rc)
      fail_msg("%s: rc %d", cases[i].name, rc);
    if (rc == 0 &&
        (r.enabled_ns != cases[i].enabled || r.running_ns != cases[i].running ||
         memcmp(r.values, cases[i].values,
                cases[i].n_events * sizeof(uint64_t)) != 0))
      fail_msg(
          "%s: %llu %llu %llu", cases[i].name, (unsigned long long)r.enabled_ns,
          (unsigned long long)r.running_ns, (unsigned long long)r.values[0]);
  }
}

/* perf's counting of an interval (evsel__compute_deltas, then
 * perf_counts_values__scale): deltas of value, enabled and running first,
 * then the delta scaled by its own enabled / running. */
static void pmu_counts_delta__as_perf_counts(void **state) {
  (void)state;
  static const struct {
    const char *name;
    struct pmu_counts prev, now;
    enum pmu_scaled scaled;
    uint64_t enabled, running, value;
  } cases[] = {
      {"ran the whole interval: exact",
       {1000, 1000, {1000}},
       {2000, 2000, {3000}},
       PMU_EXACT,
       1000,
       1000,
       2000},
      /* the group ran 100% at 1/ns, then 10% of the next 1000 ns at 3/ns:
       * the interval is 300 x 1000 / 100 = 3000; scaling the totals and
       * differencing would say 1300 x 2000 / 1100 - 1000 = 1363 */
      {"running fraction changes: the delta is scaled, not the total",
       {1000, 1000, {1000}},
       {2000, 1100, {1300}},
       PMU_SCALED,
       1000,
       100,
       3000},
      /* never ran: no value, whatever the totals would suggest */
      {"never ran in the interval: not counted",
       {2000, 1100, {1300}},
       {3000, 1100, {1300}},
       PMU_NOT_COUNTED,
       1000,
       0,
       0},
      {"nothing enabled either: not counted",
       {3000, 1100, {1300}},
       {3000, 1100, {1300}},
       PMU_NOT_COUNTED,
       0,
       0,
       0},
      /* u64 differences as perf takes them */
      {"value wraps 2^64",
       {100, 100, {UINT64_MAX - 9}},
       {200, 200, {10}},
       PMU_EXACT,
       100,
       100,
       20},
      /* perf's double arithmetic: 2^53 + 1 is not a double */
      {"scaled in double as perf does",
       {0, 0, {0}},
       {3, 2, {0x0020000000000001ull}},
       PMU_SCALED,
       3,
       2,
       0x0030000000000000ull},
      {"scaled past 64 bits: saturates",
       {0, 0, {0}},
       {200, 100, {0x9000000000000000ull}},
       PMU_SCALED,
       200,
       100,
       UINT64_MAX},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    struct pmu_counts d;
    enum pmu_scaled sc = pmu_counts_delta(&cases[i].prev, &cases[i].now, 1, &d);
    if (sc != cases[i].scaled || d.enabled_ns != cases[i].enabled ||
        d.running_ns != cases[i].running || d.values[0] != cases[i].value)
      fail_msg("%s: %d %llu %llu %llu", cases[i].name, (int)sc,
               (unsigned long long)d.enabled_ns,
               (unsigned long long)d.running_ns,
               (unsigned long long)d.values[0]);
  }
}

/* ---- the kernel: the shim's perf driver, in-process ---- */

/* The shim reads this clock; a read 1000 ns after the open sees every
 * event enabled (and running) 1000 ns. */
static uint64_t now_ns = 1000000;
static uint64_t test_clock(void *ctx) {
  (void)ctx;
  return now_ns;
}

/* Events of config c count c x 100 per 1000 ns on every CPU. */
static void kernel_reset(void) {
  shim_perf_register();
  shim_perf_reset();
  shim_perf_set_type_base(0);
  shim_perf_set_clock(test_clock, NULL);
  for (uint64_t c = 1; c <= 2; c++)
    assert_int_equal(shim_perf_set_rate(7, c, c * 100000000), 0);
}

static void count_cpu(const struct shim_perf_info *info, void *ctx) {
  int *per_cpu = ctx;
  if (info->cpu >= 0 && info->cpu < 100)
    per_cpu[info->cpu]++;
}

/* A group of events config 1 and 2 on `cpus`, opened, then read once
 * 1000 ns later. */
static void group_on(struct pmu_group *g, int *cpus, size_t n_cpus,
                     bool cpumask) {
  struct pmu_desc pmu = {.name = "u",
                         .type = 7,
                         .cpus = cpus,
                         .n_cpus = n_cpus,
                         .has_cpumask = cpumask};
  struct pmu_event ev[2] = {{.text = "a", .config = {1}, .scale = 1},
                            {.text = "b", .config = {2}, .scale = 1}};
  kernel_reset();
  assert_int_equal(pmu_group_init(g, "test", &shim_kernel, &pmu, ev, 2), 0);
  assert_int_equal(pmu_group_open(g), 0);
  now_ns += 1000;
  assert_int_equal(pmu_group_read(g), 0);
}

static void pmu_group_read__cpumask_of_two_cpus(void **state) {
  (void)state;
  int cpus[] = {0, 2};
  struct pmu_group g;
  group_on(&g, cpus, 2, /*cpumask=*/true);
  int per_cpu[100] = {0};
  assert_int_equal(shim_perf_for_each(count_cpu, per_cpu), 4);
  assert_int_equal(per_cpu[0], 2);
  assert_int_equal(per_cpu[2], 2);
  assert_true(g.per_cpu);
  assert_int_equal(g.n_readings, 2);
  assert_int_equal(g.readings[0].cpu, 0);
  assert_int_equal(g.readings[0].counts[0], 100);
  assert_int_equal(g.readings[0].counts[1], 200);
  assert_int_equal(g.readings[0].enabled_ns, 1000);
  assert_int_equal(g.readings[1].cpu, 2);
  assert_int_equal(g.readings[1].counts[0], 100);
  assert_int_equal(g.readings[1].counts[1], 200);
  pmu_group_fini(&g);
  assert_int_equal(shim_perf_for_each(NULL, NULL), 0);
}

static void pmu_group_read__single_and_summed(void **state) {
  (void)state;
  int one[] = {88};
  struct pmu_group g;
  group_on(&g, one, 1, /*cpumask=*/true);
  int per_cpu[100] = {0};
  assert_int_equal(shim_perf_for_each(count_cpu, per_cpu), 2);
  assert_int_equal(per_cpu[88], 2);
  assert_false(g.per_cpu);
  assert_int_equal(g.n_readings, 1);
  assert_int_equal(g.readings[0].cpu, 88);
  assert_int_equal(g.readings[0].counts[0], 100);
  pmu_group_fini(&g);
  int online[] = {0, 1};
  group_on(&g, online, 2, /*cpumask=*/false);
  assert_int_equal(g.n_readings, 1);
  assert_int_equal(g.readings[0].cpu, -1);
  assert_int_equal(g.readings[0].n_cpus, 2);
  assert_int_equal(g.readings[0].counts[0], 100 + 100);
  assert_int_equal(g.readings[0].counts[1], 200 + 200);
  assert_int_equal(g.readings[0].enabled_ns, 2000);
  pmu_group_fini(&g);
}

/* The second CPU refuses the open (a negative CPU: EINVAL, as the kernel
 * says): the first CPU's fds are closed again. */
static void pmu_group_open__failure_closes_every_cpu(void **state) {
  (void)state;
  int cpus[] = {0, -1};
  struct pmu_desc pmu = {
      .name = "u", .type = 7, .cpus = cpus, .n_cpus = 2, .has_cpumask = true};
  struct pmu_event ev = {.text = "a", .config = {1}, .scale = 1};
  struct pmu_group g;
  kernel_reset();
  assert_int_equal(pmu_group_init(&g, "test", &shim_kernel, &pmu, &ev, 1), 0);
  assert_int_equal(pmu_group_open(&g), -EINVAL);
  assert_false(g.open);
  assert_int_equal(pmu_group_read(&g), -EBADF);
  assert_int_equal(shim_perf_for_each(NULL, NULL), 0);
  g.cpus[1] = 2; /* the CPU comes back */
  assert_int_equal(pmu_group_open(&g), 0);
  assert_int_equal(shim_perf_for_each(NULL, NULL), 2);
  pmu_group_fini(&g);
  assert_int_equal(shim_perf_for_each(NULL, NULL), 0);
}

/* A multiplexed group: the shim runs it half its enabled time; the
 * interval's delta comes back scaled to the whole window. */
static void pmu_group_read__multiplexed_is_scaled(void **state) {
  (void)state;
  int cpus[] = {0};
  kernel_reset();
  shim_perf_set_running_ratio(7, 1, 2);
  struct pmu_desc pmu = {
      .name = "u", .type = 7, .cpus = cpus, .n_cpus = 1, .has_cpumask = true};
  struct pmu_event ev = {.text = "a", .config = {2}, .scale = 1};
  struct pmu_group g;
  assert_int_equal(pmu_group_init(&g, "test", &shim_kernel, &pmu, &ev, 1), 0);
  assert_int_equal(pmu_group_open(&g), 0);
  now_ns += 1000;
  assert_int_equal(pmu_group_read(&g), 0);
  assert_int_equal(g.readings[0].enabled_ns, 1000);
  assert_int_equal(g.readings[0].running_ns, 500);
  assert_int_equal(g.readings[0].counts[0], 100); /* as read */
  assert_int_equal(g.readings[0].delta[0], 200);  /* scaled */
  assert_int_equal(g.readings[0].scaled, PMU_SCALED);
  pmu_group_fini(&g);
  shim_perf_reset();
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(pmu_group_decode__table),
      cmocka_unit_test(pmu_counts_delta__as_perf_counts),
      cmocka_unit_test(pmu_group_read__cpumask_of_two_cpus),
      cmocka_unit_test(pmu_group_read__single_and_summed),
      cmocka_unit_test(pmu_group_open__failure_closes_every_cpu),
      cmocka_unit_test(pmu_group_read__multiplexed_is_scaled),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
