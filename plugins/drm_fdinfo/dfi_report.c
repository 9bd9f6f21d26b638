/*
 * dfi_report.c: folding clients into the series the user asked for
 * (ReportBy Device, Process, Client, Cgroup) and writing the records.
 *
 * Counters: a client's busy_ns/cycles are its own (held) values. A group
 * (device, process, cgroup) reports the progress its clients made since
 * the group first appeared, accumulated read by read, so its counters never
 * go backwards when a client closes and never count a client's history from
 * before we saw it. Utilisation of a group is the sum of its clients'
 * utilisation (each already divided by the engine capacity), clamped to 100.
 * Memory is a snapshot: the sum over the clients open now.
 */
#include "plugins/drm_fdinfo/dfi.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct dfi_group_engine {
  char name[FDINFO_NAME_MAX];
  unsigned present;
  uint64_t busy_ns, cycles, total_cycles;
  uint64_t d_total_read; /* largest client delta of total_cycles this read */
  uint64_t capacity;
  double utilization;
  bool util_valid;
};

struct dfi_group {
  char key[DFI_DEVICE_MAX + DFI_CGROUP_MAX + 48];
  unsigned scope;
  char driver[FDINFO_STRING_MAX];
  char device[DFI_DEVICE_MAX];
  char pid[16];
  char comm[DFI_COMM_MAX];
  char client_id[24];
  char client_name[FDINFO_STRING_MAX];
  char cgroup[DFI_CGROUP_MAX];
  uint64_t gen;
  uint64_t clients, processes;
  double util_total; /* for ranking processes */
  size_t n_engines;
  struct dfi_group_engine engines[FDINFO_MAX_ENGINES];
  size_t n_regions;
  struct fdinfo_region regions[FDINFO_MAX_REGIONS];
};

struct dfi_group_table {
  struct dfi_group **slots;
  size_t cap, count;
};

static uint64_t dfi_group_hash(const char *key) {
  uint64_t h = 1469598103934665603ull;
  for (const unsigned char *p = (const unsigned char *)key; *p; p++)
    h = (h ^ *p) * 1099511628211ull;
  return h ^ (h >> 31);
}

static size_t dfi_group_slot(const struct dfi_group_table *t, const char *key) {
  size_t mask = t->cap - 1, i = dfi_group_hash(key) & mask;
  while (t->slots[i] != NULL && strcmp(t->slots[i]->key, key) != 0)
    i = (i + 1) & mask;
  return i;
}

static int dfi_group_table_grow(struct dfi_group_table *t, size_t cap) {
  size_t n = 64;
  while (n < cap)
    n *= 2;
  struct dfi_group **slots = calloc(n, sizeof(*slots));
  if (slots == NULL)
    return -ENOMEM;
  struct dfi_group_table bigger = {slots, n, 0};
  for (size_t i = 0; i < t->cap; i++)
    if (t->slots[i] != NULL) {
      bigger.slots[dfi_group_slot(&bigger, t->slots[i]->key)] = t->slots[i];
      bigger.count++;
    }
  free(t->slots);
  *t = bigger;
  return 0;
}

static struct dfi_group *dfi_group_get(struct dfi_group_table *t,
                                       const char *key, bool *created) {
  *created = false;
  if ((t->count + 1) * 2 > t->cap && dfi_group_table_grow(t, t->cap * 2) < 0)
    return NULL;
  size_t slot = dfi_group_slot(t, key);
  if (t->slots[slot] != NULL)
    return t->slots[slot];
  struct dfi_group *g = calloc(1, sizeof(*g));
  if (g == NULL)
    return NULL;
  snprintf(g->key, sizeof(g->key), "%s", key);
  t->slots[slot] = g;
  t->count++;
  *created = true;
  return g;
}

/* Drop groups not seen in generation `gen` (their clients are all gone). */
static void dfi_group_table_prune(struct dfi_group_table *t, uint64_t gen) {
  struct dfi_group_table kept = {NULL, 0, 0};
  if (dfi_group_table_grow(&kept, t->count * 2 + 1) < 0)
    return; /* keep everything; tried again next read */
  for (size_t i = 0; i < t->cap; i++) {
    struct dfi_group *g = t->slots[i];
    if (g == NULL)
      continue;
    if (g->gen == gen) {
      kept.slots[dfi_group_slot(&kept, g->key)] = g;
      kept.count++;
    } else {
      free(g);
    }
  }
  free(t->slots);
  *t = kept;
}

void dfi_groups_free(struct dfi *d) {
  struct dfi_group_table *t = d->groups;
  if (t == NULL)
    return;
  for (size_t i = 0; i < t->cap; i++)
    free(t->slots[i]);
  free(t->slots);
  free(t);
  d->groups = NULL;
}

static struct dfi_group_engine *dfi_group_engine(struct dfi_group *g,
                                                 const char *name) {
  for (size_t i = 0; i < g->n_engines; i++)
    if (strcmp(g->engines[i].name, name) == 0)
      return &g->engines[i];
  if (g->n_engines == FDINFO_MAX_ENGINES)
    return NULL;
  struct dfi_group_engine *e = &g->engines[g->n_engines++];
  memset(e, 0, sizeof(*e));
  snprintf(e->name, sizeof(e->name), "%s", name);
  return e;
}

static struct fdinfo_region *dfi_group_region(struct dfi_group *g,
                                              const char *name) {
  for (size_t i = 0; i < g->n_regions; i++)
    if (strcmp(g->regions[i].name, name) == 0)
      return &g->regions[i];
  if (g->n_regions == FDINFO_MAX_REGIONS)
    return NULL;
  struct fdinfo_region *r = &g->regions[g->n_regions++];
  memset(r, 0, sizeof(*r));
  snprintf(r->name, sizeof(r->name), "%s", name);
  return r;
}

static void dfi_group_key(char *key, size_t size, unsigned scope,
                          const struct dfi_client *c) {
  switch (scope) {
  case DFI_SCOPE_DEVICE:
    snprintf(key, size, "d|%s", c->device);
    break;
  case DFI_SCOPE_PROCESS:
    snprintf(key, size, "p|%s|%d", c->device, (int)c->owner);
    break;
  case DFI_SCOPE_CLIENT:
    snprintf(key, size, "c|%s|%llu", c->device, (unsigned long long)c->id);
    break;
  default:
    snprintf(key, size, "g|%s|%s", c->device, c->cgroup);
    break;
  }
}

static void dfi_group_fold(struct dfi_group *g, const struct dfi_client *c) {
  bool own_counters = g->scope == DFI_SCOPE_CLIENT;
  for (size_t i = 0; i < c->n_engines; i++) {
    const struct dfi_engine_state *e = &c->engines[i];
    struct dfi_group_engine *ge = dfi_group_engine(g, e->name);
    if (ge == NULL)
      continue;
    ge->present |= e->present;
    if (own_counters) {
      ge->busy_ns = e->busy_ns;
      ge->cycles = e->cycles;
      ge->total_cycles = e->total_cycles;
    } else {
      ge->busy_ns += e->d_busy_ns;
      ge->cycles += e->d_cycles;
      /* drm-total-cycles is the GPU's own clock, the same for every client
       * (xe): a group advances by the largest client delta, not the sum */
      if (e->d_total_cycles > ge->d_total_read) {
        ge->total_cycles += e->d_total_cycles - ge->d_total_read;
        ge->d_total_read = e->d_total_cycles;
      }
    }
    if (e->capacity > ge->capacity)
      ge->capacity = e->capacity;
    if (e->util_valid) {
      ge->utilization += e->utilization;
      ge->util_valid = true;
      g->util_total += e->utilization;
    }
  }
  for (size_t i = 0; i < c->n_regions; i++) {
    const struct fdinfo_region *r = &c->regions[i];
    struct fdinfo_region *gr = dfi_group_region(g, r->name);
    if (gr == NULL)
      continue;
    gr->present |= r->present;
    gr->total += r->total;
    gr->shared += r->shared;
    gr->resident += r->resident;
    gr->purgeable += r->purgeable;
    gr->active += r->active;
  }
  g->clients++;
}

/* Start a new read for a group: per-read sums go back to zero, the
 * accumulated counters stay. */
static void dfi_group_begin(struct dfi_group *g, uint64_t gen) {
  g->gen = gen;
  g->clients = g->processes = 0;
  g->util_total = 0;
  for (size_t i = 0; i < g->n_engines; i++) {
    g->engines[i].utilization = 0;
    g->engines[i].util_valid = false;
    g->engines[i].d_total_read = 0;
  }
  g->n_regions = 0;
}

static void dfi_group_tags(struct dfi_group *g, unsigned scope,
                           const struct dfi_client *c) {
  g->scope = scope;
  snprintf(g->driver, sizeof(g->driver), "%s", c->driver);
  snprintf(g->device, sizeof(g->device), "%s", c->device);
  if (scope == DFI_SCOPE_PROCESS || scope == DFI_SCOPE_CLIENT) {
    snprintf(g->pid, sizeof(g->pid), "%d", (int)c->owner);
    snprintf(g->comm, sizeof(g->comm), "%s", c->comm);
  }
  if (scope == DFI_SCOPE_CLIENT) {
    snprintf(g->client_id, sizeof(g->client_id), "%llu",
             (unsigned long long)c->id);
    snprintf(g->client_name, sizeof(g->client_name), "%s", c->name);
  }
  if (scope == DFI_SCOPE_CGROUP)
    snprintf(g->cgroup, sizeof(g->cgroup), "%s", c->cgroup);
}

static const char *dfi_scope_name(unsigned scope) {
  switch (scope) {
  case DFI_SCOPE_DEVICE:
    return "device";
  case DFI_SCOPE_PROCESS:
    return "process";
  case DFI_SCOPE_CLIENT:
    return "client";
  default:
    return "cgroup";
  }
}

static void dfi_tags(struct metric *m, const struct dfi_group *g) {
  metric_add_tag(m, "scope", dfi_scope_name(g->scope));
  metric_add_tag(m, "driver", g->driver);
  metric_add_tag(m, "device", g->device);
  metric_add_tag(m, "pid", g->pid);
  metric_add_tag(m, "comm", g->comm);
  metric_add_tag(m, "client_id", g->client_id);
  metric_add_tag(m, "client_name", g->client_name);
  metric_add_tag(m, "cgroup", g->cgroup);
}

static int dfi_emit_group(struct dfi *d, struct metric_sink *sink,
                          struct dfi_group *g, uint64_t time_ns) {
  int rc = 0;
  for (size_t i = 0; i < g->n_engines; i++) {
    struct dfi_group_engine *e = &g->engines[i];
    struct metric m;
    metric_init(&m, "drm_engine", time_ns);
    dfi_tags(&m, g);
    metric_add_tag(&m, "engine", e->name);
    if (e->present & FDINFO_ENGINE_BUSY)
      metric_add_int(&m, "busy_ns", "derive", e->busy_ns);
    if (e->util_valid) {
      double util = e->utilization;
      if (util > 100.0) {
        util = 100.0;
        d->clamped_total++;
      }
      metric_add_float(&m, "utilization", "percent", util);
    }
    metric_add_int(&m, "capacity", "count", e->capacity ? e->capacity : 1);
    if (e->present & FDINFO_ENGINE_CYCLES)
      metric_add_int(&m, "cycles", "derive", e->cycles);
    if (e->present & FDINFO_ENGINE_TOTAL)
      metric_add_int(&m, "total_cycles", "derive", e->total_cycles);
    rc |= metric_sink_write(sink, &m);
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
    dfi_tags(&m, g);
    metric_add_tag(&m, "region", r->name);
    for (size_t k = 0; k < sizeof(mem_fields) / sizeof(mem_fields[0]); k++)
      if (r->present & mem_fields[k].bit)
        metric_add_int(
            &m, mem_fields[k].field, "bytes",
            *(const uint64_t *)((const char *)r + mem_fields[k].offset));
    if (m.n_fields > 0)
      rc |= metric_sink_write(sink, &m);
  }
  return rc;
}

struct dfi_owner {
  const char *device;
  pid_t pid;
};

static int dfi_owner_cmp(const void *a, const void *b) {
  const struct dfi_owner *x = a, *y = b;
  int c = strcmp(x->device, y->device);
  if (c != 0)
    return c;
  return (x->pid > y->pid) - (x->pid < y->pid);
}

static int dfi_rank_cmp(const void *a, const void *b) {
  const struct dfi_group *x = *(struct dfi_group *const *)a;
  const struct dfi_group *y = *(struct dfi_group *const *)b;
  int c = strcmp(x->device, y->device);
  if (c != 0)
    return c;
  return (x->util_total < y->util_total) - (x->util_total > y->util_total);
}

static void dfi_emit_device(struct metric_sink *sink, const char *driver,
                            const char *device, uint64_t clients,
                            uint64_t processes, uint64_t unreadable,
                            uint64_t time_ns) {
  struct metric m;
  metric_init(&m, "drm_device", time_ns);
  metric_add_tag(&m, "driver", driver[0] ? driver : "unknown");
  metric_add_tag(&m, "device", device);
  metric_add_int(&m, "clients", "count", clients);
  metric_add_int(&m, "processes", "count", processes);
  metric_add_int(&m, "unreadable", "count", unreadable);
  metric_sink_write(sink, &m);
}

int dfi_report(struct dfi *d, struct metric_sink *sink, uint64_t time_ns) {
  if (d->groups == NULL) {
    d->groups = calloc(1, sizeof(*d->groups));
    if (d->groups == NULL || dfi_group_table_grow(d->groups, 64) < 0)
      return -ENOMEM;
  }
  unsigned scopes = d->cfg.report_by | DFI_SCOPE_DEVICE; /* drm_device */
  struct dfi_owner *owners = malloc((d->clients.count + 1) * sizeof(*owners));
  size_t n_owners = 0;
  if (owners == NULL)
    return -ENOMEM;

  struct dfi_client *c;
  dfi_client_for_each(&d->clients, i, c) {
    if (c->seen_gen != d->gen)
      continue;
    owners[n_owners++] = (struct dfi_owner){c->device, c->owner};
    for (unsigned scope = 1; scope <= DFI_SCOPE_CGROUP; scope <<= 1) {
      if (!(scopes & scope))
        continue;
      char key[sizeof(((struct dfi_group *)0)->key)];
      dfi_group_key(key, sizeof(key), scope, c);
      bool created;
      struct dfi_group *g = dfi_group_get(d->groups, key, &created);
      if (g == NULL)
        continue;
      if (created)
        dfi_group_tags(g, scope, c);
      if (g->gen != d->gen)
        dfi_group_begin(g, d->gen);
      if (scope == DFI_SCOPE_PROCESS || scope == DFI_SCOPE_CLIENT)
        snprintf(g->comm, sizeof(g->comm), "%s", c->comm);
      dfi_group_fold(g, c);
    }
  }

  /* Distinct owner processes per device. */
  qsort(owners, n_owners, sizeof(*owners), dfi_owner_cmp);
  for (size_t i = 0; i < n_owners; i++) {
    if (i > 0 && dfi_owner_cmp(&owners[i - 1], &owners[i]) == 0)
      continue;
    char key[DFI_DEVICE_MAX + 4];
    snprintf(key, sizeof(key), "d|%s", owners[i].device);
    bool created;
    struct dfi_group *g = dfi_group_get(d->groups, key, &created);
    if (g != NULL)
      g->processes++;
  }
  free(owners);

  /* Emit: devices first, then processes ranked by utilisation with the
   * MaxProcesses cap per device, then clients and cgroups. */
  struct dfi_group_table *t = d->groups;
  struct dfi_group **list = malloc((t->count + 1) * sizeof(*list));
  if (list == NULL)
    return -ENOMEM;
  size_t n = 0;
  for (size_t i = 0; i < t->cap; i++)
    if (t->slots[i] != NULL && t->slots[i]->gen == d->gen)
      list[n++] = t->slots[i];
  qsort(list, n, sizeof(*list), dfi_rank_cmp);

  /* Devices that have no client now still report zero. */
  for (size_t i = 0; i < d->n_devices; i++) {
    const struct dfi_device *dev = &d->devices[i];
    if (dev->excluded)
      continue;
    bool has_group = false, earlier = false;
    for (size_t k = 0; k < n && !has_group; k++)
      has_group = list[k]->scope == DFI_SCOPE_DEVICE &&
                  strcmp(list[k]->device, dev->name) == 0;
    for (size_t k = 0; k < i && !earlier; k++)
      earlier = strcmp(d->devices[k].name, dev->name) == 0;
    if (!has_group && !earlier)
      dfi_emit_device(sink, dev->driver, dev->name, 0, 0, d->stats.unreadable,
                      time_ns);
  }

  int rc = 0;
  const char *device = NULL;
  uint64_t emitted = 0;
  for (size_t i = 0; i < n; i++) {
    struct dfi_group *g = list[i];
    if (g->scope == DFI_SCOPE_DEVICE) {
      dfi_emit_device(sink, g->driver, g->device, g->clients, g->processes,
                      d->stats.unreadable, time_ns);
      if (d->cfg.report_by & DFI_SCOPE_DEVICE)
        rc |= dfi_emit_group(d, sink, g, time_ns);
      continue;
    }
    if (g->scope == DFI_SCOPE_PROCESS) {
      if (device == NULL || strcmp(device, g->device) != 0)
        device = g->device, emitted = 0;
      if (emitted++ >= d->cfg.max_processes) {
        d->stats.processes_unreported++;
        continue;
      }
    }
    rc |= dfi_emit_group(d, sink, g, time_ns);
  }
  free(list);
  dfi_group_table_prune(t, d->gen);

  struct metric m;
  metric_init(&m, "drm_scan", time_ns);
  metric_add_int(&m, "processes", "count", d->stats.processes);
  metric_add_int(&m, "fds", "count", d->stats.fds);
  metric_add_int(&m, "fdinfo_reads", "count", d->stats.fdinfo_reads);
  metric_add_int(&m, "clients", "count", d->clients.count);
  metric_add_int(&m, "unreadable", "count", d->stats.unreadable);
  metric_add_int(&m, "clients_untracked", "count", d->stats.clients_untracked);
  metric_add_int(&m, "processes_unreported", "count",
                 d->stats.processes_unreported);
  metric_add_int(&m, "oversized", "count", d->stats.oversized);
  metric_add_int(&m, "clamped", "derive", d->clamped_total);
  metric_add_int(&m, "full_scans", "derive", d->full_scans_total);
  rc |= metric_sink_write(sink, &m);
  return rc;
}
