/*
 * top_screen.c: one screen of the live view (top_screen.h): the order of
 * its parts, each laid out by its own file (top_header.c, top_panels.c,
 * top_table.c) from the model's plain data. No I/O, no terminal.
 */
#include "common/top/top_screen.h"
#include "common/top/top_lines.h"
#include "common/top/top_text.h"

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

int top_render(const struct top_model *m, const struct top_options *in,
               struct top_screen *out) {
  struct top_options o = *in;
  if (o.cols < 20)
    o.cols = 20;
  if (o.cols > TOP_MAX_COLS)
    o.cols = TOP_MAX_COLS;
  const struct top_devices *devs = &m->devs;
  size_t panels = 0;
  int rc = 0;
  for (size_t i = 0; i < devs->n && rc == 0; i++) {
    rc = top_header_render(m, &o, &devs->dev[i], out);
    if (rc == 0)
      rc = top_panels_render(m, &o, TOP_PANELS_OF_DEVICE, devs->dev[i].device,
                             out, &panels);
  }
  /* the panels of devices no header names (panthor_perf's render node,
   * tegra410_uncore's PMUs), above the table: it may be long */
  if (rc == 0)
    rc = top_panels_render(m, &o, TOP_PANELS_OTHER, NULL, out, &panels);
  /* said once, and only when something is hidden */
  if (rc == 0 && o.notice != NULL && devs->unreadable > 0) {
    char line[512];
    snprintf(line, sizeof(line), "%s; %.0f process%s could not be read",
             o.notice, devs->unreadable, devs->unreadable == 1 ? "" : "es");
    rc = top_screen_add(out, &o, "", TOP_LINE_TEXT);
    if (rc == 0)
      rc = top_text_line(out, &o, line, TOP_LINE_TEXT);
  }
  if (rc == 0 && devs->fdinfo && devs->n > 0)
    rc = top_table_render(m, &o, out);
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
