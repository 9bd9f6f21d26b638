/*
 * test_numfmt.c: shortest round-trip doubles, always a float, in every
 * locale.
 */
#include "common/core/numfmt.h"
#include "tests/lib/comma_locale.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

static const struct {
  double value;
  const char *text;
} numfmt_cases[] = {
    {0.0, "0.0"},
    {-0.0, "-0.0"},
    {5.0, "5.0"},
    {-2.5, "-2.5"},
    {100.0, "100.0"},
    {42.1, "42.1"},
    {0.1, "0.1"},
    {1.0 / 3.0, "0.3333333333333333"},  /* needs %.16g */
    {0.1 + 0.2, "0.30000000000000004"}, /* needs %.17g */
    {1e14, "100000000000000.0"},        /* %.15g still prints digits */
    {1e15, "1e+15"},                    /* exponent: no ".0" */
    {1e22, "1e+22"},
    {1e-7, "1e-07"},
    {9007199254740993.0, "9007199254740992.0"}, /* 2^53 + 1 is not a double */
    {123456789012345678901.0, "1.2345678901234568e+20"},
    {DBL_MAX, "1.7976931348623157e+308"},
    {-DBL_MIN, "-2.2250738585072014e-308"},             /* the longest text */
    {4.9406564584124654e-324, "4.94065645841247e-324"}, /* denormal */
};

static void check_cases(void) {
  for (size_t i = 0; i < sizeof(numfmt_cases) / sizeof(numfmt_cases[0]); i++) {
    char out[NUMFMT_DOUBLE_MAX];
    int n = numfmt_double(numfmt_cases[i].value, out, sizeof(out));
    if (n < 0 || strcmp(out, numfmt_cases[i].text) != 0 ||
        (size_t)n != strlen(numfmt_cases[i].text))
      fail_msg("case %zu: got %d \"%s\", expected \"%s\"", i, n,
               n < 0 ? "" : out, numfmt_cases[i].text);
  }
}

static void numfmt_double__table(void **state) {
  (void)state;
  check_cases();
}

static void numfmt_double__comma_locale(void **state) {
  (void)state;
  const char *name = comma_locale_set();
  if (name == NULL)
    skip(); /* no installed comma locale and no localedef */
  char probe[16];
  snprintf(probe, sizeof(probe), "%.1f", 1.5);
  assert_string_equal(probe, "1,5"); /* the locale is really in effect */
  check_cases();
}

static int reset_locale(void **state) {
  (void)state;
  comma_locale_reset();
  return 0;
}

static void numfmt_double__non_finite(void **state) {
  (void)state;
  const double bad[] = {NAN, -NAN, INFINITY, -INFINITY};
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
    char out[NUMFMT_DOUBLE_MAX] = "untouched";
    assert_int_equal(numfmt_double(bad[i], out, sizeof(out)), -EINVAL);
    assert_string_equal(out, "untouched");
  }
}

static void numfmt_double__buffer_size(void **state) {
  (void)state;
  /* "42.1" needs 5 bytes with its NUL, "5.0" needs 4 */
  char out[8];
  memcpy(out, "xxxxxxx", 8);
  assert_int_equal(numfmt_double(42.1, out, 4), -E2BIG);
  assert_string_equal(out, "xxxxxxx"); /* untouched */
  assert_int_equal(numfmt_double(42.1, out, 5), 4);
  assert_string_equal(out, "42.1");
  assert_int_equal(numfmt_double(5.0, out, 3), -E2BIG);
  assert_int_equal(numfmt_double(5.0, out, 4), 3);
  assert_string_equal(out, "5.0");
  assert_int_equal(numfmt_double(5.0, out, 0), -E2BIG);
}

/* Any finite double, from its bit pattern: the text reads back exactly,
 * reads as a float, fits NUMFMT_DOUBLE_MAX, and uses only number bytes. */
static void numfmt_double__round_trips_bit_patterns(void **state) {
  (void)state;
  uint64_t x = 0x9e3779b97f4a7c15ull;
  for (int i = 0; i < 100000; i++) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17; /* xorshift64 */
    double v;
    memcpy(&v, &x, sizeof(v));
    if (i % 2)
      v = (double)(int64_t)x / 1e6; /* plausible magnitudes as well */
    char out[NUMFMT_DOUBLE_MAX];
    int n = numfmt_double(v, out, sizeof(out));
    if (!isfinite(v)) {
      assert_int_equal(n, -EINVAL);
      continue;
    }
    if (n <= 0 || (size_t)n != strlen(out) || strtod(out, NULL) != v ||
        strpbrk(out, ".e") == NULL ||
        strspn(out, "0123456789.e+-") != (size_t)n)
      fail_msg("0x%016llx: %d \"%s\"", (unsigned long long)x, n, out);
  }
}

/* Scaling to a base unit rounds once: 950 mV is 0.95 V. */
static void numfmt_scale__table(void **state) {
  (void)state;
  static const struct {
    double v, scale;
    const char *text;
  } cases[] = {
      {950, 1e-3, "0.95"},   /* 950 * 1e-3 is 0.9500000000000001 */
      {1000, 1e-9, "1e-06"}, /* 1000 * 1e-9 is 1.0000000000000002e-06 */
      {12.5, 0.01, "0.125"}, /* percent to ratio */
      {7, 1e-6, "7e-06"},    /* µJ to J */
      {3, 2.5, "7.5"},       /* not an inverse: multiplied */
      {42, 1.0, "42.0"},     {-950, 1e-3, "-0.95"},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    char out[NUMFMT_DOUBLE_MAX];
    assert_true(numfmt_double(numfmt_scale(cases[i].v, cases[i].scale), out,
                              sizeof(out)) > 0);
    assert_string_equal(out, cases[i].text);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(numfmt_double__table),
      cmocka_unit_test(numfmt_scale__table),
      cmocka_unit_test_teardown(numfmt_double__comma_locale, reset_locale),
      cmocka_unit_test(numfmt_double__non_finite),
      cmocka_unit_test(numfmt_double__buffer_size),
      cmocka_unit_test(numfmt_double__round_trips_bit_patterns),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
