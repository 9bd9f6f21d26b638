/*
 * top_model.c: one batch of records kept for the top view, and its layout
 * as screen lines (top_model.h). No I/O, no terminal: the ncurses view and
 * the one-shot text output both draw these lines.
 */
#include "common/top/top_model.h"
#include "common/top/top_text.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TOP_MAX_ENGINES 16
#define TOP_LINE_BYTES 2048 /* 4 bytes per column at most, and the NUL */
#define TOP_MAX_COLS 500

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
  return 0;
fail:
  m->failed = true;
  return -ENOMEM;
}

static int top_model_end(struct metric_sink *sink) {
  (void)sink;
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
  top_model_init(m);
}

const char *top_model_tag(const struct top_model *m, const struct top_record *r,
                          const char *key) {
  for (size_t i = 0; i < r->n_tags; i++)
    if (strcmp(m->arena + m->tags[2 * (r->tag0 + i)], key) == 0)
      return m->arena + m->tags[2 * (r->tag0 + i) + 1];
  return NULL;
}

static const char *top_rec_name(const struct top_model *m,
                                const struct top_record *r) {
  return m->arena + r->measurement;
}

/* The field `key` of `r`, or NULL. */
static const struct top_field *top_rec_field(const struct top_model *m,
                                             const struct top_record *r,
                                             const char *key) {
  for (size_t i = 0; i < r->n_fields; i++)
    if (strcmp(m->arena + m->fields[r->field0 + i].key, key) == 0)
      return &m->fields[r->field0 + i];
  return NULL;
}

static bool top_ends(const char *s, const char *suffix) {
  size_t a = strlen(s), b = strlen(suffix);
  return a >= b && strcmp(s + a - b, suffix) == 0;
}

/* ---- screen lines ---- */

struct top_lb {
  char buf[TOP_LINE_BYTES];
  int used, cols;
};

static void top_lb_start(struct top_lb *lb, int cols) {
  lb->buf[0] = '\0';
  lb->used = 0;
  lb->cols = cols;
}

/* Add `s` in a cell of `width` columns (-1: what is left), right-aligned
 * when `right`, cut to the line's width. */
static void top_lb_cell(struct top_lb *lb, const char *s, int width,
                        bool right) {
  int left = lb->cols - lb->used;
  if (left <= 0)
    return;
  if (width < 0) { /* as wide as the text */
    width = top_text_width(s);
    right = false;
  }
  if (right && width > left) { /* a column shown whole or not at all */
    lb->used = lb->cols;
    return;
  }
  if (width > left)
    width = left;
  if (right) {
    int w = top_text_width(s);
    if (w > width) {       /* a cut number would read as another number */
      lb->used = lb->cols; /* and nothing after it: columns stay aligned */
      return;
    }
    for (int i = w; i < width; i++) {
      top_text_fit(lb->buf, sizeof(lb->buf), " ", 1, 0);
      lb->used++;
    }
    width = w < width ? w : width;
  }
  lb->used += top_text_fit(lb->buf, sizeof(lb->buf), s, width, !right);
}

/* Add `s` only when it fits whole (a header's optional parts). */
static void top_lb_whole(struct top_lb *lb, const char *s) {
  if (top_text_width(s) <= lb->cols - lb->used)
    top_lb_cell(lb, s, -1, false);
}

static int top_screen_add(struct top_screen *s, const struct top_options *o,
                          const char *text, enum top_line_kind kind) {
  if (o->rows > 0 && s->n >= (size_t)o->rows)
    return 0;
  if (top_grow((void **)&s->lines, &s->cap, s->n + 1, sizeof(*s->lines)) < 0)
    return -ENOMEM;
  char *copy = strdup(text);
  if (copy == NULL)
    return -ENOMEM;
  s->lines[s->n].text = copy;
  s->lines[s->n].kind = kind;
  s->n++;
  return 0;
}

static int top_screen_lb(struct top_screen *s, const struct top_options *o,
                         struct top_lb *lb, enum top_line_kind kind) {
  /* trailing spaces carry nothing */
  size_t len = strlen(lb->buf);
  while (len > 0 && lb->buf[len - 1] == ' ')
    lb->buf[--len] = '\0';
  return top_screen_add(s, o, lb->buf, kind);
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
}

/* ---- the drm_fdinfo view ---- */

struct top_drm_row {
  const char *driver, *device, *pid, *name, *client;
  double busy[TOP_MAX_ENGINES];
  bool has[TOP_MAX_ENGINES];
  double busy_total, resident, total;
  bool has_resident, has_total;
};

struct top_drm {
  const struct top_model *m;
  const char *engines[TOP_MAX_ENGINES];
  int n_engines;
  struct top_drm_row *rows;
  size_t n_rows;
  size_t *slots; /* open addressing: row index + 1, 0 empty */
  size_t n_slots;
  int sort;
};

static int top_drm_engine(struct top_drm *d, const char *engine) {
  for (int i = 0; i < d->n_engines; i++)
    if (strcmp(d->engines[i], engine) == 0)
      return i;
  if (d->n_engines == TOP_MAX_ENGINES)
    return -1;
  d->engines[d->n_engines] = engine;
  return d->n_engines++;
}

static const char *top_str_or(const char *s, const char *def) {
  return s != NULL ? s : def;
}

static uint64_t top_hash(uint64_t h, const char *s) {
  for (; s != NULL && *s; s++)
    h = (h ^ (unsigned char)*s) * UINT64_C(0x100000001b3);
  return (h ^ 0xff) * UINT64_C(0x100000001b3);
}

static bool top_same(const char *a, const char *b) {
  return (a == NULL && b == NULL) || (a && b && strcmp(a, b) == 0);
}

/* The row of record `r` (created when new); NULL when out of room. */
static struct top_drm_row *top_drm_row(struct top_drm *d,
                                       const struct top_record *r,
                                       enum top_scope scope) {
  const struct top_model *m = d->m;
  struct top_drm_row key = {0};
  key.driver = top_model_tag(m, r, "driver");
  key.device = top_model_tag(m, r, "device");
  key.pid = top_model_tag(m, r, "pid");
  key.name = scope == TOP_SCOPE_CGROUP ? top_model_tag(m, r, "cgroup")
                                       : top_model_tag(m, r, "comm");
  key.client = top_model_tag(m, r, "client_id");
  uint64_t h =
      top_hash(top_hash(top_hash(UINT64_C(0xcbf29ce484222325), key.device),
                        scope == TOP_SCOPE_CGROUP ? key.name : key.pid),
               key.client);
  for (size_t i = h & (d->n_slots - 1);; i = (i + 1) & (d->n_slots - 1)) {
    if (d->slots[i] == 0) {
      d->rows[d->n_rows] = key;
      d->slots[i] = ++d->n_rows;
      return &d->rows[d->n_rows - 1];
    }
    struct top_drm_row *row = &d->rows[d->slots[i] - 1];
    if (top_same(row->device, key.device) &&
        top_same(row->client, key.client) &&
        (scope == TOP_SCOPE_CGROUP ? top_same(row->name, key.name)
                                   : top_same(row->pid, key.pid)))
      return row;
  }
}

static double top_num(const char *s) { return s ? strtod(s, NULL) : 0; }

static int top_drm_cmp(const void *pa, const void *pb, void *ctx) {
  const struct top_drm *d = ctx;
  const struct top_drm_row *a = pa, *b = pb;
  double x = 0, y = 0;
  int c = 0;
  switch (d->sort) {
  case TOP_SORT_BUSY:
    x = a->busy_total, y = b->busy_total;
    break;
  case TOP_SORT_MEMORY:
    x = a->total, y = b->total;
    break;
  case TOP_SORT_PID:
    x = -top_num(a->pid), y = -top_num(b->pid);
    break;
  case TOP_SORT_NAME:
    c = strcmp(top_str_or(a->name, ""), top_str_or(b->name, ""));
    break;
  default:
    if (d->sort - TOP_SORT_ENGINE < d->n_engines)
      x = a->busy[d->sort - TOP_SORT_ENGINE],
      y = b->busy[d->sort - TOP_SORT_ENGINE];
    break;
  }
  if (c == 0)
    c = x > y ? -1 : x < y ? 1 : 0;
  /* ties: a stable, readable order */
  if (c == 0)
    c = top_num(a->pid) < top_num(b->pid)   ? -1
        : top_num(a->pid) > top_num(b->pid) ? 1
                                            : 0;
  if (c == 0)
    c = strcmp(top_str_or(a->device, ""), top_str_or(b->device, ""));
  if (c == 0)
    c = strcmp(top_str_or(a->name, ""), top_str_or(b->name, ""));
  if (c == 0)
    c = top_num(a->client) < top_num(b->client)
            ? -1
            : top_num(a->client) > top_num(b->client);
  return c;
}

static bool top_match(const char *filter, const char *const *values, size_t n) {
  if (filter[0] == '\0')
    return true;
  for (size_t i = 0; i < n; i++)
    if (values[i] != NULL && strstr(values[i], filter) != NULL)
      return true;
  return false;
}

static const char *top_scope_name(enum top_scope s) {
  return s == TOP_SCOPE_CLIENT   ? "client"
         : s == TOP_SCOPE_CGROUP ? "cgroup"
                                 : "process";
}

/* A bar of `width` cells for a percentage. */
static void top_bar(char *buf, size_t size, double pct, int width) {
  int full = (int)(pct / 100.0 * width + 0.5);
  if (full < 0)
    full = 0;
  if (full > width)
    full = width;
  int n = 0;
  buf[n++] = '[';
  for (int i = 0; i < width && n + 2 < (int)size; i++)
    buf[n++] = i < full ? '|' : ' ';
  buf[n++] = ']';
  buf[n] = '\0';
}

/* A device's own record, shown in its header: drm_device's (the
 * drm_device plugin) and drm_clients (drm_fdinfo's client counts). */
static bool top_device_record(const char *name) {
  return strcmp(name, "drm_device") == 0 || strcmp(name, "drm_clients") == 0;
}

/* The header lines of one device: identity, memory and every field of its
 * device records; then the engines with bars. */
static int top_drm_device(const struct top_model *m,
                          const struct top_options *o, struct top_screen *s,
                          const char *driver, const char *device) {
  struct top_lb lb;
  char cell[96], val[48];
  double res = 0, tot = 0;
  bool has_res = false, has_tot = false;
  top_lb_start(&lb, o->cols);
  snprintf(cell, sizeof(cell), "%s %s", top_str_or(driver, "?"),
           top_str_or(device, "?"));
  top_lb_cell(&lb, cell, -1, false);
  for (size_t i = 0; i < m->n_recs; i++) {
    const struct top_record *r = &m->recs[i];
    const char *scope = top_model_tag(m, r, "scope");
    if (!top_same(top_model_tag(m, r, "device"), device))
      continue;
    if (strcmp(top_rec_name(m, r), "drm_memory") == 0 && scope &&
        strcmp(scope, "device") == 0) {
      const struct top_field *f = top_rec_field(m, r, "resident_bytes");
      const struct top_field *t = top_rec_field(m, r, "total_bytes");
      if (f)
        res += f->f, has_res = true;
      if (t)
        tot += t->f, has_tot = true;
    }
  }
  if (has_res || has_tot) {
    char r_text[48] = "", t_text[48] = "";
    if (has_res)
      top_format_value(r_text, sizeof(r_text), "bytes", NULL, true, res);
    if (has_tot)
      top_format_value(t_text, sizeof(t_text), "bytes", NULL, true, tot);
    snprintf(cell, sizeof(cell), "  mem %s%s%s%s%s", r_text,
             has_res ? " resident" : "", has_res && has_tot ? " / " : "",
             t_text, has_tot ? " total" : "");
    top_lb_whole(&lb, cell);
  }
  /* any device record of this device, from any plugin */
  for (size_t i = 0; i < m->n_recs; i++) {
    const struct top_record *r = &m->recs[i];
    if (!top_device_record(top_rec_name(m, r)) ||
        !top_same(top_model_tag(m, r, "device"), device))
      continue;
    for (size_t k = 0; k < r->n_fields; k++) {
      const struct top_field *f = &m->fields[r->field0 + k];
      const char *key = top_model_str(m, f->key);
      if (strcmp(key, "unreadable") == 0 && f->i == 0)
        continue;
      top_format_value(val, sizeof(val), key, top_model_str(m, f->ctype),
                       f->is_int, f->f);
      snprintf(cell, sizeof(cell), "  %s %s", key, val);
      top_lb_whole(&lb, cell);
    }
  }
  if (top_screen_lb(s, o, &lb, TOP_LINE_TITLE) < 0)
    return -ENOMEM;
  /* engines, as many per line as fit */
  top_lb_start(&lb, o->cols);
  top_lb_cell(&lb, "  ", 2, false);
  for (size_t i = 0; i < m->n_recs; i++) {
    const struct top_record *r = &m->recs[i];
    const char *scope = top_model_tag(m, r, "scope");
    if (strcmp(top_rec_name(m, r), "drm_engine") != 0 || !scope ||
        strcmp(scope, "device") != 0 ||
        !top_same(top_model_tag(m, r, "device"), device))
      continue;
    const struct top_field *u = top_rec_field(m, r, "utilization");
    double pct = u ? u->f : 0;
    char bar[16];
    top_bar(bar, sizeof(bar), pct, 10);
    snprintf(cell, sizeof(cell), "%-.14s %s %5.1f%%  ",
             top_str_or(top_model_tag(m, r, "engine"), "?"), bar, pct);
    int w = top_text_width(cell);
    if (lb.used + w > lb.cols && lb.used > 2) {
      if (top_screen_lb(s, o, &lb, TOP_LINE_TEXT) < 0)
        return -ENOMEM;
      top_lb_start(&lb, o->cols);
      top_lb_cell(&lb, "  ", 2, false);
    }
    top_lb_cell(&lb, cell, w, false);
  }
  return lb.used > 2 ? top_screen_lb(s, o, &lb, TOP_LINE_TEXT) : 0;
}

static int top_render_drm(const struct top_model *m,
                          const struct top_options *o, struct top_screen *s) {
  int rc = 0;
  /* device headers, first-seen order */
  const char *seen[64][2];
  size_t n_seen = 0;
  for (size_t i = 0; i < m->n_recs && rc == 0; i++) {
    const struct top_record *r = &m->recs[i];
    const char *scope = top_model_tag(m, r, "scope");
    if (strncmp(top_rec_name(m, r), "drm_", 4) != 0 || !scope ||
        strcmp(scope, "device") != 0)
      continue;
    const char *drv = top_model_tag(m, r, "driver");
    const char *dev = top_model_tag(m, r, "device");
    bool dup = false;
    for (size_t k = 0; k < n_seen && !dup; k++)
      dup = top_same(seen[k][1], dev);
    const char *vals[] = {drv, dev};
    if (dup || n_seen == 64 || !top_match(o->filter, vals, 2))
      continue;
    seen[n_seen][0] = drv;
    seen[n_seen][1] = dev;
    n_seen++;
    rc = top_drm_device(m, o, s, drv, dev);
  }
  if (rc == 0 && o->notice != NULL)
    rc = top_screen_add(s, o, "", TOP_LINE_TEXT);
  if (rc == 0 && o->notice != NULL) {
    struct top_lb lb;
    top_lb_start(&lb, o->cols);
    top_lb_cell(&lb, o->notice, -1, false);
    rc = top_screen_lb(s, o, &lb, TOP_LINE_TEXT);
  }
  if (rc < 0)
    return rc;

  /* rows of the selected scope */
  struct top_drm d;
  memset(&d, 0, sizeof(d));
  d.m = m;
  d.sort = o->sort;
  d.n_slots = 16;
  while (d.n_slots < 2 * m->n_recs)
    d.n_slots *= 2;
  d.rows = calloc(m->n_recs + 1, sizeof(*d.rows));
  d.slots = calloc(d.n_slots, sizeof(*d.slots));
  if (d.rows == NULL || d.slots == NULL) {
    rc = -ENOMEM;
    goto out;
  }
  const char *want = top_scope_name(o->scope);
  for (size_t i = 0; i < m->n_recs; i++) {
    const struct top_record *r = &m->recs[i];
    const char *name = top_rec_name(m, r);
    const char *scope = top_model_tag(m, r, "scope");
    bool engine = strcmp(name, "drm_engine") == 0;
    if ((!engine && strcmp(name, "drm_memory") != 0) || !scope ||
        strcmp(scope, want) != 0)
      continue;
    const char *vals[] = {
        top_model_tag(m, r, "driver"), top_model_tag(m, r, "device"),
        top_model_tag(m, r, "comm"), top_model_tag(m, r, "cgroup"),
        top_model_tag(m, r, "pid")};
    if (!top_match(o->filter, vals, 5))
      continue;
    struct top_drm_row *row = top_drm_row(&d, r, o->scope);
    if (engine) {
      const struct top_field *u = top_rec_field(m, r, "utilization");
      int e =
          top_drm_engine(&d, top_str_or(top_model_tag(m, r, "engine"), "?"));
      if (u != NULL && e >= 0) {
        row->busy[e] += u->f;
        row->has[e] = true;
        row->busy_total += u->f;
      }
    } else {
      const struct top_field *f = top_rec_field(m, r, "resident_bytes");
      const struct top_field *t = top_rec_field(m, r, "total_bytes");
      row->resident += f ? f->f : 0;
      row->total += t ? t->f : 0;
      row->has_resident |= f != NULL;
      row->has_total |= t != NULL;
    }
  }
  s->n_engines = d.n_engines;
  if (d.sort >= TOP_SORT_ENGINE + d.n_engines)
    d.sort = TOP_SORT_BUSY;
  qsort_r(d.rows, d.n_rows, sizeof(*d.rows), top_drm_cmp, &d);

  /* column header; the sort column is marked with '*' */
  bool client = o->scope == TOP_SCOPE_CLIENT;
  bool cgroup = o->scope == TOP_SCOPE_CGROUP;
  int name_w = cgroup ? 30 : 16;
  struct top_lb lb;
  char cell[64];
#define TOP_HDR(text, w, right, key)                                           \
  do {                                                                         \
    snprintf(cell, sizeof(cell), "%s%s", (text), d.sort == (key) ? "*" : "");  \
    top_lb_cell(&lb, cell, (w), (right));                                      \
  } while (0)
  if ((rc = top_screen_add(s, o, "", TOP_LINE_TEXT)) < 0)
    goto out;
  top_lb_start(&lb, o->cols);
  if (!cgroup)
    TOP_HDR("PID", 8, true, TOP_SORT_PID);
  bool user = !cgroup && o->user_name != NULL;
  if (user)
    top_lb_cell(&lb, " USER    ", 9, false);
  if (client)
    top_lb_cell(&lb, "  CLIENT", 8, true);
  top_lb_cell(&lb, " ", 1, false);
  TOP_HDR(cgroup ? "CGROUP" : "NAME", name_w, false, TOP_SORT_NAME);
  top_lb_cell(&lb, " DEVICE      ", 13, false);
  for (int e = 0; e < d.n_engines; e++) {
    char h[24];
    snprintf(h, sizeof(h), " %.7s", d.engines[e]);
    TOP_HDR(h, 9, true, TOP_SORT_ENGINE + e);
  }
  TOP_HDR(" BUSY", 8, true, TOP_SORT_BUSY);
  top_lb_cell(&lb, "  RESIDENT", 11, true);
  TOP_HDR("  MEMORY", 11, true, TOP_SORT_MEMORY);
#undef TOP_HDR
  if ((rc = top_screen_lb(s, o, &lb, TOP_LINE_HEADER)) < 0)
    goto out;
  if (d.n_rows == 0) {
    snprintf(cell, sizeof(cell), "  (no %s records%s)", want,
             o->scope == TOP_SCOPE_PROCESS ? ""
             : client                      ? ": add --ReportBy=Client"
                                           : ": add --ReportBy=Cgroup");
    rc = top_screen_add(s, o, cell, TOP_LINE_TEXT);
  }
  for (size_t i = 0; i < d.n_rows && rc == 0; i++) {
    if (o->rows > 0 && s->n >= (size_t)o->rows)
      break; /* below the screen */
    if (o->max_rows > 0 && i >= (size_t)o->max_rows) {
      snprintf(cell, sizeof(cell), "  (%zu more)", d.n_rows - i);
      rc = top_screen_add(s, o, cell, TOP_LINE_TEXT);
      break;
    }
    const struct top_drm_row *row = &d.rows[i];
    char val[48];
    top_lb_start(&lb, o->cols);
    if (!cgroup)
      top_lb_cell(&lb, top_str_or(row->pid, "-"), 8, true);
    if (user) {
      const char *u = row->pid ? o->user_name(o->user_ctx, row->pid) : NULL;
      top_lb_cell(&lb, " ", 1, false);
      top_lb_cell(&lb, top_str_or(u, "-"), 8, false);
    }
    if (client) {
      snprintf(cell, sizeof(cell), "%s", top_str_or(row->client, "-"));
      top_lb_cell(&lb, cell, 8, true);
    }
    top_lb_cell(&lb, " ", 1, false);
    top_lb_cell(&lb, top_str_or(row->name, "-"), name_w, false);
    top_lb_cell(&lb, " ", 1, false);
    top_lb_cell(&lb, top_str_or(row->device, "-"), 12, false);
    for (int e = 0; e < d.n_engines; e++) {
      if (row->has[e])
        snprintf(cell, sizeof(cell), "%.1f%%", row->busy[e]);
      else
        snprintf(cell, sizeof(cell), "-");
      top_lb_cell(&lb, cell, 9, true);
    }
    snprintf(cell, sizeof(cell), "%.1f%%", row->busy_total);
    top_lb_cell(&lb, cell, 8, true);
    top_format_value(val, sizeof(val), "bytes", NULL, true, row->resident);
    top_lb_cell(&lb, row->has_resident ? val : "-", 11, true);
    top_format_value(val, sizeof(val), "bytes", NULL, true, row->total);
    top_lb_cell(&lb, row->has_total ? val : "-", 11, true);
    rc = top_screen_lb(s, o, &lb, TOP_LINE_TEXT);
  }
out:
  free(d.rows);
  free(d.slots);
  return rc;
}

/* ---- panels for every other measurement ---- */

/* Measurements of counters and diagnostics only: shown with `raw`. */
static bool top_raw_measurement(const char *name) {
  return strcmp(name, "drm_scan") == 0 || top_ends(name, "_event") ||
         top_ends(name, "_stream");
}

/* `drm`: the drm_fdinfo view is on screen, and shows device records
 * (top_device_record) in its device headers; without it they are panels
 * like any other. */
static int top_render_panels(const struct top_model *m,
                             const struct top_options *o, bool drm,
                             struct top_screen *s) {
  int rc = 0;
  for (size_t i = 0; i < m->n_recs && rc == 0; i++) {
    const struct top_record *r = &m->recs[i];
    const char *name = top_rec_name(m, r);
    if (strcmp(name, "drm_engine") == 0 || strcmp(name, "drm_memory") == 0 ||
        (drm && top_device_record(name)))
      continue;
    if (!o->raw && top_raw_measurement(name))
      continue;
    bool match = top_match(o->filter, &name, 1);
    for (size_t k = 0; k < r->n_tags && !match; k++) {
      const char *v = m->arena + m->tags[2 * (r->tag0 + k) + 1];
      match = top_match(o->filter, &v, 1);
    }
    if (!match)
      continue;
    size_t hidden = 0;
    for (size_t k = 0; k < r->n_fields; k++)
      hidden += !o->raw && m->fields[r->field0 + k].is_int;
    struct top_lb lb;
    char cell[160], val[48];
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
      const char *key = top_model_str(m, f->key);
      if (f->is_int)
        snprintf(val, sizeof(val), "%" PRId64, f->i);
      else
        top_format_value(val, sizeof(val), key, top_model_str(m, f->ctype),
                         f->is_int, f->f);
      top_lb_cell(&lb, "  ", 2, false);
      top_lb_cell(&lb, key, 34, false);
      top_lb_cell(&lb, val, cell_w - 36, true);
    }
    if (rc == 0 && lb.used > 0)
      rc = top_screen_lb(s, o, &lb, TOP_LINE_TEXT);
  }
  return rc;
}

int top_render(const struct top_model *m, const struct top_options *in,
               struct top_screen *out) {
  struct top_options o = *in;
  if (o.cols < 20)
    o.cols = 20;
  if (o.cols > TOP_MAX_COLS)
    o.cols = TOP_MAX_COLS;
  bool drm = false;
  for (size_t i = 0; i < m->n_recs && !drm; i++) {
    const char *name = top_rec_name(m, &m->recs[i]);
    drm = strcmp(name, "drm_engine") == 0 || strcmp(name, "drm_memory") == 0;
  }
  int rc = 0;
  if (drm)
    rc = top_render_drm(m, &o, out);
  else if (o.notice != NULL) {
    struct top_lb lb;
    top_lb_start(&lb, o.cols);
    top_lb_cell(&lb, o.notice, -1, false);
    rc = top_screen_lb(out, &o, &lb, TOP_LINE_TEXT);
  }
  if (rc == 0 && drm && o.raw)
    rc = top_screen_add(out, &o, "", TOP_LINE_TEXT);
  if (rc == 0)
    rc = top_render_panels(m, &o, drm, out);
  if (rc == 0 && m->failed)
    rc =
        top_screen_add(out, &o, "(out of memory: records lost)", TOP_LINE_TEXT);
  return rc;
}
