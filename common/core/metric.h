/*
 * metric.h: the record model shared by every plugin and every sink.
 *
 * A record is one measurement with string tags, typed fields and a time in
 * Unix nanoseconds. Cores build records on the stack and hand them to a sink
 * (struct metric_sink); sinks never keep a pointer past write().
 *
 * Integers are cumulative counters or counts (Influx `123i`, collectd DERIVE or
 * GAUGE by their ctype); floats are rates, ratios and percentages. Every
 * field also names the collectd type it maps to (types.db), which is its
 * unit (metric_unit.h); which tags name the series is the plugin's table of
 * collectd rules (collectd_rule.h, collectd_map.h).
 *
 * Capacity and overflow (sticky, like a stream's error flag): a record holds
 * METRIC_MAX_TAGS tags and METRIC_MAX_FIELDS fields, with no allocation. An
 * add past capacity keeps what fit, counts the refused add in dropped_tags or
 * dropped_fields and remembers the first refused key in first_dropped; later
 * adds keep counting. Call sites therefore need not check each add: both
 * hosts check every record they are handed (metric_overflow_check), log a
 * rate-limited ERROR naming plugin, measurement and what was dropped, count
 * it, and still deliver what fit.
 */
#ifndef COMMON_CORE_METRIC_H
#define COMMON_CORE_METRIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define METRIC_MAX_TAGS 16
#define METRIC_MAX_FIELDS 128

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

/* About 4.4 KiB: fine on the stack. Only the first n_tags / n_fields
 * entries of the arrays are defined (metric_init does not clear them). */
struct metric {
  const char *measurement; /* borrowed, static identifier */
  uint64_t time_ns;        /* Unix time, nanoseconds */
  size_t n_tags;
  size_t n_fields;
  size_t dropped_tags;       /* adds refused: tags[] was full */
  size_t dropped_fields;     /* adds refused: fields[] was full */
  const char *first_dropped; /* borrowed key of the first refused add */
  struct metric_tag tags[METRIC_MAX_TAGS];
  struct metric_field fields[METRIC_MAX_FIELDS];
};

/* Set the measurement and time, and zero the counts (not the arrays). */
void metric_init(struct metric *m, const char *measurement, uint64_t time_ns);

/* Append a tag. A NULL or empty value is skipped (Influx rejects empty tag
 * values), returning 0. When the tag array is full the add is recorded as
 * dropped (see the top) and -E2BIG returned; checking it is optional. */
int metric_add_tag(struct metric *m, const char *key, const char *value);

/* Append an integer field; values above INT64_MAX are clamped (InfluxDB 1.x
 * has no unsigned type). Returns 0, or -E2BIG when full (recorded). */
int metric_add_int(struct metric *m, const char *key, const char *ctype,
                   uint64_t value);

/* Append a float field. NaN and infinities are skipped (no sink can carry
 * them), returning 0. Returns 0, or -E2BIG when full (recorded). */
int metric_add_float(struct metric *m, const char *key, const char *ctype,
                     double value);

/* Return the tag value for `key`, or NULL. */
const char *metric_tag_value(const struct metric *m, const char *key);

/* True when an add was refused since metric_init. */
static inline bool metric_overflowed(const struct metric *m) {
  return m->dropped_tags != 0 || m->dropped_fields != 0;
}

/* A host's overflow bookkeeping, one per instance (not thread-safe: a host
 * checks the records of one instance on one thread at a time). Zero it to
 * start. */
struct metric_overflow {
  uint64_t records; /* records that lost tags or fields */
  uint64_t tags;    /* tags dropped, summed over those records */
  uint64_t fields;  /* fields dropped, summed */
};

/*
 * If `m` overflowed, count it in `o` and log at ERROR, for the 1st, 2nd,
 * 4th, 8th... overflowing record only (a rate limit that still shows the
 * problem persists):
 *
 *   PLUGIN: MEASUREMENT: metric_add: T tags and F fields dropped (first
 *   "KEY"; a record holds at most 16 tags and 128 fields); N records so far
 *
 * Returns true when `m` overflowed. The record stays deliverable.
 */
bool metric_overflow_check(struct metric_overflow *o, const char *plugin,
                           const struct metric *m);

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
