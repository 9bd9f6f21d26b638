/*
 * test_pp_gpu.c: GPU_INFO to product name (the kernel's table with its
 * core-count and ray-tracing rules), sparse core masks, L2 slices, bytes
 * per beat, prefixes of every length.
 */
#include "common/panthor/pp_gpu.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

/* GPU_INFO bytes at drm_panthor_gpu_info's offsets. */
static void info(uint8_t out[112], unsigned arch, unsigned prod,
                 uint64_t shader_present, bool rt) {
  memset(out, 0, 112);
  uint32_t id = (uint32_t)arch << 28 | (uint32_t)prod << 16 | 0x1011;
  memcpy(out + 0, &id, 4);
  uint32_t l2 = 7u << 24 | 16u << 16; /* 128-bit bus, 64 KiB slices */
  memcpy(out + 12, &l2, 4);
  uint32_t mem = 1u << 8; /* two slices */
  memcpy(out + 20, &mem, 4);
  memcpy(out + 72, &shader_present, 8);
  uint64_t feat = rt ? 4 : 0;
  memcpy(out + 104, &feat, 8);
}

static const char *name_of(unsigned arch, unsigned prod, unsigned cores,
                           bool rt) {
  static struct pp_gpu g;
  uint8_t raw[112];
  uint64_t mask = cores >= 64 ? ~0ull : (1ull << cores) - 1;
  info(raw, arch, prod, mask, rt);
  assert_int_equal(pp_gpu_decode(raw, sizeof(raw), &g), 0);
  assert_int_equal(g.shader_cores, cores);
  return g.name;
}

static void pp_gpu_decode__product_table(void **state) {
  (void)state;
  static const struct {
    unsigned arch, prod, cores;
    bool rt;
    const char *name;
  } cases[] = {
      {10, 2, 7, false, "Mali-G710"},
      {10, 3, 4, false, "Mali-G510"},
      {10, 4, 1, false, "Mali-G310"},
      {10, 7, 4, false, "Mali-G610"},
      /* 11.2: Immortalis needs > 10 cores and RT; G715 >= 7 */
      {11, 2, 11, true, "Mali-G715-Immortalis"},
      {11, 2, 10, true, "Mali-G715"},
      {11, 2, 12, false, "Mali-G715"},
      {11, 2, 7, false, "Mali-G715"},
      {11, 2, 6, true, "Mali-G615"},
      {11, 3, 12, true, "Mali-G615"},
      /* 12.0: Immortalis >= 10 and RT; G720 >= 6 */
      {12, 0, 10, true, "Mali-G720-Immortalis"},
      {12, 0, 9, true, "Mali-G720"},
      {12, 0, 10, false, "Mali-G720"},
      {12, 0, 6, false, "Mali-G720"},
      {12, 0, 5, true, "Mali-G620"},
      {12, 1, 10, true, "Mali-G620"},
      {13, 0, 10, true, "Mali-G925-Immortalis"},
      {13, 0, 6, false, "Mali-G725"},
      {13, 0, 5, false, "Mali-G625"},
      {13, 1, 3, false, "Mali-G625"},
      {14, 0, 10, true, "Mali-G1-Ultra"},
      {14, 1, 6, false, "Mali-G1-Premium"},
      {14, 3, 2, false, "Mali-G1-Pro"},
      {14, 2, 2, false, "Mali-0xe002"},
      {9, 2, 2, false, "Mali-0x9002"},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
    assert_string_equal(
        name_of(cases[i].arch, cases[i].prod, cases[i].cores, cases[i].rt),
        cases[i].name);
}

static void pp_gpu_decode__fields_and_family(void **state) {
  (void)state;
  uint8_t raw[112];
  /* gs201's Mali-G710: a sparse mask of 7 cores */
  info(raw, 10, 2, 0x1110055, false);
  struct pp_gpu g;
  assert_int_equal(pp_gpu_decode(raw, sizeof(raw), &g), 0);
  assert_string_equal(g.name, "Mali-G710");
  assert_int_equal(g.shader_cores, 7);
  assert_int_equal(g.arch_major, 10);
  assert_int_equal(g.product_major, 2);
  assert_int_equal(g.version_major, 1);
  assert_int_equal(g.version_minor, 1);
  assert_int_equal(g.version_status, 1);
  assert_int_equal(g.l2_slices, 2);
  assert_int_equal(g.bytes_per_beat, 16);
  assert_int_equal(g.family, PP_FAMILY_G710);
  assert_int_equal(g.counters_per_block, 64);
  assert_false(g.ray_tracing);
  info(raw, 13, 0, 0xff00ff, true);
  assert_int_equal(pp_gpu_decode(raw, sizeof(raw), &g), 0);
  assert_int_equal(g.shader_cores, 16);
  assert_true(g.ray_tracing);
  assert_int_equal(g.family, PP_FAMILY_G725);
  assert_int_equal(g.counters_per_block, 128);
  info(raw, 11, 3, 1, false);
  pp_gpu_decode(raw, sizeof(raw), &g);
  assert_int_equal(g.family, PP_FAMILY_G715);
  info(raw, 12, 1, 1, false);
  pp_gpu_decode(raw, sizeof(raw), &g);
  assert_int_equal(g.family, PP_FAMILY_G720);
  info(raw, 14, 0, 1, false);
  pp_gpu_decode(raw, sizeof(raw), &g);
  assert_int_equal(g.family, PP_FAMILY_NONE);
  /* 8 slices, 256-bit bus */
  uint32_t mem = 7u << 8, l2 = 8u << 24;
  memcpy(raw + 20, &mem, 4);
  memcpy(raw + 12, &l2, 4);
  pp_gpu_decode(raw, sizeof(raw), &g);
  assert_int_equal(g.l2_slices, 8);
  assert_int_equal(g.bytes_per_beat, 32);
  l2 = 2u << 24; /* a 4-bit bus is absurd: unknown, not 0.5 */
  memcpy(raw + 12, &l2, 4);
  pp_gpu_decode(raw, sizeof(raw), &g);
  assert_int_equal(g.bytes_per_beat, 0);
  l2 = 13u << 24;
  memcpy(raw + 12, &l2, 4);
  pp_gpu_decode(raw, sizeof(raw), &g);
  assert_int_equal(g.bytes_per_beat, 0);
}

static void pp_gpu_decode__prefixes(void **state) {
  (void)state;
  uint8_t raw[200];
  memset(raw, 0xab, sizeof(raw));
  info(raw, 12, 0, 0x3ff, true);
  struct pp_gpu g;
  /* an old kernel without gpu_features (before 104): no RT known */
  assert_int_equal(pp_gpu_decode(raw, 104, &g), 0);
  assert_int_equal(g.shader_cores, 10);
  assert_false(g.ray_tracing);
  assert_string_equal(g.name, "Mali-G720");
  /* without shader_present: 0 cores */
  assert_int_equal(pp_gpu_decode(raw, 72, &g), 0);
  assert_int_equal(g.shader_cores, 0);
  assert_string_equal(g.name, "Mali-G620");
  /* gpu_id only */
  assert_int_equal(pp_gpu_decode(raw, 4, &g), 0);
  assert_int_equal(g.l2_slices, 1);
  assert_int_equal(g.bytes_per_beat, 0);
  assert_int_equal(g.len, 4);
  /* a newer kernel's longer struct: the known part is used */
  assert_int_equal(pp_gpu_decode(raw, 200, &g), 0);
  assert_string_equal(g.name, "Mali-G720-Immortalis");
  assert_int_equal(g.len, 200);
  assert_int_equal(pp_gpu_decode(raw, 3, &g), -EINVAL);
  assert_int_equal(pp_gpu_decode(raw, 0, &g), -EINVAL);
  assert_int_equal(pp_gpu_decode(NULL, 112, &g), -EINVAL);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(pp_gpu_decode__product_table),
      cmocka_unit_test(pp_gpu_decode__fields_and_family),
      cmocka_unit_test(pp_gpu_decode__prefixes),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
