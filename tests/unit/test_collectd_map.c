/*
 * test_collectd_map.c: the collectd identifier rule.
 */
#include "common/collectd_map.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

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

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(collectd_map__rule),
      cmocka_unit_test(collectd_map__truncates_at_utf8_boundary),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
