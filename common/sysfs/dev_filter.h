/*
 * dev_filter.h: the Device and Driver options of the DRM plugins
 * (drm_fdinfo, drm_device), one rule for both so the same words select the
 * same devices in each: a device passes when no Device is given or one
 * names it, by its device name (PCI address or platform name, as
 * sysfs_link.h gives it) or its node (card0, renderD128, accel0); a driver
 * passes when no Driver is given or one names it exactly.
 */
#ifndef COMMON_SYSFS_DEV_FILTER_H
#define COMMON_SYSFS_DEV_FILTER_H

#include "common/core/cfg.h"

#include <stdbool.h>
#include <stddef.h>

#define DEV_FILTER_MAX 16 /* names per option */

struct dev_filter {
  char *devices[DEV_FILTER_MAX]; /* owned copies */
  size_t n_devices;
  char *drivers[DEV_FILTER_MAX]; /* owned copies */
  size_t n_drivers;
};

/* Empty: every device and driver passes. */
void dev_filter_init(struct dev_filter *f);
/* Free the names; `f` is empty again. */
void dev_filter_fini(struct dev_filter *f);

/* Whether `item` is a Device or Driver option: then it is applied (its
 * names copied) and *rc is 0, or -EINVAL after logging
 * "PLUGIN: config: KEY: ..." (no name, an empty name, more than
 * DEV_FILTER_MAX), or -ENOMEM. `plugin` is borrowed. */
bool dev_filter_configure(struct dev_filter *f, const char *plugin,
                          const struct cfg_item *item, int *rc);

/* Whether the device named `name`, whose node is `node`, passes. */
bool dev_filter_device_ok(const struct dev_filter *f, const char *name,
                          const char *node);
/* Whether `driver` passes. */
bool dev_filter_driver_ok(const struct dev_filter *f, const char *driver);

#endif
