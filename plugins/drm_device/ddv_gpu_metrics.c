/*
 * ddv_gpu_metrics.c: amdgpu's gpu_metrics table in drm_device.
 *
 * device/gpu_metrics (amdgpu_pm.c: amdgpu_get_gpu_metrics) is a binary
 * sysfs file: the SMU's table (common/amdgpu/gpu_metrics.h), at most
 * PAGE_SIZE - 1 bytes, read like every other attribute (one pread of up
 * to SYSFS_VALUE_MAX bytes; a full page is refused as cut). The show
 * function takes a runtime-PM reference exactly as pp_dpm_* do:
 * amdgpu_pm_get_access_if_active (-EPERM while suspended) on current
 * kernels, pm_runtime_get_sync (which resumes the GPU) on older ones: it is
 * never read while the device is not known to be active.
 *
 * Its values get their own measurement, drm_device_gpu_metrics, tagged
 * sensor (the table's names: edge, hotspot, mem, gfx, socket, gfxclk,
 * core3, ...), one record per sensor: they are the SMU's own time-filtered
 * or instantaneous figures, which hwmon (drm_device_temperature, _power,
 * _freq, _fan) also derives from the same firmware for a few of them, so
 * they are kept apart rather than mixed into hwmon's series. The
 * ASIC-independent throttle bits go into drm_device_throttle with domain
 * "smu" (hwmon has none). The energy accumulator is a counter
 * (energy_joules on sensor "socket"), unwrapped at its width (32 bits in
 * v1.0); a 64-bit accumulator that goes backwards was reset (SMU reset,
 * driver reload) and restarts from its new value, adding nothing.
 */
#include "plugins/drm_device/ddv.h"

#include "common/amdgpu/gpu_metrics.h"
#include "common/core/counter.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct ddv_gm {
  struct gpu_metrics m; /* the last table decoded */
  bool have;            /* m is from this read */
  /* the unknown revision said last (said once until it changes) */
  uint8_t said_format, said_content;
  bool said;
  /* energy: the raw accumulator unwrapped since the first reading */
  bool e_seen;
  uint64_t e_first, e_last, e_total;
};

void ddv_gm_probe(const struct ddv *d, struct ddv_device *dev) {
  (void)d;
  if (dev->gm != NULL)
    return;
  struct ddv_gm *gm = calloc(1, sizeof(*gm));
  if (gm == NULL)
    return; /* left out, like an attribute the kernel lacks */
  /* found by the caller's ddv_probe_add (fstatat: opens nothing) */
  dev->gm = gm;
}

void ddv_gm_free(struct ddv_device *dev) {
  free(dev->gm);
  dev->gm = NULL;
}

static void ddv_gm_energy(struct ddv_gm *gm) {
  const struct gpu_metrics *m = &gm->m;
  if (!m->have_energy)
    return;
  uint64_t raw = m->energy_raw;
  if (!gm->e_seen) {
    gm->e_seen = true;
    gm->e_first = gm->e_last = raw;
    gm->e_total = 0;
    return;
  }
  uint64_t delta = 0;
  if (raw >= gm->e_last)
    delta = raw - gm->e_last;
  else if (m->energy_bits < 64)
    delta = counter_wrap_delta(gm->e_last, raw, m->energy_bits);
  /* else: a reset; nothing added, counting goes on from raw */
  bool sat = false;
  gm->e_total = counter_add_sat(gm->e_total, delta, &sat);
  gm->e_last = raw;
}

int ddv_gm_update(struct ddv_device *dev, struct ddv_probe *p, const void *buf,
                  size_t len, uint64_t now_ns) {
  (void)now_ns;
  struct ddv_gm *gm = dev->gm;
  if (gm == NULL)
    return -ENOMEM;
  gm->have = false;
  int rc = gpu_metrics_decode(buf, len, &gm->m);
  if (rc == -ENOTSUP) {
    /* a layout this build does not know: said once per revision */
    if (!gm->said || gm->said_format != gm->m.format_revision ||
        gm->said_content != gm->m.content_revision) {
      gm->said = true;
      gm->said_format = gm->m.format_revision;
      gm->said_content = gm->m.content_revision;
      log_msg(LOG_LEVEL_WARNING, DDV_PLUGIN, dev->name, p->rel,
              "gpu_metrics revision %u.%u is not known here: skipped",
              gm->m.format_revision, gm->m.content_revision);
    }
    return rc;
  }
  if (rc < 0) {
    if (log_complaint_raise(&p->complaint))
      log_msg(LOG_LEVEL_WARNING, DDV_PLUGIN, dev->name, p->rel,
              "gpu_metrics %u.%u: %zu bytes read, structure_size %u: not "
              "the kernel's layout of that revision",
              gm->m.format_revision, gm->m.content_revision, len,
              gm->m.structure_size);
    return rc;
  }
  gm->have = true;
  ddv_gm_energy(gm);
  return 0;
}

static void ddv_gm_energy_field(const struct ddv_gm *gm, struct metric *r) {
  metric_add_float(r, "energy_joules", "gpu_energy",
                   ((double)gm->e_first + (double)gm->e_total) *
                       gm->m.energy_unit_joules);
}

/* Write one record per sensor, in the order of the table. */
static int ddv_gm_sensors(const struct ddv_device *dev, const struct ddv_gm *gm,
                          uint64_t time_ns, struct metric_sink *sink) {
  const struct gpu_metrics *m = &gm->m;
  /* each value's sensor as an index into the distinct names */
  uint8_t group[GPU_METRICS_MAX_VALUES];
  const char *names[GPU_METRICS_MAX_VALUES];
  size_t n_names = 0;
  for (size_t i = 0; i < m->n_values; i++) {
    size_t g = 0;
    while (g < n_names && strcmp(names[g], m->values[i].sensor) != 0)
      g++;
    if (g == n_names)
      names[n_names++] = m->values[i].sensor;
    group[i] = (uint8_t)g;
  }
  bool energy = gm->e_seen && m->energy_unit_joules > 0;
  int rc = 0;
  for (size_t g = 0; g <= n_names; g++) {
    bool socket = g < n_names && strcmp(names[g], "socket") == 0;
    if (g == n_names && !energy)
      break; /* energy without a socket power value: its own record */
    struct metric r;
    metric_init(&r, "drm_device_gpu_metrics", time_ns);
    metric_add_tag(&r, "driver", dev->driver);
    metric_add_tag(&r, "device", dev->name);
    metric_add_tag(&r, "sensor", g < n_names ? names[g] : "socket");
    for (size_t i = 0; g < n_names && i < m->n_values; i++) {
      if (group[i] != g)
        continue;
      const struct gpu_metrics_value *v = &m->values[i];
      const char *ctype = gpu_metrics_kind_ctype(v->kind);
      if (strcmp(ctype, "gpu_hertz") == 0) /* whole MHz: integers, as the
                                              other _hz fields */
        metric_add_int(&r, gpu_metrics_kind_field(v->kind), ctype,
                       (uint64_t)v->value);
      else
        metric_add_float(&r, gpu_metrics_kind_field(v->kind), ctype, v->value);
    }
    if (energy && (socket || g == n_names)) {
      ddv_gm_energy_field(gm, &r);
      energy = false;
    }
    int wrc = metric_sink_write(sink, &r);
    if (wrc < 0 && rc == 0)
      rc = wrc;
  }
  return rc;
}

/* The throttle record: ASIC-independent bits by class where the table
 * has them, else only whether the ASIC-dependent status is non-zero. */
static int ddv_gm_throttle(const struct ddv_device *dev,
                           const struct gpu_metrics *m, uint64_t time_ns,
                           struct metric_sink *sink) {
  if (!m->have_indep_throttle && !m->have_throttle)
    return 0;
  struct metric r;
  metric_init(&r, "drm_device_throttle", time_ns);
  metric_add_tag(&r, "driver", dev->driver);
  metric_add_tag(&r, "device", dev->name);
  metric_add_tag(&r, "domain", "smu");
  if (m->have_indep_throttle) {
    uint64_t t = m->indep_throttle_status;
    metric_add_int(&r, "throttled", "gpu_flag", t != 0);
    metric_add_int(&r, "reason_power", "gpu_flag",
                   (t & GPU_METRICS_THROTTLE_POWER) != 0);
    metric_add_int(&r, "reason_current", "gpu_flag",
                   (t & GPU_METRICS_THROTTLE_CURRENT) != 0);
    metric_add_int(&r, "reason_thermal", "gpu_flag",
                   (t & GPU_METRICS_THROTTLE_THERMAL) != 0);
    metric_add_int(&r, "reason_other", "gpu_flag",
                   (t & GPU_METRICS_THROTTLE_OTHER) != 0);
  } else {
    metric_add_int(&r, "throttled", "gpu_flag", m->throttle_status != 0);
  }
  return metric_sink_write(sink, &r);
}

int ddv_gm_report(const struct ddv *d, const struct ddv_device *dev,
                  uint64_t time_ns, struct metric_sink *sink) {
  const struct ddv_gm *gm = dev->gm;
  if (gm == NULL || !gm->have || !d->cfg.report[DDV_G_GPU_METRICS])
    return 0;
  /* read this time (the probe is skipped while the device may sleep) */
  bool read = false;
  for (size_t i = 0; i < dev->n_probes; i++)
    read |= dev->probes[i].kind == DDV_K_GPU_METRICS && dev->probes[i].have;
  if (!read)
    return 0;
  int rc = ddv_gm_sensors(dev, gm, time_ns, sink);
  if (d->cfg.report[DDV_G_THROTTLE]) {
    int wrc = ddv_gm_throttle(dev, &gm->m, time_ns, sink);
    if (wrc < 0 && rc == 0)
      rc = wrc;
  }
  return rc;
}
