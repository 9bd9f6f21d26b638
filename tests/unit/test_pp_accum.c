/*
 * test_pp_accum.c: sums over blocks and the derived metrics per product,
 * with values computed by hand (libGPUCounters equations), sequence gaps and
 * flags, per-core values, enable masks, and the time base of bandwidth.
 */
#include "common/panthor/pp_accum.h"
#include "tests/lib/pp_build.h"

#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

static uint64_t vals[PP_BLOCK_COUNT][4][128];

static uint64_t value(void *ctx, enum pp_block t, uint32_t idx, uint32_t k) {
  (void)ctx;
  return idx < 4 && k < 128 ? vals[t][idx][k] : 0;
}

struct rig {
  struct pp_build b;
  struct pp_gpu gpu;
  struct pp_info info;
  struct pp_accum acc;
  uint8_t *buf;
};

/* G710-style numbers (libGPUCounters indices), shared by every product below;
 * the product-specific indices are set by each test. */
static void set_common(void) {
  memset(vals, 0, sizeof(vals));
  vals[PP_BLOCK_CSHW][0][4] = 1000; /* GPU_ACTIVE */
  vals[PP_BLOCK_CSHW][0][6] = 900;  /* GPU_ITER_ACTIVE */
  vals[PP_BLOCK_TILER][0][4] = 200; /* TILER_ACTIVE */
  static const uint64_t memsys[2][6] = {{10, 5, 100, 3, 40, 1},
                                        {20, 7, 300, 4, 60, 2}};
  static const uint32_t mk[6] = {26, 27, 32, 33, 47, 48};
  for (int s = 0; s < 2; s++)
    for (int i = 0; i < 6; i++)
      vals[PP_BLOCK_MEMSYS][s][mk[i]] = memsys[s][i];
  for (int c = 0; c < 3; c++) {
    vals[PP_BLOCK_SHADER][c][4] = 100 * (uint64_t)(c + 1); /* FRAG_ACTIVE */
    vals[PP_BLOCK_SHADER][c][22] = 50;                     /* COMPUTE_ACTIVE */
    vals[PP_BLOCK_SHADER][c][53] = 400; /* SHADER_CORE_ACTIVE */
    vals[PP_BLOCK_SHADER][c][27] = 1000 * (uint64_t)(c + 1); /* FMA */
    vals[PP_BLOCK_SHADER][c][40] = 7 + (uint64_t)c;
  }
}

static void rig_init(struct rig *r, enum pp_layout layout,
                     enum pp_family family, uint32_t cpb,
                     const struct pp_counter_loc *raw, size_t n_raw,
                     bool per_core) {
  memset(r, 0, sizeof(*r));
  r->b.layout = layout;
  r->b.counters_per_block = cpb;
  uint32_t blocks[PP_BLOCK_COUNT] = {1, 0, 1, 1, 2, 3};
  memcpy(r->b.blocks, blocks, sizeof(blocks));
  uint8_t raw_info[48];
  size_t n = pp_build_info(&r->b, raw_info);
  assert_int_equal(pp_info_decode(raw_info, n, &r->info, NULL), 0);
  r->gpu.family = family;
  r->gpu.bytes_per_beat = 16;
  assert_int_equal(
      pp_accum_init(&r->acc, &r->gpu, &r->info, raw, n_raw, per_core), 0);
  r->buf = malloc(r->info.walk_size);
  assert_non_null(r->buf);
}

static void rig_fini(struct rig *r) {
  pp_accum_fini(&r->acc);
  free(r->buf);
}

static void feed(struct rig *r, uint64_t end_ns, uint32_t flags, uint64_t seq) {
  pp_build_sample(&r->b, r->buf, end_ns - 1000, end_ns, flags, seq, value,
                  NULL);
  assert_int_equal(
      pp_accum_add(&r->acc, &r->info, r->buf, r->info.walk_size, NULL), 0);
}

static void pp_accum__g710_with_stall_counters(void **state) {
  (void)state;
  set_common();
  vals[PP_BLOCK_CSHW][0][16] = 77;  /* ITER_TILER_ACTIVE */
  vals[PP_BLOCK_CSHW][0][24] = 300; /* ITER_COMP_ACTIVE */
  vals[PP_BLOCK_CSHW][0][30] = 50;  /* ITER_COMP_READY_BLOCKED */
  vals[PP_BLOCK_CSHW][0][32] = 600; /* ITER_FRAG_ACTIVE */
  vals[PP_BLOCK_CSHW][0][38] = 100; /* ITER_FRAG_READY_BLOCKED */
  struct rig r;
  rig_init(&r, PP_LAYOUT_RFC_V2, PP_FAMILY_G710, 64, NULL, 0, false);
  feed(&r, 1000000000, 0, 1);
  struct pp_metrics m;
  pp_accum_metrics(&r.acc, &m);
  static const uint64_t ints[PP_M_INT_COUNT] = {
      1000,      /* gpu_active_cycles */
      600 - 100, /* fragment queue: queued - stall */
      300 - 50,  /* compute queue */
      200,       /* tiler */
      100 + 200 + 300,
      150,
      1200,
      400 * 16, /* ext read bytes: (100 + 300) beats * 16 */
      100 * 16, /* ext write bytes: (40 + 60) beats * 16 */
      7,
      3,
      30,
      12,
      6000};
  for (int i = 0; i < PP_M_INT_COUNT; i++) {
    assert_true(m.have_int[i]);
    assert_int_equal(m.ints[i], ints[i]);
  }
  assert_true(m.have_float[PP_M_FRAGMENT_QUEUE_UTILIZATION]);
  assert_true(m.floats[PP_M_FRAGMENT_QUEUE_UTILIZATION] == 50.0);
  assert_true(m.floats[PP_M_COMPUTE_QUEUE_UTILIZATION] == 25.0);
  assert_true(m.floats[PP_M_TILER_UTILIZATION] == 20.0);
  assert_true(m.floats[PP_M_FRAGMENT_UTILIZATION] == 50.0); /* 600/1200 */
  assert_true(m.floats[PP_M_COMPUTE_UTILIZATION] == 12.5);  /* 150/1200 */
  /* the first interval has no time base */
  assert_false(m.have_float[PP_M_EXT_READ_BANDWIDTH]);
  assert_false(m.have_float[PP_M_EXT_WRITE_BANDWIDTH]);
  feed(&r, 1500000000, 0, 2);
  pp_accum_metrics(&r.acc, &m);
  for (int i = 0; i < PP_M_INT_COUNT; i++)
    assert_int_equal(m.ints[i], 2 * ints[i]);
  assert_true(m.floats[PP_M_FRAGMENT_QUEUE_UTILIZATION] == 50.0);
  /* 6400 bytes over 0.5 s of timestamp_end_ns */
  assert_true(m.have_float[PP_M_EXT_READ_BANDWIDTH]);
  assert_true(m.floats[PP_M_EXT_READ_BANDWIDTH] == 12800.0);
  assert_true(m.floats[PP_M_EXT_WRITE_BANDWIDTH] == 3200.0);
  /* an interval without a sample has no per-interval float */
  pp_accum_metrics(&r.acc, &m);
  assert_int_equal(m.ints[PP_M_GPU_ACTIVE_CYCLES], 2000);
  for (int i = 0; i < PP_M_FLOAT_COUNT; i++)
    assert_false(m.have_float[i]);
  /* two samples in one interval: sums over both, time from the base */
  feed(&r, 2000000000, 0, 3);
  feed(&r, 3500000000, 0, 4);
  pp_accum_metrics(&r.acc, &m);
  assert_true(m.floats[PP_M_TILER_UTILIZATION] == 20.0);
  assert_true(m.floats[PP_M_EXT_READ_BANDWIDTH] == 6400.0); /* 12800/2 s */
  assert_int_equal(r.acc.stream.samples, 4);
  assert_int_equal(r.acc.stream.dropped, 0);
  rig_fini(&r);
}

/* G720: no fragment queue stall counter: queued / GPU active, the value at
 * index 38 is some other counter and must not be subtracted. */
static void pp_accum__g720_without_stall(void **state) {
  (void)state;
  set_common();
  vals[PP_BLOCK_CSHW][0][24] = 300;
  vals[PP_BLOCK_CSHW][0][30] = 50;
  vals[PP_BLOCK_CSHW][0][32] = 600;
  vals[PP_BLOCK_CSHW][0][38] = 100;
  struct rig r;
  rig_init(&r, PP_LAYOUT_V6, PP_FAMILY_G720, 128, NULL, 0, false);
  feed(&r, 1000000000, 0, 1);
  struct pp_metrics m;
  pp_accum_metrics(&r.acc, &m);
  assert_int_equal(m.ints[PP_M_FRAGMENT_QUEUE_ACTIVE_CYCLES], 600);
  assert_int_equal(m.ints[PP_M_COMPUTE_QUEUE_ACTIVE_CYCLES], 250);
  assert_true(m.floats[PP_M_FRAGMENT_QUEUE_UTILIZATION] == 60.0);
  assert_true(m.floats[PP_M_COMPUTE_QUEUE_UTILIZATION] == 25.0);
  rig_fini(&r);
}

/* G725: the queue counters moved (48, 32, 38), no fragment stall. */
static void pp_accum__g725_moved_queues(void **state) {
  (void)state;
  set_common();
  vals[PP_BLOCK_CSHW][0][48] = 700; /* ITER_FRAG_ACTIVE */
  vals[PP_BLOCK_CSHW][0][32] = 400; /* ITER_COMP_ACTIVE */
  vals[PP_BLOCK_CSHW][0][38] = 100; /* ITER_COMP_READY_BLOCKED */
  vals[PP_BLOCK_CSHW][0][64] = 5;   /* ITER_TILER_ACTIVE */
  struct rig r;
  rig_init(&r, PP_LAYOUT_V6, PP_FAMILY_G725, 128, NULL, 0, false);
  feed(&r, 1000000000, 0, 1);
  struct pp_metrics m;
  pp_accum_metrics(&r.acc, &m);
  assert_int_equal(m.ints[PP_M_FRAGMENT_QUEUE_ACTIVE_CYCLES], 700);
  assert_int_equal(m.ints[PP_M_COMPUTE_QUEUE_ACTIVE_CYCLES], 300);
  assert_true(m.floats[PP_M_FRAGMENT_QUEUE_UTILIZATION] == 70.0);
  assert_true(m.floats[PP_M_COMPUTE_QUEUE_UTILIZATION] == 30.0);
  assert_int_equal(m.ints[PP_M_GPU_ACTIVE_CYCLES], 1000);
  rig_fini(&r);
}

/* G715: GPU active is the any-queue active counter (CSHW 6 = 900). */
static void pp_accum__g715_any_queue_base(void **state) {
  (void)state;
  set_common();
  vals[PP_BLOCK_CSHW][0][32] = 600;
  vals[PP_BLOCK_CSHW][0][38] = 100;
  struct rig r;
  rig_init(&r, PP_LAYOUT_V6, PP_FAMILY_G715, 128, NULL, 0, false);
  feed(&r, 1000000000, 0, 1);
  struct pp_metrics m;
  pp_accum_metrics(&r.acc, &m);
  assert_int_equal(m.ints[PP_M_GPU_ACTIVE_CYCLES], 900);
  assert_true(fabs(m.floats[PP_M_TILER_UTILIZATION] - 100.0 * 200 / 900) <
              1e-12);
  assert_true(fabs(m.floats[PP_M_FRAGMENT_QUEUE_UTILIZATION] -
                   100.0 * 500 / 900) < 1e-12);
  rig_fini(&r);
}

static void pp_accum__unknown_product_raw_only(void **state) {
  (void)state;
  set_common();
  struct pp_counter_loc raw[] = {{PP_BLOCK_SHADER, 27}, {PP_BLOCK_MEMSYS, 32}};
  struct rig r;
  rig_init(&r, PP_LAYOUT_V6, PP_FAMILY_NONE, 64, raw, 2, true);
  feed(&r, 1000000000, 0, 1);
  feed(&r, 2000000000, 0, 2);
  struct pp_metrics m;
  pp_accum_metrics(&r.acc, &m);
  for (int i = 0; i < PP_M_INT_COUNT; i++)
    assert_false(m.have_int[i]);
  for (int i = 0; i < PP_M_FLOAT_COUNT; i++)
    assert_false(m.have_float[i]);
  assert_int_equal(r.acc.total[PP_C_COUNT + 0], 2 * 6000);
  assert_int_equal(r.acc.total[PP_C_COUNT + 1], 2 * 400);
  /* PerCore: SHADER blocks kept per core; MEMSYS only summed */
  assert_int_equal(r.acc.raw[0].n_per_block, 3);
  assert_int_equal(r.acc.raw[0].per_block[0], 2000);
  assert_int_equal(r.acc.raw[0].per_block[1], 4000);
  assert_int_equal(r.acc.raw[0].per_block[2], 6000);
  assert_null(r.acc.raw[1].per_block);
  rig_fini(&r);
}

static void pp_accum_masks__named_and_raw(void **state) {
  (void)state;
  struct pp_counter_loc raw[] = {{PP_BLOCK_SHADER, 40},
                                 {PP_BLOCK_TILER, 100},
                                 {PP_BLOCK_FW, 5},
                                 {PP_BLOCK_SHADER, 2}}; /* header: never */
  struct rig r;
  rig_init(&r, PP_LAYOUT_RFC_V2, PP_FAMILY_G710, 128, raw, 4, false);
  uint64_t e[PP_BLOCK_COUNT][2];
  pp_accum_masks(&r.acc, e);
  assert_int_equal(e[PP_BLOCK_FW][0], 1ull << 5);
  assert_int_equal(e[PP_BLOCK_FW][1], 0);
  assert_int_equal(e[PP_BLOCK_CSG][0], 0);
  /* CSHW 4 5 6 16 24 30 32 38 */
  assert_int_equal(e[PP_BLOCK_CSHW][0], 0x4141010070ull);
  assert_int_equal(e[PP_BLOCK_TILER][0], 1ull << 4);
  assert_int_equal(e[PP_BLOCK_TILER][1], 1ull << 36);
  /* MEMSYS 16 18 25 26 27 29 32 33 42 47 48 */
  assert_int_equal(e[PP_BLOCK_MEMSYS][0], 0x184032e050000ull);
  /* SHADER 4 9 22 24 26 27 53 and the raw 40 */
  assert_int_equal(e[PP_BLOCK_SHADER][0], 0x2001000d400210ull);
  assert_int_equal(e[PP_BLOCK_SHADER][1], 0);
  rig_fini(&r);
}

static void pp_accum_update__sequence_and_flags(void **state) {
  (void)state;
  set_common();
  struct rig r;
  rig_init(&r, PP_LAYOUT_RFC_V2, PP_FAMILY_G710, 64, NULL, 0, false);
  feed(&r, 1000, 0, 1);
  feed(&r, 2000, PP_SAMPLE_OVERFLOW, 2);
  feed(&r, 3000, 0, 5);                                    /* 3 and 4 lost */
  feed(&r, 4000, PP_SAMPLE_ERROR | PP_SAMPLE_OVERFLOW, 3); /* late: no gap */
  feed(&r, 5000, 0, 6);
  feed(&r, 6000, 0, 10); /* 7, 8, 9 lost */
  const struct pp_stream *s = &r.acc.stream;
  assert_int_equal(s->samples, 6);
  assert_int_equal(s->overflows, 2);
  assert_int_equal(s->errors, 1);
  assert_int_equal(s->dropped, 5);
  /* a malformed sample (8 blocks: 56 + 8 * 536 bytes expected): counted
   * as an error, nothing summed */
  uint64_t before = r.acc.total[PP_C_GPU_ACTIVE];
  struct pp_error err;
  assert_int_equal(pp_accum_add(&r.acc, &r.info, r.buf, 100, &err), -EINVAL);
  assert_string_equal(err.message,
                      "sample of 100 bytes: perf_info describes 4344");
  assert_int_equal(s->errors, 2);
  assert_int_equal(s->samples, 6);
  assert_int_equal(r.acc.total[PP_C_GPU_ACTIVE], before);
  rig_fini(&r);
}

static void pp_accum_restart__no_bandwidth_across_a_reopen(void **state) {
  (void)state;
  set_common();
  struct rig r;
  rig_init(&r, PP_LAYOUT_RFC_V2, PP_FAMILY_G710, 64, NULL, 0, false);
  struct pp_metrics m;
  feed(&r, 1000000000, 0, 7); /* the old session had reached 7 */
  pp_accum_metrics(&r.acc, &m);
  pp_accum_restart(&r.acc);
  feed(&r, 9000000000, 0, 1); /* the new session numbers from 1 again */
  assert_int_equal(r.acc.stream.dropped, 0);
  pp_accum_metrics(&r.acc, &m);
  assert_false(m.have_float[PP_M_EXT_READ_BANDWIDTH]);
  assert_true(m.have_float[PP_M_TILER_UTILIZATION]);
  feed(&r, 10000000000, 0, 3); /* 2 lost */
  assert_int_equal(r.acc.stream.dropped, 1);
  pp_accum_metrics(&r.acc, &m);
  assert_true(m.floats[PP_M_EXT_READ_BANDWIDTH] == 6400.0);
  /* unknown bytes per beat: no bytes, no bandwidth, beats still summed */
  r.acc.bytes_per_beat = 0;
  feed(&r, 11000000000, 0, 4);
  assert_int_equal(r.acc.stream.dropped, 1);
  pp_accum_metrics(&r.acc, &m);
  assert_false(m.have_int[PP_M_EXT_READ_BYTES]);
  assert_false(m.have_float[PP_M_EXT_READ_BANDWIDTH]);
  assert_int_equal(r.acc.total[PP_C_L2_EXT_READ_BEATS], 4 * 400);
  rig_fini(&r);
}

static void pp_accum_init__limits(void **state) {
  (void)state;
  struct pp_accum a;
  struct pp_gpu gpu = {.family = PP_FAMILY_G710};
  struct pp_info info = {.counters_per_block = 64};
  struct pp_counter_loc raw[PP_ACCUM_MAX_RAW + 1];
  memset(raw, 0, sizeof(raw));
  assert_int_equal(
      pp_accum_init(&a, &gpu, &info, raw, PP_ACCUM_MAX_RAW + 1, false), -E2BIG);
  assert_string_equal(pp_metric_int_name(PP_M_FMA_INSTRUCTIONS),
                      "fma_instructions");
  assert_string_equal(pp_metric_float_name(PP_M_EXT_WRITE_BANDWIDTH),
                      "ext_write_bandwidth");
  assert_string_equal(pp_metric_float_name(PP_M_FRAGMENT_QUEUE_UTILIZATION),
                      "fragment_queue_utilization_percent");
  assert_null(pp_metric_int_name(PP_M_INT_COUNT));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(pp_accum__g710_with_stall_counters),
      cmocka_unit_test(pp_accum__g720_without_stall),
      cmocka_unit_test(pp_accum__g725_moved_queues),
      cmocka_unit_test(pp_accum__g715_any_queue_base),
      cmocka_unit_test(pp_accum__unknown_product_raw_only),
      cmocka_unit_test(pp_accum_masks__named_and_raw),
      cmocka_unit_test(pp_accum_update__sequence_and_flags),
      cmocka_unit_test(pp_accum_restart__no_bandwidth_across_a_reopen),
      cmocka_unit_test(pp_accum_init__limits),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
