/*
 * top_table.c: drm_fdinfo's table in the live view (top_lines.h): one row
 * per process, client, container or cgroup (the scope the options select)
 * with per-engine busy %, BUSY (the busiest engine's %: each engine is
 * 0-100 %, drm_fdinfo divides by its capacity, so a row's BUSY never
 * passes its device's bar of that engine), and memory, sorted; and its
 * columns fitted to the screen, the most useful first: the sort column,
 * PID and NAME, CLIENT, BUSY, MEMORY, USER, DEVICE (when there are
 * several), RESIDENT, then the engines of the rows on the screen (their
 * union, not every engine of every driver) as many as fit. A width left
 * over widens NAME. On a screen of known height the rows are a window
 * (the scroll position) with a line saying how many are off it.
 */
#include "common/top/top_lines.h"
#include "common/top/top_text.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int top_drm_engine(struct top_table *d, const char *engine) {
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

/* Rows named by a path or a container rather than a pid. */
static bool top_scope_named(enum top_scope scope) {
  return scope == TOP_SCOPE_CGROUP || scope == TOP_SCOPE_CONTAINER;
}

static bool top_hex(const char *s, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
      return false;
  return true;
}

/* A container row's name (drm_fdinfo's ReportBy Container): namespace/
 * pod/container when the names are known (kube-state-metrics' tags; a
 * pod "named" by its uid or a container by its short id is not a name),
 * else runtime:id (the id's first 12 hex digits, as docker ps shows it),
 * else the cgroup path, else pod:uid, else the runtime (drm_fdinfo's
 * "host": the processes in no container, one row). Kept in the table's
 * name store (when it is full: the cgroup path). */
static const char *top_container_name(struct top_table *d,
                                      const struct top_batch *m,
                                      const struct top_record *r) {
  const char *ns = top_batch_tag(m, r, "namespace");
  const char *pod = top_batch_tag(m, r, "pod");
  const char *ctr = top_batch_tag(m, r, "container");
  const char *uid = top_batch_tag(m, r, "pod_uid");
  const char *id = top_batch_tag(m, r, "container_id");
  const char *runtime = top_batch_tag(m, r, "container_runtime");
  const char *cgroup = top_batch_tag(m, r, "cgroup");
  size_t id_len = id != NULL ? strlen(id) : 0;
  bool pod_named = pod != NULL && pod[0] && !top_same(pod, uid);
  /* drm_fdinfo names an unnamed container by its id's first digits */
  bool ctr_named = ctr != NULL && ctr[0] &&
                   !(id_len > 0 && strncmp(id, ctr, strlen(ctr)) == 0);
  char buf[TOP_NAME_BYTES];
  if (ns != NULL && ns[0] && pod_named && ctr_named)
    snprintf(buf, sizeof(buf), "%s/%s/%s", ns, pod, ctr);
  else if (id_len >= TOP_SHORT_ID && top_hex(id, TOP_SHORT_ID))
    snprintf(buf, sizeof(buf), "%s:%.*s",
             runtime != NULL && runtime[0] ? runtime : "container",
             TOP_SHORT_ID, id);
  else if (cgroup != NULL)
    return cgroup;
  else if (uid != NULL && uid[0])
    snprintf(buf, sizeof(buf), "pod:%s", uid);
  else /* the processes in no container: "host" */
    return runtime;
  size_t len = strlen(buf) + 1;
  if (d->names_len + len > d->names_cap)
    return cgroup;
  char *out = d->names + d->names_len;
  memcpy(out, buf, len);
  d->names_len += len;
  return out;
}

/* The row of record `r` (created when new); NULL when out of room. */
static struct top_table_row *top_drm_row(struct top_table *d,
                                         const struct top_record *r,
                                         enum top_scope scope) {
  const struct top_batch *m = d->m;
  struct top_table_row key = {0};
  key.driver = top_batch_tag(m, r, "driver");
  key.device = top_batch_tag(m, r, "device");
  key.pid = top_batch_tag(m, r, "pid");
  key.name = scope == TOP_SCOPE_CGROUP      ? top_batch_tag(m, r, "cgroup")
             : scope == TOP_SCOPE_CONTAINER ? top_container_name(d, m, r)
                                            : top_batch_tag(m, r, "comm");
  key.client = top_batch_tag(m, r, "client_id");
  uint64_t h =
      top_hash(top_hash(top_hash(UINT64_C(0xcbf29ce484222325), key.device),
                        top_scope_named(scope) ? key.name : key.pid),
               key.client);
  for (size_t i = h & (d->n_slots - 1);; i = (i + 1) & (d->n_slots - 1)) {
    if (d->slots[i] == 0) {
      d->rows[d->n_rows] = key;
      d->slots[i] = ++d->n_rows;
      return &d->rows[d->n_rows - 1];
    }
    struct top_table_row *row = &d->rows[d->slots[i] - 1];
    if (top_same(row->device, key.device) &&
        top_same(row->client, key.client) &&
        (top_scope_named(scope) ? top_same(row->name, key.name)
                                : top_same(row->pid, key.pid)))
      return row;
  }
}

static double top_num(const char *s) { return s ? strtod(s, NULL) : 0; }

static int top_drm_cmp(const void *pa, const void *pb, void *ctx) {
  const struct top_table *d = ctx;
  const struct top_table_row *a = pa, *b = pb;
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

static const char *top_scope_name(enum top_scope s) {
  return s == TOP_SCOPE_CLIENT      ? "client"
         : s == TOP_SCOPE_CGROUP    ? "cgroup"
         : s == TOP_SCOPE_CONTAINER ? "container"
                                    : "process";
}

/* ---- columns ---- */

enum top_col_id {
  TOP_COL_PID,
  TOP_COL_USER,
  TOP_COL_CLIENT,
  TOP_COL_NAME,
  TOP_COL_DEVICE,
  TOP_COL_ENGINE, /* one per engine */
  TOP_COL_BUSY,
  TOP_COL_RESIDENT,
  TOP_COL_MEMORY,
};

struct top_col {
  enum top_col_id id;
  int engine;   /* TOP_COL_ENGINE: which */
  int width;    /* columns, with the leading blank */
  bool right;   /* numbers: right-aligned */
  int prio;     /* lower first */
  int sort_key; /* enum top_sort, or -1 */
  bool on;
};

#define TOP_NAME_W 17     /* " " + 16 */
#define TOP_CGROUP_W 31   /* " " + 30 */
#define TOP_NAME_MAX_W 41 /* widened with the room left at most to this */
#define TOP_CGROUP_MAX_W 65
#define TOP_NAME_MIN_W 7
#define TOP_MAX_COLUMNS (TOP_MAX_ENGINES + 8)

/* The columns in screen order, those that fit switched on. Returns the
 * count. */
static int top_columns(const struct top_table *d, const struct top_options *o,
                       size_t n_devices, bool resident, const int *shown,
                       struct top_col *c) {
  bool cgroup = top_scope_named(o->scope);
  int n = 0;
  if (!cgroup)
    c[n++] = (struct top_col){TOP_COL_PID, 0, 8, true, 1, TOP_SORT_PID, 0};
  if (!cgroup && o->user_name != NULL)
    c[n++] = (struct top_col){TOP_COL_USER, 0, 9, false, 5, -1, 0};
  if (o->scope == TOP_SCOPE_CLIENT)
    c[n++] = (struct top_col){TOP_COL_CLIENT, 0, 8, true, 2, -1, 0};
  c[n++] = (struct top_col){
      TOP_COL_NAME,  0, cgroup ? TOP_CGROUP_W : TOP_NAME_W, false, 1,
      TOP_SORT_NAME, 0};
  c[n++] = (struct top_col){TOP_COL_DEVICE,         0,  13, false,
                            n_devices > 1 ? 6 : 30, -1, 0};
  /* the engines of the rows on the screen, in their first-seen order;
   * when not all fit, those of the upper rows first; the sort engine
   * always */
  for (int e = 0; e < d->n_engines; e++)
    if (shown[e] >= 0 || d->sort == TOP_SORT_ENGINE + e)
      c[n++] = (struct top_col){
          TOP_COL_ENGINE,      e, 9, true, 8 + (shown[e] >= 0 ? shown[e] : 0),
          TOP_SORT_ENGINE + e, 0};
  c[n++] = (struct top_col){TOP_COL_BUSY, 0, 8, true, 3, TOP_SORT_BUSY, 0};
  /* RESIDENT when a row shown has it (drivers without drm-resident-*
   * would fill it with '-'); else after the engines */
  c[n++] =
      (struct top_col){TOP_COL_RESIDENT, 0, 11, true, resident ? 7 : 29, -1, 0};
  c[n++] = (struct top_col){TOP_COL_MEMORY, 0, 11, true, 4, TOP_SORT_MEMORY, 0};
  for (int i = 0; i < n; i++)
    if (c[i].sort_key == d->sort)
      c[i].prio = 0; /* the rows are ordered by it: always on screen */
  /* switch columns on, the most useful first, while they fit */
  int used = 0, name = -1;
  for (int prio = 0; prio <= 30; prio++) /* engines: 8 + 0..15 */
    for (int i = 0; i < n; i++) {
      if (c[i].prio != prio)
        continue;
      if (c[i].id == TOP_COL_NAME) {
        name = i;
        if (used + c[i].width > o->cols)
          c[i].width = o->cols - used; /* a name cut short, not gone */
        if (c[i].width < TOP_NAME_MIN_W)
          continue;
      }
      if (used + c[i].width <= o->cols) {
        c[i].on = true;
        used += c[i].width;
      }
    }
  /* the room left widens the name */
  if (name >= 0 && c[name].on) {
    int max = cgroup ? TOP_CGROUP_MAX_W : TOP_NAME_MAX_W;
    int grow = o->cols - used;
    if (c[name].width + grow > max)
      grow = max - c[name].width;
    if (grow > 0)
      c[name].width += grow;
  }
  return n;
}

static void top_col_title(const struct top_table *d,
                          const struct top_options *o, const struct top_col *c,
                          struct top_lb *lb) {
  char text[32];
  const char *t = "";
  switch (c->id) {
  case TOP_COL_PID:
    t = "PID";
    break;
  case TOP_COL_USER:
    t = "USER";
    break;
  case TOP_COL_CLIENT:
    t = "CLIENT";
    break;
  case TOP_COL_NAME:
    t = o->scope == TOP_SCOPE_CGROUP      ? "CGROUP"
        : o->scope == TOP_SCOPE_CONTAINER ? "CONTAINER"
                                          : "NAME";
    break;
  case TOP_COL_DEVICE:
    t = "DEVICE";
    break;
  case TOP_COL_ENGINE:
    t = d->engines[c->engine];
    break;
  case TOP_COL_BUSY:
    t = "BUSY";
    break;
  case TOP_COL_RESIDENT:
    t = "RESIDENT";
    break;
  case TOP_COL_MEMORY:
    t = "MEMORY";
    break;
  }
  /* an engine's name cut to its column, the sort mark kept */
  snprintf(text, sizeof(text), "%.*s%s", c->width - 2, t,
           c->sort_key == d->sort ? "*" : "");
  if (c->right) {
    top_lb_cell(lb, text, c->width, true);
  } else {
    top_lb_cell(lb, " ", 1, false);
    top_lb_cell(lb, text, c->width - 1, false);
  }
}

static void top_col_value(const struct top_options *o, const struct top_col *c,
                          const struct top_table_row *row, struct top_lb *lb) {
  char text[TOP_LINE_BYTES];
  text[0] = '\0';
  switch (c->id) {
  case TOP_COL_PID:
    snprintf(text, sizeof(text), "%s", top_str_or(row->pid, "-"));
    break;
  case TOP_COL_USER: {
    const char *u = row->pid ? o->user_name(o->user_ctx, row->pid) : NULL;
    top_text_fit_end(text, sizeof(text), top_str_or(u, "-"), c->width - 1, 0);
    break;
  }
  case TOP_COL_CLIENT:
    snprintf(text, sizeof(text), "%s", top_str_or(row->client, "-"));
    break;
  case TOP_COL_NAME:
    if (top_scope_named(o->scope)) /* a path: its last part kept */
      top_text_fit_middle(text, sizeof(text), top_str_or(row->name, "-"),
                          c->width - 1, 0);
    else
      top_text_fit_end(text, sizeof(text), top_str_or(row->name, "-"),
                       c->width - 1, 0);
    break;
  case TOP_COL_DEVICE:
    top_text_fit_end(text, sizeof(text), top_str_or(row->device, "-"),
                     c->width - 1, 0);
    break;
  case TOP_COL_ENGINE:
    if (row->has[c->engine])
      snprintf(text, sizeof(text), "%.1f%%", row->busy[c->engine]);
    else
      snprintf(text, sizeof(text), "-");
    break;
  case TOP_COL_BUSY:
    snprintf(text, sizeof(text), "%.1f%%", row->busy_total);
    break;
  case TOP_COL_RESIDENT:
    if (row->has_resident)
      top_format_value(text, sizeof(text), "bytes", true, row->resident);
    else
      snprintf(text, sizeof(text), "-");
    break;
  case TOP_COL_MEMORY:
    if (row->has_total)
      top_format_value(text, sizeof(text), "bytes", true, row->total);
    else
      snprintf(text, sizeof(text), "-");
    break;
  }
  if (c->right) {
    top_lb_cell(lb, text, c->width, true);
  } else {
    top_lb_cell(lb, " ", 1, false);
    top_lb_cell(lb, text, c->width - 1, false);
  }
}

/* ---- the table ---- */

/* Fold the batch's drm_engine and drm_memory records of the scope into
 * rows. */
static void top_table_rows(const struct top_batch *m,
                           const struct top_options *o, struct top_table *d) {
  const char *want = top_scope_name(o->scope);
  for (size_t i = 0; i < m->n_recs; i++) {
    const struct top_record *r = &m->recs[i];
    const char *name = top_batch_str(m, r->measurement);
    const char *scope = top_batch_tag(m, r, "scope");
    bool engine = strcmp(name, "drm_engine") == 0;
    if ((!engine && strcmp(name, "drm_memory") != 0) || !scope ||
        strcmp(scope, want) != 0)
      continue;
    const char *vals[] = {
        top_batch_tag(m, r, "driver"),    top_batch_tag(m, r, "device"),
        top_batch_tag(m, r, "comm"),      top_batch_tag(m, r, "cgroup"),
        top_batch_tag(m, r, "pid"),       top_batch_tag(m, r, "client_name"),
        top_batch_tag(m, r, "namespace"), top_batch_tag(m, r, "pod"),
        top_batch_tag(m, r, "container"), top_batch_tag(m, r, "container_id")};
    if (!top_match(o->filter, vals, sizeof(vals) / sizeof(vals[0])))
      continue;
    struct top_table_row *row = top_drm_row(d, r, o->scope);
    if (engine) {
      const struct top_field *u = top_batch_field(m, r, "utilization");
      int e = top_drm_engine(d, top_str_or(top_batch_tag(m, r, "engine"), "?"));
      if (u != NULL && e >= 0) {
        row->busy[e] += u->f;
        row->has[e] = true;
        if (row->busy[e] > row->busy_total)
          row->busy_total = row->busy[e]; /* BUSY: the busiest engine */
      }
    } else {
      const struct top_field *f = top_batch_field(m, r, "resident_bytes");
      const struct top_field *t = top_batch_field(m, r, "total_bytes");
      row->resident += f ? f->f : 0;
      row->total += t ? t->f : 0;
      row->has_resident |= f != NULL;
      row->has_total |= t != NULL;
    }
  }
}

int top_table_prepare(const struct top_model *model,
                      const struct top_options *o, struct top_table *d) {
  const struct top_batch *m = &model->batch;
  memset(d, 0, sizeof(*d));
  d->m = m;
  d->sort = o->sort;
  d->n_slots = 16;
  while (d->n_slots < 2 * m->n_recs)
    d->n_slots *= 2;
  d->rows = calloc(m->n_recs + 1, sizeof(*d->rows));
  d->slots = calloc(d->n_slots, sizeof(*d->slots));
  if (o->scope == TOP_SCOPE_CONTAINER) {
    d->names_cap = (m->n_recs + 1) * TOP_NAME_BYTES;
    d->names = malloc(d->names_cap);
  }
  if (d->rows == NULL || d->slots == NULL ||
      (o->scope == TOP_SCOPE_CONTAINER && d->names == NULL)) {
    top_table_fini(d);
    return -ENOMEM;
  }
  top_table_rows(m, o, d);
  if (d->sort >= TOP_SORT_ENGINE + d->n_engines)
    d->sort = TOP_SORT_BUSY;
  qsort_r(d->rows, d->n_rows, sizeof(*d->rows), top_drm_cmp, d);
  return 0;
}

void top_table_fini(struct top_table *d) {
  free(d->rows);
  free(d->slots);
  free(d->names);
  memset(d, 0, sizeof(*d));
}

int top_table_render(const struct top_table *d, const struct top_options *o,
                     struct top_screen *s) {
  int rc = 0;
  s->n_engines = d->n_engines;
  s->n_rows = d->n_rows;
  /* Which rows: on a screen of known height a window at the scroll
   * position (the column header and this part's blank line first), with
   * a line for the rows off it; else the first max_rows, or all. */
  size_t first = 0, count = d->n_rows;
  bool window = o->height > 0;
  if (window) {
    size_t used = s->n + 2; /* the blank line, the column header */
    size_t room = (size_t)o->height > used ? (size_t)o->height - used : 0;
    if (room < 1)
      room = 1;
    count = d->n_rows <= room ? d->n_rows : room > 1 ? room - 1 : 1;
    size_t max_first = d->n_rows > count ? d->n_rows - count : 0;
    first = o->first_row < max_first ? o->first_row : max_first;
    s->first_row = first;
    s->page = count;
  } else if (o->max_rows > 0 && count > (size_t)o->max_rows) {
    count = (size_t)o->max_rows;
  }
  if (count > d->n_rows - first)
    count = d->n_rows - first;
  /* each engine of the rows shown: its rank by the first row that has
   * it, and in that row by its busy (-1: no row shown has it) */
  int shown[TOP_MAX_ENGINES], rank = 0;
  for (int e = 0; e < TOP_MAX_ENGINES; e++)
    shown[e] = -1;
  for (size_t i = first; i < first + count; i++)
    for (;;) { /* this row's engines not ranked yet, its busiest first */
      int best = -1;
      for (int e = 0; e < d->n_engines; e++)
        if (d->rows[i].has[e] && shown[e] < 0 &&
            (best < 0 || d->rows[i].busy[e] > d->rows[i].busy[best]))
          best = e;
      if (best < 0)
        break;
      shown[best] = rank++;
    }
  /* DEVICE earns its room when the rows shown are of several devices */
  size_t n_devices = 0;
  for (size_t i = first; i < first + count && n_devices < 2; i++)
    if (i == first || !top_same(d->rows[i].device, d->rows[first].device))
      n_devices++;
  struct top_col cols[TOP_MAX_COLUMNS];
  bool resident = false;
  for (size_t i = first; i < first + count && !resident; i++)
    resident = d->rows[i].has_resident;
  int n_cols = top_columns(d, o, n_devices, resident, shown, cols);
  struct top_lb lb;
  char cell[160];
  if ((rc = top_screen_add(s, o, "", TOP_LINE_TEXT)) < 0)
    return rc;
  top_lb_start(&lb, o->cols);
  for (int c = 0; c < n_cols; c++)
    if (cols[c].on)
      top_col_title(d, o, &cols[c], &lb);
  if ((rc = top_screen_lb(s, o, &lb, TOP_LINE_HEADER)) < 0)
    return rc;
  s->body = s->n;
  if (d->n_rows == 0) {
    const char *want = top_scope_name(o->scope);
    if (o->scope == TOP_SCOPE_PROCESS || o->scope_requested)
      snprintf(cell, sizeof(cell), "  (no %s rows%s)", want,
               o->filter[0] ? " match the filter" : "");
    else
      snprintf(cell, sizeof(cell), "  (no %s records: add --ReportBy=%s)", want,
               o->scope == TOP_SCOPE_CLIENT      ? "Client"
               : o->scope == TOP_SCOPE_CONTAINER ? "Container"
                                                 : "Cgroup");
    rc = top_screen_add(s, o, cell, TOP_LINE_TEXT);
  }
  for (size_t i = first; i < first + count && rc == 0; i++) {
    if (o->rows > 0 && s->n >= (size_t)o->rows)
      break; /* below the screen */
    top_lb_start(&lb, o->cols);
    for (int c = 0; c < n_cols; c++)
      if (cols[c].on)
        top_col_value(o, &cols[c], &d->rows[i], &lb);
    rc = top_screen_lb(s, o, &lb, TOP_LINE_TEXT);
  }
  if (rc == 0 && window && count < d->n_rows) {
    snprintf(cell, sizeof(cell),
             "  (%zu more below, %zu above: up/down, PgUp/PgDn)",
             d->n_rows - first - count, first);
    rc = top_screen_add(s, o, cell, TOP_LINE_DIM);
  } else if (rc == 0 && !window && first + count < d->n_rows &&
             (o->rows == 0 || s->n < (size_t)o->rows)) {
    snprintf(cell, sizeof(cell), "  (%zu more)", d->n_rows - first - count);
    rc = top_screen_add(s, o, cell, TOP_LINE_TEXT);
  }
  return rc;
}
