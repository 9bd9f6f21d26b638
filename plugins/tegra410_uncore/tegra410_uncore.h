/*
 * tegra410_uncore.h: the plugin's ops, for its hosts (module.c, main.c,
 * gpu-telemetry's table).
 */
#ifndef PLUGINS_TEGRA410_UNCORE_TEGRA410_UNCORE_H
#define PLUGINS_TEGRA410_UNCORE_TEGRA410_UNCORE_H

#include "common/core/plugin.h"

extern const struct plugin_ops tegra410_uncore_ops;

#endif
