/*
 * xe_oa.h: xe OA observation streams (the kernel's xe_query.c,
 * xe_observation.c, xe_oa.c): what the device says about itself and its
 * OA units, the property chain that opens a stream, and the drain of a
 * stream into the shared OA accumulator (common/i915/oa_accum.h).
 *
 * The stream fd gives whole reports with no record headers
 * (xe_oa.c: xe_oa_append_reports). A pending OA status makes read() fail
 * with EIO (xe_oa.c: __xe_oa_read); DRM_XE_OBSERVATION_IOCTL_STATUS then
 * returns and clears it (xe_oa_status_locked), and reading goes on. The
 * fd is blocking (xe_oa_stream_open_ioctl makes it with flags 0 and the
 * uAPI has no property for O_NONBLOCK): xe_oa_stream_open sets
 * O_NONBLOCK with fcntl (xe_oa_read honours it), and every read here
 * follows a poll with a timeout of 0, so a drain never waits.
 */
#ifndef COMMON_XE_XE_OA_H
#define COMMON_XE_XE_OA_H

#include "common/core/kernel.h"
#include "common/i915/oa_accum.h"
#include "common/xe/xe_uapi.h"

#include <stddef.h>
#include <stdint.h>

#define XE_OA_MAX_UNITS 8
#define XE_OA_UNIT_MAX_ENGINES 16

struct xe_oa_unit_info {
  uint32_t id, type; /* oa_unit_id, DRM_XE_OA_UNIT_TYPE_* */
  uint64_t capabilities;
  uint64_t timestamp_hz; /* the unit's OA timestamp frequency */
  uint32_t n_engines;    /* engines kept (at most XE_OA_UNIT_MAX_ENGINES) */
  struct drm_xe_engine_class_instance engines[XE_OA_UNIT_MAX_ENGINES];
};

/* Parse a DRM_XE_DEVICE_QUERY_OA_UNITS answer of `len` bytes: up to `max`
 * units into `out`. Every unit's size (72 bytes + 8 per engine) is checked
 * against the bytes left. The number of units, or -EINVAL when the blob is
 * malformed (too short, a unit past its end). Pure. */
int xe_oa_units_parse(const uint8_t *buf, size_t len,
                      struct xe_oa_unit_info *out, size_t max);

struct xe_identity {
  uint16_t devid; /* CONFIG: REV_AND_DEVICE_ID bits 15:0 */
  uint8_t revid;  /* bits 23:16 */
  /* the main GT's graphics IP version (GT_LIST ip_ver_major/minor; 0 on
   * platforms before GMD_ID) and reference clock */
  uint16_t graphics_major, graphics_minor;
  uint32_t reference_clock;
  size_t n_units;
  struct xe_oa_unit_info units[XE_OA_MAX_UNITS];
};

/* DRM_IOCTL_XE_DEVICE_QUERY `query` with the size probe (size 0: the
 * kernel writes the size; then exactly that size). *out (malloc'd, the
 * caller frees) and *size on success; -errno. */
int xe_query(const struct kernel_ops *k, int fd, uint32_t query, void **out,
             uint32_t *size);

/* CONFIG, GT_LIST and OA_UNITS: 0, or -errno of the query that failed
 * (*what names it: "DEVICE_QUERY CONFIG", ...). */
int xe_identity_read(const struct kernel_ops *k, int fd, struct xe_identity *id,
                     const char **what);

/* The OAG unit serving engine class `cls` instance `inst` (< 0: any
 * instance), or NULL. The timestamp frequency to use for a stream is that
 * unit's (it differs from the GT reference clock on MTL: Wa_18013179988). */
const struct xe_oa_unit_info *xe_oa_unit_for(const struct xe_identity *id,
                                             int cls, int inst);

/* The graphics version x 100 (1255 DG2, 1270 MTL, 2004 LNL): GT_LIST's IP
 * version where the kernel reads GMD_ID, else the platform table's
 * (oa_platform_lookup of the device id; 0 unknown). */
unsigned xe_identity_gfx_ver(const struct xe_identity *id);

/* The format a platform's OAG streams use, as Mesa's
 * intel/perf/xe/intel_perf.c and xe_oa.c: xe_oa_init_supported_formats
 * do: PEC64u64 on Xe2 and later (2000+), A24u40_A14u32_B8_C8 on
 * Xe-HPG/Xe-LPG (1255+: DG2, MTL), A32u40_A4u32_B8_C8 before. An
 * oa_format id (oa_format.h). */
uint32_t xe_oa_default_format(unsigned gfx_ver);

/* The OA_FORMAT property value of oa_format `id` as xe_oa.c:
 * decode_oa_format takes it (format type | counter select << 8 | counter
 * size << 16 | BC report << 24, from xe_oa.c: oa_formats), or 0 for a
 * format xe does not have. */
uint64_t xe_oa_format_property(uint32_t id);

/* The oa_format id xe reads reports in when a stream asks for `id` on a
 * platform of graphics version `gfx_ver` (x 100): the first format of
 * the platform's set (xe_oa.c: xe_oa_init_supported_formats) whose
 * encoding matches `id`'s (xe_oa.c: decode_oa_format). Two formats share
 * one encoding (A32u40_A4u32_B8_C8 and A24u40_A14u32_B8_C8: OAG, select
 * 5), so asking for the other platform's one gives this platform's:
 * anything but `id` itself means the reports would be decoded wrongly.
 * 0: the platform has no format of that encoding (the kernel's EINVAL).
 * Among the formats this project decodes. Pure. */
uint32_t xe_oa_format_decoded(unsigned gfx_ver, uint32_t id);

struct xe_oa_open_args {
  uint32_t oa_unit_id;
  uint64_t metric_set; /* the id from sysfs metrics/<uuid>/id */
  uint32_t format;     /* oa_format id */
  int exponent;        /* 0..31; < 0: not periodic */
  int engine_instance; /* < 0: not sent (the kernel's default 0) */
};

#define XE_OA_MAX_PROPS 8

/* Fill `ext` with the chained properties of a stream open: OA_UNIT_ID,
 * SAMPLE_OA, OA_METRIC_SET, OA_FORMAT, OA_PERIOD_EXPONENT (periodic
 * only), OA_ENGINE_INSTANCE (when >= 0), OA_DISABLED. Returns how many;
 * ext[0] is the head. Pure. */
size_t xe_oa_open_props(const struct xe_oa_open_args *a,
                        struct drm_xe_ext_set_property *ext);

/* DRM_IOCTL_XE_OBSERVATION (OA, STREAM_OPEN) with those properties, then
 * DRM_XE_OBSERVATION_IOCTL_ENABLE on the new fd: the stream fd, or -errno
 * (*what: "OBSERVATION STREAM_OPEN" or "OBSERVATION_IOCTL_ENABLE"). */
int xe_oa_stream_open(const struct kernel_ops *k, int fd,
                      const struct xe_oa_open_args *a, const char **what);

/* OP_ADD_CONFIG of `n` (address, value) register pairs under `uuid` (36
 * characters, no terminator needed): 0 with *id (xe_oa.c:
 * xe_oa_add_config_ioctl: ids from 1, no built-in test config as on
 * i915), or -errno (EADDRINUSE: that uuid is registered already; its id
 * is in sysfs). */
int xe_oa_add_config(const struct kernel_ops *k, int fd, const char *uuid,
                     const uint32_t *pairs, size_t n, uint64_t *id);

/* OP_REMOVE_CONFIG of config `id` (xe_oa.c: xe_oa_remove_config_ioctl
 * reads it through the param pointer): 0 or -errno (ENOENT: unknown). */
int xe_oa_remove_config(const struct kernel_ops *k, int fd, uint64_t id);

/* What an open's errno means on xe (static text, never NULL): EACCES
 * names dev.xe.observation_paranoid and CAP_PERFMON, ENODEV a device
 * without OA (an SR-IOV VF, no GuC), ... */
const char *xe_oa_open_hint(int err);

/* Counts of one stream beyond what the accumulator keeps. */
struct xe_oa_stream_counts {
  uint64_t reads, bytes;            /* successful reads and their bytes */
  uint64_t status_reads;            /* EIO answered with a STATUS ioctl */
  uint64_t counter_overflow;        /* DRM_XE_OASTATUS_COUNTER_OVERFLOW */
  uint64_t mmio_trigger_queue_full; /* DRM_XE_OASTATUS_MMIO_TRG_Q_FULL */
  uint64_t partial_bytes; /* bytes after the last whole report of a read */
};

/* Feed `status` (DRM_XE_OASTATUS_* bits) to `a` and `c`: REPORT_LOST is
 * counted as the i915 REPORT_LOST record is (the base stays),
 * BUFFER_OVERFLOW as BUFFER_LOST (reports were dropped over a gap of
 * unknown length: the base is dropped when a->rebase_on_buffer_lost), the
 * other two in `c`. Pure. */
void xe_oa_accum_status(struct oa_accum *a, struct xe_oa_stream_counts *c,
                        uint64_t status);

/* Accumulate the whole reports in `buf` (`len` bytes, reports of
 * a->fmt->size back to back); bytes after the last whole report are
 * counted in c->partial_bytes. Pure. */
void xe_oa_accum_reports(struct oa_accum *a, struct xe_oa_stream_counts *c,
                         const uint8_t *buf, size_t len);

/* The most a drain reads before it returns. */
#define XE_OA_DRAIN_MAX (32u << 20)

/* What a drain hands on: each read's whole reports, and each status. */
struct xe_oa_drain_ops {
  void (*reports)(void *ctx, const uint8_t *buf, size_t len);
  void (*status)(void *ctx, uint64_t oa_status); /* DRM_XE_OASTATUS_* */
};

/* Read stream `fd` while poll says it is readable (never blocking) into
 * `buf` (`cap` bytes; whole reports of `report_size` are asked for), each
 * read passed to ops->reports: EIO is answered with
 * DRM_XE_OBSERVATION_IOCTL_STATUS (ops->status) and reading goes on.
 * `c` counts reads, bytes and STATUS calls. The bytes read, or -errno of
 * a read, poll or STATUS that failed (EINVAL: the stream is disabled;
 * -ENOSPC: `cap` below one report). */
int64_t xe_oa_drain_fd(const struct kernel_ops *k, int fd, uint8_t *buf,
                       size_t cap, size_t report_size,
                       const struct xe_oa_drain_ops *ops, void *ctx,
                       struct xe_oa_stream_counts *c);

/* xe_oa_drain_fd into accumulator `a` (xe_oa_accum_reports,
 * xe_oa_accum_status). */
int64_t xe_oa_drain(const struct kernel_ops *k, int fd, uint8_t *buf,
                    size_t cap, struct oa_accum *a,
                    struct xe_oa_stream_counts *c);

#endif
