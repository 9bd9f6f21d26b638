/*
 * t410_state.c: the state layer of tegra410_uncore. A group's reading
 * (common/pmu/pmu_group.h: deltas of value, enabled and running since the
 * previous read, scaled per interval as perf stat -I does) is folded into
 * its series: the interval's deltas, their window and running fraction,
 * and running totals. An interval in which the group never ran is not
 * counted: no delta, no window, the totals stay, and not_counted says so
 * (perf prints "<not counted>"); nothing is carried over into the next
 * interval, so nothing is counted twice.
 *
 * perf counts are 64-bit (perf_event_read_value sums into a u64), so a
 * cumulative count that went down is a reset, never a wrap
 * (common/core/counter.h: counter_step): the u64 difference of such a
 * step would read as 1.8e19 events. That interval has no value (as if not
 * counted, but not said as such); the next goes on from the new counts.
 */
#include "plugins/tegra410_uncore/t410.h"

#include <string.h>

void t410_series_reset(struct t410_series *s) { memset(s, 0, sizeof(*s)); }

void t410_series_update(struct t410_series *s, const struct pmu_reading *r,
                        size_t n) {
  if (n > PMU_MAX_GROUP)
    n = PMU_MAX_GROUP;
  size_t cpus = r->n_cpus > 0 ? r->n_cpus : 1;
  s->have = true;
  s->enabled_ns = r->enabled_ns;
  s->running_ns = r->running_ns;
  s->have_running = r->d_enabled_ns > 0;
  s->running_percent = s->have_running ? 100.0 * (double)r->d_running_ns /
                                             (double)r->d_enabled_ns
                                       : 0;
  s->counted = r->scaled != PMU_NOT_COUNTED && r->d_enabled_ns > 0;
  memset(s->delta, 0, sizeof(s->delta));
  bool reset = false;
  for (size_t k = 0; k < n && s->have_counts; k++) {
    uint64_t d;
    reset |= counter_step(s->counts[k], r->counts[k], 64, /*max_step=*/0, &d) ==
             COUNTER_RESET;
  }
  memcpy(s->counts, r->counts, n * sizeof(s->counts[0]));
  s->have_counts = true;
  if (reset) {
    s->counted = false;
    s->window_ns = 0;
    s->resets++;
    return;
  }
  if (!s->counted) {
    s->window_ns = 0;
    s->not_counted++;
    return;
  }
  s->window_ns = (double)r->d_enabled_ns / (double)cpus;
  for (size_t k = 0; k < n; k++) {
    s->delta[k] = r->delta[k];
    bool saturated;
    s->total[k] = counter_add_sat(s->total[k], r->delta[k], &saturated);
  }
}
