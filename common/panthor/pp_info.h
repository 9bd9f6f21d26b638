/*
 * pp_info.h: DEV_QUERY PERF_INFO, both layouts, normalised into one struct,
 * and the SETUP command encoded for either layout (pp_uapi.h; each
 * series' include/uapi/drm/panthor_drm.h).
 *
 * The layout is known by the size the kernel returns: 48 bytes RFC v2,
 * 44 bytes v6. Every size the kernel reports is validated here, so that no
 * later walk of a sample can overrun: header sizes, counters per block,
 * block counts, and the v6 sample_size against the one computed from them.
 *
 * Pure: no I/O, no allocation, no globals.
 */
#ifndef COMMON_PANTHOR_PP_INFO_H
#define COMMON_PANTHOR_PP_INFO_H

#include "common/panthor/pp_uapi.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Layout-independent block types (the raw values differ, pp_uapi.h). */
enum pp_block {
  PP_BLOCK_FW,
  PP_BLOCK_CSG, /* RFC v2 only */
  PP_BLOCK_CSHW,
  PP_BLOCK_TILER,
  PP_BLOCK_MEMSYS, /* one per L2 slice */
  PP_BLOCK_SHADER, /* one per present shader core, compacted */
  PP_BLOCK_COUNT,
  PP_BLOCK_UNKNOWN = PP_BLOCK_COUNT,
};

/* Limits beyond which a kernel's answer is treated as absurd. */
#define PP_MAX_COUNTERS_PER_BLOCK 128 /* the enable mask has 128 bits */
#define PP_MIN_COUNTERS_PER_BLOCK 8
#define PP_MAX_HEADER_SIZE 4096 /* sample or block header */
#define PP_MAX_BLOCKS_PER_TYPE 256
#define PP_MAX_SAMPLE_SIZE (16u << 20)

/* A decoder's error text, e.g. "perf_info of 40 bytes: neither RFC v2 (48)
 * nor v6 (44)". */
struct pp_error {
  char message[160];
};

struct pp_info {
  enum pp_layout layout;
  uint32_t counters_per_block;
  uint32_t sample_header_size; /* >= 56, multiple of 8 */
  uint32_t block_header_size;  /* >= 24, multiple of 8 */
  uint32_t flags;              /* PP_FEAT_* */
  uint32_t supported_clocks;
  uint32_t blocks[PP_BLOCK_COUNT]; /* count per type; csg 0 on v6 */
  uint32_t n_blocks;               /* sum of blocks[] */
  uint32_t block_size;  /* block_header_size + 8 * counters_per_block */
  uint32_t walk_size;   /* header + n_blocks * block_size: what is walked */
  uint32_t sample_size; /* the ring stride: v6 as given, RFC v2 walk_size */
};

/*
 * Decode the `len` bytes DEV_QUERY PERF_INFO returned (its `size` after the
 * call) into `out` (zeroed and filled). Returns 0; -EPROTO when len is
 * neither 48 nor 44 (message names the size); -EINVAL when a field is
 * absurd (message names the field and value): header sizes below the
 * struct's or above PP_MAX_HEADER_SIZE or not multiples of 8, counters per
 * block outside [8, 128], more than PP_MAX_BLOCKS_PER_TYPE blocks of a
 * type, more than one FW/CSHW block, no block at all, a sample above
 * PP_MAX_SAMPLE_SIZE, or a v6 sample_size smaller than the computed one
 * or not a multiple of 8. `err` may be NULL.
 */
int pp_info_decode(const void *buf, size_t len, struct pp_info *out,
                   struct pp_error *err);

/* The PERF_CONTROL ioctl number of `layout`; 0 for PP_LAYOUT_NONE. */
unsigned long pp_info_control_ioctl(enum pp_layout layout);

/* "rfc-v2", "v6" or "none". */
const char *pp_layout_name(enum pp_layout layout);

/* Raw block type of a sample -> enum pp_block (PP_BLOCK_UNKNOWN for a
 * value the layout does not define, such as v6 METADATA). */
enum pp_block pp_block_from_raw(enum pp_layout layout, uint8_t raw);

/* "fw", "csg", "cshw", "tiler", "memsys", "shader" ("unknown"). */
const char *pp_block_name(enum pp_block b);

/* The enum for a block name (case-insensitive); PP_BLOCK_UNKNOWN if none. */
enum pp_block pp_block_parse(const char *name);

/* What SETUP needs, layout-independent. */
struct pp_setup_request {
  uint8_t block_set; /* PP_SET_* */
  int32_t eventfd;
  uint32_t ringbuf_handle, control_handle;
  uint32_t sample_slots; /* power of two */
  uint64_t control_offset;
  uint64_t sample_freq_ns; /* 0: manual (the only mode the kernel has) */
  uint64_t enable[PP_BLOCK_COUNT][2];
};

/* Room for either layout's cmd_setup. */
#define PP_SETUP_MAX 136

/*
 * Encode `req` as `layout`'s cmd_setup into `buf` (at least PP_SETUP_MAX
 * bytes); *len is set to 136 (RFC v2) or 120 (v6). Returns 0, or -EINVAL
 * for PP_LAYOUT_NONE, a block_set above 2, slots not a power of two, or a
 * CSG mask on v6 (which has no CSG block).
 */
int pp_info_setup_format(enum pp_layout layout,
                         const struct pp_setup_request *req, void *buf,
                         size_t *len);

/* PAGE_ALIGN(sample_size * slots) for `page` bytes pages (the only ring BO
 * size the kernel accepts: ENOMEM otherwise); 0 if it overflows. */
uint64_t pp_info_ring_size(const struct pp_info *info, uint32_t slots,
                           uint64_t page);

#endif
