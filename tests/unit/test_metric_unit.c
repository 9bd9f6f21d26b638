/*
 * test_metric_unit.c: the field type table: lookups, one row per ctype,
 * and agreement with the types.db files the build installs (every type of
 * ours has a row with the same data source type, every row that is not a
 * collectd standard type has a types.db line).
 */
#include "common/core/metric_unit.h"

#include <glob.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

static void metric_unit_find__rows_and_misses(void **state) {
  (void)state;
  const struct metric_unit *u = metric_unit_find("gpu_time");
  assert_non_null(u);
  assert_int_equal(u->ds, METRIC_DS_DERIVE);
  assert_true(metric_unit_is_counter(u));
  assert_string_equal(u->base, "seconds");
  assert_true(u->base_scale == 1e-9);
  u = metric_unit_find("percent");
  assert_non_null(u);
  assert_false(metric_unit_is_counter(u));
  assert_string_equal(u->base, "ratio");
  assert_true(u->base_scale == 0.01);
  assert_null(metric_unit_find("gpu_tim"));
  assert_null(metric_unit_find(""));
  assert_null(metric_unit_find(NULL));
}

static void metric_unit_lookup__own_rows_first(void **state) {
  (void)state;
  static const struct metric_unit own[] = {
      {"mine", METRIC_DS_GAUGE, "", "", 1.0, "a plugin's own"},
      {"percent", METRIC_DS_DERIVE, "", "", 1.0, "shadows the table"},
      {NULL, METRIC_DS_GAUGE, NULL, NULL, 0, NULL},
  };
  assert_ptr_equal(metric_unit_lookup(own, "mine"), &own[0]);
  assert_ptr_equal(metric_unit_lookup(own, "percent"), &own[1]);
  assert_ptr_equal(metric_unit_lookup(own, "gpu_time"),
                   metric_unit_find("gpu_time"));
  assert_ptr_equal(metric_unit_lookup(NULL, "gpu_time"),
                   metric_unit_find("gpu_time"));
  assert_null(metric_unit_lookup(NULL, "mine"));
  assert_null(metric_unit_lookup(own, NULL));
  /* the retired one-type-for-all rows */
  assert_null(metric_unit_find("derive"));
  assert_null(metric_unit_find("frequency"));
}

static void metric_unit_refuse__once_per_type(void **state) {
  (void)state;
  struct metric_unit_refused r = {0};
  assert_true(metric_unit_refuse(&r, "a"));
  assert_false(metric_unit_refuse(&r, "a"));
  assert_true(metric_unit_refuse(&r, "b"));
  assert_false(metric_unit_refuse(&r, "b"));
  char name[8];
  for (int i = 2; i < METRIC_UNIT_REFUSED_MAX; i++) {
    snprintf(name, sizeof(name), "t%d", i);
    assert_true(metric_unit_refuse(&r, name));
  }
  assert_false(metric_unit_refuse(&r, "one_too_many")); /* quiet when full */
  assert_false(metric_unit_refuse(&r, "a"));
}

static void metric_units__one_row_per_ctype(void **state) {
  (void)state;
  for (size_t i = 0; i < metric_units_count; i++) {
    const struct metric_unit *u = &metric_units[i];
    assert_true(u->ctype[0] != '\0' && u->meaning[0] != '\0');
    assert_true(u->base_scale > 0);
    assert_ptr_equal(metric_unit_find(u->ctype), u);
    /* a ratio of a counter would not be a counter */
    if (metric_unit_is_counter(u))
      assert_string_not_equal(u->base, "ratio");
  }
}

/* collectd's own types.db has these; ours must not redefine them. */
static int is_standard(const char *ctype) {
  static const char *const std[] = {"percent", "bytes", "objects"};
  for (size_t i = 0; i < sizeof(std) / sizeof(std[0]); i++)
    if (strcmp(std[i], ctype) == 0)
      return 1;
  return 0;
}

/* Read one types.db file; check each type against the table and mark the
 * rows seen. */
static void check_types_db(const char *path, int *seen) {
  FILE *f = fopen(path, "r");
  assert_non_null(f);
  char line[512];
  while (fgets(line, sizeof(line), f) != NULL) {
    char name[128], ds[128];
    if (line[0] == '#' || sscanf(line, "%127s value:%127[A-Z]:", name, ds) != 2)
      continue;
    const struct metric_unit *u = metric_unit_find(name);
    if (u == NULL)
      fail_msg("%s: type %s has no row in metric_unit.c", path, name);
    assert_false(is_standard(name));
    const char *want = u->ds == METRIC_DS_DERIVE ? "DERIVE" : "GAUGE";
    if (strcmp(ds, want) != 0)
      fail_msg("%s: type %s is %s, the table says %s", path, name, ds, want);
    seen[u - metric_units] = 1;
  }
  fclose(f);
}

static void metric_units__agree_with_types_db(void **state) {
  (void)state;
  int seen[64] = {0};
  assert_true(metric_units_count <= sizeof(seen) / sizeof(seen[0]));
  check_types_db("types.db", seen);
  glob_t g;
  assert_int_equal(glob("plugins/*/types.db", 0, NULL, &g), 0);
  for (size_t i = 0; i < g.gl_pathc; i++)
    check_types_db(g.gl_pathv[i], seen);
  globfree(&g);
  for (size_t i = 0; i < metric_units_count; i++)
    if (!seen[i] && !is_standard(metric_units[i].ctype))
      fail_msg("row %s has no types.db line", metric_units[i].ctype);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(metric_unit_find__rows_and_misses),
      cmocka_unit_test(metric_unit_lookup__own_rows_first),
      cmocka_unit_test(metric_unit_refuse__once_per_type),
      cmocka_unit_test(metric_units__one_row_per_ctype),
      cmocka_unit_test(metric_units__agree_with_types_db),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
