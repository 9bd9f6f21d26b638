/*
 * metric.h: the record model shared by every plugin and every sink.
 *
 * A record is one measurement with string tags, typed fields and a time in
 * Unix nanoseconds. Cores build records on the stack and hand them to a sink
 * (struct metric_sink); sinks never keep a pointer past write().
 *
 * Integers are cumulative counters or counts (Influx `123i`, collectd DERIVE or
 * GAUGE by their ctype); floats are rates, ratios and percentages. Every
 * field also names the collectd type it maps to (types.db), so the collectd
 * mapping rule (collectd_map.h) needs no per-plugin table.
 */
#ifndef COMMON_CORE_METRIC_H
#define COMMON_CORE_METRIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define METRIC_MAX_TAGS 8
#define METRIC_MAX_FIELDS 12

enum metric_kind {
  METRIC_INT,   /* int64, cumulative counter or count */
  METRIC_FLOAT, /* finite double */
};

struct metric_tag {
  const char *key;   /* borrowed, static identifier */
  const char *value; /* borrowed, non-empty, already sanitised (text.h) */
};

struct metric_field {
  const char *key;   /* borrowed, static identifier */
  const char *ctype; /* borrowed, collectd type name (e.g. "percent") */
  enum metric_kind kind;
  union {
    int64_t i;
    double f;
  } v;
};

struct metric {
  const char *measurement; /* borrowed, static identifier */
  uint64_t time_ns;        /* Unix time, nanoseconds */
  size_t n_tags;
  struct metric_tag tags[METRIC_MAX_TAGS];
  size_t n_fields;
  struct metric_field fields[METRIC_MAX_FIELDS];
};

/* Zero `m` and set its measurement and time. */
void metric_init(struct metric *m, const char *measurement, uint64_t time_ns);

/* Append a tag. A NULL or empty value is skipped (Influx rejects empty tag
 * values), returning 0. Returns -E2BIG when the tag array is full. */
int metric_add_tag(struct metric *m, const char *key, const char *value);

/* Append an integer field; values above INT64_MAX are clamped (InfluxDB 1.x
 * has no unsigned type). Returns 0 or -E2BIG. */
int metric_add_int(struct metric *m, const char *key, const char *ctype,
                   uint64_t value);

/* Append a float field. NaN and infinities are skipped (no sink can carry
 * them), returning 0. Returns 0 or -E2BIG. */
int metric_add_float(struct metric *m, const char *key, const char *ctype,
                     double value);

/* Return the tag value for `key`, or NULL. */
const char *metric_tag_value(const struct metric *m, const char *key);

/*
 * A sink receives batches of records. begin() starts one collection pass,
 * write() takes one record (borrowed for the duration of the call), end()
 * finishes the pass (flushes output). Each returns 0 or a negative errno.
 */
struct metric_sink {
  int (*begin)(struct metric_sink *sink);
  int (*write)(struct metric_sink *sink, const struct metric *m);
  int (*end)(struct metric_sink *sink);
};

static inline int metric_sink_write(struct metric_sink *sink,
                                    const struct metric *m) {
  return sink->write(sink, m);
}

#endif
