/*
 * dfi_groups.h: the series drm_fdinfo reports (ReportBy Device, Process,
 * Client, Cgroup, Container) as state kept between reads: dfi_groups.c folds
 * the clients of a read into them, dfi_report.c turns them into records without
 * changing them.
 */
#ifndef PLUGINS_DRM_FDINFO_DFI_GROUPS_H
#define PLUGINS_DRM_FDINFO_DFI_GROUPS_H

#include "plugins/drm_fdinfo/dfi.h"
#include "plugins/drm_fdinfo/dfi_names.h"

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
  char pid_start[DFI_START_MAX];
  char comm[DFI_COMM_MAX];
  char client_id[24];
  char client_name[FDINFO_STRING_MAX];
  char cgroup[DFI_CGROUP_MAX];
  struct cgroup_id ctr;       /* container scope: its identity */
  struct dfi_ctr_names names; /* container scope: names found this read */
  uint64_t gen;
  uint64_t clients, processes;
  double util_total; /* for ranking processes */
  bool unreported;   /* over MaxProcesses on its device this read
                        (process and container series) */
  size_t n_engines;
  struct dfi_group_engine engines[FDINFO_MAX_ENGINES];
  size_t n_regions;
  struct fdinfo_region regions[FDINFO_MAX_REGIONS];
};

struct dfi_group_table {
  struct dfi_group **slots; /* open addressing by key */
  size_t cap, count;
  struct dfi_group **order; /* this read's groups, in report order */
  size_t n_order;
};

/* Fold every client seen in this read (d->gen) into its groups, count
 * the processes per device, clamp utilisation (counted in
 * d->clamped_total), rank processes and containers and mark those over
 * MaxProcesses on their device (counted in d->stats), look up the
 * containers' names (dfi_names.h), drop groups whose clients are all gone
 * (a container that ended ends its series at this read), and order the
 * rest for reporting. 0 or -ENOMEM (state then as before). */
int dfi_groups_update(struct dfi *d);

/* Free the group table; NULL-safe. */
void dfi_groups_free(struct dfi *d);

#endif
