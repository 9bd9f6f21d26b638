/*
 * dev_filter.c: the Device and Driver options (dev_filter.h).
 */
#include "common/sysfs/dev_filter.h"

#include "common/core/log.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void dev_filter_init(struct dev_filter *f) { memset(f, 0, sizeof(*f)); }

void dev_filter_fini(struct dev_filter *f) {
  for (size_t i = 0; i < f->n_devices; i++)
    free(f->devices[i]);
  for (size_t i = 0; i < f->n_drivers; i++)
    free(f->drivers[i]);
  dev_filter_init(f);
}

static int dev_filter_add(const char *plugin, const struct cfg_item *item,
                          char **list, size_t *n) {
  if (item->n_values == 0) {
    log_msg(LOG_LEVEL_ERROR, plugin, "config", item->key,
            "expected one or more names");
    return -EINVAL;
  }
  for (size_t i = 0; i < item->n_values; i++) {
    const struct cfg_value *v = &item->values[i];
    if (v->type != CFG_STRING || v->string[0] == '\0') {
      log_msg(LOG_LEVEL_ERROR, plugin, "config", item->key,
              "expected a non-empty name");
      return -EINVAL;
    }
    if (*n == DEV_FILTER_MAX) {
      log_msg(LOG_LEVEL_ERROR, plugin, "config", item->key, "at most %d names",
              DEV_FILTER_MAX);
      return -EINVAL;
    }
    if ((list[*n] = strdup(v->string)) == NULL) {
      log_errno(LOG_LEVEL_ERROR, plugin, "config", item->key, ENOMEM, NULL);
      return -ENOMEM;
    }
    (*n)++;
  }
  return 0;
}

bool dev_filter_configure(struct dev_filter *f, const char *plugin,
                          const struct cfg_item *item, int *rc) {
  if (cfg_key_is(item, "Device"))
    *rc = dev_filter_add(plugin, item, f->devices, &f->n_devices);
  else if (cfg_key_is(item, "Driver"))
    *rc = dev_filter_add(plugin, item, f->drivers, &f->n_drivers);
  else
    return false;
  return true;
}

bool dev_filter_device_ok(const struct dev_filter *f, const char *name,
                          const char *node) {
  if (f->n_devices == 0)
    return true;
  for (size_t i = 0; i < f->n_devices; i++)
    if (strcmp(f->devices[i], name) == 0 || strcmp(f->devices[i], node) == 0)
      return true;
  return false;
}

bool dev_filter_driver_ok(const struct dev_filter *f, const char *driver) {
  if (f->n_drivers == 0)
    return true;
  for (size_t i = 0; i < f->n_drivers; i++)
    if (strcmp(f->drivers[i], driver) == 0)
      return true;
  return false;
}
