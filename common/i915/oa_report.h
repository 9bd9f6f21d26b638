/*
 * oa_report.h: decode OA reports and walk the records of a perf stream
 * (i915_perf.c: append_oa_sample, append_oa_status write them; the record
 * types and header are libdrm's i915_drm.h). Pure functions over bytes.
 */
#ifndef COMMON_I915_OA_REPORT_H
#define COMMON_I915_OA_REPORT_H

#include "common/i915/i915_uapi.h"
#include "common/i915/oa_format.h"

#include <stddef.h>
#include <stdint.h>

struct oa_report {
  uint32_t reason;    /* reason bits, after shift and mask */
  uint32_t ctx_id;    /* context id field */
  uint64_t timestamp; /* raw: 32 bits (or 64 for OAM) */
  uint64_t clock;     /* GPU clock ticks (0 when the format has none) */
  uint64_t values[OA_MAX_COUNTERS]; /* by fmt->counters[] order */
};

/* Decode one report of `fmt` at `raw` (fmt->size bytes). `gen12`: the
 * reason field is 7 bits wide (graphics 12+), else 6. */
void oa_report_decode(const struct oa_format *fmt, int gen12,
                      const uint8_t *raw, struct oa_report *out);

/* What a record walk met. */
struct oa_walk_result {
  uint64_t samples, report_lost, buffer_lost, unknown;
  /* The first malformed record: its byte offset in the buffer and why
   * ("size 0", ...); NULL when the whole buffer was walked. The rest of
   * the buffer after it is skipped. */
  const char *error;
  size_t error_offset;
};

struct oa_walk_ops {
  /* A SAMPLE record's report (fmt->size bytes). */
  void (*sample)(void *ctx, const uint8_t *report);
  /* A REPORT_LOST or BUFFER_LOST record (`type`). */
  void (*status)(void *ctx, uint32_t type);
};

/* Walk the records in `buf` (`len` bytes) of a stream of `fmt`: every
 * record is checked before it is used, so a size of 0, below 8, a sample
 * whose size is not 8 + fmt->size, or a size beyond what is left ends the
 * walk with `error` set (never a loop, never an overrun). Unknown types
 * are counted and skipped by their size. */
void oa_records_walk(const struct oa_format *fmt, const uint8_t *buf,
                     size_t len, const struct oa_walk_ops *ops, void *ctx,
                     struct oa_walk_result *res);

#endif
