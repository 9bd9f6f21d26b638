/*
 * sink_table.h: records as aligned text tables for people at a terminal
 * (the exec host's --format=table).
 *
 * A batch is buffered (records are borrowed, so every string is copied)
 * and printed at end(): per measurement in first-seen order, a title line
 * with the measurement name, a header row with the column names (tag keys
 * then field keys, the union over that measurement's rows in first-seen
 * order), one row per record, then a blank line. Columns are two spaces
 * apart and padded to the widest cell; a missing cell is "-"; integers
 * print as %PRId64, floats with two decimals. Control characters become
 * '?'. At most SINK_TABLE_MAX_ROWS rows per batch are kept; the rest are
 * counted and reported as "(N rows not shown)" after the tables.
 */
#ifndef COMMON_SINK_SINK_TABLE_H
#define COMMON_SINK_SINK_TABLE_H

#include "common/core/metric.h"

#include <stddef.h>
#include <stdio.h>

#define SINK_TABLE_MAX_ROWS 100000

struct sink_table_row; /* sink_table.c */

struct sink_table {
  struct metric_sink base;     /* begin() clears, end() prints and flushes */
  FILE *out;                   /* borrowed */
  struct sink_table_row *rows; /* owned, the current batch */
  size_t n_rows, cap_rows;
  size_t dropped; /* rows beyond SINK_TABLE_MAX_ROWS in this batch */
};

/*
 * Set up `s` (caller-owned storage) to print to `out` (borrowed, must
 * outlive the sink). The sink's write() returns 0 or -ENOMEM (that record
 * is then left out); end() returns 0 or -EIO when `out` failed.
 */
void sink_table_init(struct sink_table *s, FILE *out);

/* Free every buffered row; `s` can be initialised again afterwards. */
void sink_table_fini(struct sink_table *s);

#endif
