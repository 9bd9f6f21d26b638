/*
 * test_pp_info.c: perf_info of both layouts (hand-built bytes at
 * drm_panthor_perf_info's offsets), absurd sizes, block types, SETUP bytes,
 * ring size.
 */
#include "common/panthor/pp_info.h"
#include "tests/lib/pp_build.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

static void put32(uint8_t *p, size_t off, uint32_t v) {
  memcpy(p + off, &v, 4);
}

static uint64_t get64(const uint8_t *p, size_t off) {
  uint64_t v;
  memcpy(&v, p + off, 8);
  return v;
}

/* RFC v2 as in the seed: 64 counters, FW, 8 CSG, CSHW, tiler, 2 slices,
 * 7 cores (a sparse G710). */
static const struct pp_build rfc = {.layout = PP_LAYOUT_RFC_V2,
                                    .counters_per_block = 64,
                                    .blocks = {1, 8, 1, 1, 2, 7}};
static const struct pp_build v6 = {.layout = PP_LAYOUT_V6,
                                   .counters_per_block = 128,
                                   .blocks = {1, 0, 1, 1, 4, 12}};

static void pp_info_decode__rfc_v2(void **state) {
  (void)state;
  uint8_t raw[48];
  assert_int_equal(pp_build_info(&rfc, raw), 48);
  put32(raw, 12, 1); /* flags */
  put32(raw, 16, 7); /* supported_clocks */
  struct pp_info in;
  assert_int_equal(pp_info_decode(raw, 48, &in, NULL), 0);
  assert_int_equal(in.layout, PP_LAYOUT_RFC_V2);
  assert_int_equal(in.counters_per_block, 64);
  assert_int_equal(in.sample_header_size, 56);
  assert_int_equal(in.block_header_size, 24);
  assert_int_equal(in.flags, 1);
  assert_int_equal(in.supported_clocks, 7);
  assert_int_equal(in.blocks[PP_BLOCK_FW], 1);
  assert_int_equal(in.blocks[PP_BLOCK_CSG], 8);
  assert_int_equal(in.blocks[PP_BLOCK_CSHW], 1);
  assert_int_equal(in.blocks[PP_BLOCK_TILER], 1);
  assert_int_equal(in.blocks[PP_BLOCK_MEMSYS], 2);
  assert_int_equal(in.blocks[PP_BLOCK_SHADER], 7);
  assert_int_equal(in.n_blocks, 20);
  assert_int_equal(in.block_size, 536); /* 24 + 64 * 8 */
  /* 56 + 536 * 20 (session_get_user_sample_size), computed since RFC v2
   * reports none */
  assert_int_equal(in.walk_size, 10776);
  assert_int_equal(in.sample_size, 10776);
}

static void pp_info_decode__v6(void **state) {
  (void)state;
  uint8_t raw[48];
  assert_int_equal(pp_build_info(&v6, raw), 44);
  struct pp_info in;
  assert_int_equal(pp_info_decode(raw, 44, &in, NULL), 0);
  assert_int_equal(in.layout, PP_LAYOUT_V6);
  assert_int_equal(in.counters_per_block, 128);
  assert_int_equal(in.flags, 1);
  assert_int_equal(in.blocks[PP_BLOCK_CSG], 0);
  assert_int_equal(in.blocks[PP_BLOCK_MEMSYS], 4);
  assert_int_equal(in.blocks[PP_BLOCK_SHADER], 12);
  assert_int_equal(in.n_blocks, 19);
  assert_int_equal(in.block_size, 1048);
  assert_int_equal(in.walk_size, 56 + 1048 * 19);
  assert_int_equal(in.sample_size, 19968);
  /* a padded sample_size is the ring stride; the walk stays computed */
  struct pp_build padded = v6;
  padded.sample_size_extra = 64;
  pp_build_info(&padded, raw);
  assert_int_equal(pp_info_decode(raw, 44, &in, NULL), 0);
  assert_int_equal(in.sample_size, 20032);
  assert_int_equal(in.walk_size, 19968);
}

static void pp_info_decode__sizes_name_the_layouts(void **state) {
  (void)state;
  uint8_t raw[64] = {0};
  struct pp_info in;
  struct pp_error err;
  static const size_t sizes[] = {0, 4, 40, 43, 45, 47, 49, 56, 64};
  for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
    assert_int_equal(pp_info_decode(raw, sizes[i], &in, &err), -EPROTO);
  assert_string_equal(err.message,
                      "perf_info of 64 bytes: neither RFC v2 (48) nor v6 (44)");
  assert_int_equal(in.layout, PP_LAYOUT_NONE);
  assert_int_equal(pp_info_decode(NULL, 48, &in, NULL), -EPROTO);
}

/* One field of a valid RFC v2 perf_info replaced: -EINVAL and message. */
static void absurd(size_t off, uint32_t v, const char *message) {
  uint8_t raw[48];
  pp_build_info(&rfc, raw);
  put32(raw, off, v);
  struct pp_info in;
  struct pp_error err;
  assert_int_equal(pp_info_decode(raw, 48, &in, &err), -EINVAL);
  assert_string_equal(err.message, message);
  assert_int_equal(in.sample_size, 0);
}

static void pp_info_decode__absurd_sizes(void **state) {
  (void)state;
  absurd(4, 48,
         "perf_info sample_header_size 48: expected a multiple of 8 "
         "in [56, 4096]");
  absurd(4, 60,
         "perf_info sample_header_size 60: expected a multiple of 8 "
         "in [56, 4096]");
  absurd(4, 4104,
         "perf_info sample_header_size 4104: expected a multiple "
         "of 8 in [56, 4096]");
  absurd(8, 16,
         "perf_info block_header_size 16: expected a multiple of 8 "
         "in [24, 4096]");
  absurd(8, 0xffffffff,
         "perf_info block_header_size 4294967295: expected "
         "a multiple of 8 in [24, 4096]");
  absurd(0, 0, "perf_info counters_per_block 0: expected 8 to 128");
  absurd(0, 129, "perf_info counters_per_block 129: expected 8 to 128");
  absurd(20, 2, "perf_info fw_blocks 2: at most 1");
  absurd(40, 257, "perf_info shader_blocks 257: at most 256");
  absurd(40, 0xffffffff, "perf_info shader_blocks 4294967295: at most 256");
  /* the largest the limits allow (256 CSG, slices and cores of 128
   * counters behind 4 KiB headers) stays far below PP_MAX_SAMPLE_SIZE */
  uint8_t raw[48];
  pp_build_info(&rfc, raw);
  put32(raw, 0, 128);
  put32(raw, 4, 4096);
  put32(raw, 8, 4096);
  put32(raw, 24, 256);
  put32(raw, 36, 256);
  put32(raw, 40, 256);
  struct pp_info in;
  struct pp_error err;
  assert_int_equal(pp_info_decode(raw, 48, &in, &err), 0);
  assert_int_equal(in.n_blocks, 771);
  assert_int_equal(in.walk_size, 4096 + 771 * 5120);
  /* no block at all */
  memset(raw + 20, 0, 24);
  assert_int_equal(pp_info_decode(raw, 48, &in, &err), -EINVAL);
  assert_string_equal(err.message, "perf_info reports no counter block");
}

static void pp_info_decode__v6_sample_size_checked(void **state) {
  (void)state;
  uint8_t raw[48];
  pp_build_info(&v6, raw);
  struct pp_info in;
  struct pp_error err;
  put32(raw, 12, 19960); /* smaller than the blocks need */
  assert_int_equal(pp_info_decode(raw, 44, &in, &err), -EINVAL);
  assert_string_equal(err.message,
                      "perf_info sample_size 19960: the blocks need 19968 "
                      "bytes (a multiple of 8, at most 16777216)");
  put32(raw, 12, 19972); /* not a multiple of 8 */
  assert_int_equal(pp_info_decode(raw, 44, &in, &err), -EINVAL);
  put32(raw, 12, 0xfffffff8); /* absurd */
  assert_int_equal(pp_info_decode(raw, 44, &in, &err), -EINVAL);
  put32(raw, 12, 0);
  assert_int_equal(pp_info_decode(raw, 44, &in, &err), -EINVAL);
}

static void pp_block_from_raw__differs_per_layout(void **state) {
  (void)state;
  static const enum pp_block rfc_v2[] = {
      PP_BLOCK_UNKNOWN, PP_BLOCK_FW,     PP_BLOCK_CSG,    PP_BLOCK_CSHW,
      PP_BLOCK_TILER,   PP_BLOCK_MEMSYS, PP_BLOCK_SHADER, PP_BLOCK_UNKNOWN};
  static const enum pp_block v6_types[] = {
      PP_BLOCK_UNKNOWN, PP_BLOCK_FW,     PP_BLOCK_CSHW,    PP_BLOCK_TILER,
      PP_BLOCK_MEMSYS,  PP_BLOCK_SHADER, PP_BLOCK_UNKNOWN, PP_BLOCK_UNKNOWN};
  for (uint8_t r = 0; r < 8; r++) {
    assert_int_equal(pp_block_from_raw(PP_LAYOUT_RFC_V2, r), rfc_v2[r]);
    assert_int_equal(pp_block_from_raw(PP_LAYOUT_V6, r), v6_types[r]);
    assert_int_equal(pp_block_from_raw(PP_LAYOUT_NONE, r), PP_BLOCK_UNKNOWN);
  }
  assert_int_equal(pp_block_from_raw(PP_LAYOUT_V6, 255), PP_BLOCK_UNKNOWN);
  assert_string_equal(pp_block_name(PP_BLOCK_MEMSYS), "memsys");
  assert_string_equal(pp_block_name(PP_BLOCK_UNKNOWN), "unknown");
  assert_int_equal(pp_block_parse("Shader"), PP_BLOCK_SHADER);
  assert_int_equal(pp_block_parse("csg"), PP_BLOCK_CSG);
  assert_int_equal(pp_block_parse("shaders"), PP_BLOCK_UNKNOWN);
  assert_int_equal(pp_block_parse(""), PP_BLOCK_UNKNOWN);
  assert_int_equal(pp_info_control_ioctl(PP_LAYOUT_RFC_V2), 0xC018644Dul);
  assert_int_equal(pp_info_control_ioctl(PP_LAYOUT_V6), 0xC0186451ul);
  assert_int_equal(pp_info_control_ioctl(PP_LAYOUT_NONE), 0);
  assert_string_equal(pp_layout_name(PP_LAYOUT_RFC_V2), "rfc-v2");
  assert_string_equal(pp_layout_name(PP_LAYOUT_V6), "v6");
}

static struct pp_setup_request request(void) {
  struct pp_setup_request r;
  memset(&r, 0, sizeof(r));
  r.block_set = PP_SET_SECONDARY;
  r.eventfd = 9;
  r.ringbuf_handle = 3;
  r.control_handle = 4;
  r.sample_slots = 32;
  r.control_offset = 64;
  for (int b = 0; b < PP_BLOCK_COUNT; b++) {
    r.enable[b][0] = 0x10 + (uint64_t)b;
    r.enable[b][1] = 0x100 + (uint64_t)b;
  }
  return r;
}

static void pp_info_setup_format__both_layouts(void **state) {
  (void)state;
  struct pp_setup_request r = request();
  uint8_t buf[PP_SETUP_MAX];
  size_t len;
  memset(buf, 0xee, sizeof(buf));
  assert_int_equal(pp_info_setup_format(PP_LAYOUT_RFC_V2, &r, buf, &len), 0);
  assert_int_equal(len, 136);
  assert_int_equal(buf[0], 1);
  for (int i = 1; i < 8; i++)
    assert_int_equal(buf[i], 0); /* pad must be zero */
  assert_int_equal(buf[8], 9);
  assert_int_equal(buf[12], 3);
  assert_int_equal(buf[16], 4);
  assert_int_equal(buf[20], 32);
  assert_int_equal(get64(buf, 24), 64);
  assert_int_equal(get64(buf, 32), 0);
  /* fw @40, csg @56, cshw @72, tiler @88, memsys @104, shader @120 */
  for (int b = 0; b < PP_BLOCK_COUNT; b++) {
    assert_int_equal(get64(buf, 40 + 16 * (size_t)b), 0x10 + b);
    assert_int_equal(get64(buf, 48 + 16 * (size_t)b), 0x100 + b);
  }
  r.enable[PP_BLOCK_CSG][0] = r.enable[PP_BLOCK_CSG][1] = 0;
  memset(buf, 0xee, sizeof(buf));
  assert_int_equal(pp_info_setup_format(PP_LAYOUT_V6, &r, buf, &len), 0);
  assert_int_equal(len, 120);
  assert_int_equal(buf[20], 32);
  /* fw @40, cshw @56, tiler @72, memsys @88, shader @104 */
  assert_int_equal(get64(buf, 40), 0x10);
  assert_int_equal(get64(buf, 56), 0x10 + PP_BLOCK_CSHW);
  assert_int_equal(get64(buf, 64), 0x100 + PP_BLOCK_CSHW);
  assert_int_equal(get64(buf, 72), 0x10 + PP_BLOCK_TILER);
  assert_int_equal(get64(buf, 88), 0x10 + PP_BLOCK_MEMSYS);
  assert_int_equal(get64(buf, 104), 0x10 + PP_BLOCK_SHADER);
  assert_int_equal(get64(buf, 112), 0x100 + PP_BLOCK_SHADER);
}

static void pp_info_setup_format__rejects(void **state) {
  (void)state;
  struct pp_setup_request r = request();
  uint8_t buf[PP_SETUP_MAX];
  size_t len = 7;
  /* v6 has no CSG block: a CSG mask is a caller bug */
  assert_int_equal(pp_info_setup_format(PP_LAYOUT_V6, &r, buf, &len), -EINVAL);
  assert_int_equal(pp_info_setup_format(PP_LAYOUT_NONE, &r, buf, &len),
                   -EINVAL);
  r.sample_slots = 24;
  assert_int_equal(pp_info_setup_format(PP_LAYOUT_RFC_V2, &r, buf, &len),
                   -EINVAL);
  r.sample_slots = 0;
  assert_int_equal(pp_info_setup_format(PP_LAYOUT_RFC_V2, &r, buf, &len),
                   -EINVAL);
  r.sample_slots = 32;
  r.block_set = 3;
  assert_int_equal(pp_info_setup_format(PP_LAYOUT_RFC_V2, &r, buf, &len),
                   -EINVAL);
  assert_int_equal(len, 7);
}

static void pp_info_ring_size__page_aligned(void **state) {
  (void)state;
  uint8_t raw[48];
  struct pp_info in;
  pp_build_info(&rfc, raw);
  assert_int_equal(pp_info_decode(raw, 48, &in, NULL), 0);
  /* 10776 * 32 = 344832 -> 85 pages of 4096 = 348160 */
  assert_int_equal(pp_info_ring_size(&in, 32, 4096), 348160);
  assert_int_equal(pp_info_ring_size(&in, 32, 65536), 393216);
  assert_int_equal(pp_info_ring_size(&in, 32, 3000), 0);
  assert_int_equal(pp_info_ring_size(&in, 32, 0), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(pp_info_decode__rfc_v2),
      cmocka_unit_test(pp_info_decode__v6),
      cmocka_unit_test(pp_info_decode__sizes_name_the_layouts),
      cmocka_unit_test(pp_info_decode__absurd_sizes),
      cmocka_unit_test(pp_info_decode__v6_sample_size_checked),
      cmocka_unit_test(pp_block_from_raw__differs_per_layout),
      cmocka_unit_test(pp_info_setup_format__both_layouts),
      cmocka_unit_test(pp_info_setup_format__rejects),
      cmocka_unit_test(pp_info_ring_size__page_aligned),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
