/*
 * pp_build.c: see pp_build.h. Written from the sheet's tables, not from
 * the decoders it tests (fields are put at literal offsets).
 */
#include "tests/lib/pp_build.h"

#include <string.h>

static void pp_put32(uint8_t *p, size_t off, uint32_t v) {
  memcpy(p + off, &v, 4);
}

static void pp_put64(uint8_t *p, size_t off, uint64_t v) {
  memcpy(p + off, &v, 8);
}

static uint32_t pp_sh(const struct pp_build *b) {
  return b->sample_header_size ? b->sample_header_size : 56;
}

static uint32_t pp_bh(const struct pp_build *b) {
  return b->block_header_size ? b->block_header_size : 24;
}

uint8_t pp_build_raw_type(enum pp_layout layout, enum pp_block t) {
  static const uint8_t rfc_v2[PP_BLOCK_COUNT] = {1, 2, 3, 4, 5, 6};
  static const uint8_t v6[PP_BLOCK_COUNT] = {1, 0xff, 2, 3, 4, 5};
  return layout == PP_LAYOUT_RFC_V2 ? rfc_v2[t] : v6[t];
}

size_t pp_build_sample_size(const struct pp_build *b) {
  size_t n = 0;
  for (int t = 0; t < PP_BLOCK_COUNT; t++)
    n += b->blocks[t];
  return pp_sh(b) + n * (pp_bh(b) + 8 * (size_t)b->counters_per_block);
}

size_t pp_build_info(const struct pp_build *b, uint8_t *out) {
  memset(out, 0, 48);
  pp_put32(out, 0, b->counters_per_block);
  pp_put32(out, 4, pp_sh(b));
  pp_put32(out, 8, pp_bh(b));
  if (b->layout == PP_LAYOUT_RFC_V2) {
    /* flags @12, supported_clocks @16, fw @20, csg @24, cshw @28 ... */
    pp_put32(out, 20, b->blocks[PP_BLOCK_FW]);
    pp_put32(out, 24, b->blocks[PP_BLOCK_CSG]);
    pp_put32(out, 28, b->blocks[PP_BLOCK_CSHW]);
    pp_put32(out, 32, b->blocks[PP_BLOCK_TILER]);
    pp_put32(out, 36, b->blocks[PP_BLOCK_MEMSYS]);
    pp_put32(out, 40, b->blocks[PP_BLOCK_SHADER]);
    return 48;
  }
  /* sample_size @12, flags @16, supported_clocks @20, fw @24, cshw @28 */
  pp_put32(out, 12, (uint32_t)pp_build_sample_size(b) + b->sample_size_extra);
  pp_put32(out, 16, 1); /* BLOCK_STATES_SUPPORT */
  pp_put32(out, 24, b->blocks[PP_BLOCK_FW]);
  pp_put32(out, 28, b->blocks[PP_BLOCK_CSHW]);
  pp_put32(out, 32, b->blocks[PP_BLOCK_TILER]);
  pp_put32(out, 36, b->blocks[PP_BLOCK_MEMSYS]);
  pp_put32(out, 40, b->blocks[PP_BLOCK_SHADER]);
  return 44;
}

void pp_build_sample(const struct pp_build *b, uint8_t *buf, uint64_t ts_start,
                     uint64_t ts_end, uint32_t flags, uint64_t user_data,
                     pp_build_value_fn value, void *ctx) {
  memset(buf, 0, pp_build_sample_size(b));
  pp_put64(buf, 0, ts_start);
  pp_put64(buf, 8, ts_end);
  pp_put32(buf, 20, flags);
  pp_put64(buf, 24, user_data);
  uint8_t *p = buf + pp_sh(b);
  for (int t = 0; t < PP_BLOCK_COUNT; t++)
    for (uint32_t i = 0; i < b->blocks[t]; i++) {
      p[0] = pp_build_raw_type(b->layout, (enum pp_block)t);
      p[1] = (uint8_t)i;
      pp_put64(p, 8, ~0ull);
      pp_put64(p, 16, ~0ull);
      uint8_t *c = p + pp_bh(b);
      for (uint32_t k = 0; k < b->counters_per_block; k++)
        pp_put64(c, 8 * (size_t)k,
                 k < 4 ? PP_BUILD_HEADER_JUNK + k
                       : value(ctx, (enum pp_block)t, i, k));
      p = c + 8 * (size_t)b->counters_per_block;
    }
}
