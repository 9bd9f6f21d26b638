/*
 * top_batch.h: one batch of records as the live view keeps it: the same
 * struct metric every other format gets (so every plugin works unchanged),
 * copied into one arena, with lookups by tag and field name. Plain data:
 * the model (top_model.h) fills it, the device join (top_device.h) and the
 * screen (top_screen.h) read it.
 */
#ifndef COMMON_TOP_TOP_BATCH_H
#define COMMON_TOP_TOP_BATCH_H

#include "common/core/metric.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One stored field; strings are offsets into the batch's arena. */
struct top_field {
  size_t key, ctype; /* arena offsets */
  bool is_int;
  int64_t i;
  double f;
};

/* One stored record: tags and fields are ranges of the batch's arrays. */
struct top_record {
  size_t measurement;      /* arena offset */
  size_t tag0, n_tags;     /* range of top_batch.tags (key, value) */
  size_t field0, n_fields; /* range of top_batch.fields */
};

struct top_batch {
  char *arena; /* owned: every string, NUL-terminated */
  size_t arena_len, arena_cap;
  size_t *tags; /* owned: pairs of arena offsets (key, value) */
  size_t n_tags, cap_tags;
  struct top_field *fields; /* owned */
  size_t n_fields, cap_fields;
  struct top_record *recs; /* owned */
  size_t n_recs, cap_recs;
  bool failed;      /* an allocation failed in this batch: the rest is lost */
  uint64_t time_ns; /* the latest record's time; 0: no record had one */
};

/* Empty the batch (its storage is kept for the next). */
void top_batch_clear(struct top_batch *b);

/* Copy record `r` in; 0, or -ENOMEM (then `failed` stays set until the
 * next clear, and later records are refused too). */
int top_batch_add(struct top_batch *b, const struct metric *r);

/* Free the storage; the batch is zeroed. */
void top_batch_fini(struct top_batch *b);

/* The string at arena offset `off` (borrowed until the next clear). */
static inline const char *top_batch_str(const struct top_batch *b, size_t off) {
  return b->arena + off;
}

/* The measurement of `r`. */
static inline const char *top_record_name(const struct top_batch *b,
                                          const struct top_record *r) {
  return b->arena + r->measurement;
}

/* Tag `k` of `r` (k < r->n_tags): its key and its value. */
static inline const char *top_record_tag_key(const struct top_batch *b,
                                             const struct top_record *r,
                                             size_t k) {
  return b->arena + b->tags[2 * (r->tag0 + k)];
}
static inline const char *top_record_tag_value(const struct top_batch *b,
                                               const struct top_record *r,
                                               size_t k) {
  return b->arena + b->tags[2 * (r->tag0 + k) + 1];
}

/* The value of tag `key` of record `r`, or NULL. */
const char *top_batch_tag(const struct top_batch *b, const struct top_record *r,
                          const char *key);

/* The field `key` of record `r`, or NULL. */
const struct top_field *top_batch_field(const struct top_batch *b,
                                        const struct top_record *r,
                                        const char *key);

#endif
