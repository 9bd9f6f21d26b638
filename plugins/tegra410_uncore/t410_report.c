/*
 * t410_report.c: records from state, never the other way: every builder
 * takes const pointers. Per reading of a group: the preset's `tegra410`
 * record (the kernel documentation's metrics over this read's window) and
 * one `uncore_event` record per event. A reading of a PMU whose cpumask
 * lists several CPUs carries a `cpu` tag; one of a single-CPU or summed
 * PMU carries none.
 */
#include "plugins/tegra410_uncore/t410.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Keep the first error of a sequence of calls. */
static void t410_first(int *rc, int r) {
  if (*rc == 0 && r < 0)
    *rc = r;
}

/* pmu and, for a per-CPU reading, cpu: the tags every record starts with. */
static void t410_instance_tags(const struct t410_group *g, size_t i,
                               char cpu[12], struct metric *m, int *rc) {
  t410_first(rc, metric_add_tag(m, "pmu", g->pg.pmu));
  if (g->pg.per_cpu) {
    snprintf(cpu, 12, "%d", g->pg.readings[i].cpu);
    t410_first(rc, metric_add_tag(m, "cpu", cpu));
  }
}

/* The preset's metrics over this read's window; 0 when there are none. */
static int t410_report_metrics(const struct t410 *d, const struct t410_group *g,
                               size_t i, struct metric_sink *sink,
                               uint64_t time_ns) {
  const struct t410_series *s = &g->series[i];
  struct t410_sample sample;
  memset(&sample, 0, sizeof(sample));
  if (!s->have)
    return 0;
  for (size_t k = 0; k < g->pg.n_events; k++) {
    if (g->roles[k] == T410_NONE)
      return 0;
    /* a group runs all or nothing: every event or none was counted */
    sample.have[g->roles[k]] = s->counted;
    sample.delta[g->roles[k]] = (double)s->delta[k];
  }
  sample.elapsed_ns = s->window_ns;
  struct metric m;
  char cpu[12];
  int rc = 0;
  metric_init(&m, "tegra410", time_ns);
  t410_instance_tags(g, i, cpu, &m, &rc);
  t410_first(&rc, metric_add_tag(&m, "socket", g->preset.socket));
  t410_first(&rc, metric_add_tag(&m, "rc", g->preset.rc));
  if (g->preset.rc[0])
    t410_first(
        &rc, metric_add_tag(&m, "segment",
                            t410_pcie_segment(d->pcie_labels, d->n_pcie_labels,
                                              g->preset.socket, g->preset.rc)));
  t410_first(&rc, metric_add_tag(&m, "direction", g->preset.direction));
  t410_first(&rc, metric_add_tag(&m, "filter", g->preset.filter));
  if (s->counted)
    t410_first(&rc, t410_metrics_add(g->preset.kind, &sample, &m));
  if (s->have_running)
    t410_first(&rc, metric_add_float(&m, "running_percent", "percent",
                                     s->running_percent));
  if (rc < 0)
    return rc;
  return m.n_fields ? metric_sink_write(sink, &m) : 0;
}

/* The uncore_event record of event `k`. */
static int t410_report_event(const struct t410_group *g, size_t i, size_t k,
                             struct metric_sink *sink, uint64_t time_ns) {
  const struct t410_series *s = &g->series[i];
  const struct pmu_event *ev = &g->pg.events[k];
  uint64_t count = s->total[k];
  struct metric m;
  char cpu[12];
  int rc = 0;
  metric_init(&m, "uncore_event", time_ns);
  t410_instance_tags(g, i, cpu, &m, &rc);
  t410_first(&rc, metric_add_tag(&m, "event", ev->text));
  t410_first(&rc, metric_add_tag(&m, "unit", ev->unit));
  t410_first(&rc, metric_add_tag(&m, "group", g->preset.part));
  t410_first(&rc, metric_add_tag(&m, "filter", g->preset.filter));
  /* an interval the group never ran in has no value (perf: "<not
   * counted>"): no count, value or rate, never a 0 or a guess */
  double rate;
  if (s->counted) {
    t410_first(&rc, metric_add_int(&m, "count", "gpu_events", count));
    if (ev->scale != 1.0)
      t410_first(&rc, metric_add_float(&m, "value", "uncore_value",
                                       (double)count * ev->scale));
    if (s->window_ns > 0 &&
        counter_rate(s->delta[k], (uint64_t)llround(s->window_ns), &rate))
      t410_first(&rc,
                 metric_add_float(&m, "rate", "uncore_rate", rate * ev->scale));
  }
  t410_first(&rc, metric_add_int(&m, "enabled_ns", "gpu_time", s->enabled_ns));
  t410_first(&rc, metric_add_int(&m, "running_ns", "gpu_time", s->running_ns));
  if (s->have_running)
    t410_first(&rc, metric_add_float(&m, "running_percent", "percent",
                                     s->running_percent));
  t410_first(&rc,
             metric_add_int(&m, "not_counted", "gpu_events", s->not_counted));
  if (rc < 0)
    return rc;
  return metric_sink_write(sink, &m);
}

int t410_report(const struct t410 *d, const struct t410_group *g, size_t i,
                struct metric_sink *sink, uint64_t time_ns) {
  int rc = 0;
  if (g->preset.kind != T410_GENERIC)
    t410_first(&rc, t410_report_metrics(d, g, i, sink, time_ns));
  for (size_t k = 0; k < g->pg.n_events; k++)
    t410_first(&rc, t410_report_event(g, i, k, sink, time_ns));
  return rc;
}
