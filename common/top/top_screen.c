/*
 * top_screen.c: one screen of the live view (top_screen.h): the order of
 * its parts, each laid out by its own file (top_header.c, top_panels.c,
 * top_table.c) from the model's plain data. No I/O, no terminal.
 */
#include "common/top/top_screen.h"
#include "common/top/top_lines.h"
#include "common/top/top_text.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void top_screen_fini(struct top_screen *s) {
  for (size_t i = 0; i < s->n; i++)
    free(s->lines[i].text);
  free(s->lines);
  memset(s, 0, sizeof(*s));
}

void top_options_init(struct top_options *o) {
  memset(o, 0, sizeof(*o));
  o->scope = TOP_SCOPE_PROCESS;
  o->sort = TOP_SORT_BUSY;
  o->cols = 80;
  o->charts = true;
  o->utf8 = top_text_utf8();
}

static int top_text_line(struct top_screen *s, const struct top_options *o,
                         const char *text, enum top_line_kind kind) {
  struct top_lb lb;
  top_lb_start(&lb, o->cols);
  top_lb_cell(&lb, text, -1, false);
  return top_screen_lb(s, o, &lb, kind);
}

/* The parts above the table at fold `fold`: each device's header (and
 * charts) and its panels, the other panels, the notice. At
 * TOP_FOLD_COUNT at most `budget` lines of devices (one line past it
 * counts the rest), panels only counted. `dev_fold` (or NULL: `fold` for
 * all) folds each device on its own. Returns 0 or -ENOMEM. */
static int top_render_top(const struct top_model *m,
                          const struct top_options *o, enum top_fold fold,
                          const enum top_fold *dev_fold, size_t budget,
                          struct top_screen *out, size_t *panels) {
  const struct top_devices *devs = &m->devs;
  char line[512];
  int rc = 0;
  *panels = 0;
  size_t hidden_panels = 0;
  for (size_t i = 0; i < devs->n && rc == 0; i++) {
    if (fold == TOP_FOLD_COUNT && devs->n > budget && i + 1 >= budget) {
      snprintf(line, sizeof(line),
               "  (+%zu devices: a taller terminal, or / to filter)",
               devs->n - i);
      rc = top_text_line(out, o, line, TOP_LINE_DIM);
      break;
    }
    enum top_fold f = dev_fold != NULL ? dev_fold[i] : fold;
    rc = top_header_render(m, o, &devs->dev[i], f, out);
    if (rc == 0 && fold < TOP_FOLD_COUNT)
      rc = top_panels_render(m, o, f, TOP_PANELS_OF_DEVICE, devs->dev[i].device,
                             out, panels);
    else if (rc == 0)
      rc = top_panels_count(m, o, TOP_PANELS_OF_DEVICE, devs->dev[i].device,
                            &hidden_panels);
  }
  /* the panels of devices no header names (panthor_perf's render node,
   * tegra410_uncore's PMUs), above the table: it may be long */
  if (rc == 0 && fold < TOP_FOLD_COUNT)
    rc = top_panels_render(m, o, fold, TOP_PANELS_OTHER, NULL, out, panels);
  else if (rc == 0)
    rc = top_panels_count(m, o, TOP_PANELS_OTHER, NULL, &hidden_panels);
  if (rc == 0 && hidden_panels > 0) {
    *panels += hidden_panels;
    snprintf(line, sizeof(line),
             "  (+%zu panel%s of other plugins: a taller terminal shows "
             "them)",
             hidden_panels, hidden_panels == 1 ? "" : "s");
    rc = top_text_line(out, o, line, TOP_LINE_DIM);
  }
  /* said once, and only when something is hidden */
  if (rc == 0 && o->notice != NULL && devs->unreadable > 0) {
    snprintf(line, sizeof(line), "%s; %.0f process%s could not be read",
             o->notice, devs->unreadable, devs->unreadable == 1 ? "" : "es");
    if (fold == TOP_FOLD_FULL)
      rc = top_screen_add(out, o, "", TOP_LINE_TEXT);
    if (rc == 0)
      rc = top_text_line(out, o, line, TOP_LINE_TEXT);
  }
  return rc;
}

/* The lines of the parts above the table at `fold` (and `dev_fold`);
 * *rc set on ENOMEM. */
static size_t top_top_lines(const struct top_model *m,
                            const struct top_options *o, enum top_fold fold,
                            const enum top_fold *dev_fold, int *rc) {
  struct top_screen probe;
  size_t panels = 0;
  memset(&probe, 0, sizeof(probe));
  *rc = top_render_top(m, o, fold, dev_fold, 0, &probe, &panels);
  size_t lines = probe.n;
  top_screen_fini(&probe);
  return lines;
}

static int top_render_model(const struct top_model *m,
                            const struct top_options *in,
                            struct top_screen *out) {
  struct top_options o = *in;
  if (o.cols < 20)
    o.cols = 20;
  if (o.cols > TOP_MAX_COLS)
    o.cols = TOP_MAX_COLS;
  const struct top_devices *devs = &m->devs;
  bool table = devs->fdinfo && devs->n > 0;
  struct top_table t;
  memset(&t, 0, sizeof(t));
  int rc = table ? top_table_prepare(m, &o, &t) : 0;
  if (rc < 0)
    return rc;
  /* On a screen of known height, the least folding that leaves the table
   * its blank line, column header, TOP_MIN_ROWS rows (fewer when it has
   * fewer; one line for none) and the line counting those off it. */
  enum top_fold fold = TOP_FOLD_FULL;
  size_t panels = 0;
  if (o.height > 0 && table) {
    size_t want = t.n_rows < TOP_MIN_ROWS ? t.n_rows : TOP_MIN_ROWS;
    size_t need = 2 + (want > 0 ? want : 1) + (t.n_rows > want);
    size_t room = (size_t)o.height > need ? (size_t)o.height - need : 0;
    for (; fold < TOP_FOLD_COUNT && rc == 0; fold++)
      if (top_top_lines(m, &o, fold, NULL, &rc) <= room)
        break;
    /* Lines no row would take (every row fits) unfold the devices again,
     * the first ones first, as far as they go: folding is for rows. */
    enum top_fold *dev_fold = NULL;
    size_t all = 2 + (t.n_rows > 0 ? t.n_rows : 1);
    size_t spare = (size_t)o.height > all ? (size_t)o.height - all : 0;
    if (rc == 0 && fold > TOP_FOLD_FULL && fold < TOP_FOLD_COUNT &&
        top_top_lines(m, &o, fold, NULL, &rc) < spare &&
        (dev_fold = malloc(devs->n * sizeof(*dev_fold))) != NULL) {
      for (size_t i = 0; i < devs->n; i++)
        dev_fold[i] = fold;
      for (size_t i = 0; i < devs->n && rc == 0; i++) {
        while (dev_fold[i] > TOP_FOLD_FULL) {
          dev_fold[i]--;
          if (top_top_lines(m, &o, fold, dev_fold, &rc) > spare) {
            dev_fold[i]++;
            break;
          }
        }
        if (dev_fold[i] == fold)
          break; /* the first that cannot unfold: the rest stay */
      }
    }
    /* past every fold: the lines of devices that fit, less the two that
     * may count the panels and say the notice */
    if (rc == 0)
      rc = top_render_top(m, &o, fold, dev_fold, room > 3 ? room - 2 : 1, out,
                          &panels);
    free(dev_fold);
  } else {
    rc = top_render_top(m, &o, fold, NULL, 0, out, &panels);
  }
  out->fold = (int)fold;
  if (rc == 0 && table)
    rc = top_table_render(&t, &o, out);
  top_table_fini(&t);
  if (rc == 0 && devs->n == 0 && panels == 0) {
    rc = top_text_line(out, &o, "no GPU found", TOP_LINE_TITLE);
    if (rc == 0 && o.looked_at != NULL)
      rc = top_text_line(out, &o, o.looked_at, TOP_LINE_TEXT);
  }
  if (rc == 0 && m->batch.failed)
    rc =
        top_screen_add(out, &o, "(out of memory: records lost)", TOP_LINE_TEXT);
  return rc;
}

int top_render(const struct top_model *model, const struct top_options *in,
               struct top_screen *out) {
  /* A batch written to after its end() (or never ended) is joined here,
   * for this screen only: the model stays as its sink left it. */
  struct top_model stale;
  const struct top_model *m = model;
  if (model->joined != model->batch.n_recs) {
    stale = *model;
    memset(&stale.devs, 0, sizeof(stale.devs));
    if (top_devices_collect(&model->batch, &stale.devs) < 0) {
      top_devices_fini(&stale.devs);
      return -ENOMEM;
    }
    m = &stale;
  }
  int rc = top_render_model(m, in, out);
  if (m == &stale)
    top_devices_fini(&stale.devs);
  return rc;
}
