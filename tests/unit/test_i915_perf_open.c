/* PERF_OPEN: the property list per perf revision, the open through the
 * shim with every refusal, the errno words, oa_max_sample_rate. */
#include "common/i915/i915_perf_open.h"
#include "common/i915/i915_uapi.h"
#include "tests/shim/shim.h"
#include "tests/shim/shim_i915.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#define DEV "/shim-test/dri/renderD128"
#define UUID "01234567-89ab-cdef-0123-456789abcdef"

static const struct i915_perf_open_args base = {
    .perf_revision = 7,
    .metrics_set = 1,
    .format = 10,
    .exponent = 16,
    .poll_period_ns = 1000000,
    .engine_class = 0,
    .engine_instance = 0,
};

static void props__follow_the_revision(void **state) {
  (void)state;
  uint64_t p[2 * I915_PERF_OPEN_MAX_PROPS];
  struct i915_perf_open_args a = base;
  assert_int_equal(i915_perf_open_props(&a, p), 7);
  const uint64_t want7[] = {2, 1, 3, 1, 4, 10, 5, 16, 8, 1000000, 9, 0, 10, 0};
  assert_memory_equal(p, want7, sizeof want7);
  a.perf_revision = 5; /* no engine properties */
  assert_int_equal(i915_perf_open_props(&a, p), 5);
  assert_int_equal(p[8], 8);
  a.perf_revision = 4; /* no POLL_OA_PERIOD */
  assert_int_equal(i915_perf_open_props(&a, p), 4);
  a.perf_revision = 1;
  a.exponent = -1; /* not periodic */
  assert_int_equal(i915_perf_open_props(&a, p), 3);
  const uint64_t want1[] = {2, 1, 3, 1, 4, 10};
  assert_memory_equal(p, want1, sizeof want1);
  a = base;
  a.poll_period_ns = 0;
  a.engine_class = -1;
  assert_int_equal(i915_perf_open_props(&a, p), 4);
  a.engine_class = 2; /* instance < 0 is sent as 0 */
  a.engine_instance = -1;
  assert_int_equal(i915_perf_open_props(&a, p), 6);
  assert_int_equal(p[9], 2);
  assert_int_equal(p[11], 0);
}

static void set_flag(struct shim_i915_scenario *s, void *ctx) {
  const int *v = ctx;
  switch (v[0]) {
  case 0:
    s->privileged = v[1];
    break;
  case 1:
    s->busy = v[1];
    break;
  case 2:
    s->perf_ready = v[1];
    break;
  case 3:
    s->perf_revision = v[1];
    break;
  }
}

static void set(int what, int value) {
  int v[2] = {what, value};
  assert_int_equal(shim_i915_update(DEV, set_flag, v), 0);
}

static void open__every_refusal_has_words(void **state) {
  (void)state;
  struct shim_i915_scenario sc;
  shim_i915_scenario_default(&sc);
  assert_int_equal(shim_i915_add(DEV, &sc), 0);
  assert_int_equal(shim_i915_add_metric(DEV, UUID, 1), 0);
  int fd = shim_open(DEV, O_RDWR, 0);
  assert_true(fd >= 0);

  int s = i915_perf_open(&shim_kernel, fd, &base);
  assert_true(s >= 0);
  assert_int_equal(i915_perf_open(&shim_kernel, fd, &base), -EBUSY);
  shim_close(s);

  struct i915_perf_open_args a = base;
  a.format = 5; /* HSW only */
  assert_int_equal(i915_perf_open(&shim_kernel, fd, &a), -EINVAL);
  a = base;
  a.metrics_set = 42;
  assert_int_equal(i915_perf_open(&shim_kernel, fd, &a), -EINVAL);
  set(3, 4); /* revision 4: the builder leaves out what 4 lacks */
  a = base;
  a.perf_revision = 4;
  s = i915_perf_open(&shim_kernel, fd, &a);
  assert_true(s >= 0);
  shim_close(s);
  set(3, 7);
  set(0, 0);
  assert_int_equal(i915_perf_open(&shim_kernel, fd, &base), -EACCES);
  set(0, 1);
  set(1, 1);
  assert_int_equal(i915_perf_open(&shim_kernel, fd, &base), -EBUSY);
  set(1, 0);
  set(2, 0);
  assert_int_equal(i915_perf_open(&shim_kernel, fd, &base),
                   -I915_UAPI_ENOTSUPP);
  shim_close(fd);
  shim_i915_reset();

  assert_non_null(
      strstr(i915_perf_open_hint(EACCES), "dev.i915.perf_stream_paranoid"));
  assert_non_null(strstr(i915_perf_open_hint(EACCES), "CAP_PERFMON"));
  assert_non_null(
      strstr(i915_perf_open_hint(EACCES), "dev.i915.oa_max_sample_rate"));
  assert_non_null(strstr(i915_perf_open_hint(EBUSY), "gputop"));
  assert_non_null(strstr(i915_perf_open_hint(EBUSY), "Mesa"));
  assert_non_null(strstr(i915_perf_open_hint(EINVAL), "Format"));
  assert_non_null(strstr(i915_perf_open_hint(EINVAL), "MetricSet"));
  assert_non_null(strstr(i915_perf_open_hint(524), "not initialised"));
  assert_non_null(strstr(i915_perf_open_hint(ENODEV), "gone"));
  assert_null(i915_perf_open_hint(ENOMEM));
  assert_string_equal(i915_perf_open_strerror(524),
                      "Operation not supported (ENOTSUPP)");
  assert_string_equal(i915_perf_open_strerror(EBUSY), strerror(EBUSY));
}

static void max_rate__reads_the_sysctl(void **state) {
  (void)state;
  char root[] = "/tmp/i915_rate.XXXXXX", path[PATH_MAX];
  assert_non_null(mkdtemp(root));
  uint64_t hz = 1;
  assert_int_equal(i915_perf_open_max_rate(root, &hz), -ENOENT);
  snprintf(path, sizeof path, "%s/sys", root);
  mkdir(path, 0755);
  snprintf(path, sizeof path, "%s/sys/dev", root);
  mkdir(path, 0755);
  snprintf(path, sizeof path, "%s/sys/dev/i915", root);
  mkdir(path, 0755);
  snprintf(path, sizeof path, "%s/sys/dev/i915/oa_max_sample_rate", root);
  const char *cases[] = {"100000\n", "abc\n", "12x\n", "", "0\n"};
  const int rc[] = {0, -EINVAL, -EINVAL, -EINVAL, 0};
  const uint64_t want[] = {100000, 1, 1, 1, 0};
  for (size_t i = 0; i < 5; i++) {
    FILE *f = fopen(path, "w");
    fputs(cases[i], f);
    fclose(f);
    hz = 1;
    assert_int_equal(i915_perf_open_max_rate(root, &hz), rc[i]);
    assert_int_equal(hz, want[i]);
  }
  char cmd[64];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
  assert_int_equal(system(cmd), 0);
}

static void rate__the_kernels_check(void **state) {
  (void)state;
  /* TGL, 19.2 MHz: e 0 -> 105 ns; e 6 -> 6667 ns; e 7 -> 13334 ns */
  assert_int_equal(i915_perf_open_rate(0, 19200000), 9523809);
  assert_int_equal(i915_perf_open_rate(6, 19200000), 149992);
  assert_int_equal(i915_perf_open_rate(7, 19200000), 74996);
  assert_int_equal(i915_perf_open_min_exponent(19200000, 100000), 7);
  /* HSW, 12.5 MHz: 160 ns * 2^e */
  assert_int_equal(i915_perf_open_rate(5, 12500000), 195312);
  assert_int_equal(i915_perf_open_rate(6, 12500000), 97656);
  assert_int_equal(i915_perf_open_min_exponent(12500000, 100000), 6);
  /* periods above a second count as rate 0 */
  assert_int_equal(i915_perf_open_rate(23, 19200000), 1); /* 0.87 s */
  assert_int_equal(i915_perf_open_rate(24, 19200000), 0); /* 1.75 s */
  assert_int_equal(i915_perf_open_min_exponent(19200000, 0), 24);
  assert_int_equal(i915_perf_open_rate(3, 0), 0);
  assert_int_equal(i915_perf_open_rate(32, 19200000), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(props__follow_the_revision),
      cmocka_unit_test(open__every_refusal_has_words),
      cmocka_unit_test(max_rate__reads_the_sysctl),
      cmocka_unit_test(rate__the_kernels_check),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
