/*
 * dfi_clients.c: the table of DRM clients and their counter state.
 *
 * A client is one struct drm_file, identified by (device, drm-client-id):
 * the spec allows ids unique per device only, so the id alone is not a key.
 * However many fds or processes share it (dup, fork, SCM_RIGHTS), it is
 * one entry and is counted once.
 *
 * Counter rules (Documentation/gpu/drm-usage-stats.rst): engine and cycle
 * values may go backwards for a while; the client then keeps the previous,
 * larger value as its baseline and reports no progress until the kernel
 * catches up. The delta of such a period is 0, never the previous delta
 * again (igt) and never an unsigned underflow (nvtop's xe path).
 */
#include "common/core/named.h"
#include "plugins/drm_fdinfo/dfi.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct dfi_client dfi_tombstone;

static uint64_t dfi_client_hash(const char *device, uint64_t id) {
  uint64_t h = text_hash64(device, strlen(device));
  h ^= id + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  return h ^ (h >> 29);
}

int dfi_client_table_init(struct dfi_client_table *t, size_t cap) {
  size_t n = 16;
  while (n < cap)
    n *= 2;
  t->slots = calloc(n, sizeof(*t->slots));
  if (t->slots == NULL)
    return -ENOMEM;
  t->cap = n;
  t->count = 0;
  t->used = 0;
  return 0;
}

void dfi_client_table_fini(struct dfi_client_table *t) {
  struct dfi_client *c;
  if (t->slots != NULL) {
    dfi_client_for_each(t, i, c) free(c);
  }
  free(t->slots);
  memset(t, 0, sizeof(*t));
}

static size_t dfi_client_slot(const struct dfi_client_table *t,
                              const char *device, uint64_t id) {
  size_t mask = t->cap - 1;
  size_t i = dfi_client_hash(device, id) & mask;
  while (t->slots[i] != NULL) {
    struct dfi_client *c = t->slots[i];
    if (c != DFI_TOMBSTONE && c->id == id && strcmp(c->device, device) == 0)
      return i;
    i = (i + 1) & mask;
  }
  return i; /* empty slot: not found */
}

struct dfi_client *dfi_client_find(const struct dfi_client_table *t,
                                   const char *device, uint64_t id) {
  return t->slots[dfi_client_slot(t, device, id)];
}

static int dfi_client_rehash(struct dfi_client_table *t, size_t cap) {
  struct dfi_client_table bigger;
  int rc = dfi_client_table_init(&bigger, cap);
  if (rc < 0)
    return rc;
  struct dfi_client *c;
  dfi_client_for_each(t, i, c) {
    size_t slot = dfi_client_slot(&bigger, c->device, c->id);
    bigger.slots[slot] = c;
    bigger.count++;
    bigger.used++;
  }
  free(t->slots);
  *t = bigger;
  return 0;
}

struct dfi_client *dfi_client_insert(struct dfi_client_table *t,
                                     const char *device, uint64_t id) {
  /* Keep the load (tombstones included) under 1/2 so probes stay short. */
  if ((t->used + 1) * 2 > t->cap &&
      dfi_client_rehash(t, (t->count + 1) * 4) < 0)
    return NULL;
  struct dfi_client *c = calloc(1, sizeof(*c));
  if (c == NULL)
    return NULL;
  snprintf(c->device, sizeof(c->device), "%s", device);
  c->id = id;
  size_t slot = dfi_client_slot(t, device, id);
  t->slots[slot] = c;
  t->count++;
  t->used++;
  return c;
}

void dfi_client_remove(struct dfi_client_table *t, struct dfi_client *c) {
  size_t slot = dfi_client_slot(t, c->device, c->id);
  if (t->slots[slot] != c)
    return;
  t->slots[slot] = DFI_TOMBSTONE;
  t->count--;
  free(c);
}

static struct dfi_engine_state *dfi_engine_state_get(struct dfi_client *c,
                                                     const char *name) {
  return NAMED_FIND_OR_ADD(c->engines, c->n_engines, FDINFO_MAX_ENGINES, name,
                           name, strlen(name), NULL);
}

static unsigned dfi_clamp(double *util) {
  if (*util > 100.0) {
    *util = 100.0;
    return 1;
  }
  if (*util < 0.0) {
    *util = 0.0;
    return 1;
  }
  return 0;
}

/*
 * Utilisation of one engine over the last period, in order of preference:
 *  - drm-cycles + drm-total-cycles (xe): both in the GPU clock domain,
 *    100 * dcycles / (dtotal * capacity);
 *  - drm-engine ns: 100 * dns / (dt * capacity), dt measured by us;
 *  - drm-cycles + drm-maxfreq (msm, panfrost, panthor without ns):
 *    100 * dcycles / (maxfreq * dt_s * capacity), frequency-weighted busy.
 */
static bool dfi_engine_utilization(const struct dfi_engine_state *e,
                                   uint64_t dt_ns, double *util) {
  double cap = (double)(e->capacity ? e->capacity : 1);
  unsigned p = e->present;
  if ((p & FDINFO_ENGINE_CYCLES) && (p & FDINFO_ENGINE_TOTAL)) {
    if (e->d_total_cycles == 0)
      return false;
    *util = 100.0 * (double)e->d_cycles / ((double)e->d_total_cycles * cap);
    return true;
  }
  if (dt_ns == 0)
    return false;
  if (p & FDINFO_ENGINE_BUSY) {
    *util = 100.0 * (double)e->d_busy_ns / ((double)dt_ns * cap);
    return true;
  }
  if ((p & FDINFO_ENGINE_CYCLES) && (p & FDINFO_ENGINE_MAXFREQ) &&
      e->maxfreq_hz > 0) {
    *util = 100.0 * (double)e->d_cycles /
            ((double)e->maxfreq_hz * ((double)dt_ns / 1e9) * cap);
    return true;
  }
  return false;
}

unsigned dfi_client_update(struct dfi_client *c, const struct fdinfo *fi,
                           uint64_t mono_ns) {
  bool first = !c->have_sample;
  uint64_t dt =
      first || mono_ns < c->last_mono_ns ? 0 : mono_ns - c->last_mono_ns;
  unsigned clamped = 0;

  /* Engines missing from this sample made no progress. */
  for (size_t i = 0; i < c->n_engines; i++) {
    struct dfi_engine_state *e = &c->engines[i];
    e->d_busy_ns = e->d_cycles = e->d_total_cycles = 0;
    e->util_valid = false;
  }
  for (size_t i = 0; i < fi->n_engines; i++) {
    const struct fdinfo_engine *src = &fi->engines[i];
    struct dfi_engine_state *e = dfi_engine_state_get(c, src->name);
    if (e == NULL)
      continue;
    /* An engine first seen on a known client (amdgpu prints engines only
     * once they have run) started from zero: its whole value is progress.
     * On a client seen for the first time the values are lifetime totals
     * from before we looked, so they only set the baseline. */
    e->present = src->present;
    e->capacity = src->capacity ? src->capacity : 1;
    if (src->present & FDINFO_ENGINE_MAXFREQ)
      e->maxfreq_hz = src->maxfreq_hz;
    if (src->present & FDINFO_ENGINE_BUSY)
      e->d_busy_ns = counter_hold_advance(&e->busy_ns, src->busy_ns);
    if (src->present & FDINFO_ENGINE_CYCLES)
      e->d_cycles = counter_hold_advance(&e->cycles, src->cycles);
    if (src->present & FDINFO_ENGINE_TOTAL)
      e->d_total_cycles =
          counter_hold_advance(&e->total_cycles, src->total_cycles);
    if (first) {
      e->d_busy_ns = e->d_cycles = e->d_total_cycles = 0;
      continue;
    }
    double util;
    if (dfi_engine_utilization(e, dt, &util)) {
      clamped += dfi_clamp(&util);
      e->utilization = util;
      e->util_valid = true;
    }
  }
  c->n_regions = fi->n_regions;
  memcpy(c->regions, fi->regions, fi->n_regions * sizeof(fi->regions[0]));
  snprintf(c->driver, sizeof(c->driver), "%s", fi->driver);
  snprintf(c->name, sizeof(c->name), "%s", fi->client_name);
  c->last_mono_ns = mono_ns;
  c->have_sample = true;
  return clamped;
}

void dfi_client_idle(struct dfi_client *c, uint64_t mono_ns) {
  for (size_t i = 0; i < c->n_engines; i++) {
    struct dfi_engine_state *e = &c->engines[i];
    e->d_busy_ns = e->d_cycles = e->d_total_cycles = 0;
    e->utilization = 0.0;
    e->util_valid = c->have_sample;
  }
  c->last_mono_ns = mono_ns;
}
