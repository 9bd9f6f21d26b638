/*
 * plugin.h: the one interface between a plugin core and its hosts.
 *
 * A core never includes collectd headers. Each host (host_collectd.c for
 * the collectd .so, host_exec.c for the standalone executable) creates one
 * instance per configured block, feeds it every key of that block through
 * configure(), then calls init() once, read() per interval and free() at the
 * end. Interval is handled by the host and never reaches configure().
 */
#ifndef COMMON_PLUGIN_H
#define COMMON_PLUGIN_H

#include "common/metric.h"
#include "common/cfg.h"

#include <stdint.h>

struct plugin_ops {
  const char *name; /* LoadPlugin name, also the exec binary name */

  /* Allocate an instance with defaults; NULL on ENOMEM. `instance` is the
   * collectd <Instance> name or the plugin name, borrowed. */
  void *(*instance_new)(const char *instance);

  /* Apply one config item; 0, or -EINVAL after logging a config error. */
  int (*configure)(void *inst, const struct cfg_item *item);

  /* Validate the whole block and resolve devices; 0 or a negative errno
   * after logging. Called once, after the last configure(). */
  int (*init)(void *inst);

  /* Collect once and write records to `sink` (between the host's begin()
   * and end()). Returns 0, or a negative errno when every object failed. */
  int (*read)(void *inst, struct metric_sink *sink);

  /* Undo init() (restore anything changed on the system) and free. NULL is
   * a no-op. */
  void (*instance_free)(void *inst);
};

#endif
