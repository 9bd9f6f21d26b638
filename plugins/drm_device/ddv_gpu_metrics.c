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
 *
 * The SMC firmware version, which v3.0's gfx activity needs for its unit
 * (gpu_metrics.h: GPU_METRICS_V3_GFX_PERCENT_AFTER), is read once, when
 * the device is set up, from device/fw_version/smc_fw_version
 * (amdgpu_ucode.c: FW_VERSION_ATTR(smc_fw_version, 0444, pm.fw_version),
 * "0x%08x\n"; smu_v14_0_check_fw_version stores the SMC's version there on
 * APUs, the same smu_cmn_get_smc_version answer as smc_fw_version). Its show
 * prints a field of the driver's state: no runtime-PM reference, read
 * whatever the device's state. Without it, the gfx busy of a v3.0 table is
 * left out, said once per device.
 */
#include "plugins/drm_device/ddv.h"

#include "common/amdgpu/gpu_metrics.h"
#include "common/core/counter.h"
#include "common/core/kernel.h"
#include "common/sysfs/sysfs_value.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>

#define DDV_GM_SMC_REL "device/fw_version/smc_fw_version"

struct ddv_gm {
  struct gpu_metrics m; /* the last table decoded */
  bool have;            /* m is from this read */
  /* the unknown revision said last (said once until it changes) */
  uint8_t said_format, said_content;
  bool said;
  /* the SMC firmware version (GPU_METRICS_SMC_UNKNOWN: not readable, for
   * the reason in smc_err, or smc_bad: not the kernel's shape) */
  uint32_t smc;
  int smc_err;
  bool smc_bad;
  bool said_smc;     /* a value left out for want of it: said */
  bool said_skipped; /* v1.9 values not reported: said */
  /* energy: the raw accumulator unwrapped since the first reading */
  bool e_seen;
  uint64_t e_first, e_last, e_total;
};

/* fw_version/smc_fw_version: "0x%08x\n". */
static void ddv_gm_read_smc(const struct ddv *d, const struct ddv_device *dev,
                            struct ddv_gm *gm) {
  gm->smc = GPU_METRICS_SMC_UNKNOWN;
  int fd = ddv_node_openat(d, dev, DDV_GM_SMC_REL,
                           O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    gm->smc_err = errno;
    return;
  }
  char buf[32];
  ssize_t n = kernel_read_retry(d->k, fd, buf, sizeof(buf));
  int err = errno;
  d->k->close(fd);
  if (n < 0) {
    gm->smc_err = err;
    return;
  }
  char word[sizeof(buf)], *end = NULL;
  if ((size_t)n >= sizeof(buf) ||
      sysfs_value_word(buf, (size_t)n, word, sizeof(word)) < 0 ||
      strncmp(word, "0x", 2) != 0 || word[2] == '\0') {
    gm->smc_bad = true;
    return;
  }
  errno = 0;
  unsigned long long v = strtoull(word + 2, &end, 16);
  if (errno != 0 || *end != '\0' || v == 0 || v > UINT32_MAX) {
    gm->smc_bad = true;
    return;
  }
  gm->smc = (uint32_t)v;
}

void ddv_gm_probe(const struct ddv *d, struct ddv_device *dev) {
  if (dev->gm != NULL)
    return;
  struct ddv_gm *gm = calloc(1, sizeof(*gm));
  if (gm == NULL)
    return; /* left out, like an attribute the kernel lacks */
  /* gpu_metrics itself was found by the caller's ddv_probe_add (fstatat:
   * opens nothing); the SMC version takes no PM reference */
  ddv_gm_read_smc(d, dev, gm);
  dev->gm = gm;
}

/* What the decode left out, said once per device. */
static void ddv_gm_say_left_out(struct ddv_device *dev, struct ddv_probe *p,
                                struct ddv_gm *gm) {
  const struct gpu_metrics *m = &gm->m;
  if (m->smc_version_needed && !gm->said_smc) {
    gm->said_smc = true;
    char buf[64];
    /* strerror_r (GNU): the worker threads log concurrently */
    const char *why = gm->smc_bad ? "not the kernel's \"0x%08x\""
                                  : strerror_r(gm->smc_err, buf, sizeof(buf));
    log_msg(LOG_LEVEL_WARNING, DDV_PLUGIN, dev->name, p->rel,
            "gpu_metrics %u.%u: the unit of average_gfx_activity depends on "
            "the SMC firmware (centi-percent up to 0x%x, percent after), "
            "and %s is unreadable (%s): the gfx busy is left out",
            m->format_revision, m->content_revision,
            GPU_METRICS_V3_GFX_PERCENT_AFTER, DDV_GM_SMC_REL, why);
  }
  if (m->n_skipped > 0 && !gm->said_skipped) {
    gm->said_skipped = true;
    log_msg(LOG_LEVEL_WARNING, DDV_PLUGIN, dev->name, p->rel,
            "gpu_metrics %u.%u: %u value(s) not reported (beyond %d values, "
            "or of a unit their attribute does not have)",
            m->format_revision, m->content_revision, m->n_skipped,
            GPU_METRICS_MAX_VALUES);
  }
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
  int rc = gpu_metrics_decode(buf, len, gm->smc, &gm->m);
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
              "gpu_metrics %u.%u: %zu bytes read, structure_size %u: %s: "
              "skipped",
              gm->m.format_revision, gm->m.content_revision, len,
              gm->m.structure_size,
              gm->m.error != NULL ? gm->m.error : "not decodable");
    return rc;
  }
  ddv_gm_say_left_out(dev, p, gm);
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
