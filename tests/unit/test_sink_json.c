/*
 * test_sink_json.c: exact bytes of JSON lines through yajl, hostile
 * strings (which must always give valid JSON), numbers in any locale and
 * buffer bounds. Every hostile line is also parsed back with yajl_tree.
 */
#include "common/sink/sink_json.h"
#include "common/sink/sink_line.h"
#include "tests/lib/comma_locale.h"

#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_tree.h>

#include <cmocka.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Parse `line` (without its '\n') and return the string under `key`, in a
 * static buffer; fails the test when the line is not one JSON object. */
static const char *parsed_string(const char *line, const char *key) {
  static char value[4096];
  char text[8192], err[256];
  size_t len = strlen(line);
  assert_true(len > 0 && len < sizeof(text) && line[len - 1] == '\n');
  memcpy(text, line, len - 1);
  text[len - 1] = '\0';
  yajl_val tree = yajl_tree_parse(text, err, sizeof(err));
  if (tree == NULL)
    fail_msg("not JSON (%s): %s", err, text);
  assert_true(YAJL_IS_OBJECT(tree));
  const char *path[] = {key, NULL};
  yajl_val v = yajl_tree_get(tree, path, yajl_t_string);
  assert_non_null(v);
  snprintf(value, sizeof(value), "%s", YAJL_GET_STRING(v));
  yajl_tree_free(tree);
  return value;
}

static void sink_json_format__hostile_strings(void **state) {
  (void)state;
  static const struct {
    const char *value, *expected, *parsed;
  } cases[] = {
      {"plain", "\"plain\"", "plain"},
      {"q\"b\\s/", "\"q\\\"b\\\\s/\"", "q\"b\\s/"},
      {"a,b=c d", "\"a,b=c d\"", "a,b=c d"},
      {"trail\\", "\"trail\\\\\"", "trail\\"},
      {"\xc3\x9f\xe6\xb8\xb2\xe6\x9f\x93",
       "\"\xc3\x9f\xe6\xb8\xb2\xe6\x9f\x93\"",
       "\xc3\x9f\xe6\xb8\xb2\xe6\x9f\x93"},
      /* control characters become '?', as in the Influx line */
      {"nl\nx", "\"nl?x\"", "nl?x"},
      {"cr\r tab\t", "\"cr? tab?\"", "cr? tab?"},
      {"esc\x1b[0m del\x7f", "\"esc?[0m del?\"", "esc?[0m del?"},
      /* not UTF-8: each bad byte becomes '?' */
      {"bad\xff byte", "\"bad? byte\"", "bad? byte"},
      {"overlong\xc0\xaf", "\"overlong??\"", "overlong??"},
      {"surrogate\xed\xa0\x80", "\"surrogate???\"", "surrogate???"},
      {"cut\xe6\xb8", "\"cut??\"", "cut??"},
      {"\x80lone", "\"?lone\"", "?lone"},
      /* spaces are valid: kept, trailing ones too (Influx keeps them) */
      {"two  ", "\"two  \"", "two  "},
      {"\xff  ", "\"?  \"", "?  "},
      {"   ", "\"   \"", "   "},
  };
  for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
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
    if (n != (int)strlen(expected) || strcmp(line, expected) != 0)
      fail_msg("case %zu: got %d %s", i, n, n < 0 ? "" : line);
    assert_string_equal(parsed_string(line, "comm"), cases[i].parsed);
  }
}

static void sink_json_format__hostile_keys_and_measurement(void **state) {
  (void)state;
  struct metric m;
  metric_init(&m, "drm \"engine\"\n", 5);
  metric_add_tag(&m, "k\\y", "v");
  metric_add_int(&m, "a\x01", "derive", 3);
  char line[256];
  int n = sink_json_format(&m, line, sizeof(line));
  static const char expected[] =
      "{\"name\":\"drm \\\"engine\\\"?\",\"time\":5,\"k\\\\y\":\"v\","
      "\"a?\":3}\n";
  assert_int_equal(n, sizeof(expected) - 1);
  assert_string_equal(line, expected);
  assert_string_equal(parsed_string(line, "name"), "drm \"engine\"?");
}

/* Strings of any length are sanitised (a fixed-size scratch buffer once
 * let long invalid strings through to yajl unchanged: invalid JSON). */
static void sink_json_format__long_invalid_string(void **state) {
  (void)state;
  static const size_t lengths[] = {255, 256, 1023, 1024, 3000};
  for (size_t k = 0; k < ARRAY_SIZE(lengths); k++) {
    size_t len = lengths[k];
    char *value = malloc(len + 1);
    assert_non_null(value);
    memset(value, 'x', len);
    value[len - 2] = '\xff';
    value[len - 1] = '\n';
    value[len] = '\0';
    struct metric m;
    metric_init(&m, "m", 1);
    metric_add_tag(&m, "comm", value);
    metric_add_int(&m, "v", "derive", 1);
    char line[4096];
    int n = sink_json_format(&m, line, sizeof(line));
    assert_int_equal(n, 29 + len + 9);
    value[len - 2] = value[len - 1] = '?';
    assert_memory_equal(line, "{\"name\":\"m\",\"time\":1,\"comm\":\"", 29);
    assert_memory_equal(line + 29, value, len);
    assert_string_equal(line + 29 + len, "\",\"v\":1}\n");
    assert_string_equal(parsed_string(line, "comm"), value);
    free(value);
  }
}

static void check_numbers(void) {
  struct metric m;
  metric_init(&m, "m", 1700000000123456789ull);
  metric_add_int(&m, "i", "derive", 9007199254740993ull);
  metric_add_float(&m, "f", "percent", 42.1);
  metric_add_float(&m, "g", "percent", 100.0);
  metric_add_float(&m, "h", "percent", 1e-7);
  metric_add_float(&m, "z", "percent", -0.0);
  metric_add_float(&m, "s", "percent", 0.1 + 0.2);
  metric_add_float(&m, "e", "percent", 1e22);
  m.fields[m.n_fields++] = (struct metric_field){
      .key = "min", .ctype = "gauge", .kind = METRIC_INT, .v.i = INT64_MIN};
  char line[256];
  assert_true(sink_json_format(&m, line, sizeof(line)) > 0);
  assert_string_equal(line, "{\"name\":\"m\",\"time\":1700000000123456789,"
                            "\"i\":9007199254740993,\"f\":42.1,"
                            "\"g\":100.0,\"h\":1e-07,\"z\":-0.0,"
                            "\"s\":0.30000000000000004,\"e\":1e+22,"
                            "\"min\":-9223372036854775808}\n");
}

static void sink_json_format__numbers(void **state) {
  (void)state;
  check_numbers();
}

static void sink_json_format__numbers_in_comma_locale(void **state) {
  (void)state;
  if (comma_locale_set() == NULL)
    skip();
  check_numbers();
}

static int reset_locale(void **state) {
  (void)state;
  comma_locale_reset();
  return 0;
}

static void sink_json_format__timestamps(void **state) {
  (void)state;
  struct metric m;
  metric_init(&m, "m", 0);
  metric_add_int(&m, "v", "derive", 1);
  char line[80];
  assert_int_equal(sink_json_format(&m, line, sizeof(line)), 28);
  assert_string_equal(line, "{\"name\":\"m\",\"time\":0,\"v\":1}\n");
  m.time_ns = UINT64_MAX;
  assert_true(sink_json_format(&m, line, sizeof(line)) > 0);
  assert_string_equal(
      line, "{\"name\":\"m\",\"time\":18446744073709551615,\"v\":1}\n");
}

static void sink_json_format__errors(void **state) {
  (void)state;
  struct metric m;
  metric_init(&m, "m", 1);
  char line[8];
  assert_int_equal(sink_json_format(&m, line, sizeof(line)), -EINVAL);
  metric_add_int(&m, "v", "derive", 1);
  assert_int_equal(sink_json_format(&m, line, sizeof(line)), -E2BIG);
  char big[64];
  metric_init(&m, "m", 1);
  m.n_fields = 1;
  m.fields[0] = (struct metric_field){
      .key = "f", .ctype = "percent", .kind = METRIC_FLOAT, .v.f = NAN};
  assert_int_equal(sink_json_format(&m, big, sizeof(big)), -EINVAL);
  m.fields[0].v.f = INFINITY;
  assert_int_equal(sink_json_format(&m, big, sizeof(big)), -EINVAL);
}

/* Every size below length + 1 is -E2BIG and leaves `out` alone. */
static void sink_json_format__every_buffer_size(void **state) {
  (void)state;
  struct metric m;
  metric_init(&m, "drm_engine", 7);
  metric_add_tag(&m, "comm", "a\"b");
  metric_add_float(&m, "utilization", "percent", 12.5);
  static const char expected[] = "{\"name\":\"drm_engine\",\"time\":7,"
                                 "\"comm\":\"a\\\"b\",\"utilization\":12.5}\n";
  char line[sizeof(expected) + 8];
  for (size_t size = 0; size < sizeof(expected); size++) {
    memset(line, 'x', sizeof(line));
    if (sink_json_format(&m, line, size) != -E2BIG || line[0] != 'x')
      fail_msg("size %zu: expected -E2BIG and no output", size);
  }
  assert_int_equal(sink_json_format(&m, line, sizeof(expected)),
                   sizeof(expected) - 1);
  assert_string_equal(line, expected);
  assert_int_equal(line[sizeof(expected)], 'x');
}

/* 12 tags and 100 fields (the old caps were 8 and 12), byte for byte, and
 * read back with yajl_tree. */
static void sink_json_format__100_fields(void **state) {
  (void)state;
  static char keys[112][8];
  struct metric m;
  metric_init(&m, "i915_oa", 5);
  char expected[4096] = "{\"name\":\"i915_oa\",\"time\":5";
  size_t len = strlen(expected);
  for (int i = 0; i < 12; i++) {
    snprintf(keys[100 + i], sizeof(keys[0]), "t%d", i);
    metric_add_tag(&m, keys[100 + i], keys[100 + i]);
    len += (size_t)snprintf(expected + len, sizeof(expected) - len,
                            ",\"t%d\":\"t%d\"", i, i);
  }
  for (int i = 0; i < 100; i++) {
    snprintf(keys[i], sizeof(keys[0]), "a%d", i);
    if (i % 2)
      metric_add_float(&m, keys[i], "gauge", i + 0.5);
    else
      metric_add_int(&m, keys[i], "derive", (uint64_t)i * 3);
    len += (size_t)(i % 2 ? snprintf(expected + len, sizeof(expected) - len,
                                     ",\"a%d\":%d.5", i, i)
                          : snprintf(expected + len, sizeof(expected) - len,
                                     ",\"a%d\":%d", i, i * 3));
  }
  len += (size_t)snprintf(expected + len, sizeof(expected) - len, "}\n");
  char line[4096];
  assert_int_equal(sink_json_format(&m, line, sizeof(line)), (int)len);
  assert_string_equal(line, expected);
  char err[128];
  yajl_val tree = yajl_tree_parse(line, err, sizeof(err));
  assert_non_null(tree);
  assert_true(YAJL_IS_OBJECT(tree));
  assert_int_equal(tree->u.object.len, 2 + 12 + 100);
  for (int i = 0; i < 100; i++) {
    yajl_val v = tree->u.object.values[2 + 12 + i];
    assert_string_equal(tree->u.object.keys[2 + 12 + i], keys[i]);
    assert_true(YAJL_GET_DOUBLE(v) == (i % 2 ? i + 0.5 : i * 3.0));
  }
  yajl_tree_free(tree);
}

/* sink_line with sink_json_format keeps one generator: the same pointer
 * after every record, also after a failed one, and the same bytes as the
 * one-shot sink_json_format. */
static void sink_line__json_reuses_one_generator(void **state) {
  (void)state;
  char *text = NULL;
  size_t text_len = 0;
  FILE *out = open_memstream(&text, &text_len);
  assert_non_null(out);
  struct sink_line s;
  sink_line_init(&s, out, sink_json_format);
  struct metric m, bad;
  metric_init(&m, "drm_engine", 7);
  metric_add_tag(&m, "comm", "a\"b\xff");
  metric_add_float(&m, "utilization", "percent", 12.5);
  metric_init(&bad, "m", 1);
  bad.n_fields = 1;
  bad.fields[0] = (struct metric_field){
      .key = "f", .ctype = "percent", .kind = METRIC_FLOAT, .v.f = NAN};
  assert_int_equal(s.base.begin(&s.base), 0);
  assert_int_equal(s.base.write(&s.base, &m), 0);
  yajl_gen first = s.json.gen;
  assert_non_null(first);
  assert_int_equal(s.base.write(&s.base, &bad), -EINVAL);
  assert_int_equal(s.base.write(&s.base, &m), 0);
  assert_ptr_equal(s.json.gen, first);
  assert_int_equal(s.base.end(&s.base), 0);
  char one[128];
  int n = sink_json_format(&m, one, sizeof(one));
  assert_true(n > 0);
  char two[256];
  snprintf(two, sizeof(two), "%s%s", one, one);
  assert_string_equal(text, two);
  assert_string_equal(one, "{\"name\":\"drm_engine\",\"time\":7,"
                           "\"comm\":\"a\\\"b?\",\"utilization\":12.5}\n");
  sink_line_fini(&s);
  assert_null(s.json.gen);
  fclose(out);
  free(text);
}

/* sink_line_array: one JSON array per batch, elements one per line, "[]"
 * for an empty batch; a failed record leaves the array well formed. */
static void sink_line__json_array_per_batch(void **state) {
  (void)state;
  char *text = NULL;
  size_t text_len = 0;
  FILE *out = open_memstream(&text, &text_len);
  assert_non_null(out);
  struct sink_line s;
  sink_line_init(&s, out, sink_json_format);
  sink_line_array(&s);
  struct metric a, b, bad;
  metric_init(&a, "m", 1);
  metric_add_tag(&a, "comm", "x,\\y");
  metric_add_int(&a, "v", "derive", 1);
  metric_init(&b, "m", 2);
  metric_add_float(&b, "f", "percent", 0.5);
  metric_init(&bad, "m", 1);
  bad.n_fields = 1;
  bad.fields[0] = (struct metric_field){
      .key = "f", .ctype = "percent", .kind = METRIC_FLOAT, .v.f = NAN};
  assert_int_equal(s.base.begin(&s.base), 0);
  assert_int_equal(s.base.write(&s.base, &a), 0);
  assert_int_equal(s.base.write(&s.base, &bad), -EINVAL);
  assert_int_equal(s.base.write(&s.base, &b), 0);
  assert_int_equal(s.base.end(&s.base), 0);
  assert_int_equal(s.base.begin(&s.base), 0); /* an empty batch */
  assert_int_equal(s.base.end(&s.base), 0);
  assert_int_equal(s.base.begin(&s.base), 0);
  assert_int_equal(s.base.write(&s.base, &b), 0);
  assert_int_equal(s.base.end(&s.base), 0);
  assert_string_equal(
      text, "[{\"name\":\"m\",\"time\":1,\"comm\":\"x,\\\\y\",\"v\":1},\n"
            "{\"name\":\"m\",\"time\":2,\"f\":0.5}]\n"
            "[]\n"
            "[{\"name\":\"m\",\"time\":2,\"f\":0.5}]\n");
  sink_line_fini(&s);
  fclose(out);
  free(text);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(sink_json_format__hostile_strings),
      cmocka_unit_test(sink_json_format__hostile_keys_and_measurement),
      cmocka_unit_test(sink_json_format__long_invalid_string),
      cmocka_unit_test(sink_json_format__numbers),
      cmocka_unit_test_teardown(sink_json_format__numbers_in_comma_locale,
                                reset_locale),
      cmocka_unit_test(sink_json_format__timestamps),
      cmocka_unit_test(sink_json_format__errors),
      cmocka_unit_test(sink_json_format__every_buffer_size),
      cmocka_unit_test(sink_json_format__100_fields),
      cmocka_unit_test(sink_line__json_reuses_one_generator),
      cmocka_unit_test(sink_line__json_array_per_batch),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
