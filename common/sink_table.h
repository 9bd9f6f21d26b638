/*
 * sink_table.h: records as aligned text tables for people at a terminal.
 *
 * A batch is buffered (records are borrowed, so every string is copied)
 * and printed at end(): one table per measurement in first-seen order,
 * columns = tag keys then field keys (union over that measurement's rows),
 * "-" for a missing cell, floats with two decimals. At most
 * SINK_TABLE_MAX_ROWS rows per batch are kept; the rest are counted.
 */
#ifndef COMMON_SINK_TABLE_H
#define COMMON_SINK_TABLE_H

#include "common/metric.h"

#include <stdio.h>

#define SINK_TABLE_MAX_ROWS 100000

struct sink_table_row; /* sink_table.c */

struct sink_table {
  struct metric_sink base;
  FILE *out;                   /* borrowed */
  struct sink_table_row *rows; /* owned */
  size_t n_rows, cap_rows;
  size_t dropped;
};

void sink_table_init(struct sink_table *s, FILE *out);
void sink_table_fini(struct sink_table *s);

#endif
