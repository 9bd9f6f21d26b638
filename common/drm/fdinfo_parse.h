/*
 * fdinfo_parse.h: decoder for the DRM client usage stats that DRM and accel
 * drivers print in /proc/<pid>/fdinfo/<fd>.
 *
 * Follows Documentation/gpu/drm-usage-stats.rst: one "key: value" per line,
 * split at the first ':', any mix of spaces and TABs after it, numbers with
 * an optional unit. Handles every standard key (driver, pdev, client-id,
 * client-name, engine, engine-capacity, cycles, total-cycles, maxfreq,
 * total/shared/resident/purgeable/active and the legacy memory-<region>,
 * which is resident) and ignores everything else: generic fdinfo lines,
 * driver-prefixed keys (amd-*, panthor-*, v3d-jobs-*) and unknown drm-*
 * keys, which are only counted.
 *
 * Pure: no I/O, no allocation, no globals; safe on arbitrary bytes.
 */
#ifndef COMMON_DRM_FDINFO_PARSE_H
#define COMMON_DRM_FDINFO_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FDINFO_MAX_ENGINES 16
#define FDINFO_MAX_REGIONS 16
#define FDINFO_NAME_MAX 48   /* engine or region name, with NUL */
#define FDINFO_STRING_MAX 64 /* driver, pdev, client name, with NUL */
/* The largest drm-engine-capacity-<e> taken; above it the value is
 * malformed. Every driver prints a count of the hardware engines of one
 * class as "%u": i915_drm_client.c show_client_class
 * (engine_uabi_class_count[class], a u8), amdgpu_fdinfo.c
 * amdgpu_show_fdinfo (num_ip_rings[hw_ip], at most AMDGPU_MAX_RINGS), xe
 * (xe_drm_client.c show_run_ticks: hweight32 of the class's engine mask
 * per GT) and panthor/v3d/msm print none; a few dozen at most. 1024 leaves
 * room for parts to come while 2^64-1 or a negative %u read back stays out. */
#define FDINFO_CAPACITY_MAX 1024u

/* Bits of fdinfo_engine.present */
enum {
  FDINFO_ENGINE_BUSY = 1 << 0,     /* drm-engine-<e>, ns */
  FDINFO_ENGINE_CAPACITY = 1 << 1, /* drm-engine-capacity-<e> */
  FDINFO_ENGINE_CYCLES = 1 << 2,   /* drm-cycles-<e> */
  FDINFO_ENGINE_TOTAL = 1 << 3,    /* drm-total-cycles-<e> */
  FDINFO_ENGINE_MAXFREQ = 1 << 4,  /* drm-maxfreq-<e>, Hz */
};

struct fdinfo_engine {
  char name[FDINFO_NAME_MAX];
  unsigned present;      /* FDINFO_ENGINE_* */
  uint64_t busy_ns;      /* drm-engine-<e> */
  uint64_t capacity;     /* drm-engine-capacity-<e> (1..FDINFO_CAPACITY_MAX); 1
                          * when absent */
  uint64_t cycles;       /* drm-cycles-<e> */
  uint64_t total_cycles; /* drm-total-cycles-<e> */
  uint64_t maxfreq_hz;   /* drm-maxfreq-<e>, normalised to Hz */
};

/* Bits of fdinfo_region.present */
enum {
  FDINFO_MEM_TOTAL = 1 << 0,
  FDINFO_MEM_SHARED = 1 << 1,
  FDINFO_MEM_RESIDENT = 1 << 2,
  FDINFO_MEM_PURGEABLE = 1 << 3,
  FDINFO_MEM_ACTIVE = 1 << 4,
};

struct fdinfo_region {
  char name[FDINFO_NAME_MAX];
  unsigned present;                                    /* FDINFO_MEM_* */
  uint64_t total, shared, resident, purgeable, active; /* bytes */
};

struct fdinfo {
  char driver[FDINFO_STRING_MAX];      /* drm-driver, sanitised */
  char pdev[FDINFO_STRING_MAX];        /* drm-pdev or "" */
  char client_name[FDINFO_STRING_MAX]; /* drm-client-name or "" */
  bool has_client_id;
  uint64_t client_id;
  size_t n_engines;
  struct fdinfo_engine engines[FDINFO_MAX_ENGINES];
  size_t n_regions;
  struct fdinfo_region regions[FDINFO_MAX_REGIONS];
  unsigned unknown_keys; /* drm-* keys not in the spec */
  unsigned malformed;    /* standard keys whose value did not parse */
  char first_malformed[FDINFO_STRING_MAX]; /* its key, sanitised, or "" */
  unsigned dropped_names; /* engines/regions beyond the arrays above */
};

/*
 * Decode one fdinfo text of `len` bytes (need not be NUL-terminated) into
 * `out`, which is zeroed first. Returns 0 when the text carries a DRM block
 * (drm-driver present), -ENOENT when it does not (not a DRM fd, or the
 * device was unplugged), -EINVAL for NULL arguments. Bad values of single
 * keys are counted in `malformed`, never fatal.
 */
int fdinfo_parse(const void *buf, size_t len, struct fdinfo *out);

/* Parse "<digits>[ws][unit]" with the unit multiplier applied: units are
 * none, B, KiB/kB/KB, MiB, GiB (bytes) or ns (time) or Hz/KHz/kHz/MHz/GHz
 * (frequency), chosen by `kind`. Returns 0 or -EINVAL (bad digits, unknown
 * unit, overflow). Exposed for tests. */
enum fdinfo_unit_kind {
  FDINFO_UNIT_NONE,
  FDINFO_UNIT_BYTES,
  FDINFO_UNIT_NS,
  FDINFO_UNIT_HZ
};
int fdinfo_parse_number(const char *text, size_t len,
                        enum fdinfo_unit_kind kind, uint64_t *out);

/* Lookup helpers; NULL when absent. */
const struct fdinfo_engine *fdinfo_engine_find(const struct fdinfo *fi,
                                               const char *name);
const struct fdinfo_region *fdinfo_region_find(const struct fdinfo *fi,
                                               const char *name);

#endif
