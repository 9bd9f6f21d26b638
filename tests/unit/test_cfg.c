/*
 * test_cfg.c: typed config getters, as both hosts feed them (collectd:
 * typed values; exec: strings).
 */
#include "common/cfg.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

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
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    struct cfg_value v = {.type = CFG_STRING, .string = cases[i].text};
    struct cfg_item item = item_of("Interval", &v, 1);
    double out = -7;
    int rc = cfg_get_double("test", &item, 0, 100, &out);
    if (rc != cases[i].rc || (rc == 0 && out != cases[i].value))
      fail_msg("case \"%s\": rc %d value %g", cases[i].text, rc, out);
  }
  struct cfg_value n = {.type = CFG_NUMBER, .number = 3.5};
  struct cfg_item item = item_of("Interval", &n, 1);
  double out;
  assert_int_equal(cfg_get_double("test", &item, 0, 100, &out), 0);
  assert_true(out == 3.5);
  struct cfg_value b = {.type = CFG_BOOLEAN, .boolean = true};
  item = item_of("Interval", &b, 1);
  assert_int_equal(cfg_get_double("test", &item, 0, 100, &out), -EINVAL);
}

static void cfg_get_u64__whole_numbers(void **state) {
  (void)state;
  struct cfg_value v = {.type = CFG_STRING, .string = "2.5"};
  struct cfg_item item = item_of("MaxClients", &v, 1);
  uint64_t out = 0;
  assert_int_equal(cfg_get_u64("test", &item, 1, 10, &out), -EINVAL);
  v.string = "7";
  assert_int_equal(cfg_get_u64("test", &item, 1, 10, &out), 0);
  assert_int_equal(out, 7);
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
  bool out;
  struct cfg_value v = {.type = CFG_STRING, .string = "maybe"};
  struct cfg_item item = item_of("X", &v, 1);
  assert_int_equal(cfg_get_bool("test", &item, &out), -EINVAL);
  struct cfg_value b = {.type = CFG_BOOLEAN, .boolean = true};
  item = item_of("X", &b, 1);
  assert_int_equal(cfg_get_bool("test", &item, &out), 0);
  assert_true(out);
}

static void cfg_get_string__value_count(void **state) {
  (void)state;
  struct cfg_value two[2] = {{.type = CFG_STRING, .string = "a"},
                             {.type = CFG_STRING, .string = "b"}};
  struct cfg_item item = item_of("ProcRoot", two, 2);
  const char *out = NULL;
  assert_int_equal(cfg_get_string("test", &item, &out), -EINVAL);
  item = item_of("ProcRoot", two, 0);
  assert_int_equal(cfg_get_string("test", &item, &out), -EINVAL);
  item = item_of("ProcRoot", two, 1);
  assert_int_equal(cfg_get_string("test", &item, &out), 0);
  assert_string_equal(out, "a");
  struct cfg_value n = {.type = CFG_NUMBER, .number = 1};
  item = item_of("ProcRoot", &n, 1);
  assert_int_equal(cfg_get_string("test", &item, &out), -EINVAL);
  assert_true(cfg_key_is(&item, "procroot"));
  assert_false(cfg_key_is(&item, "ProcRoo"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(cfg_get_double__strings_and_numbers),
      cmocka_unit_test(cfg_get_u64__whole_numbers),
      cmocka_unit_test(cfg_get_bool__spellings),
      cmocka_unit_test(cfg_get_string__value_count),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
