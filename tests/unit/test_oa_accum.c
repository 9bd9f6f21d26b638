/* OA report formats, record walk, accumulation across wraps of every
 * width, derived metrics and the platform table, with values worked out by
 * hand from the kernel's i915_perf.c and igt's lib/i915/perf.c:
 * intel_perf_accumulate_reports. */
#include "common/i915/oa_accum.h"
#include "common/i915/oa_format.h"
#include "common/i915/oa_metrics.h"
#include "common/i915/oa_platform.h"
#include "common/i915/oa_report.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

static void put32(uint8_t *p, uint32_t v) {
  for (int i = 0; i < 4; i++)
    p[i] = (uint8_t)(v >> (8 * i));
}

static void put64(uint8_t *p, uint64_t v) {
  put32(p, (uint32_t)v);
  put32(p + 4, (uint32_t)(v >> 32));
}

/* A 40-bit A counter of A32u40/A24u40: low at 16 + 4n, high at 160 + n */
static void put40(uint8_t *r, unsigned n, uint64_t v) {
  put32(r + 16 + 4 * n, (uint32_t)v);
  r[160 + n] = (uint8_t)(v >> 32);
}

static void layouts_follow_the_sheet(void **state) {
  (void)state;
  const struct oa_format *f = oa_format_get(10);
  assert_string_equal(f->name, "A32u40_A4u32_B8_C8");
  assert_int_equal(f->size, 256);
  assert_int_equal(f->n_counters, 36 + 16);
  /* A31: low 140, high 191; A32: u32 at 144; B0 at 192; C7 at 252 */
  assert_int_equal(f->counters[31].low, 140);
  assert_int_equal(f->counters[31].high, 191);
  assert_int_equal(f->counters[32].width, 32);
  assert_int_equal(f->counters[32].low, 144);
  assert_string_equal(f->counters[36].name, "b0");
  assert_int_equal(f->counters[36].low, 192);
  assert_string_equal(f->counters[51].name, "c7");
  assert_int_equal(f->counters[51].low, 252);

  f = oa_format_get(12); /* A24u40_A14u32_B8_C8: 38 A counters */
  assert_int_equal(f->n_counters, 38 + 16);
  int a4 = oa_format_a_index(f, 4), a28 = oa_format_a_index(f, 28);
  int a36 = oa_format_a_index(f, 36), a37 = oa_format_a_index(f, 37);
  assert_int_equal(f->counters[a4].low, 32);
  assert_int_equal(f->counters[a4].high, 164);
  assert_int_equal(f->counters[a28].low, 128);
  assert_int_equal(f->counters[a28].high, 188);
  assert_int_equal(f->counters[a36].low, 160);
  assert_int_equal(f->counters[a36].width, 32);
  assert_int_equal(f->counters[a37].low, 184);
  assert_int_equal(f->counters[oa_format_a_index(f, 3)].width, 32);

  f = oa_format_get(13);
  assert_true(f->header64);
  assert_string_equal(f->counters[7].name, "mpec7");
  assert_int_equal(f->counters[7].low, 88);
  assert_int_equal(f->counters[8].low, 96); /* B0 */
  f = oa_format_get(5);
  assert_false(f->has_clock); /* HSW: dword 3 is A0 */
  assert_int_equal(f->counters[0].low, 12);
  assert_int_equal(f->counters[44].low, 188);

  /* runs of same-width counters at a fixed stride, for the hot loop */
  assert_int_equal(oa_format_get(10)->n_runs, 3); /* A0-31, A32-35, B+C */
  assert_int_equal(oa_format_get(12)->n_runs, 7);
  assert_int_equal(oa_format_get(5)->n_runs, 1); /* A0-44 then B, C: 12..255 */
  assert_int_equal(oa_format_get(13)->n_runs, 2);
  assert_int_equal(oa_format_get(12)->runs[1].width, 40);
  assert_int_equal(oa_format_get(12)->runs[1].n, 20);
  assert_int_equal(oa_format_get(12)->runs[1].high, 164);
  assert_null(oa_format_get(0));
  assert_null(oa_format_get(15));
  assert_ptr_equal(oa_format_parse("a24U40_a14u32_b8_c8"), oa_format_get(12));
  assert_ptr_equal(oa_format_parse("10"), oa_format_get(10));
  assert_null(oa_format_parse("99"));
  assert_null(oa_format_parse("A29_B8_C8"));
}

static void wraps_of_every_width(void **state) {
  (void)state;
  const struct oa_format *f = oa_format_get(10);
  struct oa_accum a;
  oa_accum_init(&a, f, 1);
  uint8_t r[256] = {0};
  put32(r + 4, 0xFFFFFF00u);           /* timestamp */
  put32(r + 12, 0xFFFFFFF0u);          /* clock ticks */
  put40(r, 0, UINT64_C(0xFFFFFFFFF0)); /* A0, 40 bits */
  put32(r + 144, 0xFFFFFFFFu);         /* A32, 32 bits */
  put32(r + 192, 0xFFFFFFFEu);         /* B0 */
  oa_accum_report(&a, r);
  put32(r + 4, 0x100);
  put32(r + 12, 0x10);
  put40(r, 0, 0x10);
  put32(r + 144, 4);
  put32(r + 192, 1);
  oa_accum_report(&a, r);
  assert_int_equal(a.reports, 2);
  assert_int_equal(a.totals.ticks, 0x200);
  assert_int_equal(a.totals.clocks, 0x20);
  assert_int_equal(a.totals.counters[0], 0x20);
  assert_int_equal(a.totals.counters[32], 5);
  assert_int_equal(a.totals.counters[36], 3);
}

static void oam_headers_are_64_bit(void **state) {
  (void)state;
  const struct oa_format *f = oa_format_get(13);
  struct oa_accum a;
  oa_accum_init(&a, f, 1);
  uint8_t r[192] = {0};
  put64(r, (uint64_t)1 << 19);                /* reason: timer */
  put64(r + 8, UINT64_C(0x00FFFFFFFFFFFFF0)); /* 56-bit timestamp */
  put64(r + 24, UINT64_C(0x1FFFFFFFF));       /* clock above 32 bits */
  put64(r + 32, UINT64_MAX);                  /* MPEC0 */
  oa_accum_report(&a, r);
  put64(r + 8, 0x10);
  put64(r + 24, UINT64_C(0x200000005));
  put64(r + 32, 5);
  oa_accum_report(&a, r);
  assert_int_equal(a.totals.ticks, 0x20);
  assert_int_equal(a.totals.clocks, 6);
  assert_int_equal(a.totals.counters[0], 6);
  assert_int_equal(a.reasons[0], 2);
}

/* xe's Xe2 PEC64u64 (xe_oa.c: oa_formats): 576 bytes, the 64-bit header,
 * pec0..pec63 as u64 at 32 + 8n. Three reports: the timestamp wraps at 56
 * bits, the GPU ticks and pec63 at 64, pec0 runs past 2^32 and 2^40. */
static void pec64u64_totals_exact_across_wraps(void **state) {
  (void)state;
  const struct oa_format *f = oa_format_get(OA_FORMAT_XE_PEC64u64);
  assert_non_null(f);
  assert_ptr_equal(oa_format_parse("pec64U64"), f);
  assert_ptr_equal(oa_format_parse("256"), f);
  assert_null(oa_format_get(OA_FORMAT_XE_BASE + OA_FORMAT_XE_COUNT));
  assert_null(oa_format_get(I915_UAPI_OA_FORMAT_LAST + 1));
  assert_int_equal(f->size, 576);
  assert_true(f->header64);
  assert_int_equal(f->n_counters, 64);
  assert_int_equal(f->n_runs, 1);
  assert_string_equal(f->counters[0].name, "pec0");
  assert_string_equal(f->counters[63].name, "pec63");
  assert_int_equal(f->counters[63].low, 32 + 8 * 63);
  assert_int_equal(f->counters[63].width, 64);
  assert_true(f->size >= f->counters[63].low + 8 && f->size <= OA_REPORT_MAX);

  struct oa_accum a;
  oa_accum_init(&a, f, 1);
  uint8_t r[576] = {0};
  put64(r, (uint64_t)1 << 19);
  put64(r + 8, UINT64_C(0x00FFFFFFFFFFFF00)); /* 2^56 - 256 */
  put64(r + 24, UINT64_MAX - 9);
  put64(r + 32, UINT64_C(0xFFFFFFF0));
  put64(r + 32 + 8 * 63, UINT64_MAX - 2);
  oa_accum_report(&a, r);
  put64(r + 8, 0x100);                    /* +512 across 2^56 */
  put64(r + 24, 20);                      /* +30 across 2^64 */
  put64(r + 32, UINT64_C(0x10000000010)); /* past 2^32 and 2^40 */
  put64(r + 32 + 8 * 63, 7);              /* +10 across 2^64 */
  oa_accum_report(&a, r);
  put64(r + 8, 0x300);                    /* +0x200 */
  put64(r + 24, 25);                      /* +5 */
  put64(r + 32, UINT64_C(0x10000000011)); /* +1 */
  put64(r + 32 + 8 * 63, 8);              /* +1 */
  oa_accum_report(&a, r);
  assert_int_equal(a.reports, 3);
  assert_int_equal(a.reasons[0], 3);
  assert_int_equal(a.totals.ticks, 512 + 0x200);
  assert_int_equal(a.totals.clocks, 30 + 5);
  assert_int_equal(a.totals.counters[0],
                   UINT64_C(0x10000000010) - UINT64_C(0xFFFFFFF0) + 1);
  assert_int_equal(a.totals.counters[63], 10 + 1);
  assert_int_equal(a.totals.counters[1], 0);

  struct oa_report d;
  oa_report_decode(f, 1, r, &d);
  assert_int_equal(d.timestamp, 0x300);
  assert_int_equal(d.clock, 25);
  assert_int_equal(d.values[63], 8);
}

static void totals_pass_two_to_the_32(void **state) {
  (void)state;
  const struct oa_format *f = oa_format_get(10);
  struct oa_accum a;
  oa_accum_init(&a, f, 0);
  uint8_t r[256] = {0};
  uint32_t clk = 0;
  for (int i = 0; i < 1000; i++) {
    put32(r + 12, clk);
    put32(r + 4, clk);
    oa_accum_report(&a, r);
    clk += 0x7FFFFFFFu; /* wraps every other report */
  }
  assert_int_equal(a.reports, 1000);
  assert_true(a.totals.clocks == UINT64_C(999) * 0x7FFFFFFFu);
  assert_true(a.totals.ticks == UINT64_C(999) * 0x7FFFFFFFu);
}

static void gpu_time_is_exact(void **state) {
  (void)state;
  assert_int_equal(oa_ticks_to_ns(19200000, 19200000), 1000000000);
  /* 2^40 ticks at 12.5 MHz = 2^40 x 80 ns, past 64-bit products */
  assert_true(oa_ticks_to_ns(UINT64_C(1) << 40, 12500000) ==
              (UINT64_C(1) << 40) * 80);
  /* 3 ticks at 19.2 MHz = 156.25 ns: truncated once */
  assert_int_equal(oa_ticks_to_ns(3, 19200000), 156);
  assert_int_equal(oa_ticks_to_ns(5, 0), 0);
  uint64_t big = UINT64_C(1) << 62; /* x 1e9 needs 128 bits */
  assert_true(oa_ticks_to_ns(big, 1000000000) == big);
}

struct walk_seen {
  int samples, lost;
};
static void seen_sample(void *ctx, const uint8_t *r) {
  (void)r;
  ((struct walk_seen *)ctx)->samples++;
}
static void seen_status(void *ctx, uint32_t type) {
  (void)type;
  ((struct walk_seen *)ctx)->lost++;
}

static size_t put_record(uint8_t *p, uint32_t type, uint16_t size) {
  put32(p, type);
  p[4] = p[5] = 0;
  p[6] = (uint8_t)size;
  p[7] = (uint8_t)(size >> 8);
  return size;
}

static void record_walk_stops_at_malformed(void **state) {
  (void)state;
  const struct oa_format *f = oa_format_get(8); /* 64-byte reports */
  static const struct oa_walk_ops ops = {seen_sample, seen_status};
  uint8_t buf[512] = {0};
  size_t off = 0;
  off += put_record(buf + off, DRM_I915_PERF_RECORD_OA_REPORT_LOST, 8);
  off += put_record(buf + off, DRM_I915_PERF_RECORD_SAMPLE, 72);
  off += put_record(buf + off, 77, 16); /* unknown: skipped by size */
  off += put_record(buf + off, DRM_I915_PERF_RECORD_OA_BUFFER_LOST, 8);
  size_t good = off;
  struct {
    uint16_t size;
    uint32_t type;
    const char *why;
  } bad[] = {
      {0, DRM_I915_PERF_RECORD_SAMPLE, "record size 0"},
      {4, DRM_I915_PERF_RECORD_SAMPLE, "record size below its 8-byte header"},
      {80, DRM_I915_PERF_RECORD_SAMPLE,
       "sample size does not match the report format"},
      {400, 77, "record larger than the bytes left"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    put_record(buf + good, bad[i].type, bad[i].size);
    /* a valid sample after the bad record must not be reached */
    put_record(buf + good + 80, DRM_I915_PERF_RECORD_SAMPLE, 72);
    struct walk_seen seen = {0};
    struct oa_walk_result res;
    oa_records_walk(f, buf, good + 160, &ops, &seen, &res);
    assert_string_equal(res.error, bad[i].why);
    assert_int_equal(res.error_offset, good);
    assert_int_equal(seen.samples, 1);
    assert_int_equal(seen.lost, 2);
    assert_int_equal(res.unknown, 1);
    assert_int_equal(res.report_lost, 1);
    assert_int_equal(res.buffer_lost, 1);
  }
  struct walk_seen seen = {0};
  struct oa_walk_result res;
  oa_records_walk(f, buf, good + 3, &ops, &seen, &res);
  assert_string_equal(res.error, "truncated record header");
  oa_records_walk(f, buf, good, &ops, &seen, &res);
  assert_null(res.error);
}

static void status_records_keep_the_base(void **state) {
  (void)state;
  const struct oa_format *f = oa_format_get(8);
  struct oa_accum a;
  oa_accum_init(&a, f, 0);
  uint8_t buf[3 * 72] = {0};
  size_t off = put_record(buf, DRM_I915_PERF_RECORD_SAMPLE, 72);
  put32(buf + 8 + 12, 100); /* A7, the format's first counter */
  off += put_record(buf + off, DRM_I915_PERF_RECORD_OA_BUFFER_LOST, 8);
  size_t s2 = off;
  off += put_record(buf + off, DRM_I915_PERF_RECORD_SAMPLE, 72);
  put32(buf + s2 + 8 + 12, 50);  /* went down: modular difference */
  put32(buf + s2 + 8, 3u << 19); /* timer + internal trigger 1 */
  struct oa_walk_result res;
  oa_accum_records(&a, buf, off, &res);
  assert_null(res.error);
  assert_int_equal(a.reports, 2);
  assert_int_equal(a.buffer_lost, 1);
  assert_true(a.totals.counters[0] == UINT64_C(0x100000000) - 50);
  assert_int_equal(a.reasons[0], 1);
  assert_int_equal(a.reasons[1], 1);
}

static void render_basic_metrics(void **state) {
  (void)state;
  const struct oa_format *f = oa_format_get(10);
  struct oa_totals prev = {0}, now = {0};
  now.ticks = 19200; /* 1 ms at 19.2 MHz */
  now.clocks = 1000; /* 1 MHz average */
  now.counters[0] = 250;
  for (int k = 7; k <= 10; k++)
    now.counters[k] = 2400; /* 9600 / 96 EUs = 100 */
  now.counters[7] += 95;    /* 9695 / 96 = 100 with the XML's UDIV */
  for (int k = 15; k <= 18; k++)
    now.counters[k] = 700; /* 8 x 2800 / 7 / 96 = 33 (UDIV twice) */
  struct oa_metric_params p = {19200000, 96, 7, OA_EU_GEN12};
  struct oa_derived d;
  oa_metrics_derive(f, &prev, &now, &p, &d);
  assert_float_equal(d.gpu_time_ns, 1e6, 0);
  assert_float_equal(d.avg_gpu_core_frequency_hz, 1e6, 1e-6);
  assert_float_equal(d.gpu_busy_percent, 25.0, 1e-12);
  assert_float_equal(d.eu_active_percent, 10.0, 1e-12);
  assert_float_equal(d.eu_stall_percent, 0.0, 0);
  assert_float_equal(d.eu_thread_occupancy_percent, 3.3, 1e-12);

  p.family = OA_EU_GEN8; /* A7 alone: 2495 / 96 = 25 */
  oa_metrics_derive(f, &prev, &now, &p, &d);
  assert_float_equal(d.eu_active_percent, 2.5, 1e-12);
  assert_float_equal(d.eu_stall_percent, 2.5, 1e-12); /* A8 2400/96 */
  assert_true(isnan(d.eu_thread_occupancy_percent));

  p.family = OA_EU_NONE;
  now.clocks = 0; /* no clocks: nothing per clock is defined */
  oa_metrics_derive(f, &prev, &now, &p, &d);
  assert_true(isnan(d.gpu_busy_percent));
  assert_true(isnan(d.eu_active_percent));
}

static void platforms_by_device_id(void **state) {
  (void)state;
  assert_string_equal(oa_platform_lookup(0x9A49)->name, "TGL");
  assert_string_equal(oa_platform_lookup(0x0A84)->name, "BXT");
  assert_string_equal(oa_platform_lookup(0x0A16)->name, "HSW");
  assert_string_equal(oa_platform_lookup(0x1616)->name, "BDW");
  assert_string_equal(oa_platform_lookup(0x3E92)->name, "CFL");
  assert_string_equal(oa_platform_lookup(0x46A6)->name, "ADL");
  assert_string_equal(oa_platform_lookup(0x56A0)->name, "DG2");
  assert_string_equal(oa_platform_lookup(0x7D55)->name, "MTL");
  const struct oa_platform *u = oa_platform_lookup(0x1234);
  assert_string_equal(u->name, "unknown");
  assert_int_equal(u->default_format, 0);
  assert_int_equal(oa_platform_lookup(0x56A0)->default_format, 12);
  assert_int_equal(oa_platform_lookup(0x0A16)->default_format, 5);
  assert_int_equal(oa_platform_lookup(0x9A49)->eu_threads, 7);
  assert_int_equal(oa_platform_lookup(0x7D55)->eu_threads, 8);
  assert_false(oa_platform_lookup(0x1916)->gen12);
  assert_true(oa_platform_lookup(0x9A49)->gen12);
}

static void reason_names(void **state) {
  (void)state;
  assert_string_equal(oa_reason_name(0), "timer");
  assert_string_equal(oa_reason_name(3), "ctx_switch");
  assert_string_equal(oa_reason_name(6), "mmio_trigger");
  assert_null(oa_reason_name(7));
  assert_string_equal(oa_reason_field(5), "reason_clock_ratio_change");
  assert_null(oa_reason_field(7));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(layouts_follow_the_sheet),
      cmocka_unit_test(wraps_of_every_width),
      cmocka_unit_test(oam_headers_are_64_bit),
      cmocka_unit_test(pec64u64_totals_exact_across_wraps),
      cmocka_unit_test(totals_pass_two_to_the_32),
      cmocka_unit_test(gpu_time_is_exact),
      cmocka_unit_test(record_walk_stops_at_malformed),
      cmocka_unit_test(status_records_keep_the_base),
      cmocka_unit_test(render_basic_metrics),
      cmocka_unit_test(platforms_by_device_id),
      cmocka_unit_test(reason_names),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
