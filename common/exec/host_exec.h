/*
 * host_exec.h: the standalone executable host, identical for every plugin,
 * for Telegraf's inputs.exec and inputs.execd:
 *
 *   <plugin> [--format=json|influx|table|prometheus|top]
 *            [--once | --execd | --interval=S | --listen=ADDR:PORT]
 *            [--window=S] [--rows=N] [--log-level=L] [--<Key>=<value> ...]
 *   <plugin> --help | -h | --version
 *
 * --<Key>=<value> are the plugin's collectd keys (case-insensitive,
 * repeatable, passed to configure() in command-line order, each as one
 * item with one string value); --help lists them from plugin_ops.options.
 * The collectd key Interval is --interval (any case). A nested collectd
 * block is spelled flat: --Block.Key=<value> adds Key=<value> to the
 * children of the most recent item named Block (creating a value-less Block
 * item when there is none), so <Filter "f"> PMU "pcie" </Filter> is
 * --Filter=f --Filter.PMU=pcie.
 *
 * File descriptors 0, 1 and 2 are checked first: a closed stdin or stderr
 * is reopened on /dev/null (so no device fd can take its number), a closed
 * stdout is refused (exit 1, said on stderr): metrics would go nowhere.
 *
 * stdout carries only metrics and is flushed after every batch; messages go
 * to stderr as "error: ..." lines, or with Telegraf's "E! "/"W! "/"I! "/"D! "
 * prefixes in --execd mode. --listen serves the Prometheus exposition at
 * http://ADDR:PORT/metrics instead (prom_http.h), reading every --interval
 * seconds (default HOST_EXEC_LISTEN_INTERVAL), the first time --window
 * seconds after the start. Exit status: 0 ok, 1 init or read failure,
 * 2 usage or configuration error.
 */
#ifndef COMMON_HOST_HOST_EXEC_H
#define COMMON_HOST_HOST_EXEC_H

#include "common/core/cfg.h"
#include "common/core/log.h"
#include "common/core/plugin.h"

#include <stdbool.h>
#include <stddef.h>

/* What --version prints after the name; the build may set it. */
#ifndef HOST_EXEC_VERSION
#define HOST_EXEC_VERSION "0.1.0"
#endif

/* Upper bound of --interval and --window, in seconds (11.6 days). */
#define HOST_EXEC_MAX_SECONDS 1e6

/* Lower bound of --interval and a plugin's Interval, in seconds. */
#define HOST_EXEC_MIN_SECONDS ((double)PLUGIN_MIN_INTERVAL_NS / 1e9)

/* Seconds between the reads of --listen without --interval (collectd's
 * default interval). */
#define HOST_EXEC_LISTEN_INTERVAL 10.0

enum host_exec_format {
  HOST_EXEC_INFLUX,
  HOST_EXEC_JSON,
  HOST_EXEC_TABLE,
  HOST_EXEC_PROMETHEUS,
  HOST_EXEC_TOP
};
enum host_exec_mode { HOST_EXEC_ONCE, HOST_EXEC_EXECD, HOST_EXEC_INTERVAL };

/* One plugin of gpu-telemetry's table, as the command line chose it. */
struct host_exec_plugin_args {
  const struct plugin_ops *ops; /* borrowed, from the table */
  bool chosen;                  /* named by --plugin */
  bool excluded;                /* named by --no-plugin */
  bool keyed;                   /* a --NAME.Key was given */
  struct cfg_item *items;       /* owned: its --NAME.Key items, in order */
  size_t n_items;
};

struct host_exec_args {
  enum host_exec_format format; /* --format, default influx */
  enum host_exec_mode mode;     /* default --once */
  double interval_s;            /* --interval=S, > 0 (HOST_EXEC_INTERVAL) */
  double window_s;              /* --window=S, >= 0, default 1 */
  bool window_given;            /* --window was on the command line */
  enum log_level log_level;     /* --log-level, default warning */
  bool format_given;            /* --format was on the command line */
  bool mode_given;              /* --once, --execd or --interval was */
  int rows;                     /* --rows=N of --format=top --once, > 0 */
  bool help;                    /* --help or -h */
  bool version;                 /* --version */
  const char *listen;           /* --listen=ADDR:PORT (borrowed argv, or
                                 * listen_port), or NULL */
  char listen_port[8];          /* --listen=PORT as ":PORT" */
  /* one plugin's executable: its keys, for --Key value and the closest
   * flag of a mistyped one (borrowed), or NULL: any name is a key */
  const struct cfg_option *options;
  const char *web_config; /* --web-config=FILE (prom_http_web.h), or NULL */
  struct cfg_item *items; /* owned tree: keys, values, children */
  size_t n_items;
  /* gpu-telemetry (host_exec_parse_args_multi) only: */
  const char **configs; /* owned array of borrowed argv: each --config */
  size_t n_configs;
  struct host_exec_plugin_args *plugins; /* owned, one per table entry */
  size_t n_plugins;
  bool plugins_chosen; /* a --plugin was given */
  char error[256];     /* why parsing failed, e.g. "--window: expected ..." */
};

/*
 * Parse a command line as main() receives it (argv[0] is skipped). Pure:
 * no output, no globals. Returns 0, or -EINVAL with `out->error` set and
 * nothing left to free, or -ENOMEM. On success release `out` with
 * host_exec_args_fini(). --format=top without a mode is the live view
 * (HOST_EXEC_INTERVAL, 1 s unless --interval); with --once one screen;
 * with --execd a usage error.
 */
int host_exec_parse_args(int argc, char **argv, struct host_exec_args *out);

/* The same for the executable of plugin `ops`, whose keys it then knows:
 * --Key value takes the next argument only for one of them, and an
 * unknown --name is named with the closest flag or key. */
int host_exec_parse_args_for(const struct plugin_ops *ops, int argc,
                             char **argv, struct host_exec_args *out);

/*
 * The same for gpu-telemetry, which runs the plugins of `table`: a plugin's
 * key is --NAME.Key=<value> (NAME any case; --NAME.Block.Key nests as
 * above), and --plugin=NAME[,NAME...] and --no-plugin=NAME[,NAME...]
 * (repeatable) and --config=FILE (repeatable, read in order) are flags.
 */
int host_exec_parse_args_multi(int argc, char **argv,
                               const struct plugin_ops *const *table,
                               size_t n_table, struct host_exec_args *out);

/* Free the item trees of `args`; safe to call twice. */
void host_exec_args_fini(struct host_exec_args *args);

/*
 * Add key[0..key_len)=value to `list`: "A.B" adds B=value to the children
 * of the latest item named A (any case), creating a value-less A when
 * there is none; "A.B.C" nests one level further. `value` NULL: an item
 * without a value. 0, -ENOMEM, or -EINVAL with `error` naming `arg`.
 */
int host_exec_add_item(struct cfg_item **list, size_t *n, const char *key,
                       size_t key_len, const char *value, char *error,
                       size_t error_size, const char *arg);

/*
 * main() of every plugin executable: parse, create the instance with
 * ops->instance_new(ops->name), configure, init, run the chosen mode, and
 * free the instance on every path, also after SIGINT, SIGTERM or SIGHUP
 * (which end the run normally, exit status 0). Returns the exit status.
 */
int host_exec_main(const struct plugin_ops *ops, int argc, char **argv);

/*
 * main() of gpu-telemetry: the plugins of `table` (every plugin built)
 * in one process (see gpu-telemetry(1)). Returns the exit status.
 */
int host_exec_main_multi(const char *program,
                         const struct plugin_ops *const *table, size_t n,
                         int argc, char **argv);

#endif
