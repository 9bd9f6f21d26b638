/*
 * snapshot.h: the records of one read, kept after the read.
 *
 * A plugin hands its records to a sink one at a time and keeps no record
 * past write() (metric.h): its strings may live in state the next read
 * changes. The runner (runner.h) reads on one thread and writes the
 * outputs on another, and joins the last read of every plugin into one
 * Prometheus page or one screen, so each read is captured here: every
 * string copied into one arena, records as offsets into it, replayed
 * later into any sink as the plugin wrote them (same order, same tags,
 * same fields). Allocation grows the arena and the index to the largest
 * read seen and keeps them (a steady read allocates nothing).
 *
 * Not thread-safe: one writer, then readers after a hand-over that
 * orders memory (the runner's mutex).
 */
#ifndef COMMON_HOST_SNAPSHOT_H
#define COMMON_HOST_SNAPSHOT_H

#include "common/core/metric.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct snapshot {
  char *arena; /* strings and packed records */
  size_t len, cap;
  size_t *recs; /* offset of each record in the arena */
  size_t n_recs, cap_recs;
  bool nomem;    /* a record was lost for want of memory since the clear */
  size_t *marks; /* record counts where the plugin ended a batch itself */
  size_t n_marks, cap_marks;
};

void snapshot_init(struct snapshot *s);
/* Forget the records, keep the memory. */
void snapshot_clear(struct snapshot *s);
void snapshot_fini(struct snapshot *s);

/* Copy `m` (its measurement, tags and fields) in. 0 or -ENOMEM (the
 * record is not kept and `nomem` is set). */
int snapshot_add(struct snapshot *s, const struct metric *m);

/* The plugin ended a batch of its own here (a replay writes many in one
 * read: plugin.h, replays): the records so far are one batch. 0 or
 * -ENOMEM (the mark is lost: two batches become one). */
int snapshot_mark(struct snapshot *s);

/* Hand every record to `sink->write` in the order they were added (no
 * begin or end: the caller frames the batch). With `split`, each batch
 * the plugin ended itself is closed with sink->end and the next opened
 * with sink->begin. Returns 0 or the first negative value write() or
 * end() returned (the rest are still written). */
int snapshot_replay(const struct snapshot *s, struct metric_sink *sink,
                    bool split);

static inline size_t snapshot_records(const struct snapshot *s) {
  return s->n_recs;
}

#endif
