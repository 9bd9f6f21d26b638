/*
 * drm_device.c: the drm_device plugin's core (plugin_ops): per DRM card and
 * accel node, its runtime PM state, frequencies, idle residency,
 * throttling, memory, busy percentages and hwmon sensors, from sysfs,
 * without ever waking a runtime-suspended device or keeping an idle one
 * awake (ddv_read.c).
 *
 * Devices come and go: every read checks that each known node's directory
 * is still there (one fstatat each), so a gone device's series ends at the
 * next read; and the class directories are looked at again on a back-off,
 * 1 s doubling to 1 min (devsession.h's re-look bounds), and at the latest
 * at the second read after a look that is 1 s or more after it, so with an
 * interval of 1 s or more a new device is found within two reads. Any
 * change starts the back-off at 1 s again.
 */
#include "plugins/drm_device/drm_device.h"

#include "common/core/devsession.h"
#include "common/core/found.h"
#include "plugins/drm_device/ddv.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

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

/* The fds drm_device keeps open at most: half of what RLIMIT_NOFILE's soft
 * limit leaves after DDV_FD_RESERVE. Beyond it attributes are opened,
 * read and closed each time (and node directories opened by path). */
static size_t ddv_fd_budget(void) {
  struct rlimit rl;
  if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
    return 0;
  rlim_t soft = rl.rlim_cur;
  if (soft == RLIM_INFINITY || soft > 1048576)
    soft = 1048576;
  return soft > DDV_FD_RESERVE ? (size_t)(soft - DDV_FD_RESERVE) / 2 : 0;
}

/* The next look at the class directories (see the top of this file). */
static void ddv_relook_arm(struct ddv *d, uint64_t now) {
  uint64_t delay = d->relook_delay_ns == 0 || d->scan_changes > 0
                       ? DEVSESSION_BACKOFF_MIN_NS
                       : d->relook_delay_ns * 2;
  if (delay > DEVSESSION_RELOOK_MAX_NS)
    delay = DEVSESSION_RELOOK_MAX_NS;
  d->relook_delay_ns = delay;
  d->relook_ns = now + delay;
  d->look_ns = now;
  d->reads_since_look = 0;
}

/* A look is due: the back-off is over, or this is the second read since
 * the last look and 1 s has passed (never a look per read: a look
 * allocates a DIR). */
static bool ddv_relook_due(const struct ddv *d, uint64_t now) {
  return d->rescan || now >= d->relook_ns ||
         (d->reads_since_look >= 1 &&
          now - d->look_ns >= DEVSESSION_BACKOFF_MIN_NS);
}

static int ddv_init(void *inst, const struct plugin_host *host) {
  struct ddv *d = inst;
  d->host = host;
  d->k = host->kernel;
  d->fd_budget = ddv_fd_budget();
  int rc = ddv_scan(d);
  d->scan_changes = 0; /* what init found is not a change */
  ddv_relook_arm(d, plugin_host_monotonic_ns(host));
  if (rc < 0)
    return rc == -EINVAL ? -EIO : rc; /* said by ddv_scan */
  return 0;
}

static int ddv_read(void *inst, struct metric_sink *sink) {
  struct ddv *d = inst;
  uint64_t now = plugin_host_monotonic_ns(d->host);
  for (size_t i = 0; i < d->n_devices; i++)
    if (!d->devices[i].gone && !ddv_device_alive(d, &d->devices[i])) {
      d->devices[i].gone = true;
      d->rescan = true;
    }
  if (ddv_relook_due(d, now)) {
    ddv_scan(d);
    ddv_relook_arm(d, now);
  } else {
    d->reads_since_look++;
  }
  uint64_t t = plugin_host_realtime_ns(d->host);
  int rc = 0;
  for (size_t i = 0; i < d->n_devices; i++) {
    if (d->devices[i].gone)
      continue; /* ended: the next look drops it */
    ddv_device_read(d, &d->devices[i], now);
    if (d->devices[i].gone)
      continue; /* an attribute said ENODEV/ENOENT: removed meanwhile */
    int wrc = ddv_device_report(d, &d->devices[i], t, sink);
    if (wrc < 0 && rc == 0)
      rc = wrc;
  }
  return rc;
}

/* plugin.h: found. */
static int ddv_found(void *inst, char *text, size_t size) {
  const struct ddv *d = inst;
  struct found_text f;
  found_init(&f, text, size);
  for (size_t i = 0; i < d->n_devices; i++)
    if (!d->devices[i].gone)
      found_add(&f, d->devices[i].driver, d->devices[i].name);
  if (f.count > 0)
    return f.count;
  if (d->no_class)
    return found_none(&f, "%s has neither class/drm nor class/accel",
                      d->cfg.sysfs_root);
  return found_none(&f,
                    "no card<N> or accel<N>%s under %s/class/drm or "
                    "class/accel",
                    d->cfg.filter.n_devices || d->cfg.filter.n_drivers
                        ? " matching Device/Driver"
                        : "",
                    d->cfg.sysfs_root);
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
 *   drm_device-0000:03:00.0/gpu_celsius-gpu_metrics-edge-celsius
 *
 * The info record (ddv_info.c) carries its PCI ids in the type_instance,
 * the four that fit (33 bytes with the key); unique_id, vram_vendor and
 * the driver are in its tags only (JSON, Influx, Prometheus):
 *
 *   drm_device-0000:03:00.0/gpu_flag-0x1002-0x73bf-0x1002-0x0e3a-info
 *   drm_device-fde60000.gpu/gpu_flag-info                 (no PCI ids)
 */
#define DDV_RULE(measurement, tag, flags)                                      \
  {                                                                            \
    measurement, NULL, NULL, {{"device", NULL, 0}}, {                          \
      { tag, NULL, flags }                                                     \
    }                                                                          \
  }
static const struct collectd_rule ddv_collectd_rules[] = {
    {"drm_device",
     "pci_vendor",
     NULL,
     {{"device", NULL, 0}},
     {{"pci_vendor", NULL, 0},
      {"pci_device", NULL, CM_OPTIONAL},
      {"pci_subsystem_vendor", NULL, CM_OPTIONAL},
      {"pci_subsystem_device", NULL, CM_OPTIONAL}}},
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
    /* "gpu_metrics-" first: the SMU's sensors are named like hwmon's
     * labels (edge, mem), and collectd's identity has no measurement */
    {"drm_device_gpu_metrics",
     NULL,
     NULL,
     {{"device", NULL, 0}},
     {{NULL, "gpu_metrics", 0}, {"sensor", NULL, 0}}},
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
    .found = ddv_found,
    .instance_free = ddv_free,
};
