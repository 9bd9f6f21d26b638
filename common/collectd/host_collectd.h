/*
 * host_collectd.h: the collectd 5.12 host. The only file of the project
 * that includes collectd headers; linked into build/<plugin>.so only.
 *
 * Configuration:
 *
 *   <Plugin NAME>
 *     Key value            # keys outside Instance blocks: one instance
 *                          # labelled NAME
 *     <Instance "label">   # one instance per block (unique label), read
 *       Interval 10        # by its own callback at its own interval
 *       Key value          # (default: the global Interval)
 *     </Instance>
 *   </Plugin>
 *
 * `LoadPlugin NAME` without a <Plugin> block (or with an empty one) runs
 * one instance with the defaults. Every key but Interval goes to
 * ops->configure() in order. A block with a bad key is dropped whole and
 * logged as: NAME: config: Instance: "label": dropped. Init fails only when
 * no instance is left. Each record field is dispatched as one value list
 * by the rule in collectd_map.h, converted to the data source type of its
 * collectd type.
 */
#ifndef COMMON_HOST_HOST_COLLECTD_H
#define COMMON_HOST_HOST_COLLECTD_H

#include "common/core/plugin.h"

/* Register the config, init and shutdown callbacks for `ops` (borrowed,
 * must stay valid for the life of the daemon: a static) and route
 * common/core/log.h messages to plugin_log(). Call it from module_register();
 * one plugin per .so. */
void host_collectd_register(const struct plugin_ops *ops);

/* collectd's entry point, defined in each plugin's module.c. */
void module_register(void);

#endif
