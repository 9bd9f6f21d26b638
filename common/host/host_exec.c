/*
 * host_exec.c: the exec/execd host (see host_exec.h) for Telegraf's
 * inputs.exec (one run: --once) and inputs.execd (signal = "STDIN" is
 * --execd, signal = "none" is --interval). Telegraf's contract, from its
 * execd README and internal/process: stdout is a pipe (so every batch is
 * flushed), each stderr line is logged as an error unless it starts with
 * "E! ", "W! ", "I! " or "D! ", and at stop Telegraf closes stdin, then
 * sends SIGTERM after 5 s.
 */
#include "common/host/host_exec.h"
#include "common/host/prom_http.h"
#include "common/sink/sink_influx.h"
#include "common/sink/sink_json.h"
#include "common/sink/sink_line.h"
#include "common/sink/sink_table.h"
#include "common/top/top_view.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t host_exec_stop;
static bool host_exec_telegraf; /* --execd: Telegraf's level prefixes */

/* ---- command line ---- */

static int host_exec_fail(struct host_exec_args *a, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Record why the command line is wrong; returns -EINVAL. */
static int host_exec_fail(struct host_exec_args *a, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(a->error, sizeof(a->error), fmt, ap);
  va_end(ap);
  return -EINVAL;
}

/* Seconds for --interval (min_exclusive) or --window (0 allowed). */
static int host_exec_seconds(struct host_exec_args *a, const char *flag,
                             const char *text, bool zero_ok, double *out) {
  double v;
  if (cfg_parse_double(text, &v) < 0 || v < 0 || (v == 0 && !zero_ok) ||
      v > HOST_EXEC_MAX_SECONDS) {
    snprintf(a->error, sizeof(a->error),
             "%s: expected a number of seconds %s 0 and at most %g, got "
             "\"%.64s\"",
             flag, zero_ok ? ">=" : ">", HOST_EXEC_MAX_SECONDS, text);
    return -EINVAL;
  }
  *out = v;
  return 0;
}

static void host_exec_items_free(struct cfg_item *items, size_t n) {
  for (size_t i = 0; i < n; i++) {
    free((void *)items[i].key);
    if (items[i].values != NULL)
      free((void *)items[i].values->string);
    free((void *)items[i].values);
    host_exec_items_free((struct cfg_item *)items[i].children,
                         items[i].n_children);
  }
  free(items);
}

/* Append an item named key[0..key_len) with `value` (NULL: no value) to
 * the list. Returns the new item or NULL on ENOMEM (the list unchanged). */
static struct cfg_item *host_exec_append(struct cfg_item **list, size_t *n,
                                         const char *key, size_t key_len,
                                         const char *value) {
  struct cfg_item *grown = realloc(*list, (*n + 1) * sizeof(**list));
  if (grown == NULL)
    return NULL;
  *list = grown;
  struct cfg_item *item = &grown[*n];
  memset(item, 0, sizeof(*item));
  struct cfg_value *v = NULL;
  item->key = strndup(key, key_len);
  if (value != NULL && (v = calloc(1, sizeof(*v))) != NULL) {
    v->type = CFG_STRING;
    v->string = strdup(value);
  }
  if (item->key == NULL || (value != NULL && (v == NULL || !v->string))) {
    free((void *)item->key);
    free(v ? (void *)v->string : NULL);
    free(v);
    return NULL;
  }
  item->values = v;
  item->n_values = v ? 1 : 0;
  (*n)++;
  return item;
}

/* Add key=value to the list; "A.B" adds B=value to the children of the
 * latest item named A (any case), creating a value-less A when there is
 * none; "A.B.C" nests one level further, and so on. */
static int host_exec_add(struct host_exec_args *a, struct cfg_item **list,
                         size_t *n, const char *key, size_t key_len,
                         const char *value, const char *arg) {
  const char *dot = memchr(key, '.', key_len);
  size_t head_len = dot ? (size_t)(dot - key) : key_len;
  if (head_len == 0 || (dot != NULL && head_len + 1 == key_len))
    return host_exec_fail(a, "empty option name in \"%.64s\"", arg);
  if (dot == NULL)
    return host_exec_append(list, n, key, key_len, value) ? 0 : -ENOMEM;
  struct cfg_item *parent = NULL;
  for (size_t i = *n; i-- > 0 && parent == NULL;)
    if (strlen((*list)[i].key) == head_len &&
        strncasecmp((*list)[i].key, key, head_len) == 0)
      parent = &(*list)[i];
  if (parent == NULL &&
      (parent = host_exec_append(list, n, key, head_len, NULL)) == NULL)
    return -ENOMEM;
  return host_exec_add(a, (struct cfg_item **)&parent->children,
                       &parent->n_children, dot + 1, key_len - head_len - 1,
                       value, arg);
}

void host_exec_args_fini(struct host_exec_args *a) {
  host_exec_items_free(a->items, a->n_items);
  a->items = NULL;
  a->n_items = 0;
}

/* `value` is one of `names` (its index in `*out`); else the error lists
 * `expected`. */
static int host_exec_choice(struct host_exec_args *a, const char *flag,
                            const char *value, const char *const *names,
                            size_t n_names, const char *expected, int *out) {
  for (size_t i = 0; i < n_names; i++)
    if (strcmp(value, names[i]) == 0) {
      *out = (int)i;
      return 0;
    }
  snprintf(a->error, sizeof(a->error), "%s: expected %s, got \"%.64s\"", flag,
           expected, value);
  return -EINVAL;
}

/* One of our own flags (exact, lower case; "interval" in any case, since
 * Interval is also the collectd key of the same meaning); 1 when `name` is
 * not ours. */
static int host_exec_flag(struct host_exec_args *a, const char *name,
                          size_t len, const char *value, const char *arg,
                          bool *mode_set) {
  static const char *const flags[] = {
      "help",      "once",    "execd",  "interval", "window",    "format",
      "log-level", "version", "listen", "rows",     "web-config"};
  static const char *const formats[] = {"influx", "json", "table", "prometheus",
                                        "top"};
  static const char *const levels[] = {"error", "warning", "info", "debug"};
  static const enum log_level level_values[] = {
      LOG_LEVEL_ERROR, LOG_LEVEL_WARNING, LOG_LEVEL_INFO, LOG_LEVEL_DEBUG};
  const size_t n_flags = sizeof(flags) / sizeof(flags[0]);
  size_t f = 0;
  while (f < n_flags && !(strlen(flags[f]) == len &&
                          (f == 3 ? !strncasecmp(flags[f], name, len)
                                  : !strncmp(flags[f], name, len))))
    f++;
  if (f == n_flags)
    return 1;
  bool wants_value = (f >= 3 && f <= 6) || f >= 8; /* listen, rows */
  if (wants_value && value == NULL)
    return host_exec_fail(a, "%s needs a value: --flag=<value>", arg);
  if (!wants_value && value != NULL)
    return host_exec_fail(a, "\"%.64s\": this flag takes no value", arg);
  bool is_mode = f >= 1 && f <= 3;
  if (is_mode && *mode_set)
    return host_exec_fail(
        a, "\"%.64s\": choose one of --once, --execd and --interval", arg);
  *mode_set |= is_mode;
  a->mode_given |= is_mode;
  int k = 0, rc = 0;
  switch (f) {
  case 0:
    a->help = true;
    break;
  case 1:
    a->mode = HOST_EXEC_ONCE;
    break;
  case 2:
    a->mode = HOST_EXEC_EXECD;
    break;
  case 3:
    a->mode = HOST_EXEC_INTERVAL;
    rc = host_exec_seconds(a, "--interval", value, /*zero_ok=*/false,
                           &a->interval_s);
    break;
  case 4:
    rc =
        host_exec_seconds(a, "--window", value, /*zero_ok=*/true, &a->window_s);
    break;
  case 5:
    if ((rc = host_exec_choice(a, "--format", value, formats, 5,
                               "json, influx, table, prometheus or top", &k)) ==
        0)
      a->format = (enum host_exec_format)k;
    a->format_given = true;
    break;
  case 9: {
    char *end;
    errno = 0;
    long n = strtol(value, &end, 10);
    if (errno != 0 || end == value || *end != '\0' || n < 1 || n > 100000)
      rc = host_exec_fail(a,
                          "--rows: expected a number of rows from 1 to "
                          "100000, got \"%.64s\"",
                          value);
    else
      a->rows = (int)n;
    break;
  }
  case 7:
    a->version = true;
    break;
  case 8:
    a->listen = value;
    break;
  case 10:
    a->web_config = value;
    break;
  default:
    if ((rc = host_exec_choice(a, "--log-level", value, levels, 4,
                               "error, warning, info or debug", &k)) == 0)
      a->log_level = level_values[k];
    break;
  }
  return rc;
}

int host_exec_parse_args(int argc, char **argv, struct host_exec_args *a) {
  memset(a, 0, sizeof(*a));
  a->format = HOST_EXEC_INFLUX;
  a->mode = HOST_EXEC_ONCE;
  a->window_s = 1.0;
  a->log_level = LOG_LEVEL_WARNING;
  bool mode_set = false;
  int rc = 0;
  for (int i = 1; i < argc && rc == 0; i++) {
    const char *arg = argv[i];
    if (strcmp(arg, "-h") == 0) {
      a->help = true;
      continue;
    }
    if (strncmp(arg, "--", 2) != 0 || arg[2] == '\0' || arg[2] == '=') {
      rc = host_exec_fail(a, "unexpected argument \"%.64s\"", arg);
      break;
    }
    const char *name = arg + 2;
    const char *eq = strchr(name, '=');
    size_t len = eq ? (size_t)(eq - name) : strlen(name);
    const char *value = eq ? eq + 1 : NULL;
    rc = host_exec_flag(a, name, len, value, arg, &mode_set);
    if (rc != 1)
      continue;
    /* --Key value (two arguments) is not supported: it would make a
     * value that starts with "--" ambiguous. */
    if (value == NULL)
      rc = host_exec_fail(a,
                          "\"%.64s\": plugin options need a value: "
                          "--Key=<value>",
                          arg);
    else
      rc = host_exec_add(a, &a->items, &a->n_items, name, len, value, arg);
  }
  if (rc == 0 && a->listen != NULL) {
    /* a server reads on its own interval, and speaks Prometheus only */
    if (mode_set && a->mode != HOST_EXEC_INTERVAL)
      rc = host_exec_fail(a, "--listen reads every --interval: not with "
                             "--once or --execd");
    else if (a->format_given && a->format != HOST_EXEC_PROMETHEUS)
      rc = host_exec_fail(a, "--listen serves --format=prometheus only");
    else if (!mode_set)
      a->interval_s = HOST_EXEC_LISTEN_INTERVAL;
    a->mode = HOST_EXEC_INTERVAL;
    a->format = HOST_EXEC_PROMETHEUS;
  }
  if (rc == 0 && a->web_config != NULL && a->listen == NULL)
    rc = host_exec_fail(a, "--web-config: only with --listen");
  if (rc == 0 && a->format == HOST_EXEC_TOP && a->mode == HOST_EXEC_EXECD)
    rc = host_exec_fail(a, "--format=top: a view for people, not for "
                           "--execd (choose --once or --interval)");
  if (rc == 0 && a->rows > 0 && a->format != HOST_EXEC_TOP)
    rc = host_exec_fail(a, "--rows: only with --format=top");
  if (rc == 0 && a->format == HOST_EXEC_TOP && !a->mode_given) {
    a->mode = HOST_EXEC_INTERVAL; /* the live view */
    a->interval_s = 1.0;
  }
  if (rc == -ENOMEM)
    snprintf(a->error, sizeof(a->error), "out of memory");
  if (rc < 0)
    host_exec_args_fini(a);
  return rc;
}

static void host_exec_help(const struct plugin_ops *ops) {
  const char *name = ops->name;
  printf(
      "usage: %s [--format=json|influx|table|prometheus|top]\n"
      "       %*s [--once | --execd | --interval=SECONDS | "
      "--listen=ADDR:PORT]\n"
      "       %*s [--window=SECONDS] [--rows=N] [--log-level=LEVEL]\n"
      "       %*s [--<Key>=<value> ...]\n"
      "       %s --help | -h | --version\n"
      "\n"
      "Collects like the collectd plugin %s and prints the records on "
      "stdout.\n"
      "\n"
      "  --format=F       influx (default; line protocol), json (one array "
      "per batch;\n"
      "                   one object per line with --execd), table, "
      "prometheus (the\n"
      "                   text exposition format, names in base units), or "
      "top (a live\n"
      "                   view redrawn every --interval, default 1 s; keys: "
      "q quit,\n"
      "                   s/S sort, / filter, p/c/g process/client/cgroup, "
      "r raw\n"
      "                   counters, space pause). Without --format and a "
      "mode, on a\n"
      "                   terminal, top is the default\n"
      "  --rows=N         --format=top --once: one plain-text screen with "
      "the top N\n"
      "                   rows (default 20), no escape codes\n"
      "  --once           read, read again after --window seconds, print the "
      "second\n"
      "                   read, exit (default; Telegraf inputs.exec). Counters "
      "start\n"
      "                   at the first read: they cover the window only\n"
      "  --execd          read once at start, then print one batch per line "
      "read on\n"
      "                   stdin; exit 0 on EOF (inputs.execd, signal = "
      "\"STDIN\")\n"
      "  --interval=N     print a batch every N seconds until SIGTERM or "
      "SIGINT\n"
      "                   (inputs.execd, signal = \"none\"); also spelled "
      "--Interval=N,\n"
      "                   as the collectd key\n"
      "  --listen=A:P     serve http://A:P/metrics (Prometheus text format) "
      "instead of\n"
      "                   printing; reads every --interval seconds (default "
      "10), the\n"
      "                   first after --window; A: an IPv4 address, [IPv6] or "
      "empty\n"
      "                   (all IPv4), P default 9470; SIGTERM or SIGINT "
      "stops it\n"
      "  --web-config=F   with --listen: TLS and basic auth from F, "
      "node_exporter's\n"
      "                   web config layout (tls_server_config, "
      "basic_auth_users)\n"
      "  --window=S       seconds between the two reads of --once (default "
      "1; 0 reads\n"
      "                   twice back to back; rates need two reads)\n"
      "  --log-level=L    error, warning (default), info or debug; messages "
      "go to\n"
      "                   stderr as \"error: ...\", or \"E! \", \"W! \", "
      "\"I! \", \"D! \" with --execd\n"
      "  --<Key>=<value>  a collectd option of the plugin (below): "
      "case-insensitive,\n"
      "                   repeatable, applied in order; --Key value (no '=') "
      "is not\n"
      "                   accepted\n"
      "  --<Block>.<Key>=<value>\n"
      "                   a key inside a nested collectd block: added to the "
      "most\n"
      "                   recent --<Block>=<value> (or to a new value-less "
      "Block), so\n"
      "                   <Filter \"f\"> PMU \"pcie\" </Filter> is "
      "--Filter=f --Filter.PMU=pcie\n"
      "  --help, -h       this text; --version: the version\n",
      name, (int)strlen(name), "", (int)strlen(name), "", (int)strlen(name), "",
      name, name);
  if (ops->options != NULL) {
    printf("\nOptions of %s, as --Key=<value> (the keys of its collectd "
           "block):\n",
           name);
    printf("  --%-18s %s; default: %s\n", "Interval",
           "same as --interval=N (the host's key)", "none, --once");
    for (const struct cfg_option *o = ops->options; o->key != NULL; o++)
      printf("  --%-18s %s; default: %s\n", o->key, o->help, o->def);
  }
  printf("\n"
         "Exit status: 0 ok (also when stopped by SIGTERM, SIGINT or SIGHUP), "
         "1 init\n"
         "or read failure (or stdout closed), 2 usage or configuration error "
         "(one wrong\n"
         "Key or Event is enough, whatever else is valid: nothing is "
         "collected).\n");
}

/* ---- running ---- */

static void host_exec_on_signal(int sig) {
  (void)sig;
  host_exec_stop = 1;
}

static void host_exec_signals(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof(sa));
  sigemptyset(&sa.sa_mask);
  /* No SA_RESTART: read() on stdin and the sleeps return EINTR, and the
   * loops see the flag. A signal landing between the flag check and the
   * blocking call is seen at the next wake-up: the next deadline with
   * --interval, the next line or EOF (Telegraf closes stdin before
   * SIGTERM) with --execd. */
  sa.sa_handler = host_exec_on_signal;
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
  sigaction(SIGHUP, &sa, NULL);
  /* A closed stdout must not kill us before instance_free() restores the
   * system: write errors end the run instead. */
  sa.sa_handler = SIG_IGN;
  sigaction(SIGPIPE, &sa, NULL);
}

static void host_exec_log(enum log_level level, const char *message) {
  static const char *const plain[] = {
      "error: ", "warning: ", "notice: ", "info: ", "debug: "};
  static const char *const telegraf[] = {"E! ", "W! ", "I! ", "I! ", "D! "};
  int i = level < LOG_LEVEL_ERROR   ? 0
          : level > LOG_LEVEL_DEBUG ? 4
                                    : (int)level - LOG_LEVEL_ERROR;
  if (top_view_capture(plain[i], message))
    return; /* the terminal belongs to the view (top_view.h) */
  /* One stderr line per message: Telegraf logs an unprefixed line as an
   * error, so newlines inside the message become spaces. */
  char line[1100];
  int n = snprintf(line, sizeof(line), "%s%s\n",
                   host_exec_telegraf ? telegraf[i] : plain[i], message);
  size_t len = n < 0 ? 0 : (size_t)n < sizeof(line) ? (size_t)n : sizeof(line);
  for (size_t k = 0; k + 1 < len; k++)
    if (line[k] == '\n' || line[k] == '\r')
      line[k] = ' ';
  if (len > 0)
    line[len - 1] = '\n';
  fwrite(line, 1, len, stderr);
}

/* Wraps the output sink: counts records, reports records that lost tags
 * or fields (metric.h), remembers output failures. */
struct host_exec_out {
  struct metric_sink base;
  struct metric_sink *inner; /* NULL: discard (the priming read) */
  size_t records;            /* in the current batch */
  const char *plugin;
  struct metric_overflow *overflow;    /* shared by the priming read */
  const struct metric_unit *units;     /* the plugin's own (plugin.h) */
  struct metric_unit_refused *refused; /* shared by the priming read */
};

static int host_exec_out_begin(struct metric_sink *sink) {
  struct host_exec_out *o = (struct host_exec_out *)sink;
  o->records = 0;
  return o->inner ? o->inner->begin(o->inner) : 0;
}

static int host_exec_out_write(struct metric_sink *sink,
                               const struct metric *m) {
  struct host_exec_out *o = (struct host_exec_out *)sink;
  o->records++;
  metric_overflow_check(o->overflow, o->plugin, m);
  size_t bad = 0;
  while (bad < m->n_fields &&
         metric_unit_lookup(o->units, m->fields[bad].ctype) != NULL)
    bad++;
  if (bad == m->n_fields)
    return o->inner ? o->inner->write(o->inner, m) : 0;
  /* A field whose type has no row (metric_unit.h) is not written: its
   * unit would be unknown to every output. */
  struct metric kept = *m;
  kept.n_fields = 0;
  for (size_t i = 0; i < m->n_fields; i++) {
    const char *ctype = m->fields[i].ctype;
    if (metric_unit_lookup(o->units, ctype) != NULL)
      kept.fields[kept.n_fields++] = m->fields[i];
    else if (metric_unit_refuse(o->refused, ctype != NULL ? ctype : "(null)"))
      log_msg(LOG_LEVEL_ERROR, o->plugin, ctype, "metric_unit_find",
              "no such field type (one unit per type: add a row to "
              "metric_unit.c or the plugin's units); its fields are not "
              "written");
  }
  return o->inner && kept.n_fields > 0 ? o->inner->write(o->inner, &kept) : 0;
}

static int host_exec_out_end(struct metric_sink *sink) {
  struct host_exec_out *o = (struct host_exec_out *)sink;
  return o->inner ? o->inner->end(o->inner) : 0;
}

/* One batch: begin, read, end (which flushes). Returns 1 when the read
 * failed without a record, -EIO when stdout failed, else 0. */
static int host_exec_batch(const struct plugin_ops *ops, void *inst,
                           struct host_exec_out *out) {
  out->base.begin(&out->base);
  int rc = ops->read(inst, &out->base);
  if (out->base.end(&out->base) < 0) {
    log_errno(LOG_LEVEL_ERROR, ops->name, "stdout", "write", errno, NULL);
    host_exec_stop = 1; /* nobody reads us any more */
    return -EIO;
  }
  return rc < 0 && out->records == 0 ? 1 : 0;
}

static void host_exec_ts_add(struct timespec *t, double seconds) {
  time_t whole = (time_t)seconds;
  t->tv_sec += whole;
  t->tv_nsec += (long)((seconds - (double)whole) * 1e9);
  if (t->tv_nsec >= 1000000000L) {
    t->tv_sec++;
    t->tv_nsec -= 1000000000L;
  }
}

static bool host_exec_ts_before(const struct timespec *a,
                                const struct timespec *b) {
  return a->tv_sec < b->tv_sec ||
         (a->tv_sec == b->tv_sec && a->tv_nsec < b->tv_nsec);
}

/* The plugin's drain hook (plugin.h), run between reads on its own grid
 * of deadlines while the host waits. Inactive when period_s is 0. */
static struct {
  const struct plugin_ops *ops;
  void *inst;
  double period_s;
  struct timespec next;
} host_exec_drain;

static void host_exec_drain_start(const struct plugin_ops *ops, void *inst,
                                  double read_interval_s) {
  memset(&host_exec_drain, 0, sizeof(host_exec_drain));
  if (ops->drain == NULL || ops->drain_interval_ns == NULL)
    return;
  double period = (double)ops->drain_interval_ns(inst) / 1e9;
  if (period <= 0 || (read_interval_s > 0 && period >= read_interval_s))
    return; /* the reads come often enough */
  host_exec_drain.ops = ops;
  host_exec_drain.inst = inst;
  host_exec_drain.period_s = period;
  clock_gettime(CLOCK_MONOTONIC, &host_exec_drain.next);
  host_exec_ts_add(&host_exec_drain.next, period);
}

/* Run the drain if its deadline has passed; the next deadline follows on
 * the grid (missed ones are skipped, not caught up). */
static void host_exec_drain_due(void) {
  if (host_exec_drain.period_s <= 0)
    return;
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  if (host_exec_ts_before(&now, &host_exec_drain.next))
    return;
  host_exec_drain.ops->drain(host_exec_drain.inst);
  do
    host_exec_ts_add(&host_exec_drain.next, host_exec_drain.period_s);
  while (host_exec_ts_before(&host_exec_drain.next, &now));
}

/* The earlier of `deadline` and the next drain. */
static const struct timespec *host_exec_wake(const struct timespec *deadline) {
  if (host_exec_drain.period_s > 0 &&
      host_exec_ts_before(&host_exec_drain.next, deadline))
    return &host_exec_drain.next;
  return deadline;
}

/* Sleep until the CLOCK_MONOTONIC deadline or a stop signal, draining on
 * the way. */
static void host_exec_sleep_until(const struct timespec *deadline) {
  while (!host_exec_stop) {
    const struct timespec *wake = host_exec_wake(deadline);
    int rc = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, wake, NULL);
    if (rc == EINTR)
      continue;
    host_exec_drain_due();
    if (wake == deadline)
      return;
  }
}

/* Milliseconds until the next drain for poll(); -1 without a drain. */
static int host_exec_drain_timeout_ms(void) {
  if (host_exec_drain.period_s <= 0)
    return -1;
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  double left = (double)(host_exec_drain.next.tv_sec - now.tv_sec) +
                (double)(host_exec_drain.next.tv_nsec - now.tv_nsec) / 1e9;
  return left <= 0 ? 0 : (int)(left * 1000.0) + 1;
}

static int host_exec_run_once(const struct plugin_ops *ops, void *inst,
                              struct host_exec_out *out, double window) {
  struct timespec deadline;
  clock_gettime(CLOCK_MONOTONIC, &deadline);
  host_exec_ts_add(&deadline, window);
  if (window > 0)
    host_exec_sleep_until(&deadline);
  if (host_exec_stop)
    return 0;
  return host_exec_batch(ops, inst, out) != 0 ? 1 : 0;
}

static int host_exec_run_execd(const struct plugin_ops *ops, void *inst,
                               struct host_exec_out *out) {
  char buf[4096];
  bool partial = false; /* bytes of an unfinished line were read */
  while (!host_exec_stop) {
    struct pollfd in = {.fd = STDIN_FILENO, .events = POLLIN};
    int ready = poll(&in, 1, host_exec_drain_timeout_ms());
    host_exec_drain_due();
    if (ready == 0 || (ready < 0 && errno == EINTR))
      continue;
    ssize_t n = read(STDIN_FILENO, buf, sizeof(buf));
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0) {
      log_errno(LOG_LEVEL_ERROR, ops->name, "stdin", "read", errno, NULL);
      return 1;
    }
    if (n == 0) { /* Telegraf closed stdin: a last unfinished line counts */
      if (partial)
        host_exec_batch(ops, inst, out);
      return 0;
    }
    /* Lines of any length: only the newlines matter. */
    for (ssize_t i = 0; i < n && !host_exec_stop; i++) {
      partial = buf[i] != '\n';
      if (!partial && host_exec_batch(ops, inst, out) < 0)
        return 1;
    }
  }
  return 0;
}

static int host_exec_run_interval(const struct plugin_ops *ops, void *inst,
                                  struct host_exec_out *out, double interval) {
  struct timespec next, now;
  clock_gettime(CLOCK_MONOTONIC, &next);
  for (;;) {
    /* Absolute deadlines on one grid: no drift however long a read takes;
     * deadlines missed by a slow read are skipped, not caught up. */
    clock_gettime(CLOCK_MONOTONIC, &now);
    do
      host_exec_ts_add(&next, interval);
    while (host_exec_ts_before(&next, &now));
    host_exec_sleep_until(&next);
    if (host_exec_stop)
      return 0;
    if (host_exec_batch(ops, inst, out) < 0)
      return 1;
  }
}

struct host_exec_top {
  const struct plugin_ops *ops;
  void *inst;
  struct host_exec_out *out;
};

static int host_exec_top_read(void *ctx) {
  struct host_exec_top *t = ctx;
  return host_exec_batch(t->ops, t->inst, t->out) < 0 ? -1 : 0;
}

static int host_exec_top_idle(void *ctx) {
  (void)ctx;
  host_exec_drain_due();
  return host_exec_drain_timeout_ms();
}

/* --format=top: one screen after the window (--once), else the live view
 * (top_view.h), both drawing the model that `out` feeds. */
static int host_exec_run_top(const struct plugin_ops *ops, void *inst,
                             struct host_exec_out *out,
                             const struct host_exec_args *args) {
  struct top_model *model = (struct top_model *)out->inner;
  struct top_options o;
  top_options_init(&o);
  o.notice = top_view_notice();
  /* USER: the owner of <ProcRoot>/<pid>, the plugin's ProcRoot if given */
  struct top_view_users users = {.proc_root = "/proc"};
  for (size_t i = 0; i < args->n_items; i++)
    if (strcasecmp(args->items[i].key, "ProcRoot") == 0 &&
        args->items[i].n_values == 1)
      users.proc_root = args->items[i].values[0].string;
  o.user_name = top_view_user;
  o.user_ctx = &users;
  if (args->mode == HOST_EXEC_ONCE) {
    int status = host_exec_run_once(ops, inst, out, args->window_s);
    if (status != 0 || host_exec_stop)
      return status;
    o.cols = 0; /* the terminal's, else $COLUMNS, else 100 */
    o.max_rows = args->rows > 0 ? args->rows : 20;
    return top_view_print(model, &o, stdout);
  }
  struct host_exec_top t = {ops, inst, out};
  struct top_view_host host = {host_exec_top_read, host_exec_top_idle, &t,
                               &host_exec_stop};
  return top_view_run(model, &o, args->interval_s, &host);
}

static int host_exec_run(const struct plugin_ops *ops,
                         const struct host_exec_args *args,
                         struct metric_sink *sink) {
  void *inst = ops->instance_new(ops->name);
  if (inst == NULL) {
    log_errno(LOG_LEVEL_ERROR, ops->name, "instance", "malloc", ENOMEM, NULL);
    return 1;
  }
  int status = 0;
  for (size_t i = 0; i < args->n_items && status == 0; i++)
    if (ops->configure(inst, &args->items[i]) < 0)
      status = 2;
  /* --once reports over its window, the other modes over their interval
   * (execd: Telegraf's, unknown here; the window stands in for it) */
  double interval_s =
      args->mode == HOST_EXEC_INTERVAL ? args->interval_s : args->window_s;
  struct plugin_host host;
  struct plugin_shared shared;
  plugin_shared_init(&shared);
  plugin_host_init(&host, ops->name, (uint64_t)(interval_s * 1e9));
  host.shared = &shared;
  int rc = status == 0 ? ops->init(inst, &host) : 0;
  if (rc < 0) /* -EINVAL from init: the block is wrong for this system */
    status = rc == -EINVAL ? 2 : 1;
  if (status == 0) {
    /* Rates need a previous sample: prime, then report. */
    struct metric_overflow overflow = {0, 0, 0};
    static struct metric_unit_refused refused; /* 1 KiB: not on the stack */
    struct host_exec_out discard = {
        {host_exec_out_begin, host_exec_out_write, host_exec_out_end},
        NULL,
        0,
        ops->name,
        &overflow,
        ops->units,
        &refused};
    struct host_exec_out out = {
        {host_exec_out_begin, host_exec_out_write, host_exec_out_end},
        sink,
        0,
        ops->name,
        &overflow,
        ops->units,
        &refused};
    host_exec_batch(ops, inst, &discard);
    host_exec_drain_start(ops, inst, interval_s);
    if (args->listen != NULL) { /* a first pass soon, then the interval */
      host_exec_run_once(ops, inst, &out, args->window_s);
      status = host_exec_run_interval(ops, inst, &out, args->interval_s);
    } else if (args->format == HOST_EXEC_TOP)
      status = host_exec_run_top(ops, inst, &out, args);
    else if (args->mode == HOST_EXEC_ONCE)
      status = host_exec_run_once(ops, inst, &out, args->window_s);
    else if (args->mode == HOST_EXEC_EXECD)
      status = host_exec_run_execd(ops, inst, &out);
    else
      status = host_exec_run_interval(ops, inst, &out, args->interval_s);
  }
  ops->instance_free(inst); /* restores whatever init changed */
  plugin_shared_fini(&shared);
  return status;
}

/* Make sure fds 0, 1 and 2 are open before anything else is: a closed one
 * would be the number the next open() returns (a device node, an eventfd),
 * and stdin reads or metric writes would then go to that file. A closed
 * stdin or stderr is reopened on /dev/null (stdin then reads as EOF: --execd
 * ends at once, as when Telegraf closes it); a closed stdout is refused,
 * since metrics written to /dev/null would be lost without a word. Returns
 * 0, or 1 after saying why on stderr. */
static int host_exec_stdio(const char *plugin) {
  bool out_closed = false;
  for (int fd = 0; fd <= 2; fd++) {
    if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
      continue;
    out_closed |= fd == STDOUT_FILENO;
    /* the lowest free number: fd itself, the lower ones being open */
    int null = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
    if (null != fd) {
      if (null >= 0)
        close(null);
      return 1; /* nothing sane to say it on */
    }
  }
  if (out_closed) {
    fprintf(stderr,
            "%s: stdout: closed: the metrics would go nowhere (open it on a "
            "pipe or a file)\n",
            plugin);
    return 1;
  }
  return 0;
}

int host_exec_main(const struct plugin_ops *ops, int argc, char **argv) {
  if (host_exec_stdio(ops->name) != 0)
    return 1;
  struct host_exec_args args;
  if (host_exec_parse_args(argc, argv, &args) < 0) {
    fprintf(stderr, "%s: usage: %s (see %s --help)\n", ops->name, args.error,
            ops->name);
    return 2;
  }
  if (args.help || args.version) {
    if (args.help)
      host_exec_help(ops);
    else
      printf("%s %s\n", ops->name, HOST_EXEC_VERSION);
    host_exec_args_fini(&args);
    return fflush(stdout) == 0 ? 0 : 1;
  }
  /* A person at a terminal who chose neither a format nor a mode gets the
   * live view; pipes (Telegraf, scripts, the tests) keep Influx. */
  if (!args.format_given && !args.mode_given && isatty(STDOUT_FILENO) &&
      isatty(STDIN_FILENO)) {
    args.format = HOST_EXEC_TOP;
    args.mode = HOST_EXEC_INTERVAL;
    args.interval_s = 1.0;
  }
  host_exec_telegraf = args.mode == HOST_EXEC_EXECD;
  log_set_sink(host_exec_log, args.log_level);
  host_exec_signals();

  struct prom_http http = {0};
  if (args.listen != NULL) {
    char err[256];
    /* values older than 3 reads are answered with 503 (prom_http.h) */
    struct prom_http_config web = {args.web_config, 3 * args.interval_s};
    int rc = prom_http_start_with(&http, ops->name, args.listen, &web, err,
                                  sizeof(err));
    if (rc < 0) {
      log_msg(LOG_LEVEL_ERROR, ops->name, "listen", NULL, "%s", err);
      host_exec_args_fini(&args);
      log_set_sink(NULL, LOG_LEVEL_INFO);
      return rc == -EINVAL ? 2 : 1;
    }
  }
  struct prom_http_sink prom;
  prom_http_sink_init(&prom, ops->name, args.listen ? NULL : stdout,
                      args.listen ? &http : NULL);
  sink_prom_set_units(&prom.prom, ops->units); /* its own field types */
  struct sink_line lines;
  struct sink_table table;
  sink_line_init(&lines, stdout,
                 args.format == HOST_EXEC_JSON ? sink_json_format
                                               : sink_influx_format);
  if (args.format == HOST_EXEC_JSON && args.mode != HOST_EXEC_EXECD)
    sink_line_array(&lines); /* inputs.exec parses stdout as one document */
  sink_table_init(&table, stdout);
  struct top_model top;
  top_model_init(&top);
  int status = host_exec_run(ops, &args,
                             args.format == HOST_EXEC_TABLE        ? &table.base
                             : args.format == HOST_EXEC_PROMETHEUS ? &prom.base
                             : args.format == HOST_EXEC_TOP        ? &top.base
                                                            : &lines.base);
  top_model_fini(&top);
  prom_http_stop(&http);
  prom_http_sink_fini(&prom);
  sink_table_fini(&table);
  sink_line_fini(&lines);
  host_exec_args_fini(&args);
  log_set_sink(NULL, LOG_LEVEL_INFO);
  return status;
}
