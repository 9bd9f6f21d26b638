/*
 * dfi_clients.h: drm_fdinfo's client table: one entry per DRM client
 * (device, drm-client-id), the (pid, fd) pairs holding it, and the
 * per-engine counter state under the fdinfo monotonic rule
 * (dfi_clients.c).
 */
#ifndef PLUGINS_DRM_FDINFO_DFI_CLIENTS_H
#define PLUGINS_DRM_FDINFO_DFI_CLIENTS_H

#include "common/container/cgroup_id.h"
#include "common/core/counter.h"
#include "common/drm/fdinfo_parse.h"

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#define DFI_MAX_HOLDERS 4 /* (pid, fd) pairs remembered per client */
#define DFI_COMM_MAX 64
#define DFI_CGROUP_MAX 256
#define DFI_DEVICE_MAX 64
#define DFI_START_MAX 24 /* a u64 in decimal */

struct dfi_holder {
  pid_t pid;
  int fd;
  dev_t rdev;
};

struct dfi_engine_state {
  char name[FDINFO_NAME_MAX];
  unsigned present;            /* FDINFO_ENGINE_* seen at the last update */
  struct counter_hold busy_ns; /* held (monotonic) values */
  struct counter_hold cycles;
  struct counter_hold total_cycles;
  uint64_t capacity;
  uint64_t maxfreq_hz;
  uint64_t d_busy_ns; /* progress in the last update */
  uint64_t d_cycles;
  uint64_t d_total_cycles;
  double utilization; /* percent, valid when util_valid */
  bool util_valid;
};

struct dfi_client {
  char device[DFI_DEVICE_MAX]; /* key part 1 */
  uint64_t id;                 /* key part 2: drm-client-id */
  bool synthetic_id;           /* no drm-client-id: id = pid << 32 | fd */
  char driver[FDINFO_STRING_MAX];
  char name[FDINFO_STRING_MAX]; /* drm-client-name */
  pid_t owner;
  char comm[DFI_COMM_MAX];
  char owner_start[DFI_START_MAX]; /* the owner's start time, or "" */
  char cgroup[DFI_CGROUP_MAX];
  struct cgroup_id ctr; /* its owner's container, when ReportBy Container */
  bool ctr_read;        /* ctr was read from the owner's cgroup file */
  struct dfi_holder holders[DFI_MAX_HOLDERS];
  size_t n_holders;
  uint64_t created_gen; /* read generation it was first found in */
  uint64_t seen_gen;    /* last read generation it was found in */
  uint64_t updated_gen; /* last generation its counters were read */
  uint64_t last_mono_ns;
  bool have_sample;
  size_t n_engines;
  struct dfi_engine_state engines[FDINFO_MAX_ENGINES];
  size_t n_regions;
  struct fdinfo_region regions[FDINFO_MAX_REGIONS];
};

/* Open-addressing hash table of clients keyed by (device, id). */
struct dfi_client_table {
  struct dfi_client **slots; /* NULL = empty, DFI_TOMBSTONE = removed */
  size_t cap;                /* power of two */
  size_t count;              /* live clients */
  size_t used;               /* live + tombstones */
};
extern struct dfi_client dfi_tombstone;
#define DFI_TOMBSTONE (&dfi_tombstone)

int dfi_client_table_init(struct dfi_client_table *t, size_t cap);
void dfi_client_table_fini(struct dfi_client_table *t);
struct dfi_client *dfi_client_find(const struct dfi_client_table *t,
                                   const char *device, uint64_t id);
/* Insert a new zeroed client with the key set; NULL on ENOMEM. */
struct dfi_client *dfi_client_insert(struct dfi_client_table *t,
                                     const char *device, uint64_t id);
/* Remove and free; safe inside dfi_client_for_each (leaves a tombstone). */
void dfi_client_remove(struct dfi_client_table *t, struct dfi_client *c);
/* Fold a fresh fdinfo sample taken at `mono_ns` into the client; returns
 * how many utilisation values had to be clamped into [0, 100]. */
unsigned dfi_client_update(struct dfi_client *c, const struct fdinfo *fi,
                           uint64_t mono_ns);
/* Mark a sample where the device was runtime-suspended: no progress. */
void dfi_client_idle(struct dfi_client *c, uint64_t mono_ns);
#define dfi_client_for_each(t, i, c)                                           \
  for (size_t i = 0; i < (t)->cap; i++)                                        \
    if (((c) = (t)->slots[i]) != NULL && (c) != DFI_TOMBSTONE)

#endif
