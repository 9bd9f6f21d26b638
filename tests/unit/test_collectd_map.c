/*
 * test_collectd_map.c: the collectd identifier rule (collectd_map.h):
 * joining, '/' replacement and truncation to 127 bytes as a prefix that
 * never splits a UTF-8 sequence.
 */
#include "common/host/collectd_map.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static void collectd_map__rule(void **state) {
  (void)state;
  struct metric m;
  metric_init(&m, "drm_engine", 1);
  metric_add_tag(&m, "scope", "process");
  metric_add_tag(&m, "device", "0000:00:02.0");
  metric_add_tag(&m, "comm", "a/b c");
  metric_add_float(&m, "utilization", "percent", 1);
  metric_add_int(&m, "busy_ns", "derive", 1);
  struct collectd_ident id;
  collectd_map(&m, 0, &id);
  assert_string_equal(id.plugin_instance, "process-0000:00:02.0-a_b c");
  assert_string_equal(id.type, "percent");
  assert_string_equal(id.type_instance, "drm_engine_utilization");
  collectd_map(&m, 1, &id);
  assert_string_equal(id.type, "derive");
  assert_string_equal(id.type_instance, "drm_engine_busy_ns");
}

static void collectd_map__no_tags_and_slashes_everywhere(void **state) {
  (void)state;
  struct metric m;
  metric_init(&m, "m/x", 1);
  metric_add_int(&m, "a/b", "my/type", 1);
  struct collectd_ident id;
  memset(&id, 'z', sizeof(id)); /* every part is written */
  collectd_map(&m, 0, &id);
  assert_string_equal(id.plugin_instance, "");
  assert_string_equal(id.type, "my_type");
  assert_string_equal(id.type_instance, "m_x_a_b");
}

static void collectd_map__truncates_at_utf8_boundary(void **state) {
  (void)state;
  char value[200];
  memset(value, 'a', 126);
  strcpy(value + 126, "\xc3\x9f tail"); /* 2-byte char across byte 127 */
  struct metric m;
  metric_init(&m, "m", 1);
  metric_add_tag(&m, "t", value);
  metric_add_int(&m, "v", "derive", 1);
  struct collectd_ident id;
  collectd_map(&m, 0, &id);
  assert_int_equal(strlen(id.plugin_instance), 126);
  metric_init(&m, "m", 1);
  metric_add_int(&m, "v", "derive", 1);
  collectd_map(&m, 0, &id);
  assert_string_equal(id.plugin_instance, "");
}

/* plugin_instance for tag values (a, b): the full join cut to 127 bytes,
 * backed off to a character boundary. The result is always a prefix of
 * "a-b": a value cut short is never followed by "-" and part of the next
 * one (the first version of the rule did exactly that). */
static void collectd_map__truncation_table(void **state) {
  (void)state;
  static const struct {
    size_t a_fill;       /* 'a' bytes before a_tail */
    const char *a_tail;  /* appended to the fill */
    const char *b;       /* second tag value, or NULL */
    size_t expected_len; /* of plugin_instance */
    const char *expected_tail;
  } cases[] = {
      {127, "", NULL, 127, "aaa"},                 /* exactly fits */
      {128, "", NULL, 127, "aaa"},                 /* one byte over */
      {126, "\xc3\x9f", NULL, 126, "aaa"},         /* 2 bytes across 127 */
      {125, "\xc3\x9f", NULL, 127, "a\xc3\x9f"},   /* ends on 127 */
      {125, "\xe6\xb8\xb2", NULL, 125, "aaa"},     /* 3 bytes across */
      {124, "\xf0\x9f\x98\x80", NULL, 124, "aaa"}, /* 4 bytes across */
      {123, "\xf0\x9f\x98\x80", NULL, 127, "\x98\x80"},
      {126, "\xc3\x9f", "next", 126, "aaa"}, /* not "aaa-" */
      {125, "", "next", 127, "a-n"},         /* 125 + "-" + "n" */
      {126, "", "next", 127, "a-"},          /* the separator fits */
      {127, "", "next", 127, "aaa"},         /* the separator won't */
      {60, "", "\xe6\xb8\xb2\xe6\x9f\x93/x", 69,
       "a-\xe6\xb8\xb2\xe6\x9f\x93_x"},
  };
  for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
    char a[200];
    memset(a, 'a', cases[i].a_fill);
    strcpy(a + cases[i].a_fill, cases[i].a_tail);
    struct metric m;
    metric_init(&m, "m", 1);
    metric_add_tag(&m, "a", a);
    metric_add_tag(&m, "b", cases[i].b);
    metric_add_int(&m, "v", "derive", 1);
    struct collectd_ident id;
    collectd_map(&m, 0, &id);
    size_t len = strlen(id.plugin_instance);
    size_t tail_len = strlen(cases[i].expected_tail);
    if (len != cases[i].expected_len ||
        strcmp(id.plugin_instance + len - tail_len, cases[i].expected_tail) !=
            0)
      fail_msg("case %zu: %zu bytes, ends \"%s\"", i, len,
               id.plugin_instance + (len > 8 ? len - 8 : 0));
  }
}

/* type_instance is cut the same way: a measurement that fills it leaves
 * no room for "_" and the key. */
static void collectd_map__type_instance_truncation(void **state) {
  (void)state;
  char measurement[200], key[200], ctype[200];
  memset(measurement, 'm', 126);
  measurement[126] = '\0';
  memset(key, 'k', 10);
  key[10] = '\0';
  memset(ctype, 't', 150);
  ctype[150] = '\0';
  struct metric m;
  metric_init(&m, measurement, 1);
  metric_add_int(&m, key, ctype, 1);
  struct collectd_ident id;
  collectd_map(&m, 0, &id);
  assert_int_equal(strlen(id.type_instance), 127);
  assert_memory_equal(id.type_instance, measurement, 126);
  assert_int_equal(id.type_instance[126], '_');
  assert_int_equal(strlen(id.type), 127);
  assert_memory_equal(id.type, ctype, 127);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(collectd_map__rule),
      cmocka_unit_test(collectd_map__no_tags_and_slashes_everywhere),
      cmocka_unit_test(collectd_map__truncates_at_utf8_boundary),
      cmocka_unit_test(collectd_map__truncation_table),
      cmocka_unit_test(collectd_map__type_instance_truncation),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
