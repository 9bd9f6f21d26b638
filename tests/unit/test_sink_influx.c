/*
 * test_sink_influx.c: exact bytes of Influx lines, every escaping rule,
 * numbers, buffer bounds, and the line sink that writes them (sink_line).
 */
#include "common/sink/sink_influx.h"
#include "common/sink/sink_line.h"
#include "tests/lib/comma_locale.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static void sink_influx_format__escaping_table(void **state) {
  (void)state;
  static const struct {
    const char *measurement, *tag_value, *expected;
  } cases[] = {
      {"drm_engine", "glxgears", "drm_engine,comm=glxgears v=1i 7\n"},
      {"m x,y", "a b", "m\\ x\\,y,comm=a\\ b v=1i 7\n"},
      {"m", "a,b=c", "m,comm=a\\,b\\=c v=1i 7\n"},
      {"m", "quote\"d", "m,comm=quote\"d v=1i 7\n"},
      /* a trailing backslash would escape the separator: '?' */
      {"m", "back\\", "m,comm=back? v=1i 7\n"},
      /* any other backslash is written once: readers keep it as one */
      {"m", "a\\b", "m,comm=a\\b v=1i 7\n"},
      {"m", "new\nline\ttab", "m,comm=new?line?tab v=1i 7\n"},
      {"m", "\xc3\x9f\xe6\xb8\xb2", "m,comm=\xc3\x9f\xe6\xb8\xb2 v=1i 7\n"},
      {"m", "", "m v=1i 7\n"}, /* empty tags are left out */
  };
  for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
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

/* Process names as hostile as a process can make them, in every position
 * of the line: measurement, tag key, tag value, field key. */
static void sink_influx_format__hostile_names(void **state) {
  (void)state;
  static const struct {
    const char *measurement, *tag_key, *tag_value, *field_key, *expected;
  } cases[] = {
      {"m", "comm", "a,b", "v", "m,comm=a\\,b v=1i 7\n"},
      {"m", "comm", "a=b", "v", "m,comm=a\\=b v=1i 7\n"},
      {"m", "comm", "a b", "v", "m,comm=a\\ b v=1i 7\n"},
      {"m", "comm", "=", "v", "m,comm=\\= v=1i 7\n"},
      {"m", "comm", "say \"hi\"", "v", "m,comm=say\\ \"hi\" v=1i 7\n"},
      {"m", "comm", "c:\\dir\\x", "v", "m,comm=c:\\dir\\x v=1i 7\n"},
      {"m", "comm", "trail\\", "v", "m,comm=trail? v=1i 7\n"},
      {"m", "comm", "two\\\\", "v", "m,comm=two\\? v=1i 7\n"},
      {"m", "comm", "\\\\x", "v", "m,comm=\\\\x v=1i 7\n"},
      /* a backslash before a separator or '"' cannot be carried: '?' */
      {"m", "comm", "\\ ", "v", "m,comm=?\\  v=1i 7\n"},
      {"m", "comm", "\\,", "v", "m,comm=?\\, v=1i 7\n"},
      {"m", "comm", "a\\=b", "v", "m,comm=a?\\=b v=1i 7\n"},
      {"m", "comm", "q\\\"", "v", "m,comm=q?\" v=1i 7\n"},
      {"m", "comm", "\\\\,", "v", "m,comm=\\?\\, v=1i 7\n"},
      {"m", "comm", "\\\n", "v", "m,comm=\\? v=1i 7\n"},
      /* leading space, tab, control bytes, leading '=' */
      {"m", "comm", " lead", "v", "m,comm=\\ lead v=1i 7\n"},
      {"m", "comm", "\x01\x1f", "v", "m,comm=?? v=1i 7\n"},
      {"m", "comm", "line\nbreak", "v", "m,comm=line?break v=1i 7\n"},
      {"m", "comm", "cr\r", "v", "m,comm=cr? v=1i 7\n"},
      {"m", "comm", "esc\x1b[31m", "v", "m,comm=esc?[31m v=1i 7\n"},
      {"m", "comm", "del\x7f", "v", "m,comm=del? v=1i 7\n"},
      {"m", "comm", "\xc3\x9f\xe6\xb8\xb2\xe6\x9f\x93", "v",
       "m,comm=\xc3\x9f\xe6\xb8\xb2\xe6\x9f\x93 v=1i 7\n"},
      /* not UTF-8, C1 controls: '?' (text.h's rule), also in keys built
       * from directory listings */
      {"m", "comm", "bad\xff", "v", "m,comm=bad? v=1i 7\n"},
      {"m", "comm",
       "a\xc2\x9b"
       "2Jb",
       "v", "m,comm=a?2Jb v=1i 7\n"},
      {"m", "comm", "nel\xc2\x85", "v", "m,comm=nel? v=1i 7\n"},
      {"m", "t", "x", "reason_\xff\xfe",
       "m,t=x reason_?"
       "?=1i 7\n"},
      {"m", "t", "x", "reason_\xc2\x9b", "m,t=x reason_?=1i 7\n"},
      {"m", "comm", "#not a comment", "v",
       "m,comm=#not\\ a\\ comment v=1i 7\n"},
      /* measurement: ',' and ' ' escaped, '=' is not special there */
      {"m=1", "t", "x", "v", "m=1,t=x v=1i 7\n"},
      {"m\\", "t", "x", "v", "m?,t=x v=1i 7\n"},
      {"m\\=", "t", "x", "v", "m?=,t=x v=1i 7\n"},
      {"a\tb", "t", "x", "v", "a?b,t=x v=1i 7\n"},
      /* tag keys and field keys escape ',', '=' and ' ' */
      {"m", "k=y", "x", "v", "m,k\\=y=x v=1i 7\n"},
      {"m", "k y,z", "x", "v", "m,k\\ y\\,z=x v=1i 7\n"},
      {"m", "t", "x", "busy ns", "m,t=x busy\\ ns=1i 7\n"},
      {"m", "t", "x", "a=b,c", "m,t=x a\\=b\\,c=1i 7\n"},
      {"m", "t", "x", "a\nb\\", "m,t=x a?b?=1i 7\n"},
      {"m", "t\\", "x\\y", "k\\z", "m,t?=x\\y k\\z=1i 7\n"},
  };
  for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
    struct metric m;
    metric_init(&m, cases[i].measurement, 7);
    metric_add_tag(&m, cases[i].tag_key, cases[i].tag_value);
    metric_add_int(&m, cases[i].field_key, "derive", 1);
    char line[256];
    int n = sink_influx_format(&m, line, sizeof(line));
    if (n != (int)strlen(cases[i].expected) ||
        strcmp(line, cases[i].expected) != 0)
      fail_msg("case %zu: got %d \"%s\", expected \"%s\"", i, n,
               n < 0 ? "" : line, cases[i].expected);
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

static void sink_influx_format__tags_and_fields_in_record_order(void **state) {
  (void)state;
  struct metric m;
  metric_init(&m, "drm_engine", 1);
  metric_add_tag(&m, "scope", "process");
  metric_add_tag(&m, "device", "0000:00:02.0");
  metric_add_tag(&m, "comm", "glxgears");
  metric_add_tag(&m, "pid", "4242");
  metric_add_float(&m, "utilization", "percent", 12.5);
  metric_add_int(&m, "busy_ns", "derive", 123456789);
  metric_add_int(&m, "clients", "count", 0);
  char line[256];
  int n = sink_influx_format(&m, line, sizeof(line));
  static const char expected[] =
      "drm_engine,scope=process,device=0000:00:02.0,comm=glxgears,pid=4242 "
      "utilization=12.5,busy_ns=123456789i,clients=0i 1\n";
  assert_int_equal(n, sizeof(expected) - 1);
  assert_string_equal(line, expected);
}

static const struct {
  enum metric_kind kind;
  int64_t i;
  double f;
  const char *text;
} number_cases[] = {
    {METRIC_INT, 0, 0, "0i"},
    {METRIC_INT, INT64_MAX, 0, "9223372036854775807i"},
    {METRIC_INT, INT64_MIN, 0, "-9223372036854775808i"},
    {METRIC_FLOAT, 0, 0.0, "0.0"},
    {METRIC_FLOAT, 0, -0.0, "-0.0"},
    {METRIC_FLOAT, 0, 100.0, "100.0"},
    {METRIC_FLOAT, 0, 42.5, "42.5"},
    {METRIC_FLOAT, 0, 0.1 + 0.2, "0.30000000000000004"},
    {METRIC_FLOAT, 0, 1e22, "1e+22"},
    {METRIC_FLOAT, 0, -1e-7, "-1e-07"},
};

static void check_number_cases(void) {
  for (size_t i = 0; i < ARRAY_SIZE(number_cases); i++) {
    struct metric m;
    metric_init(&m, "m", 3);
    /* set directly: metric_add_int cannot make negative numbers */
    m.n_fields = 1;
    m.fields[0] = (struct metric_field){.key = "v",
                                        .ctype = "gauge",
                                        .kind = number_cases[i].kind,
                                        .v.i = number_cases[i].i};
    if (number_cases[i].kind == METRIC_FLOAT)
      m.fields[0].v.f = number_cases[i].f;
    char line[64], expected[64];
    snprintf(expected, sizeof(expected), "m v=%s 3\n", number_cases[i].text);
    int n = sink_influx_format(&m, line, sizeof(line));
    if (n != (int)strlen(expected) || strcmp(line, expected) != 0)
      fail_msg("case %zu: got %d \"%s\", expected \"%s\"", i, n,
               n < 0 ? "" : line, expected);
  }
}

static void sink_influx_format__numbers(void **state) {
  (void)state;
  check_number_cases();
}

static void sink_influx_format__numbers_in_comma_locale(void **state) {
  (void)state;
  if (comma_locale_set() == NULL)
    skip();
  check_number_cases();
}

static int reset_locale(void **state) {
  (void)state;
  comma_locale_reset();
  return 0;
}

static void sink_influx_format__timestamps(void **state) {
  (void)state;
  struct metric m;
  metric_init(&m, "m", 0);
  metric_add_int(&m, "v", "derive", 1);
  char line[64];
  assert_int_equal(sink_influx_format(&m, line, sizeof(line)), 9);
  assert_string_equal(line, "m v=1i 0\n");
  m.time_ns = UINT64_MAX;
  assert_int_equal(sink_influx_format(&m, line, sizeof(line)), 28);
  assert_string_equal(line, "m v=1i 18446744073709551615\n");
}

static void sink_influx_format__errors(void **state) {
  (void)state;
  struct metric m;
  metric_init(&m, "m", 1);
  char line[16];
  assert_int_equal(sink_influx_format(&m, line, sizeof(line)), -EINVAL);
  metric_add_tag(&m, "t", "only tags");
  assert_int_equal(sink_influx_format(&m, line, sizeof(line)), -EINVAL);
  metric_add_int(&m, "a_long_field_name", "derive", 1);
  assert_int_equal(sink_influx_format(&m, line, sizeof(line)), -E2BIG);
  /* a non-finite float stored behind metric_add_float's back */
  metric_init(&m, "m", 1);
  m.n_fields = 1;
  m.fields[0] = (struct metric_field){
      .key = "f", .ctype = "percent", .kind = METRIC_FLOAT, .v.f = NAN};
  assert_int_equal(sink_influx_format(&m, line, sizeof(line)), -EINVAL);
  m.fields[0].v.f = -INFINITY;
  assert_int_equal(sink_influx_format(&m, line, sizeof(line)), -EINVAL);
}

/* Every size below length + 1 is -E2BIG; length + 1 (the NUL) fits. */
static void sink_influx_format__every_buffer_size(void **state) {
  (void)state;
  struct metric m;
  metric_init(&m, "drm_engine", 1700000000000000000ull);
  metric_add_tag(&m, "comm", "a b\\\\c\\");
  metric_add_float(&m, "utilization", "percent", 0.1 + 0.2);
  metric_add_int(&m, "busy_ns", "derive", 42);
  static const char expected[] = "drm_engine,comm=a\\ b\\\\c? "
                                 "utilization=0.30000000000000004,"
                                 "busy_ns=42i 1700000000000000000\n";
  char line[sizeof(expected) + 8];
  for (size_t size = 0; size < sizeof(expected); size++)
    if (sink_influx_format(&m, line, size) != -E2BIG)
      fail_msg("size %zu: expected -E2BIG", size);
  memset(line, 'x', sizeof(line));
  assert_int_equal(sink_influx_format(&m, line, sizeof(expected)),
                   sizeof(expected) - 1);
  assert_string_equal(line, expected);
  assert_int_equal(line[sizeof(expected)], 'x'); /* nothing written past */
}

/* A record as wide as the coming i915_oa plugin's: 12 tags, 100 fields
 * (the old caps were 8 and 12), byte for byte. */
static void sink_influx_format__100_fields(void **state) {
  (void)state;
  static char keys[112][8];
  struct metric m;
  metric_init(&m, "i915_oa", 1700000000000000000ull);
  char expected[4096] = "i915_oa";
  size_t len = strlen(expected);
  for (int i = 0; i < 12; i++) {
    snprintf(keys[100 + i], sizeof(keys[0]), "t%d", i);
    assert_int_equal(metric_add_tag(&m, keys[100 + i], keys[100 + i]), 0);
    len += (size_t)snprintf(expected + len, sizeof(expected) - len, ",t%d=t%d",
                            i, i);
  }
  for (int i = 0; i < 100; i++) {
    snprintf(keys[i], sizeof(keys[0]), "a%d", i);
    int rc = i % 2 ? metric_add_float(&m, keys[i], "gauge", i + 0.5)
                   : metric_add_int(&m, keys[i], "derive", (uint64_t)i * 3);
    assert_int_equal(rc, 0);
    len += (size_t)(i % 2 ? snprintf(expected + len, sizeof(expected) - len,
                                     ",a%d=%d.5", i, i)
                          : snprintf(expected + len, sizeof(expected) - len,
                                     "%sa%d=%di", i ? "," : " ", i, i * 3));
  }
  len += (size_t)snprintf(expected + len, sizeof(expected) - len,
                          " 1700000000000000000\n");
  assert_false(metric_overflowed(&m));
  char line[4096];
  assert_int_equal(sink_influx_format(&m, line, sizeof(line)), (int)len);
  assert_string_equal(line, expected);
}

static void sink_line__writes_and_flushes(void **state) {
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

/* Telegraf execd reads a pipe: nothing may sit in stdio's buffer after
 * end(), even though a pipe is fully buffered. */
static void sink_line__end_flushes_a_pipe(void **state) {
  (void)state;
  int fds[2];
  assert_int_equal(pipe(fds), 0);
  assert_int_equal(fcntl(fds[0], F_SETFL, O_NONBLOCK), 0);
  FILE *out = fdopen(fds[1], "w");
  assert_non_null(out);
  assert_int_equal(setvbuf(out, NULL, _IOFBF, 65536), 0);
  struct sink_line s;
  sink_line_init(&s, out, sink_influx_format);
  struct metric m;
  metric_init(&m, "m", 9);
  metric_add_int(&m, "v", "count", 3);
  char got[64];
  assert_int_equal(s.base.begin(&s.base), 0);
  assert_int_equal(s.base.write(&s.base, &m), 0);
  assert_int_equal(s.base.write(&s.base, &m), 0);
  assert_int_equal(read(fds[0], got, sizeof(got)), -1); /* still buffered */
  assert_int_equal(s.base.end(&s.base), 0);
  ssize_t n = read(fds[0], got, sizeof(got));
  assert_int_equal(n, 18);
  assert_memory_equal(got, "m v=3i 9\nm v=3i 9\n", 18);
  sink_line_fini(&s);
  fclose(out);
  close(fds[0]);
}

static void sink_line__errors(void **state) {
  (void)state;
  char *text = NULL;
  size_t len = 0;
  FILE *out = open_memstream(&text, &len);
  struct sink_line s;
  sink_line_init(&s, out, sink_influx_format);
  struct metric m;
  metric_init(&m, "m", 2);
  assert_int_equal(s.base.write(&s.base, &m), -EINVAL); /* no field */
  size_t huge_len = (size_t)2 << 20;                    /* above 1 MiB */
  char *huge = malloc(huge_len + 1);
  assert_non_null(huge);
  memset(huge, 'h', huge_len);
  huge[huge_len] = '\0';
  metric_add_tag(&m, "t", huge);
  metric_add_int(&m, "v", "derive", 1);
  assert_int_equal(s.base.write(&s.base, &m), -E2BIG);
  assert_int_equal(s.base.end(&s.base), 0);
  assert_int_equal(len, 0); /* nothing half-written */
  free(huge);
  sink_line_fini(&s);
  assert_null(s.buf);
  fclose(out);
  free(text);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(sink_influx_format__escaping_table),
      cmocka_unit_test(sink_influx_format__hostile_names),
      cmocka_unit_test(sink_influx_format__fields),
      cmocka_unit_test(sink_influx_format__tags_and_fields_in_record_order),
      cmocka_unit_test(sink_influx_format__numbers),
      cmocka_unit_test_teardown(sink_influx_format__numbers_in_comma_locale,
                                reset_locale),
      cmocka_unit_test(sink_influx_format__timestamps),
      cmocka_unit_test(sink_influx_format__errors),
      cmocka_unit_test(sink_influx_format__every_buffer_size),
      cmocka_unit_test(sink_influx_format__100_fields),
      cmocka_unit_test(sink_line__writes_and_flushes),
      cmocka_unit_test(sink_line__end_flushes_a_pipe),
      cmocka_unit_test(sink_line__errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
