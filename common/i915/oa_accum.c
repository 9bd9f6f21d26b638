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

void oa_accum_report(struct oa_accum *a, const uint8_t *raw) {
  const struct oa_format *f = a->fmt;
  struct oa_report r;
  oa_report_decode(f, a->gen12, raw, &r);
  a->reports++;
  for (unsigned bit = 0; bit < OA_REASONS; bit++)
    if (r.reason & (1u << bit))
      a->reasons[bit]++;
  if (a->have_base) {
    unsigned ts_width = f->header64 ? 56 : 32;
    unsigned clk_width = f->header64 ? 64 : 32;
    a->totals.ticks += delta(r.timestamp, a->last.timestamp, ts_width);
    a->totals.clocks += delta(r.clock, a->last.clock, clk_width);
    for (unsigned i = 0; i < f->n_counters; i++)
      a->totals.counters[i] +=
          delta(r.values[i], a->last.values[i], f->counters[i].width);
  }
  a->last = r;
  a->have_base = true;
}

void oa_accum_status(struct oa_accum *a, uint32_t type) {
  if (type == OA_RECORD_REPORT_LOST)
    a->report_lost++;
  else if (type == OA_RECORD_BUFFER_LOST)
    a->buffer_lost++;
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
