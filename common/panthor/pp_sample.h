/*
 * pp_sample.h: one sample of the panthor perf ring, walked by the header
 * sizes perf_info reported (never by sizeof: a newer kernel may grow the
 * headers), as panthor_perf.c (session_populate_sample) writes them:
 *
 *   sample header | block header | counters_per_block x u64 | block ...
 *
 * Counters 0-3 of every block are TIMESTAMP_LO, TIMESTAMP_HI, PRFCNT_EN and
 * reserved: callers never sum them (PP_FIRST_COUNTER). The rest are deltas
 * since the session's previous delivered sample.
 *
 * Pure: no I/O, no allocation, no globals. Loads are unaligned-safe.
 */
#ifndef COMMON_PANTHOR_PP_SAMPLE_H
#define COMMON_PANTHOR_PP_SAMPLE_H

#include "common/panthor/pp_info.h"

#include <stdint.h>
#include <string.h>

#define PP_FIRST_COUNTER 4 /* 0-3: timestamp halves, enable mask, 0 */

struct pp_sample {
  uint64_t timestamp_start_ns, timestamp_end_ns;
  uint8_t block_set;
  uint32_t flags; /* PP_SAMPLE_OVERFLOW, PP_SAMPLE_ERROR */
  uint64_t user_data;
  uint64_t toplevel_cycles, coregroup_cycles, shader_cycles;
  const uint8_t *blocks; /* borrowed: the first block header */
  uint32_t n_blocks, block_size, block_header_size, counters_per_block;
  enum pp_layout layout;
};

struct pp_block_view {
  enum pp_block type; /* never PP_BLOCK_UNKNOWN in a decoded sample */
  uint8_t raw_type, idx, states, clock;
  uint64_t enable_mask[2];
  const uint8_t *counters; /* borrowed: counters_per_block u64 */
};

/*
 * Decode the sample at `buf` (`len` bytes available, at least
 * info->walk_size) described by `info` (from pp_info_decode). Checks every
 * block header: a type the layout defines (v6 METADATA is never exposed), an
 * index below perf_info's count for that type, and no more blocks of a type
 * than perf_info counts. Returns 0; -EINVAL (message in err, may be NULL) when
 * something does not fit; `out` then is zeroed. `out` borrows `buf`.
 */
int pp_sample_decode(const struct pp_info *info, const void *buf, size_t len,
                     struct pp_sample *out, struct pp_error *err);

/* Block `i` (< s->n_blocks) of a decoded sample. */
void pp_sample_block(const struct pp_sample *s, uint32_t i,
                     struct pp_block_view *out);

/* Counter `k` (< counters_per_block) of a block. */
static inline uint64_t pp_block_counter(const struct pp_block_view *b,
                                        uint32_t k) {
  uint64_t v;
  memcpy(&v, b->counters + 8 * (size_t)k, sizeof(v));
  return v;
}

#endif
