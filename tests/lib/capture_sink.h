/*
 * capture_sink.h: a sink for tests that keeps every record as its Influx
 * line (sink_influx_format), so assertions compare exact bytes.
 */
#ifndef TESTS_LIB_CAPTURE_SINK_H
#define TESTS_LIB_CAPTURE_SINK_H

#include "common/metric.h"

#include <stddef.h>

struct capture_sink {
  struct metric_sink base;
  char **lines; /* owned, each ends with '\n' */
  size_t n_lines, cap;
  size_t batches; /* end() calls */
};

void capture_sink_init(struct capture_sink *c);
/* Drop the captured lines. */
void capture_sink_clear(struct capture_sink *c);
void capture_sink_fini(struct capture_sink *c);
/* The first line starting with `prefix`, or NULL. */
const char *capture_sink_find(const struct capture_sink *c, const char *prefix);
/* How many lines start with `prefix`. */
size_t capture_sink_count(const struct capture_sink *c, const char *prefix);

#endif
