/*
 * top_lines.h: building screen lines for top_render (internal to
 * common/top/): a line builder that places cells by display width, and
 * the parts of one screen, each in its own file: the device headers and
 * charts (top_header.c), the panels (top_panels.c) and the process table
 * (top_table.c). Each reads the model's plain data (top_model.h).
 */
#ifndef COMMON_TOP_TOP_LINES_H
#define COMMON_TOP_TOP_LINES_H

#include "common/top/top_device.h"
#include "common/top/top_model.h"
#include "common/top/top_screen.h"

#include <stdbool.h>

#define TOP_LINE_BYTES 2048 /* 4 bytes per column at most, and the NUL */
#define TOP_MAX_COLS 500

struct top_lb {
  char buf[TOP_LINE_BYTES];
  int used, cols;
};

void top_lb_start(struct top_lb *lb, int cols);

/* Add `s` in a cell of `width` columns (-1: as wide as the text), padded;
 * right-aligned when `right` (a number: shown whole or not at all, and
 * nothing after it). Cut to the line's width. */
void top_lb_cell(struct top_lb *lb, const char *s, int width, bool right);

/* Add `s` only when it fits whole (a header's optional parts). */
void top_lb_whole(struct top_lb *lb, const char *s);

/* Append a line (copied); beyond o->rows lines nothing is added. */
int top_screen_add(struct top_screen *s, const struct top_options *o,
                   const char *text, enum top_line_kind kind);
/* Append the builder's line, trailing blanks dropped. */
int top_screen_lb(struct top_screen *s, const struct top_options *o,
                  struct top_lb *lb, enum top_line_kind kind);

/* Case-insensitive substring match of the filter in any of the values;
 * an empty filter matches everything. */
bool top_match(const char *filter, const char *const *values, size_t n);

/* top_header.c: the header lines of device `d` (at TOP_FOLD_LINE and
 * past it one line), and its charts when the history holds two batches or
 * more, o->charts and `fold` leaves them. */
int top_header_render(const struct top_model *m, const struct top_options *o,
                      const struct top_device *d, enum top_fold fold,
                      struct top_screen *s);

/* top_table.c: the process (client, container, cgroup) table. */
#define TOP_MAX_ENGINES 16
#define TOP_NAME_BYTES 400 /* a container row's name: ns/pod/container */
#define TOP_SHORT_ID 12    /* a container id as docker ps shows it */

struct top_table_row {
  const char *driver, *device, *pid, *name, *client;
  double busy[TOP_MAX_ENGINES];
  bool has[TOP_MAX_ENGINES];
  double busy_total; /* BUSY: the busiest engine's % */
  double resident, total;
  bool has_resident, has_total;
};

struct top_table {
  const struct top_batch *m;
  const char *engines[TOP_MAX_ENGINES]; /* every row's, first-seen order */
  int n_engines;
  struct top_table_row *rows; /* owned; filtered and sorted */
  size_t n_rows;
  size_t *slots; /* owned, open addressing: row index + 1, 0 empty */
  size_t n_slots;
  char *names; /* owned: container rows' names */
  size_t names_len, names_cap;
  int sort;
};

/* The rows of the options' scope and filter, sorted. 0 or -ENOMEM. */
int top_table_prepare(const struct top_model *m, const struct top_options *o,
                      struct top_table *t);
void top_table_fini(struct top_table *t);

/* Its blank line, column header, then its rows: a window of o->height
 * lines' room at o->first_row (then s->first_row and s->page), else
 * o->max_rows of them; sets s->body to the first row's line. */
int top_table_render(const struct top_table *t, const struct top_options *o,
                     struct top_screen *s);

/* Which records a panel pass draws. */
enum top_panels {
  TOP_PANELS_OF_DEVICE, /* those tagged with `device` */
  TOP_PANELS_OTHER,     /* those tagged with no device the model joined */
};

/* top_panels.c: the panels of `which` records (from TOP_FOLD_LINE on,
 * their title line only); adds their count to *shown. */
int top_panels_render(const struct top_model *m, const struct top_options *o,
                      enum top_fold fold, enum top_panels which,
                      const char *device, struct top_screen *s, size_t *shown);
/* Their count only, added to *n. */
int top_panels_count(const struct top_model *m, const struct top_options *o,
                     enum top_panels which, const char *device, size_t *n);

#endif
