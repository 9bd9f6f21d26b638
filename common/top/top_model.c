/*
 * top_model.c: one batch of records kept for the top view, its history
 * across batches, and the layout of one screen (top_model.h): the order of
 * the parts and the panels of records no other part shows. No I/O, no
 * terminal: the ncurses view and the one-shot text output both draw these
 * lines.
 */
#include "common/top/top_model.h"
#include "common/top/top_device.h"
#include "common/top/top_history.h"
#include "common/top/top_lines.h"
#include "common/top/top_text.h"

#include <errno.h>
#include <inttypes.h>
#include <langinfo.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the sink ---- */

static int top_grow(void **p, size_t *cap, size_t need, size_t elem) {
  if (need <= *cap)
    return 0;
  size_t c = *cap ? *cap : 64;
  while (c < need)
    c *= 2;
  void *g = realloc(*p, c * elem);
  if (g == NULL)
    return -ENOMEM;
  *p = g;
  *cap = c;
  return 0;
}

/* Copy `s` into the arena; returns its offset or SIZE_MAX on ENOMEM. */
static size_t top_model_put(struct top_model *m, const char *s) {
  size_t len = strlen(s) + 1;
  if (top_grow((void **)&m->arena, &m->arena_cap, m->arena_len + len, 1) < 0)
    return SIZE_MAX;
  size_t off = m->arena_len;
  memcpy(m->arena + off, s, len);
  m->arena_len += len;
  return off;
}

static int top_model_begin(struct metric_sink *sink) {
  struct top_model *m = (struct top_model *)sink;
  m->arena_len = m->n_tags = m->n_fields = m->n_recs = 0;
  m->failed = false;
  m->time_ns = 0;
  return 0;
}

static int top_model_write(struct metric_sink *sink, const struct metric *r) {
  struct top_model *m = (struct top_model *)sink;
  if (m->failed ||
      top_grow((void **)&m->recs, &m->cap_recs, m->n_recs + 1,
               sizeof(*m->recs)) < 0 ||
      top_grow((void **)&m->tags, &m->cap_tags, 2 * (m->n_tags + r->n_tags),
               sizeof(*m->tags)) < 0 ||
      top_grow((void **)&m->fields, &m->cap_fields, m->n_fields + r->n_fields,
               sizeof(*m->fields)) < 0)
    goto fail;
  struct top_record rec = {top_model_put(m, r->measurement), m->n_tags,
                           r->n_tags, m->n_fields, r->n_fields};
  if (rec.measurement == SIZE_MAX)
    goto fail;
  for (size_t i = 0; i < r->n_tags; i++) {
    size_t k = top_model_put(m, r->tags[i].key);
    size_t v = top_model_put(m, r->tags[i].value);
    if (k == SIZE_MAX || v == SIZE_MAX)
      goto fail;
    m->tags[2 * (m->n_tags + i)] = k;
    m->tags[2 * (m->n_tags + i) + 1] = v;
  }
  for (size_t i = 0; i < r->n_fields; i++) {
    const struct metric_field *f = &r->fields[i];
    struct top_field *t = &m->fields[m->n_fields + i];
    t->key = top_model_put(m, f->key);
    t->ctype = top_model_put(m, f->ctype ? f->ctype : "");
    if (t->key == SIZE_MAX || t->ctype == SIZE_MAX)
      goto fail;
    t->is_int = f->kind == METRIC_INT;
    t->i = t->is_int ? f->v.i : 0;
    t->f = t->is_int ? (double)f->v.i : f->v.f;
  }
  m->n_tags += r->n_tags;
  m->n_fields += r->n_fields;
  m->recs[m->n_recs++] = rec;
  if (r->time_ns > m->time_ns)
    m->time_ns = r->time_ns;
  return 0;
fail:
  m->failed = true;
  return -ENOMEM;
}

/* The batch is whole: remember each device's utilisation and power. */
static int top_model_end(struct metric_sink *sink) {
  struct top_model *m = (struct top_model *)sink;
  if (m->history == NULL) {
    m->history = calloc(1, sizeof(*m->history));
    if (m->history == NULL)
      return 0; /* no charts; the screen itself is whole */
  }
  struct top_devices devs;
  memset(&devs, 0, sizeof(devs));
  int rc = top_devices_collect(m, &devs);
  top_history_begin(m->history, m->time_ns);
  for (size_t i = 0; rc == 0 && i < devs.n; i++) {
    const struct top_device *d = &devs.dev[i];
    double util = NAN;
    if (!top_device_util(d, &util))
      util = NAN;
    double power = d->v[TOP_DV_POWER].has ? d->v[TOP_DV_POWER].v : NAN;
    top_history_put(m->history, d->device, util, power);
  }
  top_devices_fini(&devs);
  return 0;
}

void top_model_init(struct top_model *m) {
  memset(m, 0, sizeof(*m));
  m->base.begin = top_model_begin;
  m->base.write = top_model_write;
  m->base.end = top_model_end;
}

void top_model_fini(struct top_model *m) {
  free(m->arena);
  free(m->tags);
  free(m->fields);
  free(m->recs);
  free(m->history);
  top_model_init(m);
}

const char *top_model_tag(const struct top_model *m, const struct top_record *r,
                          const char *key) {
  for (size_t i = 0; i < r->n_tags; i++)
    if (strcmp(m->arena + m->tags[2 * (r->tag0 + i)], key) == 0)
      return m->arena + m->tags[2 * (r->tag0 + i) + 1];
  return NULL;
}

const struct top_field *top_model_field(const struct top_model *m,
                                        const struct top_record *r,
                                        const char *key) {
  for (size_t i = 0; i < r->n_fields; i++)
    if (strcmp(m->arena + m->fields[r->field0 + i].key, key) == 0)
      return &m->fields[r->field0 + i];
  return NULL;
}

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

/* ---- panels: records no other part shows ---- */

static bool top_ends(const char *s, const char *suffix) {
  size_t a = strlen(s), b = strlen(suffix);
  return a >= b && strcmp(s + a - b, suffix) == 0;
}

/* Measurements of counters and diagnostics only: shown with `raw`. */
static bool top_raw_measurement(const char *name) {
  return strcmp(name, "drm_scan") == 0 || top_ends(name, "_event") ||
         top_ends(name, "_stream");
}

/* Which records a panel pass draws. */
enum top_panels {
  TOP_PANELS_OF_DEVICE, /* those tagged with `device` */
  TOP_PANELS_OTHER,     /* those tagged with no device of `devs` */
};

static int top_panel(const struct top_model *m, const struct top_options *o,
                     const struct top_record *r, struct top_screen *s) {
  const char *name = top_model_str(m, r->measurement);
  size_t hidden = 0;
  for (size_t k = 0; k < r->n_fields; k++)
    hidden += !o->raw && m->fields[r->field0 + k].is_int;
  struct top_lb lb;
  char cell[160], val[48];
  int rc;
  top_lb_start(&lb, o->cols);
  top_lb_cell(&lb, name, -1, false);
  for (size_t k = 0; k < r->n_tags; k++) {
    snprintf(cell, sizeof(cell), " %s=%s",
             m->arena + m->tags[2 * (r->tag0 + k)],
             m->arena + m->tags[2 * (r->tag0 + k) + 1]);
    top_lb_cell(&lb, cell, -1, false);
  }
  if (hidden > 0) {
    snprintf(cell, sizeof(cell), "  (+%zu raw counters: r)", hidden);
    top_lb_cell(&lb, cell, -1, false);
  }
  if ((rc = top_screen_lb(s, o, &lb, TOP_LINE_TITLE)) < 0)
    return rc;
  const int cell_w = 48;
  top_lb_start(&lb, o->cols);
  for (size_t k = 0; k < r->n_fields && rc == 0; k++) {
    const struct top_field *f = &m->fields[r->field0 + k];
    if (!o->raw && f->is_int)
      continue;
    if (lb.used > 0 && lb.used + cell_w > lb.cols) {
      rc = top_screen_lb(s, o, &lb, TOP_LINE_TEXT);
      top_lb_start(&lb, o->cols);
    }
    if (f->is_int)
      snprintf(val, sizeof(val), "%" PRId64, f->i);
    else
      top_format_value(val, sizeof(val), top_model_str(m, f->ctype), false,
                       f->f);
    top_lb_cell(&lb, "  ", 2, false);
    top_lb_cell(&lb, top_model_str(m, f->key), 34, false);
    top_lb_cell(&lb, val, cell_w - 36, true);
  }
  if (rc == 0 && lb.used > 0)
    rc = top_screen_lb(s, o, &lb, TOP_LINE_TEXT);
  return rc;
}

static int top_render_panels(const struct top_model *m,
                             const struct top_options *o,
                             const struct top_devices *devs,
                             enum top_panels which, const char *device,
                             struct top_screen *s, size_t *shown) {
  int rc = 0;
  for (size_t i = 0; i < m->n_recs && rc == 0; i++) {
    const struct top_record *r = &m->recs[i];
    const char *name = top_model_str(m, r->measurement);
    if (strcmp(name, "drm_engine") == 0 || strcmp(name, "drm_memory") == 0)
      continue; /* the table's */
    if (!o->raw && (top_raw_measurement(name) || top_device_consumes(m, r)))
      continue;
    const char *dev = top_model_tag(m, r, "device");
    if (which == TOP_PANELS_OF_DEVICE ? dev == NULL || strcmp(dev, device) != 0
                                      : top_devices_find(devs, dev) != NULL)
      continue;
    bool match = top_match(o->filter, &name, 1);
    for (size_t k = 0; k < r->n_tags && !match; k++) {
      const char *v = m->arena + m->tags[2 * (r->tag0 + k) + 1];
      match = top_match(o->filter, &v, 1);
    }
    if (!match)
      continue;
    (*shown)++;
    rc = top_panel(m, o, r, s);
  }
  return rc;
}

/* ---- one screen ---- */

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
  struct top_devices devs;
  memset(&devs, 0, sizeof(devs));
  int rc = top_devices_collect(m, &devs);
  size_t panels = 0;
  for (size_t i = 0; i < devs.n && rc == 0; i++) {
    rc = top_header_render(m, &o, &devs.dev[i], out);
    if (rc == 0)
      rc = top_render_panels(m, &o, &devs, TOP_PANELS_OF_DEVICE,
                             devs.dev[i].device, out, &panels);
  }
  /* the panels of devices no header names (panthor_perf's render node,
   * tegra410_uncore's PMUs), above the table: it may be long */
  if (rc == 0)
    rc = top_render_panels(m, &o, &devs, TOP_PANELS_OTHER, NULL, out, &panels);
  /* said once, and only when something is hidden */
  if (rc == 0 && o.notice != NULL && devs.unreadable > 0) {
    char line[512];
    snprintf(line, sizeof(line), "%s; %.0f process%s could not be read",
             o.notice, devs.unreadable, devs.unreadable == 1 ? "" : "es");
    rc = top_screen_add(out, &o, "", TOP_LINE_TEXT);
    if (rc == 0)
      rc = top_text_line(out, &o, line, TOP_LINE_TEXT);
  }
  if (rc == 0 && devs.fdinfo && devs.n > 0)
    rc = top_table_render(m, &o, &devs, out);
  if (rc == 0 && devs.n == 0 && panels == 0) {
    rc = top_text_line(out, &o, "no GPU found", TOP_LINE_TITLE);
    if (rc == 0 && o.looked_at != NULL)
      rc = top_text_line(out, &o, o.looked_at, TOP_LINE_TEXT);
  }
  if (rc == 0 && m->failed)
    rc =
        top_screen_add(out, &o, "(out of memory: records lost)", TOP_LINE_TEXT);
  top_devices_fini(&devs);
  return rc;
}
