/*
 * tegra410_uncore.c: the plugin core: counting groups from Event options
 * on any sysfs-described PMU, read once per interval, reported as
 * uncore_event records (cumulative count, rate, enabled/running time).
 * The Tegra410 preset with the kernel documentation's metrics builds on
 * this engine (README, "tegra410_uncore").
 */
#include "plugins/tegra410_uncore/t410.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define T410_BACKOFF_MIN_NS 1000000000ull
#define T410_BACKOFF_MAX_NS 300000000000ull

static uint64_t t410_now(clockid_t id) {
  struct timespec ts;
  clock_gettime(id, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void *t410_new(const char *instance) {
  (void)instance;
  struct t410 *d = calloc(1, sizeof(*d));
  if (d != NULL)
    d->kernel = &t410_kernel_real;
  return d;
}

void t410_set_kernel(void *inst, const struct t410_kernel *kernel) {
  ((struct t410 *)inst)->kernel = kernel;
}

static int t410_configure(void *inst, const struct cfg_item *item) {
  return t410_config_apply(&((struct t410 *)inst)->cfg, item);
}

static const struct t410_pmu *t410_pmu_get(struct t410 *d, const char *name) {
  for (size_t i = 0; i < d->n_pmus; i++)
    if (strcmp(d->pmus[i].name, name) == 0)
      return &d->pmus[i];
  struct t410_pmu pmu;
  int rc = t410_pmu_load(d->cfg.sysfs_root, name, &pmu);
  if (rc < 0) {
    log_errno(LOG_LEVEL_ERROR, T410_PLUGIN, name, "PMU", -rc, NULL);
    return NULL;
  }
  struct t410_pmu *grown = realloc(d->pmus, (d->n_pmus + 1) * sizeof(*grown));
  if (grown == NULL) {
    t410_pmu_fini(&pmu);
    return NULL;
  }
  d->pmus = grown;
  grown[d->n_pmus] = pmu;
  log_msg(LOG_LEVEL_INFO, T410_PLUGIN, name, "PMU",
          "type %u, %zu CPU(s)%s, %zu format terms, %zu events%s%s%s%s",
          pmu.type, pmu.n_cpus, pmu.has_cpumask ? " (cpumask)" : " (per CPU)",
          pmu.n_formats, pmu.n_events, pmu.identifier[0] ? ", identifier " : "",
          pmu.identifier, pmu.peer[0] ? ", peer " : "", pmu.peer);
  return &grown[d->n_pmus++];
}

/* Build one group from a parsed spec; false (logged) if it cannot be. */
static bool t410_group_build(struct t410 *d, const char *text,
                             const struct pmu_group_spec *spec,
                             struct t410_group *g) {
  memset(g, 0, sizeof(*g));
  snprintf(g->text, sizeof(g->text), "%s", text);
  snprintf(g->pmu, sizeof(g->pmu), "%s", spec->events[0].pmu);
  for (size_t i = 1; i < spec->n_events; i++)
    if (strcmp(spec->events[i].pmu, g->pmu) != 0) {
      log_msg(LOG_LEVEL_ERROR, T410_PLUGIN, "config", "Event",
              "\"%s\": a group must stay on one PMU (%s and %s)", text, g->pmu,
              spec->events[i].pmu);
      return false;
    }
  const struct t410_pmu *pmu = t410_pmu_get(d, g->pmu);
  if (pmu == NULL)
    return false;
  g->type = pmu->type;
  g->cpus = pmu->cpus;
  g->n_cpus = pmu->n_cpus;
  for (size_t i = 0; i < spec->n_events; i++) {
    char why[256];
    if (t410_event_resolve(pmu, &spec->events[i], &g->counters[i], why,
                           sizeof(why)) < 0) {
      log_msg(LOG_LEVEL_ERROR, T410_PLUGIN, "config", "Event", "\"%s\": %s",
              text, why);
      return false;
    }
    const uint64_t *c = g->counters[i].config;
    char config3[40] = "";
    if (c[3] != 0)
      snprintf(config3, sizeof(config3), " config3 0x%llx",
               (unsigned long long)c[3]);
    log_msg(LOG_LEVEL_DEBUG, T410_PLUGIN, g->pmu, "attr",
            "%s: type %u config 0x%llx config1 0x%llx config2 0x%llx%s",
            g->counters[i].event, pmu->type, (unsigned long long)c[0],
            (unsigned long long)c[1], (unsigned long long)c[2], config3);
  }
  g->n_counters = spec->n_events;
  g->backoff_ns = T410_BACKOFF_MIN_NS;
  g->kernel = d->kernel;
  return true;
}

/* t410_preset_scan callback: one preset group. */
static bool t410_preset_add(void *ctx, const char *text,
                            const struct t410_preset_tags *tags,
                            const enum t410_role *roles, size_t n) {
  struct t410 *d = ctx;
  if (d->n_groups == d->cap_groups)
    return false;
  struct pmu_group_spec *spec = calloc(1, sizeof(*spec));
  size_t n_groups;
  struct pmu_parse_error err;
  bool ok = spec != NULL &&
            pmu_event_parse(text, strlen(text), spec, 1, &n_groups, &err) == 0;
  struct t410_group *g = &d->groups[d->n_groups];
  ok = ok && t410_group_build(d, text, spec, g) && g->n_counters == n;
  free(spec);
  if (!ok)
    return false;
  g->preset = *tags;
  for (size_t i = 0; i < n; i++)
    g->counters[i].role = roles[i];
  d->n_groups++;
  return true;
}

static int t410_init(void *inst, const struct plugin_host *host) {
  (void)host;
  struct t410 *d = inst;
  if (d->cfg.sysfs_root == NULL && (d->cfg.sysfs_root = strdup("/sys")) == NULL)
    return -ENOMEM;
  bool preset = d->cfg.preset || d->cfg.n_events == 0;
  struct pmu_group_spec *specs = calloc(8, sizeof(*specs));
  /* the preset opens at most 2 groups per PMU and filter; 256 PMUs */
  d->cap_groups =
      d->cfg.n_events * 8 + (preset ? 512 * (1 + d->cfg.n_filters) : 0);
  d->groups = calloc(d->cap_groups, sizeof(*d->groups));
  if (specs == NULL || d->groups == NULL) {
    free(specs);
    return -ENOMEM;
  }
  for (size_t e = 0; e < d->cfg.n_events; e++) {
    const char *text = d->cfg.events[e];
    size_t n;
    struct pmu_parse_error err;
    if (pmu_event_parse(text, strlen(text), specs, 8, &n, &err) < 0)
      continue; /* checked at config time */
    for (size_t i = 0; i < n; i++)
      if (t410_group_build(d, text, &specs[i], &d->groups[d->n_groups]))
        d->n_groups++;
  }
  free(specs);
  if (preset) {
    d->n_pcie_labels = t410_pcie_labels_scan(d->cfg.sysfs_root, d->pcie_labels,
                                             T410_MAX_PCIE_LABELS);
    int n = t410_preset_scan(d->cfg.sysfs_root, d->cfg.filters,
                             d->cfg.n_filters, t410_preset_add, d);
    log_msg(LOG_LEVEL_INFO, T410_PLUGIN, d->cfg.sysfs_root, "Preset",
            "Tegra410: %d group(s) on the PMUs found", n);
  }
  if (d->n_groups == 0) {
    log_msg(LOG_LEVEL_ERROR, T410_PLUGIN, "init", NULL,
            preset && d->cfg.n_events == 0
                ? "no Event given and no Tegra410 PMU found under %s"
                : "no event could be set up under %s",
            d->cfg.sysfs_root);
    return -ENOENT;
  }
  uint64_t now = t410_now(CLOCK_MONOTONIC);
  for (size_t i = 0; i < d->n_groups; i++)
    if (t410_group_open(&d->groups[i]) < 0)
      d->groups[i].retry_at_ns = now + d->groups[i].backoff_ns;
  return 0;
}

static void t410_retry_later(struct t410_group *g, uint64_t now) {
  g->retry_at_ns = now + g->backoff_ns;
  g->backoff_ns = g->backoff_ns * 2 > T410_BACKOFF_MAX_NS ? T410_BACKOFF_MAX_NS
                                                          : g->backoff_ns * 2;
}

/*
 * The window the counts of this read cover: the time the group was enabled
 * since the previous read, per CPU (ELAPSED_TIME_IN_NS of the kernel doc);
 * the wall time between reads if the kernel reported none.
 */
static double t410_window_ns(const struct t410_group *g, double wall_s) {
  if (g->enabled_ns > g->prev_enabled_ns && g->n_cpus > 0)
    return (double)(g->enabled_ns - g->prev_enabled_ns) / (double)g->n_cpus;
  return wall_s * 1e9;
}

/* The preset's metrics over this read's window. */
static int t410_emit_metrics(const struct t410 *d, struct t410_group *g,
                             struct metric_sink *sink, double window_ns,
                             uint64_t time_ns) {
  struct t410_sample sample;
  memset(&sample, 0, sizeof(sample));
  for (size_t k = 0; k < g->n_counters; k++) {
    const struct t410_counter *c = &g->counters[k];
    if (!c->have_prev || c->count < c->prev_count || c->role == T410_NONE)
      return 0;
    sample.have[c->role] = true;
    sample.delta[c->role] = (double)(c->count - c->prev_count);
  }
  sample.elapsed_ns = window_ns;
  struct metric m;
  metric_init(&m, "tegra410", time_ns);
  metric_add_tag(&m, "pmu", g->pmu);
  metric_add_tag(&m, "socket", g->preset.socket);
  metric_add_tag(&m, "rc", g->preset.rc);
  if (g->preset.rc[0])
    metric_add_tag(&m, "segment",
                   t410_pcie_segment(d->pcie_labels, d->n_pcie_labels,
                                     g->preset.socket, g->preset.rc));
  metric_add_tag(&m, "direction", g->preset.direction);
  metric_add_tag(&m, "filter", g->preset.filter);
  t410_metrics_add(g->preset.kind, &sample, &m);
  return m.n_fields ? metric_sink_write(sink, &m) : 0;
}

static int t410_emit(const struct t410 *d, struct t410_group *g,
                     struct metric_sink *sink, uint64_t now, uint64_t time_ns) {
  double wall = g->prev_time_ns ? (double)(now - g->prev_time_ns) / 1e9 : 0;
  double window_ns = t410_window_ns(g, wall), dt = window_ns / 1e9;
  int rc = 0;
  if (g->preset.kind != T410_GENERIC)
    rc |= t410_emit_metrics(d, g, sink, window_ns, time_ns);
  for (size_t k = 0; k < g->n_counters; k++) {
    struct t410_counter *c = &g->counters[k];
    struct metric m;
    metric_init(&m, "uncore_event", time_ns);
    metric_add_tag(&m, "pmu", g->pmu);
    metric_add_tag(&m, "event", c->event);
    metric_add_tag(&m, "unit", c->unit);
    metric_add_tag(&m, "group", g->preset.part);
    metric_add_tag(&m, "filter", g->preset.filter);
    metric_add_int(&m, "count", "derive", c->count);
    if (c->scale != 1.0)
      metric_add_float(&m, "value", "gauge", (double)c->count * c->scale);
    if (c->have_prev && dt > 0 && c->count >= c->prev_count)
      metric_add_float(&m, "rate", "gauge",
                       (double)(c->count - c->prev_count) * c->scale / dt);
    metric_add_int(&m, "enabled_ns", "derive", g->enabled_ns);
    metric_add_int(&m, "running_ns", "derive", g->running_ns);
    rc |= metric_sink_write(sink, &m);
    c->prev_count = c->count;
    c->have_prev = true;
  }
  g->prev_time_ns = now;
  return rc;
}

static int t410_read(void *inst, struct metric_sink *sink) {
  struct t410 *d = inst;
  uint64_t now = t410_now(CLOCK_MONOTONIC), time_ns = t410_now(CLOCK_REALTIME);
  size_t ok = 0;
  for (size_t i = 0; i < d->n_groups; i++) {
    struct t410_group *g = &d->groups[i];
    if (!g->open) {
      if (now < g->retry_at_ns || t410_group_open(g) < 0) {
        if (now >= g->retry_at_ns)
          t410_retry_later(g, now);
        continue;
      }
      g->backoff_ns = T410_BACKOFF_MIN_NS;
    }
    int rc = t410_group_read(g);
    if (rc < 0) {
      /* ENODEV: PMU gone or its CPU unplugged; reopen later */
      log_errno(LOG_LEVEL_WARNING, T410_PLUGIN, g->pmu, "read", -rc, NULL);
      t410_group_close(g);
      t410_retry_later(g, now);
      continue;
    }
    t410_emit(d, g, sink, now, time_ns);
    ok++;
  }
  return ok > 0 ? 0 : -EIO;
}

static void t410_free(void *inst) {
  struct t410 *d = inst;
  if (d == NULL)
    return;
  for (size_t i = 0; i < d->n_groups; i++)
    t410_group_close(&d->groups[i]);
  free(d->groups);
  for (size_t i = 0; i < d->n_pmus; i++)
    t410_pmu_fini(&d->pmus[i]);
  free(d->pmus);
  t410_config_fini(&d->cfg);
  free(d);
}

const struct plugin_ops tegra410_uncore_ops = {
    .name = T410_PLUGIN,
    .instance_new = t410_new,
    .configure = t410_configure,
    .init = t410_init,
    .read = t410_read,
    .instance_free = t410_free,
};
