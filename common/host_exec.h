/*
 * host_exec.h: the standalone executable host, identical for every plugin:
 *
 *   <plugin> [--format=json|influx|table] [--once | --execd | --interval=S]
 *            [--window=S] [--log-level=L] [--<Key>=<value> ...]
 *
 * --<Key>=<value> are the plugin's collectd keys (case-insensitive,
 * repeatable, in order); a nested collectd block is spelled
 * --Block=<name> --Block.Key=<value>. stdout carries only metrics and is
 * flushed after every batch; messages go to stderr.
 */
#ifndef COMMON_HOST_EXEC_H
#define COMMON_HOST_EXEC_H

#include "common/cfg.h"
#include "common/log.h"
#include "common/plugin.h"

#include <stdbool.h>

enum host_exec_format { HOST_EXEC_INFLUX, HOST_EXEC_JSON, HOST_EXEC_TABLE };
enum host_exec_mode { HOST_EXEC_ONCE, HOST_EXEC_EXECD, HOST_EXEC_INTERVAL };

struct host_exec_args {
  enum host_exec_format format;
  enum host_exec_mode mode;
  double interval_s; /* HOST_EXEC_INTERVAL */
  double window_s;   /* --once: seconds between the two reads */
  enum log_level log_level;
  bool help;
  struct cfg_item *items; /* owned, with owned keys, values, children */
  size_t n_items;
};

/* Parse argv (not argv[0]). Returns 0, or -EINVAL after printing
 * "PROGRAM: usage: ..." to stderr. On error nothing is left to free. */
int host_exec_parse_args(const char *program, int argc, char **argv,
                         struct host_exec_args *out);
void host_exec_args_fini(struct host_exec_args *args);

/* main() of every plugin executable. Exit status: 0 ok, 1 init or read
 * failure, 2 usage or configuration error. */
int host_exec_main(const struct plugin_ops *ops, int argc, char **argv);

#endif
