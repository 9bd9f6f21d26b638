/*
 * test_fdinfo_parse.c: the fdinfo decoder against the captured fixtures
 * (values read off the files by hand) and against every quirk
 * fdinfo_parse.c lists.
 */
#include "common/drm/fdinfo_parse.h"

#include <errno.h>
#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

static char *read_fixture(const char *name, size_t *len) {
  char path[256];
  snprintf(path, sizeof(path), "tests/fixtures/fdinfo/%s", name);
  FILE *f = fopen(path, "rb");
  assert_non_null(f);
  static char buf[65536];
  *len = fread(buf, 1, sizeof(buf), f);
  fclose(f);
  return buf;
}

static struct fdinfo parse_fixture(const char *name) {
  size_t len;
  char *text = read_fixture(name, &len);
  struct fdinfo fi;
  assert_int_equal(fdinfo_parse(text, len, &fi), 0);
  return fi;
}

static struct fdinfo parse_text(const char *text) {
  struct fdinfo fi;
  assert_int_equal(fdinfo_parse(text, strlen(text), &fi), 0);
  return fi;
}

static const struct fdinfo_engine *engine(const struct fdinfo *fi,
                                          const char *name) {
  const struct fdinfo_engine *e = fdinfo_engine_find(fi, name);
  assert_non_null(e);
  return e;
}

static const struct fdinfo_region *region(const struct fdinfo *fi,
                                          const char *name) {
  const struct fdinfo_region *r = fdinfo_region_find(fi, name);
  assert_non_null(r);
  return r;
}

static void fdinfo_parse__amdgpu_fixture(void **state) {
  (void)state;
  struct fdinfo fi = parse_fixture("amdgpu_amdgpu_top-issue87.txt");
  assert_string_equal(fi.driver, "amdgpu");
  assert_string_equal(fi.pdev, "0000:08:00.0");
  assert_true(fi.has_client_id);
  assert_int_equal(fi.client_id, 217);
  assert_int_equal(fi.n_engines, 1);
  assert_int_equal(engine(&fi, "gfx")->busy_ns, 107322799);
  assert_int_equal(engine(&fi, "gfx")->capacity, 1);
  assert_int_equal(fi.n_regions, 3);
  assert_int_equal(region(&fi, "vram")->resident, 2068 * 1024);
  assert_int_equal(region(&fi, "vram")->present, FDINFO_MEM_RESIDENT);
  assert_int_equal(region(&fi, "gtt")->resident, 8192 * 1024);
  assert_int_equal(region(&fi, "cpu")->resident, 0);
  assert_int_equal(fi.malformed, 0);
  assert_int_equal(fi.unknown_keys, 0);
}

static void fdinfo_parse__i915_fixture(void **state) {
  (void)state;
  struct fdinfo fi = parse_fixture("i915_kernel-doc.txt");
  assert_string_equal(fi.driver, "i915");
  assert_string_equal(fi.pdev, "0000:00:02.0");
  assert_int_equal(fi.client_id, 7);
  assert_int_equal(fi.n_engines, 4);
  assert_int_equal(engine(&fi, "render")->busy_ns, 9288864723ull);
  assert_int_equal(engine(&fi, "copy")->busy_ns, 2035071108ull);
  assert_int_equal(engine(&fi, "video")->busy_ns, 0);
  assert_int_equal(engine(&fi, "video")->capacity, 2);
  /* "video-enhance" is its own engine, not an alias of "video" */
  assert_int_equal(engine(&fi, "video-enhance")->capacity, 1);
  assert_int_equal(engine(&fi, "video-enhance")->present, FDINFO_ENGINE_BUSY);
  assert_int_equal(fi.n_regions, 0);
}

static void fdinfo_parse__msm_fixture(void **state) {
  (void)state;
  struct fdinfo fi = parse_fixture("msm_dri-devel-robclark-2022.txt");
  assert_string_equal(fi.driver, "msm");
  assert_string_equal(fi.pdev, "");
  assert_int_equal(fi.client_id, 7);
  const struct fdinfo_engine *gpu = engine(&fi, "gpu");
  assert_int_equal(gpu->busy_ns, 1734371319ull);
  assert_int_equal(gpu->cycles, 1153645024ull);
  assert_int_equal(gpu->maxfreq_hz, 800000000ull);
  assert_int_equal(gpu->present, FDINFO_ENGINE_BUSY | FDINFO_ENGINE_CYCLES |
                                     FDINFO_ENGINE_MAXFREQ);
}

static void fdinfo_parse__panfrost_fixture(void **state) {
  (void)state;
  struct fdinfo fi = parse_fixture("panfrost_kernel-doc.txt");
  assert_string_equal(fi.driver, "panfrost");
  assert_int_equal(fi.client_id, 14);
  assert_int_equal(fi.n_engines, 2);
  assert_int_equal(engine(&fi, "fragment")->busy_ns, 1846584880ull);
  assert_int_equal(engine(&fi, "fragment")->cycles, 1424359409ull);
  assert_int_equal(engine(&fi, "fragment")->maxfreq_hz, 799999987ull);
  assert_int_equal(engine(&fi, "vertex-tiler")->busy_ns, 71932239ull);
  assert_int_equal(engine(&fi, "vertex-tiler")->cycles, 52617357ull);
  const struct fdinfo_region *mem = region(&fi, "memory");
  assert_int_equal(mem->total, 290ull << 20);
  assert_int_equal(mem->shared, 0);
  assert_int_equal(mem->active, 226ull << 20);
  assert_int_equal(mem->resident, 36496ull * 1024);
  assert_int_equal(mem->purgeable, 128ull * 1024);
  assert_int_equal(mem->present, FDINFO_MEM_TOTAL | FDINFO_MEM_SHARED |
                                     FDINFO_MEM_ACTIVE | FDINFO_MEM_RESIDENT |
                                     FDINFO_MEM_PURGEABLE);
}

static void fdinfo_parse__panthor_fixture(void **state) {
  (void)state;
  struct fdinfo fi = parse_fixture("panthor_kernel-doc.txt");
  assert_string_equal(fi.driver, "panthor");
  assert_int_equal(fi.client_id, 10);
  const struct fdinfo_engine *e = engine(&fi, "panthor");
  assert_int_equal(e->busy_ns, 111110952750ull);
  assert_int_equal(e->cycles, 94439687187ull);
  assert_int_equal(e->maxfreq_hz, 1000000000ull);
  const struct fdinfo_region *mem = region(&fi, "memory");
  assert_int_equal(mem->total, 16480ull * 1024);
  assert_int_equal(mem->active, 16200ull * 1024);
  assert_int_equal(mem->resident, 16480ull * 1024);
  assert_int_equal(mem->purgeable, 0);
}

static void fdinfo_parse__v3d_fixture(void **state) {
  (void)state;
  struct fdinfo fi = parse_fixture("v3d_dri-devel-mcanal-2024.txt");
  assert_string_equal(fi.driver, "v3d");
  assert_int_equal(fi.client_id, 81);
  assert_int_equal(fi.n_engines, 6);
  assert_int_equal(engine(&fi, "bin")->busy_ns, 4916187);
  assert_int_equal(engine(&fi, "render")->busy_ns, 154563573);
  assert_int_equal(engine(&fi, "tfu")->busy_ns, 10574);
  assert_int_equal(engine(&fi, "cache_clean")->busy_ns, 0);
  const struct fdinfo_region *mem = region(&fi, "memory");
  assert_int_equal(mem->total, 15168ull * 1024);
  assert_int_equal(mem->shared, 9336ull * 1024);
  assert_int_equal(mem->active, 0);
  assert_int_equal(mem->present,
                   FDINFO_MEM_TOTAL | FDINFO_MEM_SHARED | FDINFO_MEM_ACTIVE);
  /* v3d-jobs-* are driver keys, not unknown drm- keys */
  assert_int_equal(fi.unknown_keys, 0);
}

static void fdinfo_parse__xe_fixture(void **state) {
  (void)state;
  struct fdinfo fi = parse_fixture("xe_kernel-doc.txt");
  assert_string_equal(fi.driver, "xe");
  assert_string_equal(fi.pdev, "0000:03:00.0");
  assert_int_equal(fi.client_id, 3);
  assert_int_equal(fi.n_engines, 5);
  const struct fdinfo_engine *rcs = engine(&fi, "rcs");
  assert_int_equal(rcs->cycles, 28257900);
  assert_int_equal(rcs->total_cycles, 7655183225ull);
  assert_int_equal(rcs->present, FDINFO_ENGINE_CYCLES | FDINFO_ENGINE_TOTAL);
  assert_int_equal(engine(&fi, "vcs")->capacity, 2);
  assert_int_equal(engine(&fi, "vecs")->capacity, 2);
  assert_int_equal(engine(&fi, "ccs")->capacity, 4);
  assert_int_equal(engine(&fi, "bcs")->capacity, 1);
  assert_int_equal(fi.n_regions, 4);
  assert_int_equal(region(&fi, "gtt")->total, 192 * 1024);
  assert_int_equal(region(&fi, "gtt")->resident, 192 * 1024);
  assert_int_equal(region(&fi, "vram0")->total, 23992ull * 1024);
  assert_int_equal(region(&fi, "vram0")->shared, 16ull << 20);
  assert_int_equal(region(&fi, "system")->present,
                   FDINFO_MEM_TOTAL | FDINFO_MEM_SHARED | FDINFO_MEM_ACTIVE |
                       FDINFO_MEM_RESIDENT | FDINFO_MEM_PURGEABLE);
}

static void fdinfo_parse__separators(void **state) {
  (void)state;
  /* no space, space+TAB (amdgpu legacy keys), CRLF, trailing blanks */
  struct fdinfo fi = parse_text("drm-driver:xe\n"
                                "drm-client-id:\t 42\r\n"
                                "drm-memory-gtt: \t8192 KiB  \n"
                                "drm-engine-gfx:5ns\n");
  assert_string_equal(fi.driver, "xe");
  assert_int_equal(fi.client_id, 42);
  assert_int_equal(region(&fi, "gtt")->resident, 8192 * 1024);
  assert_int_equal(engine(&fi, "gfx")->busy_ns, 5);
}

static void fdinfo_parse__units(void **state) {
  (void)state;
  static const struct {
    const char *text;
    enum fdinfo_unit_kind kind;
    int rc;
    uint64_t value;
  } cases[] = {
      {"0", FDINFO_UNIT_BYTES, 0, 0},
      {"1023", FDINFO_UNIT_BYTES, 0, 1023},
      {"2 KiB", FDINFO_UNIT_BYTES, 0, 2048},
      {"2 kB", FDINFO_UNIT_BYTES, 0, 2048},
      {"3 MiB", FDINFO_UNIT_BYTES, 0, 3ull << 20},
      {"4 GiB", FDINFO_UNIT_BYTES, 0, 4ull << 30},
      {"5 TiB", FDINFO_UNIT_BYTES, -EINVAL, 0},
      {"984029405632 ns", FDINFO_UNIT_NS, 0, 984029405632ull},
      {"7 us", FDINFO_UNIT_NS, -EINVAL, 0},
      {"800 MHz", FDINFO_UNIT_HZ, 0, 800000000ull},
      {"5 KHz", FDINFO_UNIT_HZ, 0, 5000},
      {"799999987 Hz", FDINFO_UNIT_HZ, 0, 799999987ull},
      {"18446744073709551615", FDINFO_UNIT_NONE, 0, UINT64_MAX},
      {"18446744073709551616", FDINFO_UNIT_NONE, -EINVAL, 0},
      {"18014398509481984 GiB", FDINFO_UNIT_BYTES, -EINVAL, 0},
      {"-1", FDINFO_UNIT_NONE, -EINVAL, 0},
      {"", FDINFO_UNIT_NONE, -EINVAL, 0},
      {"1,5", FDINFO_UNIT_NONE, -EINVAL, 0},
      {"12abc", FDINFO_UNIT_NONE, -EINVAL, 0},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    uint64_t v = 0;
    int rc = fdinfo_parse_number(cases[i].text, strlen(cases[i].text),
                                 cases[i].kind, &v);
    if (rc != cases[i].rc || (rc == 0 && v != cases[i].value))
      fail_msg("case %zu \"%s\": rc %d value %llu", i, cases[i].text, rc,
               (unsigned long long)v);
  }
}

static void fdinfo_parse__legacy_memory_and_resident(void **state) {
  (void)state;
  /* amdgpu ~6.11 printed both; resident wins, whatever the order */
  struct fdinfo a = parse_text("drm-driver: amdgpu\n"
                               "drm-memory-vram: 100 KiB\n"
                               "drm-resident-vram: 200 KiB\n");
  assert_int_equal(region(&a, "vram")->resident, 200 * 1024);
  struct fdinfo b = parse_text("drm-driver: amdgpu\n"
                               "drm-resident-vram: 200 KiB\n"
                               "drm-memory-vram: 100 KiB\n");
  assert_int_equal(region(&b, "vram")->resident, 200 * 1024);
  assert_int_equal(b.n_regions, 1);
}

static void fdinfo_parse__prefix_order(void **state) {
  (void)state;
  struct fdinfo fi = parse_text("drm-driver: xe\n"
                                "drm-engine-capacity-ccs: 4\n"
                                "drm-total-cycles-ccs: 10\n"
                                "drm-total-stolen-system0: 3\n"
                                "drm-cycles-ccs: 5\n");
  assert_int_equal(fi.n_engines, 1);
  assert_int_equal(engine(&fi, "ccs")->capacity, 4);
  assert_int_equal(engine(&fi, "ccs")->total_cycles, 10);
  assert_int_equal(engine(&fi, "ccs")->cycles, 5);
  assert_int_equal(region(&fi, "stolen-system0")->total, 3);
}

static void fdinfo_parse__unknown_and_driver_keys(void **state) {
  (void)state;
  struct fdinfo fi = parse_text("pos: 0\nflags: 02\n"
                                "drm-driver: panthor\n"
                                "drm-frobnicate: 12\n"
                                "drm-curfreq-panthor: 100 Hz\n"
                                "panthor-resident-memory: 1 KiB\n"
                                "amd-evicted-vram: 0 KiB\n"
                                "no colon here\n"
                                ":\n");
  assert_int_equal(fi.unknown_keys, 1);
  assert_int_equal(fi.n_engines, 0);
  assert_int_equal(fi.n_regions, 0);
}

/* Units the spec does not have and values past 2^64 are malformed (and
 * counted), never read as something else. */
static void fdinfo_parse__bad_units_counted(void **state) {
  (void)state;
  struct fdinfo fi = parse_text("drm-driver: i915\n"
                                "drm-total-a: 1 KIB\n"
                                "drm-total-b: 1 MB\n"
                                "drm-total-c: 1 TiB\n"
                                "drm-engine-d: 5 us\n"
                                "drm-engine-e: 18446744073709551616 ns\n"
                                "drm-total-f: 18014398509481984 KiB\n"
                                "drm-total-ok: 2 KiB\n");
  assert_int_equal(fi.malformed, 6);
  assert_string_equal(fi.first_malformed, "drm-total-a");
  assert_int_equal(fi.n_regions, 1);
  assert_int_equal(fi.regions[0].total, 2048);
  assert_int_equal(fi.n_engines, 0);
}

static void fdinfo_parse__malformed_values(void **state) {
  (void)state;
  struct fdinfo fi = parse_text("drm-driver: i915\n"
                                "drm-client-id: x\n"
                                "drm-engine-render: 12 parsecs\n"
                                "drm-engine-capacity-copy: 0\n"
                                /* no driver prints these: 2^64-1, 2^32-1
                                 * (a u32 -1), one above the cap */
                                "drm-engine-capacity-copy: "
                                "18446744073709551615\n"
                                "drm-engine-capacity-copy: 4294967295\n"
                                "drm-engine-capacity-copy: 1025\n"
                                "drm-engine-: 5 ns\n"
                                "drm-engine-a b: 5 ns\n"
                                "drm-engine-copy: 7 ns\n");
  assert_false(fi.has_client_id);
  assert_int_equal(fi.malformed, 8);
  assert_string_equal(fi.first_malformed, "drm-client-id");
  assert_int_equal(fi.n_engines, 1);
  assert_int_equal(engine(&fi, "copy")->capacity, 1);
  assert_int_equal(engine(&fi, "copy")->present & FDINFO_ENGINE_CAPACITY, 0);
  assert_int_equal(engine(&fi, "copy")->busy_ns, 7);
}

/* drm-engine-capacity-<e> is a count of engines (FDINFO_CAPACITY_MAX):
 * 1024 is kept, 1025 and up are malformed and leave the last good one. */
static void fdinfo_parse__capacity_bounds(void **state) {
  (void)state;
  struct fdinfo fi = parse_text("drm-driver: xe\n"
                                "drm-engine-capacity-ccs: 1024\n"
                                "drm-engine-capacity-vcs: 2\n"
                                "drm-engine-capacity-vcs: 1025\n");
  assert_int_equal(fi.malformed, 1);
  assert_string_equal(fi.first_malformed, "drm-engine-capacity-vcs");
  assert_int_equal(engine(&fi, "ccs")->capacity, 1024);
  assert_int_equal(engine(&fi, "vcs")->capacity, 2);
}

static void fdinfo_parse__not_drm(void **state) {
  (void)state;
  struct fdinfo fi;
  const char *text = "pos: 0\nflags: 02\nmnt_id: 3\n";
  assert_int_equal(fdinfo_parse(text, strlen(text), &fi), -ENOENT);
  assert_int_equal(fdinfo_parse("", 0, &fi), -ENOENT);
  assert_int_equal(fdinfo_parse(NULL, 0, &fi), -EINVAL);
  assert_int_equal(fdinfo_parse("drm-driver:", 11, &fi), -ENOENT);
}

static void fdinfo_parse__truncated(void **state) {
  (void)state;
  const char *text = "drm-driver: i915\ndrm-engine-render: 1234";
  struct fdinfo fi;
  /* cut in the middle of the number: the prefix parses */
  assert_int_equal(fdinfo_parse(text, strlen(text) - 2, &fi), 0);
  assert_int_equal(engine(&fi, "render")->busy_ns, 12);
  /* cut inside the key: the engine is simply absent */
  assert_int_equal(fdinfo_parse(text, 24, &fi), 0);
  assert_int_equal(fi.n_engines, 0);
}

static void fdinfo_parse__duplicates_last_wins(void **state) {
  (void)state;
  struct fdinfo fi = parse_text("drm-driver: i915\n"
                                "drm-engine-render: 5 ns\n"
                                "drm-engine-render: 9 ns\n");
  assert_int_equal(fi.n_engines, 1);
  assert_int_equal(engine(&fi, "render")->busy_ns, 9);
}

static void fdinfo_parse__oversized_and_too_many_names(void **state) {
  (void)state;
  static char text[16384];
  size_t len = (size_t)snprintf(text, sizeof(text), "drm-driver: x\n");
  for (int i = 0; i < 40; i++)
    len += (size_t)snprintf(text + len, sizeof(text) - len,
                            "drm-engine-e%02d: %d ns\n", i, i);
  for (int i = 0; i < 600; i++)
    len += (size_t)snprintf(text + len, sizeof(text) - len, "pad: %d\n", i);
  assert_true(len > 4096);
  struct fdinfo fi;
  assert_int_equal(fdinfo_parse(text, len, &fi), 0);
  assert_int_equal(fi.n_engines, FDINFO_MAX_ENGINES);
  assert_int_equal(fi.dropped_names, 40 - FDINFO_MAX_ENGINES);
  assert_int_equal(engine(&fi, "e15")->busy_ns, 15);
}

static void fdinfo_parse__long_name_not_truncated(void **state) {
  (void)state;
  char text[256];
  snprintf(text, sizeof(text), "drm-driver: x\ndrm-engine-%0*d: 1 ns\n",
           FDINFO_NAME_MAX, 0);
  struct fdinfo fi = parse_text(text);
  assert_int_equal(fi.n_engines, 0);
  assert_int_equal(fi.malformed, 1);
}

static void fdinfo_parse__binary_and_hostile_strings(void **state) {
  (void)state;
  static const char text[] = "drm-driver: evil\x01\xff\n"
                             "drm-client-name: a\"b\\c\n"
                             "drm-engine-re\x00nder: 1 ns\n";
  struct fdinfo fi;
  assert_int_equal(fdinfo_parse(text, sizeof(text) - 1, &fi), 0);
  assert_string_equal(fi.driver, "evil??");
  assert_string_equal(fi.client_name, "a\"b\\c");
  assert_int_equal(fi.n_engines, 0);
  assert_int_equal(fi.malformed, 1);
}

static void fdinfo_parse__comma_locale(void **state) {
  (void)state;
  /* The decoder never consults the locale. */
  setlocale(LC_ALL, "de_DE.UTF-8");
  struct fdinfo fi = parse_text("drm-driver: msm\ndrm-maxfreq-gpu: 1 MHz\n");
  assert_int_equal(engine(&fi, "gpu")->maxfreq_hz, 1000000);
  setlocale(LC_ALL, "C");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(fdinfo_parse__amdgpu_fixture),
      cmocka_unit_test(fdinfo_parse__i915_fixture),
      cmocka_unit_test(fdinfo_parse__msm_fixture),
      cmocka_unit_test(fdinfo_parse__panfrost_fixture),
      cmocka_unit_test(fdinfo_parse__panthor_fixture),
      cmocka_unit_test(fdinfo_parse__v3d_fixture),
      cmocka_unit_test(fdinfo_parse__xe_fixture),
      cmocka_unit_test(fdinfo_parse__separators),
      cmocka_unit_test(fdinfo_parse__units),
      cmocka_unit_test(fdinfo_parse__legacy_memory_and_resident),
      cmocka_unit_test(fdinfo_parse__prefix_order),
      cmocka_unit_test(fdinfo_parse__unknown_and_driver_keys),
      cmocka_unit_test(fdinfo_parse__malformed_values),
      cmocka_unit_test(fdinfo_parse__bad_units_counted),
      cmocka_unit_test(fdinfo_parse__not_drm),
      cmocka_unit_test(fdinfo_parse__truncated),
      cmocka_unit_test(fdinfo_parse__duplicates_last_wins),
      cmocka_unit_test(fdinfo_parse__oversized_and_too_many_names),
      cmocka_unit_test(fdinfo_parse__long_name_not_truncated),
      cmocka_unit_test(fdinfo_parse__binary_and_hostile_strings),
      cmocka_unit_test(fdinfo_parse__comma_locale),
      cmocka_unit_test(fdinfo_parse__capacity_bounds),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
