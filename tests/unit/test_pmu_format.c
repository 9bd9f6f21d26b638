/*
 * test_pmu_format.c: sysfs format grammar and perf's encoding
 * (tools/perf/util/pmu.c, pmu_format_value), with the usage examples of
 * Documentation/admin-guide/perf/nvidia-tegra410-pmu.rst (values checked
 * by hand).
 */
#include "common/pmu/pmu_format.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

static struct pmu_format fmt(const char *text) {
  struct pmu_format f;
  assert_int_equal(pmu_format_parse(text, strlen(text), &f), 0);
  return f;
}

static void pmu_format_parse__grammar(void **state) {
  (void)state;
  static const struct {
    const char *text;
    int rc;
    unsigned word;
    uint64_t mask;
  } cases[] = {
      {"config:0-7\n", 0, 0, 0xff},
      {"config1:1,6-10,44", 0, 1, 0x1000000007c2ull},
      {"config2:0-63", 0, 2, UINT64_MAX},
      {"config3:5", 0, 3, 0x20},
      {"config:0-32", 0, 0, 0x1ffffffffull},
      /* perf_event_attr's words end at config4 (PERF_ATTR_SIZE_VER9) */
      {"config4:0-7", 0, 4, 0xff},
      {"config5:0", -ERANGE, 0, 0},
      {"config9:0", -ERANGE, 0, 0},
      {"config10:0", -EINVAL, 0, 0},
      {"config:7-3", -EINVAL, 0, 0},
      {"config:64", -EINVAL, 0, 0},
      {"config:", -EINVAL, 0, 0},
      {"config:1,", -EINVAL, 0, 0},
      {"cfg:1", -EINVAL, 0, 0},
      {"config:0-1x", -EINVAL, 0, 0},
      {"config:0001", -EINVAL, 0, 0},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    struct pmu_format f = {9, 9};
    int rc = pmu_format_parse(cases[i].text, strlen(cases[i].text), &f);
    if (rc != cases[i].rc ||
        (rc == 0 && (f.word != cases[i].word || f.mask != cases[i].mask)))
      fail_msg("\"%s\": rc %d word %u mask %#llx", cases[i].text, rc, f.word,
               (unsigned long long)f.mask);
  }
}

static void pmu_format_encode__scatter(void **state) {
  (void)state;
  uint64_t c[PMU_CONFIG_WORDS] = {0};
  struct pmu_format f = fmt("config:0-7,32-35");
  assert_int_equal(pmu_format_encode(&f, 0x123, c), 0);
  assert_int_equal(c[0], 0x0000000100000023ull);
  assert_int_equal(pmu_format_encode(&f, 0x1000, c), -ERANGE);
  assert_int_equal(pmu_format_max(&f), 0xfff);
  assert_int_equal(pmu_format_width(&f), 12);
}

/* The kernel documentation's examples, term by term as the engine
 * applies them. */
static void pmu_format_encode__tegra410_examples(void **state) {
  (void)state;
  /* UCF event=0x113,src_loc_cpu=1,dst_loc_cmem=1 */
  uint64_t c[PMU_CONFIG_WORDS] = {0};
  struct pmu_format event = fmt("config:0-32");
  assert_int_equal(pmu_format_encode(&event, 0x113, c), 0);
  struct pmu_format src_loc_cpu = fmt("config1:1");
  assert_int_equal(pmu_format_encode(&src_loc_cpu, 1, c), 0);
  struct pmu_format dst_loc_cmem = fmt("config1:8");
  assert_int_equal(pmu_format_encode(&dst_loc_cmem, 1, c), 0);
  assert_int_equal(c[0], 0x113);
  assert_int_equal(c[1], 0x102);
  /* UCF cycles is bit 32: needs the 33-bit event field */
  memset(c, 0, sizeof(c));
  assert_int_equal(pmu_format_encode(&event, 0x100000000ull, c), 0);
  assert_int_equal(c[0], 0x100000000ull);
  /* PCIE src_bdf=0x0108,src_bdf_en=1 */
  memset(c, 0, sizeof(c));
  struct pmu_format bdf = fmt("config1:8-23"), bdf_en = fmt("config1:24");
  assert_int_equal(pmu_format_encode(&bdf, 0x0108, c), 0);
  assert_int_equal(pmu_format_encode(&bdf_en, 1, c), 0);
  assert_int_equal(c[1], 0x01010800);
  assert_int_equal(pmu_format_encode(&bdf, 0x10000, c), -ERANGE);
  /* PCIE-TGT address filter */
  memset(c, 0, sizeof(c));
  struct pmu_format tgt_event = fmt("config:0-2"), rp = fmt("config:3-10"),
                    addr_en = fmt("config:11"), base = fmt("config1:0-63"),
                    mask = fmt("config2:0-63");
  assert_int_equal(pmu_format_encode(&tgt_event, 0x1, c), 0);
  assert_int_equal(pmu_format_encode(&addr_en, 1, c), 0);
  assert_int_equal(pmu_format_encode(&base, 0x10000, c), 0);
  assert_int_equal(pmu_format_encode(&mask, 0xFFF00, c), 0);
  assert_int_equal(c[0], 0x801);
  assert_int_equal(c[1], 0x10000);
  assert_int_equal(c[2], 0xFFF00);
  /* PCIE-TGT event=0x1,dst_rp_mask=0x3 */
  memset(c, 0, sizeof(c));
  assert_int_equal(pmu_format_encode(&tgt_event, 0x1, c), 0);
  assert_int_equal(pmu_format_encode(&rp, 0x3, c), 0);
  assert_int_equal(c[0], 0x19);
  assert_int_equal(pmu_format_encode(&tgt_event, 0x8, c), -ERANGE);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(pmu_format_parse__grammar),
      cmocka_unit_test(pmu_format_encode__scatter),
      cmocka_unit_test(pmu_format_encode__tegra410_examples),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
