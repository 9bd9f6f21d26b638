/*
 * shim_i915.h: an i915 DRM device for the shim (shim_i915.c, the stream
 * in shim_i915_stream.c), emulating what i915_oa uses of the uAPI with the
 * kernel's validation and errnos (drivers/gpu/drm/i915/i915_perf.c):
 * DRM_IOCTL_VERSION ("i915"), GETPARAM, QUERY topology, PERF_OPEN (the
 * engines of i915_perf.c: __oa_engine_group, render with the OAG formats,
 * on MTL video and video-enhance with the OAM ones),
 * PERF_ADD_CONFIG / PERF_REMOVE_CONFIG (flex whitelist, EADDRINUSE, the
 * sysfs metrics directory of the card in a test tree) and the stream fd.
 *
 * The stream is driven by reads, never by time: each drain (reads until
 * EAGAIN) of a stream delivers one batch of `reports` reports; the read
 * after an EAGAIN starts the next batch. Counters are device-wide and
 * continue across streams: report r has timestamp ts_start + r*ts_step,
 * GPU clocks clk_start + r*clk_step and counter i a_start + r*a_step[i],
 * each modulo its width in the format (so wraps are exact and scripted).
 */
#ifndef TESTS_SHIM_SHIM_I915_H
#define TESTS_SHIM_SHIM_I915_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#define SHIM_I915_PATH "/dev/dri/renderD128" /* SHIM_I915_PATH env */
#define SHIM_I915_MAX_DEVICES 4
#define SHIM_I915_MAX_CONFIGS 32
#define SHIM_I915_A 38 /* A counters a scenario can script */
#define SHIM_I915_BC 8

struct shim_i915_scenario {
  /* identity */
  uint32_t devid;        /* CHIPSET_ID; default 0x9A49 (TGL GT2) */
  int perf_revision;     /* GETPARAM 54; 0: the param fails (EINVAL) */
  uint32_t oa_freq_hz;   /* GETPARAM 57; 0: fails; default 19200000 */
  uint32_t cs_freq_hz;   /* GETPARAM 51; 0: fails; default 19200000 */
  uint32_t eu_total;     /* GETPARAM 34; default 96 */
  uint32_t topology_eus; /* EUs in the QUERY blob; 0: QUERY fails EINVAL */
  /* perf policy */
  bool perf_ready;          /* false: PERF_* fail with ENOTSUPP (524) */
  bool privileged;          /* CAP_PERFMON: paranoid and rate unchecked */
  bool paranoid;            /* dev.i915.perf_stream_paranoid (default 1) */
  bool busy;                /* another process holds the OA unit: EBUSY */
  uint32_t max_sample_rate; /* dev.i915.oa_max_sample_rate; 100000 */
  uint32_t formats;         /* bit mask of accepted formats (Gen12) */
  int open_errno;           /* next PERF_OPENs fail with it (0: none) */
  unsigned open_fails;      /* how many (0: every one while set) */
  /* stream */
  unsigned reports;           /* per batch; default 4 */
  unsigned max_records;       /* most records per read() (short reads); 0 any */
  uint32_t ts_start, ts_step; /* default 0, 19200 (1 ms at 19.2 MHz) */
  uint32_t clk_start, clk_step; /* default 0, 1000000 (1 GHz) */
  uint64_t a_start[SHIM_I915_A], a_step[SHIM_I915_A];
  uint64_t b_step[SHIM_I915_BC], c_step[SHIM_I915_BC];
  unsigned ctx_every;       /* every n-th report is a context switch */
  unsigned lost_every;      /* every n-th batch starts with REPORT_LOST */
  unsigned buffer_lost_at;  /* batch n starts with BUFFER_LOST */
  uint64_t buffer_lost_gap; /* reports the unit wrote over before it */
  unsigned corrupt_at;      /* batch n has a record of size 0 after report 1 */
  unsigned eio_at;          /* the read of batch n fails with EIO, for good */
  /* sysfs test tree: <sysfs_root>/class/drm/<card>/metrics/<uuid>/id */
  char sysfs_root[PATH_MAX]; /* "": no sysfs files */
  char card[16];             /* default "card0" */
};

struct shim_i915_stats {
  unsigned perf_opens;      /* successful PERF_OPENs */
  unsigned perf_open_fails; /* refused ones */
  unsigned streams_open;    /* stream fds alive now */
  unsigned configs_added, configs_removed;
  unsigned batches; /* batches generated */
  uint64_t reports; /* reports generated (device-wide index) */
  unsigned reads;   /* read() calls on streams */
  /* the properties of the last successful PERF_OPEN */
  uint32_t last_format;
  int last_exponent; /* -1: not periodic */
  int last_engine_class, last_engine_instance;
};

/* The defaults above, every A counter stepping by 1000 * (i + 1), except
 * A0 by clk_step / 2 (50 % busy); B and C by 10 * (i + 1). */
void shim_i915_scenario_default(struct shim_i915_scenario *s);

/* Register an i915 device at `path` (absolute) with a copy of `s`; the
 * metrics directory is created when s->sysfs_root is set. 0, or -1 with
 * errno (ENOMEM when SHIM_I915_MAX_DEVICES exist, EEXIST). */
int shim_i915_add(const char *path, const struct shim_i915_scenario *s);

/* Pre-register metric config `uuid` as `id` on device `path` (the kernel's
 * boot-time configs), with its sysfs directory. 0, or -1 with errno. */
int shim_i915_add_metric(const char *path, const char *uuid, uint64_t id);

/* Run `fn` on the live scenario of device `path` under its lock (changes
 * apply to later calls). 0, or -1/ENOENT. */
int shim_i915_update(const char *path,
                     void (*fn)(struct shim_i915_scenario *s, void *ctx),
                     void *ctx);

/* Copy the statistics of device `path`. 0, or -1/ENOENT. */
int shim_i915_stats(const char *path, struct shim_i915_stats *out);

/* Unregister every device (open fds stay valid until closed). */
void shim_i915_reset(void);

/* From the environment: SHIM_I915_PATH (comma-separated paths, default
 * SHIM_I915_PATH) and SHIM_I915_SCENARIO, then SHIM_I915_SCENARIO_<n> for
 * device n, each "key=value,..." over the defaults; keys: devid, revision,
 * oa_freq, cs_freq, eu_total, topology_eus, perf, privileged, paranoid,
 * busy, max_rate, formats, open_errno, open_fails, reports, max_records,
 * ts_start, ts_step, clk_start, clk_step, a<i>_start, a<i>, b<i>, c<i>,
 * ctx_every, lost_every, buffer_lost_at, buffer_lost_gap, corrupt_at,
 * eio_at, near_wrap
 * (starts every counter two steps before its wrap), sysfs, card,
 * metric (uuid:id, repeatable). 0, or -1/EINVAL on a malformed value
 * (message on stderr). */
int shim_i915_load_env(void);

#endif
