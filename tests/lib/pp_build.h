/*
 * pp_build.h: panthor perf bytes built the way the kernel lays them out
 * (panthor_perf.c: session_populate_sample), for tests and benchmarks:
 * a perf_info of either layout and samples whose counters come from a
 * callback. Blocks are written in the kernel's order: FW, CSG (RFC v2),
 * CSHW, TILER, MEMSYS x slices, SHADER x cores. Counters 0-3 of every
 * block get PP_BUILD_HEADER_JUNK so that a reader summing them shows.
 */
#ifndef TESTS_LIB_PP_BUILD_H
#define TESTS_LIB_PP_BUILD_H

#include "common/panthor/pp_info.h"

#include <stddef.h>
#include <stdint.h>

#define PP_BUILD_HEADER_JUNK 0x7777000000000000ull

struct pp_build {
  enum pp_layout layout;
  uint32_t counters_per_block;
  uint32_t sample_header_size; /* 0: 56 */
  uint32_t block_header_size;  /* 0: 24 */
  uint32_t sample_size_extra;  /* v6: bytes added to the reported size */
  uint32_t blocks[PP_BLOCK_COUNT];
};

/* Counter k of block (type, idx). */
typedef uint64_t (*pp_build_value_fn)(void *ctx, enum pp_block type,
                                      uint32_t idx, uint32_t k);

/* The perf_info bytes into `out` (48 bytes of room); returns its size. */
size_t pp_build_info(const struct pp_build *b, uint8_t *out);

/* The walked size of one sample (headers and blocks). */
size_t pp_build_sample_size(const struct pp_build *b);

/* Write one sample at `buf` (pp_build_sample_size bytes). */
void pp_build_sample(const struct pp_build *b, uint8_t *buf, uint64_t ts_start,
                     uint64_t ts_end, uint32_t flags, uint64_t user_data,
                     pp_build_value_fn value, void *ctx);

/* The raw block type of `t` in `layout`. */
uint8_t pp_build_raw_type(enum pp_layout layout, enum pp_block t);

#endif
