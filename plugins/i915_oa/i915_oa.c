/*
 * i915_oa.c: the plugin core. One OA stream per i915 device (Device
 * options, or every i915 render node under DevRoot), read in one
 * direction: drain the stream (common/i915/i915_device) -> walk and
 * accumulate every record (common/i915/oa_accum) -> records from state
 * (ioa_records.c) -> sink. The drain hook empties the streams between reads
 * so the 16 MiB OA buffer never overflows however long the interval.
 */
#include "plugins/i915_oa/i915_oa.h"
#include "common/i915/i915_perf_open.h"
#include "common/i915/oa_format.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void *oa_new(const char *instance) {
  (void)instance;
  struct oa_instance *inst = calloc(1, sizeof(*inst));
  if (inst != NULL)
    oa_config_defaults(&inst->cfg);
  return inst;
}

static int oa_configure(void *p, const struct cfg_item *item) {
  return oa_config_apply(&((struct oa_instance *)p)->cfg, item);
}

static const char *or_default(const char *v, const char *def) {
  return v != NULL ? v : def;
}

/* Called by i915_device_open once the identity is known, before the
 * stream opens: the format, the exponent and a fresh accumulator base. */
static int oa_on_identity(void *ctx, const struct i915_device *dev,
                          struct i915_device_params *p) {
  struct oa_dev *d = ctx;
  struct oa_instance *inst = d->inst;
  d->platform = oa_platform_lookup(dev->id.devid);
  uint32_t format =
      inst->cfg.format ? inst->cfg.format : d->platform->default_format;
  if (format == 0) {
    log_msg(LOG_LEVEL_ERROR, OA_PLUGIN, dev->object, "identity",
            "device id 0x%04x is not in the platform table; set Format",
            (unsigned)dev->id.devid);
    return -EINVAL;
  }
  const struct oa_format *fmt = oa_format_get(format);
  uint64_t hz = dev->id.oa_timestamp_hz;
  int e = oa_exponent_for_period(inst->cfg.period_ns, hz);
  if (!inst->privileged && inst->max_rate_hz > 0) {
    int min_e = i915_perf_open_min_exponent(hz, inst->max_rate_hz);
    if (e < min_e) {
      if (!d->acc_ready)
        log_msg(
            LOG_LEVEL_NOTICE, OA_PLUGIN, dev->object, "Period",
            "shorter than dev.i915.oa_max_sample_rate (%llu Hz) allows "
            "without CAP_PERFMON; sampling every %llu ns instead",
            (unsigned long long)inst->max_rate_hz,
            (unsigned long long)(1000000000u / i915_perf_open_rate(min_e, hz)));
      e = min_e;
    }
  }
  p->format = format;
  p->exponent = e;
  if (!d->acc_ready || d->acc.fmt != fmt) {
    oa_accum_init(&d->acc, fmt, d->platform->gen12);
    d->fmt = fmt;
    d->acc_ready = true;
    d->have_prev = false;
  } else {
    d->acc.have_base = false; /* a new stream: its first report is a base */
  }
  return 0;
}

static void oa_on_missing(void *ctx, const char *entry, int err) {
  (void)ctx;
  log_msg(LOG_LEVEL_ERROR, OA_PLUGIN, entry, "Device", "%s",
          err == ENODEV ? "not an i915 device" : strerror(err));
}

static int oa_flex_setup(struct oa_instance *inst) {
  struct i915_flex_event ev[I915_FLEX_COUNTERS];
  for (size_t i = 0; i < inst->cfg.n_flex; i++)
    ev[i] = inst->cfg.flex[i].event;
  int rc = i915_flex_build(ev, inst->cfg.n_flex, inst->flex_pairs,
                           &inst->n_flex_regs, inst->flex_counter);
  if (rc < 0)
    log_msg(LOG_LEVEL_ERROR, OA_PLUGIN, "config", "FlexEvent", "%s",
            rc == -E2BIG ? "the events need more than the 14 flex counters "
                           "of EU_PERF_CNTL0..6"
                         : "a selector does not fit 12 bits");
  return rc < 0 ? -EINVAL : 0;
}

static void oa_dev_setup(struct oa_instance *inst, struct oa_dev *d,
                         const struct drm_node *node) {
  const struct oa_config *cfg = &inst->cfg;
  i915_device_init(&d->dev, node);
  d->inst = inst;
  snprintf(d->device_tag, sizeof(d->device_tag), "%s",
           node->pci[0] ? node->pci : node->name);
  d->params = (struct i915_device_params){
      .plugin = OA_PLUGIN,
      .sysfs_root = or_default(cfg->sysfs_root, "/sys"),
      .metric_set = cfg->metric_set,
      .flex = cfg->n_flex ? inst->flex_pairs : NULL,
      .n_flex = inst->n_flex_regs,
      .exponent = -1,
      /* the kernel's hrtimer that checks for new reports (revision 5+):
       * no faster than the reports come, and at least its 100 us */
      .poll_period_ns = cfg->period_ns > 100000 ? cfg->period_ns : 100000,
      .engine_class = cfg->engine_class,
      .engine_instance = cfg->engine_instance,
      .on_identity = oa_on_identity,
      .ctx = d,
  };
  if (cfg->metric_set != NULL)
    snprintf(d->metric_set_tag, sizeof(d->metric_set_tag), "%s",
             cfg->metric_set);
  else
    i915_flex_uuid(inst->flex_pairs, inst->n_flex_regs, d->metric_set_tag);
}

static int oa_init(void *p, const struct plugin_host *host) {
  struct oa_instance *inst = p;
  struct oa_config *cfg = &inst->cfg;
  inst->host = host;
  if (cfg->replay != NULL) { /* a recording: no device is opened */
    if (access(cfg->replay, R_OK) < 0) {
      int err = errno;
      log_errno(LOG_LEVEL_ERROR, OA_PLUGIN, cfg->replay, "Replay", err, NULL);
      return -err;
    }
    return 0;
  }
  if (cfg->metric_set == NULL && cfg->n_flex == 0) {
    log_msg(LOG_LEVEL_ERROR, OA_PLUGIN, "config", "MetricSet",
            "give a MetricSet (uuid or id) or FlexEvent options");
    return -EINVAL;
  }
  if (cfg->metric_set != NULL && cfg->n_flex > 0) {
    log_msg(LOG_LEVEL_ERROR, OA_PLUGIN, "config", "FlexEvent",
            "FlexEvent makes its own metric set; leave MetricSet out");
    return -EINVAL;
  }
  if (cfg->n_flex > 0 && oa_flex_setup(inst) < 0)
    return -EINVAL;
  const char *proc = or_default(cfg->proc_root, "/proc");
  if (i915_perf_open_max_rate(proc, &inst->max_rate_hz) < 0)
    inst->max_rate_hz = 0;
  inst->privileged = oa_privileged(proc);

  struct drm_node nodes[OA_MAX_DEVICES];
  int n = i915_device_find(host->kernel, or_default(cfg->dev_root, "/dev/dri"),
                           or_default(cfg->sysfs_root, "/sys"),
                           (const char *const *)cfg->devices, cfg->n_devices,
                           nodes, OA_MAX_DEVICES, oa_on_missing, inst);
  if (n <= 0) {
    log_msg(LOG_LEVEL_ERROR, OA_PLUGIN, or_default(cfg->dev_root, "/dev/dri"),
            "devices", "%s",
            n < 0 ? strerror(-n) : "no i915 render node found");
    return n < 0 ? n : -ENODEV;
  }
  inst->devs = calloc((size_t)n, sizeof(*inst->devs));
  if (inst->devs == NULL)
    return -ENOMEM;
  inst->n_devs = (size_t)n;
  uint64_t now = plugin_host_monotonic_ns(host);
  for (size_t i = 0; i < inst->n_devs; i++) {
    oa_dev_setup(inst, &inst->devs[i], &nodes[i]);
    /* a failure is logged and retried with backoff by every drain */
    i915_device_open(host->kernel, &inst->devs[i].dev, &inst->devs[i].params,
                     now);
  }
  return 0;
}

static void oa_on_chunk(void *ctx, const uint8_t *data, size_t len) {
  struct oa_dev *d = ctx;
  struct oa_walk_result res;
  oa_accum_records(&d->acc, data, len, &res);
  if (res.error == NULL)
    return;
  d->malformed++;
  if (log_complaint_raise(&d->malformed_complaint))
    log_msg(LOG_LEVEL_WARNING, OA_PLUGIN, d->dev.object, "read",
            "%s at byte %zu of a %zu-byte read; the rest of that read is "
            "skipped (counted in i915_oa_stream.malformed)",
            res.error, res.error_offset, len);
}

/* Drain every stream; the number of devices that failed, *first_err set
 * to the first failure's errno. */
static size_t oa_drain_all(struct oa_instance *inst, int *first_err) {
  uint64_t now = plugin_host_monotonic_ns(inst->host);
  size_t failed = 0;
  for (size_t i = 0; i < inst->n_devs; i++) {
    struct oa_dev *d = &inst->devs[i];
    int64_t r = i915_device_drain(inst->host->kernel, &d->dev, &d->params, now,
                                  oa_on_chunk, d);
    if (r < 0 || d->dev.stream.fd < 0) {
      if (*first_err == 0)
        *first_err =
            r < 0 ? (int)-r : (d->dev.last_err ? d->dev.last_err : EAGAIN);
      failed++;
    }
  }
  return failed;
}

static int oa_read(void *p, struct metric_sink *sink) {
  struct oa_instance *inst = p;
  if (inst->cfg.replay != NULL) {
    /* every host's first read primes (the exec host discards it): the
     * recording is written once, by the second */
    if (++inst->reads != 2)
      return 0;
    return oa_replay_run(inst, sink);
  }
  int err = 0;
  size_t failed = oa_drain_all(inst, &err);
  uint64_t time_ns = plugin_host_realtime_ns(inst->host);
  int rc = 0;
  for (size_t i = 0; i < inst->n_devs; i++) {
    int r = ioa_records_write(inst, &inst->devs[i], time_ns, sink);
    if (rc == 0 && r < 0)
      rc = r;
  }
  if (failed == inst->n_devs)
    return -err;
  return rc;
}

static int oa_drain(void *p) {
  int err = 0;
  oa_drain_all(p, &err);
  return 0;
}

static uint64_t oa_drain_interval(void *p) {
  struct oa_instance *inst = p;
  uint64_t best = 0;
  for (size_t i = 0; i < inst->n_devs; i++) {
    const struct oa_dev *d = &inst->devs[i];
    size_t size = d->fmt ? d->fmt->size : OA_REPORT_MAX;
    uint64_t ns = i915_stream_drain_interval_ns(size, inst->cfg.period_ns);
    if (ns > 0 && (best == 0 || ns < best))
      best = ns;
  }
  return best;
}

static void oa_free(void *p) {
  struct oa_instance *inst = p;
  if (inst == NULL)
    return;
  for (size_t i = 0; i < inst->n_devs; i++)
    i915_device_stop(inst->host->kernel, &inst->devs[i].dev,
                     &inst->devs[i].params);
  free(inst->devs);
  oa_config_fini(&inst->cfg);
  free(inst);
}

const struct plugin_ops i915_oa_ops = {
    .name = OA_PLUGIN,
    .instance_new = oa_new,
    .configure = oa_configure,
    .init = oa_init,
    .read = oa_read,
    .drain = oa_drain,
    .drain_interval_ns = oa_drain_interval,
    .instance_free = oa_free,
};
