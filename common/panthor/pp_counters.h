/*
 * pp_counters.h: named counters of Mali CSF GPUs and where each product
 * keeps them (block, index), from libGPUCounters' counter database
 * (ARM-software/libGPUCounters). One table per layout family, each a
 * full list (a per-product table overriding the defaults): G710's layout is
 * the default, and Mali-G610/G510/G310 are assumed to share it [inferred:
 * not in the database excerpt]. G715 has no separate GPU_ACTIVE: its
 * any-queue-active counter (CSHW 6) stands in. G720 and
 * G725 have no fragment queue stall counter.
 *
 * Raw counters are written "<block>:<index>" (blocks fw, csg, cshw, tiler,
 * memsys, shader; index 4..counters_per_block-1, since 0-3 are the block's
 * header counters) or by name (case-insensitive, e.g. "L2_EXT_READ_BEATS")
 * on a GPU whose family is known.
 *
 * Pure: no I/O, no allocation, no globals.
 */
#ifndef COMMON_PANTHOR_PP_COUNTERS_H
#define COMMON_PANTHOR_PP_COUNTERS_H

#include "common/panthor/pp_gpu.h"
#include "common/panthor/pp_info.h"

#include <stdbool.h>
#include <stdint.h>

enum pp_counter_id {
  PP_C_GPU_ACTIVE,
  PP_C_MCU_ACTIVE,
  PP_C_GPU_ITER_ACTIVE,
  PP_C_ITER_TILER_ACTIVE,
  PP_C_ITER_COMP_ACTIVE,
  PP_C_ITER_COMP_READY_BLOCKED,
  PP_C_ITER_FRAG_ACTIVE,
  PP_C_ITER_FRAG_READY_BLOCKED,
  PP_C_TILER_ACTIVE,
  PP_C_L2_RD_MSG_IN,
  PP_C_L2_WR_MSG_IN,
  PP_C_L2_ANY_LOOKUP,
  PP_C_L2_READ_LOOKUP,
  PP_C_L2_WRITE_LOOKUP,
  PP_C_L2_EXT_READ,
  PP_C_L2_EXT_READ_BEATS,
  PP_C_L2_EXT_AR_STALL,
  PP_C_L2_EXT_WRITE,
  PP_C_L2_EXT_WRITE_BEATS,
  PP_C_L2_EXT_W_STALL,
  PP_C_FRAG_ACTIVE,
  PP_C_FRAG_WARPS,
  PP_C_COMPUTE_ACTIVE,
  PP_C_COMPUTE_WARPS,
  PP_C_EXEC_CORE_ACTIVE,
  PP_C_EXEC_INSTR_FMA,
  PP_C_SHADER_CORE_ACTIVE,
  PP_C_COUNT,
};

struct pp_counter_loc {
  enum pp_block block; /* PP_BLOCK_UNKNOWN: the product has no such counter */
  uint32_t index;
};

/* The source name ("GPU_ACTIVE"); NULL for an id out of range. */
const char *pp_counter_name(enum pp_counter_id id);

/* The id of a name (case-insensitive); -1 when unknown. */
int pp_counter_lookup(const char *name);

/* Where `family` keeps `id`: 0, or -ENOENT (loc->block PP_BLOCK_UNKNOWN)
 * when the family lacks it or is PP_FAMILY_NONE. */
int pp_counter_locate(enum pp_family family, enum pp_counter_id id,
                      struct pp_counter_loc *loc);

/* A Counter option, parsed without knowing the GPU. */
struct pp_counter_spec {
  bool named;                /* by name: resolved per device */
  int id;                    /* enum pp_counter_id when named */
  struct pp_counter_loc loc; /* when not named */
  char text[48];             /* as written (the `counter` tag) */
};

/* Parse "<block>:<index>" (decimal or 0x hex index, 4..127) or a counter
 * name. Returns 0, or -EINVAL with a message in err (may be NULL). */
int pp_counter_spec_parse(const char *text, struct pp_counter_spec *out,
                          struct pp_error *err);

/* Resolve a spec for one device: its family and counters per block.
 * Returns 0; -ENOENT when a name is unknown to the family (message says
 * to use <block>:<index>); -EINVAL when the block does not exist in the
 * layout (csg on v6) or the index is not below counters_per_block. */
int pp_counter_resolve(const struct pp_counter_spec *spec,
                       enum pp_family family, const struct pp_info *info,
                       struct pp_counter_loc *out, struct pp_error *err);

#endif
