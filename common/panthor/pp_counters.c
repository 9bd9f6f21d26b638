/*
 * pp_counters.c: the counter index tables of libGPUCounters' counter
 * database (ARM-software/libGPUCounters). Each family's table is
 * complete; a 0 index marks a counter the product does not have (indices
 * 0-3 are block header counters, so 0 is never a real index).
 */
#include "common/panthor/pp_counters.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const struct {
  const char *name;
  enum pp_block block;
} pp_counter_defs[PP_C_COUNT] = {
    [PP_C_GPU_ACTIVE] = {"GPU_ACTIVE", PP_BLOCK_CSHW},
    [PP_C_MCU_ACTIVE] = {"MCU_ACTIVE", PP_BLOCK_CSHW},
    [PP_C_GPU_ITER_ACTIVE] = {"GPU_ITER_ACTIVE", PP_BLOCK_CSHW},
    [PP_C_ITER_TILER_ACTIVE] = {"ITER_TILER_ACTIVE", PP_BLOCK_CSHW},
    [PP_C_ITER_COMP_ACTIVE] = {"ITER_COMP_ACTIVE", PP_BLOCK_CSHW},
    [PP_C_ITER_COMP_READY_BLOCKED] = {"ITER_COMP_READY_BLOCKED", PP_BLOCK_CSHW},
    [PP_C_ITER_FRAG_ACTIVE] = {"ITER_FRAG_ACTIVE", PP_BLOCK_CSHW},
    [PP_C_ITER_FRAG_READY_BLOCKED] = {"ITER_FRAG_READY_BLOCKED", PP_BLOCK_CSHW},
    [PP_C_TILER_ACTIVE] = {"TILER_ACTIVE", PP_BLOCK_TILER},
    [PP_C_L2_RD_MSG_IN] = {"L2_RD_MSG_IN", PP_BLOCK_MEMSYS},
    [PP_C_L2_WR_MSG_IN] = {"L2_WR_MSG_IN", PP_BLOCK_MEMSYS},
    [PP_C_L2_ANY_LOOKUP] = {"L2_ANY_LOOKUP", PP_BLOCK_MEMSYS},
    [PP_C_L2_READ_LOOKUP] = {"L2_READ_LOOKUP", PP_BLOCK_MEMSYS},
    [PP_C_L2_WRITE_LOOKUP] = {"L2_WRITE_LOOKUP", PP_BLOCK_MEMSYS},
    [PP_C_L2_EXT_READ] = {"L2_EXT_READ", PP_BLOCK_MEMSYS},
    [PP_C_L2_EXT_READ_BEATS] = {"L2_EXT_READ_BEATS", PP_BLOCK_MEMSYS},
    [PP_C_L2_EXT_AR_STALL] = {"L2_EXT_AR_STALL", PP_BLOCK_MEMSYS},
    [PP_C_L2_EXT_WRITE] = {"L2_EXT_WRITE", PP_BLOCK_MEMSYS},
    [PP_C_L2_EXT_WRITE_BEATS] = {"L2_EXT_WRITE_BEATS", PP_BLOCK_MEMSYS},
    [PP_C_L2_EXT_W_STALL] = {"L2_EXT_W_STALL", PP_BLOCK_MEMSYS},
    [PP_C_FRAG_ACTIVE] = {"FRAG_ACTIVE", PP_BLOCK_SHADER},
    [PP_C_FRAG_WARPS] = {"FRAG_WARPS", PP_BLOCK_SHADER},
    [PP_C_COMPUTE_ACTIVE] = {"COMPUTE_ACTIVE", PP_BLOCK_SHADER},
    [PP_C_COMPUTE_WARPS] = {"COMPUTE_WARPS", PP_BLOCK_SHADER},
    [PP_C_EXEC_CORE_ACTIVE] = {"EXEC_CORE_ACTIVE", PP_BLOCK_SHADER},
    [PP_C_EXEC_INSTR_FMA] = {"EXEC_INSTR_FMA", PP_BLOCK_SHADER},
    [PP_C_SHADER_CORE_ACTIVE] = {"SHADER_CORE_ACTIVE", PP_BLOCK_SHADER},
};

/* Indices per family, in enum pp_counter_id order (0: absent). */
#define PP_COMMON_TAIL                                                         \
  4, 16, 18, 25, 26, 27, 29, 32, 33, 42, 47, 48, 4, 9, 22, 24, 26, 27, 53
static const uint8_t pp_index_g710[PP_C_COUNT] = {
    4, 5, 6, 16, 24, 30, 32, 38, PP_COMMON_TAIL};
/* G715: no GPU_ACTIVE of its own; any-queue active (CSHW 6) is the base */
static const uint8_t pp_index_g715[PP_C_COUNT] = {
    6, 5, 6, 16, 24, 30, 32, 38, PP_COMMON_TAIL};
/* G720: no fragment queue stall counter */
static const uint8_t pp_index_g720[PP_C_COUNT] = {
    4, 5, 6, 16, 24, 30, 32, 0, PP_COMMON_TAIL};
/* G725: the queue counters moved; no fragment queue stall counter */
static const uint8_t pp_index_g725[PP_C_COUNT] = {
    4, 5, 6, 64, 32, 38, 48, 0, PP_COMMON_TAIL};

const char *pp_counter_name(enum pp_counter_id id) {
  return (unsigned)id < PP_C_COUNT ? pp_counter_defs[id].name : NULL;
}

int pp_counter_lookup(const char *name) {
  for (int i = 0; i < PP_C_COUNT; i++)
    if (strcasecmp(name, pp_counter_defs[i].name) == 0)
      return i;
  return -1;
}

int pp_counter_locate(enum pp_family family, enum pp_counter_id id,
                      struct pp_counter_loc *loc) {
  const uint8_t *t = family == PP_FAMILY_G710   ? pp_index_g710
                     : family == PP_FAMILY_G715 ? pp_index_g715
                     : family == PP_FAMILY_G720 ? pp_index_g720
                     : family == PP_FAMILY_G725 ? pp_index_g725
                                                : NULL;
  loc->block = PP_BLOCK_UNKNOWN;
  loc->index = 0;
  if (t == NULL || (unsigned)id >= PP_C_COUNT || t[id] == 0)
    return -ENOENT;
  loc->block = pp_counter_defs[id].block;
  loc->index = t[id];
  return 0;
}

static int pp_spec_fail(struct pp_error *err, int rc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int pp_spec_fail(struct pp_error *err, int rc, const char *fmt, ...) {
  if (err != NULL) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof(err->message), fmt, ap);
    va_end(ap);
  }
  return rc;
}

int pp_counter_spec_parse(const char *text, struct pp_counter_spec *out,
                          struct pp_error *err) {
  struct pp_counter_spec s;
  memset(&s, 0, sizeof(s));
  size_t len = strlen(text);
  if (len == 0 || len >= sizeof(s.text))
    return pp_spec_fail(err, -EINVAL,
                        "expected \"<block>:<index>\" or a "
                        "counter name of 1 to 47 characters");
  memcpy(s.text, text, len + 1);
  const char *colon = strchr(text, ':');
  if (colon == NULL) {
    s.id = pp_counter_lookup(text);
    if (s.id < 0)
      return pp_spec_fail(err, -EINVAL,
                          "\"%s\": not a known counter name; use "
                          "\"<block>:<index>\"",
                          text);
    s.named = true;
    s.loc.block = pp_counter_defs[s.id].block;
    *out = s;
    return 0;
  }
  char block[16];
  size_t blen = (size_t)(colon - text);
  if (blen >= sizeof(block))
    blen = sizeof(block) - 1; /* too long for any name: parse fails */
  memcpy(block, text, blen);
  block[blen] = '\0';
  s.loc.block = pp_block_parse(block);
  if (s.loc.block == PP_BLOCK_UNKNOWN)
    return pp_spec_fail(err, -EINVAL,
                        "\"%s\": block must be fw, csg, cshw, tiler, memsys "
                        "or shader",
                        text);
  const char *num = colon + 1;
  char *end;
  unsigned long v = 0;
  bool digits = (num[0] >= '0' && num[0] <= '9');
  if (digits) { /* decimal (a leading 0 is not octal) or 0x hex */
    bool hex = num[0] == '0' && (num[1] == 'x' || num[1] == 'X');
    errno = 0;
    v = strtoul(hex ? num + 2 : num, &end, hex ? 16 : 10);
    digits = errno == 0 && *end == '\0' && end != (hex ? num + 2 : num) &&
             (!hex || (num[2] != '+' && num[2] != '-' && num[2] != ' '));
  }
  if (!digits || v < 4 || v >= PP_MAX_COUNTERS_PER_BLOCK)
    return pp_spec_fail(err, -EINVAL,
                        "\"%s\": index must be 4 to %d (0-3 are the block's "
                        "timestamp, enable mask and reserved words)",
                        text, PP_MAX_COUNTERS_PER_BLOCK - 1);
  s.loc.index = (uint32_t)v;
  *out = s;
  return 0;
}

int pp_counter_resolve(const struct pp_counter_spec *spec,
                       enum pp_family family, const struct pp_info *info,
                       struct pp_counter_loc *out, struct pp_error *err) {
  struct pp_counter_loc loc = spec->loc;
  if (spec->named &&
      pp_counter_locate(family, (enum pp_counter_id)spec->id, &loc) < 0)
    return pp_spec_fail(err, -ENOENT,
                        "\"%s\": this GPU has no such counter in our tables; "
                        "use \"<block>:<index>\"",
                        spec->text);
  if ((unsigned)loc.block >= PP_BLOCK_COUNT || info->blocks[loc.block] == 0)
    return pp_spec_fail(err, -EINVAL,
                        "\"%s\": the %s layout reports no %s block", spec->text,
                        pp_layout_name(info->layout), pp_block_name(loc.block));
  if (loc.index < 4 || loc.index >= info->counters_per_block)
    return pp_spec_fail(err, -EINVAL,
                        "\"%s\": index %u is not below the %u counters per "
                        "block",
                        spec->text, loc.index, info->counters_per_block);
  *out = loc;
  return 0;
}
