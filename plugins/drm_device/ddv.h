/*
 * ddv.h: the drm_device plugin's state, shared by its files.
 *
 * One struct ddv_device per DRM card or accel node found under
 * SysfsRoot/class/{drm,accel}; each holds the attributes ("probes") found
 * for it when it was discovered and the records ("recs") they fill. A read
 * opens, reads (one read()) and closes each attribute through the kernel
 * seam, relative to the node's sysfs directory, and allocates nothing.
 */
#ifndef PLUGINS_DRM_DEVICE_DDV_H
#define PLUGINS_DRM_DEVICE_DDV_H

#include "common/core/log.h"
#include "common/core/plugin.h"
#include "common/sysfs/dev_filter.h"

#include <stdbool.h>
#include <stdint.h>

#define DDV_PLUGIN "drm_device"
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
};

/* One attribute of one device and what it gives. */
struct ddv_probe {
  char rel[128];          /* path relative to the node's sysfs directory */
  char field[32];         /* the record field */
  const char *ctype;      /* its type (metric_unit.c) */
  const char *rate_field; /* counters: the interval field, or NULL */
  const char *rate_ctype;
  enum ddv_kind kind;
  uint16_t rec;      /* index in the device's recs */
  bool safe_asleep;  /* reading it never resumes a suspended device */
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
};

/* One record: a group and the value of its tag (domain, sensor, ...). */
struct ddv_rec {
  enum ddv_group group;
  char tag[48];
};

struct ddv_device {
  char node[24];      /* card0, accel0 */
  char name[64];      /* PCI slot or platform device name, as drm_fdinfo */
  char driver[32];    /* driver name, "" when unbound */
  int dirfd;          /* the node's sysfs directory */
  bool seen;          /* found by the last scan */
  bool gone;          /* an attribute said ENODEV/ENOENT: set up again */
  bool hwmon_pending; /* hwmon not looked at yet (not seen active) */
  bool asleep;        /* this read: not known to be active */
  int status;         /* index of the runtime_status probe, -1: none */
  struct ddv_probe *probes;
  size_t n_probes, cap_probes;
  struct ddv_rec *recs;
  size_t n_recs, cap_recs;
};

struct ddv_config {
  const char *sysfs_root;
  struct dev_filter filter; /* Device, Driver (common/sysfs/dev_filter.h) */
  bool report[DDV_G_COUNT];
  bool report_set; /* a Report line was given */
  char *owned[2 * DDV_MAX_FILTERS + 2];
  size_t n_owned;
};

struct ddv {
  struct ddv_config cfg;
  const struct plugin_host *host;
  const struct kernel_ops *k;
  struct ddv_device *devices;
  size_t n_devices, cap_devices;
  uint64_t scan_ns; /* monotonic time of the last scan */
  bool rescan;      /* a device or attribute vanished */
  struct log_complaint scan_complaint;
  char buf[4097]; /* one attribute's bytes */
};

/* Rescan the class directories at most this often (and after an attribute
 * vanished): a device that appears is picked up within it. */
#define DDV_RESCAN_NS (10ull * 1000000000ull)

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

/* Find the hwmon channels of `dev` (once, when it is first seen active). */
void ddv_probe_hwmon(struct ddv *d, struct ddv_device *dev);

/* ddv_read.c */
void ddv_device_read(struct ddv *d, struct ddv_device *dev, uint64_t now_ns);
int ddv_device_report(const struct ddv *d, const struct ddv_device *dev,
                      uint64_t time_ns, struct metric_sink *sink);

#endif
