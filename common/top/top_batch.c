/*
 * top_batch.c: one batch of records copied into an arena (top_batch.h).
 */
#include "common/top/top_batch.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

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
static size_t top_batch_put(struct top_batch *b, const char *s) {
  size_t len = strlen(s) + 1;
  if (top_grow((void **)&b->arena, &b->arena_cap, b->arena_len + len, 1) < 0)
    return SIZE_MAX;
  size_t off = b->arena_len;
  memcpy(b->arena + off, s, len);
  b->arena_len += len;
  return off;
}

void top_batch_clear(struct top_batch *b) {
  b->arena_len = b->n_tags = b->n_fields = b->n_recs = 0;
  b->failed = false;
  b->time_ns = 0;
}

int top_batch_add(struct top_batch *b, const struct metric *r) {
  if (b->failed ||
      top_grow((void **)&b->recs, &b->cap_recs, b->n_recs + 1,
               sizeof(*b->recs)) < 0 ||
      top_grow((void **)&b->tags, &b->cap_tags, 2 * (b->n_tags + r->n_tags),
               sizeof(*b->tags)) < 0 ||
      top_grow((void **)&b->fields, &b->cap_fields, b->n_fields + r->n_fields,
               sizeof(*b->fields)) < 0)
    goto fail;
  struct top_record rec = {top_batch_put(b, r->measurement), b->n_tags,
                           r->n_tags, b->n_fields, r->n_fields};
  if (rec.measurement == SIZE_MAX)
    goto fail;
  for (size_t i = 0; i < r->n_tags; i++) {
    size_t k = top_batch_put(b, r->tags[i].key);
    size_t v = top_batch_put(b, r->tags[i].value);
    if (k == SIZE_MAX || v == SIZE_MAX)
      goto fail;
    b->tags[2 * (b->n_tags + i)] = k;
    b->tags[2 * (b->n_tags + i) + 1] = v;
  }
  for (size_t i = 0; i < r->n_fields; i++) {
    const struct metric_field *f = &r->fields[i];
    struct top_field *t = &b->fields[b->n_fields + i];
    t->key = top_batch_put(b, f->key);
    t->ctype = top_batch_put(b, f->ctype ? f->ctype : "");
    if (t->key == SIZE_MAX || t->ctype == SIZE_MAX)
      goto fail;
    t->is_int = f->kind == METRIC_INT;
    t->i = t->is_int ? f->v.i : 0;
    t->f = t->is_int ? (double)f->v.i : f->v.f;
  }
  b->n_tags += r->n_tags;
  b->n_fields += r->n_fields;
  b->recs[b->n_recs++] = rec;
  if (r->time_ns > b->time_ns)
    b->time_ns = r->time_ns;
  return 0;
fail:
  b->failed = true;
  return -ENOMEM;
}

void top_batch_fini(struct top_batch *b) {
  free(b->arena);
  free(b->tags);
  free(b->fields);
  free(b->recs);
  memset(b, 0, sizeof(*b));
}

const char *top_batch_tag(const struct top_batch *b, const struct top_record *r,
                          const char *key) {
  for (size_t i = 0; i < r->n_tags; i++)
    if (strcmp(top_record_tag_key(b, r, i), key) == 0)
      return top_record_tag_value(b, r, i);
  return NULL;
}

const struct top_field *top_batch_field(const struct top_batch *b,
                                        const struct top_record *r,
                                        const char *key) {
  for (size_t i = 0; i < r->n_fields; i++)
    if (strcmp(b->arena + b->fields[r->field0 + i].key, key) == 0)
      return &b->fields[r->field0 + i];
  return NULL;
}
