/*
 * top_panels.c: the panels of the live view (top_lines.h): one per record
 * no other part of the screen shows (i915_oa under its device's header,
 * panthor_perf and tegra410_uncore after the headers), its derived
 * metrics in the unit of their type; raw counters and the diagnostic
 * measurements only with `raw`.
 */
#include "common/top/top_lines.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static bool top_ends(const char *s, const char *suffix) {
  size_t a = strlen(s), b = strlen(suffix);
  return a >= b && strcmp(s + a - b, suffix) == 0;
}

/* Measurements of counters and diagnostics only: shown with `raw`. */
static bool top_raw_measurement(const char *name) {
  return strcmp(name, "drm_scan") == 0 || top_ends(name, "_event") ||
         top_ends(name, "_stream");
}

static int top_panel(const struct top_batch *b, const struct top_options *o,
                     enum top_fold fold, const struct top_record *r,
                     struct top_screen *s) {
  const char *name = top_record_name(b, r);
  size_t hidden = 0, values = 0;
  for (size_t k = 0; k < r->n_fields; k++) {
    bool is_int = b->fields[r->field0 + k].is_int;
    hidden += !o->raw && is_int;
    values += o->raw || !is_int;
  }
  struct top_lb lb;
  char cell[160], val[48];
  int rc;
  top_lb_start(&lb, o->cols);
  top_lb_cell(&lb, name, -1, false);
  for (size_t k = 0; k < r->n_tags; k++) {
    snprintf(cell, sizeof(cell), " %s=%s", top_record_tag_key(b, r, k),
             top_record_tag_value(b, r, k));
    top_lb_cell(&lb, cell, -1, false);
  }
  if (fold != TOP_FOLD_FULL && values > 0) { /* folded: its title only */
    snprintf(cell, sizeof(cell), "  (%zu values folded)", values);
    top_lb_cell(&lb, cell, -1, false);
  } else if (hidden > 0) {
    snprintf(cell, sizeof(cell), "  (+%zu raw counters: r)", hidden);
    top_lb_cell(&lb, cell, -1, false);
  }
  if ((rc = top_screen_lb(s, o, &lb, TOP_LINE_TITLE)) < 0 ||
      fold != TOP_FOLD_FULL)
    return rc;
  const int cell_w = 48;
  top_lb_start(&lb, o->cols);
  for (size_t k = 0; k < r->n_fields && rc == 0; k++) {
    const struct top_field *f = &b->fields[r->field0 + k];
    if (!o->raw && f->is_int)
      continue;
    if (lb.used > 0 && lb.used + cell_w > lb.cols) {
      rc = top_screen_lb(s, o, &lb, TOP_LINE_TEXT);
      top_lb_start(&lb, o->cols);
    }
    if (f->is_int)
      snprintf(val, sizeof(val), "%" PRId64, f->i);
    else
      top_format_value(val, sizeof(val), top_batch_str(b, f->ctype), false,
                       f->f);
    top_lb_cell(&lb, "  ", 2, false);
    top_lb_cell(&lb, top_batch_str(b, f->key), 34, false);
    top_lb_cell(&lb, val, cell_w - 36, true);
  }
  if (rc == 0 && lb.used > 0)
    rc = top_screen_lb(s, o, &lb, TOP_LINE_TEXT);
  return rc;
}

/* Whether record `r` is a panel of `which`, shown under the options. */
static bool top_is_panel(const struct top_model *m, const struct top_options *o,
                         enum top_panels which, const char *device,
                         const struct top_record *r) {
  const struct top_batch *b = &m->batch;
  const char *name = top_record_name(b, r);
  if (strcmp(name, "drm_engine") == 0 || strcmp(name, "drm_memory") == 0)
    return false; /* the table's */
  if (!o->raw && (top_raw_measurement(name) || top_device_consumes(b, r)))
    return false;
  const char *dev = top_batch_tag(b, r, "device");
  if (which == TOP_PANELS_OF_DEVICE ? dev == NULL || strcmp(dev, device) != 0
                                    : top_devices_find(&m->devs, dev) != NULL)
    return false;
  bool match = top_match(o->filter, &name, 1);
  for (size_t k = 0; k < r->n_tags && !match; k++) {
    const char *v = top_record_tag_value(b, r, k);
    match = top_match(o->filter, &v, 1);
  }
  return match;
}

int top_panels_render(const struct top_model *m, const struct top_options *o,
                      enum top_fold fold, enum top_panels which,
                      const char *device, struct top_screen *s, size_t *shown) {
  const struct top_batch *b = &m->batch;
  int rc = 0;
  for (size_t i = 0; i < b->n_recs && rc == 0; i++)
    if (top_is_panel(m, o, which, device, &b->recs[i])) {
      (*shown)++;
      rc = top_panel(b, o, fold, &b->recs[i], s);
    }
  return rc;
}

int top_panels_count(const struct top_model *m, const struct top_options *o,
                     enum top_panels which, const char *device, size_t *n) {
  const struct top_batch *b = &m->batch;
  for (size_t i = 0; i < b->n_recs; i++)
    *n += top_is_panel(m, o, which, device, &b->recs[i]);
  return 0;
}
