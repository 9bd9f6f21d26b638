/*
 * test_gpu_metrics.c: amdgpu gpu_metrics decoded from tables built byte for
 * byte at the kernel structs' offsets (tests/lib/gm_build): every revision
 * v1.0 .. v1.8 (both v1.6 layouts), v2.0 .. v2.4, v3.0 (on old and new SMC
 * firmware, and on none), v1.9's attribute list, with exact values in base
 * units, the all-ones "not filled" markers as absent values, and every
 * refusal (short, cut, wrong structure_size, unknown revision, a hostile
 * attribute list).
 */
#include "common/amdgpu/gpu_metrics.h"

#include "tests/lib/gm_build.h"

#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

static uint8_t buf[8192];
static struct gpu_metrics gm;
/* the SMC firmware version given to the decoder: an old Strix Point's
 * unless a case sets another */
#define SMC_OLD 0x005d4600u
#define SMC_NEW 0x005d4700u
static uint32_t smc = SMC_OLD;

/* The value of (sensor, kind), or NAN when absent. */
static double value_of(const char *sensor, enum gpu_metrics_kind kind) {
  for (size_t i = 0; i < gm.n_values; i++)
    if (gm.values[i].kind == kind && strcmp(gm.values[i].sensor, sensor) == 0)
      return gm.values[i].value;
  return NAN;
}

struct expect {
  const char *sensor;
  enum gpu_metrics_kind kind;
  double value;
};

static void check(unsigned fmt, unsigned content, int first,
                  const struct expect *e, size_t n, size_t n_values) {
  size_t len = gm_build(buf, fmt, content, first);
  assert_true(len > 0);
  assert_int_equal(gpu_metrics_decode(buf, len, smc, &gm), 0);
  assert_int_equal(gm.format_revision, fmt);
  assert_int_equal(gm.content_revision, content);
  assert_int_equal(gm.structure_size, len);
  for (size_t i = 0; i < n; i++) {
    double v = value_of(e[i].sensor, e[i].kind);
    if (isnan(v) || fabs(v - e[i].value) > 1e-9 * fabs(e[i].value))
      fail_msg("%u.%u %s %s: got %.9g, want %.9g", fmt, content, e[i].sensor,
               gpu_metrics_kind_field(e[i].kind), v, e[i].value);
  }
  if (gm.n_values != n_values) {
    for (size_t i = 0; i < gm.n_values; i++)
      fprintf(stderr, "# %s %s %g\n", gm.values[i].sensor,
              gpu_metrics_kind_field(gm.values[i].kind), gm.values[i].value);
    fail_msg("%u.%u: %zu values, want %zu", fmt, content, gm.n_values,
             n_values);
  }
}

#define N(a) (sizeof(a) / sizeof(a[0]))
#define C GPU_METRICS_CELSIUS
#define B GPU_METRICS_BUSY_PERCENT
#define W GPU_METRICS_POWER_WATTS
#define AH GPU_METRICS_AVERAGE_HZ
#define H GPU_METRICS_ACTUAL_HZ

/* v1.0 .. v1.3: degrees, %, W, MHz, RPM */
static const struct expect v1_0[] = {{"edge", C, 45},
                                     {"hotspot", C, 60},
                                     {"mem", C, 70},
                                     {"gfx", B, 35},
                                     {"umc", B, 10},
                                     {"socket", W, 150},
                                     {"gfxclk", AH, 1.8e9},
                                     {"gfxclk", H, 1.9e9},
                                     {"fan", GPU_METRICS_FAN_RPM, 1500}};

static void decode__v1_0(void **state) {
  (void)state;
  check(1, 0, 0, v1_0, N(v1_0), 9);
  assert_true(isnan(value_of("mm", B))); /* 0xFFFF: not filled */
  assert_true(gm.have_energy);
  assert_int_equal(gm.energy_raw, 1000);
  assert_int_equal(gm.energy_bits, 32);
  assert_true(gm.energy_unit_joules == 0); /* no unit stated */
  assert_true(gm.have_throttle);
  assert_int_equal(gm.throttle_status, 4);
  assert_false(gm.have_indep_throttle);
}

static void decode__v1_1_and_v1_2(void **state) {
  (void)state;
  for (unsigned c = 1; c <= 2; c++) {
    check(1, c, 0, v1_0, N(v1_0), 10);
    assert_true(value_of("hbm0", C) == 80);
    assert_true(isnan(value_of("hbm1", C)));
    assert_int_equal(gm.energy_bits, 64);
    assert_int_equal(gm.energy_raw, 1000);
    assert_int_equal(gm.throttle_status, 0);
    assert_false(gm.have_indep_throttle);
  }
}

static void decode__v1_3(void **state) {
  (void)state;
  check(1, 3, 0, v1_0, N(v1_0), 11);
  assert_true(value_of("gfx", GPU_METRICS_VOLTS) == 0.9);
  assert_true(gm.have_indep_throttle);
  assert_true(gm.indep_throttle_status == UINT64_C(1) << 35);
  assert_true(gm.indep_throttle_status & GPU_METRICS_THROTTLE_THERMAL);
  assert_int_equal(gm.throttle_status, 0x10);
}

/* v1.4 .. v1.8: Celsius, W (current), %, MHz per instance, 2^-16 J */
static const struct expect v1_4[] = {{"hotspot", C, 70},
                                     {"socket", GPU_METRICS_CURRENT_WATTS, 550},
                                     {"gfx", B, 80},
                                     {"gfxclk0", H, 2.1e9},
                                     {"uclk", H, 1.3e9}};

static void decode__v1_4(void **state) {
  (void)state;
  check(1, 4, 0, v1_4, N(v1_4), 10);
  assert_true(value_of("mem", C) == 65);
  assert_true(value_of("vrsoc", C) == 50);
  assert_true(value_of("umc", B) == 20);
  assert_true(value_of("vcn0", B) == 5);
  assert_true(isnan(value_of("vcn1", B)));
  assert_true(value_of("gfxclk1", H) == 2.0e9);
  assert_true(gm.energy_raw * gm.energy_unit_joules == 1000.0);
  assert_int_equal(gm.energy_bits, 64);
  assert_true(gm.have_throttle);
}

static void decode__v1_5_and_first_v1_6(void **state) {
  (void)state;
  check(1, 5, 0, v1_4, N(v1_4), 7);
  assert_true(value_of("jpeg0", B) == 7);
  assert_true(gm.energy_raw * gm.energy_unit_joules == 1000.0);
  check(1, 6, 1, v1_4, N(v1_4), 5);
  assert_int_equal(gm.structure_size, 384);
  assert_true(gm.have_throttle);
  assert_true(gm.energy_raw * gm.energy_unit_joules == 1000.0);
}

static void decode__v1_6_to_v1_8_partitions(void **state) {
  (void)state;
  for (unsigned c = 6; c <= 8; c++) {
    check(1, c, 0, v1_4, N(v1_4), 5);
    assert_true(gm.energy_raw * gm.energy_unit_joules == 1000.0);
    assert_false(gm.have_throttle); /* no throttle_status in these */
  }
}

/* v2.x: centi-Celsius, centi-percent, mW */
static const struct expect v2_0[] = {
    {"gfx", C, 45.5},      {"soc", C, 50},       {"core0", C, 60},
    {"gfx", B, 25},        {"socket", W, 15},    {"gfx", W, 5},
    {"gfxclk", AH, 1.2e9}, {"gfxclk", H, 1.3e9}, {"core0", H, 4e9}};
static const struct expect v2_1[] = {
    {"l3_0", C, 55}, {"core0", W, 1}, {"l3_0", H, 3e9}};

static void decode__v2_0(void **state) {
  (void)state;
  check(2, 0, 0, v2_0, N(v2_0), 9);
  assert_true(gm.have_throttle);
  assert_false(gm.have_energy);
}

static void decode__v2_1_to_v2_4(void **state) {
  (void)state;
  size_t n[] = {12, 12, 13, 14};
  for (unsigned c = 1; c <= 4; c++) {
    check(2, c, 0, v2_0, N(v2_0), n[c - 1]);
    check(2, c, 0, v2_1, N(v2_1), n[c - 1]);
    assert_int_equal(gm.have_indep_throttle, c >= 2);
  }
  assert_true(gm.indep_throttle_status == 16); /* SPL: power */
  assert_true(gm.indep_throttle_status & GPU_METRICS_THROTTLE_POWER);
  assert_true(value_of("gfx", GPU_METRICS_AVERAGE_CELSIUS) == 44);
  assert_true(value_of("gfx", GPU_METRICS_VOLTS) == 0.75);
}

static const struct expect v3_0[] = {
    {"gfx", C, 52},
    {"skin", C, 35},
    {"gfx", B, 42},
    {"ipu0", B, 37},  /* percent as it is, not / 100 */
    {"core0", B, 88}, /* C0 residency: percent as it is */
    {"socket", W, 25},
    {"apu", W, 20},
    {"core0", W, 1.5},
    {"socket", GPU_METRICS_POWER_CAP_WATTS, 30},
    {"gfxclk", AH, 2e9},
    {"core0", H, 4.5e9},
    {"gfxclk", GPU_METRICS_MAX_HZ, 2.9e9}};

static void decode__v3_0(void **state) {
  (void)state;
  smc = SMC_OLD; /* up to 0x5d4600: GfxActivity in centi-percent */
  check(3, 0, 0, v3_0, N(v3_0), 12);
  assert_false(gm.smc_version_needed);
  assert_false(gm.have_throttle);
  assert_false(gm.have_energy);
}

/* Newer SMC firmware reports GfxActivity in percent: 42 is 42 %, where the
 * old scale read 0.42; without a version the gfx busy is left out, said. */
static void decode__v3_0_gfx_busy_follows_the_smc_version(void **state) {
  (void)state;
  size_t len = gm_build(buf, 3, 0, 0);
  gm_put(buf, 42, 2, 42);
  smc = SMC_NEW;
  assert_int_equal(gpu_metrics_decode(buf, len, smc, &gm), 0);
  assert_true(value_of("gfx", B) == 42);
  assert_true(value_of("ipu0", B) == 37);
  assert_int_equal(gm.n_values, 12);
  smc = SMC_OLD;
  assert_int_equal(gpu_metrics_decode(buf, len, smc, &gm), 0);
  assert_true(value_of("gfx", B) == 0.42);
  smc = GPU_METRICS_SMC_UNKNOWN;
  assert_int_equal(gpu_metrics_decode(buf, len, smc, &gm), 0);
  assert_true(isnan(value_of("gfx", B)));
  assert_true(gm.smc_version_needed);
  assert_true(value_of("gfx", C) == 52);  /* the rest stays */
  assert_true(isnan(value_of("vcn", B))); /* not filled */
  assert_int_equal(gm.n_values, 11);
  /* the version matters to v3.0 only */
  len = gm_build(buf, 2, 4, 0);
  assert_int_equal(gpu_metrics_decode(buf, len, smc, &gm), 0);
  assert_false(gm.smc_version_needed);
  assert_true(value_of("gfx", B) == 25);
  smc = SMC_OLD;
}

/* v1.9: the kernel's packed attribute struct of smu_v13_0_6, decoded to
 * the same sensors and fields as v1.4 .. v1.8 give. */
static void decode__v1_9(void **state) {
  (void)state;
  size_t len = gm_build(buf, 1, 9, 0);
  assert_true(len > 1000 && len < GM_BUILD_MAX);
  smc = GPU_METRICS_SMC_UNKNOWN; /* not needed here */
  check(1, 9, 0, v1_4, N(v1_4), 12);
  assert_true(value_of("mem", C) == 65);
  assert_true(value_of("vrsoc", C) == 50);
  assert_true(value_of("umc", B) == 20);
  assert_true(value_of("gfxclk1", H) == 2.0e9);
  assert_true(isnan(value_of("gfxclk2", H))); /* all ones: not filled */
  assert_true(value_of("gfx0", B) == 81);     /* XCC 0 */
  assert_true(value_of("vcn0", B) == 5);
  assert_true(value_of("jpeg0", B) == 7);
  assert_true(isnan(value_of("jpeg39", B)));
  assert_true(gm.have_energy);
  assert_int_equal(gm.energy_bits, 64);
  assert_true(gm.energy_raw * gm.energy_unit_joules == 1000.0);
  assert_false(gm.have_throttle); /* residencies only, as v1.6 .. v1.8 */
  assert_int_equal(gm.n_skipped, 0);
  assert_false(gm.smc_version_needed);
  smc = SMC_OLD;
}

/* A list of attributes that are not in this order, of other types and
 * units, and ids past the ones named: parsed from their own encodings. */
static size_t attrs(uint8_t *b, const uint64_t *enc_and_values, size_t n) {
  /* enc_and_values: an encoding, then inst values (each stored at the
   * encoding's width) */
  static const unsigned w[8] = {1, 1, 2, 2, 4, 4, 8, 8};
  size_t off = 8, i = 0;
  uint32_t count = 0;
  while (i < n) {
    uint64_t enc = enc_and_values[i++];
    gm_put(b, off, 8, enc);
    off += 8;
    for (unsigned k = 0; k < (enc & 0x3FF); k++, off += w[(enc >> 20) & 7])
      gm_put(b, off, w[(enc >> 20) & 7], enc_and_values[i++]);
    count++;
  }
  gm_put(b, 0, 2, off);
  b[2] = 1;
  b[3] = 9;
  gm_put(b, 4, 4, count);
  return off;
}

static void decode__v1_9_self_describing(void **state) {
  (void)state;
  const uint64_t list[] = {
      /* uclk as a u32 scalar, before the temperatures */
      gm_build_enc(1, 4, 37, 1), 1600,
      /* hotspot as an S16 below zero, mem as a u8 */
      gm_build_enc(2, 3, 0, 1), (uint16_t)-5, gm_build_enc(2, 0, 1, 1), 40,
      /* TEMPERATURE_HBM, 2 stacks, one not filled */
      gm_build_enc(2, 2, 48, 2), 71, 0xFFFF,
      /* ids past it: by their unit (an S32 temperature, a power, a clock,
       * and a percent that is not reported) */
      gm_build_enc(2, 5, 50, 1), 66, gm_build_enc(3, 6, 90, 1), 12,
      gm_build_enc(1, 2, 91, 3), 100, 200, 300, gm_build_enc(10, 2, 92, 1), 50,
      /* a counter (pcie_replay_count_acc): not reported */
      gm_build_enc(0, 6, 25, 1), 7,
      /* curr_socket_power with the unit of a clock: not guessed */
      gm_build_enc(1, 2, 3, 1), 500,
      /* the gfx busy of an XCC below zero (S16): refused, counted */
      gm_build_enc(10, 3, 40, 1), (uint16_t)-1 - 1,
      /* energy as a u32 */
      gm_build_enc(0, 4, 7, 1), 65536};
  size_t len = attrs(buf, list, N(list));
  smc = GPU_METRICS_SMC_UNKNOWN;
  assert_int_equal(gpu_metrics_decode(buf, len, smc, &gm), 0);
  assert_true(value_of("uclk", H) == 1.6e9);
  assert_true(value_of("hotspot", C) == -5);
  assert_true(value_of("mem", C) == 40);
  assert_true(value_of("hbm0", C) == 71);
  assert_true(isnan(value_of("hbm1", C)));
  assert_true(value_of("id50", C) == 66);
  assert_true(value_of("id90", W) == 12);
  assert_true(value_of("id91_2", H) == 300e6);
  assert_true(isnan(value_of("id92", B)));
  assert_true(isnan(value_of("socket", GPU_METRICS_CURRENT_WATTS)));
  assert_true(isnan(value_of("gfx0", B)));
  assert_int_equal(gm.n_skipped, 2); /* socket's unit, the negative busy */
  assert_int_equal(gm.n_values, 9);
  assert_true(gm.have_energy);
  assert_int_equal(gm.energy_bits, 32);
  assert_true(gm.energy_raw * gm.energy_unit_joules == 1.0);
  smc = SMC_OLD;
}

/* Hostile lists: each refused with its reason, nothing kept, no read
 * outside structure_size. */
static void decode__v1_9_hostile(void **state) {
  (void)state;
  size_t len = gm_build(buf, 1, 9, 0);
  /* structure_size past the read; one past the list's end */
  assert_int_equal(gpu_metrics_decode(buf, len - 1, smc, &gm), -EINVAL);
  assert_string_equal(gm.error, "shorter than its structure_size");
  gm_put(buf, 0, 2, len + 2);
  assert_int_equal(gpu_metrics_decode(buf, len + 2, smc, &gm), -EINVAL);
  assert_string_equal(gm.error, "1.9: bytes after the last attribute");
  /* a 48th attribute whose encoding has 7 of its 8 bytes */
  gm_put(buf, 0, 2, len + 7);
  gm_put(buf, 4, 4, 48);
  assert_int_equal(gpu_metrics_decode(buf, len + 7, smc, &gm), -EINVAL);
  assert_string_equal(gm.error, "1.9: an attribute's encoding is cut");
  gm_put(buf, 0, 2, len);
  /* attr_count negative, larger than the bytes, one short */
  gm_put(buf, 4, 4, UINT32_MAX);
  assert_int_equal(gpu_metrics_decode(buf, len, smc, &gm), -EINVAL);
  assert_string_equal(gm.error,
                      "1.9: attr_count exceeds what structure_size holds");
  assert_int_equal(gm.n_values, 0);
  gm_put(buf, 4, 4, 46);
  assert_int_equal(gpu_metrics_decode(buf, len, smc, &gm), -EINVAL);
  assert_string_equal(gm.error, "1.9: bytes after the last attribute");
  gm_put(buf, 4, 4, 47);
  assert_int_equal(gpu_metrics_decode(buf, len, smc, &gm), 0);
  /* a type past S64, no instance, an id twice, values past the end */
  uint64_t first = gm_build_enc(2, 2, 0, 1);
  gm_put(buf, 8, 8, first | UINT64_C(8) << 20);
  assert_int_equal(gpu_metrics_decode(buf, len, smc, &gm), -EINVAL);
  assert_string_equal(gm.error, "1.9: an attribute of an unknown value type");
  gm_put(buf, 8, 8, first & ~UINT64_C(0x3FF));
  assert_int_equal(gpu_metrics_decode(buf, len, smc, &gm), -EINVAL);
  assert_string_equal(gm.error, "1.9: an attribute with no value");
  gm_put(buf, 8, 8, gm_build_enc(2, 2, 1, 1)); /* mem, as the next one */
  assert_int_equal(gpu_metrics_decode(buf, len, smc, &gm), -EINVAL);
  assert_string_equal(gm.error, "1.9: an attribute id comes twice");
  gm_put(buf, 8, 8, gm_build_enc(2, 2, 0, 1023));
  assert_int_equal(gpu_metrics_decode(buf, len, smc, &gm), -EINVAL);
  assert_string_equal(gm.error, "1.9: an attribute's values are cut");
  assert_int_equal(gm.n_values, 0);
  assert_false(gm.have_energy);
  /* a header alone, and room for the count only */
  gm_put(buf, 0, 2, 4);
  assert_int_equal(gpu_metrics_decode(buf, 4, smc, &gm), -EINVAL);
  assert_string_equal(gm.error, "1.9: no room for attr_count");
  gm_put(buf, 0, 2, 8);
  gm_put(buf, 4, 4, 0);
  assert_int_equal(gpu_metrics_decode(buf, 8, smc, &gm), 0);
  assert_int_equal(gm.n_values, 0);
}

/* More values than the array holds (a list of 1023-instance clocks):
 * the first GPU_METRICS_MAX_VALUES kept, the rest counted. */
static void decode__v1_9_more_values_than_room(void **state) {
  (void)state;
  static uint8_t big[16384];
  size_t off = 8;
  gm_put(big, off, 8, gm_build_enc(1, 2, 33, 1023));
  off += 8;
  for (unsigned i = 0; i < 1023; i++, off += 2)
    gm_put(big, off, 2, 1000 + i);
  gm_put(big, 0, 2, off);
  big[2] = 1;
  big[3] = 9;
  gm_put(big, 4, 4, 1);
  assert_int_equal(gpu_metrics_decode(big, off, smc, &gm), 0);
  assert_int_equal(gm.n_values, GPU_METRICS_MAX_VALUES);
  assert_int_equal(gm.n_skipped, 1023 - GPU_METRICS_MAX_VALUES);
  assert_true(value_of("gfxclk191", H) == 1191e6);
}

static void decode__short_and_cut(void **state) {
  (void)state;
  assert_int_equal(gpu_metrics_decode(buf, 0, smc, &gm), -EINVAL);
  size_t len = gm_build(buf, 1, 3, 0);
  assert_int_equal(gpu_metrics_decode(buf, 3, smc, &gm), -EINVAL);
  /* a header alone, and the table one byte short */
  assert_int_equal(gpu_metrics_decode(buf, 4, smc, &gm), -EINVAL);
  assert_int_equal(gpu_metrics_decode(buf, len - 1, smc, &gm), -EINVAL);
  assert_int_equal(gm.n_values, 0);
  /* longer than the table (a full page): the table's bytes are read */
  memset(buf + len, 0, 4096 - len);
  assert_int_equal(gpu_metrics_decode(buf, 4096, smc, &gm), 0);
  assert_int_equal(gm.n_values, 11);
}

static void decode__structure_size_must_match(void **state) {
  (void)state;
  size_t len = gm_build(buf, 1, 3, 0);
  gm_put(buf, 0, 2, 112); /* v1.3 is 120 bytes */
  assert_int_equal(gpu_metrics_decode(buf, len, smc, &gm), -EINVAL);
  gm_put(buf, 0, 2, 128);
  assert_int_equal(gpu_metrics_decode(buf, len + 8, smc, &gm), -EINVAL);
  /* v1.8 with a smaller partition element (an earlier xcp_metrics_v1_2):
   * the fields before xcp_stats are what is read */
  len = gm_build(buf, 1, 8, 0);
  gm_put(buf, 0, 2, 3360);
  assert_int_equal(gpu_metrics_decode(buf, 3360, smc, &gm), 0);
  assert_true(gm.energy_raw * gm.energy_unit_joules == 1000.0);
  gm_put(buf, 0, 2, 300); /* cuts into the fields read */
  assert_int_equal(gpu_metrics_decode(buf, len, smc, &gm), -EINVAL);
  /* v1.6 of neither size */
  len = gm_build(buf, 1, 6, 1);
  gm_put(buf, 0, 2, 392);
  assert_int_equal(gpu_metrics_decode(buf, 392, smc, &gm), -EINVAL);
}

static void decode__unknown_revision(void **state) {
  (void)state;
  size_t len = gm_build(buf, 1, 8, 0);
  buf[3] = 10; /* v1.10: none yet */
  assert_int_equal(gpu_metrics_decode(buf, len, smc, &gm), -ENOTSUP);
  assert_int_equal(gm.format_revision, 1);
  assert_int_equal(gm.content_revision, 10);
  assert_int_equal(gm.n_values, 0);
  buf[2] = 4;
  buf[3] = 0;
  assert_int_equal(gpu_metrics_decode(buf, len, smc, &gm), -ENOTSUP);
  assert_int_equal(gm.format_revision, 4);
}

static void decode__nothing_filled(void **state) {
  (void)state;
  static const unsigned revs[][3] = {{1, 0, 0}, {1, 3, 0}, {1, 6, 1}, {1, 8, 0},
                                     {2, 4, 0}, {3, 0, 0}, {1, 9, 0}};
  for (size_t i = 0; i < N(revs); i++) {
    size_t len = gm_build(buf, revs[i][0], revs[i][1], (int)revs[i][2]);
    if (revs[i][1] == 9) /* v1.9: every value, not the encodings */
      for (unsigned id = 0; id < 48; id++)
        for (unsigned k = 0, w = 0;; k++) {
          size_t at = gm_build_attr(buf, id, k, &w);
          if (at == 0)
            break;
          memset(buf + at, 0xFF, w);
        }
    else
      memset(buf + 4, 0xFF, len - 4);
    assert_int_equal(gpu_metrics_decode(buf, len, smc, &gm), 0);
    assert_int_equal(gm.n_values, 0);
    assert_false(gm.have_energy);
    assert_false(gm.have_throttle);
    assert_false(gm.have_indep_throttle);
  }
}

static void kind__field_and_ctype(void **state) {
  (void)state;
  assert_string_equal(gpu_metrics_kind_field(GPU_METRICS_CELSIUS), "celsius");
  assert_string_equal(gpu_metrics_kind_ctype(GPU_METRICS_CELSIUS),
                      "gpu_celsius");
  assert_string_equal(gpu_metrics_kind_field(GPU_METRICS_BUSY_PERCENT),
                      "busy_percent");
  assert_string_equal(gpu_metrics_kind_ctype(GPU_METRICS_BUSY_PERCENT),
                      "percent");
  assert_string_equal(gpu_metrics_kind_field(GPU_METRICS_CURRENT_WATTS),
                      "current_power_watts");
  for (int k = 0; k < GPU_METRICS_KIND_COUNT; k++) {
    assert_true(gpu_metrics_kind_field((enum gpu_metrics_kind)k)[0] != '\0');
    assert_true(gpu_metrics_kind_ctype((enum gpu_metrics_kind)k)[0] != '\0');
  }
  assert_string_equal(gpu_metrics_kind_field(GPU_METRICS_KIND_COUNT), "");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(decode__v1_0),
      cmocka_unit_test(decode__v1_1_and_v1_2),
      cmocka_unit_test(decode__v1_3),
      cmocka_unit_test(decode__v1_4),
      cmocka_unit_test(decode__v1_5_and_first_v1_6),
      cmocka_unit_test(decode__v1_6_to_v1_8_partitions),
      cmocka_unit_test(decode__v2_0),
      cmocka_unit_test(decode__v2_1_to_v2_4),
      cmocka_unit_test(decode__v3_0),
      cmocka_unit_test(decode__v3_0_gfx_busy_follows_the_smc_version),
      cmocka_unit_test(decode__v1_9),
      cmocka_unit_test(decode__v1_9_self_describing),
      cmocka_unit_test(decode__v1_9_hostile),
      cmocka_unit_test(decode__v1_9_more_values_than_room),
      cmocka_unit_test(decode__short_and_cut),
      cmocka_unit_test(decode__structure_size_must_match),
      cmocka_unit_test(decode__unknown_revision),
      cmocka_unit_test(decode__nothing_filled),
      cmocka_unit_test(kind__field_and_ctype),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
