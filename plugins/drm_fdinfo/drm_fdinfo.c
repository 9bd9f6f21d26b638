/*
 * drm_fdinfo.c: the drm_fdinfo plugin core behind struct plugin_ops.
 *
 * GPU engine utilisation and GPU memory per device, process, client and
 * cgroup from DRM client usage stats (Documentation/gpu/drm-usage-stats.rst)
 * for every DRM and accel driver. See dfi.h for how the work is split.
 */
#include "common/core/found.h"
#include "plugins/drm_fdinfo/dfi.h"
#include "plugins/drm_fdinfo/dfi_groups.h"
#include "plugins/drm_fdinfo/dfi_names.h"
#include "plugins/drm_fdinfo/dfi_scan.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <xf86drm.h> /* DRM minor name prefixes */

static void *dfi_new(const char *instance) {
  struct dfi *d = calloc(1, sizeof(*d));
  if (d == NULL)
    return NULL;
  d->instance = strdup(instance);
  if (d->instance == NULL) {
    free(d);
    return NULL;
  }
  dfi_config_defaults(&d->cfg);
  d->proc_fd = -1;
  d->notify_fd = -1;
  fileio_buf_init(&d->buf);
  return d;
}

static int dfi_configure(void *inst, const struct cfg_item *item) {
  struct dfi *d = inst;
  return dfi_config_apply(&d->cfg, item);
}

static int dfi_default_path(char **slot, const char *value) {
  if (*slot != NULL)
    return 0;
  *slot = strdup(value);
  return *slot ? 0 : -ENOMEM;
}

static int dfi_init(void *inst, const struct plugin_host *host) {
  struct dfi *d = inst;
  d->host = host;
  d->dev_root_set = d->cfg.dev_root != NULL;
  int rc = dfi_default_path(&d->cfg.proc_root, "/proc");
  if (rc == 0)
    rc = dfi_default_path(&d->cfg.sysfs_root, "/sys");
  if (rc == 0)
    rc = dfi_default_path(&d->cfg.debugfs_root, "/sys/kernel/debug");
  if (rc == 0)
    rc = dfi_default_path(&d->cfg.dev_root, "/dev");
  if (rc < 0)
    return rc;
  if (d->cfg.report_by == 0)
    d->cfg.report_by = DFI_SCOPE_DEVICE | DFI_SCOPE_PROCESS;

  d->proc_fd = host->kernel->open(d->cfg.proc_root,
                                  O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
  if (d->proc_fd < 0) {
    int err = errno;
    log_errno(LOG_LEVEL_ERROR, DFI_PLUGIN, d->cfg.proc_root, "open", err, NULL);
    return -err;
  }
  rc = dfi_client_table_init(&d->clients, 64);
  if (rc < 0)
    return rc;
  if (d->cfg.enable_profiling)
    dfi_profiling_enable(d); /* failures are warnings: counters stay 0 */
  dfi_roots_check(d);
  /* the devices present before any client uses them, so an idle GPU
   * still reports clients=0 */
  dfi_hotplug_refresh(d, /*init=*/true);
  dfi_fd_count_detect(d);
  dfi_open_watch(d);
  log_msg(LOG_LEVEL_INFO, DFI_PLUGIN, d->cfg.proc_root, "init",
          "instance \"%s\": %zu DRM/accel device(s) under %s", d->instance,
          d->n_devices, d->cfg.sysfs_root);
  return 0;
}

static int dfi_read(void *inst, struct metric_sink *sink) {
  struct dfi *d = inst;
  dfi_hotplug_refresh(d, /*init=*/false);
  int rc = dfi_scan(d);
  if (rc < 0)
    return rc;
  rc = dfi_groups_update(d);
  if (rc < 0)
    return rc;
  return dfi_report(d, sink, plugin_host_realtime_ns(d->host));
}

/* plugin.h: found. A device with a card and a render node is one. */
static int dfi_found(void *inst, char *text, size_t size) {
  const struct dfi *d = inst;
  struct found_text f;
  found_init(&f, text, size);
  for (size_t i = 0; i < d->n_devices; i++) {
    const struct dfi_device *v = &d->devices[i];
    bool twin = v->gone || v->excluded;
    for (size_t j = 0; j < i && !twin; j++)
      twin = !d->devices[j].gone && !d->devices[j].excluded &&
             strcmp(d->devices[j].name, v->name) == 0;
    if (!twin)
      found_add(&f, v->driver, v->name);
  }
  if (f.count > 0)
    return f.count;
  return found_none(&f,
                    "no DRM or accel device%s under %s/class/drm or "
                    "class/accel (clients are looked for in %s)",
                    d->cfg.filter.n_devices || d->cfg.filter.n_drivers
                        ? " matching Device/Driver"
                        : "",
                    d->cfg.sysfs_root, d->cfg.proc_root);
}

static void dfi_free(void *inst) {
  struct dfi *d = inst;
  if (d == NULL)
    return;
  dfi_profiling_restore(d);
  if (d->proc_fd >= 0)
    d->host->kernel->close(d->proc_fd);
  d->proc_fd = -1;
  if (d->notify_fd >= 0)
    d->host->kernel->close(d->notify_fd);
  d->notify_fd = -1;
  dfi_groups_free(d);
  dfi_names_free(d);
  dfi_client_table_fini(&d->clients);
  dfi_pids_fini(&d->pids);
  dfi_devices_free(d);
  free(d->debugfs_pids);
  fileio_buf_fini(&d->buf);
  dfi_config_fini(&d->cfg);
  free(d->instance);
  free(d);
}

/* collectd identities (collectd_map.h), e.g. for <Instance "gpu">:
 *   drm_fdinfo-gpu-0000:00:02.0/gpu_time-render-busy_ns        device
 *   drm_fdinfo-gpu-0000:00:02.0-1234-glxgears/bytes-system0-resident_bytes
 *   drm_fdinfo-gpu-0000:00:02.0-client7-glxgears/percent-render-utilization
 *   drm_fdinfo-gpu-0000:00:02.0-+user.slice+app.scope/gpu_time-render-busy_ns
 *   drm_fdinfo-gpu-0000:00:02.0-ml-trainer%2D0-cuda/percent-render-utilization
 *   drm_fdinfo-gpu-0000:00:02.0-host/gpu_time-render-busy_ns    container
 *   drm_fdinfo-gpu/objects-scan-processes
 * A process is its pid and comm, a client its id (unique per device) and
 * its process's comm; a cgroup path keeps its end when it must be cut; a
 * container is its namespace, pod and container (name or short id), the
 * processes in no container "host". */
#define DFI_RULE(measurement, part, scope, ...)                                \
  {                                                                            \
    measurement, "scope", scope, {{"device", NULL, 0}, __VA_ARGS__}, {         \
      { part, NULL, CM_FREE }                                                  \
    }                                                                          \
  }
#define DFI_RULES(scope, ...)                                                  \
  DFI_RULE("drm_engine", "engine", scope, __VA_ARGS__),                        \
      DFI_RULE("drm_memory", "region", scope, __VA_ARGS__)
#define DFI_RULE_HOST(measurement, part)                                       \
  {                                                                            \
    measurement, "container_runtime", "host",                                  \
        {{"device", NULL, 0}, {NULL, "host", 0}}, {                            \
      { part, NULL, CM_FREE }                                                  \
    }                                                                          \
  }
static const struct collectd_rule dfi_collectd_rules[] = {
    {"drm_clients", NULL, NULL, {{"device", NULL, 0}}, {{0}}},
    {"drm_scan", NULL, NULL, {{0}}, {{NULL, "scan", 0}}},
    DFI_RULES("device", {0}),
    DFI_RULES("process", {"pid", NULL, 0}, {"comm", NULL, CM_FREE}),
    DFI_RULES("client", {"client_id", "client", 0}, {"comm", NULL, CM_FREE}),
    DFI_RULES("cgroup", {"cgroup", NULL, CM_FREE | CM_TAIL}),
    /* only container series carry container_runtime */
    DFI_RULE_HOST("drm_engine", "engine"),
    DFI_RULE_HOST("drm_memory", "region"),
    DFI_RULES("container", {"namespace", NULL, CM_OPTIONAL},
              {"pod", NULL, CM_OPTIONAL},
              {"container", NULL, CM_OPTIONAL | CM_FREE | CM_TAIL}),
    {0},
};

const struct plugin_ops drm_fdinfo_ops = {
    .name = DFI_PLUGIN,
    .options = dfi_options,
    .instance_new = dfi_new,
    .configure = dfi_configure,
    .init = dfi_init,
    .read = dfi_read,
    .collectd_rules = dfi_collectd_rules,
    .help_example = NULL, /* no nested block */
    .found = dfi_found,
    .instance_free = dfi_free,
};
