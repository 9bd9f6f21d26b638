/*
 * tegra410_uncore.c: the plugin core: counting groups from Event options and
 * the Tegra410 preset on sysfs-described PMUs (common/pmu), read once per
 * interval in one direction: read (pmu_group_read) -> decode (into the
 * group's readings) -> update state (t410_state.c) -> build records from
 * state (t410_report.c) -> sink. Reported as uncore_event records
 * (cumulative count, rate, enabled/running time, running fraction,
 * intervals not counted: counted as perf stat -I counts, pmu_group.h)
 * and, for the preset,
 * tegra410 records with the kernel documentation's metrics
 * (plugins/tegra410_uncore/README.md).
 */
#include "plugins/tegra410_uncore/t410.h"

#include "common/core/found.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *t410_new(const char *instance) {
  (void)instance;
  return calloc(1, sizeof(struct t410));
}

static int t410_configure(void *inst, const struct cfg_item *item) {
  return t410_config_apply(&((struct t410 *)inst)->cfg, item);
}

const struct pmu_desc *t410_pmu_get(struct t410 *d, const char *name,
                                    const char *what) {
  for (size_t i = 0; i < d->n_pmus; i++)
    if (strcmp(d->pmus[i].name, name) == 0)
      return &d->pmus[i];
  for (size_t i = 0; i < d->n_bad_pmus; i++)
    if (strcmp(d->bad_pmus[i], name) == 0)
      return NULL;
  struct pmu_desc pmu;
  if (pmu_desc_load(T410_PLUGIN, d->cfg.sysfs_root, name, &pmu) < 0) {
    char(*bad)[PMU_NAME_MAX] =
        realloc(d->bad_pmus, (d->n_bad_pmus + 1) * sizeof(*bad));
    if (bad != NULL) {
      d->bad_pmus = bad;
      snprintf(bad[d->n_bad_pmus++], PMU_NAME_MAX, "%s", name);
    }
    return NULL;
  }
  struct pmu_desc *grown = realloc(d->pmus, (d->n_pmus + 1) * sizeof(*grown));
  if (grown == NULL) {
    pmu_desc_fini(&pmu);
    log_errno(LOG_LEVEL_ERROR, T410_PLUGIN, name, "PMU", ENOMEM, NULL);
    return NULL;
  }
  d->pmus = grown;
  grown[d->n_pmus] = pmu;
  log_msg(LOG_LEVEL_INFO, T410_PLUGIN, name, what,
          "type %u, %zu CPU(s)%s, %zu format terms, %zu events%s%s%s%s",
          pmu.type, pmu.n_cpus,
          !pmu.has_cpumask ? " (per CPU, summed)"
          : pmu.n_cpus > 1 ? " (cpumask, one series per CPU)"
                           : " (cpumask)",
          pmu.n_formats, pmu.n_events, pmu.identifier[0] ? ", identifier " : "",
          pmu.identifier, pmu.peer[0] ? ", peer " : "", pmu.peer);
  return &grown[d->n_pmus++];
}

/* A slot at the end of d->groups, growing the array; NULL on ENOMEM. */
static struct t410_group *t410_group_slot(struct t410 *d) {
  if (d->n_groups == d->cap_groups) {
    size_t cap = d->cap_groups ? 2 * d->cap_groups : 16;
    struct t410_group *grown = realloc(d->groups, cap * sizeof(*grown));
    if (grown == NULL) {
      log_errno(LOG_LEVEL_ERROR, T410_PLUGIN, "init", "groups", ENOMEM, NULL);
      return NULL;
    }
    d->groups = grown;
    d->cap_groups = cap;
  }
  return &d->groups[d->n_groups];
}

void t410_group_fini(struct t410_group *g) {
  pmu_group_fini(&g->pg);
  free(g->series);
  g->series = NULL;
}

struct t410_group *t410_group_build(struct t410 *d, const char *text,
                                    const struct pmu_group_spec *spec,
                                    bool *config_error) {
  const char *pmu_name = spec->events[0].pmu;
  *config_error = false;
  for (size_t i = 1; i < spec->n_events; i++)
    if (strcmp(spec->events[i].pmu, pmu_name) != 0) {
      *config_error = true;
      log_msg(LOG_LEVEL_ERROR, T410_PLUGIN, "config", "Event",
              "\"%s\": a group must stay on one PMU (%s and %s)", text,
              pmu_name, spec->events[i].pmu);
      return NULL;
    }
  const struct pmu_desc *pmu = t410_pmu_get(d, pmu_name, d->pmu_what);
  struct t410_group *g = pmu ? t410_group_slot(d) : NULL;
  if (g == NULL)
    return NULL;
  memset(g, 0, sizeof(*g));
  struct pmu_event events[PMU_MAX_GROUP];
  for (size_t i = 0; i < spec->n_events; i++) {
    char why[256];
    if (pmu_event_resolve(pmu, &spec->events[i], &events[i], why, sizeof(why)) <
        0) {
      *config_error = true;
      log_msg(LOG_LEVEL_ERROR, T410_PLUGIN, "config", "Event", "\"%s\": %s",
              text, why);
      return NULL;
    }
    const uint64_t *c = events[i].config;
    char config3[40] = "";
    if (c[3] != 0)
      snprintf(config3, sizeof(config3), " config3 0x%llx",
               (unsigned long long)c[3]);
    log_msg(LOG_LEVEL_DEBUG, T410_PLUGIN, pmu->name, "attr",
            "%s: type %u config 0x%llx config1 0x%llx config2 0x%llx%s",
            events[i].text, pmu->type, (unsigned long long)c[0],
            (unsigned long long)c[1], (unsigned long long)c[2], config3);
  }
  int rc = pmu_group_init(&g->pg, T410_PLUGIN, d->host->kernel, pmu, events,
                          spec->n_events);
  if (rc == 0 &&
      (g->series = calloc(g->pg.n_readings, sizeof(*g->series))) == NULL)
    rc = -ENOMEM;
  if (rc < 0) {
    log_errno(LOG_LEVEL_ERROR, T410_PLUGIN, pmu->name, "group", -rc, NULL);
    t410_group_fini(g);
    return NULL;
  }
  for (size_t i = 0; i < g->pg.n_readings; i++)
    t410_series_reset(&g->series[i]);
  devsession_init(&g->session, T410_PLUGIN, pmu->name);
  return g;
}

bool t410_preset_add(void *ctx, const char *text,
                     const struct t410_preset_tags *tags,
                     const enum t410_role *roles, size_t n) {
  struct t410 *d = ctx;
  struct pmu_group_spec *spec = calloc(1, sizeof(*spec));
  size_t n_specs;
  struct pmu_parse_error err;
  struct t410_group *g = NULL;
  if (spec != NULL &&
      pmu_event_parse(text, strlen(text), spec, 1, &n_specs, &err) == 0) {
    bool config_error; /* the preset's own events: never the user's */
    g = t410_group_build(d, text, spec, &config_error);
  }
  free(spec);
  if (g == NULL)
    return false;
  if (g->pg.n_events != n) {
    t410_group_fini(g);
    return false;
  }
  g->preset = *tags;
  memcpy(g->roles, roles, n * sizeof(*roles));
  d->n_groups++;
  return true;
}

int t410_group_start(struct t410_group *g, uint64_t now) {
  int rc = pmu_group_open(&g->pg);
  if (rc < 0) {
    devsession_fail(&g->session, now, -rc);
    return rc;
  }
  for (size_t i = 0; i < g->pg.n_readings; i++)
    t410_series_reset(&g->series[i]);
  devsession_opened(&g->session);
  return 0;
}

/* The Tegra410 preset's groups on the PMUs present (and the PCIe labels):
 * how many were added. */
static int t410_preset_look(struct t410 *d) {
  d->n_pcie_labels = t410_pcie_labels_scan(d->cfg.sysfs_root, d->pcie_labels,
                                           T410_MAX_PCIE_LABELS);
  int n = t410_preset_scan(d->cfg.sysfs_root, d->cfg.filters, d->cfg.n_filters,
                           t410_preset_add, d);
  if (n > 0)
    log_msg(LOG_LEVEL_INFO, T410_PLUGIN, d->cfg.sysfs_root, "Preset",
            "Tegra410: %d group(s) on the PMUs found", n);
  return n;
}

static void t410_start_all(struct t410 *d, uint64_t now) {
  for (size_t i = 0; i < d->n_groups; i++)
    t410_group_start(&d->groups[i], now);
}

/* ---- PMUs that come and go (the watch: t410_hotplug.h) ----
 * A PMU that went has its groups closed and dropped (their series end at
 * this read: one INFO line). A PMU that came, or came back: its
 * description is loaded afresh (type, cpumask, formats, events), its
 * preset groups and the groups of the Events naming it built and opened:
 * counts start from the open, never a delta across the gap (one INFO line:
 * the PMU's own, "appeared"). Only the PMUs this instance looks for count:
 * the preset's (when on) and those an Event names. */

/* Whether this instance looks for PMU `name`. */
static bool t410_wanted(const struct t410 *d, const char *name) {
  struct t410_preset_tags tags;
  if (d->preset_on && t410_preset_match(name, &tags))
    return true;
  for (size_t e = 0; e < d->cfg.n_events; e++) {
    /* an Event names its PMUs as "<pmu>/": enough to decide whether to
     * parse it again when this PMU comes (t410_attach does) */
    const char *t = d->cfg.events[e];
    size_t n = strlen(name);
    for (const char *p = strstr(t, name); p != NULL; p = strstr(p + 1, name))
      if (p[n] == '/' && (p == t || p[-1] == '{' || p[-1] == ','))
        return true;
  }
  return false;
}

/* PMU `name` went: drop its groups and its description. */
static void t410_detach(struct t410 *d, const char *name) {
  size_t kept = 0, dropped = 0;
  for (size_t i = 0; i < d->n_groups; i++) {
    if (strcmp(d->groups[i].pg.pmu, name) == 0) {
      t410_group_fini(&d->groups[i]);
      dropped++;
    } else {
      d->groups[kept++] = d->groups[i];
    }
  }
  d->n_groups = kept;
  for (size_t i = 0; i < d->n_pmus; i++)
    if (strcmp(d->pmus[i].name, name) == 0) {
      pmu_desc_fini(&d->pmus[i]);
      d->pmus[i] = d->pmus[--d->n_pmus];
      break;
    }
  for (size_t i = 0; i < d->n_bad_pmus; i++)
    if (strcmp(d->bad_pmus[i], name) == 0) {
      memcpy(d->bad_pmus[i], d->bad_pmus[--d->n_bad_pmus], PMU_NAME_MAX);
      break;
    }
  if (dropped > 0)
    log_msg(LOG_LEVEL_INFO, T410_PLUGIN, name, "gone",
            "unregistered; its %zu group(s) closed, their series end (if it "
            "comes back it is counted afresh)",
            dropped);
}

/* PMU `name` came: its Event groups and preset groups, opened. */
static void t410_attach(struct t410 *d, const char *name, uint64_t now) {
  size_t first = d->n_groups;
  d->pmu_what = "appeared";
  struct pmu_group_spec *specs =
      calloc(T410_MAX_SPECS_PER_EVENT, sizeof(*specs));
  for (size_t e = 0; specs != NULL && e < d->cfg.n_events; e++) {
    const char *text = d->cfg.events[e];
    size_t n;
    struct pmu_parse_error err;
    if (pmu_event_parse(text, strlen(text), specs, T410_MAX_SPECS_PER_EVENT, &n,
                        &err) < 0)
      continue; /* checked at config time */
    for (size_t i = 0; i < n; i++) {
      bool config_error; /* said; the PMU came back without that event */
      if (strcmp(specs[i].events[0].pmu, name) == 0 &&
          t410_group_build(d, text, &specs[i], &config_error) != NULL)
        d->n_groups++;
    }
  }
  free(specs);
  if (d->preset_on) {
    struct t410_preset_tags tags;
    if (t410_preset_match(name, &tags) && tags.kind == T410_PCIE)
      d->n_pcie_labels = t410_pcie_labels_scan(
          d->cfg.sysfs_root, d->pcie_labels, T410_MAX_PCIE_LABELS);
    t410_preset_scan_one(d->cfg.sysfs_root, name, d->cfg.filters,
                         d->cfg.n_filters, t410_preset_add, d);
  }
  d->pmu_what = "PMU";
  for (size_t i = first; i < d->n_groups; i++)
    t410_group_start(&d->groups[i], now);
}

/* List the PMU directory and follow what came and went. */
static void t410_pmus_follow(struct t410 *d, uint64_t now_ns) {
  if (t410_hotplug_list(&d->pmu_watch, d->host->kernel, d->cfg.sysfs_root) < 0)
    return; /* unlistable now, or no memory: try again at the next read */
  const struct t410_hotplug *h = &d->pmu_watch;
  for (size_t i = 0; i < h->n_went; i++)
    if (t410_wanted(d, h->went[i].name))
      t410_detach(d, h->went[i].name);
  for (size_t i = 0; i < h->n_came; i++)
    if (t410_wanted(d, h->came[i].name)) {
      /* drop what failed to load before: it is a new registration */
      t410_detach(d, h->came[i].name);
      t410_attach(d, h->came[i].name, now_ns);
    }
}

/* The listing init starts from (what it built itself); -ENOMEM or 0 (an
 * unlistable directory is looked at again at every read). */
static int t410_pmus_start(struct t410 *d) {
  int rc = t410_hotplug_list(&d->pmu_watch, d->host->kernel, d->cfg.sysfs_root);
  return rc == -ENOMEM ? rc : 0;
}

/* The preset found nothing at init: said once, a WARNING naming the path
 * when a configured SysfsRoot holds no PMU at all, INFO otherwise. */
static void t410_pmus_none(const struct t410 *d) {
  const struct t410_hotplug *h = &d->pmu_watch;
  int err = h->err;
  if (t410_hotplug_count(h) == 0 && d->sysfs_root_set)
    log_msg(LOG_LEVEL_WARNING, T410_PLUGIN, d->cfg.sysfs_root, "SysfsRoot",
            "%s%sno PMU under bus/event_source/devices; looking for the "
            "Tegra410 PMUs again at every read",
            err ? strerror(err) : "", err ? ": " : "");
  else
    log_msg(LOG_LEVEL_INFO, T410_PLUGIN, d->cfg.sysfs_root, "Preset",
            "no Tegra410 PMU (nvidia_ucf_pmu_*, nvidia_pcie_pmu_*_rc_*, "
            "nvidia_pcie_tgt_pmu_*_rc_*, nvidia_cmem_latency_pmu_*, "
            "nvidia_nvlink_c2c_pmu_*, nvidia_nvclink_pmu_*, "
            "nvidia_nvdlink_pmu_*) under bus/event_source/devices; looking "
            "again at every read");
}

static int t410_init(void *inst, const struct plugin_host *host) {
  struct t410 *d = inst;
  d->host = host;
  d->sysfs_root_set = d->cfg.sysfs_root != NULL;
  if (d->cfg.sysfs_root == NULL && (d->cfg.sysfs_root = strdup("/sys")) == NULL)
    return -ENOMEM;
  bool preset = d->cfg.preset || d->cfg.n_events == 0;
  d->preset_on = preset;
  d->pmu_what = "PMU";
  struct pmu_group_spec *specs =
      calloc(T410_MAX_SPECS_PER_EVENT, sizeof(*specs));
  if (specs == NULL)
    return -ENOMEM;
  size_t bad = 0;
  for (size_t e = 0; e < d->cfg.n_events; e++) {
    const char *text = d->cfg.events[e];
    size_t n;
    struct pmu_parse_error err;
    if (pmu_event_parse(text, strlen(text), specs, T410_MAX_SPECS_PER_EVENT, &n,
                        &err) < 0)
      continue; /* checked at config time */
    for (size_t i = 0; i < n; i++) {
      bool config_error;
      if (t410_group_build(d, text, &specs[i], &config_error) != NULL)
        d->n_groups++;
      else if (config_error)
        bad++;
    }
  }
  free(specs);
  if (bad > 0) {
    /* One rule for every plugin: a configuration error drops the whole
     * block (collectd) or exits 2 (executable), whatever else was valid. */
    log_msg(LOG_LEVEL_ERROR, T410_PLUGIN, "init", NULL,
            "%zu Event group(s) name what the PMU does not have: "
            "configuration error, nothing is collected",
            bad);
    return -EINVAL;
  }
  if (preset && t410_preset_look(d) == 0 && d->cfg.n_events == 0) {
    /* Auto-discovery that found nothing is not an error: say what was
     * looked for, once, and look again (a PMU driver loaded later). */
    int rc = t410_pmus_start(d);
    t410_pmus_none(d);
    return rc;
  }
  if (d->n_groups == 0) {
    log_msg(LOG_LEVEL_ERROR, T410_PLUGIN, "init", NULL,
            "no event could be set up under %s", d->cfg.sysfs_root);
    return -ENOENT;
  }
  t410_start_all(d, plugin_host_monotonic_ns(host));
  return t410_pmus_start(d);
}

/* One group: read, update its state, report. 0 or a negative errno. */
static int t410_group_collect(const struct t410 *d, struct t410_group *g,
                              struct metric_sink *sink, uint64_t now,
                              uint64_t time_ns) {
  if (!g->pg.open) {
    if (!devsession_due(&g->session, now))
      return -EAGAIN;
    int rc = t410_group_start(g, now);
    if (rc < 0)
      return rc;
  }
  int rc = pmu_group_read(&g->pg);
  if (rc < 0) {
    /* ENODEV: PMU gone or its CPU unplugged; reopen later */
    pmu_group_close(&g->pg);
    devsession_failf(&g->session, now, -rc, LOG_LEVEL_WARNING, "read",
                     "%s; reopening with backoff (1 s doubling to 5 min)",
                     strerror(-rc));
    return rc;
  }
  devsession_healthy(&g->session, "read", "counting again");
  for (size_t i = 0; i < g->pg.n_readings; i++)
    t410_series_update(&g->series[i], &g->pg.readings[i], g->pg.n_events);
  rc = 0;
  for (size_t i = 0; i < g->pg.n_readings; i++) {
    int r = t410_report(d, g, i, sink, time_ns);
    if (rc == 0)
      rc = r;
  }
  if (rc < 0 && log_complaint_raise(&g->write_complaint))
    log_errno(LOG_LEVEL_WARNING, T410_PLUGIN, g->pg.pmu, "records", -rc, NULL);
  else if (rc == 0 && log_complaint_release(&g->write_complaint))
    log_msg(LOG_LEVEL_INFO, T410_PLUGIN, g->pg.pmu, "records", "written again");
  return rc;
}

/* A read fails only when every group failed; it then returns the first
 * group's error. */
static int t410_read(void *inst, struct metric_sink *sink) {
  struct t410 *d = inst;
  uint64_t now = plugin_host_monotonic_ns(d->host);
  uint64_t time_ns = plugin_host_realtime_ns(d->host);
  t410_pmus_follow(d, now);
  size_t ok = 0;
  int first = 0;
  for (size_t i = 0; i < d->n_groups; i++) {
    int rc = t410_group_collect(d, &d->groups[i], sink, now, time_ns);
    if (rc == 0)
      ok++;
    else if (first == 0)
      first = rc;
  }
  return ok > 0 || d->n_groups == 0 ? 0 : first;
}

static void t410_free(void *inst) {
  struct t410 *d = inst;
  if (d == NULL)
    return;
  for (size_t i = 0; i < d->n_groups; i++)
    t410_group_fini(&d->groups[i]);
  free(d->groups);
  for (size_t i = 0; i < d->n_pmus; i++)
    pmu_desc_fini(&d->pmus[i]);
  free(d->pmus);
  free(d->bad_pmus);
  t410_hotplug_fini(&d->pmu_watch);
  t410_config_fini(&d->cfg);
  free(d);
}

/* plugin.h: found. A device here is an uncore PMU being counted. */
static int t410_found(void *inst, char *text, size_t size) {
  const struct t410 *d = inst;
  struct found_text f;
  found_init(&f, text, size);
  for (size_t i = 0; i < d->n_pmus; i++)
    found_add(&f, "pmu", d->pmus[i].name);
  if (f.count > 0)
    return f.count;
  return found_none(&f, "no %s under %s/bus/event_source/devices",
                    d->preset_on ? "Tegra410 uncore PMU (nvidia_*_pmu_*)"
                                 : "PMU that an Event or Filter names",
                    d->cfg.sysfs_root ? d->cfg.sysfs_root : "/sys");
}

/* collectd identities (collectd_map.h), e.g. for <Instance "vera">:
 *   tegra410_uncore-vera-nvidia_pcie_pmu_0_rc_1/uncore_bytes_per_second-read_bandwidth
 *   tegra410_uncore-vera-nvidia_nvlink_c2c_pmu_0-in/gpu_events-cycles-count
 * A reading of one CPU of a per-CPU PMU adds cpuN; a Filter block its
 * name. The preset's metrics (tegra410) and the events (uncore_event)
 * share the PMU's instance: an event's type_instance names the event. */
static const struct collectd_rule t410_collectd_rules[] = {
    {"tegra410",
     NULL,
     NULL,
     {{"pmu", NULL, 0},
      {"cpu", "cpu", CM_OPTIONAL},
      {"direction", NULL, CM_OPTIONAL},
      {"filter", NULL, CM_OPTIONAL | CM_FREE}},
     {{0}}},
    {"uncore_event",
     NULL,
     NULL,
     {{"pmu", NULL, 0},
      {"cpu", "cpu", CM_OPTIONAL},
      {"group", NULL, CM_OPTIONAL},
      {"filter", NULL, CM_OPTIONAL | CM_FREE}},
     {{"event", NULL, CM_FREE}}},
    {0},
};

const struct plugin_ops tegra410_uncore_ops = {
    .name = T410_PLUGIN,
    .options = t410_options,
    .instance_new = t410_new,
    .configure = t410_configure,
    .init = t410_init,
    .read = t410_read,
    .collectd_rules = t410_collectd_rules,
    .help_example = "--Filter=rp0 --Filter.PMU=pcie "
                    "--Filter.Terms=src_rp_mask=0x1",
    .found = t410_found,
    .instance_free = t410_free,
};
