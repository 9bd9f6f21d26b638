/*
 * panthor_perf.c: the plugin core: one session per panthor render node
 * (Device options, or discovery under DevRoot), read once per interval in
 * one direction: SAMPLE and consume the ring (ppf_session.c) -> decode and
 * fold each sample (common/panthor/pp_accum) -> records from state
 * (ppf_report.c) -> sink. README "panthor_perf" lists records and options.
 */
#include "plugins/panthor_perf/panthor_perf.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

static void *ppf_new(const char *instance) {
  (void)instance;
  struct pp *p = calloc(1, sizeof(*p));
  if (p != NULL)
    ppf_config_defaults(&p->cfg);
  return p;
}

static int ppf_configure(void *inst, const struct cfg_item *item) {
  return ppf_config_apply(&((struct pp *)inst)->cfg, item);
}

/*
 * The `device` tag, one per device as drm_fdinfo's: for a node under /dev
 * whose sysfs entry (/sys/dev/char/<major>:<minor>/device) exists, the
 * device's platform (or PCI) name; else the node's kernel name from its
 * minor number (renderD<minor>); else (not a device node) its base name.
 * A name another device of this instance already has becomes the path.
 */
static void ppf_device_name(const struct pp *p, size_t k,
                            struct ppf_device *d) {
  const char *slash = strrchr(d->path, '/');
  snprintf(d->name, sizeof(d->name), "%s", slash ? slash + 1 : d->path);
  struct stat st;
  if (stat(d->path, &st) == 0 && S_ISCHR(st.st_mode)) {
    unsigned mi = minor(st.st_rdev);
    snprintf(d->name, sizeof(d->name), mi >= 128 ? "renderD%u" : "card%u", mi);
    char link[64], target[PATH_MAX];
    snprintf(link, sizeof(link), "/sys/dev/char/%u:%u/device",
             major(st.st_rdev), mi);
    ssize_t n = strncmp(d->path, "/dev/", 5) == 0
                    ? readlink(link, target, sizeof(target) - 1)
                    : -1; /* sysfs describes the real /dev only */
    if (n > 0) {
      target[n] = '\0';
      const char *base = strrchr(target, '/');
      base = base ? base + 1 : target;
      size_t len = strnlen(base, sizeof(d->name) - 1);
      memcpy(d->name, base, len); /* a sysfs name is short */
      d->name[len] = '\0';
    }
  }
  for (size_t i = 0; i < k; i++)
    if (strcmp(p->devs[i].name, d->name) == 0)
      snprintf(d->name, sizeof(d->name), "%s", d->path);
}

static void ppf_device_fini(struct ppf_device *d) {
  ppf_session_free(d->session);
  d->session = NULL;
  pp_accum_fini(&d->acc);
  free(d->path);
  d->path = NULL;
}

/* Resolve the Counter options for this GPU; -EINVAL (logged) when one
 * names what the device lacks. */
static int ppf_device_counters(const struct pp *p, struct ppf_device *d) {
  for (size_t i = 0; i < p->cfg.n_counters; i++) {
    struct pp_error err;
    if (pp_counter_resolve(&p->cfg.counters[i], d->gpu.family, &d->info,
                           &d->counters[i], &err) < 0) {
      log_msg(LOG_LEVEL_ERROR, PPF_PLUGIN, d->name, "Counter", "%s (%s)",
              err.message, d->gpu.name);
      return -EINVAL;
    }
  }
  return 0;
}

/* Open, identify and start one device; its slot is d (path set). -EINVAL
 * only for a Counter the GPU lacks (a configuration error: exit 2); what
 * the kernel answered wrong is -EPROTO or its errno (exit 1). */
static int ppf_device_open(const struct pp *p, struct ppf_device *d) {
  struct ppf_session_params params = {
      .path = d->path,
      .kernel = p->host->kernel,
      .shared = p->host->shared,
      .layout = p->cfg.layout,
      .counter_set = p->cfg.counter_set,
      .ring_slots = p->cfg.ring_slots,
      .timeout_ms = p->cfg.timeout_ms,
  };
  int rc = ppf_session_init(&params, &d->session, &d->gpu, &d->info);
  if (rc < 0) /* the kernel's answers (logged), not the configuration */
    return rc == -EINVAL ? -EPROTO : rc;
  if ((rc = ppf_device_counters(p, d)) < 0)
    return rc; /* -EINVAL: the one configuration error found here */
  rc = pp_accum_init(&d->acc, &d->gpu, &d->info, d->counters, p->cfg.n_counters,
                     p->cfg.per_core);
  if (rc < 0) {
    log_errno(LOG_LEVEL_ERROR, PPF_PLUGIN, d->name, "init", -rc, NULL);
    return rc;
  }
  if ((rc = ppf_session_start(d->session)) < 0)
    return rc == -EINVAL ? -EPROTO : rc; /* SETUP refused: logged */
  log_msg(LOG_LEVEL_INFO, PPF_PLUGIN, d->name, "init",
          "%s, %u shader cores, %u L2 slices, %u bytes per beat; uAPI %s, "
          "%u counters per block, %u blocks, %u-byte samples",
          d->gpu.name, d->gpu.shader_cores, d->gpu.l2_slices,
          d->gpu.bytes_per_beat, pp_layout_name(d->info.layout),
          d->info.counters_per_block, d->info.n_blocks, d->info.sample_size);
  return 0;
}

/* Open the devices at `paths` (n, taken over) into p->devs. 0, -EINVAL
 * when a Counter names what a GPU lacks (logged), or the first device's
 * error when none opened. */
static int ppf_devices_add(struct pp *p, char **paths, size_t n) {
  p->devs = calloc(n > 0 ? n : 1, sizeof(*p->devs));
  int first = p->devs == NULL ? -ENOMEM : 0;
  bool config_error = false;
  for (size_t i = 0; i < n; i++) {
    if (p->devs == NULL) {
      free(paths[i]);
      continue;
    }
    struct ppf_device *d = &p->devs[p->n_devs];
    memset(d, 0, sizeof(*d));
    d->path = paths[i]; /* taken over */
    ppf_device_name(p, p->n_devs, d);
    int rc = ppf_device_open(p, d);
    if (rc == 0) {
      p->n_devs++;
      continue;
    }
    config_error |= rc == -EINVAL;
    if (first == 0)
      first = rc;
    ppf_device_fini(d);
  }
  if (config_error) {
    log_msg(LOG_LEVEL_ERROR, PPF_PLUGIN, "init", NULL,
            "a Counter names what the GPU lacks: configuration error, "
            "nothing is collected");
    return -EINVAL;
  }
  if (p->n_devs == 0)
    return first < 0 ? first : -ENODEV;
  return 0;
}

static const char *ppf_dev_root(const struct pp *p) {
  return p->cfg.dev_root ? p->cfg.dev_root : "/dev";
}

/* Discovery found nothing at init: look again when due (1 s doubling to
 * 1 min); the nodes found then are opened at once. */
static void ppf_relook(struct pp *p, uint64_t now) {
  if (!devsession_due(&p->discovery, now))
    return;
  char *paths[PPF_MAX_DEVICES];
  int found = ppf_session_discover(ppf_dev_root(p), p->host->kernel,
                                   /*quiet=*/true, paths, PPF_MAX_DEVICES);
  if (found <= 0) {
    devsession_fail(&p->discovery, now, found < 0 ? -found : ENOENT);
    return;
  }
  p->relook = false;
  devsession_opened(&p->discovery);
  devsession_healthy(&p->discovery, "devices",
                     "%d panthor render node(s) appeared", found);
  ppf_devices_add(p, paths, (size_t)found); /* failures logged */
}

static int ppf_init(void *inst, const struct plugin_host *host) {
  struct pp *p = inst;
  p->host = host;
  char *paths[PPF_MAX_DEVICES];
  size_t n = 0;
  if (p->cfg.n_devices > 0) {
    for (; n < p->cfg.n_devices; n++)
      if ((paths[n] = strdup(p->cfg.devices[n])) == NULL)
        break;
  } else {
    const char *root = ppf_dev_root(p);
    int found = ppf_session_discover(root, host->kernel, /*quiet=*/false, paths,
                                     PPF_MAX_DEVICES);
    if (found < 0)
      return found; /* logged */
    if (found == 0) {
      /* Auto-discovery that found nothing is not an error: said once at
       * INFO, looked for again (a module loaded, a device bound later). */
      char dri[PATH_MAX];
      snprintf(dri, sizeof(dri), "%s/dri", root);
      devsession_init(&p->discovery, PPF_PLUGIN, dri);
      devsession_set_backoff(&p->discovery, DEVSESSION_BACKOFF_MIN_NS,
                             DEVSESSION_RELOOK_MAX_NS);
      devsession_failf(&p->discovery, plugin_host_monotonic_ns(host), ENOENT,
                       LOG_LEVEL_INFO, "devices",
                       "no panthor render node (renderD*) found; looking "
                       "again, 1 s doubling to 1 min (give Device to name "
                       "one)");
      p->relook = true;
      return 0;
    }
    n = (size_t)found;
  }
  return ppf_devices_add(p, paths, n);
}

/* ppf_session_read's delivery: fold one sample in. */
static void ppf_on_sample(void *ctx, const uint8_t *sample, size_t len) {
  struct ppf_device *d = ctx;
  struct pp_error err;
  if (pp_accum_add(&d->acc, &d->info, sample, len, &err) < 0) {
    if (log_complaint_raise(&d->sample_complaint))
      log_msg(LOG_LEVEL_WARNING, PPF_PLUGIN, d->name, "sample", "%s",
              err.message);
  } else if (log_complaint_release(&d->sample_complaint)) {
    log_msg(LOG_LEVEL_INFO, PPF_PLUGIN, d->name, "sample", "decoded again");
  }
}

static void ppf_on_restart(void *ctx) {
  pp_accum_restart(&((struct ppf_device *)ctx)->acc);
}

/* A read fails only when every device failed. */
static int ppf_read(void *inst, struct metric_sink *sink) {
  struct pp *p = inst;
  uint64_t time_ns = plugin_host_realtime_ns(p->host);
  uint64_t now = plugin_host_monotonic_ns(p->host);
  if (p->relook)
    ppf_relook(p, now);
  size_t ok = 0;
  int first = 0;
  for (size_t i = 0; i < p->n_devs; i++) {
    struct ppf_device *d = &p->devs[i];
    int rc = ppf_session_read(d->session, now, ppf_on_sample, ppf_on_restart, d,
                              &d->acc.stream);
    struct pp_metrics m;
    pp_accum_metrics(&d->acc, &m);
    if (rc == 0)
      rc = ppf_report(p, d, &m, sink, time_ns);
    if (rc == 0)
      ok++;
    else if (first == 0)
      first = rc;
  }
  return ok > 0 || p->n_devs == 0 ? 0 : first;
}

static void ppf_free(void *inst) {
  struct pp *p = inst;
  if (p == NULL)
    return;
  for (size_t i = 0; i < p->n_devs; i++)
    ppf_device_fini(&p->devs[i]);
  free(p->devs);
  ppf_config_fini(&p->cfg);
  free(p);
}

/* collectd identities (collectd_map.h), e.g. for <Instance "mali">:
 *   panthor_perf-mali-renderD128-Mali-G720/gpu_cycles-gpu_active_cycles
 *   panthor_perf-mali-renderD128/gpu_events-cshw-GPU_ACTIVE-value
 *   panthor_perf-mali-renderD128-core3/gpu_events-shader-FRAG_ACTIVE-value
 *   panthor_perf-mali-renderD128/gpu_events-stream-samples */
static const struct collectd_rule ppf_collectd_rules[] = {
    {"panthor_perf",
     NULL,
     NULL,
     {{"device", NULL, 0}, {"gpu", NULL, CM_FREE}},
     {{0}}},
    {"panthor_perf_raw",
     NULL,
     NULL,
     {{"device", NULL, 0}, {"core", "core", CM_OPTIONAL}},
     {{"block", NULL, 0}, {"counter", NULL, CM_FREE}}},
    {"panthor_perf_stream",
     NULL,
     NULL,
     {{"device", NULL, 0}},
     {{NULL, "stream", 0}}},
    {0},
};

const struct plugin_ops panthor_perf_ops = {
    .name = PPF_PLUGIN,
    .options = ppf_options,
    .instance_new = ppf_new,
    .configure = ppf_configure,
    .init = ppf_init,
    .read = ppf_read,
    .collectd_rules = ppf_collectd_rules,
    .help_example = NULL, /* no nested block */
    .instance_free = ppf_free,
};
