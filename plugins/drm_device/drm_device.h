/*
 * drm_device.h: the drm_device plugin's core: per DRM device, its own
 * state from sysfs (frequency, idle residency, throttling, memory, power,
 * temperature, fans, runtime PM).
 */
#ifndef PLUGINS_DRM_DEVICE_DRM_DEVICE_H
#define PLUGINS_DRM_DEVICE_DRM_DEVICE_H

#include "common/core/plugin.h"

extern const struct plugin_ops drm_device_ops;

#endif
