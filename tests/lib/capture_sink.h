/*
 * capture_sink.h: a sink for tests that keeps every record as its Influx
 * line (sink_influx_format), so assertions compare exact bytes. Lines of
 * any length are kept; a record sink_influx_format rejects (no field, a
 * non-finite float) makes write() fail with its error, as a real sink would.
 */
#ifndef TESTS_LIB_CAPTURE_SINK_H
#define TESTS_LIB_CAPTURE_SINK_H

#include "common/core/metric.h"

#include <stddef.h>

struct capture_sink {
  struct metric_sink base;
  char **lines;   /* owned array of owned lines, each ends with '\n' */
  size_t n_lines; /* lines captured since init or the last clear */
  size_t cap;     /* allocated entries of `lines` */
  size_t batches; /* end() calls since init (clear keeps it) */
};

/* Set up an empty sink in caller-owned storage. */
void capture_sink_init(struct capture_sink *c);

/* Drop (free) the captured lines; `batches` is kept. */
void capture_sink_clear(struct capture_sink *c);

/* Free everything; `c` may be initialised again. */
void capture_sink_fini(struct capture_sink *c);

/* The first captured line starting with `prefix` (borrowed from `c`, valid
 * until the next clear or fini), or NULL. "" matches the first line. */
const char *capture_sink_find(const struct capture_sink *c, const char *prefix);

/* How many captured lines start with `prefix`. */
size_t capture_sink_count(const struct capture_sink *c, const char *prefix);

#endif
