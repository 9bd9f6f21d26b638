/*
 * dfi_groups.c: folding the clients of a read into the series the user
 * asked for (ReportBy Device, Process, Client, Cgroup, Container); see
 * dfi_groups.h.
 *
 * Counters: a client's busy_ns/cycles are its own (held) values. A group
 * (device, process, cgroup) accumulates the progress its clients made since
 * the group first appeared, read by read, so its counters never go
 * backwards when a client closes and never count a client's history from
 * before we saw it. Utilisation of a group is the sum of its clients'
 * utilisation (each already divided by the engine capacity), clamped to 100.
 * Memory is a snapshot: the sum over the clients open now.
 */
#include "plugins/drm_fdinfo/dfi_groups.h"
#include "common/core/named.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t dfi_group_hash(const char *key) {
  uint64_t h = text_hash64(key, strlen(key));
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
  struct dfi_group_table bigger = {slots, n, 0, t->order, t->n_order};
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
  struct dfi_group_table kept = {NULL, 0, 0, t->order, t->n_order};
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
  free(t->order);
  free(t);
  d->groups = NULL;
}

static struct dfi_group_engine *dfi_group_engine(struct dfi_group *g,
                                                 const char *name) {
  return NAMED_FIND_OR_ADD(g->engines, g->n_engines, FDINFO_MAX_ENGINES, name,
                           name, strlen(name), NULL);
}

static struct fdinfo_region *dfi_group_region(struct dfi_group *g,
                                              const char *name) {
  return NAMED_FIND_OR_ADD(g->regions, g->n_regions, FDINFO_MAX_REGIONS, name,
                           name, strlen(name), NULL);
}

static void dfi_group_key(char *key, size_t size, unsigned scope,
                          const struct dfi_client *c) {
  switch (scope) {
  case DFI_SCOPE_DEVICE:
    snprintf(key, size, "d|%s", c->device);
    break;
  case DFI_SCOPE_PROCESS:
    snprintf(key, size, "p|%s|%d|%s", c->device, (int)c->owner, c->owner_start);
    break;
  case DFI_SCOPE_CLIENT:
    snprintf(key, size, "c|%s|%llu", c->device, (unsigned long long)c->id);
    break;
  case DFI_SCOPE_CONTAINER: /* the host's processes: one series */
    snprintf(key, size, "k|%s|%d|%s|%s|%s", c->device, (int)c->ctr.runtime,
             c->ctr.id, c->ctr.name, c->ctr.pod_uid);
    break;
  default:
    snprintf(key, size, "g|%s|%s", c->device, c->cgroup);
    break;
  }
}

/* *sum += v, saturating at UINT64_MAX (counted in *saturated): sums of
 * hostile or huge values must not wrap to small ones. */
static void dfi_sum(uint64_t *sum, uint64_t v, unsigned *saturated) {
  bool sat = false;
  *sum = counter_add_sat(*sum, v, &sat);
  *saturated += sat;
}

/* Fold client c into group g; returns how many sums saturated. */
static unsigned dfi_group_fold(struct dfi_group *g,
                               const struct dfi_client *c) {
  unsigned sat = 0;
  bool own_counters = g->scope == DFI_SCOPE_CLIENT;
  for (size_t i = 0; i < c->n_engines; i++) {
    const struct dfi_engine_state *e = &c->engines[i];
    struct dfi_group_engine *ge = dfi_group_engine(g, e->name);
    if (ge == NULL)
      continue;
    ge->present |= e->present;
    if (own_counters) {
      ge->busy_ns = e->busy_ns.value;
      ge->cycles = e->cycles.value;
      ge->total_cycles = e->total_cycles.value;
    } else {
      dfi_sum(&ge->busy_ns, e->d_busy_ns, &sat);
      dfi_sum(&ge->cycles, e->d_cycles, &sat);
      /* drm-total-cycles is the GPU's own clock, the same for every client
       * (xe): a group advances by the largest client delta, not the sum */
      if (e->d_total_cycles > ge->d_total_read) {
        dfi_sum(&ge->total_cycles, e->d_total_cycles - ge->d_total_read, &sat);
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
    dfi_sum(&gr->total, r->total, &sat);
    dfi_sum(&gr->shared, r->shared, &sat);
    dfi_sum(&gr->resident, r->resident, &sat);
    dfi_sum(&gr->purgeable, r->purgeable, &sat);
    dfi_sum(&gr->active, r->active, &sat);
  }
  g->clients++;
  return sat;
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
    snprintf(g->pid_start, sizeof(g->pid_start), "%s", c->owner_start);
    snprintf(g->comm, sizeof(g->comm), "%s", c->comm);
  }
  if (scope == DFI_SCOPE_CLIENT) {
    snprintf(g->client_id, sizeof(g->client_id), "%llu",
             (unsigned long long)c->id);
    snprintf(g->client_name, sizeof(g->client_name), "%s", c->name);
  }
  if (scope == DFI_SCOPE_CGROUP)
    snprintf(g->cgroup, sizeof(g->cgroup), "%s", c->cgroup);
  if (scope == DFI_SCOPE_CONTAINER)
    g->ctr = c->ctr;
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

/* Distinct owner processes per device, counted into the device groups. */
static int dfi_groups_count_processes(struct dfi *d) {
  struct dfi_owner *owners = malloc((d->clients.count + 1) * sizeof(*owners));
  if (owners == NULL)
    return -ENOMEM;
  size_t n_owners = 0;
  struct dfi_client *c;
  dfi_client_for_each(&d->clients, i, c) {
    if (c->seen_gen == d->gen)
      owners[n_owners++] = (struct dfi_owner){c->device, c->owner};
  }
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
  return 0;
}

/* Fold the clients of this read into their groups. */
static void dfi_groups_fold_clients(struct dfi *d) {
  unsigned scopes = d->cfg.report_by | DFI_SCOPE_DEVICE; /* drm_clients */
  struct dfi_client *c;
  dfi_client_for_each(&d->clients, i, c) {
    if (c->seen_gen != d->gen)
      continue;
    for (unsigned scope = 1; scope <= DFI_SCOPE_LAST; scope <<= 1) {
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
      d->clamped_total += dfi_group_fold(g, c);
    }
  }
}

/* A group's utilisation is a sum over clients: clamp it to 100 %. */
static void dfi_groups_clamp(struct dfi *d) {
  struct dfi_group_table *t = d->groups;
  for (size_t i = 0; i < t->n_order; i++)
    for (size_t k = 0; k < t->order[i]->n_engines; k++) {
      struct dfi_group_engine *e = &t->order[i]->engines[k];
      if (e->util_valid && e->utilization > 100.0) {
        e->utilization = 100.0;
        d->clamped_total++;
      }
    }
}

/* Processes, and containers, ranked by utilisation per device; those
 * past MaxProcesses (counted apart for each) are marked and counted. */
static void dfi_groups_rank(struct dfi *d) {
  struct dfi_group_table *t = d->groups;
  qsort(t->order, t->n_order, sizeof(*t->order), dfi_rank_cmp);
  const char *device = NULL;
  uint64_t kept = 0, kept_ctr = 0;
  for (size_t i = 0; i < t->n_order; i++) {
    struct dfi_group *g = t->order[i];
    g->unreported = false;
    if (g->scope != DFI_SCOPE_PROCESS && g->scope != DFI_SCOPE_CONTAINER)
      continue;
    if (device == NULL || strcmp(device, g->device) != 0)
      device = g->device, kept = kept_ctr = 0;
    bool ctr = g->scope == DFI_SCOPE_CONTAINER;
    if ((ctr ? kept_ctr++ : kept++) >= d->cfg.max_processes) {
      g->unreported = true;
      if (ctr)
        d->stats.containers_unreported++;
      else
        d->stats.processes_unreported++;
    }
  }
}

/* The names of this read's container series (dfi_names.h). */
static void dfi_groups_name(struct dfi *d) {
  struct dfi_group_table *t = d->groups;
  for (size_t i = 0; i < t->n_order; i++)
    if (t->order[i]->scope == DFI_SCOPE_CONTAINER)
      dfi_names_lookup(d, &t->order[i]->ctr, &t->order[i]->names);
  dfi_names_sweep(d);
}

int dfi_groups_update(struct dfi *d) {
  if (d->groups == NULL) {
    d->groups = calloc(1, sizeof(*d->groups));
    if (d->groups == NULL)
      return -ENOMEM;
    if (dfi_group_table_grow(d->groups, 64) < 0) {
      free(d->groups);
      d->groups = NULL;
      return -ENOMEM;
    }
  }
  struct dfi_group_table *t = d->groups;
  dfi_groups_fold_clients(d);
  int rc = dfi_groups_count_processes(d);
  if (rc < 0)
    return rc;
  struct dfi_group **order = realloc(t->order, (t->count + 1) * sizeof(*order));
  if (order == NULL)
    return -ENOMEM;
  t->order = order;
  t->n_order = 0;
  for (size_t i = 0; i < t->cap; i++)
    if (t->slots[i] != NULL && t->slots[i]->gen == d->gen)
      t->order[t->n_order++] = t->slots[i];
  dfi_groups_clamp(d);
  dfi_groups_rank(d);
  if (d->cfg.report_by & DFI_SCOPE_CONTAINER) {
    dfi_names_refresh(d);
    dfi_groups_name(d);
  }
  dfi_group_table_prune(t, d->gen);
  return 0;
}
