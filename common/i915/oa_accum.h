/*
 * oa_accum.h: 64-bit totals over every OA report of a stream, each report
 * differenced with the one before as igt's lib/i915/perf.c
 * (intel_perf_accumulate_reports) does.
 *
 * Each report adds its difference to the previous report, taken modulo
 * the field's width: 32 bits for the timestamp, clock ticks, B, C and the
 * A32+ counters; 40 bits for the split A counters; 56 bits for OAM's
 * timestamp (igt's width) and 64 for its other fields. The first report
 * only sets the base. REPORT_LOST never resets the base. BUFFER_LOST does
 * when `rebase_on_buffer_lost` is set: the kernel then disables and
 * re-enables the OA unit and re-initialises its buffer (i915_perf.c:
 * gen8_oa_read, gen7_oa_read), so the next report comes after a gap of
 * unknown length in which counters may have wrapped any number of times;
 * that report only sets a new base (counted in `rebases`). Unset (igt's
 * way, what replay compares against), the plain modular difference is
 * added. Totals are cumulative since the stream started and never wrap in
 * practice (2^64 ticks).
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
  int gen12; /* reason field: 1 7 bits, 0 6 bits, OA_REASON_NONE */
  bool rebase_on_buffer_lost; /* see above; false after oa_accum_init */
  bool have_base;
  struct oa_report last; /* the previous report, decoded */
  struct oa_totals totals;
  uint64_t reports; /* every report decoded, the first included */
  uint64_t report_lost, buffer_lost;
  uint64_t rebases; /* bases dropped at a BUFFER_LOST */
  uint64_t reasons[OA_REASONS];
};

/* The `gen12` argument of a platform whose reports have no reason field
 * (HSW: i915_perf.c gen7_append_oa_reports reads report dword 0 as
 * undocumented flags): no reason is counted. */
#define OA_REASON_NONE (-1)

/* An empty accumulator for reports of `fmt`. */
void oa_accum_init(struct oa_accum *a, const struct oa_format *fmt, int gen12);

/* Add one raw report (fmt->size bytes). */
void oa_accum_report(struct oa_accum *a, const uint8_t *raw);

/* Count a REPORT_LOST or BUFFER_LOST record (the base stays, except at
 * BUFFER_LOST with rebase_on_buffer_lost). */
void oa_accum_status(struct oa_accum *a, uint32_t type);

/* Walk a buffer of stream records into `a` (oa_records_walk). */
void oa_accum_records(struct oa_accum *a, const uint8_t *buf, size_t len,
                      struct oa_walk_result *res);

/* GPU time of `ticks` at `hz` in nanoseconds, exact (128-bit product,
 * truncated once); 0 when hz is 0. */
uint64_t oa_ticks_to_ns(uint64_t ticks, uint64_t hz);

#endif
