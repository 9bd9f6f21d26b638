/*
 * test_pp_sample.c: the sample walk by perf_info's sizes (never sizeof),
 * every block header checked against perf_info, truncation.
 */
#include "common/panthor/pp_sample.h"
#include "tests/lib/pp_build.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

/* type * 1000000 + idx * 1000 + k */
static uint64_t value(void *ctx, enum pp_block t, uint32_t idx, uint32_t k) {
  (void)ctx;
  return (uint64_t)t * 1000000 + idx * 1000 + k;
}

static uint8_t *build(const struct pp_build *b, struct pp_info *in) {
  uint8_t raw[48];
  size_t n = pp_build_info(b, raw);
  assert_int_equal(pp_info_decode(raw, n, in, NULL), 0);
  uint8_t *buf = malloc(pp_build_sample_size(b));
  assert_non_null(buf);
  pp_build_sample(b, buf, 111, 222, PP_SAMPLE_OVERFLOW, 42, value, NULL);
  return buf;
}

static void pp_sample_decode__rfc_v2_walk(void **state) {
  (void)state;
  struct pp_build b = {.layout = PP_LAYOUT_RFC_V2,
                       .counters_per_block = 64,
                       .blocks = {1, 2, 1, 1, 2, 3}};
  struct pp_info in;
  uint8_t *buf = build(&b, &in);
  struct pp_sample s;
  assert_int_equal(pp_sample_decode(&in, buf, in.walk_size, &s, NULL), 0);
  assert_int_equal(s.timestamp_start_ns, 111);
  assert_int_equal(s.timestamp_end_ns, 222);
  assert_int_equal(s.flags, PP_SAMPLE_OVERFLOW);
  assert_int_equal(s.user_data, 42);
  assert_int_equal(s.n_blocks, 10);
  static const enum pp_block order[] = {
      PP_BLOCK_FW,     PP_BLOCK_CSG,    PP_BLOCK_CSG,    PP_BLOCK_CSHW,
      PP_BLOCK_TILER,  PP_BLOCK_MEMSYS, PP_BLOCK_MEMSYS, PP_BLOCK_SHADER,
      PP_BLOCK_SHADER, PP_BLOCK_SHADER};
  static const uint8_t idx[] = {0, 0, 1, 0, 0, 0, 1, 0, 1, 2};
  for (uint32_t i = 0; i < 10; i++) {
    struct pp_block_view v;
    pp_sample_block(&s, i, &v);
    assert_int_equal(v.type, order[i]);
    assert_int_equal(v.idx, idx[i]);
    assert_int_equal(v.enable_mask[0], ~0ull);
    assert_int_equal(pp_block_counter(&v, 0), PP_BUILD_HEADER_JUNK);
    assert_int_equal(pp_block_counter(&v, 4),
                     order[i] * 1000000ull + idx[i] * 1000 + 4);
    assert_int_equal(pp_block_counter(&v, 63),
                     order[i] * 1000000ull + idx[i] * 1000 + 63);
  }
  free(buf);
}

/* A kernel whose headers grew: the walk follows perf_info, not sizeof. */
static void pp_sample_decode__larger_headers(void **state) {
  (void)state;
  struct pp_build b = {.layout = PP_LAYOUT_V6,
                       .counters_per_block = 128,
                       .sample_header_size = 72,
                       .block_header_size = 40,
                       .blocks = {1, 0, 1, 1, 1, 2}};
  struct pp_info in;
  uint8_t *buf = build(&b, &in);
  struct pp_sample s;
  assert_int_equal(pp_sample_decode(&in, buf, in.walk_size, &s, NULL), 0);
  assert_int_equal(s.n_blocks, 6);
  struct pp_block_view v;
  pp_sample_block(&s, 5, &v);
  assert_int_equal(v.type, PP_BLOCK_SHADER);
  assert_int_equal(v.idx, 1);
  assert_int_equal(v.raw_type, 5);
  assert_int_equal(pp_block_counter(&v, 127), 5001127);
  assert_ptr_equal(v.counters, buf + 72 + 5 * (40 + 1024) + 40);
  free(buf);
}

static void expect_fail(const struct pp_info *in, const uint8_t *buf,
                        size_t len, const char *message) {
  struct pp_sample s;
  struct pp_error err;
  assert_int_equal(pp_sample_decode(in, buf, len, &s, &err), -EINVAL);
  assert_string_equal(err.message, message);
  assert_int_equal(s.n_blocks, 0);
  assert_null(s.blocks);
}

static void pp_sample_decode__rejects(void **state) {
  (void)state;
  struct pp_build b = {.layout = PP_LAYOUT_V6,
                       .counters_per_block = 64,
                       .blocks = {1, 0, 1, 1, 1, 2}};
  struct pp_info in;
  uint8_t *buf = build(&b, &in);
  size_t len = in.walk_size; /* 56 + 6 * 536 = 3272 */
  expect_fail(&in, buf, len - 1,
              "sample of 3271 bytes: perf_info describes 3272");
  expect_fail(&in, buf, 0, "sample of 0 bytes: perf_info describes 3272");
  uint8_t *block4 = buf + 56 + 3 * 536; /* block 3: the MEMSYS block */
  block4[0] = 0;                        /* v6 METADATA: never exposed */
  expect_fail(&in, buf, len, "block 3: type 0 is not in the v6 layout");
  block4[0] = 6; /* an RFC v2 SHADER value: not v6 */
  expect_fail(&in, buf, len, "block 3: type 6 is not in the v6 layout");
  block4[0] = 4;
  block4[1] = 1; /* one slice only */
  expect_fail(&in, buf, len,
              "block 3: memsys 1 beyond the 1 perf_info "
              "reports");
  block4[1] = 0;
  block4[0] = 5; /* a third shader block where perf_info counts two */
  expect_fail(&in, buf, len,
              "block 5: shader 1 beyond the 2 perf_info "
              "reports");
  block4[0] = 4;
  struct pp_sample s;
  assert_int_equal(pp_sample_decode(&in, buf, len, &s, NULL), 0);
  struct pp_info none;
  memset(&none, 0, sizeof(none));
  expect_fail(&none, buf, len, "no perf_info to walk the sample by");
  free(buf);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(pp_sample_decode__rfc_v2_walk),
      cmocka_unit_test(pp_sample_decode__larger_headers),
      cmocka_unit_test(pp_sample_decode__rejects),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
