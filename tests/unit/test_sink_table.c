/*
 * test_sink_table.c: the human table, byte for byte.
 */
#include "common/sink_table.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

static void sink_table__aligned_columns_and_missing_cells(void **state) {
  (void)state;
  char *text = NULL;
  size_t len = 0;
  FILE *out = open_memstream(&text, &len);
  struct sink_table s;
  sink_table_init(&s, out);
  s.base.begin(&s.base);
  struct metric m;
  metric_init(&m, "drm_engine", 1);
  metric_add_tag(&m, "engine", "render");
  metric_add_int(&m, "busy_ns", "derive", 123456);
  metric_add_float(&m, "utilization", "percent", 12.345);
  s.base.write(&s.base, &m);
  metric_init(&m, "drm_device", 1);
  metric_add_tag(&m, "device", "0000:00:02.0");
  metric_add_int(&m, "clients", "count", 2);
  s.base.write(&s.base, &m);
  metric_init(&m, "drm_engine", 1);
  metric_add_tag(&m, "engine", "video-enhance");
  metric_add_int(&m, "busy_ns", "derive", 7);
  s.base.write(&s.base, &m);
  s.base.end(&s.base);
  fclose(out);
  assert_string_equal(text, "drm_engine\n"
                            "engine         busy_ns  utilization\n"
                            "render         123456   12.35      \n"
                            "video-enhance  7        -          \n"
                            "\n"
                            "drm_device\n"
                            "device        clients\n"
                            "0000:00:02.0  2      \n"
                            "\n");
  free(text);
  sink_table_fini(&s);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(sink_table__aligned_columns_and_missing_cells),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
