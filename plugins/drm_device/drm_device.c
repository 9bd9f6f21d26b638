/*
 * drm_device.c: the drm_device plugin's core (plugin_ops): per DRM card and
 * accel node, its runtime PM state, frequencies, idle residency,
 * throttling, memory, busy percentages and hwmon sensors, from sysfs,
 * without ever waking a runtime-suspended device (ddv_read.c).
 */
#include "plugins/drm_device/drm_device.h"

#include "plugins/drm_device/ddv.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static void *ddv_new(const char *instance) {
  (void)instance;
  struct ddv *d = calloc(1, sizeof(*d));
  if (d != NULL)
    ddv_config_defaults(&d->cfg);
  return d;
}

static int ddv_configure(void *inst, const struct cfg_item *item) {
  struct ddv *d = inst;
  return ddv_config_item(&d->cfg, item);
}

static int ddv_init(void *inst, const struct plugin_host *host) {
  struct ddv *d = inst;
  d->host = host;
  d->k = host->kernel;
  int rc = ddv_scan(d);
  d->scan_ns = plugin_host_monotonic_ns(host);
  if (rc < 0)
    return rc == -EINVAL ? -EIO : rc; /* said by ddv_scan */
  return 0;
}

static int ddv_read(void *inst, struct metric_sink *sink) {
  struct ddv *d = inst;
  uint64_t now = plugin_host_monotonic_ns(d->host);
  if (d->rescan || now - d->scan_ns >= DDV_RESCAN_NS) {
    ddv_scan(d);
    d->scan_ns = now;
  }
  uint64_t t = plugin_host_realtime_ns(d->host);
  int rc = 0;
  for (size_t i = 0; i < d->n_devices; i++) {
    ddv_device_read(d, &d->devices[i], now);
    int wrc = ddv_device_report(d, &d->devices[i], t, sink);
    if (wrc < 0 && rc == 0)
      rc = wrc;
  }
  return rc;
}

static void ddv_free(void *inst) {
  struct ddv *d = inst;
  if (d == NULL)
    return;
  if (d->k != NULL)
    ddv_devices_free(d);
  ddv_config_free(&d->cfg);
  free(d);
}

/* collectd identities (collectd_rule.h): plugin_instance the device, as
 * drm_fdinfo's drm_device records; type_instance the record's own tag,
 * then the field. hwmon labels are free text (they may hold '-'):
 *
 *   drm_device-0000:03:00.0/gpu_flag-runtime_suspended
 *   drm_device-0000:03:00.0/gpu_hertz-gt1-actual_hz
 *   drm_device-0000:03:00.0/gpu_energy-card-energy_joules
 */
#define DDV_RULE(measurement, tag, flags)                                      \
  {                                                                            \
    measurement, NULL, NULL, {{"device", NULL, 0}}, {                          \
      { tag, NULL, flags }                                                     \
    }                                                                          \
  }
static const struct collectd_rule ddv_collectd_rules[] = {
    {"drm_device", NULL, NULL, {{"device", NULL, 0}}, {{0}}},
    DDV_RULE("drm_device_freq", "domain", 0),
    DDV_RULE("drm_device_idle", "domain", 0),
    DDV_RULE("drm_device_throttle", "domain", 0),
    DDV_RULE("drm_device_memory", "region", 0),
    DDV_RULE("drm_device_busy", "unit", 0),
    DDV_RULE("drm_device_power", "sensor", CM_FREE),
    DDV_RULE("drm_device_temperature", "sensor", CM_FREE),
    DDV_RULE("drm_device_fan", "sensor", CM_FREE),
    DDV_RULE("drm_device_voltage", "sensor", CM_FREE),
    {0},
};

const struct plugin_ops drm_device_ops = {
    .name = DDV_PLUGIN,
    .options = ddv_options,
    .instance_new = ddv_new,
    .configure = ddv_configure,
    .init = ddv_init,
    .read = ddv_read,
    .collectd_rules = ddv_collectd_rules,
    .help_example = NULL, /* no nested block */
    .instance_free = ddv_free,
};
