/*
 * sink_line.h: a sink that writes one formatted line per record to a
 * stream and flushes at the end of every batch (Telegraf execd reads a
 * pipe, where stdio would otherwise hold lines back). The line format is a
 * function: sink_influx_format or sink_json_format.
 */
#ifndef COMMON_SINK_SINK_LINE_H
#define COMMON_SINK_SINK_LINE_H

#include "common/core/metric.h"

#include <stdio.h>

/* Formats one record with its newline; length, -E2BIG or another -errno. */
typedef int (*sink_line_format_fn)(const struct metric *m, char *out,
                                   size_t size);

struct sink_line {
  struct metric_sink base;
  sink_line_format_fn format;
  FILE *out; /* borrowed */
  char *buf; /* owned, grows up to 1 MiB */
  size_t cap;
};

void sink_line_init(struct sink_line *s, FILE *out, sink_line_format_fn format);
void sink_line_fini(struct sink_line *s);

#endif
