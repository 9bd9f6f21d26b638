/*
 * oa_metrics.h: the derived metrics of the "Render Metrics Basic" sets
 * (the RenderBasic sets of Mesa's src/intel/perf/oa-*.xml), over the
 * difference of two totals.
 *
 *   GpuTime             = Δticks · 1e9 / f_OA                  (ns)
 *   AvgGpuCoreFrequency = Δclocks · 1e9 / GpuTime              (Hz)
 *   GpuBusy             = 100 · ΔA0 / Δclocks                  (%)
 *   EuActive  Gen8/9    = 100 · (ΔA7 UDIV EUs) / Δclocks
 *             Gen12     = 100 · ((ΔA7+ΔA8+ΔA9+ΔA10) UDIV EUs) / Δclocks
 *   EuStall   Gen8/9    = A8 in place of A7; Gen12: A11..A14
 *   EuThreadOccupancy Gen12
 *                       = 100 · (8·(ΔA15+..+ΔA18) UDIV threads UDIV EUs)
 *                         / Δclocks
 * UDIV is the integer division of the metric XML. The EU equations hold
 * only while the Render Basic set's FLEX values are programmed, so the
 * caller asks for them (EuMetrics) only then.
 */
#ifndef COMMON_I915_OA_METRICS_H
#define COMMON_I915_OA_METRICS_H

#include "common/i915/oa_accum.h"

#include <stdbool.h>
#include <stdint.h>

enum oa_eu_family {
  OA_EU_NONE = 0, /* no EU equations known */
  OA_EU_GEN8,     /* BDW, SKL family: A7 active, A8 stall */
  OA_EU_XVE,      /* ACM-GT2 (DG2) XveActive: A7 only */
  OA_EU_GEN12,    /* TGL, ADL: A7..A10, A11..A14, A15..A18 */
};

struct oa_derived {
  double gpu_time_ns;
  double gpu_busy_percent;          /* NaN when not defined */
  double avg_gpu_core_frequency_hz; /* NaN when not defined */
  double eu_active_percent, eu_stall_percent, eu_thread_occupancy_percent;
};

struct oa_metric_params {
  uint64_t oa_hz;           /* OA timestamp frequency */
  uint32_t eu_total;        /* EuCoresTotalCount */
  uint32_t eu_threads;      /* EuThreadsCount: 7 Gen8-12, 8 DG2/MTL */
  enum oa_eu_family family; /* OA_EU_NONE: no EU metrics */
};

/* Derived metrics between `prev` and `now` totals of one stream. Values
 * that are undefined (no clocks, no A0, no EU count) are NaN. */
void oa_metrics_derive(const struct oa_format *fmt,
                       const struct oa_totals *prev,
                       const struct oa_totals *now,
                       const struct oa_metric_params *p,
                       struct oa_derived *out);

/* Index in fmt->counters of counter A<n>, or -1. */
int oa_format_a_index(const struct oa_format *fmt, unsigned n);

#endif
