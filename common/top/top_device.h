/*
 * top_device.h: the live view's typed picture of each GPU, joined from the
 * records of every plugin that speaks of it (nvtop's gpu_info: optional
 * typed values, one struct per device).
 *
 * The join key is the `device` tag: both DRM plugins name a device by the
 * same rule (common/sysfs/sysfs_link.h: the PCI slot or the platform
 * device name). The `driver` tags may disagree (drm_fdinfo takes the
 * driver from fdinfo's drm-driver, drm_device from sysfs), so they are not
 * part of the key; a header shows both when they differ.
 *
 * Which field fills which value is one declared table (top_device.c): a
 * measurement, a field, and the unit the value must be in. The unit comes
 * from the field's collectd type through the one unit table
 * (common/core/metric_unit.h); a field whose unit is not the one its value
 * is kept in is refused and counted (`refused`), never shown as something
 * else. tests/unit/test_top_join.c runs the real drm_device plugin into
 * the model, so the table is checked against what the plugin emits.
 */
#ifndef COMMON_TOP_TOP_DEVICE_H
#define COMMON_TOP_TOP_DEVICE_H

#include "common/top/top_batch.h"

#include <stdbool.h>
#include <stddef.h>

#define TOP_DEVICE_ENGINES 16

/* One optional value. */
struct top_value {
  bool has;
  double v;
};

/* What a device's value is; the rows of the role table fill these. */
enum top_device_value {
  TOP_DV_BUSY,       /* % the device's own busy counter (amdgpu) */
  TOP_DV_RESIDENT,   /* B  drm_fdinfo: resident, summed over regions */
  TOP_DV_MEM_TOTAL,  /* B  drm_fdinfo: total, summed over regions */
  TOP_DV_VRAM_USED,  /* B  drm_device: the first memory region's used */
  TOP_DV_VRAM_TOTAL, /* B  and its size */
  TOP_DV_FREQ,       /* Hz the first frequency domain's actual clock */
  TOP_DV_FREQ_REQ,   /* Hz its requested clock (when no actual one) */
  TOP_DV_FREQ_MAX,   /* Hz its upper limit */
  TOP_DV_TEMP,       /* C  the hottest sensor */
  TOP_DV_POWER,      /* W  the largest power sensor (a card's sum of GTs) */
  TOP_DV_POWER_CAP,  /* W  its limit */
  TOP_DV_FAN,        /* rpm the first fan */
  TOP_DV_CLIENTS,    /* open DRM clients (drm_fdinfo) */
  TOP_DV_PROCESSES,  /* processes holding them */
  TOP_DV_AGE,        /* s  how old drm_device's held values are
                        (values_age_seconds: 0 when read this time) */
  TOP_DV_COUNT
};

struct top_device {
  const char *device;       /* the join key (the model's arena) */
  const char *driver;       /* drm_fdinfo's driver, else drm_device's */
  const char *driver_other; /* drm_device's when it differs, else NULL */
  const char *vram_region;  /* the region tag of TOP_DV_VRAM_* ("": none) */
  const char *freq_domain;  /* the domain tag of TOP_DV_FREQ* ("": none) */
  const char *engine[TOP_DEVICE_ENGINES]; /* device-scope engines */
  double util[TOP_DEVICE_ENGINES];        /* their busy % */
  int n_engines;
  struct top_value v[TOP_DV_COUNT];
  size_t refused; /* fields in the table whose unit was not the expected */
};

struct top_devices {
  struct top_device *dev; /* owned; strings borrowed from the model */
  size_t n, cap;
  bool fdinfo;       /* drm_fdinfo's records are present: a process table */
  double unreadable; /* processes whose fdinfo could not be read, or -1 */
};

/* Collect the devices of the model's batch, first-seen order. `out` must be
 * zeroed or finished; 0 or -ENOMEM (then the devices found so far). */
int top_devices_collect(const struct top_batch *m, struct top_devices *out);

void top_devices_fini(struct top_devices *d);

/* The device named `device`, or NULL. */
const struct top_device *top_devices_find(const struct top_devices *d,
                                          const char *device);

/* True when record `r` went into a device's typed values (it is then not
 * shown as a panel of its own, except with `raw`). */
bool top_device_consumes(const struct top_batch *m, const struct top_record *r);

/* The device's utilisation for its chart: the busiest engine, else the
 * device's own busy counter; false when it has neither. */
bool top_device_util(const struct top_device *d, double *pct);

#endif
