/* oa_accum.c: accumulation of OA reports across wraps of every width. */
#include "common/i915/oa_accum.h"

#include <string.h>

void oa_accum_init(struct oa_accum *a, const struct oa_format *fmt, int gen12) {
  memset(a, 0, sizeof *a);
  a->fmt = fmt;
  a->gen12 = gen12;
}

static uint64_t delta(uint64_t now, uint64_t before, unsigned width) {
  uint64_t d = now - before;
  return width >= 64 ? d : d & ((UINT64_C(1) << width) - 1);
}

/* Little-endian loads; the hot loop below reads every counter once. */
static inline uint32_t ld32(const uint8_t *p) {
  uint32_t v;
  memcpy(&v, p, 4);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  v = __builtin_bswap32(v);
#endif
  return v;
}

static inline uint64_t ld64(const uint8_t *p) {
  return (uint64_t)ld32(p) | (uint64_t)ld32(p + 4) << 32;
}

/* One counter's current value (oa_report_decode's rule, inlined). */
static inline uint64_t counter_value(const struct oa_counter *c,
                                     const uint8_t *raw) {
  if (c->width == 32)
    return ld32(raw + c->low);
  if (c->width == 40)
    return ld32(raw + c->low) | (uint64_t)raw[c->high] << 32;
  return ld64(raw + c->low);
}

/* The inner loops, one per width, written for the compiler to unroll and
 * vectorise when `n` is a constant (see accum_run). */
static inline void acc32(const uint8_t *lo, uint64_t *restrict l,
                         uint64_t *restrict t, unsigned n) {
  for (unsigned k = 0; k < n; k++) {
    uint32_t v = ld32(lo + 4 * k);
    t[k] += (uint32_t)(v - (uint32_t)l[k]);
    l[k] = v;
  }
}

static inline void acc40(const uint8_t *lo, const uint8_t *hi,
                         uint64_t *restrict l, uint64_t *restrict t,
                         unsigned n) {
  for (unsigned k = 0; k < n; k++) {
    uint64_t v = ld32(lo + 4 * k) | (uint64_t)hi[k] << 32;
    t[k] += (v - l[k]) & ((UINT64_C(1) << 40) - 1);
    l[k] = v;
  }
}

/* Add one run's differences. The run lengths of the usual formats
 * (A32u40: 32 + 4 + 16; A24u40: 4 + 20 + 4 + 4 + 5 + 1 + 16) get loops of
 * constant length. */
static inline void accum_run(const struct oa_run *run, const uint8_t *raw,
                             uint64_t *last, uint64_t *total) {
  const uint8_t *lo = raw + run->low;
  uint64_t *l = last + run->first, *t = total + run->first;
  unsigned n = run->n;
  if (run->width == 32) {
    if (n == 16)
      acc32(lo, l, t, 16);
    else if (n == 4)
      acc32(lo, l, t, 4);
    else
      acc32(lo, l, t, n);
  } else if (run->width == 40) {
    const uint8_t *hi = raw + run->high;
    if (n == 32)
      acc40(lo, hi, l, t, 32);
    else if (n == 20)
      acc40(lo, hi, l, t, 20);
    else if (n == 4)
      acc40(lo, hi, l, t, 4);
    else
      acc40(lo, hi, l, t, n);
  } else {
    for (unsigned k = 0; k < n; k++) {
      uint64_t v = ld64(lo + 8 * k);
      t[k] += v - l[k];
      l[k] = v;
    }
  }
}

void oa_accum_report(struct oa_accum *a, const uint8_t *raw) {
  const struct oa_format *f = a->fmt;
  struct oa_report *last = &a->last;
  uint64_t id, ts, clk;
  if (f->header64) {
    id = ld64(raw);
    ts = ld64(raw + 8);
    clk = ld64(raw + 24);
  } else {
    id = ld32(raw);
    ts = ld32(raw + 4);
    clk = f->has_clock ? ld32(raw + 12) : 0;
  }
  uint32_t reason = a->gen12 == OA_REASON_NONE
                        ? 0
                        : (uint32_t)(id >> 19) & (a->gen12 ? 0x7F : 0x3F);
  a->reports++;
  for (uint32_t bits = reason; bits != 0; bits &= bits - 1)
    a->reasons[__builtin_ctz(bits)]++;
  if (a->have_base) {
    a->totals.ticks += delta(ts, last->timestamp, f->header64 ? 56 : 32);
    a->totals.clocks += delta(clk, last->clock, f->header64 ? 64 : 32);
    for (unsigned r = 0; r < f->n_runs; r++)
      accum_run(&f->runs[r], raw, last->values, a->totals.counters);
  } else {
    for (unsigned i = 0; i < f->n_counters; i++)
      last->values[i] = counter_value(&f->counters[i], raw);
  }
  last->reason = reason;
  last->timestamp = ts;
  last->clock = clk;
  a->have_base = true;
}

void oa_accum_status(struct oa_accum *a, uint32_t type) {
  if (type == DRM_I915_PERF_RECORD_OA_REPORT_LOST)
    a->report_lost++;
  else if (type == DRM_I915_PERF_RECORD_OA_BUFFER_LOST) {
    a->buffer_lost++;
    if (a->rebase_on_buffer_lost && a->have_base) {
      a->have_base = false;
      a->rebases++;
    }
  }
}

static void on_sample(void *ctx, const uint8_t *report) {
  oa_accum_report(ctx, report);
}

static void on_status(void *ctx, uint32_t type) { oa_accum_status(ctx, type); }

void oa_accum_records(struct oa_accum *a, const uint8_t *buf, size_t len,
                      struct oa_walk_result *res) {
  static const struct oa_walk_ops ops = {.sample = on_sample,
                                         .status = on_status};
  oa_records_walk(a->fmt, buf, len, &ops, a, res);
}

uint64_t oa_ticks_to_ns(uint64_t ticks, uint64_t hz) {
  if (hz == 0)
    return 0;
  unsigned __int128 ns = (unsigned __int128)ticks * 1000000000u / hz;
  return ns > UINT64_MAX ? UINT64_MAX : (uint64_t)ns;
}
