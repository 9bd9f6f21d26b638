/*
 * dfi.h: internal types of the drm_fdinfo plugin, shared by its files:
 *
 *   dfi_config.c   options and their validation
 *   dfi_devices.c  DRM/accel char devices: names from sysfs, runtime PM,
 *                  the panfrost/panthor profiling switch
 *   dfi_hotplug.c  devices that come and go (the sysfs class listing)
 *   dfi_clients.c  the client table and the per-engine counter state
 *                  (monotonic hold, utilisation)
 *   dfi_scan.c     finding clients: full /proc walk, debugfs client lists,
 *                  re-reading known fds
 *   dfi_groups.c   aggregation by device/process/client/cgroup/container
 *                  (state)
 *   dfi_names.c    container, pod and namespace names (kubelet log layout,
 *                  Docker and Podman state files)
 *   dfi_report.c   records of that state (reads it only)
 *   drm_fdinfo.c   the plugin_ops glue tying them together
 */
#ifndef PLUGINS_DRM_FDINFO_DFI_H
#define PLUGINS_DRM_FDINFO_DFI_H

#include "common/core/counter.h"
#include "common/core/fileio.h"
#include "common/core/log.h"
#include "common/core/metric.h"
#include "common/core/text.h"
#include "common/drm/fdinfo_parse.h"
#include "common/sysfs/dev_filter.h"
#include "plugins/drm_fdinfo/dfi_clients.h"
#include "plugins/drm_fdinfo/dfi_pids.h"
#include "plugins/drm_fdinfo/drm_fdinfo.h"

#include <regex.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#define DFI_PLUGIN "drm_fdinfo"
#define DFI_DRM_MAJOR 226          /* /dev/dri/card*, renderD* */
#define DFI_ACCEL_MAJOR 261        /* /dev/accel/accel* (DRM accel subsystem) */
#define DFI_FDINFO_MAX (64 * 1024) /* larger fdinfo files are cut, counted */

enum dfi_scope {
  DFI_SCOPE_DEVICE = 1 << 0,
  DFI_SCOPE_PROCESS = 1 << 1,
  DFI_SCOPE_CLIENT = 1 << 2,
  DFI_SCOPE_CGROUP = 1 << 3,
  DFI_SCOPE_CONTAINER = 1 << 4,
  DFI_SCOPE_LAST = DFI_SCOPE_CONTAINER,
};

struct dfi_config {
  char *proc_root;          /* ProcRoot */
  char *sysfs_root;         /* SysfsRoot */
  char *debugfs_root;       /* DebugfsRoot */
  char *dev_root;           /* DevRoot */
  char *pod_log_root;       /* PodLogRoot */
  char *container_log_root; /* ContainerLogRoot */
  char *docker_root;        /* DockerRoot */
  char *podman_root;        /* PodmanRoot */
  unsigned report_by;       /* DFI_SCOPE_* bits; 0 = not configured */
  bool has_process_match;
  regex_t process_match;       /* ProcessMatch (POSIX ERE on comm) */
  struct dev_filter filter;    /* Device, Driver */
  uint64_t max_clients;        /* MaxClients */
  uint64_t max_processes;      /* MaxProcesses (reported per device) */
  double full_scan_interval_s; /* FullScanInterval; -1 auto */
  double fd_count_interval_s;  /* FdCountInterval */
  bool wake_suspended;         /* WakeSuspended */
  bool enable_profiling;       /* EnableProfiling */
  bool use_debugfs;            /* UseDebugfs */
  int fd_count;                /* FdCount: -1 auto, 0 false, 1 true */
};

/* One DRM or accel char device, keyed by st_rdev. */
struct dfi_device {
  dev_t rdev;
  char name[DFI_DEVICE_MAX]; /* PCI address, platform name or minor name */
  char minor[32];            /* card0, renderD128, accel0, or "M:m" */
  char driver[32];           /* sysfs driver link; "" unknown */
  char pm_path[512];         /* power/runtime_status, "" if none */
  ino_t ino;                 /* of its <sysfs>/class entry; 0: not listed */
  bool gone;                 /* its class entry went: no record, no client */
  bool excluded;             /* Device/Driver filters rule it out */
  bool suspended;            /* runtime_status said so at this read */
  uint64_t checked_gen;      /* read generation of the PM check */
};

/* Per-read counters reported in drm_scan. */
struct dfi_stats {
  uint64_t processes;             /* pid directories walked */
  uint64_t fds;                   /* fds stat'ed */
  uint64_t fdinfo_reads;          /* fdinfo files read */
  uint64_t unreadable;            /* processes whose fds we may not see */
  uint64_t clients_untracked;     /* over MaxClients */
  uint64_t processes_unreported;  /* over MaxProcesses */
  uint64_t containers_unreported; /* container series over MaxProcesses */
  uint64_t oversized;             /* fdinfo files over DFI_FDINFO_MAX */
  uint64_t malformed;             /* standard keys with unreadable values */
  uint64_t unknown_keys;          /* drm-* keys not in the spec */
  bool full_scan;                 /* this read walks every process */
};

struct dfi_group_table; /* dfi_groups.h */
struct dfi_names;       /* dfi_names.h */

struct dfi {
  char *instance;
  struct dfi_config cfg;
  int proc_fd; /* O_DIRECTORY of ProcRoot, held between reads */
  const struct plugin_host *host; /* borrowed from init() on */

  struct dfi_device *devices; /* never shrinks: gone ones are marked */
  size_t n_devices, cap_devices;
  bool quiet_resolve; /* dfi_hotplug_refresh says what it resolves */
  bool dev_root_set;  /* DevRoot was configured (not the default) */

  struct dfi_client_table clients;
  uint64_t gen;
  uint64_t last_read_ns; /* monotonic: where the spread scan left off */
  bool scanned_once;
  bool fd_count_mode;        /* st_size of /proc/<pid>/fd is the fd count */
  int notify_fd;             /* inotify on <DevRoot>/{dri,accel}, or -1 */
  bool own_pid_ns;           /* ProcRoot is our pid namespace's /proc */
  pid_t last_pid;            /* last pid handed out at the last listing */
  uint64_t walk_window_ns;   /* every process walked once per window */
  uint64_t count_window_ns;  /* fd_count_mode: every count looked at once */
  struct dfi_pid_table pids; /* per process, between reads */
  struct dfi_pid *walking;   /* the process being walked, or NULL */

  /* debugfs client lists: pid multiset of the previous read, sorted. */
  pid_t *debugfs_pids;
  size_t n_debugfs_pids;
  bool debugfs_ok;

  struct fileio_buf buf;
  struct dfi_stats stats;
  uint64_t clamped_total; /* utilisation values clamped, cumulative */
  uint64_t full_scans_total;
  struct log_complaint eacces_complaint;
  struct log_complaint debugfs_complaint;
  struct log_complaint malformed_complaint;

  /* profiling switches changed at init, restored at free */
  char **profiling_paths;
  char **profiling_old;
  size_t n_profiling;

  struct dfi_group_table *groups;
  struct dfi_names *names; /* ReportBy Container: the name tables */
};

/* dfi_config.c */
void dfi_config_defaults(struct dfi_config *cfg);
void dfi_config_fini(struct dfi_config *cfg);
int dfi_config_apply(struct dfi_config *cfg, const struct cfg_item *item);
/* The keys dfi_config_apply() takes (cfg.h), for --help. */
extern const struct cfg_option dfi_options[];

/* dfi_devices.c */
struct dfi_device *dfi_device_get(struct dfi *d, dev_t rdev);
/* The same, for a device found by its class entry `class_entry`
 * ("<SysfsRoot>/class/drm/renderD128", borrowed): resolved from that entry
 * where dev/char does not lead to it (a masked sysfs). */
struct dfi_device *dfi_device_get_listed(struct dfi *d, dev_t rdev,
                                         const char *class_entry);
/* Resolve `dev` (rdev set) from sysfs again: name, minor, driver, PM file,
 * filters; said at INFO unless `quiet`. Through <SysfsRoot>/dev/char/M:m,
 * or, when that is missing, through `class_entry` (NULL: none). */
void dfi_device_resolve(const struct dfi *d, struct dfi_device *dev,
                        const char *class_entry, bool quiet);
bool dfi_device_is_suspended(struct dfi *d, struct dfi_device *dev);
/* Take the device's name (and driver, if sysfs had none) from a client's
 * drm-pdev when sysfs named it otherwise. */
void dfi_device_learn(struct dfi *d, struct dfi_device *dev,
                      const struct fdinfo *fi);
int dfi_profiling_enable(struct dfi *d);
void dfi_profiling_restore(struct dfi *d);
void dfi_devices_free(struct dfi *d);

/* dfi_hotplug.c: list <SysfsRoot>/class/{drm,accel} (names and inode
 * numbers; a minor's `dev` file is read only for an entry not seen
 * before): minors that went are marked gone (their clients dropped, their
 * series end at this read), minors that came are resolved (a minor that
 * comes back starts afresh). One INFO line per device name each way, none
 * at init (each minor's own line is said then). When neither class
 * directory can be listed nothing changes (no sysfs in a container:
 * devices are learned from the clients' fds only). */
void dfi_hotplug_refresh(struct dfi *d, bool init);
/* At init: a ProcRoot without process directories, a SysfsRoot without
 * dev/char or a DRM class: each said once, a WARNING naming the path
 * (a configured DevRoot without dri or accel: dfi_open_watch). */
void dfi_roots_check(struct dfi *d);

/* dfi_report.c: records of the state after dfi_groups_update(); the
 * first sink error, or 0. */
int dfi_report(const struct dfi *d, struct metric_sink *sink, uint64_t time_ns);

#endif
