/*
 * test_sink_json.c: exact bytes of JSON lines through yajl.
 */
#include "common/sink_json.h"

#include <errno.h>
#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

static void sink_json_format__hostile_strings(void **state) {
  (void)state;
  static const struct {
    const char *value, *expected;
  } cases[] = {
      {"plain", "\"plain\""},
      {"q\"b\\s/", "\"q\\\"b\\\\s/\""},
      {"a,b=c d", "\"a,b=c d\""},
      {"\xc3\x9f\xe6\xb8\xb2", "\"\xc3\x9f\xe6\xb8\xb2\""},
      {"bad\xff byte", "\"bad? byte\""},
      {"nl\nx", "\"nl?x\""},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    struct metric m;
    metric_init(&m, "drm_engine", 5);
    metric_add_tag(&m, "comm", cases[i].value);
    metric_add_int(&m, "busy_ns", "derive", 3);
    char line[256], expected[256];
    snprintf(expected, sizeof(expected),
             "{\"name\":\"drm_engine\",\"time\":5,\"comm\":%s,"
             "\"busy_ns\":3}\n",
             cases[i].expected);
    int n = sink_json_format(&m, line, sizeof(line));
    assert_int_equal(n, strlen(expected));
    assert_string_equal(line, expected);
  }
}

static void sink_json_format__numbers(void **state) {
  (void)state;
  setlocale(LC_ALL, "de_DE.UTF-8"); /* if present: must not matter */
  struct metric m;
  metric_init(&m, "m", 1700000000123456789ull);
  metric_add_int(&m, "i", "derive", 9007199254740993ull);
  metric_add_float(&m, "f", "percent", 42.1);
  metric_add_float(&m, "g", "percent", 100.0);
  metric_add_float(&m, "h", "percent", 1e-7);
  char line[256];
  assert_true(sink_json_format(&m, line, sizeof(line)) > 0);
  assert_string_equal(line, "{\"name\":\"m\",\"time\":1700000000123456789,"
                            "\"i\":9007199254740993,\"f\":42.1,"
                            "\"g\":100.0,\"h\":1e-07}\n");
  setlocale(LC_ALL, "C");
}

static void sink_json_format__errors(void **state) {
  (void)state;
  struct metric m;
  metric_init(&m, "m", 1);
  char line[8];
  assert_int_equal(sink_json_format(&m, line, sizeof(line)), -EINVAL);
  metric_add_int(&m, "v", "derive", 1);
  assert_int_equal(sink_json_format(&m, line, sizeof(line)), -E2BIG);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(sink_json_format__hostile_strings),
      cmocka_unit_test(sink_json_format__numbers),
      cmocka_unit_test(sink_json_format__errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
