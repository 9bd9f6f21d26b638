/*
 * sink_line.h: a sink that writes one formatted line per record to a
 * stream and flushes at the end of every batch (Telegraf execd reads a
 * pipe, where stdio would otherwise hold lines back). The line format is a
 * function: sink_influx_format or sink_json_format. With sink_json_format
 * the sink keeps one yajl generator for its lifetime (sink_json_format_with)
 * instead of allocating one per record; the bytes are the same.
 */
#ifndef COMMON_SINK_SINK_LINE_H
#define COMMON_SINK_SINK_LINE_H

#include "common/core/metric.h"
#include "common/sink/sink_json.h"

#include <stdbool.h>
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
  struct sink_json json; /* owned generator, used with sink_json_format */
  bool array;            /* one JSON array per batch (sink_line_array) */
  size_t in_batch;       /* records written in the current batch */
};

/* Set up `s` (caller-owned storage) to write to `out` (borrowed). write()
 * returns 0, -EIO when `out` failed, or the format's error (-EINVAL,
 * -ENOMEM, -E2BIG past 1 MiB); end() flushes and returns 0 or -EIO. */
void sink_line_init(struct sink_line *s, FILE *out, sink_line_format_fn format);

/* Make every batch one JSON array on its own line instead of one object
 * per line: "[{...},\n{...}]\n", and "[]\n" for a batch without records.
 * Telegraf inputs.exec parses the whole output as one document, so it
 * needs this; inputs.execd parses one document per line and must not get
 * it. Only meaningful with sink_json_format. */
void sink_line_array(struct sink_line *s);

/* Free the buffer and generator; `s` can be initialised again. */
void sink_line_fini(struct sink_line *s);

#endif
