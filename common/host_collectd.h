/*
 * host_collectd.h: the collectd 5.12 host. The only file of the project
 * that includes collectd headers; linked into build/<plugin>.so only.
 *
 * Configuration:
 *
 *   <Plugin NAME>
 *     Key value            # keys outside Instance blocks: one instance
 *     <Instance "label">   # one instance per block, read by its own
 *       Interval 10        # callback at its own interval
 *       Key value
 *     </Instance>
 *   </Plugin>
 *
 * Each record field is dispatched as one value list by the rule in
 * collectd_map.h, converted to the data source type of its collectd type.
 */
#ifndef COMMON_HOST_COLLECTD_H
#define COMMON_HOST_COLLECTD_H

#include "common/plugin.h"

/* Register config, init and shutdown callbacks for `ops` (static). */
void host_collectd_register(const struct plugin_ops *ops);

/* collectd's entry point, defined in each plugin's module.c. */
void module_register(void);

#endif
