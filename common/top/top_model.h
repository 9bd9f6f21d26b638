/*
 * top_model.h: the model behind the executables' --format=top: a sink that
 * keeps one batch of records (the same struct metric every other format
 * gets, so every plugin works unchanged) and pure functions that turn it
 * into the lines of one screen.
 *
 * Two kinds of view, chosen by the measurements present:
 *  - drm_fdinfo (drm_engine, drm_memory): one header line per device from
 *    the scope=device records (engines' busy % as bars, memory), followed
 *    by every field of a drm_device or drm_clients record of the same
 *    device, whatever plugin wrote it, formatted by its name and collectd type
 * (so frequency, idle %, power and temperature appear without code changes);
 * then one row per process (or client, or cgroup: the scope the options select)
 * with per-engine busy % and memory, sorted;
 *  - every other measurement: one panel per record, its float fields (the
 *    derived metrics: percentages, rates, bandwidths, latencies) with
 *    units; integer fields (raw counters) and the measurements that only
 *    carry counters or diagnostics (TOP_RAW_MEASUREMENTS) only with `raw`.
 *
 * Every string from a record is made printable and cut to its column by
 * display width (top_text.h) before it is placed: a line never holds a
 * control character and is never wider than the screen.
 */
#ifndef COMMON_TOP_TOP_MODEL_H
#define COMMON_TOP_TOP_MODEL_H

#include "common/core/metric.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One stored field; strings are offsets into the model's arena. */
struct top_field {
  size_t key, ctype; /* arena offsets */
  bool is_int;
  int64_t i;
  double f;
};

/* One stored record: tags and fields are ranges of the model's arrays. */
struct top_record {
  size_t measurement;      /* arena offset */
  size_t tag0, n_tags;     /* range of top_model.tags (key, value) */
  size_t field0, n_fields; /* range of top_model.fields */
};

struct top_model {
  struct metric_sink base; /* begin() clears, write() copies, end() no-op */
  char *arena;             /* owned: every string, NUL-terminated */
  size_t arena_len, arena_cap;
  size_t *tags; /* owned: pairs of arena offsets (key, value) */
  size_t n_tags, cap_tags;
  struct top_field *fields; /* owned */
  size_t n_fields, cap_fields;
  struct top_record *recs; /* owned */
  size_t n_recs, cap_recs;
  bool failed; /* an allocation failed in this batch: the rest is lost */
};

/* Set up `m` (caller-owned storage), empty. */
void top_model_init(struct top_model *m);

/* Free everything `m` holds; it can be initialised again. */
void top_model_fini(struct top_model *m);

/* The string at arena offset `off` (borrowed until the next batch). */
static inline const char *top_model_str(const struct top_model *m, size_t off) {
  return m->arena + off;
}

/* The value of tag `key` of record `r`, or NULL. */
const char *top_model_tag(const struct top_model *m, const struct top_record *r,
                          const char *key);

/* Which drm_fdinfo scope the rows show. */
enum top_scope { TOP_SCOPE_PROCESS, TOP_SCOPE_CLIENT, TOP_SCOPE_CGROUP };

/* Sort keys of the drm rows; TOP_SORT_ENGINE + k is the k-th engine column
 * (first-seen order). Numbers sort descending, names ascending. */
enum top_sort {
  TOP_SORT_BUSY,
  TOP_SORT_MEMORY,
  TOP_SORT_PID,
  TOP_SORT_NAME,
  TOP_SORT_ENGINE
};

struct top_options {
  enum top_scope scope; /* default process */
  int sort;             /* enum top_sort, or TOP_SORT_ENGINE + k */
  char filter[64];      /* substring of driver, device, name, pid; "" all */
  bool raw;             /* show raw counters and diagnostic measurements */
  int cols;             /* screen width in display columns, >= 20 */
  int rows;             /* at most this many lines in all; 0: no limit */
  int max_rows;         /* at most this many drm rows; 0: no limit */
  const char *notice;   /* one line shown under the headers, or NULL */
  /* The user owning process `pid` (a name or a number), for the USER
   * column of process and client rows; NULL: no such column. Called only
   * for the rows placed on the screen; the result is borrowed until the
   * next call. */
  const char *(*user_name)(void *ctx, const char *pid);
  void *user_ctx;
};

/* Defaults: process scope, sort by busy, no filter, 80 columns. */
void top_options_init(struct top_options *o);

/* What a screen line is, for the terminal's attributes. */
enum top_line_kind { TOP_LINE_TEXT, TOP_LINE_HEADER, TOP_LINE_TITLE };

struct top_line {
  char *text; /* owned, printable UTF-8, display width <= cols */
  enum top_line_kind kind;
};

struct top_screen {
  struct top_line *lines; /* owned */
  size_t n, cap;
  int n_engines; /* engine columns of the drm rows (sort keys) */
};

/*
 * Lay out the model as lines under `o`. Returns 0 or -ENOMEM (`out` then
 * holds the lines made so far). `out` must be zeroed or finished before.
 */
int top_render(const struct top_model *m, const struct top_options *o,
               struct top_screen *out);

/* Free the lines of `s` and zero it. */
void top_screen_fini(struct top_screen *s);

/*
 * Format `v` for a person by its field name and collectd type: percent
 * ("45.0%"), bytes ("16.0 MiB"), bytes per second ("1.5 GiB/s"), hertz
 * ("1.20 GHz"), seconds and nanoseconds ("833 ns", "1.50 ms"), watts,
 * degrees, else a plain number ("1234", "0.25", "1.5 M"). Writes at most
 * `size` bytes, NUL-terminated; returns the length.
 */
size_t top_format_value(char *buf, size_t size, const char *key,
                        const char *ctype, bool is_int, double v);

#endif
