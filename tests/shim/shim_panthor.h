/*
 * shim_panthor.h: a panthor DRM render node for the shim (shim_panthor.c),
 * emulating the kernel side of the panthor perf uAPI in either of the two
 * layouts the plugin speaks (RFC v2, v6) or a mainline kernel without it,
 * after the v5/v6-era tree's drivers/gpu/drm/panthor/panthor_drv.c
 * (panthor_ioctl_dev_query, panthor_ioctl_perf_control, panthor_postclose)
 * and panthor_perf.c (shim_panthor_perf.c names the functions):
 *
 *   DRM_IOCTL_VERSION ("panthor"), DEV_QUERY (GPU_INFO, CSIF_INFO,
 *   TIMESTAMP_INFO, PERF_INFO; pointer 0 = size probe; PERF_INFO is EINVAL
 *   without the uAPI), BO_CREATE, BO_MMAP_OFFSET and mmap of the BO's
 *   shared memory (MAP_SHARED only), GEM_CLOSE, PERF_CONTROL with the
 *   kernel's validation and errno. Without the uAPI (and on v6 for id 13)
 *   the PERF_CONTROL numbers reach mainline's ioctls: id 13 BO_SET_LABEL
 *   (ENOENT for handle 0), ids above 16 EINVAL; each such call is counted
 *   in stray_ioctls.
 *
 * Sessions are system-wide (at most two, ids cyclic in [0, 1]). As in that
 * kernel, closing the file does not end them, and a TEARDOWN that answers
 * EBUSY or EINVAL frees the id but leaves the session with the sampler
 * (counted in orphans and sessions_leaked; it keeps its counter set).
 * A SAMPLE (or STOP) request is handled before the ioctl returns, or with
 * irq_late when the caller next waits in poll (shim_panthor_irq): the
 * sample goes into the ring and 1 is added to the session's eventfd. Counter k
 * >= 4 of block i of a type is rate(type, k) * (i + 1) per period, where a
 * period is one sample event (automatic, manual or STOP's) and the counts of a
 * dropped sample (ring full) are carried into the next delivered one, as the
 * kernel sums them. rate(type, k) is k unless SHIM_PANTHOR_RATES says
 * otherwise; counters the session did not enable are 0. Time is virtual: each
 * period advances the clock by tick_ns from 1 s, and a sample spans the periods
 * it carries.
 */
#ifndef TESTS_SHIM_SHIM_PANTHOR_H
#define TESTS_SHIM_SHIM_PANTHOR_H

#include <stdbool.h>
#include <stdint.h>

#define SHIM_PANTHOR_PATH "/dev/dri/renderD128" /* SHIM_PANTHOR_PATH env */
#define SHIM_PANTHOR_MAJOR 226u                 /* DRM */

enum shim_panthor_layout {
  SHIM_PANTHOR_NONE,   /* mainline: no perf uAPI */
  SHIM_PANTHOR_RFC_V2, /* PERF_CONTROL id 13, perf_info 48 B, CSG block */
  SHIM_PANTHOR_V6,     /* id 17, perf_info 44 B with sample_size */
};

enum shim_panthor_model {
  SHIM_PANTHOR_G710, /* arch 10.2, 7 sparse cores, 2 L2 slices, 64 ctrs */
  SHIM_PANTHOR_G610, /* arch 10.7, 4 cores, 1 slice, 64 counters */
  SHIM_PANTHOR_G715, /* arch 11.2, 7 cores, 2 slices, 128 counters */
  SHIM_PANTHOR_G720, /* arch 12.0, 8 cores, 2 slices, 128 counters */
  SHIM_PANTHOR_G725, /* arch 13.0, 8 sparse cores, 4 slices, 128 ctrs */
};

/* The device and its scenario (SHIM_PANTHOR_SCENARIO: comma-separated
 * key=value with the field names below, plus "unprivileged",
 * "teardown_fixed" and "irq_late"). Counters *_every count SAMPLE calls of a
 * session that got past validation (1-based: every=3 hits the 3rd, 6th...). */
struct shim_panthor_config {
  enum shim_panthor_layout layout;
  enum shim_panthor_model model;
  bool unprivileged;       /* sets 1 and 2: EACCES */
  bool teardown_fixed;     /* TEARDOWN refuses while a request is pending,
                            * as reviewed (v5/v6-era: when none is) */
  bool irq_late;           /* a request's sample arrives when the caller
                            * waits (poll), not before the ioctl returns */
  uint32_t overflow_every; /* flag OVERFLOW on the manual sample */
  uint32_t error_every;    /* flag ERROR on the manual sample */
  uint32_t busy_every;     /* SAMPLE: EBUSY, a request still pending */
  uint32_t drop_every;     /* the manual sample meets a full FW ring */
  uint32_t auto_burst;     /* automatic samples (user_data 0) per SAMPLE */
  uint32_t reset_at;       /* the N-th SAMPLE of all: GPU reset / unplug */
  uint32_t corrupt_at;     /* the N-th SAMPLE publishes insert = slots + 3 */
  int reset_errno;         /* what a dead file answers: ENODEV or EIO */
  uint32_t others;         /* sessions held by other processes (0-2) */
  int other_set;           /* their counter set */
  uint64_t tick_ns;        /* virtual time per period; 0: 1 ms */
  uint32_t sample_pad;     /* v6: sample_size beyond the walked bytes */
  uint32_t header_pad;     /* bytes added to both header sizes */
  uint32_t size_skew;      /* SETUP expects samples this much larger */
};

struct shim_panthor_stats {
  uint32_t sessions;          /* open now, ours and the others' */
  uint64_t setups;            /* successful SETUPs */
  uint64_t samples_written;   /* into a ring */
  uint64_t samples_dropped;   /* ring full */
  uint64_t stray_ioctls;      /* PERF_CONTROL numbers on non-perf ioctls */
  uint64_t ring_maps;         /* mmaps of BOs later used as rings ... */
  uint64_t writable_maps;     /* ... of which PROT_WRITE (at SETUP) */
  uint64_t teardowns;         /* sessions removed by TEARDOWN */
  uint32_t orphans;           /* now: out of the id table, still with the
                               * sampler (runtime PM, counter set) */
  uint64_t sessions_leaked;   /* ever: orphaned, or left by a closed file */
  uint64_t teardown_oops;     /* TEARDOWN of a free id (a kernel oops) */
  uint64_t bos;               /* BOs alive */
  uint64_t maps;              /* user mappings made */
  uint64_t sample_calls;      /* SAMPLE ioctls of all sessions */
  uint64_t perf_info_queries; /* DEV_QUERY PERF_INFO, probes included */
  uint64_t max_extract;       /* the largest extract index read (raw) */
};

/* Set the device's config (copied; affects later calls and opens) and
 * forget every session, BO count and statistic (open files stay, their
 * sessions gone). Tests call it before each case. */
void shim_panthor_configure(const struct shim_panthor_config *cfg);

/* Register a node at `path` (absolute, copied) with minor `minor`. 0, or
 * -1 with errno. */
int shim_panthor_register(const char *path, unsigned minor);

/* Register from the environment: SHIM_PANTHOR_PATH (comma-separated, minors
 * 128, 129...), SHIM_PANTHOR_LAYOUT (rfc-v2 | v6 | none), SHIM_PANTHOR_GPU
 * (g710 | g610 | g715 | g720 | g725), SHIM_PANTHOR_SCENARIO,
 * SHIM_PANTHOR_RATES ("cshw:4=1000,memsys:32=50"). 0, or -1 (a message on
 * stderr) for a value it does not understand. */
int shim_panthor_load_env(void);

/* Parse SHIM_PANTHOR_RATES syntax into the rate table. 0 or -1/EINVAL. */
int shim_panthor_set_rates(const char *spec);

/* rate(type, k) of the current table; `type` in the plugin's enum
 * pp_block order: 0 fw, 1 csg, 2 cshw, 3 tiler, 4 memsys, 5 shader. */
uint64_t shim_panthor_rate(unsigned type, unsigned k);

void shim_panthor_get_stats(struct shim_panthor_stats *out);

/* The IRQ: handle every pending request (irq_late). Called by shim_poll
 * before it waits (shim_wait_hook). */
void shim_panthor_irq(void);

#endif
