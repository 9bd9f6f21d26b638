/*
 * t410_state.c: the state layer of tegra410_uncore. A group's reading
 * (common/pmu/pmu_group.h: multiplex-scaled counts, cumulative since the
 * group was opened) is folded into its series: deltas through struct
 * counter (64-bit perf counts), and the window they cover. A scaled count
 * can step back a little when multiplexing changes; such a step gives no
 * delta for that read, as perf stat -I prints no rate for it.
 */
#include "plugins/tegra410_uncore/t410.h"

#include <string.h>

void t410_series_reset(struct t410_series *s) {
  memset(s, 0, sizeof(*s));
  for (size_t k = 0; k < PMU_MAX_GROUP; k++)
    counter_init(&s->counts[k], 64);
}

void t410_series_update(struct t410_series *s, const struct pmu_reading *r,
                        size_t n, uint64_t now_ns) {
  bool had = s->have;
  for (size_t k = 0; k < n && k < PMU_MAX_GROUP; k++) {
    bool backwards = had && r->counts[k] < s->counts[k].last;
    uint64_t delta = counter_update(&s->counts[k], r->counts[k]);
    s->have_delta[k] = had && !backwards;
    s->delta[k] = s->have_delta[k] ? delta : 0;
  }
  size_t cpus = r->n_cpus > 0 ? r->n_cpus : 1;
  if (r->enabled_ns > s->enabled_ns)
    s->window_ns = (double)(r->enabled_ns - s->enabled_ns) / (double)cpus;
  else
    s->window_ns = had ? (double)(now_ns - s->prev_mono_ns) : 0;
  s->enabled_ns = r->enabled_ns;
  s->running_ns = r->running_ns;
  s->prev_mono_ns = now_ns;
  s->have = true;
}
