/*
 * oa_format.h: the i915 OA report formats (the kernel's
 * include/uapi/drm/i915_drm.h: enum drm_i915_oa_format, i915_perf.c:
 * oa_formats for their sizes): size, header kind and where every counter
 * of a report lives.
 *
 * A counter is 32 bits, 40 bits (low 32 bits at one offset, high byte at
 * another) or 64 bits. Formats whose counter layout is not given here
 * (HSW's A13, A29, A13_B8_C8, B4_C8, B4_C8_A16 and C4_B8) are known by
 * size and header only: their reports are walked and counted, and only the
 * header fields (timestamp, clock ticks, reason) are accumulated.
 */
#ifndef COMMON_I915_OA_FORMAT_H
#define COMMON_I915_OA_FORMAT_H

#include "common/i915/i915_uapi.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define OA_MAX_COUNTERS 64 /* A45_B8_C8 has 61 */
#define OA_REPORT_MAX 576  /* xe's PEC64u64 */
/* Formats only the xe driver has (no drm_i915_oa_format value): project
 * ids from 256, so they never meet an i915 value; xe is told the format
 * by its fields (common/xe/xe_oa_format.h), never by this id. */
#define OA_FORMAT_XE_BASE 256u
#define OA_FORMAT_XE_PEC64u64 256u /* Xe2: 64 PEC counters of 64 bits */
#define OA_FORMAT_XE_COUNT 1u
#define OA_REASONS 7

enum oa_counter_kind {
  OA_A = 'a',
  OA_B = 'b',
  OA_C = 'c',
  OA_MPEC = 'm',
  OA_PEC = 'p' /* xe PEC formats: "pec0" .. "pec63" */
};

struct oa_counter {
  uint8_t kind;  /* enum oa_counter_kind */
  uint8_t index; /* A<index>, B<index>, ... */
  uint8_t width; /* 32, 40 or 64 */
  uint16_t low;  /* byte offset of the low 32 (or all 64) bits */
  uint16_t high; /* 40-bit counters: byte offset of bits 39:32 */
  uint64_t mask; /* 2^width - 1: differences are taken modulo 2^width */
  char name[8];  /* "a0", "b7", "mpec3": the field name */
};

/* Consecutive counters of one width laid out at a fixed stride (4 bytes
 * for the low/whole 32 bits, 8 for 64-bit, 1 for the 40-bit high bytes):
 * the accumulator's inner loops run over these without a branch. */
struct oa_run {
  uint8_t width, first, n; /* counters[first .. first + n - 1] */
  uint16_t low, high;      /* offsets of the first counter's parts */
};

#define OA_MAX_RUNS 16

struct oa_format {
  uint32_t id;         /* drm_i915_oa_format value */
  const char *name;    /* "A32u40_A4u32_B8_C8" */
  uint16_t size;       /* report bytes */
  bool header64;       /* OAM: 64-bit id, timestamp and clock fields */
  bool has_clock;      /* header carries GPU clock ticks (not HSW) */
  unsigned n_counters; /* entries of counters[] */
  struct oa_counter counters[OA_MAX_COUNTERS];
  unsigned n_runs;
  struct oa_run runs[OA_MAX_RUNS];
};

/* The format with drm_i915_oa_format value `id` (1..14) or xe-only id
 * (OA_FORMAT_XE_*), or NULL. The
 * table is built on first use (thread-safe) and never changes. */
const struct oa_format *oa_format_get(uint32_t id);

/* The format named `name` (case-insensitive, e.g. "A24u40_A14u32_B8_C8"
 * "OAM_MPEC8u64_B8_C8" or "PEC64u64") or given as its decimal value, or NULL.
 */
const struct oa_format *oa_format_parse(const char *name);

/* Field names of the report reasons, by bit from i915_perf.c:
 * OAREPORT_REASON_SHIFT (its TIMER, CTX_SWITCH, CLK_RATIO bits): "timer",
 * "internal_trigger1", "internal_trigger2", "ctx_switch", "go_transition",
 * "clock_ratio_change", "mmio_trigger". */
const char *oa_reason_name(unsigned bit);
/* The same as i915_oa_stream field names: "reason_timer", ... (static). */
const char *oa_reason_field(unsigned bit);

#endif
