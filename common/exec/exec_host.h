/*
 * exec_host.h: the parts of the executables' host (host_exec.h) that know
 * of each other: the plugins' instances set up from the command line and
 * a configuration file (exec_setup.c), the modes run over the runner
 * (exec_loop.c), the Prometheus page (exec_prom.c) and --help
 * (exec_help.c). Not for plugins.
 */
#ifndef COMMON_HOST_EXEC_HOST_H
#define COMMON_HOST_EXEC_HOST_H

#include "common/exec/host_exec.h"
#include "common/http/prom_http.h"
#include "common/runner/runner.h"
#include "common/sink/sink_line.h"
#include "common/sink/sink_prom.h"
#include "common/sink/sink_table.h"
#include "common/top/top_model.h"

#include <signal.h>
#include <stdbool.h>

/* How long the host waits for reads still running when it stops. */
#define EXEC_STOP_WAIT_NS 2000000000ULL /* 2 s */

/* How long the start waits for the plugins' inits, each on its own
 * thread: one still running then starts when it returns. */
#define EXEC_INIT_WAIT_NS 5000000000ULL /* 5 s */

/* --once with several plugins: how long the batch waits for the slowest
 * read after the others finished (one plugin: as long as it takes). */
#define EXEC_ONCE_GRACE_NS 10000000000ULL /* 10 s */

struct exec_host {
  const char *program; /* "drm_fdinfo", "gpu-telemetry" */
  const struct host_exec_args *args;
  bool multi;                   /* gpu-telemetry */
  struct runner runner;         /* the instances, running */
  struct plugin_shared *shared; /* one per plugin of the table */
  size_t n_shared;
  volatile sig_atomic_t *stop;
  /* the output of args->format */
  struct sink_line lines;
  struct sink_table table;
  struct prom_http_sink prom; /* renders a pass and says what it refused */
  struct top_model top;
  struct prom_http *http; /* --listen, or NULL */
  char *page;             /* the rendered Prometheus page */
  size_t page_cap;
  const char *looked_at; /* what the plugins looked at, for "no GPU" */
};

/*
 * Create, configure and init the instances the command line (and its
 * --config file) asks for, and hand them to `x->runner`. Returns 0, 2 on
 * a usage or configuration error, 1 when nothing could start (each said).
 */
int exec_setup(struct exec_host *x, const struct plugin_ops *const *table,
               size_t n_table);

/* Run the chosen mode until it ends; the exit status. */
int exec_loop(struct exec_host *x);

/* Render the Prometheus page of every current read, with the collector
 * gauges, into x->page; its length, or -ENOMEM. */
long exec_prom_page(struct exec_host *x, uint64_t now);

/* The longest plugin_instance label value of the collector gauges, with
 * its NUL. */
#define EXEC_PROM_LABEL_MAX 128

/* `label` as the collector gauges show it, before the text format's
 * escaping: printable (text_char), and a label too long for `out` cut to a
 * prefix and the hash of the whole (text_sanitize_keyed). Two labels of one
 * plugin must not be shown alike (exec_setup refuses them). */
void exec_prom_label(const char *label, char out[EXEC_PROM_LABEL_MAX]);

/* --help of one plugin's executable, or of gpu-telemetry. */
void exec_help(const struct plugin_ops *ops);
void exec_help_multi(const char *program, const struct plugin_ops *const *table,
                     size_t n);

#endif
