/*
 * snapshot.c: the records of one read, copied (see snapshot.h).
 *
 * A record is packed as a header, its tag and field entries, then its
 * strings; every reference is an offset into the arena, so the arena may
 * move when it grows.
 */
#include "common/runner/snapshot.h"

#include <errno.h>
#include <stdalign.h>
#include <stdlib.h>
#include <string.h>

struct snap_head {
  uint64_t time_ns;
  size_t measurement; /* offsets of NUL-terminated strings */
  uint32_t n_tags, n_fields;
};

struct snap_tag {
  size_t key, value;
};

struct snap_field {
  size_t key, ctype;
  enum metric_kind kind;
  union {
    int64_t i;
    double f;
  } v;
};

void snapshot_init(struct snapshot *s) { memset(s, 0, sizeof(*s)); }

void snapshot_clear(struct snapshot *s) {
  s->len = 0;
  s->n_recs = 0;
  s->n_marks = 0;
  s->nomem = false;
}

void snapshot_fini(struct snapshot *s) {
  free(s->arena);
  free(s->recs);
  free(s->marks);
  snapshot_init(s);
}

/* Room for `more` bytes at the end of the arena. */
static int snapshot_reserve(struct snapshot *s, size_t more) {
  if (more <= s->cap - s->len)
    return 0;
  size_t cap = s->cap ? s->cap : 4096;
  while (cap - s->len < more) {
    if (cap > SIZE_MAX / 2)
      return -ENOMEM;
    cap *= 2;
  }
  char *grown = realloc(s->arena, cap);
  if (grown == NULL)
    return -ENOMEM;
  s->arena = grown;
  s->cap = cap;
  return 0;
}

/* Append `text` with its NUL; its offset, or SIZE_MAX on ENOMEM. */
static size_t snapshot_string(struct snapshot *s, const char *text) {
  size_t n = strlen(text != NULL ? text : "") + 1;
  if (snapshot_reserve(s, n) < 0)
    return SIZE_MAX;
  size_t at = s->len;
  memcpy(s->arena + at, text != NULL ? text : "", n);
  s->len += n;
  return at;
}

static size_t snapshot_align(size_t n) {
  size_t a = alignof(max_align_t);
  return (n + a - 1) / a * a;
}

int snapshot_add(struct snapshot *s, const struct metric *m) {
  size_t start = s->len;
  if (s->n_recs == s->cap_recs) {
    size_t cap = s->cap_recs ? s->cap_recs * 2 : 64;
    size_t *grown = realloc(s->recs, cap * sizeof(*grown));
    if (grown == NULL)
      goto nomem;
    s->recs = grown;
    s->cap_recs = cap;
  }
  size_t at = snapshot_align(s->len);
  size_t fixed = sizeof(struct snap_head) +
                 m->n_tags * sizeof(struct snap_tag) +
                 m->n_fields * sizeof(struct snap_field);
  if (snapshot_reserve(s, at - s->len + fixed) < 0)
    goto nomem;
  s->len = at + fixed;
  /* Strings first (the arena may move), then the entries by offset. */
  size_t measurement = snapshot_string(s, m->measurement);
  if (measurement == SIZE_MAX)
    goto nomem;
  size_t tag_at = at + sizeof(struct snap_head);
  for (size_t i = 0; i < m->n_tags; i++) {
    struct snap_tag t = {snapshot_string(s, m->tags[i].key),
                         snapshot_string(s, m->tags[i].value)};
    if (t.key == SIZE_MAX || t.value == SIZE_MAX)
      goto nomem;
    memcpy(s->arena + tag_at + i * sizeof(t), &t, sizeof(t));
  }
  size_t field_at = tag_at + m->n_tags * sizeof(struct snap_tag);
  for (size_t i = 0; i < m->n_fields; i++) {
    const struct metric_field *mf = &m->fields[i];
    struct snap_field f = {snapshot_string(s, mf->key),
                           snapshot_string(s, mf->ctype),
                           mf->kind,
                           {0}};
    if (f.key == SIZE_MAX || f.ctype == SIZE_MAX)
      goto nomem;
    if (mf->kind == METRIC_INT)
      f.v.i = mf->v.i;
    else
      f.v.f = mf->v.f;
    memcpy(s->arena + field_at + i * sizeof(f), &f, sizeof(f));
  }
  struct snap_head h = {m->time_ns, measurement, (uint32_t)m->n_tags,
                        (uint32_t)m->n_fields};
  memcpy(s->arena + at, &h, sizeof(h));
  s->recs[s->n_recs++] = at;
  return 0;
nomem:
  s->len = start;
  s->nomem = true;
  return -ENOMEM;
}

int snapshot_mark(struct snapshot *s) {
  if (s->n_recs == 0 ||
      (s->n_marks > 0 && s->marks[s->n_marks - 1] == s->n_recs))
    return 0; /* no record since the last mark */
  if (s->n_marks == s->cap_marks) {
    size_t cap = s->cap_marks ? s->cap_marks * 2 : 16;
    size_t *grown = realloc(s->marks, cap * sizeof(*grown));
    if (grown == NULL)
      return -ENOMEM;
    s->marks = grown;
    s->cap_marks = cap;
  }
  s->marks[s->n_marks++] = s->n_recs;
  return 0;
}

int snapshot_replay(const struct snapshot *s, struct metric_sink *sink,
                    bool split) {
  static _Thread_local struct metric m; /* 4.4 KiB: off the stack */
  int first = 0;
  size_t mark = 0;
  for (size_t r = 0; r < s->n_recs; r++) {
    if (split && mark < s->n_marks && s->marks[mark] == r) {
      mark++;
      int rc = sink->end(sink);
      if (rc < 0 && first == 0)
        first = rc;
      sink->begin(sink);
    }
    const char *base = s->arena;
    struct snap_head h;
    memcpy(&h, base + s->recs[r], sizeof(h));
    metric_init(&m, base + h.measurement, h.time_ns);
    const char *p = base + s->recs[r] + sizeof(h);
    for (uint32_t i = 0; i < h.n_tags; i++, p += sizeof(struct snap_tag)) {
      struct snap_tag t;
      memcpy(&t, p, sizeof(t));
      m.tags[i].key = base + t.key;
      m.tags[i].value = base + t.value;
    }
    m.n_tags = h.n_tags;
    for (uint32_t i = 0; i < h.n_fields; i++, p += sizeof(struct snap_field)) {
      struct snap_field f;
      memcpy(&f, p, sizeof(f));
      struct metric_field *mf = &m.fields[i];
      mf->key = base + f.key;
      mf->ctype = base + f.ctype;
      mf->kind = f.kind;
      if (f.kind == METRIC_INT)
        mf->v.i = f.v.i;
      else
        mf->v.f = f.v.f;
    }
    m.n_fields = h.n_fields;
    int rc = sink->write(sink, &m);
    if (rc < 0 && first == 0)
      first = rc;
  }
  return first;
}
