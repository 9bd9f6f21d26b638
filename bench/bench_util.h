/*
 * bench_util.h: what every benchmark program shares (each bench program is one
 * executable, so the allocator interposers below are defined once each).
 *
 *  - `allocations`: malloc/calloc/realloc calls, counted by interposing
 *    the allocator (glibc's __libc_* underneath); zero it, run the path,
 *    read it.
 *  - bench_now_s(): CLOCK_MONOTONIC in seconds.
 *  - bench_discard_sink(): a metric sink that drops every record.
 */
#ifndef BENCH_BENCH_UTIL_H
#define BENCH_BENCH_UTIL_H

#include "common/core/metric.h"

#include <stddef.h>
#include <time.h>

void *__libc_malloc(size_t n);
void *__libc_calloc(size_t n, size_t size);
void *__libc_realloc(void *p, size_t n);
void *malloc(size_t n);
void *calloc(size_t n, size_t size);
void *realloc(void *p, size_t n);

static long allocations;

void *malloc(size_t n) {
  allocations++;
  return __libc_malloc(n);
}
void *calloc(size_t n, size_t size) {
  allocations++;
  return __libc_calloc(n, size);
}
void *realloc(void *p, size_t n) {
  allocations++;
  return __libc_realloc(p, n);
}

static inline double bench_now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
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
