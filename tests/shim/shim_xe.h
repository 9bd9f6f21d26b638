/*
 * shim_xe.h: an xe DRM device for the shim (shim_xe.c), emulating what
 * the OA path uses of the xe uAPI with the kernel's validation and errnos:
 * DRM_IOCTL_VERSION ("xe"), DRM_IOCTL_XE_DEVICE_QUERY (xe_query.c: CONFIG,
 * GT_LIST, ENGINES, OA_UNITS, with the size probe), DRM_IOCTL_XE_OBSERVATION
 * (xe_observation.c, xe_oa.c: STREAM_OPEN's property chain) and the stream
 * fd (read, poll, ENABLE, DISABLE, STATUS, INFO).
 *
 * The stream is scripted, not timed: a test queues report bytes and OA
 * status bits (shim_xe_queue_reports, shim_xe_queue_status); a read
 * returns the status first as EIO, then whole queued reports. With
 * `batch` > 0 the device also writes reports itself, one batch per
 * drain (a poll that finds nothing arms the next batch): report r has
 * timestamp r * ts_step, GPU ticks r * clk_step and counter i (in the
 * format's order, oa_format.h) (i + 1) * ctr_step * r, each modulo its
 * width (32-bit timestamp and ticks with the 32-bit header; 56-bit
 * timestamp, 64-bit ticks with the 64-bit header), starting two reports
 * before every wrap with `near_wrap`; batch `status_at` (1-based) is
 * preceded by `status` bits.
 */
#ifndef TESTS_SHIM_SHIM_XE_H
#define TESTS_SHIM_SHIM_XE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SHIM_XE_MAX_METRICS 8

struct shim_xe_scenario {
  uint16_t devid;              /* CONFIG REV_AND_DEVICE_ID bits 15:0 */
  uint8_t revid;               /* bits 23:16 */
  uint16_t ip_major, ip_minor; /* GT_LIST main GT (0: before GMD_ID) */
  uint32_t reference_clock;    /* GT_LIST */
  uint64_t oa_timestamp_hz;    /* OA_UNITS, the OAG unit's */
  bool xe2;                    /* PEC formats (graphics 20+) */
  bool has_oa;                 /* false: OBSERVATION fails ENODEV */
  bool old_kernel; /* no OA_UNITS query (EINVAL), no OBSERVATION (ENOTTY) */
  bool paranoid;   /* dev.xe.observation_paranoid */
  bool perfmon;    /* the caller has CAP_PERFMON */
  uint64_t metrics[SHIM_XE_MAX_METRICS]; /* known config ids (0: none) */
  /* the card's sysfs directory: OP_ADD_CONFIG writes metrics/<uuid>/id
   * there and OP_REMOVE_CONFIG removes it (xe_oa.c:
   * create_dynamic_oa_sysfs_entry); "" none */
  char card_dir[256];
  /* the device's own reports (0: only what a test queues) */
  unsigned batch;
  uint64_t ts_step, clk_step, ctr_step;
  bool near_wrap;
  unsigned status_at;
  uint64_t status;
};

/* The last STREAM_OPEN as the kernel saw it (after validation). */
struct shim_xe_open {
  unsigned opens, refusals;
  uint32_t n_props;
  uint64_t props[16][2]; /* (property, value) in chain order */
  uint64_t enables, status_ioctls;
  unsigned adds, add_refusals, removes, remove_refusals;
};

/* A pre-Xe2 device on xe (MTL: 0x7D55, 12.70, 19.2 MHz OA clock). */
void shim_xe_scenario_mtl(struct shim_xe_scenario *s);
/* An Xe2 device (BMG: 0xE20B, 20.01, 19.2 MHz). */
void shim_xe_scenario_bmg(struct shim_xe_scenario *s);

/* Register an xe render node at `path` (one device at a time). 0, or -1
 * with errno. */
int shim_xe_add(const char *path, const struct shim_xe_scenario *s);
/* Forget the device; open streams keep their queue. */
void shim_xe_remove(void);

/* Queue `len` bytes of reports on the open stream (0 or -1/ENOENT). */
int shim_xe_queue_reports(const uint8_t *buf, size_t len);
/* Raise DRM_XE_OASTATUS_* bits: the next read fails with EIO. */
int shim_xe_queue_status(uint64_t bits);
/* For the preloaded shim: SHIM_XE_PATH (default /dev/dri/renderD128) and
 * SHIM_XE_SCENARIO, comma-separated key=value: platform=mtl|bmg,
 * card_dir, paranoid, perfmon, has_oa, batch, ts_step, clk_step, ctr_step,
 * near_wrap, status_at, status, metric=<id> (up to 8). Defaults: mtl,
 * batch 4, ts_step 19200 (1 ms), clk_step 1000000, ctr_step 1000,
 * metric 1. What it does not take is said on stderr. */
void shim_xe_load_env(void);

/* What the device saw. */
void shim_xe_stats(struct shim_xe_open *out);

#endif
