/*
 * top_screen.h: one screen of the live view laid out from the model
 * (top_model.h), as lines of text the ncurses view and the one-shot text
 * output both draw:
 *
 *  - per GPU, its header (top_device.h's typed values), its utilisation
 *    and power charts (top_history.h), and the panels of other plugins'
 *    records tagged with that device (i915_oa);
 *  - the panels of every other record (panthor_perf, tegra410_uncore):
 *    float fields (the derived metrics) with units; integer fields (raw
 *    counters) and diagnostic measurements only with `raw`;
 *  - one line saying what cannot be seen, when something cannot;
 *  - drm_fdinfo's table: one row per process (or client, container,
 *    cgroup) with per-engine busy % and memory, sorted, the most useful
 *    columns first when not all fit (last: it may be long, and the view
 *    scrolls it);
 *  - "no GPU found" and what the host looked at, when nothing was found.
 *
 * Values are formatted by the unit of their collectd type (metric_unit.h),
 * never by their name. Every string from a record is made printable and
 * cut to its column by display width (top_text.h) before it is placed: a
 * line never holds a control character and is never wider than the screen.
 */
#ifndef COMMON_TOP_TOP_SCREEN_H
#define COMMON_TOP_TOP_SCREEN_H

#include "common/top/top_model.h"

#include <stdbool.h>
#include <stddef.h>

/* Which drm_fdinfo scope the rows show. */
enum top_scope {
  TOP_SCOPE_PROCESS,
  TOP_SCOPE_CLIENT,
  TOP_SCOPE_CGROUP,
  TOP_SCOPE_CONTAINER
};

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
  char filter[64];      /* substring, any case, of the rows' driver, device,
                           name, cgroup, pid and of the panels' tags; the
                           device headers stay; "" all */
  bool raw;             /* show raw counters and diagnostic measurements */
  bool charts;          /* the devices' history charts (default on) */
  bool utf8;            /* braille charts, else ASCII (the locale's
                           codeset; top_options_init asks nl_langinfo) */
  bool scope_requested; /* the host was asked for the scope's records: an
                           empty table says "none yet", not the option */
  int cols;             /* screen width in display columns, >= 20 */
  int rows;             /* at most this many lines in all; 0: no limit */
  int max_rows;         /* at most this many table rows; 0: no limit */
  /* The screen's height in lines (the live view), 0: unknown (--once).
   * Known, the device sections fold until TOP_MIN_ROWS rows of the table
   * fit under them (top_screen.c), and the rows are a window at
   * `first_row` (the scroll position) with a line for those off it. */
  int height;
  size_t first_row;
  /* The read interval: a device's values held longer than this by its
   * plugin (drm_device's values_age_seconds) are marked with their age;
   * 0: any held value is. */
  double interval_s;
  /* Why some processes may be missing (not root), or NULL: shown once,
   * with the count, only when drm_fdinfo counted unreadable processes. */
  const char *notice;
  /* What the host looked at, shown under "no GPU found" when the batch
   * names no device and holds no panel (e.g. "drm_fdinfo: /sys/class/drm,
   * /sys/class/accel, /proc"), or NULL. Borrowed. */
  const char *looked_at;
  /* The user owning process `pid` (a name or a number), for the USER
   * column of process and client rows; NULL: no such column. Called only
   * for the rows placed on the screen; the result is borrowed until the
   * next call. */
  const char *(*user_name)(void *ctx, const char *pid);
  void *user_ctx;
};

/* Defaults: process scope, sort by busy, no filter, charts, 80 columns,
 * utf8 from the locale's codeset. */
void top_options_init(struct top_options *o);

/* At least this many rows of the table stay on a screen of known height
 * (fewer when the table has fewer). */
#define TOP_MIN_ROWS 5

/* What a screen line is, for the terminal's attributes. */
enum top_line_kind {
  TOP_LINE_TEXT,
  TOP_LINE_HEADER,
  TOP_LINE_TITLE,
  TOP_LINE_DIM
};

struct top_line {
  char *text; /* owned, printable UTF-8, display width <= cols */
  enum top_line_kind kind;
};

struct top_screen {
  struct top_line *lines; /* owned */
  size_t n, cap;
  int n_engines; /* engine columns of the drm rows (sort keys) */
  /* Lines before `body` (device headers, the table's column header) stay
   * on a scrolled screen; those from it scroll. 0: nothing stays. */
  size_t body;
  size_t n_rows; /* rows of the table (all, not only those placed) */
  /* With o->height: the first row shown (o->first_row, clamped) and how
   * many are (a page); 0 both when the table is not windowed. */
  size_t first_row, page;
  int fold; /* how far the device sections folded (enum top_fold) */
};

/* How far the device sections are folded to leave room for rows: their
 * whole headers, wrapped, with charts and panels; one line each (the
 * values that fit, in order: busy, clock, temperature, power, their age,
 * memory, fan; panels one line each); then without charts; then the
 * panels and devices past the room counted on one line each. */
enum top_fold {
  TOP_FOLD_FULL,
  TOP_FOLD_LINE,
  TOP_FOLD_NO_CHARTS,
  TOP_FOLD_COUNT
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
 * Format `v` for a person by the unit of its collectd type `ctype`
 * (metric_unit.h): percent ("45.0%"), bytes ("16.0 MiB"), bytes per
 * second ("1.50 GiB/s"), hertz ("1.20 GHz"), watts, joules, volts,
 * degrees ("54.0 C"), rpm, seconds and nanoseconds ("833.3 ns"), else a
 * plain number with the unit's symbol ("1234", "0.25 req/cycle",
 * "12.3 M"). A type the table lacks is a plain number. Writes at most
 * `size` bytes, NUL-terminated; returns the length.
 */
size_t top_format_value(char *buf, size_t size, const char *ctype, bool is_int,
                        double v);

#endif
