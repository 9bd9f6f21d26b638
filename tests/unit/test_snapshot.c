/*
 * test_snapshot.c: the records of one read kept after it
 * (common/runner/snapshot.c): every string is copied (the plugin's buffers
 * may change after write()), records replay in order with their tags and
 * fields, a clear keeps the memory, the batches a plugin ends itself stay
 * batches when asked, and a large read grows the arena without losing
 * what came before.
 */
#include "common/runner/snapshot.h"
#include "tests/lib/capture_sink.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

/* A record whose strings live in `buf`, overwritten after the add. */
static void add(struct snapshot *s, const char *comm, uint64_t v, double f) {
  char name[32], key[32], tag[32];
  struct metric m;
  snprintf(name, sizeof(name), "drm_engine");
  snprintf(key, sizeof(key), "busy_ns");
  snprintf(tag, sizeof(tag), "%s", comm);
  metric_init(&m, name, 1000 + v);
  metric_add_tag(&m, "comm", tag);
  metric_add_int(&m, key, "gpu_time", v);
  metric_add_float(&m, "utilization", "percent", f);
  assert_int_equal(snapshot_add(s, &m), 0);
  memset(name, 'x', sizeof(name) - 1); /* the plugin's state moves on */
  memset(key, 'y', sizeof(key) - 1);
  memset(tag, 'z', sizeof(tag) - 1);
}

static void snapshot__copies_and_replays_in_order(void **state) {
  (void)state;
  struct snapshot s;
  snapshot_init(&s);
  add(&s, "blender", 5, 12.5);
  add(&s, "glxgears", 7, 0.25);
  assert_int_equal(snapshot_records(&s), 2);
  struct capture_sink c;
  capture_sink_init(&c);
  assert_int_equal(snapshot_replay(&s, &c.base, false), 0);
  assert_int_equal(c.n_lines, 2);
  assert_string_equal(c.lines[0], "drm_engine,comm=blender busy_ns=5i,"
                                  "utilization=12.5 1005\n");
  assert_string_equal(c.lines[1], "drm_engine,comm=glxgears busy_ns=7i,"
                                  "utilization=0.25 1007\n");
  capture_sink_fini(&c);
  /* a clear forgets the records, not the memory */
  size_t cap = s.cap;
  snapshot_clear(&s);
  assert_int_equal(snapshot_records(&s), 0);
  assert_int_equal(s.cap, cap);
  snapshot_fini(&s);
}

static void snapshot__batches_a_plugin_ended(void **state) {
  (void)state;
  struct snapshot s;
  snapshot_init(&s);
  assert_int_equal(snapshot_mark(&s), 0); /* nothing yet: no mark */
  add(&s, "a", 1, 1);
  add(&s, "b", 2, 2);
  assert_int_equal(snapshot_mark(&s), 0);
  assert_int_equal(snapshot_mark(&s), 0); /* twice: one batch */
  add(&s, "c", 3, 3);
  assert_int_equal(snapshot_mark(&s), 0);
  assert_int_equal(s.n_marks, 2);
  struct capture_sink c;
  capture_sink_init(&c);
  c.base.begin(&c.base);
  snapshot_replay(&s, &c.base, true);
  c.base.end(&c.base);
  assert_int_equal(c.n_lines, 3);
  assert_int_equal(c.batches, 2); /* {a, b} then {c} */
  capture_sink_clear(&c);
  c.batches = 0;
  c.base.begin(&c.base);
  snapshot_replay(&s, &c.base, false);
  c.base.end(&c.base);
  assert_int_equal(c.batches, 1); /* one, unsplit */
  capture_sink_fini(&c);
  snapshot_fini(&s);
}

static void snapshot__grows_without_losing(void **state) {
  (void)state;
  struct snapshot s;
  snapshot_init(&s);
  char comm[64];
  for (int i = 0; i < 5000; i++) {
    snprintf(comm, sizeof(comm), "process-%d", i);
    add(&s, comm, (uint64_t)i, i / 4.0);
  }
  struct capture_sink c;
  capture_sink_init(&c);
  snapshot_replay(&s, &c.base, false);
  assert_int_equal(c.n_lines, 5000);
  assert_string_equal(c.lines[0],
                      "drm_engine,comm=process-0 busy_ns=0i,utilization=0.0 "
                      "1000\n");
  assert_string_equal(c.lines[4999], "drm_engine,comm=process-4999 "
                                     "busy_ns=4999i,utilization=1249.75 "
                                     "5999\n");
  capture_sink_fini(&c);
  snapshot_fini(&s);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(snapshot__copies_and_replays_in_order),
      cmocka_unit_test(snapshot__batches_a_plugin_ended),
      cmocka_unit_test(snapshot__grows_without_losing),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
