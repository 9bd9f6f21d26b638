/*
 * pp_gpu.h: DEV_QUERY GPU_INFO decoded into what the panthor_perf plugin
 * reports and needs: product name (the kernel's table in
 * drivers/gpu/drm/panthor/panthor_hw.c, with its core-count and
 * ray-tracing rules), shader
 * core count (popcount of a possibly sparse shader_present), L2 slices,
 * bytes per external bus beat, the counter layout family and the default
 * counters per block.
 *
 * Pure: no I/O, no allocation, no globals.
 */
#ifndef COMMON_PANTHOR_PP_GPU_H
#define COMMON_PANTHOR_PP_GPU_H

#include "common/panthor/pp_uapi.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Counter index layouts (pp_counters.h); NONE: raw counters only. */
enum pp_family {
  PP_FAMILY_NONE,
  PP_FAMILY_G710, /* G310, G510, G610, G710 (arch 10) */
  PP_FAMILY_G715, /* G615, G715, G715-Immortalis (arch 11) */
  PP_FAMILY_G720, /* G620, G720, G720-Immortalis (arch 12) */
  PP_FAMILY_G725, /* G625, G725, G925-Immortalis (arch 13) */
};

struct pp_gpu {
  size_t len;             /* bytes the kernel returned (max 112 used) */
  struct pp_gpu_info raw; /* fields beyond len are 0 */
  unsigned arch_major, arch_minor, arch_rev, product_major;
  unsigned version_major, version_minor, version_status;
  unsigned shader_cores;   /* popcount(shader_present) */
  unsigned l2_slices;      /* 1 + mem_features[11:8] */
  uint32_t bytes_per_beat; /* 2^l2_features[31:24] / 8; 0 unknown */
  bool ray_tracing;        /* gpu_features bit 2 */
  enum pp_family family;
  uint32_t counters_per_block; /* default by arch: 64 (10), 128 (11+) */
  char name[32];               /* "Mali-G720-Immortalis", "Mali-0xa862"... */
};

/*
 * Decode the `len` bytes GPU_INFO returned (any prefix of at least the
 * 4-byte gpu_id; bytes beyond the 112 we know are ignored). Returns 0, or
 * -EINVAL when len < 4. Fields the prefix lacks read as 0: a prefix
 * without mem_features gives 1 L2 slice, without l2_features bytes per
 * beat 0 (unknown), without shader_present 0 cores.
 */
int pp_gpu_decode(const void *buf, size_t len, struct pp_gpu *out);

#endif
