/*
 * test_sink_table.c: the human table, byte for byte: grouping, column
 * union, alignment (UTF-8 counted per character), missing cells, deep
 * copies of borrowed strings, terminal-safe text and the row bound.
 */
#include "common/sink/sink_table.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

struct table_fixture {
  char *text;
  size_t len;
  FILE *out;
  struct sink_table s;
};

static int setup(void **state) {
  struct table_fixture *f = calloc(1, sizeof(*f));
  if (f == NULL)
    return -1;
  f->out = open_memstream(&f->text, &f->len);
  if (f->out == NULL)
    return -1;
  sink_table_init(&f->s, f->out);
  *state = f;
  return 0;
}

static int teardown(void **state) {
  struct table_fixture *f = *state;
  sink_table_fini(&f->s);
  fclose(f->out);
  free(f->text);
  free(f);
  return 0;
}

/* Everything printed so far, NUL-terminated. */
static const char *printed(struct table_fixture *f) {
  fflush(f->out);
  return f->text;
}

static void sink_table__aligned_columns_and_missing_cells(void **state) {
  struct table_fixture *f = *state;
  struct metric_sink *s = &f->s.base;
  assert_int_equal(s->begin(s), 0);
  struct metric m;
  metric_init(&m, "drm_engine", 1);
  metric_add_tag(&m, "engine", "render");
  metric_add_int(&m, "busy_ns", "derive", 123456);
  metric_add_float(&m, "utilization", "percent", 12.345);
  assert_int_equal(s->write(s, &m), 0);
  metric_init(&m, "drm_device", 1);
  metric_add_tag(&m, "device", "0000:00:02.0");
  metric_add_int(&m, "clients", "count", 2);
  assert_int_equal(s->write(s, &m), 0);
  metric_init(&m, "drm_engine", 1);
  metric_add_tag(&m, "engine", "video-enhance");
  metric_add_int(&m, "busy_ns", "derive", 7);
  assert_int_equal(s->write(s, &m), 0);
  assert_int_equal(s->end(s), 0);
  assert_string_equal(printed(f), "drm_engine\n"
                                  "engine         busy_ns  utilization\n"
                                  "render         123456   12.345     \n"
                                  "video-enhance  7        -          \n"
                                  "\n"
                                  "drm_device\n"
                                  "device        clients\n"
                                  "0000:00:02.0  2      \n"
                                  "\n");
}

/* Columns are the union over the rows, first seen first: a tag that only
 * later rows have comes after the columns of the first row. */
static void sink_table__column_union_in_first_seen_order(void **state) {
  struct table_fixture *f = *state;
  struct metric_sink *s = &f->s.base;
  s->begin(s);
  struct metric m;
  metric_init(&m, "drm_memory", 1);
  metric_add_tag(&m, "region", "vram");
  metric_add_int(&m, "resident", "bytes", 4096);
  s->write(s, &m);
  metric_init(&m, "drm_memory", 1);
  metric_add_tag(&m, "comm", "Xorg");
  metric_add_tag(&m, "region", "system");
  metric_add_int(&m, "total", "bytes", 1);
  metric_add_int(&m, "resident", "bytes", 2);
  metric_add_float(&m, "share", "percent", -0.004);
  s->write(s, &m);
  s->end(s);
  assert_string_equal(printed(f), "drm_memory\n"
                                  "region  resident  comm  total  share \n"
                                  "vram    4096      -     -      -     \n"
                                  "system  2         Xorg  1      -0.004\n"
                                  "\n");
}

/* Records are borrowed: the sink must copy every string it keeps. */
static void sink_table__copies_borrowed_strings(void **state) {
  struct table_fixture *f = *state;
  struct metric_sink *s = &f->s.base;
  char measurement[16] = "drm_engine", key[16] = "comm", value[16] = "glx";
  char field[16] = "busy";
  s->begin(s);
  struct metric m;
  metric_init(&m, measurement, 1);
  metric_add_tag(&m, key, value);
  metric_add_int(&m, field, "derive", 1);
  s->write(s, &m);
  strcpy(measurement, "CLOBBERED");
  strcpy(key, "CLOBBERED");
  strcpy(value, "CLOBBERED");
  strcpy(field, "CLOBBERED");
  memset(&m, 0, sizeof(m));
  s->end(s);
  assert_string_equal(printed(f), "drm_engine\n"
                                  "comm  busy\n"
                                  "glx   1   \n"
                                  "\n");
}

/* Width counts characters, not bytes; control characters (C0, DEL, C1)
 * never reach the terminal: each is one '?' (U+009B, a one-character CSI,
 * is two bytes and one '?'). Numbers are the shortest text that reads
 * back as the same double (numfmt.h), as in every other format. */
static void sink_table__utf8_width_and_control_characters(void **state) {
  struct table_fixture *f = *state;
  struct metric_sink *s = &f->s.base;
  s->begin(s);
  struct metric m;
  metric_init(&m, "p", 1);
  metric_add_tag(&m, "comm", "\xc3\x9f\xe6\xb8\xb2\xe6\x9f\x93"); /* 3 chars */
  metric_add_int(&m, "n", "count", 1);
  s->write(s, &m);
  metric_init(&m, "p", 1);
  metric_add_tag(&m, "comm", "e\x1b[2Jx\x7f\xc2\x9b");
  metric_add_int(&m, "n", "count", 22);
  s->write(s, &m);
  s->end(s);
  assert_string_equal(printed(f), "p\n"
                                  "comm      n \n"
                                  "\xc3\x9f\xe6\xb8\xb2\xe6\x9f\x93       1 \n"
                                  "e?[2Jx??  22\n"
                                  "\n");
}

/* begin() drops rows of a batch that never ended; each end() prints only
 * its own batch. */
static void sink_table__batches_are_independent(void **state) {
  struct table_fixture *f = *state;
  struct metric_sink *s = &f->s.base;
  struct metric m;
  metric_init(&m, "m", 1);
  metric_add_int(&m, "stale", "count", 1);
  s->begin(s);
  s->write(s, &m);
  s->begin(s); /* the stale row is dropped */
  metric_init(&m, "m", 2);
  metric_add_int(&m, "v", "count", 2);
  s->write(s, &m);
  s->end(s);
  s->end(s); /* an empty batch prints nothing */
  s->begin(s);
  s->write(s, &m);
  s->end(s);
  assert_string_equal(printed(f), "m\nv\n2\n\nm\nv\n2\n\n");
}

static void sink_table__bounded_rows(void **state) {
  struct table_fixture *f = *state;
  struct metric_sink *s = &f->s.base;
  struct metric m;
  metric_init(&m, "m", 1);
  metric_add_int(&m, "v", "count", 0);
  s->begin(s);
  for (size_t i = 0; i < SINK_TABLE_MAX_ROWS + 3; i++) {
    m.fields[0].v.i = (int64_t)(i % 10);
    assert_int_equal(s->write(s, &m), 0);
  }
  assert_int_equal(f->s.n_rows, SINK_TABLE_MAX_ROWS);
  assert_int_equal(f->s.dropped, 3);
  assert_int_equal(s->end(s), 0);
  const char *text = printed(f);
  size_t lines = 0;
  for (const char *p = text; *p; p++)
    lines += *p == '\n';
  /* title, header, the rows, blank line, the drop notice */
  assert_int_equal(lines, 2 + SINK_TABLE_MAX_ROWS + 1 + 1);
  assert_memory_equal(text, "m\nv\n0\n1\n", 8);
  static const char tail[] = "9\n\n(3 rows not shown)\n";
  assert_string_equal(text + f->len - (sizeof(tail) - 1), tail);
  assert_int_equal(f->s.n_rows, 0);
  assert_int_equal(f->s.dropped, 0);
}

/* One row of 12 tags and 100 fields (the old caps were 8 and 12): every
 * column is printed, in record order. */
static void sink_table__100_fields(void **state) {
  struct table_fixture *f = *state;
  struct metric_sink *s = &f->s.base;
  static char keys[112][8];
  struct metric m;
  metric_init(&m, "i915_oa", 1);
  char header[2048] = "", row[2048] = "";
  size_t hl = 0, rl = 0;
  for (int i = 0; i < 12; i++) {
    snprintf(keys[100 + i], sizeof(keys[0]), "t%d", i);
    metric_add_tag(&m, keys[100 + i], keys[100 + i]);
    hl += (size_t)snprintf(header + hl, sizeof(header) - hl, "%st%d",
                           i ? "  " : "", i);
    rl +=
        (size_t)snprintf(row + rl, sizeof(row) - rl, "%st%d", i ? "  " : "", i);
  }
  for (int i = 0; i < 100; i++) {
    snprintf(keys[i], sizeof(keys[0]), "a%d", i);
    metric_add_int(&m, keys[i], "derive", (uint64_t)i + 1000);
    hl += (size_t)snprintf(header + hl, sizeof(header) - hl, "  a%-3d", i);
    rl += (size_t)snprintf(row + rl, sizeof(row) - rl, "  %d", i + 1000);
  }
  /* columns are as wide as their widest cell, the last one too */
  assert_int_equal(s->begin(s), 0);
  assert_int_equal(s->write(s, &m), 0);
  assert_int_equal(s->end(s), 0);
  char expected[8192];
  snprintf(expected, sizeof(expected), "i915_oa\n%s\n%s\n\n", header, row);
  assert_string_equal(printed(f), expected);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(
          sink_table__aligned_columns_and_missing_cells, setup, teardown),
      cmocka_unit_test_setup_teardown(
          sink_table__column_union_in_first_seen_order, setup, teardown),
      cmocka_unit_test_setup_teardown(sink_table__copies_borrowed_strings,
                                      setup, teardown),
      cmocka_unit_test_setup_teardown(
          sink_table__utf8_width_and_control_characters, setup, teardown),
      cmocka_unit_test_setup_teardown(sink_table__batches_are_independent,
                                      setup, teardown),
      cmocka_unit_test_setup_teardown(sink_table__100_fields, setup, teardown),
      cmocka_unit_test_setup_teardown(sink_table__bounded_rows, setup,
                                      teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
