/*
 * panthor_perf.c: the plugin core: one session per panthor render node
 * (Device options, or discovery under DevRoot), read once per interval in
 * one direction: SAMPLE and consume the ring (ppf_session.c) -> decode and
 * fold each sample (common/panthor/pp_accum) -> records from state
 * (ppf_report.c) -> sink. plugins/panthor_perf/README.md lists records and
 * options.
 */
#include "plugins/panthor_perf/panthor_perf.h"

#include "common/core/found.h"
#include "common/sysfs/sysfs_link.h"

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
    char link[64], base[sizeof(d->name)];
    snprintf(link, sizeof(link), "dev/char/%u:%u/device", major(st.st_rdev),
             mi);
    /* sysfs describes the real /dev only; the name is held to the one
     * rule of both DRM plugins (sysfs_link.h) */
    if (strncmp(d->path, "/dev/", 5) == 0 &&
        sysfs_link_basename("/sys", link, base, sizeof(base)) == 0 &&
        base[0] != '\0')
      memcpy(d->name, base, sizeof(base));
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
static int ppf_device_open(const struct pp *p, struct ppf_device *d,
                           const char *what, bool quiet) {
  struct ppf_session_params params = {
      .path = d->path,
      .kernel = p->host->kernel,
      .shared = p->host->shared,
      .layout = p->cfg.layout,
      .counter_set = p->cfg.counter_set,
      .ring_slots = p->cfg.ring_slots,
      .timeout_ms = p->cfg.timeout_ms,
      .quiet = quiet,
  };
  int rc = ppf_session_init(&params, &d->session, &d->gpu, &d->info);
  if (rc < 0) /* the kernel's answers (logged), not the configuration */
    return rc == -EINVAL ? -EPROTO : rc;
  if ((rc = ppf_device_counters(p, d)) < 0)
    return rc; /* -EINVAL: the one configuration error found here */
  rc = pp_accum_init(&d->acc, &d->gpu, &d->info, d->counters, p->cfg.n_counters,
                     p->cfg.per_core);
  if (rc < 0) {
    log_errno(LOG_LEVEL_ERROR, PPF_PLUGIN, d->name, what, -rc, NULL);
    return rc;
  }
  if ((rc = ppf_session_start(d->session, quiet)) < 0)
    return rc == -EINVAL ? -EPROTO : rc; /* SETUP refused: logged */
  log_msg(LOG_LEVEL_INFO, PPF_PLUGIN, d->name, what,
          "%s%s%s, %u shader cores, %u L2 slices, %u bytes per beat; uAPI "
          "%s, %u counters per block, %u blocks, %u-byte samples",
          strcmp(what, "init") != 0 ? d->path : "",
          strcmp(what, "init") != 0 ? ": " : "", d->gpu.name,
          d->gpu.shader_cores, d->gpu.l2_slices, d->gpu.bytes_per_beat,
          pp_layout_name(d->info.layout), d->info.counters_per_block,
          d->info.n_blocks, d->info.sample_size);
  return 0;
}

/* Open, identify and start node `path` (taken over) as a new device of
 * `p`; `what` names the occasion in the one INFO line ("init",
 * "appeared"). 0; -EINVAL for a Counter the GPU lacks (logged); another
 * negative errno (logged unless `quiet`). */
static int ppf_device_add(struct pp *p, char *path, ino_t ino, const char *what,
                          bool quiet) {
  if (p->n_devs == p->cap_devs) {
    size_t cap = p->cap_devs ? 2 * p->cap_devs : 4;
    struct ppf_device *grown = realloc(p->devs, cap * sizeof(*grown));
    if (grown == NULL) {
      log_errno(LOG_LEVEL_ERROR, PPF_PLUGIN, path, what, ENOMEM, NULL);
      free(path);
      return -ENOMEM;
    }
    p->devs = grown;
    p->cap_devs = cap;
  }
  struct ppf_device *d = &p->devs[p->n_devs];
  memset(d, 0, sizeof(*d));
  d->path = path; /* taken over */
  d->ino = ino;
  ppf_device_name(p, p->n_devs, d);
  int rc = ppf_device_open(p, d, what, quiet);
  if (rc < 0) {
    ppf_device_fini(d);
    return rc;
  }
  p->n_devs++;
  return 0;
}

/* Drop device `i` whose node was removed: one INFO line, its series end
 * (the next read has no record of it). */
static void ppf_device_gone(struct pp *p, size_t i) {
  struct ppf_device *d = &p->devs[i];
  log_msg(LOG_LEVEL_INFO, PPF_PLUGIN, d->name, "gone",
          "%s was removed; its series end (a node that comes back is a new "
          "device, its counters from 0)",
          d->path);
  ppf_session_free_gone(d->session);
  d->session = NULL;
  ppf_device_fini(d);
  memmove(d, d + 1, (p->n_devs - i - 1) * sizeof(*d));
  p->n_devs--;
}

static const char *ppf_dev_root(const struct pp *p) {
  return p->cfg.dev_root ? p->cfg.dev_root : "/dev";
}

/* ---- discovery (no Device option): the watch of ppf_hotplug.h ----
 * A node that came is asked which driver it is and, if panthor, started;
 * one that went has its device dropped, its series end. A node that could
 * not be opened or started is probed again on the discovery session's
 * backoff (1 s doubling to 1 min), quietly. */

/* Probe node `e` and start it when it is panthor: its kind. *first gets
 * the first error of a panthor node that could not be started. */
static enum ppf_hotplug_kind ppf_probe(struct pp *p,
                                       const struct ppf_hotplug_node *e,
                                       const char *what, bool quiet,
                                       int *first) {
  char path[PATH_MAX];
  const char *failed;
  int rc = ppf_hotplug_identify(&p->watch, p->host->kernel, e->name, path,
                                sizeof(path), &failed);
  if (rc < 0) {
    if (!quiet) /* the call that failed is named: open or the ioctl */
      log_errno(LOG_LEVEL_WARNING, PPF_PLUGIN, path, failed, -rc,
                strcmp(failed, "open") == 0 && (rc == -EACCES || rc == -EPERM)
                    ? "the render node needs read-write access (group render)"
                    : NULL);
    return PPF_HOTPLUG_FAILED;
  }
  if (rc == 0)
    return PPF_HOTPLUG_OTHER;
  char *owned = strdup(path);
  rc = owned ? ppf_device_add(p, owned, e->ino, what, quiet) : -ENOMEM;
  if (rc < 0 && *first == 0)
    *first = rc;
  /* a Counter this GPU lacks is said once and the node left alone */
  return rc == 0         ? PPF_HOTPLUG_OURS
         : rc == -EINVAL ? PPF_HOTPLUG_OTHER
                         : PPF_HOTPLUG_FAILED;
}

/* Nothing found at init: said once; WARNING when a configured DevRoot
 * holds no render node at all (a wrong path, most likely), INFO otherwise
 * (no GPU of this driver here, not an error). */
static void ppf_say_none(const struct pp *p) {
  const struct ppf_hotplug *h = &p->watch;
  if (p->cfg.dev_root != NULL && h->n_listed == 0)
    log_msg(LOG_LEVEL_WARNING, PPF_PLUGIN, h->dri, "DevRoot",
            "%s%sno render node (renderD*) here; looking again at every "
            "read",
            h->err ? strerror(h->err) : "", h->err ? ": " : "");
  else
    log_msg(LOG_LEVEL_INFO, PPF_PLUGIN, h->dri, "devices",
            "no panthor render node (renderD*) found; looking again at "
            "every read (give Device to name one)");
}

/* List <DevRoot>/dri and take the nodes that came, drop those that went,
 * re-probe failed ones when the backoff allows. At init (`init`), the
 * first error of a panthor node that could not be started is returned
 * when none started (-EINVAL for a Counter a GPU lacks); finding no node
 * is said once and is not an error. Later: 0. */
static int ppf_discover(struct pp *p, uint64_t now_ns, bool init) {
  struct ppf_hotplug *h = &p->watch;
  if (init) {
    ppf_hotplug_init(h, ppf_dev_root(p));
    devsession_init(&p->discovery, PPF_PLUGIN, h->dri);
    devsession_set_backoff(&p->discovery, DEVSESSION_BACKOFF_MIN_NS,
                           DEVSESSION_RELOOK_MAX_NS);
  }
  ppf_hotplug_list(h, p->host->kernel);
  const char *what = init ? "init" : "appeared";
  for (size_t i = 0; i < h->n_went; i++) {
    if (h->went[i].kind != PPF_HOTPLUG_OURS)
      continue;
    for (size_t k = 0; k < p->n_devs; k++)
      if (p->devs[k].ino == h->went[i].ino &&
          strcmp(strrchr(p->devs[k].path, '/') + 1, h->went[i].name) == 0) {
        ppf_device_gone(p, k);
        break;
      }
  }
  /* came: probed once; failed before: again when the backoff allows */
  int first = 0;
  for (size_t i = 0; i < h->n_nodes; i++)
    if (h->nodes[i].kind == PPF_HOTPLUG_NEW)
      h->nodes[i].kind =
          ppf_probe(p, &h->nodes[i], what, /*quiet=*/false, &first);
  bool failed = false;
  for (size_t i = 0; i < h->n_nodes; i++)
    failed |= h->nodes[i].kind == PPF_HOTPLUG_FAILED;
  if (failed && !init && devsession_due(&p->discovery, now_ns)) {
    int again = 0;
    failed = false;
    for (size_t i = 0; i < h->n_nodes; i++)
      if (h->nodes[i].kind == PPF_HOTPLUG_FAILED) {
        h->nodes[i].kind =
            ppf_probe(p, &h->nodes[i], what, /*quiet=*/true, &again);
        failed |= h->nodes[i].kind == PPF_HOTPLUG_FAILED;
      }
  }
  if (failed && devsession_due(&p->discovery, now_ns))
    devsession_fail(&p->discovery, now_ns, ENODEV);
  else if (!failed)
    devsession_close(&p->discovery); /* the next failure waits 1 s */
  if (!init)
    return 0;
  if (first == -EINVAL) {
    log_msg(LOG_LEVEL_ERROR, PPF_PLUGIN, "init", NULL,
            "a Counter names what the GPU lacks: configuration error, "
            "nothing is collected");
    return -EINVAL;
  }
  if (p->n_devs == 0 && first < 0)
    return first; /* panthor nodes, none of which could be started */
  if (p->n_devs == 0)
    ppf_say_none(p);
  return 0;
}

static int ppf_init(void *inst, const struct plugin_host *host) {
  struct pp *p = inst;
  p->host = host;
  if (p->cfg.n_devices == 0) {
    p->discovering = true;
    return ppf_discover(p, plugin_host_monotonic_ns(host), /*init=*/true);
  }
  /* Device options: each must open (a missing one is named in an error);
   * one that fails later is reopened on its session's backoff. */
  bool config_error = false;
  int first = 0;
  for (size_t i = 0; i < p->cfg.n_devices; i++) {
    char *path = strdup(p->cfg.devices[i]);
    int rc =
        path ? ppf_device_add(p, path, 0, "init", /*quiet=*/false) : -ENOMEM;
    config_error |= rc == -EINVAL;
    if (rc < 0 && first == 0)
      first = rc;
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
  if (p->discovering)
    ppf_discover(p, now, /*init=*/false);
  size_t ok = 0;
  int first = 0;
  for (size_t i = 0; i < p->n_devs; i++) {
    struct ppf_device *d = &p->devs[i];
    int rc = ppf_session_read(d->session, now, plugin_host_stop_fd(p->host),
                              ppf_on_sample, ppf_on_restart, d, &d->acc.stream);
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

/* plugin.h: found. */
static int ppf_found(void *inst, char *text, size_t size) {
  const struct pp *p = inst;
  struct found_text f;
  found_init(&f, text, size);
  for (size_t i = 0; i < p->n_devs; i++)
    found_add(&f, "panthor", p->devs[i].name);
  if (f.count > 0)
    return f.count;
  return found_none(&f, "no panthor render node (renderD*)%s under %s/dri",
                    p->cfg.n_devices ? " of Device" : "", ppf_dev_root(p));
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
    .found = ppf_found,
    .instance_free = ppf_free,
};
