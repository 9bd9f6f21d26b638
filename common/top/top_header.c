/*
 * top_header.c: one device's header in the live view (top_lines.h): its
 * identity and typed values (top_device.h) as whole parts that wrap, its
 * engines as bars, and its utilisation and power charts (top_history.h).
 */
#include "common/top/top_history.h"
#include "common/top/top_lines.h"
#include "common/top/top_text.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define TOP_CHART_LABEL 8 /* "  util  " */
#define TOP_CHART_RIGHT 9 /* " 100.0 W" */
#define TOP_CHART_UTIL_ROWS 3
#define TOP_CHART_POWER_ROWS 2

/* Parts laid out left to right, each whole; one that does not fit starts
 * the next line, indented. The first line is the title. */
struct top_flow {
  struct top_lb lb;
  const struct top_options *o;
  struct top_screen *s;
  bool title;
  int rc;
};

static void top_flow_start(struct top_flow *f, const struct top_options *o,
                           struct top_screen *s) {
  f->o = o;
  f->s = s;
  f->title = true;
  f->rc = 0;
  top_lb_start(&f->lb, o->cols);
}

static void top_flow_end_line(struct top_flow *f) {
  if (f->rc == 0 && f->lb.used > 0)
    f->rc = top_screen_lb(f->s, f->o, &f->lb,
                          f->title ? TOP_LINE_TITLE : TOP_LINE_TEXT);
  f->title = false;
  top_lb_start(&f->lb, f->o->cols);
}

static void top_flow_part(struct top_flow *f, const char *part) {
  if (f->lb.used > 2 && top_text_width(part) > f->lb.cols - f->lb.used) {
    top_flow_end_line(f); /* the part brings its indent */
  }
  top_lb_cell(&f->lb, part, -1, false); /* cut only when alone on a line */
}

static const char *top_v(const struct top_device *d, enum top_device_value k,
                         const char *ctype, char *buf, size_t size) {
  if (!d->v[k].has)
    return NULL;
  top_format_value(buf, size, ctype, false, d->v[k].v);
  return buf;
}

/* A bar of `width` cells for a percentage. */
static void top_bar(char *buf, size_t size, double pct, int width) {
  int full = (int)(pct / 100.0 * width + 0.5);
  if (full < 0)
    full = 0;
  if (full > width)
    full = width;
  size_t n = 0;
  buf[n++] = '[';
  for (int i = 0; i < width && n + 2 < size; i++)
    buf[n++] = i < full ? '|' : ' ';
  buf[n++] = ']';
  buf[n] = '\0';
}

/* "(5s old)" when drm_device holds the device's values longer than the
 * interval (its values_age_seconds), else "". */
static const char *top_age(const struct top_device *d,
                           const struct top_options *o, char *buf,
                           size_t size) {
  buf[0] = '\0';
  if (!d->v[TOP_DV_AGE].has || !(d->v[TOP_DV_AGE].v > o->interval_s))
    return buf;
  double age = d->v[TOP_DV_AGE].v;
  if (age < 10)
    snprintf(buf, size, "  (%.1fs old)", age);
  else if (age < 600)
    snprintf(buf, size, "  (%.0fs old)", age);
  else
    snprintf(buf, size, "  (%.0fm old)", age / 60);
  return buf;
}

static void top_header_values(const struct top_device *d, struct top_flow *f) {
  char part[160], a[48], b[48];
  const char *x, *y;
  x = top_v(d, TOP_DV_RESIDENT, "bytes", a, sizeof(a));
  y = top_v(d, TOP_DV_MEM_TOTAL, "bytes", b, sizeof(b));
  if (x || y) {
    snprintf(part, sizeof(part), "  mem %s%s%s%s%s", x ? x : "",
             x ? " resident" : "", x && y ? " / " : "", y ? y : "",
             y ? " total" : "");
    top_flow_part(f, part);
  }
  x = top_v(d, TOP_DV_VRAM_USED, "bytes", a, sizeof(a));
  y = top_v(d, TOP_DV_VRAM_TOTAL, "bytes", b, sizeof(b));
  if (x || y) {
    snprintf(part, sizeof(part), "  %s %s%s%s",
             d->vram_region && d->vram_region[0] ? d->vram_region : "memory",
             x ? x : "?", y ? " / " : "", y ? y : "");
    top_flow_part(f, part);
  }
  x = top_v(d, TOP_DV_FREQ, "gpu_hertz", a, sizeof(a));
  if (x == NULL)
    x = top_v(d, TOP_DV_FREQ_REQ, "gpu_hertz", a, sizeof(a));
  y = top_v(d, TOP_DV_FREQ_MAX, "gpu_hertz", b, sizeof(b));
  if (x) {
    snprintf(part, sizeof(part), "  %s %s%s%s%s",
             d->freq_domain && d->freq_domain[0] ? d->freq_domain : "clock", x,
             y ? " (max " : "", y ? y : "", y ? ")" : "");
    top_flow_part(f, part);
  }
  if ((x = top_v(d, TOP_DV_TEMP, "gpu_celsius", a, sizeof(a))) != NULL) {
    snprintf(part, sizeof(part), "  %s", x);
    top_flow_part(f, part);
  }
  x = top_v(d, TOP_DV_POWER, "gpu_watts", a, sizeof(a));
  y = top_v(d, TOP_DV_POWER_CAP, "gpu_watts", b, sizeof(b));
  if (x) {
    snprintf(part, sizeof(part), "  %s%s%s", x, y ? " / " : "", y ? y : "");
    top_flow_part(f, part);
  }
  if ((x = top_v(d, TOP_DV_FAN, "gpu_rpm", a, sizeof(a))) != NULL) {
    snprintf(part, sizeof(part), "  fan %s", x);
    top_flow_part(f, part);
  }
  if (top_age(d, f->o, part, sizeof(part))[0] != '\0')
    top_flow_part(f, part);
}

/* The device on one line: its name, then what fits of busy (the busiest
 * engine, as the table's BUSY), clock, temperature, power, the age of
 * held values, memory, fan, in that order (each whole or not at all). */
static int top_header_line(const struct top_device *d,
                           const struct top_options *o, const char *name,
                           struct top_screen *s) {
  struct top_lb lb;
  char part[160], a[48], b[48];
  const char *x, *y;
  double pct;
  char age[48];
  top_age(d, o, age, sizeof(age));
  top_lb_start(&lb, o->cols);
  top_lb_cell(&lb, name, -1, false);
  /* a held value is never shown without its age: room kept for it */
  int full = lb.cols;
  lb.cols -= top_text_width(age);
  if (lb.cols < lb.used)
    lb.cols = lb.used;
  if (top_device_util(d, &pct)) {
    snprintf(part, sizeof(part), "  busy %.1f%%", pct);
    top_lb_whole(&lb, part);
  }
  x = top_v(d, TOP_DV_FREQ, "gpu_hertz", a, sizeof(a));
  if (x == NULL)
    x = top_v(d, TOP_DV_FREQ_REQ, "gpu_hertz", a, sizeof(a));
  if (x != NULL) {
    snprintf(part, sizeof(part), "  %s %s",
             d->freq_domain && d->freq_domain[0] ? d->freq_domain : "clock", x);
    top_lb_whole(&lb, part);
  }
  if ((x = top_v(d, TOP_DV_TEMP, "gpu_celsius", a, sizeof(a))) != NULL) {
    snprintf(part, sizeof(part), "  %s", x);
    top_lb_whole(&lb, part);
  }
  x = top_v(d, TOP_DV_POWER, "gpu_watts", a, sizeof(a));
  y = top_v(d, TOP_DV_POWER_CAP, "gpu_watts", b, sizeof(b));
  if (x != NULL) {
    snprintf(part, sizeof(part), "  %s%s%s", x, y ? " / " : "", y ? y : "");
    if (y != NULL && top_text_width(part) > lb.cols - lb.used)
      snprintf(part, sizeof(part), "  %s", x); /* the cap first to go */
    top_lb_whole(&lb, part);
  }
  lb.cols = full;
  top_lb_whole(&lb, age);
  x = top_v(d, TOP_DV_VRAM_USED, "bytes", a, sizeof(a));
  if (x == NULL)
    x = top_v(d, TOP_DV_RESIDENT, "bytes", a, sizeof(a));
  if (x == NULL)
    x = top_v(d, TOP_DV_MEM_TOTAL, "bytes", a, sizeof(a));
  if (x != NULL) {
    snprintf(part, sizeof(part), "  mem %s", x);
    top_lb_whole(&lb, part);
  }
  if ((x = top_v(d, TOP_DV_FAN, "gpu_rpm", a, sizeof(a))) != NULL) {
    snprintf(part, sizeof(part), "  fan %s", x);
    top_lb_whole(&lb, part);
  }
  return top_screen_lb(s, o, &lb, TOP_LINE_TITLE);
}

/* One chart of `height` rows: a label, the cells, the scale. */
static int top_chart(const struct top_options *o, struct top_screen *s,
                     const struct top_history *h, const struct top_series *ser,
                     const char *label, double max, const char *max_text,
                     int height) {
  int width = o->cols - TOP_CHART_LABEL - TOP_CHART_RIGHT;
  if (width < 8)
    return 0; /* too narrow to say anything */
  size_t samples = (size_t)width * (o->utf8 ? 2 : 1);
  double span = top_history_span(h, samples);
  char left[32], right[32], cells[TOP_LINE_BYTES];
  for (int row = 0; row < height; row++) {
    if (row == 0)
      snprintf(left, sizeof(left), "  %s", label);
    else if (row == height - 1 && span >= 120)
      snprintf(left, sizeof(left), "  -%.0fm", span / 60);
    else if (row == height - 1)
      snprintf(left, sizeof(left), "  -%.0fs", span);
    else
      left[0] = '\0';
    snprintf(right, sizeof(right), " %s",
             row == 0            ? max_text
             : row == height - 1 ? "0"
                                 : "");
    top_chart_row(h, ser, max, width, height, row, o->utf8, cells,
                  sizeof(cells));
    struct top_lb lb;
    top_lb_start(&lb, o->cols);
    top_lb_cell(&lb, left, TOP_CHART_LABEL, false);
    top_lb_cell(&lb, cells, width, false);
    top_lb_cell(&lb, right, TOP_CHART_RIGHT, false);
    int rc = top_screen_lb(s, o, &lb, TOP_LINE_TEXT);
    if (rc < 0)
      return rc;
  }
  return 0;
}

static int top_header_charts(const struct top_model *m,
                             const struct top_options *o,
                             const struct top_device *d, struct top_screen *s) {
  const struct top_history *h = m->history;
  if (!o->charts || h == NULL || h->n < 2)
    return 0;
  const struct top_history_dev *hd = top_history_find(h, d->device);
  if (hd == NULL)
    return 0;
  double pct;
  int rc = 0;
  if (top_device_util(d, &pct))
    rc = top_chart(o, s, h, &hd->util, "util", 100.0, "100%",
                   TOP_CHART_UTIL_ROWS);
  if (rc == 0 && hd->has_power) {
    int width = o->cols - TOP_CHART_LABEL - TOP_CHART_RIGHT;
    size_t samples = (size_t)(width > 0 ? width : 0) * (o->utf8 ? 2 : 1);
    double max = d->v[TOP_DV_POWER_CAP].has
                     ? d->v[TOP_DV_POWER_CAP].v
                     : top_series_max(h, &hd->power, samples);
    if (max <= 0)
      max = 1;
    char text[32];
    top_format_value(text, sizeof(text), "gpu_watts", false, max);
    rc = top_chart(o, s, h, &hd->power, "power", max, text,
                   TOP_CHART_POWER_ROWS);
  }
  return rc;
}

int top_header_render(const struct top_model *m, const struct top_options *o,
                      const struct top_device *d, enum top_fold fold,
                      struct top_screen *s) {
  struct top_flow f;
  char cell[160];
  snprintf(cell, sizeof(cell), "%s%s%s %s", d->driver ? d->driver : "?",
           d->driver_other ? "/" : "", d->driver_other ? d->driver_other : "",
           d->device);
  if (fold != TOP_FOLD_FULL) {
    int rc = top_header_line(d, o, cell, s);
    if (rc == 0 && fold == TOP_FOLD_LINE)
      rc = top_header_charts(m, o, d, s);
    return rc;
  }
  top_flow_start(&f, o, s);
  top_lb_cell(&f.lb, cell, -1, false);
  top_header_values(d, &f);
  top_flow_end_line(&f);
  if (f.rc < 0)
    return f.rc;
  /* engines, as many per line as fit; the device's own busy without */
  for (int e = 0; e < d->n_engines; e++) {
    char bar[16];
    top_bar(bar, sizeof(bar), d->util[e], 10);
    snprintf(cell, sizeof(cell), "  %-.14s %s %5.1f%%", d->engine[e], bar,
             d->util[e]);
    top_flow_part(&f, cell);
  }
  if (d->n_engines == 0 && d->v[TOP_DV_BUSY].has) {
    char bar[16];
    top_bar(bar, sizeof(bar), d->v[TOP_DV_BUSY].v, 10);
    snprintf(cell, sizeof(cell), "  busy %s %5.1f%%", bar, d->v[TOP_DV_BUSY].v);
    top_flow_part(&f, cell);
  }
  top_flow_end_line(&f);
  if (f.rc < 0)
    return f.rc;
  return top_header_charts(m, o, d, s);
}
