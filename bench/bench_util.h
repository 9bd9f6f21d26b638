/*
 * bench_util.h: what every benchmark program shares.
 *
 *  - `allocations`: malloc/calloc/realloc calls, counted by the allocator
 *    interposers of bench/alloc_count.c, which every benchmark links; zero
 *    it, run the path, read it.
 *  - bench_now_s(): CLOCK_MONOTONIC in seconds.
 *  - bench_discard_sink(): a metric sink that drops every record.
 *  - bench_count(full, quick): an iteration count, `quick` under
 *    BENCH_QUICK=1. tests/e2e/bench_quick.sh runs every benchmark so
 *    inside make test: each one's whole path (setup, the measured loops,
 *    the allocation counts, the exit status) with tiny counts, so a
 *    benchmark that crashes or fails shows there. The numbers it prints
 *    then mean nothing: the targets are read from make bench only.
 */
#ifndef BENCH_BENCH_UTIL_H
#define BENCH_BENCH_UTIL_H

#include "common/core/metric.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* malloc, calloc and realloc calls since the program started (or since
 * the benchmark last set it to 0). */
extern long allocations;
/* glibc's allocator underneath: what a benchmark sets up with these is not
 * counted. */
void *__libc_malloc(size_t n);
void *__libc_calloc(size_t n, size_t size);
void *__libc_realloc(void *p, size_t n);

static inline double bench_now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Whether BENCH_QUICK asks for the quick mode (set and not "0"). */
static inline int bench_quick(void) {
  const char *q = getenv("BENCH_QUICK");
  return q != NULL && q[0] != '\0' && strcmp(q, "0") != 0;
}

static inline long bench_count(long full, long quick) {
  return bench_quick() ? quick : full;
}

static inline int bench_sink_nop(struct metric_sink *s) {
  (void)s;
  return 0;
}
static inline int bench_sink_drop(struct metric_sink *s,
                                  const struct metric *m) {
  (void)s;
  (void)m;
  return 0;
}
static inline struct metric_sink *bench_discard_sink(void) {
  static struct metric_sink sink = {bench_sink_nop, bench_sink_drop,
                                    bench_sink_nop};
  return &sink;
}

#endif
