/* oa_format.c: counter layouts of the OA report formats (igt
 * lib/i915/perf.c: intel_perf_accumulate_reports and tests/intel/perf.c:
 * hsw_oa_formats, gen8_oa_formats, gen12_oa_formats). */
#include "common/i915/oa_format.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>

/* i915 ids at their value, then the xe-only ids */
static struct oa_format
    formats[I915_UAPI_OA_FORMAT_LAST + 1 + OA_FORMAT_XE_COUNT];
static pthread_once_t formats_once = PTHREAD_ONCE_INIT;

static void add(struct oa_format *f, uint8_t kind, unsigned index,
                unsigned width, unsigned low, unsigned high) {
  struct oa_counter *c = &f->counters[f->n_counters++];
  c->kind = kind;
  c->index = (uint8_t)index;
  c->width = (uint8_t)width;
  c->low = (uint16_t)low;
  c->high = (uint16_t)high;
  c->mask = width >= 64 ? UINT64_MAX : (UINT64_C(1) << width) - 1;
  /* extend the last run when this counter continues it */
  struct oa_run *run = f->n_runs ? &f->runs[f->n_runs - 1] : NULL;
  unsigned stride = width == 64 ? 8 : 4;
  unsigned k = run ? run->n : 0;
  if (run != NULL && run->width == width &&
      run->first + k == f->n_counters - 1 && run->low + stride * k == low &&
      (width != 40 || run->high + k == high)) {
    run->n++;
  } else {
    run = &f->runs[f->n_runs++];
    *run = (struct oa_run){(uint8_t)width, (uint8_t)(f->n_counters - 1), 1,
                           (uint16_t)low, (uint16_t)high};
  }
  if (kind == OA_MPEC)
    snprintf(c->name, sizeof c->name, "mpec%u", index);
  else if (kind == OA_PEC)
    snprintf(c->name, sizeof c->name, "pec%u", index);
  else
    snprintf(c->name, sizeof c->name, "%c%u", kind, index);
}

/* `n` 32-bit counters of `kind` numbered from `first`, at `at` + 4i. */
static void add32(struct oa_format *f, uint8_t kind, unsigned first, unsigned n,
                  unsigned at) {
  for (unsigned i = 0; i < n; i++)
    add(f, kind, first + i, 32, at + 4 * i, 0);
}

/* 40-bit A counters first..first+n-1: low at 16 + 4i, high at 160 + i
 * (both A..u40 layouts place them by their index). */
static void add40(struct oa_format *f, unsigned first, unsigned n) {
  for (unsigned i = first; i < first + n; i++)
    add(f, OA_A, i, 40, 16 + 4 * i, 160 + i);
}

static void b8_c8(struct oa_format *f, unsigned at) {
  add32(f, OA_B, 0, 8, at);
  add32(f, OA_C, 0, 8, at + 32);
}

static struct oa_format *slot(uint32_t id) {
  return id >= OA_FORMAT_XE_BASE
             ? &formats[I915_UAPI_OA_FORMAT_LAST + 1 + (id - OA_FORMAT_XE_BASE)]
             : &formats[id];
}

static struct oa_format *define(uint32_t id, const char *name, unsigned size,
                                bool header64, bool has_clock) {
  struct oa_format *f = slot(id);
  f->id = id;
  f->name = name;
  f->size = (uint16_t)size;
  f->header64 = header64;
  f->has_clock = has_clock;
  return f;
}

static void build(void) {
  struct oa_format *f;
  /* Haswell: 32-bit header of three dwords (id, timestamp, context);
   * only A45_B8_C8's layout is given here (A0..A44 at 12 + 4i, igt
   * tests/intel/perf.c: hsw_oa_formats). */
  define(I915_OA_FORMAT_A13, "A13", 64, false, false);
  define(I915_OA_FORMAT_A29, "A29", 128, false, false);
  define(I915_OA_FORMAT_A13_B8_C8, "A13_B8_C8", 128, false, false);
  define(I915_OA_FORMAT_B4_C8, "B4_C8", 64, false, false);
  f = define(I915_OA_FORMAT_A45_B8_C8, "A45_B8_C8", 256, false, false);
  add32(f, OA_A, 0, 45, 12);
  b8_c8(f, 192);
  define(I915_OA_FORMAT_B4_C8_A16, "B4_C8_A16", 128, false, false);
  define(I915_OA_FORMAT_C4_B8, "C4_B8", 64, false, false);
  /* Gen8 A12 formats: id, timestamp, context, then A7..A18 from byte 12
   * (igt tests/intel/perf.c: gen8_oa_formats, a_off 12, first_a 7; the
   * kernel's i915_perf.c: oa_formats gives only their sizes). Byte 12
   * holds A7, not the GPU clock ticks of the larger formats. */
  f = define(I915_OA_FORMAT_A12, "A12", 64, false, false);
  add32(f, OA_A, 7, 12, 12);
  f = define(I915_OA_FORMAT_A12_B8_C8, "A12_B8_C8", 128, false, false);
  add32(f, OA_A, 7, 12, 12);
  b8_c8(f, 64);
  /* Gen8+ larger formats: id, timestamp, context, GPU clock ticks, then
   * counters */
  f = define(I915_OA_FORMAT_A32u40_A4u32_B8_C8, "A32u40_A4u32_B8_C8", 256,
             false, true);
  add40(f, 0, 32);
  add32(f, OA_A, 32, 4, 144);
  b8_c8(f, 192);
  f = define(I915_UAPI_OAR_FORMAT_A32u40_A4u32_B8_C8, "OAR_A32u40_A4u32_B8_C8",
             256, false, true);
  add40(f, 0, 32);
  add32(f, OA_A, 32, 4, 144);
  b8_c8(f, 192);
  f = define(I915_UAPI_OA_FORMAT_A24u40_A14u32_B8_C8, "A24u40_A14u32_B8_C8",
             256, false, true);
  add32(f, OA_A, 0, 4, 16);
  add40(f, 4, 20);
  add32(f, OA_A, 24, 4, 112);
  add40(f, 28, 4);
  add32(f, OA_A, 32, 5, 144);
  add32(f, OA_A, 37, 1, 184);
  b8_c8(f, 192);
  /* MTL media OAM: 64-bit header (id, timestamp, context, clock) */
  f = define(I915_UAPI_OAM_FORMAT_MPEC8u64_B8_C8, "OAM_MPEC8u64_B8_C8", 192,
             true, true);
  for (unsigned i = 0; i < 8; i++)
    add(f, OA_MPEC, i, 64, 32 + 8 * i, 0);
  b8_c8(f, 96);
  f = define(I915_UAPI_OAM_FORMAT_MPEC8u32_B8_C8, "OAM_MPEC8u32_B8_C8", 128,
             true, true);
  add32(f, OA_MPEC, 0, 8, 32);
  b8_c8(f, 64);
  /* Xe2 PEC64u64 (xe_oa.c: oa_formats, 576 bytes, 64-bit header): 64
   * PEC counters of 64 bits from byte 32 (igt lib/xe/xe_oa.c:
   * intel_xe_perf_accumulate_reports reads them as u64 words 4..67) */
  f = define(OA_FORMAT_XE_PEC64u64, "PEC64u64", 576, true, true);
  for (unsigned i = 0; i < 64; i++)
    add(f, OA_PEC, i, 64, 32 + 8 * i, 0);
}

const struct oa_format *oa_format_get(uint32_t id) {
  if (id == 0 || (id > I915_UAPI_OA_FORMAT_LAST && id < OA_FORMAT_XE_BASE) ||
      id >= OA_FORMAT_XE_BASE + OA_FORMAT_XE_COUNT)
    return NULL;
  pthread_once(&formats_once, build);
  return slot(id);
}

const struct oa_format *oa_format_parse(const char *name) {
  char *end;
  unsigned long id = strtoul(name, &end, 10);
  if (end != name && *end == '\0')
    return id <= UINT32_MAX ? oa_format_get((uint32_t)id) : NULL;
  for (uint32_t i = 1; i <= I915_UAPI_OA_FORMAT_LAST; i++) {
    const struct oa_format *f = oa_format_get(i);
    if (strcasecmp(f->name, name) == 0)
      return f;
  }
  for (uint32_t i = 0; i < OA_FORMAT_XE_COUNT; i++) {
    const struct oa_format *f = oa_format_get(OA_FORMAT_XE_BASE + i);
    if (strcasecmp(f->name, name) == 0)
      return f;
  }
  return NULL;
}

const char *oa_reason_name(unsigned bit) {
  static const char *const names[OA_REASONS] = {
      "timer",         "internal_trigger1",  "internal_trigger2", "ctx_switch",
      "go_transition", "clock_ratio_change", "mmio_trigger",
  };
  return bit < OA_REASONS ? names[bit] : NULL;
}

const char *oa_reason_field(unsigned bit) {
  static const char *const fields[OA_REASONS] = {
      "reason_timer",
      "reason_internal_trigger1",
      "reason_internal_trigger2",
      "reason_ctx_switch",
      "reason_go_transition",
      "reason_clock_ratio_change",
      "reason_mmio_trigger",
  };
  return bit < OA_REASONS ? fields[bit] : NULL;
}
