/*
 * t410_config.c: tegra410_uncore options. Event strings are only kept
 * here; they are parsed against sysfs at init.
 */
#include "common/cfg.h"
#include "plugins/tegra410_uncore/t410.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int t410_config_apply(struct t410_config *cfg, const struct cfg_item *item) {
  const char *value;
  if (cfg_key_is(item, "SysfsRoot")) {
    int rc = cfg_get_string(T410_PLUGIN, item, &value);
    if (rc < 0)
      return rc;
    free(cfg->sysfs_root);
    cfg->sysfs_root = strdup(value);
    return cfg->sysfs_root ? 0 : -ENOMEM;
  }
  if (cfg_key_is(item, "Preset")) {
    int rc = cfg_get_string(T410_PLUGIN, item, &value);
    if (rc < 0)
      return rc;
    if (strcasecmp(value, "Tegra410") != 0) {
      log_msg(LOG_LEVEL_ERROR, T410_PLUGIN, "config", item->key,
              "expected \"Tegra410\", got \"%s\"", value);
      return -EINVAL;
    }
    cfg->preset = true;
    return 0;
  }
  if (cfg_key_is(item, "Event")) {
    int rc = cfg_get_string(T410_PLUGIN, item, &value);
    if (rc < 0)
      return rc;
    if (cfg->n_events == T410_MAX_STRINGS) {
      log_msg(LOG_LEVEL_ERROR, T410_PLUGIN, "config", item->key,
              "at most %d events", T410_MAX_STRINGS);
      return -EINVAL;
    }
    /* syntax is checked now, so a typo fails the block at config time */
    struct pmu_group_spec *groups = calloc(8, sizeof(*groups));
    size_t n;
    struct pmu_parse_error err;
    if (groups == NULL)
      return -ENOMEM;
    rc = pmu_event_parse(value, strlen(value), groups, 8, &n, &err);
    free(groups);
    if (rc < 0) {
      log_msg(LOG_LEVEL_ERROR, T410_PLUGIN, "config", item->key,
              "\"%s\": %s at offset %zu", value, err.message, err.offset);
      return -EINVAL;
    }
    cfg->events[cfg->n_events] = strdup(value);
    if (cfg->events[cfg->n_events] == NULL)
      return -ENOMEM;
    cfg->n_events++;
    return 0;
  }
  return cfg_unknown(T410_PLUGIN, item);
}

void t410_config_fini(struct t410_config *cfg) {
  free(cfg->sysfs_root);
  for (size_t i = 0; i < cfg->n_events; i++)
    free(cfg->events[i]);
  memset(cfg, 0, sizeof(*cfg));
}
