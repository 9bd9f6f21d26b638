/*
 * dfi_pids.h: what drm_fdinfo remembers of every process between reads,
 * so that a read need not walk each /proc/<pid>/fd: the open-fd count the
 * kernel reports in st_size of /proc/<pid>/fd (Linux 6.2+), whether the
 * process could be read, and how many of its clients were over MaxClients
 * at its last walk. Open addressing keyed by pid; rebuilt without the
 * processes a read no longer saw.
 */
#ifndef PLUGINS_DRM_FDINFO_DFI_PIDS_H
#define PLUGINS_DRM_FDINFO_DFI_PIDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct dfi_pid {
  pid_t pid;          /* 0: empty slot */
  bool unreadable;    /* its fd directory said EACCES/EPERM */
  bool walked;        /* fd_count is known from a walk */
  uint32_t untracked; /* clients over MaxClients at its last walk */
  uint64_t fd_count;  /* st_size of /proc/<pid>/fd at its last look */
  uint64_t seen_gen;  /* last read that listed it in /proc */
};

struct dfi_pid_table {
  struct dfi_pid *slots;
  size_t cap; /* power of two, or 0 */
  size_t count;
};

/* The entry of `pid`, inserted zeroed (and *created set) when absent;
 * NULL on ENOMEM. Pointers stay valid until the next insert or sweep. */
struct dfi_pid *dfi_pids_get(struct dfi_pid_table *t, pid_t pid, bool *created);

/* Drop the entries not seen in read `gen` (exited processes). 0 or
 * -ENOMEM (then nothing is dropped). */
int dfi_pids_sweep(struct dfi_pid_table *t, uint64_t gen);

/* Unreadable processes and untracked clients over the whole table. */
void dfi_pids_totals(const struct dfi_pid_table *t, uint64_t *unreadable,
                     uint64_t *untracked);

void dfi_pids_fini(struct dfi_pid_table *t);

#endif
