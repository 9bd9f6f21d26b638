/*
 * test_sink_influx.c: exact bytes of Influx lines, every escaping rule.
 */
#include "common/sink_influx.h"
#include "common/sink_line.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

static void sink_influx_format__escaping_table(void **state) {
  (void)state;
  static const struct {
    const char *measurement, *tag_value, *expected;
  } cases[] = {
      {"drm_engine", "glxgears", "drm_engine,comm=glxgears v=1i 7\n"},
      {"m x,y", "a b", "m\\ x\\,y,comm=a\\ b v=1i 7\n"},
      {"m", "a,b=c", "m,comm=a\\,b\\=c v=1i 7\n"},
      {"m", "quote\"d", "m,comm=quote\"d v=1i 7\n"},
      /* a trailing backslash would escape the separator: doubled */
      {"m", "back\\", "m,comm=back\\\\ v=1i 7\n"},
      {"m", "new\nline\ttab", "m,comm=new?line?tab v=1i 7\n"},
      {"m", "\xc3\x9f\xe6\xb8\xb2", "m,comm=\xc3\x9f\xe6\xb8\xb2 v=1i 7\n"},
      {"m", "", "m v=1i 7\n"}, /* empty tags are left out */
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    struct metric m;
    metric_init(&m, cases[i].measurement, 7);
    metric_add_tag(&m, "comm", cases[i].tag_value);
    metric_add_int(&m, "v", "derive", 1);
    char line[256];
    int n = sink_influx_format(&m, line, sizeof(line));
    assert_int_equal(n, strlen(cases[i].expected));
    assert_string_equal(line, cases[i].expected);
  }
}

static void sink_influx_format__fields(void **state) {
  (void)state;
  struct metric m;
  metric_init(&m, "m", 1700000000000000000ull);
  metric_add_tag(&m, "k=y", "v");
  metric_add_int(&m, "busy ns", "derive", UINT64_MAX); /* clamped */
  metric_add_float(&m, "u", "percent", 42.1);
  metric_add_float(&m, "w", "percent", 5.0);
  metric_add_float(&m, "nan", "percent", 0.0 / 0.0); /* skipped */
  char line[256];
  assert_true(sink_influx_format(&m, line, sizeof(line)) > 0);
  assert_string_equal(line, "m,k\\=y=v busy\\ ns=9223372036854775807i,"
                            "u=42.1,w=5.0 1700000000000000000\n");
}

static void sink_influx_format__errors(void **state) {
  (void)state;
  struct metric m;
  metric_init(&m, "m", 1);
  char line[16];
  assert_int_equal(sink_influx_format(&m, line, sizeof(line)), -EINVAL);
  metric_add_int(&m, "a_long_field_name", "derive", 1);
  assert_int_equal(sink_influx_format(&m, line, sizeof(line)), -E2BIG);
}

static void sink_influx__writes_and_flushes(void **state) {
  (void)state;
  char *text = NULL;
  size_t len = 0;
  FILE *out = open_memstream(&text, &len);
  struct sink_line s;
  sink_line_init(&s, out, sink_influx_format);
  struct metric m;
  metric_init(&m, "m", 2);
  char big[3000];
  memset(big, 'x', sizeof(big) - 1);
  big[sizeof(big) - 1] = '\0';
  metric_add_tag(&m, "t", big); /* longer than the first buffer */
  metric_add_int(&m, "v", "derive", 1);
  assert_int_equal(s.base.begin(&s.base), 0);
  assert_int_equal(s.base.write(&s.base, &m), 0);
  assert_int_equal(s.base.end(&s.base), 0);
  /* "m,t=" + the value + " v=1i" + " 2\n" */
  assert_int_equal(len, 4 + sizeof(big) - 1 + 5 + 3);
  sink_line_fini(&s);
  fclose(out);
  free(text);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(sink_influx_format__escaping_table),
      cmocka_unit_test(sink_influx_format__fields),
      cmocka_unit_test(sink_influx_format__errors),
      cmocka_unit_test(sink_influx__writes_and_flushes),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
