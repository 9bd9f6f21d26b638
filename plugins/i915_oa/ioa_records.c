/*
 * ioa_records.c: the two records of one device, built from its state (the
 * plugin layer; common/i915/oa_report.c decodes the reports).
 *
 *   i915_oa        tags device, metric_set, engine: cumulative totals
 *                  (gpu_core_clocks, gpu_time_ns, a0.., b0.., c0.. or
 *                  mpec0.., flex events by name) and the interval's
 *                  derived floats;
 *   i915_oa_stream tags device, metric_set: reports, lost records,
 *                  reopens, malformed buffers, one field per reason.
 */
#include "common/i915/i915_uapi.h"
#include "common/i915/oa_metrics.h"
#include "plugins/i915_oa/i915_oa.h"

#include <math.h>
#include <stdio.h>

static void first_error(int *rc, int r) {
  if (*rc == 0 && r < 0)
    *rc = r;
}

static const char *engine_tag(const struct oa_config *cfg, char *buf,
                              size_t cap) {
  static const char *const classes[I915_UAPI_ENGINE_CLASSES] =
      I915_UAPI_ENGINE_CLASS_NAMES;
  if (cfg->engine_class < 0)
    return "render0"; /* the kernel's default, class 0 instance 0 */
  snprintf(buf, cap, "%s%d", classes[cfg->engine_class], cfg->engine_instance);
  return buf;
}

static void add_float(struct metric *m, int *rc, const char *key, double v,
                      const char *ctype) {
  if (!isnan(v))
    first_error(rc, metric_add_float(m, key, ctype, v));
}

static int report_totals(const struct oa_instance *inst, struct oa_dev *d,
                         uint64_t time_ns, struct metric_sink *sink) {
  const struct oa_format *f = d->fmt;
  const struct oa_totals *t = &d->acc.totals;
  struct metric m;
  int rc = 0;
  char engine[32];
  metric_init(&m, "i915_oa", time_ns);
  first_error(&rc, metric_add_tag(&m, "device", d->device_tag));
  first_error(&rc, metric_add_tag(&m, "metric_set", d->metric_set_tag));
  first_error(&rc,
              metric_add_tag(&m, "engine",
                             engine_tag(&inst->cfg, engine, sizeof(engine))));
  if (f->has_clock)
    first_error(&rc,
                metric_add_int(&m, "gpu_core_clocks", "gpu_cycles", t->clocks));
  first_error(
      &rc, metric_add_int(&m, "gpu_time_ns", "gpu_time",
                          oa_ticks_to_ns(t->ticks, d->dev.id.oa_timestamp_hz)));
  for (unsigned i = 0; i < f->n_counters; i++)
    first_error(&rc, metric_add_int(&m, f->counters[i].name, "gpu_events",
                                    t->counters[i]));
  for (size_t e = 0; e < inst->cfg.n_flex; e++) {
    int i = oa_format_a_index(f, inst->flex_counter[e]);
    if (i >= 0)
      first_error(&rc, metric_add_int(&m, inst->cfg.flex[e].name, "gpu_events",
                                      t->counters[i]));
  }
  if (d->have_prev) {
    struct oa_metric_params p = {
        .oa_hz = d->dev.id.oa_timestamp_hz,
        .eu_total = d->dev.id.eu_total,
        .eu_threads = d->platform->eu_threads,
        /* EuMetrics, or a metric set known as the platform's Render
         * Basic (live and replay alike) */
        .family = inst->cfg.eu_metrics || oa_platform_render_basic(
                                              d->platform, d->metric_set_tag)
                      ? d->platform->eu_family
                      : OA_EU_NONE,
    };
    struct oa_derived x;
    oa_metrics_derive(f, &d->prev, t, &p, &x);
    add_float(&m, &rc, "gpu_busy_percent", x.gpu_busy_percent, "percent");
    add_float(&m, &rc, "avg_gpu_core_frequency_hz", x.avg_gpu_core_frequency_hz,
              "gpu_hertz");
    add_float(&m, &rc, "eu_active_percent", x.eu_active_percent, "percent");
    add_float(&m, &rc, "eu_stall_percent", x.eu_stall_percent, "percent");
    add_float(&m, &rc, "eu_thread_occupancy_percent",
              x.eu_thread_occupancy_percent, "percent");
  }
  if (rc == 0)
    rc = metric_sink_write(sink, &m);
  return rc;
}

static int report_stream(struct oa_dev *d, uint64_t time_ns,
                         struct metric_sink *sink) {
  const struct oa_accum *a = &d->acc;
  struct metric m;
  int rc = 0;
  metric_init(&m, "i915_oa_stream", time_ns);
  first_error(&rc, metric_add_tag(&m, "device", d->device_tag));
  first_error(&rc, metric_add_tag(&m, "metric_set", d->metric_set_tag));
  first_error(&rc, metric_add_int(&m, "reports", "gpu_events", a->reports));
  first_error(&rc,
              metric_add_int(&m, "report_lost", "gpu_events", a->report_lost));
  first_error(&rc,
              metric_add_int(&m, "buffer_lost", "gpu_events", a->buffer_lost));
  first_error(&rc, metric_add_int(&m, "rebases", "gpu_events", a->rebases));
  first_error(
      &rc, metric_add_int(&m, "reopens", "gpu_events", d->dev.session.reopens));
  first_error(&rc, metric_add_int(&m, "malformed", "gpu_events", d->malformed));
  if (d->dev.xe) {
    /* xe's other OA statuses (DRM_XE_OASTATUS_COUNTER_OVERFLOW,
     * DRM_XE_OASTATUS_MMIO_TRG_Q_FULL): the lost reports are above */
    first_error(&rc, metric_add_int(&m, "counter_overflow", "gpu_events",
                                    d->xe_counts.counter_overflow));
    first_error(&rc, metric_add_int(&m, "mmio_trigger_queue_full", "gpu_events",
                                    d->xe_counts.mmio_trigger_queue_full));
  }
  if (d->inst->cfg.duty_cycle > 1 && d->inst->cfg.replay == NULL) {
    /* DutyCycle: the stream's open time, the open window included, and
     * its share of the time since init */
    uint64_t now = plugin_host_monotonic_ns(d->inst->host);
    uint64_t open = d->window_ns;
    if (d->window_start != 0 && d->dev.stream.fd >= 0)
      open += now - d->window_start;
    uint64_t since = now - d->inst->init_ns;
    first_error(&rc, metric_add_int(&m, "windows", "gpu_events", d->windows));
    first_error(&rc, metric_add_int(&m, "window_ns", "gpu_time", open));
    if (since > 0)
      add_float(&m, &rc, "coverage_percent",
                100.0 * (double)open / (double)since, "percent");
  }
  for (unsigned b = 0; b < OA_REASONS; b++) /* keys are borrowed: static */
    first_error(&rc, metric_add_int(&m, oa_reason_field(b), "gpu_events",
                                    a->reasons[b]));
  if (rc == 0)
    rc = metric_sink_write(sink, &m);
  return rc;
}

int ioa_records_write(const struct oa_instance *inst, struct oa_dev *d,
                      uint64_t time_ns, struct metric_sink *sink) {
  if (!d->acc_ready || !d->dev.started)
    return 0; /* the stream never opened: nothing to say yet */
  int rc = report_totals(inst, d, time_ns, sink);
  first_error(&rc, report_stream(d, time_ns, sink));
  d->prev = d->acc.totals;
  d->have_prev = true;
  return rc;
}
