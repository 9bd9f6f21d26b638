/*
 * oa_accum.h: 64-bit totals over every OA report of a stream (reference
 * sheet i915-perf.md §9).
 *
 * Each report adds its difference to the previous report, taken modulo
 * the field's width: 32 bits for the timestamp, clock ticks, B, C and the
 * A32+ counters; 40 bits for the split A counters; 56 bits for OAM's
 * timestamp (igt's width) and 64 for its other fields. The first report
 * only sets the base. Lost records never reset the base: the next report
 * adds the plain modular difference, as igt does. Totals are cumulative
 * since the stream started and never wrap in practice (2^64 ticks).
 */
#ifndef COMMON_I915_OA_ACCUM_H
#define COMMON_I915_OA_ACCUM_H

#include "common/i915/oa_format.h"
#include "common/i915/oa_report.h"

#include <stdbool.h>
#include <stdint.h>

struct oa_totals {
  uint64_t ticks;  /* OA timestamp ticks */
  uint64_t clocks; /* GPU core clocks (header field) */
  uint64_t counters[OA_MAX_COUNTERS];
};

struct oa_accum {
  const struct oa_format *fmt; /* borrowed, static */
  int gen12;                   /* reason field width (oa_report_decode) */
  bool have_base;
  struct oa_report last; /* the previous report, decoded */
  struct oa_totals totals;
  uint64_t reports; /* every report decoded, the first included */
  uint64_t report_lost, buffer_lost;
  uint64_t reasons[OA_REASONS];
};

/* An empty accumulator for reports of `fmt`. */
void oa_accum_init(struct oa_accum *a, const struct oa_format *fmt, int gen12);

/* Add one raw report (fmt->size bytes). */
void oa_accum_report(struct oa_accum *a, const uint8_t *raw);

/* Count a REPORT_LOST or BUFFER_LOST record (the base stays). */
void oa_accum_status(struct oa_accum *a, uint32_t type);

/* Walk a buffer of stream records into `a` (oa_records_walk). */
void oa_accum_records(struct oa_accum *a, const uint8_t *buf, size_t len,
                      struct oa_walk_result *res);

/* GPU time of `ticks` at `hz` in nanoseconds, exact (128-bit product,
 * truncated once); 0 when hz is 0. */
uint64_t oa_ticks_to_ns(uint64_t ticks, uint64_t hz);

#endif
