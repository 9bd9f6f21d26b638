/*
 * example.h: the example plugin's core (one record per read).
 */
#ifndef PLUGINS_EXAMPLE_EXAMPLE_H
#define PLUGINS_EXAMPLE_EXAMPLE_H

#include "common/core/plugin.h"

extern const struct plugin_ops example_ops;

#endif
