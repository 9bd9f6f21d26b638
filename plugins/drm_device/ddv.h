/*
 * ddv.h: the drm_device plugin's state, shared by its files.
 *
 * One struct ddv_device per DRM card or accel node found under
 * SysfsRoot/class/{drm,accel}; each holds the attributes ("probes") found
 * for it when it was discovered and the records ("recs") they fill. A read
 * reads each attribute once (one pread() of an fd kept open, or open,
 * read, close beyond the fd budget) through the kernel seam, relative to
 * the node's sysfs directory, and allocates nothing.
 */
#ifndef PLUGINS_DRM_DEVICE_DDV_H
#define PLUGINS_DRM_DEVICE_DDV_H

#include "common/core/log.h"
#include "common/core/plugin.h"
#include "common/sysfs/dev_filter.h"

#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>

#define DDV_PLUGIN "drm_device"
#define DDV_MS_NS UINT64_C(1000000)
#define DDV_MAX_FILTERS 16

/* The record groups, in report order (the Report option's words). */
enum ddv_group {
  DDV_G_RUNTIME,
  DDV_G_FREQ,
  DDV_G_IDLE,
  DDV_G_THROTTLE,
  DDV_G_MEMORY,
  DDV_G_BUSY,
  DDV_G_POWER,
  DDV_G_TEMPERATURE,
  DDV_G_FAN,
  DDV_G_VOLTAGE,
  DDV_G_GPU_METRICS, /* amdgpu gpu_metrics (ddv_gpu_metrics.c) */
  DDV_G_INFO,        /* drm_device info=1 with the ids (ddv_info.c) */
  DDV_G_COUNT
};

struct ddv_group_info {
  const char *word;        /* Report "freq" */
  const char *measurement; /* drm_device_freq */
  const char *tag;         /* the tag naming the record, NULL: none */
};
extern const struct ddv_group_info ddv_groups[DDV_G_COUNT];

enum ddv_kind {
  DDV_K_STATUS,  /* power/runtime_status -> runtime_suspended 0/1 */
  DDV_K_UINT,    /* unsigned decimal * mult -> integer field */
  DDV_K_SINT,    /* signed decimal * scale -> float field */
  DDV_K_FLAG,    /* 0 or 1 -> integer field */
  DDV_K_COUNTER, /* cumulative, may wrap -> field + rate field */
  DDV_K_DPM,     /* amdgpu pp_dpm_* current level -> hertz */
  /* amdgpu's binary gpu_metrics table -> dev->gm (ddv_gpu_metrics.c) */
  DDV_K_GPU_METRICS,
  DDV_K_CONTROL, /* power/control "auto" or "on": no field */
  DDV_K_DELAY,   /* power/autosuspend_delay_ms: no field */
};

/*
 * What reading an attribute does to the device's runtime PM, from the
 * kernel function behind it (the tables in ddv_devices.c cite it). 0 is
 * the conservative default: an attribute not marked otherwise (a bool
 * "safe asleep" false) takes a reference.
 */
enum ddv_pm {
  /* show() takes a runtime-PM reference (resuming a suspended device)
   * and its put marks the device busy and restarts the autosuspend timer
   * (pm_runtime_put_autosuspend, which marks it itself on current kernels,
   * after pm_runtime_mark_last_busy on older ones): never read asleep, and
   * with autosuspend read again only 1.25 x its delay + DDV_PM_MARGIN_NS
   * after the last such read ended, its last reading held between
   * (ddv_read.c) */
  DDV_PM_REF = 0,
  /* the PM core's or the driver's software state: read asleep too */
  DDV_PM_NONE = 1,
  /* takes a reference only while the device is in use: i915's
   * with_intel_runtime_pm_if_in_use (intel_runtime_pm.c:
   * __intel_runtime_pm_get_if_active -> pm_runtime_get_if_in_use, which
   * takes one only when the status is active and the usage count is
   * already above 0); its put marks last_busy, but only while another
   * user keeps the device awake anyway, so an idle device is never held
   * up: never read asleep, every read while awake */
  DDV_PM_IF_IN_USE = 2,
};

/* One attribute of one device and what it gives. */
struct ddv_probe {
  char rel[128];          /* path relative to the node's sysfs directory */
  char field[32];         /* the record field */
  const char *ctype;      /* its type (metric_unit.c) */
  const char *rate_field; /* counters: the interval field, or NULL */
  const char *rate_ctype;
  enum ddv_kind kind;
  uint16_t rec;   /* index in the device's recs */
  enum ddv_pm pm; /* what reading it does to runtime PM */
  bool limit;     /* a frequency limit: read rarely (DDV_LIMITS_NS) */
  bool bounded;   /* refuse a value outside [lo, hi] (reported units) */
  double lo, hi;
  int cap;           /* energy counters: the index of the power cap probe
                      * of the same sensor, -1: none (ddv_counter) */
  bool said_reset;   /* a reset of this counter was said (once) */
  bool held;         /* limit: u holds its last reading */
  uint8_t bits;      /* COUNTER: width; below 64 it wraps */
  bool time_bound;   /* COUNTER in ms of time: a step > elapsed is a reset */
  bool energy_bound; /* COUNTER in µJ: a step > max power x elapsed is one */
  uint64_t mult;     /* UINT, COUNTER integer fields: raw * mult */
  double scale;      /* SINT, COUNTER float fields: raw * scale */
  double rate_scale; /* COUNTER: delta * rate_scale / seconds */
  struct log_complaint complaint; /* said once per device and attribute */
  int fd; /* kept open between reads (pread at 0), -1: not open */
  /* this read */
  bool have;
  bool have_rate;
  uint64_t u;
  double f;
  double rate;
  /* COUNTER: unwrapped across reads */
  bool seen;
  uint64_t first, last, total, last_ns;
  /* idle residency: the device's runtime_suspended_time (ms) at `last` */
  bool have_susp;
  uint64_t susp_ms;
};

/* One record: a group and the value of its tag (domain, sensor, ...). */
struct ddv_rec {
  enum ddv_group group;
  char tag[48];
};

struct ddv_gm;   /* ddv_gpu_metrics.c */
struct ddv_info; /* ddv_info.c */

struct ddv_device {
  char node[24];         /* card0, accel0 */
  char name[64];         /* PCI slot or platform device name, as drm_fdinfo */
  char driver[32];       /* driver name, "" when unbound */
  char path[512];        /* SysfsRoot/class/<cls>/<node> */
  int dirfd;             /* the node's directory, -1: opened by path */
  bool seen;             /* found by the last scan */
  bool gone;             /* an attribute said ENODEV/ENOENT: set up again */
  bool hwmon_pending;    /* hwmon not looked at yet (not seen active) */
  bool asleep;           /* this read: not known to be active */
  int status;            /* index of the runtime_status probe, -1: none */
  int control;           /* power/control, -1: none */
  int delay;             /* power/autosuspend_delay_ms, -1: none */
  int susp;              /* runtime_suspended_time, -1: none */
  int runtime_rec;       /* the drm_device record (runtime, age) */
  bool pm_read;          /* this read: the PM-taking attributes were read */
  bool pm_once;          /* they were read at least once: */
  uint64_t pm_values_ns; /* by the read that started then (their age) */
  uint64_t pm_end_ns;    /* which ended then (the kernel's last_busy) */
  uint64_t pm_took_ns;   /* and took this long */
  unsigned reads;        /* reads of the device so far (saturating) */
  bool have_age;         /* this read: values_age_seconds is age_s */
  double age_s;
  uint64_t limits_next_ns; /* frequency limits due again at this time */
  bool limits_stale;       /* requested_hz left their range: read them */
  uint64_t stale_hz;       /* the requested_hz that said so */
  struct ddv_probe *probes;
  size_t n_probes, cap_probes;
  struct ddv_rec *recs;
  size_t n_recs, cap_recs;
  struct ddv_gm *gm;     /* owned, NULL: no gpu_metrics */
  struct ddv_info *info; /* owned, NULL: none (no memory) */
};

struct ddv_config {
  const char *sysfs_root;
  struct dev_filter filter; /* Device, Driver (common/sysfs/dev_filter.h) */
  bool report[DDV_G_COUNT];
  bool report_set; /* a Report line was given */
  bool pm_always;  /* ReadPMAttributes Always */
  char *owned[2 * DDV_MAX_FILTERS + 2];
  size_t n_owned;
};

struct ddv {
  struct ddv_config cfg;
  const struct plugin_host *host;
  const struct kernel_ops *k;
  struct ddv_device *devices;
  size_t n_devices, cap_devices;
  uint64_t relook_ns;        /* the next look at the class directories */
  uint64_t relook_delay_ns;  /* the wait armed by the last look */
  uint64_t look_ns;          /* the last look */
  unsigned reads_since_look; /* reads without a look since then */
  bool rescan;               /* a device or attribute vanished */
  unsigned scan_changes;     /* devices found or gone by the last scan */
  bool said_none;            /* "no device" said (until one is found) */
  bool no_class;             /* the last scan found neither class dir */
  char said_out[8][24];      /* nodes said to lead out of SysfsRoot */
  size_t n_said_out;         /* how many (at most 8) */
  size_t fd_budget;          /* fds kept open at most (RLIMIT_NOFILE) */
  size_t fds_open;           /* fds kept open now: dirfds and attributes */
  struct log_complaint scan_complaint;
  char buf[4097]; /* one attribute's bytes */
};

/* Past the PM core's latest autosuspend (1.25 x the delay after the last
 * put), the hold waits this long more, plus the last read's duration: the
 * timer's work item and the status change to "suspending" (rpm_suspend)
 * take a little time after the timer fires. */
#define DDV_PM_MARGIN_NS (100ull * 1000000ull)

/* Plausibility bounds of the values read (ddv_devices.c cites the kernel
 * functions behind each): beyond them a value is refused, said once. */
#define DDV_MAX_HZ 1e11         /* 100 GHz */
#define DDV_MIN_CELSIUS -273.15 /* absolute zero */
#define DDV_MAX_CELSIUS 1000.0  /* past any silicon's melting solder */
#define DDV_MAX_WATTS 1e5       /* 100 kW */
#define DDV_MAX_VOLTS 100.0
#define DDV_MAX_RPM 1e6
/* Energy that grows faster than this (or than twice the sensor's power
 * cap) was reset (ddv_counter): twice the largest board power of any GPU
 * these drivers run (AMD's OAM modules: 1400 W), rounded up. */
#define DDV_PLAUSIBLE_WATTS 3000.0

/* The frequency limits of xe (GuC SLPC queries) are read again after
 * this long, or when requested_hz leaves their range. */
#define DDV_LIMITS_NS (60ull * 1000000000ull)
/* Of RLIMIT_NOFILE's soft limit, this many fds are left to the rest of the
 * process (the exporter's listener and connections, other plugins), and
 * drm_device keeps at most half of the remainder open. */
#define DDV_FD_RESERVE 256u

/* ddv_config.c */
extern const struct cfg_option ddv_options[];
void ddv_config_defaults(struct ddv_config *cfg);
int ddv_config_item(struct ddv_config *cfg, const struct cfg_item *item);
void ddv_config_free(struct ddv_config *cfg);
bool ddv_config_device_ok(const struct ddv_config *cfg, const char *name,
                          const char *node);
bool ddv_config_driver_ok(const struct ddv_config *cfg, const char *driver);

/* ddv_devices.c */
int ddv_scan(struct ddv *d);
void ddv_devices_free(struct ddv *d);
/* Whether the node's directory is still there (an unbound or unplugged
 * device's is removed: drm_sysfs_connector_remove / device_del). */
bool ddv_device_alive(const struct ddv *d, const struct ddv_device *dev);
/* openat / fstatat of `rel` under the node: through its directory fd when
 * held, else by its path. */
int ddv_node_openat(const struct ddv *d, const struct ddv_device *dev,
                    const char *rel, int flags);
int ddv_node_fstatat(const struct ddv *d, const struct ddv_device *dev,
                     const char *rel, struct stat *st, int flags);

/* Find the hwmon channels of `dev` (once, when it is first seen active). */
void ddv_probe_hwmon(struct ddv *d, struct ddv_device *dev);

/* ddv_gpu_metrics.c: the gpu_metrics probe of an amdgpu device, its
 * decode at each read (0, or -errno already said) and its records. */
void ddv_gm_probe(const struct ddv *d, struct ddv_device *dev);
int ddv_gm_update(struct ddv_device *dev, struct ddv_probe *p, const void *buf,
                  size_t len, uint64_t now_ns);
int ddv_gm_report(const struct ddv *d, const struct ddv_device *dev,
                  uint64_t time_ns, struct metric_sink *sink);
void ddv_gm_free(struct ddv_device *dev);

/* ddv_info.c: the identity of a device (PCI ids at setup, amdgpu's
 * unique_id once it is seen active) and its info record. */
void ddv_info_probe(struct ddv *d, struct ddv_device *dev);
void ddv_info_active(struct ddv *d, struct ddv_device *dev);
int ddv_info_report(const struct ddv *d, const struct ddv_device *dev,
                    uint64_t time_ns, struct metric_sink *sink);
void ddv_info_free(struct ddv_device *dev);

/* ddv_read.c */
void ddv_device_read(struct ddv *d, struct ddv_device *dev, uint64_t now_ns);
int ddv_device_report(const struct ddv *d, const struct ddv_device *dev,
                      uint64_t time_ns, struct metric_sink *sink);

#endif
