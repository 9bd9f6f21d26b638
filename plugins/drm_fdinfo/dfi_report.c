/*
 * dfi_report.c: the records of one read, built from the state that
 * dfi_scan() and dfi_groups_update() left (dfi_groups.h), which this file
 * only reads: drm_clients, drm_engine and drm_memory per group, drm_scan.
 */
#include "plugins/drm_fdinfo/dfi_groups.h"

#include <stddef.h>
#include <string.h>

/* Remember the first failure of a read: later ones do not overwrite its
 * errno (ORing negative errnos together would make a new, wrong one). */
static void dfi_keep_first(int *rc, int result) {
  if (*rc == 0 && result < 0)
    *rc = result;
}

static void dfi_write(struct metric_sink *sink, const struct metric *m,
                      int *rc) {
  dfi_keep_first(rc, metric_sink_write(sink, m));
}

static const char *dfi_scope_name(unsigned scope) {
  switch (scope) {
  case DFI_SCOPE_DEVICE:
    return "device";
  case DFI_SCOPE_PROCESS:
    return "process";
  case DFI_SCOPE_CLIENT:
    return "client";
  case DFI_SCOPE_CONTAINER:
    return "container";
  default:
    return "cgroup";
  }
}

/* Short, stable tags first and long, free-form ones (process names,
 * client names, cgroup paths) last: collectd's plugin_instance lists them
 * in this order and, when it must be cut, keeps the front readable (the
 * hash at the end keeps every series distinct either way). `part_key` is
 * "engine" or "region", `part` its name. */
/* A container series' tags (kube-state-metrics' names for namespace,
 * pod and container, so PromQL joins to kube_pod_labels and friends):
 * `container_runtime` always ("host" for the processes in no container,
 * "cri" for a kubelet pod whose path names no runtime); `container` is
 * the name, else the 12-digit short id; `pod` the name, else the uid. */
static void dfi_container_tags(struct metric *m, const struct dfi_group *g,
                               char short_id[CGROUP_ID_SHORT_LEN + 1]) {
  const struct cgroup_id *id = &g->ctr;
  const char *runtime = cgroup_runtime_name(id->runtime);
  if (id->runtime == CGROUP_RUNTIME_NONE)
    runtime = id->pod_uid[0] ? "cri" : "host";
  metric_add_tag(m, "container_runtime", runtime);
  metric_add_tag(m, "namespace", g->names.namespace_);
  metric_add_tag(m, "pod", g->names.pod[0] ? g->names.pod : id->pod_uid);
  size_t n = strnlen(id->id, CGROUP_ID_SHORT_LEN);
  memcpy(short_id, id->id, n);
  short_id[n] = '\0';
  metric_add_tag(m, "container",
                 g->names.container[0] ? g->names.container : short_id);
  metric_add_tag(m, "pod_uid", id->pod_uid);
  metric_add_tag(m, "container_id", id->id);
}

static void dfi_tags(struct metric *m, const struct dfi_group *g,
                     const char *part_key, const char *part,
                     char short_id[CGROUP_ID_SHORT_LEN + 1]) {
  metric_add_tag(m, "scope", dfi_scope_name(g->scope));
  metric_add_tag(m, "driver", g->driver);
  metric_add_tag(m, "device", g->device);
  metric_add_tag(m, part_key, part);
  metric_add_tag(m, "pid", g->pid);
  metric_add_tag(m, "pid_start", g->pid_start);
  metric_add_tag(m, "client_id", g->client_id);
  metric_add_tag(m, "comm", g->comm);
  metric_add_tag(m, "client_name", g->client_name);
  metric_add_tag(m, "cgroup", g->cgroup);
  if (g->scope == DFI_SCOPE_CONTAINER)
    dfi_container_tags(m, g, short_id);
}

static int dfi_emit_group(struct metric_sink *sink, const struct dfi_group *g,
                          uint64_t time_ns) {
  int rc = 0;
  char short_id[CGROUP_ID_SHORT_LEN + 1]; /* the records borrow it */
  for (size_t i = 0; i < g->n_engines; i++) {
    const struct dfi_group_engine *e = &g->engines[i];
    struct metric m;
    metric_init(&m, "drm_engine", time_ns);
    dfi_tags(&m, g, "engine", e->name, short_id);
    if (e->present & FDINFO_ENGINE_BUSY)
      metric_add_int(&m, "busy_ns", "gpu_time", e->busy_ns);
    if (e->util_valid) /* clamped by dfi_groups_update() */
      metric_add_float(&m, "utilization", "percent", e->utilization);
    metric_add_int(&m, "capacity", "objects", e->capacity ? e->capacity : 1);
    if (e->present & FDINFO_ENGINE_CYCLES)
      metric_add_int(&m, "cycles", "gpu_cycles", e->cycles);
    if (e->present & FDINFO_ENGINE_TOTAL)
      metric_add_int(&m, "total_cycles", "gpu_cycles", e->total_cycles);
    dfi_write(sink, &m, &rc);
  }
  static const struct {
    unsigned bit;
    const char *field;
    size_t offset;
  } mem_fields[] = {
      {FDINFO_MEM_TOTAL, "total_bytes", offsetof(struct fdinfo_region, total)},
      {FDINFO_MEM_SHARED, "shared_bytes",
       offsetof(struct fdinfo_region, shared)},
      {FDINFO_MEM_RESIDENT, "resident_bytes",
       offsetof(struct fdinfo_region, resident)},
      {FDINFO_MEM_PURGEABLE, "purgeable_bytes",
       offsetof(struct fdinfo_region, purgeable)},
      {FDINFO_MEM_ACTIVE, "active_bytes",
       offsetof(struct fdinfo_region, active)},
  };
  for (size_t i = 0; i < g->n_regions; i++) {
    const struct fdinfo_region *r = &g->regions[i];
    struct metric m;
    metric_init(&m, "drm_memory", time_ns);
    dfi_tags(&m, g, "region", r->name, short_id);
    for (size_t k = 0; k < sizeof(mem_fields) / sizeof(mem_fields[0]); k++)
      if (r->present & mem_fields[k].bit)
        metric_add_int(
            &m, mem_fields[k].field, "bytes",
            *(const uint64_t *)((const char *)r + mem_fields[k].offset));
    if (m.n_fields > 0)
      dfi_write(sink, &m, &rc);
  }
  return rc;
}

static int dfi_emit_device(struct metric_sink *sink, const char *driver,
                           const char *device, uint64_t clients,
                           uint64_t processes, uint64_t unreadable,
                           uint64_t time_ns) {
  struct metric m;
  metric_init(&m, "drm_clients", time_ns);
  metric_add_tag(&m, "driver", driver[0] ? driver : "unknown");
  metric_add_tag(&m, "device", device);
  metric_add_int(&m, "clients", "objects", clients);
  metric_add_int(&m, "processes", "objects", processes);
  metric_add_int(&m, "unreadable", "objects", unreadable);
  return metric_sink_write(sink, &m);
}

int dfi_report(const struct dfi *d, struct metric_sink *sink,
               uint64_t time_ns) {
  const struct dfi_group_table *t = d->groups;
  int rc = 0;
  /* Devices that have no client now still report zero. */
  for (size_t i = 0; i < d->n_devices; i++) {
    const struct dfi_device *dev = &d->devices[i];
    if (dev->excluded || dev->gone)
      continue;
    bool has_group = false, earlier = false;
    for (size_t k = 0; t != NULL && k < t->n_order && !has_group; k++)
      has_group = t->order[k]->scope == DFI_SCOPE_DEVICE &&
                  strcmp(t->order[k]->device, dev->name) == 0;
    for (size_t k = 0; k < i && !earlier; k++)
      earlier = !d->devices[k].excluded && !d->devices[k].gone &&
                strcmp(d->devices[k].name, dev->name) == 0;
    if (!has_group && !earlier)
      dfi_keep_first(&rc, dfi_emit_device(sink, dev->driver, dev->name, 0, 0,
                                          d->stats.unreadable, time_ns));
  }

  /* Devices first, then processes ranked by utilisation (those over
   * MaxProcesses left out), then clients and cgroups. */
  for (size_t i = 0; t != NULL && i < t->n_order; i++) {
    const struct dfi_group *g = t->order[i];
    if (g->scope == DFI_SCOPE_DEVICE) {
      dfi_keep_first(&rc, dfi_emit_device(sink, g->driver, g->device,
                                          g->clients, g->processes,
                                          d->stats.unreadable, time_ns));
      if (d->cfg.report_by & DFI_SCOPE_DEVICE)
        dfi_keep_first(&rc, dfi_emit_group(sink, g, time_ns));
    } else if (!g->unreported) {
      dfi_keep_first(&rc, dfi_emit_group(sink, g, time_ns));
    }
  }

  struct metric m;
  metric_init(&m, "drm_scan", time_ns);
  metric_add_int(&m, "processes", "objects", d->stats.processes);
  metric_add_int(&m, "fds", "objects", d->stats.fds);
  metric_add_int(&m, "fdinfo_reads", "objects", d->stats.fdinfo_reads);
  metric_add_int(&m, "clients", "objects", d->clients.count);
  metric_add_int(&m, "unreadable", "objects", d->stats.unreadable);
  metric_add_int(&m, "clients_untracked", "objects",
                 d->stats.clients_untracked);
  metric_add_int(&m, "processes_unreported", "objects",
                 d->stats.processes_unreported);
  if (d->cfg.report_by & DFI_SCOPE_CONTAINER)
    metric_add_int(&m, "containers_unreported", "objects",
                   d->stats.containers_unreported);
  metric_add_int(&m, "oversized", "objects", d->stats.oversized);
  metric_add_int(&m, "malformed", "objects", d->stats.malformed);
  metric_add_int(&m, "unknown_keys", "objects", d->stats.unknown_keys);
  metric_add_int(&m, "clamped", "gpu_events", d->clamped_total);
  metric_add_int(&m, "full_scans", "gpu_events", d->full_scans_total);
  dfi_write(sink, &m, &rc);
  return rc;
}
