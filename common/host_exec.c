/*
 * host_exec.c: the exec/execd host (see host_exec.h), for Telegraf's
 * inputs.exec (one run, --once) and inputs.execd (signal = "STDIN" is
 * --execd, signal = "none" is --interval).
 */
#include "common/host_exec.h"
#include "common/sink_influx.h"
#include "common/sink_json.h"
#include "common/sink_line.h"
#include "common/sink_table.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t host_exec_stop;
static bool host_exec_telegraf_prefix;
static enum log_level host_exec_log_level = LOG_LEVEL_WARNING;

static void host_exec_on_signal(int sig) {
  (void)sig;
  host_exec_stop = 1;
}

static void host_exec_log(enum log_level level, const char *message) {
  static const char *const prefixes[] = {[LOG_LEVEL_ERROR] = "E! ",
                                         [LOG_LEVEL_WARNING] = "W! ",
                                         [LOG_LEVEL_NOTICE] = "I! ",
                                         [LOG_LEVEL_INFO] = "I! ",
                                         [LOG_LEVEL_DEBUG] = "D! "};
  if (level > host_exec_log_level)
    return;
  fprintf(stderr, "%s%s\n", host_exec_telegraf_prefix ? prefixes[level] : "",
          message);
}

static int host_exec_usage(const char *program, const char *problem,
                           const char *arg) {
  fprintf(stderr, "%s: usage: %s%s%s%s (see --help)\n", program, problem,
          arg ? " \"" : "", arg ? arg : "", arg ? "\"" : "");
  return -EINVAL;
}

static int host_exec_seconds(const char *program, const char *flag,
                             const char *text, double min_exclusive,
                             double *out) {
  double v;
  if (cfg_parse_double(text, &v) < 0 || !(v > min_exclusive) || v > 1e6) {
    fprintf(stderr,
            "%s: usage: %s: expected a number of seconds%s, got \"%s\"\n",
            program, flag, min_exclusive < 0 ? "" : " above 0", text);
    return -EINVAL;
  }
  *out = v;
  return 0;
}

static struct cfg_value *host_exec_value(const char *text) {
  struct cfg_value *v = calloc(1, sizeof(*v));
  if (v != NULL) {
    v->type = CFG_STRING;
    v->string = text; /* argv outlives the instance */
  }
  return v;
}

/* Append key=value to the item list, or as a child of the latest item named
 * like the part before the dot. */
static int host_exec_add(struct host_exec_args *a, const char *key,
                         size_t key_len, const char *value) {
  const char *dot = memchr(key, '.', key_len);
  struct cfg_item **list = &a->items;
  size_t *n = &a->n_items;
  struct cfg_item *parent = NULL;
  if (dot != NULL) {
    size_t block_len = (size_t)(dot - key);
    for (size_t i = a->n_items; i-- > 0;)
      if (strlen(a->items[i].key) == block_len &&
          strncasecmp(a->items[i].key, key, block_len) == 0) {
        parent = &a->items[i];
        break;
      }
    if (parent == NULL) {
      int rc = host_exec_add(a, key, block_len, NULL);
      if (rc < 0)
        return rc;
      parent = &a->items[a->n_items - 1];
    }
    list = (struct cfg_item **)&parent->children;
    n = &parent->n_children;
    key_len -= block_len + 1;
    key = dot + 1;
  }
  struct cfg_item *grown = realloc(*list, (*n + 1) * sizeof(**list));
  if (grown == NULL)
    return -ENOMEM;
  *list = grown;
  struct cfg_item *item = &grown[*n];
  memset(item, 0, sizeof(*item));
  item->key = strndup(key, key_len);
  if (value != NULL) {
    item->values = host_exec_value(value);
    item->n_values = 1;
  }
  (*n)++;
  if (item->key == NULL || (value != NULL && item->values == NULL))
    return -ENOMEM;
  return 0;
}

static void host_exec_items_free(struct cfg_item *items, size_t n) {
  for (size_t i = 0; i < n; i++) {
    free((void *)items[i].key);
    free((void *)items[i].values);
    host_exec_items_free((struct cfg_item *)items[i].children,
                         items[i].n_children);
  }
  free(items);
}

void host_exec_args_fini(struct host_exec_args *a) {
  host_exec_items_free(a->items, a->n_items);
  a->items = NULL;
  a->n_items = 0;
}

int host_exec_parse_args(const char *program, int argc, char **argv,
                         struct host_exec_args *a) {
  memset(a, 0, sizeof(*a));
  a->window_s = 1.0;
  a->log_level = LOG_LEVEL_WARNING;
  int rc = 0;
  bool mode_set = false;
  for (int i = 0; i < argc && rc == 0; i++) {
    const char *arg = argv[i];
    if (strncmp(arg, "--", 2) != 0 || arg[2] == '\0' || arg[2] == '=') {
      rc = host_exec_usage(program, "unexpected argument", arg);
      break;
    }
    const char *name = arg + 2;
    const char *eq = strchr(name, '=');
    size_t name_len = eq ? (size_t)(eq - name) : strlen(name);
    const char *value = eq ? eq + 1 : NULL;
#define FLAG_IS(s) (name_len == strlen(s) && strncmp(name, s, name_len) == 0)
    bool is_mode = FLAG_IS("once") || FLAG_IS("execd") || FLAG_IS("interval");
    if (is_mode && mode_set) {
      rc = host_exec_usage(program, "choose one of --once, --execd, --interval",
                           arg);
    } else if (FLAG_IS("help") && !value) {
      a->help = true;
    } else if ((FLAG_IS("once") || FLAG_IS("execd")) && !value) {
      a->mode = FLAG_IS("once") ? HOST_EXEC_ONCE : HOST_EXEC_EXECD;
      mode_set = true;
    } else if (FLAG_IS("interval") && value) {
      a->mode = HOST_EXEC_INTERVAL;
      mode_set = true;
      rc = host_exec_seconds(program, "--interval", value, 0, &a->interval_s);
    } else if (FLAG_IS("window") && value) {
      rc = host_exec_seconds(program, "--window", value, -1, &a->window_s);
      if (rc == 0 && a->window_s < 0)
        rc = host_exec_usage(program, "--window must not be negative", value);
    } else if (FLAG_IS("format") && value) {
      if (strcmp(value, "influx") == 0)
        a->format = HOST_EXEC_INFLUX;
      else if (strcmp(value, "json") == 0)
        a->format = HOST_EXEC_JSON;
      else if (strcmp(value, "table") == 0)
        a->format = HOST_EXEC_TABLE;
      else
        rc = host_exec_usage(
            program, "--format: expected json, influx or table, got", value);
    } else if (FLAG_IS("log-level") && value) {
      static const char *const levels[] = {"error", "warning", "info", "debug"};
      static const enum log_level values[] = {
          LOG_LEVEL_ERROR, LOG_LEVEL_WARNING, LOG_LEVEL_INFO, LOG_LEVEL_DEBUG};
      size_t k = 0;
      while (k < 4 && strcmp(value, levels[k]) != 0)
        k++;
      if (k == 4)
        rc = host_exec_usage(
            program, "--log-level: expected error, warning, info or debug, got",
            value);
      else
        a->log_level = values[k];
    } else if (is_mode || FLAG_IS("help") || FLAG_IS("window") ||
               FLAG_IS("format") || FLAG_IS("log-level")) {
      rc = host_exec_usage(program, "bad use of", arg);
    } else if (value == NULL) {
      rc = host_exec_usage(program, "plugin options need a value: --Key=value,",
                           arg);
    } else {
      rc = host_exec_add(a, name, name_len, value);
    }
#undef FLAG_IS
  }
  if (rc < 0)
    host_exec_args_fini(a);
  return rc;
}

static void host_exec_help(const struct plugin_ops *ops) {
  printf("usage: %s [--format=json|influx|table] [--once | --execd | "
         "--interval=SECONDS]\n"
         "       %*s [--window=SECONDS] [--log-level=LEVEL] [--<Key>=<value> "
         "...]\n\n"
         "  --format=F     influx (default), json (one object per line) or "
         "table\n"
         "  --once         collect, collect again after --window, print, exit "
         "(default)\n"
         "  --execd        print one batch per line read on stdin; exit on "
         "EOF\n"
         "                 (Telegraf execd, signal = \"STDIN\")\n"
         "  --interval=N   print a batch every N seconds (execd, signal = "
         "\"none\")\n"
         "  --window=S     seconds between the two reads of --once "
         "(default 1)\n"
         "  --log-level=L  error, warning (default), info or debug; "
         "messages go to stderr\n"
         "  --<Key>=<value>  any collectd option of the plugin, "
         "case-insensitive, repeatable;\n"
         "                 a nested block is --Block=<name> "
         "--Block.Key=<value>\n",
         ops->name, (int)strlen(ops->name), "");
}

static int host_exec_nop(struct metric_sink *s) {
  (void)s;
  return 0;
}
static int host_exec_discard(struct metric_sink *s, const struct metric *m) {
  (void)s;
  (void)m;
  return 0;
}

static int host_exec_batch(const struct plugin_ops *ops, void *inst,
                           struct metric_sink *sink) {
  sink->begin(sink);
  int rc = ops->read(inst, sink);
  if (sink->end(sink) < 0)
    host_exec_stop = 1; /* stdout is gone (EPIPE): nobody reads us */
  return rc;
}

/* Sleep `seconds`, or until a signal asks us to stop. */
static void host_exec_sleep(double seconds) {
  struct timespec ts = {(time_t)seconds,
                        (long)((seconds - floor(seconds)) * 1e9)};
  while (!host_exec_stop && nanosleep(&ts, &ts) < 0 && errno == EINTR)
    ;
}

static int host_exec_run_execd(const struct plugin_ops *ops, void *inst,
                               struct metric_sink *out) {
  char buf[4096];
  while (!host_exec_stop) {
    ssize_t n = read(STDIN_FILENO, buf, sizeof(buf));
    if (n == 0)
      return 0; /* Telegraf closed stdin */
    if (n < 0) {
      if (errno == EINTR)
        continue;
      log_errno(LOG_LEVEL_ERROR, ops->name, "stdin", "read", errno, NULL);
      return 1;
    }
    for (ssize_t i = 0; i < n && !host_exec_stop; i++)
      if (buf[i] == '\n')
        host_exec_batch(ops, inst, out);
  }
  return 0;
}

static int host_exec_run_interval(const struct plugin_ops *ops, void *inst,
                                  struct metric_sink *out, double interval) {
  struct timespec next;
  clock_gettime(CLOCK_MONOTONIC, &next);
  long step_s = (long)interval;
  long step_ns = (long)((interval - (double)step_s) * 1e9);
  while (!host_exec_stop) {
    next.tv_sec += step_s;
    next.tv_nsec += step_ns;
    if (next.tv_nsec >= 1000000000L) {
      next.tv_sec++;
      next.tv_nsec -= 1000000000L;
    }
    /* absolute deadlines: no drift however long a read takes */
    int rc;
    while ((rc = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next,
                                 NULL)) == EINTR &&
           !host_exec_stop)
      ;
    if (host_exec_stop)
      break;
    host_exec_batch(ops, inst, out);
  }
  return 0;
}

int host_exec_main(const struct plugin_ops *ops, int argc, char **argv) {
  struct host_exec_args args;
  if (host_exec_parse_args(ops->name, argc - 1, argv + 1, &args) < 0)
    return 2;
  if (args.help) {
    host_exec_help(ops);
    host_exec_args_fini(&args);
    return 0;
  }
  host_exec_telegraf_prefix = args.mode == HOST_EXEC_EXECD;
  host_exec_log_level = args.log_level;
  log_set_sink(host_exec_log, args.log_level);

  struct sigaction sa;
  memset(&sa, 0, sizeof(sa));
  sa.sa_handler = host_exec_on_signal; /* no SA_RESTART: sleeps return */
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
  signal(SIGPIPE, SIG_IGN);

  int status = 0;
  void *inst = ops->instance_new(ops->name);
  if (inst == NULL) {
    log_errno(LOG_LEVEL_ERROR, ops->name, "instance", "allocate", ENOMEM, NULL);
    host_exec_args_fini(&args);
    return 1;
  }
  for (size_t i = 0; i < args.n_items && status == 0; i++)
    if (ops->configure(inst, &args.items[i]) < 0)
      status = 2;
  if (status == 0 && ops->init(inst) < 0)
    status = 1;

  struct sink_line lines;
  struct sink_table table;
  struct metric_sink *out = &lines.base;
  if (args.format == HOST_EXEC_TABLE) {
    sink_table_init(&table, stdout);
    out = &table.base;
  }
  sink_line_init(&lines, stdout,
                 args.format == HOST_EXEC_JSON ? sink_json_format
                                               : sink_influx_format);
  struct metric_sink discard = {host_exec_nop, host_exec_discard,
                                host_exec_nop};

  if (status == 0) {
    /* Rates need a previous sample: prime, then report. */
    host_exec_batch(ops, inst, &discard);
    if (args.mode == HOST_EXEC_ONCE) {
      host_exec_sleep(args.window_s);
      if (!host_exec_stop && host_exec_batch(ops, inst, out) < 0)
        status = 1;
    } else if (args.mode == HOST_EXEC_EXECD) {
      status = host_exec_run_execd(ops, inst, out);
    } else {
      status = host_exec_run_interval(ops, inst, out, args.interval_s);
    }
  }

  ops->instance_free(inst); /* restores whatever init changed */
  if (args.format == HOST_EXEC_TABLE)
    sink_table_fini(&table);
  sink_line_fini(&lines);
  host_exec_args_fini(&args);
  return status;
}
