/*
 * ddv_config.c: the drm_device options.
 */
#include "plugins/drm_device/ddv.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const struct cfg_option ddv_options[] = {
    {"Device", "all",
     "only this device (PCI address, platform name or card/accel node); "
     "repeatable"},
    {"Driver", "all", "only devices bound to this driver; repeatable"},
    {"ReadPMAttributes", "Autosuspend",
     "Autosuspend: where power/control is auto, read the attributes that "
     "take a runtime-PM reference again only 1.25 x autosuspend_delay_ms + "
     "100 ms after the last such read ended, so an idle GPU can suspend; "
     "between, their last reading is reported, with values_age_seconds; "
     "Always: every interval (keeps an idle GPU awake when the interval is "
     "shorter)"},
    {"Report", "all",
     "groups: runtime freq idle throttle memory busy power temperature fan "
     "voltage"},
    {"SysfsRoot", "/sys", "where sysfs is"},
    {NULL, NULL, NULL}};

const struct ddv_group_info ddv_groups[DDV_G_COUNT] = {
    [DDV_G_RUNTIME] = {"runtime", "drm_device", NULL},
    [DDV_G_FREQ] = {"freq", "drm_device_freq", "domain"},
    [DDV_G_IDLE] = {"idle", "drm_device_idle", "domain"},
    [DDV_G_THROTTLE] = {"throttle", "drm_device_throttle", "domain"},
    [DDV_G_MEMORY] = {"memory", "drm_device_memory", "region"},
    [DDV_G_BUSY] = {"busy", "drm_device_busy", "unit"},
    [DDV_G_POWER] = {"power", "drm_device_power", "sensor"},
    [DDV_G_TEMPERATURE] = {"temperature", "drm_device_temperature", "sensor"},
    [DDV_G_FAN] = {"fan", "drm_device_fan", "sensor"},
    [DDV_G_VOLTAGE] = {"voltage", "drm_device_voltage", "sensor"},
    [DDV_G_GPU_METRICS] = {"gpu_metrics", "drm_device_gpu_metrics", "sensor"},
    [DDV_G_INFO] = {"info", "drm_device", NULL},
};

void ddv_config_defaults(struct ddv_config *cfg) {
  memset(cfg, 0, sizeof(*cfg));
  cfg->sysfs_root = "/sys";
  for (size_t g = 0; g < DDV_G_COUNT; g++)
    cfg->report[g] = true;
}

void ddv_config_free(struct ddv_config *cfg) {
  for (size_t i = 0; i < cfg->n_owned; i++)
    free(cfg->owned[i]);
  cfg->n_owned = 0;
  dev_filter_fini(&cfg->filter);
}

/* Keep a copy of `s` for the instance's life. */
static const char *ddv_config_keep(struct ddv_config *cfg, const char *s) {
  if (cfg->n_owned == sizeof(cfg->owned) / sizeof(cfg->owned[0]))
    return NULL;
  char *copy = strdup(s);
  if (copy != NULL)
    cfg->owned[cfg->n_owned++] = copy;
  return copy;
}

static int ddv_config_report(struct ddv_config *cfg,
                             const struct cfg_item *item) {
  if (item->n_values == 0) {
    log_msg(LOG_LEVEL_ERROR, DDV_PLUGIN, "config", item->key,
            "expected one or more of runtime freq idle throttle memory busy "
            "power temperature fan voltage");
    return -EINVAL;
  }
  if (!cfg->report_set) {
    for (size_t g = 0; g < DDV_G_COUNT; g++)
      cfg->report[g] = false;
    cfg->report_set = true;
  }
  for (size_t i = 0; i < item->n_values; i++) {
    const struct cfg_value *v = &item->values[i];
    size_t g = 0;
    while (v->type == CFG_STRING && g < DDV_G_COUNT &&
           strcasecmp(v->string, ddv_groups[g].word) != 0)
      g++;
    if (v->type != CFG_STRING || g == DDV_G_COUNT) {
      log_msg(LOG_LEVEL_ERROR, DDV_PLUGIN, "config", item->key,
              "unknown group \"%s\"; expected runtime, freq, idle, throttle, "
              "memory, busy, power, temperature, fan, voltage, "
              "gpu_metrics or info",
              v->type == CFG_STRING ? v->string : "(not a string)");
      return -EINVAL;
    }
    cfg->report[g] = true;
  }
  return 0;
}

static int ddv_config_root(struct ddv_config *cfg, const struct cfg_item *item,
                           const char **out) {
  const char *s;
  int rc = cfg_get_string(DDV_PLUGIN, item, &s);
  if (rc < 0)
    return rc;
  if (s[0] == '\0') {
    log_msg(LOG_LEVEL_ERROR, DDV_PLUGIN, "config", item->key,
            "expected a directory");
    return -EINVAL;
  }
  const char *kept = ddv_config_keep(cfg, s);
  if (kept == NULL) {
    log_errno(LOG_LEVEL_ERROR, DDV_PLUGIN, "config", item->key, ENOMEM, NULL);
    return -ENOMEM;
  }
  *out = kept;
  return 0;
}

static int ddv_config_pm(struct ddv_config *cfg, const struct cfg_item *item) {
  const char *s;
  int rc = cfg_get_string(DDV_PLUGIN, item, &s);
  if (rc < 0)
    return rc;
  if (strcasecmp(s, "Autosuspend") == 0)
    cfg->pm_always = false;
  else if (strcasecmp(s, "Always") == 0)
    cfg->pm_always = true;
  else {
    log_msg(LOG_LEVEL_ERROR, DDV_PLUGIN, "config", item->key,
            "expected Autosuspend or Always, got \"%s\"", s);
    return -EINVAL;
  }
  return 0;
}

int ddv_config_item(struct ddv_config *cfg, const struct cfg_item *item) {
  int rc;
  if (dev_filter_configure(&cfg->filter, DDV_PLUGIN, item, &rc))
    return rc;
  if (cfg_key_is(item, "Report"))
    return ddv_config_report(cfg, item);
  if (cfg_key_is(item, "ReadPMAttributes"))
    return ddv_config_pm(cfg, item);
  if (cfg_key_is(item, "SysfsRoot"))
    return ddv_config_root(cfg, item, &cfg->sysfs_root);
  return cfg_unknown(DDV_PLUGIN, item);
}

bool ddv_config_device_ok(const struct ddv_config *cfg, const char *name,
                          const char *node) {
  return dev_filter_device_ok(&cfg->filter, name, node);
}

bool ddv_config_driver_ok(const struct ddv_config *cfg, const char *driver) {
  return dev_filter_driver_ok(&cfg->filter, driver);
}
