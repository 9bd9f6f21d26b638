/*
 * test_cfg.c: typed config getters, as both hosts feed them (collectd:
 * typed values; exec: strings): value count and type, ranges, spellings,
 * exact numbers, a comma-decimal locale, and the exact error messages.
 */
#include "common/core/cfg.h"
#include "common/core/log.h"
#include "tests/lib/comma_locale.h"

#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static char last_message[1024];
static enum log_level last_level;

static void capture_log(enum log_level level, const char *message) {
  last_level = level;
  snprintf(last_message, sizeof(last_message), "%s", message);
}

static int setup(void **state) {
  (void)state;
  last_message[0] = '\0';
  log_set_sink(capture_log, LOG_LEVEL_DEBUG);
  return 0;
}

static int teardown(void **state) {
  (void)state;
  log_set_sink(NULL, LOG_LEVEL_INFO);
  comma_locale_reset();
  return 0;
}

static struct cfg_item item_of(const char *key, const struct cfg_value *v,
                               size_t n) {
  struct cfg_item item = {.key = key, .values = v, .n_values = n};
  return item;
}

static void cfg_get_double__strings_and_numbers(void **state) {
  (void)state;
  static const struct {
    const char *text;
    int rc;
    double value;
  } cases[] = {
      {"10", 0, 10},       {"0.5", 0, 0.5},     {"+2e1", 0, 20},
      {".25", 0, 0.25},    {"1,5", -EINVAL, 0}, {"abc", -EINVAL, 0},
      {"", -EINVAL, 0},    {"5s", -EINVAL, 0},  {"1e999", -EINVAL, 0},
      {"-1", -EINVAL, 0},  /* below the range */
      {"101", -EINVAL, 0}, /* above the range */
      {"0", 0, 0},         /* the range is inclusive */
      {"100", 0, 100},     {"1e2", 0, 100},
  };
  for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
    struct cfg_value v = {.type = CFG_STRING, .string = cases[i].text};
    struct cfg_item item = item_of("Interval", &v, 1);
    double out = -7;
    int rc = cfg_get_double("test", &item, 0, 100, &out);
    if (rc != cases[i].rc || (rc == 0 && out != cases[i].value) ||
        (rc != 0 && out != -7))
      fail_msg("case \"%s\": rc %d value %g", cases[i].text, rc, out);
  }
  struct cfg_value n = {.type = CFG_NUMBER, .number = 3.5};
  struct cfg_item item = item_of("Interval", &n, 1);
  double out;
  assert_int_equal(cfg_get_double("test", &item, 0, 100, &out), 0);
  assert_true(out == 3.5);
  n.number = NAN;
  assert_int_equal(cfg_get_double("test", &item, 0, 100, &out), -EINVAL);
  struct cfg_value b = {.type = CFG_BOOLEAN, .boolean = true};
  item = item_of("Interval", &b, 1);
  assert_int_equal(cfg_get_double("test", &item, 0, 100, &out), -EINVAL);
  assert_string_equal(last_message,
                      "test: config: Interval: expected a number");
}

/* The number nearest to the text, as strtod in the C locale gives it. */
static void cfg_parse_double__exact(void **state) {
  (void)state;
  static const struct {
    const char *text;
    double value;
  } cases[] = {
      {"0.3", 0.3}, /* summing 3 * 0.1 gave 0.30000000000000004 */
      {"1.15", 1.15},
      {"0.1", 0.1},
      {"123.456e-2", 1.23456},
      {"-2.5E+3", -2500.0},
      {"6.103515625e-5", 6.103515625e-5}, /* a perf .scale file */
      {"9007199254740993", 9007199254740992.0},
      {"18446744073709551615", 18446744073709551616.0},
      {"0.000001", 1e-6},
      {"-0", -0.0},
      {"007", 7.0},
      {"1.", 1.0},
  };
  for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
    double out = -7;
    int rc = cfg_parse_double(cases[i].text, &out);
    if (rc != 0 || out != cases[i].value)
      fail_msg("case \"%s\": rc %d value %.17g", cases[i].text, rc, out);
  }
}

static void cfg_parse_double__rejects(void **state) {
  (void)state;
  static const char *const bad[] = {
      "",      " 1",     "1 ",
      "1,5",   "1.5.",   "0x10",
      "inf",   "nan",    "NaN",
      "1e",    "1e+",    "e5",
      ".",     "-.",     "+",
      "--1",   "1e5.5",  "1_0",
      "1e999", "-1e999", "\xef\xbc\x91" /* fullwidth 1 */,
  };
  for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
    double out = -7;
    int rc = cfg_parse_double(bad[i], &out);
    if (rc != -EINVAL || out != -7)
      fail_msg("case \"%s\": rc %d value %g", bad[i], rc, out);
  }
}

/* Under a comma-decimal LC_NUMERIC, "1.5" still parses and "1,5" is still
 * an error (strtod alone would do the opposite). */
static void cfg_parse_double__comma_locale(void **state) {
  (void)state;
  double out = -7;
  assert_int_equal(cfg_parse_double("1,5", &out), -EINVAL);
  if (comma_locale_set() == NULL)
    skip(); /* the line above is the locale-independent half */
  assert_int_equal(cfg_parse_double("1,5", &out), -EINVAL);
  assert_true(out == -7);
  assert_int_equal(cfg_parse_double("1.5", &out), 0);
  assert_true(out == 1.5);
  assert_int_equal(cfg_parse_double("0.3", &out), 0);
  assert_true(out == 0.3);
  struct cfg_value v = {.type = CFG_STRING, .string = "2.25"};
  struct cfg_item item = item_of("Interval", &v, 1);
  assert_int_equal(cfg_get_double("test", &item, 0, 100, &out), 0);
  assert_true(out == 2.25);
}

static void cfg_get_u64__whole_numbers(void **state) {
  (void)state;
  struct cfg_value v = {.type = CFG_STRING, .string = "2.5"};
  struct cfg_item item = item_of("MaxClients", &v, 1);
  uint64_t out = 0;
  assert_int_equal(cfg_get_u64("test", &item, 1, 10, &out), -EINVAL);
  assert_string_equal(last_message,
                      "test: config: MaxClients: expected a whole number, "
                      "got \"2.5\"");
  v.string = "7";
  assert_int_equal(cfg_get_u64("test", &item, 1, 10, &out), 0);
  assert_int_equal(out, 7);
  v.string = "1e1";
  assert_int_equal(cfg_get_u64("test", &item, 1, 10, &out), 0);
  assert_int_equal(out, 10);
  v.string = "11";
  assert_int_equal(cfg_get_u64("test", &item, 1, 10, &out), -EINVAL);
  assert_string_equal(last_message,
                      "test: config: MaxClients: expected a number between "
                      "1 and 10, got 11");
  struct cfg_value n = {.type = CFG_NUMBER, .number = 3};
  item = item_of("MaxClients", &n, 1);
  assert_int_equal(cfg_get_u64("test", &item, 1, 10, &out), 0);
  assert_int_equal(out, 3);
}

/* Strings are read exactly: decimal, 0x hex (either case), whole numbers
 * in exponent form; the full uint64 range; errors for everything else. */
static void cfg_parse_u64__table(void **state) {
  (void)state;
  static const struct {
    const char *text;
    int rc;
    uint64_t value;
  } cases[] = {
      {"0", 0, 0},
      {"7", 0, 7},
      {"007", 0, 7},
      {"0x0", 0, 0},
      {"0X1f", 0, 31},
      {"0xdeadBEEF", 0, 0xdeadbeef},
      {"0xFFFFFFFFFFFFFFFF", 0, UINT64_MAX},
      {"0x0000000000000000001", 0, 1}, /* leading zeros do not count */
      {"0x10000000000000000", -ERANGE, 0},
      {"18446744073709551615", 0, UINT64_MAX},
      {"18446744073709551616", -ERANGE, 0},
      {"99999999999999999999999", -ERANGE, 0},
      {"9007199254740993", 0, 9007199254740993ull}, /* 2^53 + 1, exact */
      {"1e6", 0, 1000000},
      {"1E+3", 0, 1000},
      {"2.50e1", 0, 25},
      {"1.", 0, 1},
      {"0.0", 0, 0},
      {"0e99999999", 0, 0},
      {"1.8446744073709551615e19", 0, UINT64_MAX},
      {"1.8446744073709551616e19", -ERANGE, 0},
      {"1e20", -ERANGE, 0},
      {"1e99999999999", -ERANGE, 0},
      {"2.5", -EDOM, 0},
      {"0.05", -EDOM, 0},
      {".5", -EDOM, 0},
      {"1e-1", -EDOM, 0},
      {"1.0000000000000000000000000001", -EDOM, 0},
      {"", -EINVAL, 0},
      {"0x", -EINVAL, 0},
      {"0X", -EINVAL, 0},
      {"0xg", -EINVAL, 0},
      {"0x1g", -EINVAL, 0},
      {"0x-1", -EINVAL, 0},
      {"12abc", -EINVAL, 0},
      {"-1", -EINVAL, 0},
      {"-0", -EINVAL, 0},
      {"+1", -EINVAL, 0},
      {" 1", -EINVAL, 0},
      {"1 ", -EINVAL, 0},
      {"1,5", -EINVAL, 0},
      {"1_000", -EINVAL, 0},
      {".", -EINVAL, 0},
      {"e5", -EINVAL, 0},
      {"1e", -EINVAL, 0},
      {"1e+", -EINVAL, 0},
      {"1.2.3", -EINVAL, 0},
      {"0b101", -EINVAL, 0},
      {"inf", -EINVAL, 0},
  };
  for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
    uint64_t out = 42;
    int rc = cfg_parse_u64(cases[i].text, &out);
    uint64_t want = cases[i].rc == 0 ? cases[i].value : 42;
    if (rc != cases[i].rc || out != want)
      fail_msg("case \"%s\": rc %d value %llu", cases[i].text, rc,
               (unsigned long long)out);
  }
}

/* The getter over the same strings: exact range checks at both ends of
 * uint64, and messages with the value as written. */
static void cfg_get_u64__strings_exact(void **state) {
  (void)state;
  static const struct {
    const char *text;
    uint64_t min, max;
    int rc;
    uint64_t value;
    const char *message;
  } cases[] = {
      {"0x0", 0, UINT64_MAX, 0, 0, NULL},
      {"0xFFFFFFFFFFFFFFFF", 0, UINT64_MAX, 0, UINT64_MAX, NULL},
      {"18446744073709551615", 0, UINT64_MAX, 0, UINT64_MAX, NULL},
      {"9007199254740993", 0, UINT64_MAX, 0, 9007199254740993ull, NULL},
      {"9007199254740993", 0, 9007199254740992ull, -EINVAL, 0,
       "test: config: Config: expected a number between 0 and "
       "9007199254740992, got 9007199254740993"},
      {"18446744073709551616", 0, UINT64_MAX, -EINVAL, 0,
       "test: config: Config: expected a number between 0 and "
       "18446744073709551615, got 18446744073709551616"},
      {"0x10000000000000000", 0, UINT64_MAX, -EINVAL, 0,
       "test: config: Config: expected a number between 0 and "
       "18446744073709551615, got 0x10000000000000000"},
      {"0x100", 1, 255, -EINVAL, 0,
       "test: config: Config: expected a number between 1 and 255, got "
       "0x100"},
      {"1000001", 1, 1000000, -EINVAL, 0,
       "test: config: Config: expected a number between 1 and 1000000, got "
       "1000001"},
      {"0x", 0, UINT64_MAX, -EINVAL, 0,
       "test: config: Config: expected a non-negative integer (decimal or 0x "
       "hex), got \"0x\""},
      {"12abc", 0, UINT64_MAX, -EINVAL, 0,
       "test: config: Config: expected a non-negative integer (decimal or 0x "
       "hex), got \"12abc\""},
      {"-1", 0, UINT64_MAX, -EINVAL, 0,
       "test: config: Config: expected a non-negative integer (decimal or 0x "
       "hex), got \"-1\""},
      {" 5", 0, UINT64_MAX, -EINVAL, 0,
       "test: config: Config: expected a non-negative integer (decimal or 0x "
       "hex), got \" 5\""},
  };
  for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
    struct cfg_value v = {.type = CFG_STRING, .string = cases[i].text};
    struct cfg_item item = item_of("Config", &v, 1);
    uint64_t out = 42;
    last_message[0] = '\0';
    int rc = cfg_get_u64("test", &item, cases[i].min, cases[i].max, &out);
    uint64_t want = cases[i].rc == 0 ? cases[i].value : 42;
    if (rc != cases[i].rc || out != want)
      fail_msg("case \"%s\": rc %d value %llu", cases[i].text, rc,
               (unsigned long long)out);
    if (cases[i].message != NULL)
      assert_string_equal(last_message, cases[i].message);
  }
}

/* The MaxClients report: "expected a number between 1 and 1e+06, got
 * 1e+06" for --MaxClients=1000001. */
static void cfg_get_u64__message_prints_integers(void **state) {
  (void)state;
  struct cfg_value v = {.type = CFG_STRING, .string = "1000001"};
  struct cfg_item item = item_of("MaxClients", &v, 1);
  uint64_t out;
  assert_int_equal(cfg_get_u64("test", &item, 1, 1000000, &out), -EINVAL);
  assert_string_equal(last_message,
                      "test: config: MaxClients: expected a number between 1 "
                      "and 1000000, got 1000001");
  struct cfg_value n = {.type = CFG_NUMBER, .number = 1000001};
  item = item_of("MaxClients", &n, 1);
  assert_int_equal(cfg_get_u64("test", &item, 1, 1000000, &out), -EINVAL);
  assert_string_equal(last_message,
                      "test: config: MaxClients: expected a number between 1 "
                      "and 1000000, got 1000001");
}

/* collectd numbers are doubles: accepted when whole and at most 2^53. */
static void cfg_get_u64__collectd_numbers(void **state) {
  (void)state;
  struct cfg_value n = {.type = CFG_NUMBER, .number = 9007199254740992.0};
  struct cfg_item item = item_of("Config", &n, 1);
  uint64_t out = 42;
  assert_int_equal(cfg_get_u64("test", &item, 0, UINT64_MAX, &out), 0);
  assert_true(out == 9007199254740992ull);
  out = 42;
  n.number = 9007199254740994.0; /* what 9007199254740993 becomes */
  assert_int_equal(cfg_get_u64("test", &item, 0, UINT64_MAX, &out), -EINVAL);
  assert_string_equal(last_message,
                      "test: config: Config: 9007199254740994 is above 2^53, "
                      "where collectd's numbers (doubles) cannot hold every "
                      "integer; write it as a string, in quotes");
  n.number = 1e300;
  assert_int_equal(cfg_get_u64("test", &item, 0, UINT64_MAX, &out), -EINVAL);
  n.number = 2.5;
  assert_int_equal(cfg_get_u64("test", &item, 0, UINT64_MAX, &out), -EINVAL);
  assert_string_equal(last_message,
                      "test: config: Config: expected a non-negative whole "
                      "number, got 2.5");
  n.number = -1;
  assert_int_equal(cfg_get_u64("test", &item, 0, UINT64_MAX, &out), -EINVAL);
  assert_string_equal(last_message,
                      "test: config: Config: expected a non-negative whole "
                      "number, got -1");
  n.number = NAN;
  assert_int_equal(cfg_get_u64("test", &item, 0, UINT64_MAX, &out), -EINVAL);
  assert_true(out == 42);
  struct cfg_value b = {.type = CFG_BOOLEAN, .boolean = true};
  item = item_of("Config", &b, 1);
  assert_int_equal(cfg_get_u64("test", &item, 0, 9, &out), -EINVAL);
  assert_string_equal(last_message, "test: config: Config: expected a number");
}

/* Integers have no decimal separator: a comma locale changes nothing. */
static void cfg_get_u64__comma_locale(void **state) {
  (void)state;
  if (comma_locale_set() == NULL)
    skip();
  struct cfg_value v = {.type = CFG_STRING, .string = "1,5"};
  struct cfg_item item = item_of("Config", &v, 1);
  uint64_t out = 42;
  assert_int_equal(cfg_get_u64("test", &item, 0, UINT64_MAX, &out), -EINVAL);
  v.string = "2.50e1";
  assert_int_equal(cfg_get_u64("test", &item, 0, UINT64_MAX, &out), 0);
  assert_int_equal(out, 25);
  v.string = "0xAb";
  assert_int_equal(cfg_get_u64("test", &item, 0, UINT64_MAX, &out), 0);
  assert_int_equal(out, 171);
  v.string = "10";
  assert_int_equal(cfg_get_u64("test", &item, 0, 5, &out), -EINVAL);
  assert_string_equal(last_message,
                      "test: config: Config: expected a number between 0 "
                      "and 5, got 10");
  struct cfg_value d = {.type = CFG_STRING, .string = "100.5"};
  item = item_of("Interval", &d, 1);
  double x;
  assert_int_equal(cfg_get_double("test", &item, 0.5, 100, &x), -EINVAL);
  assert_string_equal(last_message,
                      "test: config: Interval: expected a number between "
                      "0.5 and 100, got 100.5");
}

/* Since 2^64 - 1 is now read exactly, the top of the range is accepted
 * (through a double it was 2^64 and had to be refused). */
static void cfg_get_u64__top_of_range(void **state) {
  (void)state;
  struct cfg_value v = {.type = CFG_STRING, .string = "18446744073709551615"};
  struct cfg_item item = item_of("Big", &v, 1);
  uint64_t out = 5;
  assert_int_equal(cfg_get_u64("test", &item, 0, UINT64_MAX, &out), 0);
  assert_true(out == UINT64_MAX);
  v.string = "18446744073709549568";
  assert_int_equal(cfg_get_u64("test", &item, 0, UINT64_MAX, &out), 0);
  assert_true(out == 18446744073709549568ull);
  v.string = "18446744073709551614";
  assert_int_equal(cfg_get_u64("test", &item, 0, UINT64_MAX - 1, &out), 0);
  assert_true(out == UINT64_MAX - 1);
  v.string = "18446744073709551615";
  out = 5;
  assert_int_equal(cfg_get_u64("test", &item, 0, UINT64_MAX - 1, &out),
                   -EINVAL);
  assert_int_equal(out, 5);
}

/* Range errors print the bounds and the value without rounding. */
static void cfg_get_double__range_message(void **state) {
  (void)state;
  struct cfg_value v = {.type = CFG_STRING, .string = "1000001"};
  struct cfg_item item = item_of("Window", &v, 1);
  double out;
  assert_int_equal(cfg_get_double("test", &item, 0, 1000000, &out), -EINVAL);
  assert_string_equal(last_message,
                      "test: config: Window: expected a number between 0 and "
                      "1000000, got 1000001");
  struct cfg_value n = {.type = CFG_NUMBER, .number = 0.1};
  item = item_of("Window", &n, 1);
  assert_int_equal(cfg_get_double("test", &item, 0.25, 31622400, &out),
                   -EINVAL);
  assert_string_equal(last_message,
                      "test: config: Window: expected a number between 0.25 "
                      "and 31622400, got 0.1");
}

static void cfg_get_bool__spellings(void **state) {
  (void)state;
  static const char *const truths[] = {"true", "Yes", "ON", "1"};
  static const char *const lies[] = {"false", "no", "Off", "0"};
  for (size_t i = 0; i < 4; i++) {
    bool out = false;
    struct cfg_value v = {.type = CFG_STRING, .string = truths[i]};
    struct cfg_item item = item_of("X", &v, 1);
    assert_int_equal(cfg_get_bool("test", &item, &out), 0);
    assert_true(out);
    v.string = lies[i];
    assert_int_equal(cfg_get_bool("test", &item, &out), 0);
    assert_false(out);
  }
  bool out = true;
  struct cfg_value v = {.type = CFG_STRING, .string = "maybe"};
  struct cfg_item item = item_of("X", &v, 1);
  assert_int_equal(cfg_get_bool("test", &item, &out), -EINVAL);
  assert_true(out); /* untouched */
  assert_string_equal(last_message,
                      "test: config: X: expected true or false, got \"maybe\"");
  assert_int_equal(last_level, LOG_LEVEL_ERROR);
  struct cfg_value b = {.type = CFG_BOOLEAN, .boolean = false};
  item = item_of("X", &b, 1);
  assert_int_equal(cfg_get_bool("test", &item, &out), 0);
  assert_false(out);
  struct cfg_value n = {.type = CFG_NUMBER, .number = 1};
  item = item_of("X", &n, 1);
  assert_int_equal(cfg_get_bool("test", &item, &out), -EINVAL);
  assert_string_equal(last_message, "test: config: X: expected true or false");
}

static void cfg_get_string__value_count(void **state) {
  (void)state;
  struct cfg_value two[2] = {{.type = CFG_STRING, .string = "a"},
                             {.type = CFG_STRING, .string = "b"}};
  struct cfg_item item = item_of("ProcRoot", two, 2);
  const char *out = NULL;
  assert_int_equal(cfg_get_string("test", &item, &out), -EINVAL);
  assert_string_equal(last_message,
                      "test: config: ProcRoot: expected exactly one value");
  item = item_of("ProcRoot", two, 0);
  assert_int_equal(cfg_get_string("test", &item, &out), -EINVAL);
  assert_null(out);
  item = item_of("ProcRoot", two, 1);
  assert_int_equal(cfg_get_string("test", &item, &out), 0);
  assert_ptr_equal(out, two[0].string); /* borrowed from the item */
  struct cfg_value n = {.type = CFG_NUMBER, .number = 1};
  item = item_of("ProcRoot", &n, 1);
  assert_int_equal(cfg_get_string("test", &item, &out), -EINVAL);
  assert_string_equal(last_message,
                      "test: config: ProcRoot: expected a string");
  assert_true(cfg_key_is(&item, "procroot"));
  assert_true(cfg_key_is(&item, "PROCROOT"));
  assert_false(cfg_key_is(&item, "ProcRoo"));
  assert_false(cfg_key_is(&item, "ProcRoots"));
  /* a number with its text (collectd's unquoted `Format 10`): the text */
  struct cfg_value ten = {.type = CFG_NUMBER, .number = 10, .string = "10"};
  item = item_of("Format", &ten, 1);
  assert_int_equal(cfg_get_string("test", &item, &out), 0);
  assert_ptr_equal(out, ten.string);
}

/* The text stored beside a number: ids in plain decimal, exact up to
 * 2^53; anything else round-trips. */
static void cfg_number_text__table(void **state) {
  (void)state;
  static const struct {
    double v;
    const char *text;
  } cases[] = {{1, "1"},
               {0, "0"},
               {-3, "-3"},
               {2147483647, "2147483647"},
               {9007199254740992.0, "9007199254740992"},
               {0.5, "0.5"},
               {1e300, "1e+300"}};
  char buf[40];
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    assert_int_equal(cfg_number_text(cases[i].v, buf, sizeof buf), 0);
    assert_string_equal(buf, cases[i].text);
  }
  assert_int_equal(cfg_number_text(NAN, buf, sizeof buf), -EINVAL);
  assert_int_equal(cfg_number_text(INFINITY, buf, sizeof buf), -EINVAL);
  assert_int_equal(cfg_number_text(123, buf, 3), -ERANGE);
}

/* A key with a child block is not a value, whatever its values say. */
static void cfg_getters__reject_child_blocks(void **state) {
  (void)state;
  struct cfg_value v = {.type = CFG_STRING, .string = "1"};
  struct cfg_item child = item_of("Inner", &v, 1);
  struct cfg_item item = item_of("Outer", &v, 1);
  item.children = &child;
  item.n_children = 1;
  const char *s;
  bool b;
  double d;
  uint64_t u;
  assert_int_equal(cfg_get_string("test", &item, &s), -EINVAL);
  assert_int_equal(cfg_get_bool("test", &item, &b), -EINVAL);
  assert_int_equal(cfg_get_double("test", &item, 0, 9, &d), -EINVAL);
  assert_int_equal(cfg_get_u64("test", &item, 0, 9, &u), -EINVAL);
  assert_string_equal(last_message,
                      "test: config: Outer: expected exactly one value");
}

static void cfg_unknown__message(void **state) {
  (void)state;
  struct cfg_item item = item_of("Colour", NULL, 0);
  assert_int_equal(cfg_unknown("drm_fdinfo", &item), -EINVAL);
  assert_string_equal(last_message,
                      "drm_fdinfo: config: Colour: unknown option");
  assert_int_equal(last_level, LOG_LEVEL_ERROR);
}

/* The array doubles when full (n a power of two) and is kept as it is
 * otherwise; 1,000 elements cost 11 reallocations and keep their values;
 * a size that would overflow is NULL. */
static void cfg_array_grow__doubles(void **state) {
  (void)state;
  int *arr = NULL;
  size_t moves = 0;
  for (size_t n = 0; n < 1000; n++) {
    int *grown = cfg_array_grow(arr, n, sizeof(*arr));
    assert_non_null(grown);
    bool full = n == 0 || (n & (n - 1)) == 0;
    if (!full)
      assert_ptr_equal(grown, arr); /* room: not touched */
    moves += full;
    arr = grown;
    arr[n] = (int)n;
  }
  assert_int_equal(moves, 11); /* 0, 1, 2, 4, ... 512 */
  for (size_t n = 0; n < 1000; n++)
    assert_int_equal(arr[n], (int)n);
  free(arr);
  assert_null(cfg_array_grow(NULL, (size_t)1 << 62, 16));
}

int main(void) {
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
  const struct CMUnitTest tests[] = {
      T(cfg_get_double__strings_and_numbers),
      T(cfg_parse_double__exact),
      T(cfg_parse_double__rejects),
      T(cfg_parse_double__comma_locale),
      T(cfg_get_u64__whole_numbers),
      T(cfg_get_u64__top_of_range),
      T(cfg_parse_u64__table),
      T(cfg_get_u64__strings_exact),
      T(cfg_get_u64__message_prints_integers),
      T(cfg_get_u64__collectd_numbers),
      T(cfg_get_u64__comma_locale),
      T(cfg_get_double__range_message),
      T(cfg_get_bool__spellings),
      T(cfg_get_string__value_count),
      T(cfg_number_text__table),
      T(cfg_getters__reject_child_blocks),
      T(cfg_unknown__message),
      cmocka_unit_test(cfg_array_grow__doubles),
  };
#undef T
  return cmocka_run_group_tests(tests, NULL, NULL);
}
