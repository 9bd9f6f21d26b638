/*
 * test_sysfs_value.c: the sysfs value decoders on what the kernel prints
 * and on what it never prints, with exact values and errors.
 */
#include "common/sysfs/sysfs_value.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

static int u64_of(const char *s, uint64_t *out) {
  return sysfs_value_u64(s, strlen(s), out);
}

static void sysfs_value_u64__table(void **state) {
  (void)state;
  static const struct {
    const char *in;
    int rc;
    uint64_t v;
  } cases[] = {
      {"1300\n", 0, 1300},
      {"0\n", 0, 0},
      {"42", 0, 42}, /* no newline: still one value */
      {"18446744073709551615\n", 0, UINT64_MAX},
      {"18446744073709551616\n", -ERANGE, 0},
      {"", -EINVAL, 0},
      {"\n", -EINVAL, 0},
      {"N/A\n", -EINVAL, 0},
      {"nan\n", -EINVAL, 0},
      {"-1\n", -EINVAL, 0},
      {" 1\n", -EINVAL, 0},
      {"1 \n", -EINVAL, 0},
      {"1\n\n", -EINVAL, 0},
      {"1\n2\n", -EINVAL, 0},
      {"0x10\n", -EINVAL, 0},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    uint64_t v = 7;
    int rc = u64_of(cases[i].in, &v);
    if (rc != cases[i].rc || (rc == 0 && v != cases[i].v))
      fail_msg("\"%s\": rc %d value %llu", cases[i].in, rc,
               (unsigned long long)v);
  }
}

static void sysfs_value_s64__negative_and_limits(void **state) {
  (void)state;
  int64_t v;
  assert_int_equal(sysfs_value_s64("-5000\n", 6, &v), 0);
  assert_int_equal(v, -5000);
  assert_int_equal(sysfs_value_s64("-9223372036854775808\n", 21, &v), 0);
  assert_true(v == INT64_MIN);
  assert_int_equal(sysfs_value_s64("9223372036854775808\n", 20, &v), -ERANGE);
  assert_int_equal(sysfs_value_s64("-\n", 2, &v), -EINVAL);
  assert_int_equal(sysfs_value_s64("--1\n", 4, &v), -EINVAL);
}

static void sysfs_value_word__words(void **state) {
  (void)state;
  char w[16];
  assert_int_equal(sysfs_value_word("suspended\n", 10, w, sizeof(w)), 0);
  assert_string_equal(w, "suspended");
  assert_int_equal(sysfs_value_word("Package id 0\n", 13, w, sizeof(w)), 0);
  assert_string_equal(w, "Package id 0");
  assert_int_equal(sysfs_value_word(" edge\n", 6, w, sizeof(w)), -EINVAL);
  assert_int_equal(sysfs_value_word("a\tb\n", 4, w, sizeof(w)), -EINVAL);
  assert_int_equal(sysfs_value_word("", 0, w, sizeof(w)), -EINVAL);
  assert_int_equal(sysfs_value_word("sixteen-letters!\n", 17, w, sizeof(w)),
                   -EINVAL);
}

static void sysfs_value_dpm_current__levels(void **state) {
  (void)state;
  uint64_t hz;
  const char *a = "0: 500Mhz \n1: 1850Mhz *\n2: 2500Mhz \n";
  assert_int_equal(sysfs_value_dpm_current(a, strlen(a), &hz), 0);
  assert_true(hz == 1850000000ull);
  const char *s = "S: 19Mhz *\n0: 615Mhz\n1: 2200MHz\n";
  assert_int_equal(sysfs_value_dpm_current(s, strlen(s), &hz), 0);
  assert_true(hz == 19000000ull);
  /* renoir_ppt.c: renoir_print_clk_levels, current clock off the levels */
  const char *off = "0: 400Mhz \n1: 1400Mhz \n   1123Mhz *\n";
  assert_int_equal(sysfs_value_dpm_current(off, strlen(off), &hz), 0);
  assert_true(hz == 1123000000ull);
  const char *bare = "0: 400Mhz \n1123Mhz *\n";
  assert_int_equal(sysfs_value_dpm_current(bare, strlen(bare), &hz), -EINVAL);
  const char *none = "0: 500Mhz \n1: 800Mhz \n";
  assert_int_equal(sysfs_value_dpm_current(none, strlen(none), &hz), -ENOENT);
  /* navi10_ppt.c: navi10_print_clk_levels marks every level whose value
   * equals the current clock: equal levels are each marked */
  const char *same = "0: 1000Mhz *\n1: 1000Mhz *\n2: 1200Mhz \n";
  assert_int_equal(sysfs_value_dpm_current(same, strlen(same), &hz), 0);
  assert_true(hz == 1000000000ull);
  const char *two = "0: 500Mhz *\n1: 800Mhz *\n";
  assert_int_equal(sysfs_value_dpm_current(two, strlen(two), &hz), -EINVAL);
  const char *cut = "0: 500Mhz \n1: 800Mhz *";
  assert_int_equal(sysfs_value_dpm_current(cut, strlen(cut), &hz), -EINVAL);
  const char *junk = "0: 500Mhz *\nfoo\n";
  assert_int_equal(sysfs_value_dpm_current(junk, strlen(junk), &hz), -EINVAL);
  assert_int_equal(sysfs_value_dpm_current("", 0, &hz), -EINVAL);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(sysfs_value_u64__table),
      cmocka_unit_test(sysfs_value_s64__negative_and_limits),
      cmocka_unit_test(sysfs_value_word__words),
      cmocka_unit_test(sysfs_value_dpm_current__levels),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
