/*
 * exec_args.c: the executables' command line (host_exec.h): our flags from
 * one table, the rest plugin keys, flat (--Key=v, a single plugin) or
 * prefixed by the plugin's name (--NAME.Key=v, gpu-telemetry).
 */
#include "common/core/numfmt.h"
#include "common/core/text.h"
#include "common/exec/host_exec.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum exec_flag_id {
  EXEC_FLAG_HELP,
  EXEC_FLAG_ONCE,
  EXEC_FLAG_EXECD,
  EXEC_FLAG_INTERVAL,
  EXEC_FLAG_WINDOW,
  EXEC_FLAG_FORMAT,
  EXEC_FLAG_LOG_LEVEL,
  EXEC_FLAG_VERSION,
  EXEC_FLAG_LISTEN,
  EXEC_FLAG_ROWS,
  EXEC_FLAG_WEB_CONFIG,
  EXEC_FLAG_PLUGIN,
  EXEC_FLAG_NO_PLUGIN,
  EXEC_FLAG_CONFIG,
};

struct exec_flag {
  const char *name;
  enum exec_flag_id id;
  bool value;      /* takes =<value> */
  bool mode;       /* one of --once, --execd, --interval */
  bool any_case;   /* also spelled as the collectd key (Interval) */
  bool multi_only; /* gpu-telemetry's: a single plugin's key otherwise */
};

static const struct exec_flag exec_flags[] = {
    {"help", EXEC_FLAG_HELP, false, false, false, false},
    {"once", EXEC_FLAG_ONCE, false, true, false, false},
    {"execd", EXEC_FLAG_EXECD, false, true, false, false},
    {"interval", EXEC_FLAG_INTERVAL, true, true, true, false},
    {"window", EXEC_FLAG_WINDOW, true, false, false, false},
    {"format", EXEC_FLAG_FORMAT, true, false, false, false},
    {"log-level", EXEC_FLAG_LOG_LEVEL, true, false, false, false},
    {"version", EXEC_FLAG_VERSION, false, false, false, false},
    {"listen", EXEC_FLAG_LISTEN, true, false, false, false},
    {"rows", EXEC_FLAG_ROWS, true, false, false, false},
    {"web-config", EXEC_FLAG_WEB_CONFIG, true, false, false, false},
    {"plugin", EXEC_FLAG_PLUGIN, true, false, false, true},
    {"no-plugin", EXEC_FLAG_NO_PLUGIN, true, false, false, true},
    {"config", EXEC_FLAG_CONFIG, true, false, false, true},
};
#define EXEC_N_FLAGS (sizeof(exec_flags) / sizeof(exec_flags[0]))

static const char *const exec_formats[] = {
    [HOST_EXEC_INFLUX] = "influx", [HOST_EXEC_JSON] = "json",
    [HOST_EXEC_TABLE] = "table",   [HOST_EXEC_PROMETHEUS] = "prometheus",
    [HOST_EXEC_TOP] = "top",
};
#define EXEC_N_FORMATS (sizeof(exec_formats) / sizeof(exec_formats[0]))

static const struct {
  const char *name;
  enum log_level level;
} exec_levels[] = {{"error", LOG_LEVEL_ERROR},
                   {"warning", LOG_LEVEL_WARNING},
                   {"notice", LOG_LEVEL_NOTICE},
                   {"info", LOG_LEVEL_INFO},
                   {"debug", LOG_LEVEL_DEBUG}};
#define EXEC_N_LEVELS (sizeof(exec_levels) / sizeof(exec_levels[0]))

static int exec_fail(struct host_exec_args *a, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Record why the command line is wrong; returns -EINVAL. */
static int exec_fail(struct host_exec_args *a, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(a->error, sizeof(a->error), fmt, ap);
  va_end(ap);
  return -EINVAL;
}

/* An argument as it may be quoted in a message: at most 64 bytes, control
 * and escape bytes replaced (text.h), so a usage error cannot drive the
 * terminal. */
static const char *exec_quote(char out[128], const char *arg) {
  size_t len = strnlen(arg, 64);
  text_sanitize(out, 128, arg, len);
  return out;
}

/* Seconds for --interval (at least HOST_EXEC_MIN_SECONDS) or --window (0
 * allowed). */
static int exec_seconds(struct host_exec_args *a, const char *flag,
                        const char *text, bool zero_ok, double *out) {
  double v;
  char q[128];
  if (cfg_parse_double(text, &v) == 0 && v <= HOST_EXEC_MAX_SECONDS &&
      (zero_ok ? v >= 0 : v >= HOST_EXEC_MIN_SECONDS)) {
    *out = v;
    return 0;
  }
  if (zero_ok)
    return exec_fail(a,
                     "%s: expected a number of seconds >= 0 and at most %g, "
                     "got \"%s\"",
                     flag, HOST_EXEC_MAX_SECONDS, exec_quote(q, text));
  /* numfmt, not %g: the locale may print "0,001" */
  char min[NUMFMT_DOUBLE_MAX];
  numfmt_double(HOST_EXEC_MIN_SECONDS, min, sizeof(min));
  return exec_fail(a,
                   "%s: expected a number of seconds from %s to %g, got "
                   "\"%s\"",
                   flag, min, HOST_EXEC_MAX_SECONDS, exec_quote(q, text));
}

/* Append an item named key[0..key_len) with `value` (NULL: no value) to
 * the list. Returns the new item or NULL on ENOMEM (the list unchanged). */
static struct cfg_item *exec_append(struct cfg_item **list, size_t *n,
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

int host_exec_add_item(struct cfg_item **list, size_t *n, const char *key,
                       size_t key_len, const char *value, char *error,
                       size_t error_size, const char *arg) {
  const char *dot = memchr(key, '.', key_len);
  size_t head_len = dot ? (size_t)(dot - key) : key_len;
  if (head_len == 0 || (dot != NULL && head_len + 1 == key_len)) {
    char q[128];
    snprintf(error, error_size, "empty option name in \"%s\"",
             exec_quote(q, arg));
    return -EINVAL;
  }
  if (dot == NULL)
    return exec_append(list, n, key, key_len, value) ? 0 : -ENOMEM;
  struct cfg_item *parent = NULL;
  for (size_t i = *n; i-- > 0 && parent == NULL;)
    if (strlen((*list)[i].key) == head_len &&
        strncasecmp((*list)[i].key, key, head_len) == 0)
      parent = &(*list)[i];
  if (parent == NULL &&
      (parent = exec_append(list, n, key, head_len, NULL)) == NULL)
    return -ENOMEM;
  return host_exec_add_item(
      (struct cfg_item **)&parent->children, &parent->n_children, dot + 1,
      key_len - head_len - 1, value, error, error_size, arg);
}

void host_exec_args_fini(struct host_exec_args *a) {
  cfg_items_free(a->items, a->n_items);
  a->items = NULL;
  a->n_items = 0;
  for (size_t p = 0; p < a->n_plugins; p++)
    cfg_items_free(a->plugins[p].items, a->plugins[p].n_items);
  free(a->plugins);
  a->plugins = NULL;
  a->n_plugins = 0;
  free(a->configs);
  a->configs = NULL;
  a->n_configs = 0;
}

/* The plugin of the table named name[0..len), any case; NULL if none. */
static struct host_exec_plugin_args *exec_plugin(struct host_exec_args *a,
                                                 const char *name, size_t len) {
  for (size_t p = 0; p < a->n_plugins; p++)
    if (strlen(a->plugins[p].ops->name) == len &&
        strncasecmp(a->plugins[p].ops->name, name, len) == 0)
      return &a->plugins[p];
  return NULL;
}

/* "a, b or c" of the table's names, for messages. */
static const char *exec_plugin_names(const struct host_exec_args *a, char *out,
                                     size_t size) {
  size_t len = 0;
  out[0] = '\0';
  for (size_t p = 0; p < a->n_plugins && len < size; p++)
    len += (size_t)snprintf(out + len, size - len, "%s%s",
                            p == 0                  ? ""
                            : p + 1 == a->n_plugins ? " or "
                                                    : ", ",
                            a->plugins[p].ops->name);
  return out;
}

/* The flag of ours named name[0..len), or NULL. */
static const struct exec_flag *exec_flag_find(const struct host_exec_args *a,
                                              const char *name, size_t len) {
  for (size_t k = 0; k < EXEC_N_FLAGS; k++) {
    const struct exec_flag *c = &exec_flags[k];
    if (strlen(c->name) == len && (!c->multi_only || a->n_plugins > 0) &&
        (c->any_case ? !strncasecmp(c->name, name, len)
                     : !strncmp(c->name, name, len)))
      return c;
  }
  return NULL;
}

/* --plugin=a,b and --no-plugin=a,b: mark each named plugin. */
static int exec_plugin_list(struct host_exec_args *a, const char *flag,
                            const char *value, bool exclude) {
  char q[128], names[256];
  const char *p = value;
  do {
    const char *comma = strchr(p, ',');
    size_t len = comma ? (size_t)(comma - p) : strlen(p);
    struct host_exec_plugin_args *pl = exec_plugin(a, p, len);
    if (pl == NULL)
      return exec_fail(a, "%s: expected %s, got \"%s\"", flag,
                       exec_plugin_names(a, names, sizeof(names)),
                       exec_quote(q, len ? p : value));
    if (exclude)
      pl->excluded = true;
    else
      pl->chosen = a->plugins_chosen = true;
    p = comma ? comma + 1 : NULL;
  } while (p != NULL);
  return 0;
}

/* --listen=PORT is --listen=:PORT, as node_exporter's
 * --web.listen-address=:9100 (every address); anything else as given. */
static void exec_listen(struct host_exec_args *a, const char *value) {
  size_t digits = strspn(value, "0123456789");
  a->listen = value;
  if (digits > 0 && value[digits] == '\0' &&
      digits + 2 <= sizeof(a->listen_port)) {
    snprintf(a->listen_port, sizeof(a->listen_port), ":%s", value);
    a->listen = a->listen_port;
  }
}

/* One of our own flags; 1 when `name` is not ours. */
static int exec_flag(struct host_exec_args *a, const char *name, size_t len,
                     const char *value, const char *arg, bool *mode_set) {
  const struct exec_flag *f = exec_flag_find(a, name, len);
  if (f == NULL)
    return 1;
  char q[128];
  if (f->value && value == NULL)
    return exec_fail(a, "%s needs a value: --%s=<value> or --%s <value>",
                     exec_quote(q, arg), f->name, f->name);
  if (!f->value && value != NULL)
    return exec_fail(a, "\"%s\": this flag takes no value", exec_quote(q, arg));
  if (f->mode && *mode_set)
    return exec_fail(a, "\"%s\": choose one of --once, --execd and --interval",
                     exec_quote(q, arg));
  *mode_set |= f->mode;
  a->mode_given |= f->mode;
  switch (f->id) {
  case EXEC_FLAG_HELP:
    a->help = true;
    return 0;
  case EXEC_FLAG_VERSION:
    a->version = true;
    return 0;
  case EXEC_FLAG_ONCE:
    a->mode = HOST_EXEC_ONCE;
    return 0;
  case EXEC_FLAG_EXECD:
    a->mode = HOST_EXEC_EXECD;
    return 0;
  case EXEC_FLAG_INTERVAL:
    a->mode = HOST_EXEC_INTERVAL;
    return exec_seconds(a, "--interval", value, /*zero_ok=*/false,
                        &a->interval_s);
  case EXEC_FLAG_WINDOW:
    a->window_given = true;
    return exec_seconds(a, "--window", value, /*zero_ok=*/true, &a->window_s);
  case EXEC_FLAG_FORMAT:
    a->format_given = true;
    for (size_t k = 0; k < EXEC_N_FORMATS; k++)
      if (strcmp(value, exec_formats[k]) == 0) {
        a->format = (enum host_exec_format)k;
        return 0;
      }
    return exec_fail(a,
                     "--format: expected json, influx, table, prometheus or "
                     "top, got \"%s\"",
                     exec_quote(q, value));
  case EXEC_FLAG_LOG_LEVEL:
    for (size_t k = 0; k < EXEC_N_LEVELS; k++)
      if (strcmp(value, exec_levels[k].name) == 0) {
        a->log_level = exec_levels[k].level;
        return 0;
      }
    return exec_fail(a,
                     "--log-level: expected error, warning, notice, info or "
                     "debug, "
                     "got \"%s\"",
                     exec_quote(q, value));
  case EXEC_FLAG_LISTEN:
    exec_listen(a, value);
    return 0;
  case EXEC_FLAG_ROWS: {
    char *end;
    errno = 0;
    long n = strtol(value, &end, 10);
    if (errno != 0 || end == value || *end != '\0' || n < 1 || n > 100000)
      return exec_fail(a,
                       "--rows: expected a number of rows from 1 to 100000, "
                       "got \"%s\"",
                       exec_quote(q, value));
    a->rows = (int)n;
    return 0;
  }
  case EXEC_FLAG_PLUGIN:
    return exec_plugin_list(a, "--plugin", value, /*exclude=*/false);
  case EXEC_FLAG_NO_PLUGIN:
    return exec_plugin_list(a, "--no-plugin", value, /*exclude=*/true);
  case EXEC_FLAG_CONFIG: {
    const char **grown =
        realloc(a->configs, (a->n_configs + 1) * sizeof(*a->configs));
    if (grown == NULL)
      return -ENOMEM;
    a->configs = grown;
    a->configs[a->n_configs++] = value;
    return 0;
  }
  case EXEC_FLAG_WEB_CONFIG:
    a->web_config = value;
    return 0;
  }
  return 1;
}

/* Edit distance of a[0..la) and b, any case (Levenshtein; names are
 * short: at most 64 bytes compared). */
static size_t exec_distance(const char *a, size_t la, const char *b) {
  size_t lb = strlen(b);
  if (la > 64 || lb > 64)
    return SIZE_MAX;
  size_t row[65];
  for (size_t j = 0; j <= lb; j++)
    row[j] = j;
  for (size_t i = 1; i <= la; i++) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= lb; j++) {
      size_t up = row[j];
      bool same =
          tolower((unsigned char)a[i - 1]) == tolower((unsigned char)b[j - 1]);
      size_t best = diag + (same ? 0 : 1);
      if (up + 1 < best)
        best = up + 1;
      if (row[j - 1] + 1 < best)
        best = row[j - 1] + 1;
      row[j] = best;
      diag = up;
    }
  }
  return row[lb];
}

/* The known name closest to name[0..len) ("listen", "drm_fdinfo.ProcRoot"),
 * or NULL when none is close: our flags, the plugin's keys (one plugin's
 * executable), and for gpu-telemetry a plugin's key given without its
 * plugin (written into `buf`). */
static const char *exec_closest(const struct host_exec_args *a,
                                const char *name, size_t len, char *buf,
                                size_t size) {
  const char *best = NULL;
  size_t best_d = len / 3 > 2 ? len / 3 : 2; /* farther is no typo */
  for (size_t k = 0; k < EXEC_N_FLAGS; k++) {
    const struct exec_flag *f = &exec_flags[k];
    size_t d = exec_distance(name, len, f->name);
    if ((!f->multi_only || a->n_plugins > 0) && d <= best_d) {
      best = f->name;
      best_d = d;
    }
  }
  if (a->options != NULL)
    for (const struct cfg_option *o = a->options; o->key != NULL; o++) {
      size_t d = exec_distance(name, len, o->key);
      if (d < best_d || (best == NULL && d <= best_d)) {
        best = o->key;
        best_d = d;
      }
    }
  for (size_t p = 0; p < a->n_plugins && best_d > 0; p++) {
    const struct cfg_option *o = a->plugins[p].ops->options;
    for (; o != NULL && o->key != NULL; o++)
      if (strlen(o->key) == len && strncasecmp(o->key, name, len) == 0) {
        snprintf(buf, size, "%s.%s", a->plugins[p].ops->name, o->key);
        return buf;
      }
  }
  return best;
}

/* An unknown --name: said with the closest known name, else `hint`. */
static int exec_unknown(struct host_exec_args *a, const char *name, size_t len,
                        const char *hint) {
  char q[128], buf[160];
  char *flag = strndup(name, len < 64 ? len : 64);
  if (flag == NULL)
    return -ENOMEM;
  const char *near = exec_closest(a, name, len, buf, sizeof(buf));
  /* a plugin's key without its plugin: say the spelling too */
  bool keyed = near != NULL && strchr(near, '.') != NULL;
  int rc = near != NULL
               ? exec_fail(a, "unknown flag \"--%s\"; did you mean --%s?%s%s",
                           exec_quote(q, flag), near, keyed ? " " : "",
                           keyed ? hint : "")
               : exec_fail(a, "unknown flag \"--%s\"; %s", exec_quote(q, flag),
                           hint);
  free(flag);
  return rc;
}

/* One plugin's executable: name[0..len) (up to a '.') is one of its keys;
 * all are when its key list is not known. */
static bool exec_is_key(const struct host_exec_args *a, const char *name,
                        size_t len) {
  if (a->options == NULL)
    return true;
  const char *dot = memchr(name, '.', len);
  size_t head = dot ? (size_t)(dot - name) : len;
  for (const struct cfg_option *o = a->options; o->key != NULL; o++)
    if (strlen(o->key) == head && strncasecmp(o->key, name, head) == 0)
      return true;
  return false;
}

/* gpu-telemetry: the plugin of --NAME.Key, or NULL. */
static struct host_exec_plugin_args *
exec_key_plugin(struct host_exec_args *a, const char *name, size_t len) {
  const char *dot = memchr(name, '.', len);
  return dot ? exec_plugin(a, name, (size_t)(dot - name)) : NULL;
}

/* A plugin key: --Key=v (one plugin) or --NAME.Key=v (the table); the
 * value may be the next argument (exec_parse). */
static int exec_key(struct host_exec_args *a, const char *name, size_t len,
                    const char *value, const char *arg) {
  char q[128];
  if (a->n_plugins == 0) {
    char buf[160];
    /* --Key=v of a key the plugin does not know goes to the plugin,
     * which names it (unknown option), unless it is a flag mistyped */
    if (!exec_is_key(a, name, len) &&
        (value == NULL || exec_closest(a, name, len, buf, sizeof(buf))))
      return exec_unknown(a, name, len, "see --help");
    if (value == NULL)
      return exec_fail(a,
                       "\"%s\": plugin options need a value: --Key=<value> "
                       "or --Key <value>",
                       exec_quote(q, arg));
    return host_exec_add_item(&a->items, &a->n_items, name, len, value,
                              a->error, sizeof(a->error), arg);
  }
  struct host_exec_plugin_args *p = exec_key_plugin(a, name, len);
  if (p == NULL) {
    char names[256], hint[400];
    snprintf(hint, sizeof(hint),
             "a plugin's option is --<plugin>.<Key>=<value>, <plugin> one of "
             "%s",
             exec_plugin_names(a, names, sizeof(names)));
    return exec_unknown(a, name, len, hint);
  }
  if (value == NULL)
    return exec_fail(a,
                     "\"%s\": plugin options need a value: "
                     "--<plugin>.<Key>=<value> or --<plugin>.<Key> <value>",
                     exec_quote(q, arg));
  p->keyed = true;
  const char *dot = memchr(name, '.', len);
  return host_exec_add_item(&p->items, &p->n_items, dot + 1,
                            len - (size_t)(dot + 1 - name), value, a->error,
                            sizeof(a->error), arg);
}

/* --name without '=': whether the next argument is its value (GNU's
 * --flag value): a flag or key that takes one, and a next argument that
 * is not itself a --flag. */
static bool exec_takes_next(struct host_exec_args *a, const char *name,
                            size_t len, const char *next) {
  if (next == NULL || strncmp(next, "--", 2) == 0)
    return false;
  const struct exec_flag *f = exec_flag_find(a, name, len);
  if (f != NULL)
    return f->value;
  if (a->n_plugins == 0)
    return exec_is_key(a, name, len);
  return exec_key_plugin(a, name, len) != NULL;
}

static int exec_parse(int argc, char **argv, struct host_exec_args *a) {
  bool mode_set = false;
  int rc = 0;
  for (int i = 1; i < argc && rc == 0; i++) {
    const char *arg = argv[i];
    char q[128];
    if (strcmp(arg, "-h") == 0) {
      a->help = true;
      continue;
    }
    if (strncmp(arg, "--", 2) != 0 || arg[2] == '\0' || arg[2] == '=') {
      rc = exec_fail(a, "unexpected argument \"%s\"", exec_quote(q, arg));
      break;
    }
    const char *name = arg + 2;
    const char *eq = strchr(name, '=');
    size_t len = eq ? (size_t)(eq - name) : strlen(name);
    const char *value = eq ? eq + 1 : NULL;
    if (value == NULL &&
        exec_takes_next(a, name, len, i + 1 < argc ? argv[i + 1] : NULL))
      value = argv[++i];
    rc = exec_flag(a, name, len, value, arg, &mode_set);
    if (rc == 1)
      rc = exec_key(a, name, len, value, arg);
  }
  if (rc == 0 && a->listen != NULL) {
    /* a server reads on its own interval, and speaks Prometheus only */
    if (mode_set && a->mode != HOST_EXEC_INTERVAL)
      rc = exec_fail(a, "--listen reads every --interval: not with --once or "
                        "--execd");
    else if (a->format_given && a->format != HOST_EXEC_PROMETHEUS)
      rc = exec_fail(a, "--listen serves --format=prometheus only");
    else if (!mode_set)
      a->interval_s = HOST_EXEC_LISTEN_INTERVAL;
    a->mode = HOST_EXEC_INTERVAL;
    a->format = HOST_EXEC_PROMETHEUS;
  }
  if (rc == 0 && a->web_config != NULL && a->listen == NULL)
    rc = exec_fail(a, "--web-config: only with --listen");
  if (rc == 0 && a->format == HOST_EXEC_TOP && a->mode == HOST_EXEC_EXECD)
    rc = exec_fail(a, "--format=top: a view for people, not for --execd "
                      "(choose --once or --interval)");
  if (rc == 0 && a->rows > 0 && a->format != HOST_EXEC_TOP)
    rc = exec_fail(a, "--rows: only with --format=top");
  if (rc == 0 && a->format == HOST_EXEC_TOP && !a->mode_given) {
    a->mode = HOST_EXEC_INTERVAL; /* the live view */
    a->interval_s = 1.0;
  }
  for (size_t c = 0; c < a->n_configs && rc == 0; c++)
    if (a->mode == HOST_EXEC_EXECD && strcmp(a->configs[c], "-") == 0)
      rc = exec_fail(a, "--config=-: standard input is --execd's (one line per "
                        "batch): give the configuration as a file");
  for (size_t p = 0; p < a->n_plugins && rc == 0; p++)
    if (a->plugins[p].chosen && a->plugins[p].excluded)
      rc = exec_fail(a, "%s: both in --plugin and --no-plugin",
                     a->plugins[p].ops->name);
  return rc;
}

static void exec_defaults(struct host_exec_args *a) {
  memset(a, 0, sizeof(*a));
  a->format = HOST_EXEC_INFLUX;
  a->mode = HOST_EXEC_ONCE;
  a->window_s = 1.0;
  a->log_level = LOG_LEVEL_WARNING;
}

static int exec_done(struct host_exec_args *a, int rc) {
  if (rc == -ENOMEM)
    snprintf(a->error, sizeof(a->error), "out of memory");
  if (rc < 0)
    host_exec_args_fini(a);
  return rc;
}

int host_exec_parse_args(int argc, char **argv, struct host_exec_args *a) {
  return host_exec_parse_args_for(NULL, argc, argv, a);
}

int host_exec_parse_args_for(const struct plugin_ops *ops, int argc,
                             char **argv, struct host_exec_args *a) {
  exec_defaults(a);
  a->options = ops != NULL ? ops->options : NULL;
  return exec_done(a, exec_parse(argc, argv, a));
}

int host_exec_parse_args_multi(int argc, char **argv,
                               const struct plugin_ops *const *table,
                               size_t n_table, struct host_exec_args *a) {
  exec_defaults(a);
  /* gpu-telemetry says what each plugin found (notice), as node_exporter
   * lists its collectors at start */
  a->log_level = LOG_LEVEL_NOTICE;
  a->plugins = calloc(n_table, sizeof(*a->plugins));
  if (a->plugins == NULL)
    return exec_done(a, -ENOMEM);
  a->n_plugins = n_table;
  for (size_t p = 0; p < n_table; p++)
    a->plugins[p].ops = table[p];
  return exec_done(a, exec_parse(argc, argv, a));
}
