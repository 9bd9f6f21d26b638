/*
 * ppf_report.c: records from state, never the other way (const inputs):
 *
 *   panthor_perf          tags device, gpu: the cumulative totals and this
 *                         interval's derived metrics (pp_accum.h)
 *   panthor_perf_raw      tags device, block, counter (and core with
 *                         PerCore): value, cumulative, per Counter option
 *                         (not "..._counter": Prometheus names carrying
 *                         their type are refused by promtool's lint)
 *   panthor_perf_stream   tag device: samples, overflows, errors, dropped,
 *                         busy_skips, reopens, clamped
 */
#include "plugins/panthor_perf/panthor_perf.h"

#include <stdio.h>

static void ppf_first(int *rc, int r) {
  if (*rc == 0 && r < 0)
    *rc = r;
}

static int ppf_report_main(const struct ppf_device *d,
                           const struct pp_metrics *m, struct metric_sink *sink,
                           uint64_t time_ns) {
  struct metric r;
  int rc = 0;
  metric_init(&r, "panthor_perf", time_ns);
  ppf_first(&rc, metric_add_tag(&r, "device", d->name));
  ppf_first(&rc, metric_add_tag(&r, "gpu", d->gpu.name));
  for (int i = 0; i < PP_M_INT_COUNT; i++)
    if (m->have_int[i])
      ppf_first(&rc, metric_add_int(&r, pp_metric_int_name(i),
                                    pp_metric_int_ctype(i), m->ints[i]));
  for (int i = 0; i < PP_M_FLOAT_COUNT; i++)
    if (m->have_float[i])
      ppf_first(&rc, metric_add_float(&r, pp_metric_float_name(i),
                                      i >= PP_M_EXT_READ_BANDWIDTH
                                          ? "gpu_bytes_per_second"
                                          : "percent",
                                      m->floats[i]));
  if (rc < 0)
    return rc;
  return r.n_fields > 0 ? metric_sink_write(sink, &r) : 0;
}

static int ppf_report_counter(const struct pp *p, const struct ppf_device *d,
                              uint32_t k, struct metric_sink *sink,
                              uint64_t time_ns) {
  const struct pp_accum_raw *raw = &d->acc.raw[k];
  if ((unsigned)raw->loc.block >= PP_BLOCK_COUNT)
    return 0;
  const char *text = p->cfg.counters[k].text;
  const char *block = pp_block_name(raw->loc.block);
  struct metric r;
  int rc = 0;
  metric_init(&r, "panthor_perf_raw", time_ns);
  ppf_first(&rc, metric_add_tag(&r, "device", d->name));
  ppf_first(&rc, metric_add_tag(&r, "block", block));
  ppf_first(&rc, metric_add_tag(&r, "counter", text));
  ppf_first(&rc, metric_add_int(&r, "value", "gpu_events",
                                d->acc.total[PP_C_COUNT + k]));
  if (rc == 0)
    rc = metric_sink_write(sink, &r);
  for (uint32_t c = 0; rc == 0 && c < raw->n_per_block; c++) {
    char core[12];
    snprintf(core, sizeof(core), "%u", c);
    metric_init(&r, "panthor_perf_raw", time_ns);
    ppf_first(&rc, metric_add_tag(&r, "device", d->name));
    ppf_first(&rc, metric_add_tag(&r, "block", block));
    ppf_first(&rc, metric_add_tag(&r, "counter", text));
    ppf_first(&rc, metric_add_tag(&r, "core", core));
    ppf_first(&rc,
              metric_add_int(&r, "value", "gpu_events", raw->per_block[c]));
    if (rc == 0)
      rc = metric_sink_write(sink, &r);
  }
  return rc;
}

static int ppf_report_stream(const struct ppf_device *d,
                             struct metric_sink *sink, uint64_t time_ns) {
  const struct pp_stream *s = &d->acc.stream;
  struct metric r;
  int rc = 0;
  metric_init(&r, "panthor_perf_stream", time_ns);
  ppf_first(&rc, metric_add_tag(&r, "device", d->name));
  ppf_first(&rc, metric_add_int(&r, "samples", "gpu_events", s->samples));
  ppf_first(&rc, metric_add_int(&r, "overflows", "gpu_events", s->overflows));
  ppf_first(&rc, metric_add_int(&r, "errors", "gpu_events", s->errors));
  ppf_first(&rc, metric_add_int(&r, "dropped", "gpu_events", s->dropped));
  ppf_first(&rc, metric_add_int(&r, "busy_skips", "gpu_events", s->busy_skips));
  ppf_first(&rc, metric_add_int(&r, "reopens", "gpu_events", s->reopens));
  ppf_first(&rc, metric_add_int(&r, "clamped", "gpu_events", s->clamped));
  if (rc < 0)
    return rc;
  return metric_sink_write(sink, &r);
}

int ppf_report(const struct pp *p, const struct ppf_device *d,
               const struct pp_metrics *m, struct metric_sink *sink,
               uint64_t time_ns) {
  int rc = 0;
  ppf_first(&rc, ppf_report_main(d, m, sink, time_ns));
  for (uint32_t k = 0; k < d->acc.n_raw; k++)
    ppf_first(&rc, ppf_report_counter(p, d, k, sink, time_ns));
  ppf_first(&rc, ppf_report_stream(d, sink, time_ns));
  return rc;
}
