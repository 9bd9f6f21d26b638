/*
 * exec_setup.c: the executables' instances, from the command line and a
 * collectd-syntax --config file (see exec_host.h).
 *
 * The blocks follow the collectd host (host_collectd.c): each <Instance
 * "label"> block of <Plugin NAME> is one instance with its own Interval;
 * keys directly in <Plugin NAME> form one instance named NAME; a plugin
 * loaded without keys runs one instance with its defaults. Keys given on
 * the command line are added to every block of their plugin, after the
 * file's (a later key overrides an earlier one where the plugin keeps one
 * value). Unlike collectd, any block that is wrong stops the start (exit
 * 2): a command-line tool says so rather than run half a configuration.
 * The --config sources (files, directories, globs, pipes, Include) are
 * read by exec_conf.c, in order, as one configuration; as in collectd, a
 * plugin's blocks may be spread over several files, but one instance
 * label given twice is an error naming both places (file:line).
 */
#include "common/core/log.h"
#include "common/core/text.h"
#include "common/exec/exec_conf.h"
#include "common/exec/exec_host.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* One instance to create. */
struct exec_block {
  size_t plugin;                 /* index in the table */
  const char *label;             /* borrowed */
  size_t item;                   /* its <Plugin> in the --config, or
                                  * SIZE_MAX: none (defaults, command line) */
  unsigned line;                 /* of its <Instance> (0: of the <Plugin>) */
  const struct cfg_item **items; /* owned array of borrowed items */
  size_t n_items;
};

struct exec_plan {
  struct exec_block *blocks;
  size_t n_blocks;
  /* per plugin of the table */
  bool *run;          /* started */
  bool *explicit_;    /* asked for: its failure is an error */
  double *interval_s; /* <LoadPlugin> Interval, 0: none */
  size_t **conf;      /* its <Plugin> blocks (items of `ec`) */
  size_t *n_conf;
  double global_interval_s;   /* the file's Interval, 0: none */
  const struct exec_conf *ec; /* the --config sources read */
};

static void exec_plan_fini(struct exec_plan *p, size_t n_table) {
  for (size_t b = 0; b < p->n_blocks; b++)
    free(p->blocks[b].items);
  free(p->blocks);
  free(p->run);
  free(p->explicit_);
  free(p->interval_s);
  if (p->conf != NULL)
    for (size_t k = 0; k < n_table; k++)
      free(p->conf[k]);
  free(p->conf);
  free(p->n_conf);
}

static long exec_find(const struct plugin_ops *const *table, size_t n,
                      const char *name) {
  for (size_t k = 0; k < n; k++)
    if (strcasecmp(table[k]->name, name) == 0)
      return (long)k;
  return -1;
}

/* One string value, or NULL. */
static const char *exec_one_string(const struct cfg_item *it) {
  return it->n_values == 1 && it->values[0].type == CFG_STRING
             ? it->values[0].string
             : NULL;
}

/* An Interval item: seconds in [HOST_EXEC_MIN_SECONDS, MAX]; 0 or 2. */
static int exec_interval(const char *who, const struct cfg_item *it,
                         double *out) {
  double v;
  if (cfg_get_double(who, it, HOST_EXEC_MIN_SECONDS, HOST_EXEC_MAX_SECONDS,
                     &v) < 0)
    return 2;
  *out = v;
  return 0;
}

/* Add `name` to the list of collectd plugins skipped (once each). */
static int exec_skip(char ***skipped, size_t *n, const char *name) {
  for (size_t i = 0; i < *n; i++)
    if (strcasecmp((*skipped)[i], name) == 0)
      return 0;
  char **grown = realloc(*skipped, (*n + 1) * sizeof(**skipped));
  if (grown == NULL)
    return 1;
  *skipped = grown;
  if ((grown[*n] = strdup(name)) == NULL)
    return 1;
  (*n)++;
  return 0;
}

/* Say once which of the configuration's plugins are not ours (a whole
 * collectd.conf loads cpu, df, rrdtool ...), and free the list. */
static void exec_say_skipped(const struct exec_host *x, char **skipped,
                             size_t n) {
  char list[600];
  size_t len = 0;
  list[0] = '\0';
  for (size_t i = 0; i < n; i++) {
    if (len < sizeof(list))
      len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s",
                              i ? ", " : "", skipped[i]);
    free(skipped[i]);
  }
  free(skipped);
  if (len >= sizeof(list)) /* cut: say the list goes on */
    memcpy(list + sizeof(list) - 4, "...", 3);
  if (n > 0)
    log_msg(LOG_LEVEL_NOTICE, x->program, "--config", NULL,
            "%zu collectd plugin%s not of %s, skipped: %s", n,
            n == 1 ? "" : "s", x->program, list);
}

/* The top level of the configuration: LoadPlugin, <LoadPlugin>, <Plugin>,
 * Interval; collectd's other settings are the daemon's and ignored. */
static int exec_conf_top(struct exec_host *x,
                         const struct plugin_ops *const *table, size_t n_table,
                         struct exec_plan *p) {
  const struct exec_conf *ec = p->ec;
  char **skipped = NULL;
  size_t n_skipped = 0;
  int rc = 0;
  for (size_t i = 0; i < ec->n_items && rc == 0; i++) {
    const struct cfg_item *it = &ec->items[i];
    const char *name = exec_one_string(it);
    char where[1100];
    exec_conf_where(ec, i, 0, where, sizeof(where));
    if (cfg_key_is(it, "Interval")) {
      if (exec_interval(x->program, it, &p->global_interval_s) != 0)
        rc = 2;
      continue;
    }
    bool load = cfg_key_is(it, "LoadPlugin"), block = cfg_key_is(it, "Plugin");
    if (!load && !block) {
      log_msg(LOG_LEVEL_INFO, x->program, where, it->key,
              "a collectd daemon setting: ignored");
      continue;
    }
    if (name == NULL) {
      log_msg(LOG_LEVEL_ERROR, x->program, where, it->key,
              "expected one plugin name");
      rc = 2;
      continue;
    }
    long k = exec_find(table, n_table, name);
    if (k < 0) {
      rc = exec_skip(&skipped, &n_skipped, name);
      continue;
    }
    if (load) {
      p->run[k] = p->explicit_[k] = true;
      for (size_t c = 0; c < it->n_children && rc == 0; c++) /* <LoadPlugin> */
        if (cfg_key_is(&it->children[c], "Interval")) {
          if (exec_interval(table[k]->name, &it->children[c],
                            &p->interval_s[k]) != 0)
            rc = 2;
        } else
          log_msg(LOG_LEVEL_INFO, x->program, where, it->children[c].key,
                  "<LoadPlugin %s>: a collectd daemon setting: ignored",
                  table[k]->name);
      continue;
    }
    size_t *grown = cfg_array_grow(p->conf[k], p->n_conf[k], sizeof(*grown));
    if (grown == NULL) {
      rc = 1;
      continue;
    }
    grown[p->n_conf[k]++] = i;
    p->conf[k] = grown;
  }
  exec_say_skipped(x, skipped, n_skipped);
  for (size_t k = 0; k < n_table && rc == 0; k++)
    if (p->n_conf[k] > 0 && !p->run[k]) {
      char where[1100];
      log_msg(LOG_LEVEL_WARNING, x->program,
              exec_conf_where(ec, p->conf[k][0], 0, where, sizeof(where)),
              "Plugin",
              "<Plugin %s> without LoadPlugin %s: ignored, as collectd does",
              table[k]->name, table[k]->name);
    }
  return rc;
}

/* The label of block `b` given again at `item`/`line`: say where both
 * are (file:line), or where the second is when one is not from a file. */
static void exec_say_twice(const struct exec_plan *p, const char *plugin,
                           const struct exec_block *b, size_t item,
                           unsigned line) {
  char first[1100] = "the command line", second[1100] = "the command line";
  if (b->item != SIZE_MAX)
    exec_conf_where(p->ec, b->item, b->line, first, sizeof(first));
  if (item != SIZE_MAX)
    exec_conf_where(p->ec, item, line, second, sizeof(second));
  log_msg(LOG_LEVEL_ERROR, plugin, second, "Instance",
          "\"%s\" is configured again (first at %s): one block per "
          "instance label",
          b->label, first);
}

/* Append a block of plugin `k` labelled `label` with `base` (n_base) and
 * the command line's items of the plugin (its label is checked once all
 * are known: exec_check_labels). */
static int exec_add_block(struct exec_host *x, struct exec_plan *p, size_t k,
                          const char *label, size_t item, unsigned line,
                          const struct cfg_item *base, size_t n_base,
                          const struct cfg_item *const *more, size_t n_more) {
  const struct cfg_item *cli =
      x->multi ? x->args->plugins[k].items : x->args->items;
  size_t n_cli = x->multi ? x->args->plugins[k].n_items : x->args->n_items;
  struct exec_block *grown =
      cfg_array_grow(p->blocks, p->n_blocks, sizeof(*grown));
  if (grown == NULL)
    return 1;
  p->blocks = grown;
  struct exec_block *b = &grown[p->n_blocks];
  b->plugin = k;
  b->label = label;
  b->item = item;
  b->line = line;
  b->n_items = 0;
  b->items = malloc((n_base + n_more + n_cli + 1) * sizeof(*b->items));
  if (b->items == NULL)
    return 1;
  p->n_blocks++;
  for (size_t i = 0; i < n_base; i++)
    b->items[b->n_items++] = &base[i];
  for (size_t i = 0; i < n_more; i++)
    b->items[b->n_items++] = more[i];
  for (size_t i = 0; i < n_cli; i++)
    b->items[b->n_items++] = &cli[i];
  return 0;
}

/* One block's label as the collector gauges show it (exec_prom_label),
 * for sorting. */
struct exec_label_key {
  size_t plugin;
  size_t block;
  char shown[EXEC_PROM_LABEL_MAX];
};

static int exec_label_cmp(const void *a, const void *b) {
  const struct exec_label_key *x = a, *y = b;
  if (x->plugin != y->plugin)
    return x->plugin < y->plugin ? -1 : 1;
  int c = strcmp(x->shown, y->shown);
  if (c != 0)
    return c;
  return x->block < y->block ? -1 : x->block > y->block;
}

/* `label` for a message: each byte of a character that may not be
 * printed (text_char) as \xNN, cut with "..." past `size`. */
static const char *exec_label_quoted(const char *label, char *out,
                                     size_t size) {
  size_t o = 0, left = strlen(label);
  for (const char *c = label; left > 0;) {
    bool ok;
    size_t n = text_char(c, left, &ok);
    size_t need = ok ? n : 4 * n;
    if (o + need + 4 > size) {
      memcpy(out + o, "...", 4);
      return out;
    }
    for (size_t i = 0; i < n; i++) {
      if (ok)
        out[o++] = c[i];
      else
        o += (size_t)snprintf(out + o, 5, "\\x%02x", (unsigned char)c[i]);
    }
    c += n;
    left -= n;
  }
  out[o] = '\0';
  return out;
}

/*
 * Every block's label, checked once all are known, in O(n log n): at
 * most RUNNER_MAX_INSTANCES instances (each is a thread), and no two of
 * one plugin with the same label, or with labels the collector gauges
 * would show alike (control characters made '?', a long label cut to a
 * prefix and a hash: exec_prom_label), which would be one series twice.
 * 0, 1 (no memory) or 2 (said).
 */
static int exec_check_labels(struct exec_host *x,
                             const struct plugin_ops *const *table,
                             const struct exec_plan *p) {
  if (p->n_blocks > RUNNER_MAX_INSTANCES) {
    /* where the first instance past the cap is configured */
    const struct exec_block *past = &p->blocks[RUNNER_MAX_INSTANCES];
    char where[1100] = "setup";
    if (past->item != SIZE_MAX)
      exec_conf_where(p->ec, past->item, past->line, where, sizeof(where));
    log_msg(LOG_LEVEL_ERROR, x->program, where, "Instance",
            "%zu instances, more than the %d one process runs (a thread "
            "each)",
            p->n_blocks, RUNNER_MAX_INSTANCES);
    return 2;
  }
  if (p->n_blocks < 2)
    return 0;
  struct exec_label_key *keys = calloc(p->n_blocks, sizeof(*keys));
  if (keys == NULL) {
    log_errno(LOG_LEVEL_ERROR, x->program, "setup", "malloc", ENOMEM, NULL);
    return 1;
  }
  for (size_t b = 0; b < p->n_blocks; b++) {
    keys[b].plugin = p->blocks[b].plugin;
    keys[b].block = b;
    exec_prom_label(p->blocks[b].label, keys[b].shown);
  }
  qsort(keys, p->n_blocks, sizeof(*keys), exec_label_cmp);
  int rc = 0;
  for (size_t k = 1; k < p->n_blocks && rc == 0; k++) {
    if (keys[k].plugin != keys[k - 1].plugin ||
        strcmp(keys[k].shown, keys[k - 1].shown) != 0)
      continue;
    const struct exec_block *one = &p->blocks[keys[k - 1].block];
    const struct exec_block *two = &p->blocks[keys[k].block];
    const char *first = one->label, *second = two->label;
    char a[160], b[160];
    if (strcmp(first, second) == 0) /* the sort keeps the block order */
      exec_say_twice(p, table[keys[k].plugin]->name, one, two->item, two->line);
    else
      log_msg(LOG_LEVEL_ERROR, table[keys[k].plugin]->name, "config",
              "Instance",
              "\"%s\" and \"%s\": shown alike (\"%.60s\") on the "
              "Prometheus page: rename one",
              exec_label_quoted(first, a, sizeof(a)),
              exec_label_quoted(second, b, sizeof(b)), keys[k].shown);
    rc = 2;
  }
  free(keys);
  return rc;
}

/* The blocks of plugin `k`: the <Instance> blocks of each of its
 * <Plugin> blocks, and for each <Plugin> block with keys outside them one
 * instance named after the plugin (as the collectd host: a second such
 * block is a label given twice); with none, one with the defaults. */
static int exec_plugin_blocks(struct exec_host *x, const struct plugin_ops *ops,
                              size_t k, struct exec_plan *p) {
  int rc = 0;
  size_t before = p->n_blocks;
  for (size_t c = 0; c < p->n_conf[k] && rc == 0; c++) {
    size_t at = p->conf[k][c];
    const struct cfg_item *blk = &p->ec->items[at];
    const struct cfg_item **top = calloc(blk->n_children + 1, sizeof(*top));
    if (top == NULL)
      return 1;
    size_t t = 0;
    for (size_t i = 0; i < blk->n_children && rc == 0; i++) {
      const struct cfg_item *it = &blk->children[i];
      if (!cfg_key_is(it, "Instance")) {
        top[t++] = it;
        continue;
      }
      const char *label = exec_one_string(it);
      char where[1100];
      if (label == NULL || label[0] == '\0') {
        log_msg(LOG_LEVEL_ERROR, ops->name,
                exec_conf_where(p->ec, at, it->line, where, sizeof(where)),
                "Instance", "expected one non-empty string label");
        rc = 2;
      } else
        rc = exec_add_block(x, p, k, label, at, it->line, it->children,
                            it->n_children, NULL, 0);
    }
    if (rc == 0 && t > 0)
      rc = exec_add_block(x, p, k, ops->name, at, 0, NULL, 0, top, t);
    free(top);
  }
  if (rc == 0 && p->n_blocks == before)
    rc = exec_add_block(x, p, k, ops->name, SIZE_MAX, 0, NULL, 0, NULL, 0);
  return rc;
}

/* A block that did not start: `status` (1 or 2) when its plugin was asked
 * for, else -1 after saying it is left out. */
static int exec_not_run(const struct plugin_ops *ops, const char *label,
                        bool explicit_, int status) {
  if (explicit_)
    return status;
  log_msg(LOG_LEVEL_INFO, ops->name, label, "init",
          "not run (gpu-telemetry tries every plugin; name it with "
          "--plugin to make this an error)");
  return -1;
}

/* Configure one block and start its init on its own thread
 * (exec_await_inits collects it); 0, 1 or 2 (said), or -1 when a plugin
 * nobody asked for is left out. */
static int exec_start_block(struct exec_host *x,
                            const struct plugin_ops *const *table,
                            struct exec_plan *p, const struct exec_block *b) {
  const struct plugin_ops *ops = table[b->plugin];
  const struct host_exec_args *a = x->args;
  double interval_s = p->interval_s[b->plugin] > 0 ? p->interval_s[b->plugin]
                      : p->global_interval_s > 0   ? p->global_interval_s
                                                   : a->interval_s;
  void *inst = ops->instance_new(b->label);
  if (inst == NULL) {
    log_errno(LOG_LEVEL_ERROR, ops->name, b->label, "instance", ENOMEM, NULL);
    return 1;
  }
  int status = 0;
  for (size_t i = 0; i < b->n_items && status == 0; i++) {
    if (cfg_key_is(b->items[i], "Interval") && x->multi)
      status = exec_interval(ops->name, b->items[i], &interval_s);
    else if (ops->configure(inst, b->items[i]) < 0)
      status = 2;
  }
  /* --once reports over its window, --execd over Telegraf's interval,
   * unknown here (the window stands in for it), the others over their
   * interval. A replay is read whole by --once: no window unless given
   * (plugin.h: replays). */
  bool timed = a->mode == HOST_EXEC_INTERVAL;
  double window_s = a->window_s;
  bool no_window = status == 0 && a->mode == HOST_EXEC_ONCE &&
                   !a->window_given && ops->replays != NULL &&
                   ops->replays(inst);
  if (no_window)
    window_s = 0;
  struct runner_instance *slot =
      status == 0 ? runner_add(&x->runner, ops, b->label,
                               timed ? (uint64_t)(interval_s * 1e9) : 0)
                  : NULL;
  if (status == 0 && slot == NULL) {
    log_errno(LOG_LEVEL_ERROR, ops->name, b->label, "instance", ENOMEM, NULL);
    status = 1;
  }
  if (slot != NULL) {
    slot->no_window = no_window;
    plugin_host_init(&slot->host, slot->label,
                     (uint64_t)((timed ? interval_s : window_s) * 1e9));
    slot->host.shared = &x->shared[b->plugin];
    /* on its own thread: a hung init holds only this instance */
    int rc = runner_init_start(&x->runner, slot, inst);
    if (rc == 0)
      return 0; /* its result: exec_await_inits */
    log_errno(LOG_LEVEL_ERROR, ops->name, b->label, "pthread_create", -rc,
              NULL);
    runner_drop(&x->runner);
    status = 1;
  }
  if (inst != NULL)
    ops->instance_free(inst);
  return exec_not_run(ops, b->label, p->explicit_[b->plugin], status);
}

/*
 * Wait for the inits exec_start_block started (EXEC_INIT_WAIT_NS at
 * most, runner.h: runner_await_inits). An instance whose init failed is
 * removed, and its status counts as a failure at the start did; one still
 * in init stays (it starts when its init returns). 0, 1 or 2 (said); the
 * number of instances kept in *kept.
 */
static int exec_await_inits(struct exec_host *x,
                            const struct plugin_ops *const *table,
                            size_t n_table, const struct exec_plan *p,
                            size_t *kept) {
  struct runner *r = &x->runner;
  runner_await_inits(r, EXEC_INIT_WAIT_NS, x->stop);
  int status = 0;
  for (size_t k = 0; k < r->n;) {
    struct runner_instance *i = r->inst[k];
    int rc = runner_init_result(i);
    if (rc >= 0) { /* 0: started; 1: in init, started when it returns */
      k++;
      continue;
    }
    size_t t = 0;
    while (t < n_table && table[t] != i->ops)
      t++;
    bool explicit_ = t < n_table && p->explicit_[t];
    int said = exec_not_run(i->ops, i->label, explicit_, rc == -EINVAL ? 2 : 1);
    if (said > status)
      status = said;
    runner_remove(r, i);
  }
  *kept = r->n;
  /* what each found, once the start stands (no line beside a failure) */
  for (size_t k = 0; status == 0 && r->say_found && k < r->n; k++)
    if (runner_init_result(r->inst[k]) == 0)
      runner_say_found(r->inst[k]);
  return status;
}

int exec_setup(struct exec_host *x, const struct plugin_ops *const *table,
               size_t n_table) {
  const struct host_exec_args *a = x->args;
  struct exec_plan p;
  memset(&p, 0, sizeof(p));
  p.run = calloc(n_table, sizeof(*p.run));
  p.explicit_ = calloc(n_table, sizeof(*p.explicit_));
  p.interval_s = calloc(n_table, sizeof(*p.interval_s));
  p.conf = calloc(n_table, sizeof(*p.conf));
  p.n_conf = calloc(n_table, sizeof(*p.n_conf));
  struct exec_conf ec;
  memset(&ec, 0, sizeof(ec));
  p.ec = &ec;
  int status = 0;
  if (!p.run || !p.explicit_ || !p.interval_s || !p.conf || !p.n_conf) {
    log_errno(LOG_LEVEL_ERROR, x->program, "setup", "malloc", ENOMEM, NULL);
    status = 1;
  }
  if (status == 0 && a->n_configs > 0)
    status = exec_conf_read(&ec, x->program, a->configs, a->n_configs);
  if (status == 0 && a->n_configs > 0)
    status = exec_conf_top(x, table, n_table, &p);
  /* Which plugins run: the one of a single executable; else those named
   * by --plugin, else those the file loads, else all. */
  for (size_t k = 0; k < n_table && status == 0; k++) {
    const struct host_exec_plugin_args *pa = x->multi ? &a->plugins[k] : NULL;
    if (!x->multi)
      p.run[k] = p.explicit_[k] = true;
    else if (a->plugins_chosen) {
      p.run[k] = pa->chosen;
      p.explicit_[k] = pa->chosen;
    } else if (a->n_configs == 0)
      p.run[k] = true;
    if (pa != NULL && pa->excluded)
      p.run[k] = false;
    if (pa != NULL && pa->keyed && !p.run[k]) {
      log_msg(LOG_LEVEL_ERROR, x->program, "usage", table[k]->name,
              "options were given for %s, which is not run (%s)",
              table[k]->name,
              pa->excluded        ? "it is in --no-plugin"
              : a->plugins_chosen ? "add --plugin="
                                  : "add LoadPlugin to the "
                                    "--config file");
      status = 2;
    }
    p.explicit_[k] |= pa != NULL && pa->keyed;
  }
  for (size_t k = 0; k < n_table && status == 0; k++)
    if (p.run[k])
      status = exec_plugin_blocks(x, table[k], k, &p);
  if (status == 0)
    status = exec_check_labels(x, table, &p);
  size_t started = 0;
  for (size_t b = 0; b < p.n_blocks && status == 0; b++) {
    int rc = exec_start_block(x, table, &p, &p.blocks[b]);
    if (rc > 0)
      status = rc;
  }
  /* (after a failure, the inits started are left to runner_fini) */
  if (status == 0)
    status = exec_await_inits(x, table, n_table, &p, &started);
  if (status == 0 && p.n_blocks == 0 && a->n_configs > 0) {
    log_msg(LOG_LEVEL_ERROR, x->program, "--config", NULL,
            "loads none of %s's plugins (LoadPlugin drm_fdinfo, ...): "
            "nothing to run",
            x->program);
    status = 2;
  } else if (status == 0 && started == 0) {
    log_msg(LOG_LEVEL_ERROR, x->program, "setup", NULL,
            "no plugin instance started");
    status = 1;
  }
  exec_plan_fini(&p, n_table);
  exec_conf_fini(&ec);
  return status;
}
