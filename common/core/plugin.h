/*
 * plugin.h: the one interface between a plugin core and its hosts.
 *
 * A core never includes collectd headers. Each host (host_collectd.c for
 * the collectd .so, host_exec.c for the standalone executable) creates one
 * instance per configured block, feeds it every key of that block through
 * configure(), then calls init() once, read() per interval and free() at the
 * end. Interval is handled by the host and never reaches configure().
 */
#ifndef COMMON_CORE_PLUGIN_H
#define COMMON_CORE_PLUGIN_H

#include "common/core/cfg.h"
#include "common/core/collectd_rule.h"
#include "common/core/metric.h"
#include "common/core/metric_unit.h"
#include "common/core/plugin_host.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct plugin_ops {
  const char *name; /* LoadPlugin name, also the exec binary name */

  /* The keys configure() accepts with their defaults (cfg.h), ending with
   * a NULL key; listed by the executable's --help. NULL: none listed. */
  const struct cfg_option *options;

  /* Allocate an instance with defaults; NULL on ENOMEM. `instance` is the
   * collectd <Instance> name or the plugin name, borrowed. */
  void *(*instance_new)(const char *instance);

  /* Apply one config item; 0, or -EINVAL after logging a config error. */
  int (*configure)(void *inst, const struct cfg_item *item);

  /* Validate the whole block and resolve devices; 0 or a negative errno
   * after logging: -EINVAL means a configuration error (a setting that is
   * wrong on this system: the block is dropped, the executable exits 2),
   * any other errno a failure to start (exit 1). Called once, after the last
   * configure(). `host` is borrowed and stays valid until instance_free().
   * The executables call it on the instance's own thread, the inits of
   * several instances at the same time: instances share only through
   * host->shared, under its lock. */
  int (*init)(void *inst, const struct plugin_host *host);

  /* Collect once and write records to `sink` (between the host's begin()
   * and end()). Returns 0, or a negative errno when every object failed. */
  int (*read)(void *inst, struct metric_sink *sink);

  /* Optional (NULL): empty a kernel buffer between reads when the read
   * interval is longer than the buffer lasts. Called by the host every
   * drain_interval_ns(inst) nanoseconds (asked once, after init; 0: no
   * drain), never at the same time as read(). 0 or a negative errno. */
  int (*drain)(void *inst);
  uint64_t (*drain_interval_ns)(void *inst);

  /* Optional (NULL: never): whether the instance replays a recording
   * instead of reading a live source; asked once, after the last
   * configure(). Its reads then write batches (one begin/end each) for up
   * to half the read interval, all that is left when the interval is 0.
   * The executable's --once reads it without a window (interval 0) unless
   * --window is given; the collectd host lets each batch reach every
   * write callback before it queues the next. */
  bool (*replays)(void *inst);

  /* Optional: the plugin's collectd identity, one rule per kind of record
   * (collectd_rule.h), ending with a rule whose measurement is NULL. NULL:
   * the generic one (tag values, then measurement-field). */
  const struct collectd_rule *collectd_rules;

  /* Optional: the plugin's own field types, for a ctype the shared table
   * (metric_unit.c) does not have, each with its line in the plugin's
   * types.db fragment; ends with a row whose ctype is NULL. NULL: none.
   * A field whose ctype is in neither is refused by both hosts. */
  const struct metric_unit *units;

  /* Optional: a nested-block example that works for this plugin, or NULL
   * (the plugin has no nested block): the command-line spelling of one of
   * its collectd blocks, e.g. "--Filter=f --Filter.PMU=pcie
   * --Filter.Terms=src_rp_mask=0x1", which the executable's --help shows
   * under --<Block>.<Key>=<value>. tests/e2e/help_example.sh runs it. */
  const char *help_example;

  /* Optional (NULL: the host says nothing of it): what the instance has
   * found, for people (gpu-telemetry's startup lines) and for the
   * Prometheus page's device count. Writes one line to `text` (`size`
   * bytes, NUL-terminated, found.h helps): the devices, as "DRIVER
   * DEVICE" items joined by ", " ("i915 card0, xe card1"), or, when there
   * are none, where the instance looked and what was missing ("no i915 or
   * xe render node (renderD*) under /dev/dri"). Returns how many devices
   * it found (>= 0). Called after init() and after each read, never at the
   * same time as read(); no I/O: it tells what init and the reads saw. */
  int (*found)(void *inst, char *text, size_t size);

  /* Undo init() (restore anything changed on the system) and free. NULL is
   * a no-op. */
  void (*instance_free)(void *inst);
};

#endif
