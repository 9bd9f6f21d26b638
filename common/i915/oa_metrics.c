/* oa_metrics.c: Render Basic derived metrics (oa_metrics.h). */
#include "common/i915/oa_metrics.h"

#include <math.h>

int oa_format_a_index(const struct oa_format *fmt, unsigned n) {
  for (unsigned i = 0; i < fmt->n_counters; i++)
    if (fmt->counters[i].kind == OA_A && fmt->counters[i].index == n)
      return (int)i;
  return -1;
}

/* Sum of ΔA<first>..ΔA<first+n-1>; false when one is missing. */
static bool delta_a(const struct oa_format *fmt, const struct oa_totals *prev,
                    const struct oa_totals *now, unsigned first, unsigned n,
                    uint64_t *sum) {
  *sum = 0;
  for (unsigned k = first; k < first + n; k++) {
    int i = oa_format_a_index(fmt, k);
    if (i < 0)
      return false;
    *sum += now->counters[i] - prev->counters[i];
  }
  return true;
}

void oa_metrics_derive(const struct oa_format *fmt,
                       const struct oa_totals *prev,
                       const struct oa_totals *now,
                       const struct oa_metric_params *p,
                       struct oa_derived *out) {
  uint64_t dticks = now->ticks - prev->ticks;
  uint64_t dclocks = now->clocks - prev->clocks;
  out->gpu_time_ns = (double)oa_ticks_to_ns(dticks, p->oa_hz);
  out->gpu_busy_percent = NAN;
  out->avg_gpu_core_frequency_hz = NAN;
  out->eu_active_percent = NAN;
  out->eu_stall_percent = NAN;
  out->eu_thread_occupancy_percent = NAN;
  if (fmt->has_clock && out->gpu_time_ns > 0)
    out->avg_gpu_core_frequency_hz = (double)dclocks * 1e9 / out->gpu_time_ns;
  if (!fmt->has_clock || dclocks == 0)
    return;
  uint64_t a;
  if (delta_a(fmt, prev, now, 0, 1, &a))
    out->gpu_busy_percent = 100.0 * (double)a / (double)dclocks;
  if (p->eu_total == 0)
    return;
  uint64_t eus = p->eu_total;
  if (p->family == OA_EU_GEN8 || p->family == OA_EU_XVE) {
    if (delta_a(fmt, prev, now, 7, 1, &a))
      out->eu_active_percent = 100.0 * (double)(a / eus) / (double)dclocks;
    if (p->family == OA_EU_GEN8 && delta_a(fmt, prev, now, 8, 1, &a))
      out->eu_stall_percent = 100.0 * (double)(a / eus) / (double)dclocks;
  } else if (p->family == OA_EU_GEN12) {
    if (delta_a(fmt, prev, now, 7, 4, &a))
      out->eu_active_percent = 100.0 * (double)(a / eus) / (double)dclocks;
    if (delta_a(fmt, prev, now, 11, 4, &a))
      out->eu_stall_percent = 100.0 * (double)(a / eus) / (double)dclocks;
    if (p->eu_threads > 0 && delta_a(fmt, prev, now, 15, 4, &a))
      out->eu_thread_occupancy_percent =
          100.0 * (double)(8 * a / p->eu_threads / eus) / (double)dclocks;
  }
}
