/*
 * test_metric.c: building records: tags, fields, limits, clamping, the
 * sticky overflow record and its rate-limited report, and the sink call.
 */
#include "common/core/log.h"
#include "common/core/metric.h"

#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

static void metric_init__sets_counts_not_arrays(void **state) {
  (void)state;
  struct metric m;
  memset(&m, 0xa5, sizeof(m));
  metric_init(&m, "drm_engine", 1700000000000000001ull);
  assert_string_equal(m.measurement, "drm_engine");
  assert_true(m.time_ns == 1700000000000000001ull);
  assert_int_equal(m.n_tags, 0);
  assert_int_equal(m.n_fields, 0);
  assert_int_equal(m.dropped_tags, 0);
  assert_int_equal(m.dropped_fields, 0);
  assert_null(m.first_dropped);
  assert_false(metric_overflowed(&m));
  /* The arrays are left alone: clearing them would cost ~4 KiB a record. */
  assert_int_equal(((unsigned char *)&m.fields[METRIC_MAX_FIELDS - 1])[0],
                   0xa5);
}

static void metric__caps_and_stack_size(void **state) {
  (void)state;
  assert_int_equal(METRIC_MAX_TAGS, 16);
  assert_int_equal(METRIC_MAX_FIELDS, 128);
  assert_true(sizeof(struct metric) <= 4608);
}

static void metric_add_tag__order_empty_and_full(void **state) {
  (void)state;
  static char keys[METRIC_MAX_TAGS][8];
  struct metric m;
  metric_init(&m, "m", 0);
  assert_int_equal(metric_add_tag(&m, "empty", ""), 0);  /* skipped */
  assert_int_equal(metric_add_tag(&m, "null", NULL), 0); /* skipped */
  assert_int_equal(m.n_tags, 0);
  for (size_t i = 0; i < METRIC_MAX_TAGS; i++) {
    snprintf(keys[i], sizeof(keys[i]), "k%zu", i);
    assert_int_equal(metric_add_tag(&m, keys[i], keys[i]), 0);
  }
  assert_int_equal(m.n_tags, METRIC_MAX_TAGS);
  assert_false(metric_overflowed(&m));
  assert_int_equal(metric_add_tag(&m, "one", "more"), -E2BIG);
  assert_int_equal(metric_add_tag(&m, "empty", ""), 0); /* still skipped */
  assert_int_equal(metric_add_tag(&m, "two", "more"), -E2BIG);
  assert_int_equal(m.n_tags, METRIC_MAX_TAGS);
  assert_int_equal(m.dropped_tags, 2);
  assert_int_equal(m.dropped_fields, 0);
  assert_string_equal(m.first_dropped, "one");
  assert_true(metric_overflowed(&m));
  for (size_t i = 0; i < METRIC_MAX_TAGS; i++) {
    assert_ptr_equal(m.tags[i].key, keys[i]); /* borrowed, in order */
    assert_ptr_equal(m.tags[i].value, keys[i]);
  }
}

static void metric_add_int__clamps_above_int64_max(void **state) {
  (void)state;
  static const struct {
    uint64_t in;
    int64_t out;
  } cases[] = {
      {0, 0},
      {1, 1},
      {(uint64_t)INT64_MAX, INT64_MAX},
      {(uint64_t)INT64_MAX + 1, INT64_MAX},
      {UINT64_MAX, INT64_MAX},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    struct metric m;
    metric_init(&m, "m", 0);
    assert_int_equal(metric_add_int(&m, "busy_ns", "derive", cases[i].in), 0);
    assert_int_equal(m.n_fields, 1);
    assert_int_equal(m.fields[0].kind, METRIC_INT);
    assert_string_equal(m.fields[0].key, "busy_ns");
    assert_string_equal(m.fields[0].ctype, "derive");
    if (m.fields[0].v.i != cases[i].out)
      fail_msg("case %zu: %lld", i, (long long)m.fields[0].v.i);
  }
}

static void metric_add_float__skips_non_finite(void **state) {
  (void)state;
  struct metric m;
  metric_init(&m, "m", 0);
  assert_int_equal(metric_add_float(&m, "nan", "percent", NAN), 0);
  assert_int_equal(metric_add_float(&m, "inf", "percent", INFINITY), 0);
  assert_int_equal(metric_add_float(&m, "-inf", "percent", -INFINITY), 0);
  assert_int_equal(m.n_fields, 0);
  assert_int_equal(metric_add_float(&m, "u", "percent", -0.5), 0);
  assert_int_equal(m.n_fields, 1);
  assert_int_equal(m.fields[0].kind, METRIC_FLOAT);
  assert_true(m.fields[0].v.f == -0.5);
  assert_string_equal(m.fields[0].ctype, "percent");
}

static void metric_add__fields_full(void **state) {
  (void)state;
  struct metric m;
  metric_init(&m, "m", 0);
  for (size_t i = 0; i < METRIC_MAX_FIELDS; i++) {
    int rc = i % 2 ? metric_add_int(&m, "i", "count", i)
                   : metric_add_float(&m, "f", "percent", (double)i);
    assert_int_equal(rc, 0);
  }
  assert_false(metric_overflowed(&m));
  assert_int_equal(metric_add_int(&m, "x", "count", 1), -E2BIG);
  assert_int_equal(metric_add_float(&m, "y", "percent", 1.0), -E2BIG);
  assert_int_equal(metric_add_float(&m, "z", "percent", NAN), 0); /* skip */
  assert_int_equal(metric_add_tag(&m, "t", "v"), 0); /* tags still fit */
  assert_int_equal(m.n_fields, METRIC_MAX_FIELDS);
  assert_int_equal(m.n_tags, 1);
  assert_int_equal(m.dropped_fields, 2); /* sticky: every refused add */
  assert_int_equal(m.dropped_tags, 0);
  assert_string_equal(m.first_dropped, "x"); /* the first one */
  assert_int_equal(m.fields[11].kind, METRIC_INT);
  assert_int_equal(m.fields[11].v.i, 11);
  assert_true(m.fields[10].v.f == 10.0);
  assert_int_equal(m.fields[METRIC_MAX_FIELDS - 1].v.i, METRIC_MAX_FIELDS - 1);
}

static char logged[8][512];
static int n_logged;

static void capture_log(enum log_level level, const char *message) {
  if (n_logged < 8)
    snprintf(logged[n_logged++], sizeof(logged[0]), "%d %s", (int)level,
             message);
}

static void metric_overflow_check__counts_and_logs_rate_limited(void **state) {
  (void)state;
  n_logged = 0;
  log_set_sink(capture_log, LOG_LEVEL_DEBUG);
  struct metric_overflow o = {0, 0, 0};
  struct metric m;
  metric_init(&m, "i915_oa", 0);
  metric_add_int(&m, "a0", "count", 1);
  assert_false(metric_overflow_check(&o, "i915_oa", &m)); /* fine: quiet */
  for (size_t i = 0; i < METRIC_MAX_FIELDS + 2; i++)
    metric_add_int(&m, "a", "count", i);
  for (size_t i = 0; i < METRIC_MAX_TAGS + 1; i++)
    metric_add_tag(&m, "k", "v");
  assert_int_equal(m.dropped_fields, 3);
  assert_int_equal(m.dropped_tags, 1);
  for (int i = 0; i < 5; i++)
    assert_true(metric_overflow_check(&o, "i915_oa", &m));
  log_set_sink(NULL, LOG_LEVEL_INFO);
  assert_int_equal(o.records, 5);
  assert_int_equal(o.fields, 15);
  assert_int_equal(o.tags, 5);
  /* records 1, 2 and 4 are logged; 3 and 5 only counted */
  assert_int_equal(n_logged, 3);
  assert_string_equal(logged[0],
                      "3 i915_oa: i915_oa: metric_add: 1 tags and 3 fields "
                      "dropped (first \"a\"; a record holds at most 16 tags "
                      "and 128 fields); 1 record so far");
  assert_string_equal(logged[2],
                      "3 i915_oa: i915_oa: metric_add: 1 tags and 3 fields "
                      "dropped (first \"a\"; a record holds at most 16 tags "
                      "and 128 fields); 4 records so far");
}

static void metric_tag_value__lookup(void **state) {
  (void)state;
  struct metric m;
  metric_init(&m, "m", 0);
  metric_add_tag(&m, "scope", "process");
  metric_add_tag(&m, "comm", "first");
  metric_add_tag(&m, "comm", "second");
  assert_string_equal(metric_tag_value(&m, "scope"), "process");
  assert_string_equal(metric_tag_value(&m, "comm"), "first"); /* first wins */
  assert_null(metric_tag_value(&m, "Comm"));                  /* exact case */
  assert_null(metric_tag_value(&m, "com"));                   /* no prefix */
  assert_null(metric_tag_value(&m, "missing"));
}

struct counting_sink {
  struct metric_sink base;
  const struct metric *last;
  int writes;
};

static int counting_write(struct metric_sink *sink, const struct metric *m) {
  struct counting_sink *c = (struct counting_sink *)sink;
  c->last = m;
  c->writes++;
  return c->writes == 2 ? -EIO : 0;
}

static void metric_sink_write__calls_write_and_returns_its_code(void **state) {
  (void)state;
  struct counting_sink c = {{NULL, counting_write, NULL}, NULL, 0};
  struct metric m;
  metric_init(&m, "m", 0);
  assert_int_equal(metric_sink_write(&c.base, &m), 0);
  assert_ptr_equal(c.last, &m);
  assert_int_equal(metric_sink_write(&c.base, &m), -EIO);
  assert_int_equal(c.writes, 2);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(metric_init__sets_counts_not_arrays),
      cmocka_unit_test(metric__caps_and_stack_size),
      cmocka_unit_test(metric_add_tag__order_empty_and_full),
      cmocka_unit_test(metric_add_int__clamps_above_int64_max),
      cmocka_unit_test(metric_add_float__skips_non_finite),
      cmocka_unit_test(metric_add__fields_full),
      cmocka_unit_test(metric_overflow_check__counts_and_logs_rate_limited),
      cmocka_unit_test(metric_tag_value__lookup),
      cmocka_unit_test(metric_sink_write__calls_write_and_returns_its_code),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
