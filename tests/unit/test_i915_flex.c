/* Flex (EU_PERF_CNTL) configs: selectors, the uuid (unlike pti-gpu's,
 * 0x005 and 0x105 differ), ADD/REMOVE_CONFIG through the shim. */
#include "common/i915/i915_flex.h"
#include "tests/shim/shim.h"
#include "tests/shim/shim_i915.h"

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#define DEV "/shim-test/dri/renderD128"

static void selector__packs_the_fields(void **state) {
  (void)state;
  assert_int_equal(i915_flex_selector(5, 0, 0), 0x005);
  assert_int_equal(i915_flex_selector(4, 5, 7), 0x754);
  assert_int_equal(i915_flex_selector(16, 0, 0), -EINVAL);
  assert_int_equal(i915_flex_selector(0, 16, 0), -EINVAL);
  assert_int_equal(i915_flex_selector(0, 0, 16), -EINVAL);
  assert_int_equal(i915_flex_counter(0), 7);
  assert_int_equal(i915_flex_counter(13), 20);
  assert_true(i915_flex_addr_valid(0xE65C));
  assert_false(i915_flex_addr_valid(0xE660));
  assert_int_equal(i915_flex_addr[4], 0xE45C);
}

static void build__halves_raw_and_limits(void **state) {
  (void)state;
  /* eu_active (4), eu_stall (5), a raw register, then one more */
  const struct i915_flex_event ev[] = {
      {0, 0x004}, {0, 0x005}, {0, 0x754}, {1, 0x00010003}, {0, 0x008}};
  uint32_t pairs[2 * I915_FLEX_REGS];
  size_t n = 0;
  unsigned counter[5];
  assert_int_equal(i915_flex_build(ev, 5, pairs, &n, counter), 0);
  assert_int_equal(n, 4);
  const uint32_t want[] = {0xE458, 0x005004,   0xE558, 0x754,
                           0xE658, 0x00010003, 0xE758, 0x008};
  assert_memory_equal(pairs, want, sizeof want);
  const unsigned want_a[] = {7, 8, 9, 11, 13};
  assert_memory_equal(counter, want_a, sizeof want_a);
  /* 14 selectors fill all seven registers; a 15th does not fit */
  struct i915_flex_event many[15];
  for (size_t i = 0; i < 15; i++)
    many[i] = (struct i915_flex_event){0, (uint32_t)i};
  unsigned c15[15];
  assert_int_equal(i915_flex_build(many, 14, pairs, &n, c15), 0);
  assert_int_equal(n, 7);
  assert_int_equal(pairs[12], 0xE65C);
  assert_int_equal(pairs[13], 12u | 13u << 12);
  assert_int_equal(c15[13], 20);
  n = 99;
  assert_int_equal(i915_flex_build(many, 15, pairs, &n, c15), -E2BIG);
  const struct i915_flex_event late_raw[] = {
      {0, 1}, {0, 2}, {0, 3},  {0, 4},  {0, 5},  {0, 6},  {0, 7},
      {0, 8}, {0, 9}, {0, 10}, {0, 11}, {0, 12}, {0, 13}, {1, 5}};
  assert_int_equal(i915_flex_build(late_raw, 14, pairs, &n, c15), -E2BIG);
  const struct i915_flex_event wide[] = {{0, 0x1000}};
  assert_int_equal(i915_flex_build(wide, 1, pairs, &n, c15), -EINVAL);
  assert_int_equal(n, 99);
  assert_int_equal(i915_flex_build(ev, 0, pairs, &n, c15), 0);
  assert_int_equal(n, 0);
}

/* pti-gpu's GetGuid input: each 32-bit word appended as one char. */
static void pti_gpu_string(const uint32_t *w, size_t n, char *out) {
  for (size_t i = 0; i < n; i++)
    out[i] = (char)w[i];
}

static void uuid__differs_where_pti_gpu_collides(void **state) {
  (void)state;
  const uint32_t a[] = {0xE458, 0x005}, b[] = {0xE458, 0x105};
  char sa[2], sb[2];
  pti_gpu_string(a, 2, sa);
  pti_gpu_string(b, 2, sb);
  assert_memory_equal(sa, sb, 2); /* pti-gpu hashes the same string */
  char ua[I915_FLEX_UUID_SIZE], ub[I915_FLEX_UUID_SIZE];
  i915_flex_uuid(a, 1, ua);
  i915_flex_uuid(b, 1, ub);
  assert_string_not_equal(ua, ub);
  assert_true(i915_flex_uuid_valid(ua));
  assert_true(i915_flex_uuid_valid(ub));
  /* stable: the value is fixed (FNV-1a 64 over the little-endian bytes) */
  char again[I915_FLEX_UUID_SIZE];
  i915_flex_uuid(a, 1, again);
  assert_string_equal(ua, again);
  /* the address matters too, and so does the order of the pairs */
  const uint32_t c[] = {0xE558, 0x005};
  const uint32_t two[] = {0xE458, 1, 0xE558, 2},
                 swapped[] = {0xE558, 2, 0xE458, 1};
  char uc[I915_FLEX_UUID_SIZE], u2[I915_FLEX_UUID_SIZE],
      us[I915_FLEX_UUID_SIZE];
  i915_flex_uuid(c, 1, uc);
  i915_flex_uuid(two, 2, u2);
  i915_flex_uuid(swapped, 2, us);
  assert_string_not_equal(ua, uc);
  assert_string_not_equal(u2, us);
}

static void uuid__known_value(void **state) {
  (void)state;
  /* FNV-1a 64 of the bytes 58 e4 00 00 05 00 00 00, computed apart */
  uint64_t h = 0xcbf29ce484222325ull;
  const uint8_t bytes[] = {0x58, 0xe4, 0, 0, 5, 0, 0, 0};
  for (size_t i = 0; i < sizeof bytes; i++)
    h = (h ^ bytes[i]) * 0x100000001b3ull;
  const uint32_t a[] = {0xE458, 0x005};
  char u[I915_FLEX_UUID_SIZE], head[20];
  i915_flex_uuid(a, 1, u);
  snprintf(head, sizeof head, "%08x-%04x-%04x-", (unsigned)(h >> 32),
           (unsigned)(h >> 16) & 0xFFFF, (unsigned)h & 0xFFFF);
  assert_memory_equal(u, head, 19);
  assert_int_equal(strlen(u), 36);
}

static void uuid_valid__syntax(void **state) {
  (void)state;
  assert_true(i915_flex_uuid_valid("01234567-89ab-cdef-0123-456789ABCDEF"));
  assert_false(i915_flex_uuid_valid("01234567-89ab-cdef-0123-456789abcde"));
  assert_false(i915_flex_uuid_valid("01234567-89ab-cdef-0123-456789abcdef0"));
  assert_false(i915_flex_uuid_valid("01234567_89ab-cdef-0123-456789abcdef"));
  assert_false(i915_flex_uuid_valid("0123456g-89ab-cdef-0123-456789abcdef"));
  assert_false(i915_flex_uuid_valid(""));
}

static void privileged(struct shim_i915_scenario *s, void *ctx) {
  s->privileged = *(const int *)ctx;
}

static void add_remove__through_the_kernel(void **state) {
  (void)state;
  struct shim_i915_scenario sc;
  shim_i915_scenario_default(&sc);
  assert_int_equal(shim_i915_add(DEV, &sc), 0);
  int fd = shim_open(DEV, O_RDWR, 0);
  const uint32_t a[] = {0xE458, 0x005}, b[] = {0xE458, 0x105};
  char ua[I915_FLEX_UUID_SIZE], ub[I915_FLEX_UUID_SIZE];
  i915_flex_uuid(a, 1, ua);
  i915_flex_uuid(b, 1, ub);
  uint64_t id = 0;
  assert_int_equal(i915_flex_add_config(&shim_kernel, fd, ua, a, 1, &id), 0);
  assert_int_equal(id, 2);
  /* 0x105 is another config, not the EADDRINUSE pti-gpu would get */
  assert_int_equal(i915_flex_add_config(&shim_kernel, fd, ub, b, 1, &id), 0);
  assert_int_equal(id, 3);
  id = 0;
  assert_int_equal(i915_flex_add_config(&shim_kernel, fd, ua, a, 1, &id),
                   -EADDRINUSE);
  assert_int_equal(id, 0);
  assert_int_equal(i915_flex_add_config(&shim_kernel, fd, "bad", a, 1, &id),
                   -EINVAL);
  assert_int_equal(i915_flex_add_config(&shim_kernel, fd, ua, a, 0, &id),
                   -EINVAL);
  const uint32_t off[] = {0xE460, 1};
  char uo[I915_FLEX_UUID_SIZE];
  i915_flex_uuid(off, 1, uo);
  assert_int_equal(i915_flex_add_config(&shim_kernel, fd, uo, off, 1, &id),
                   -EINVAL);
  int no = 0, yes = 1;
  shim_i915_update(DEV, privileged, &no);
  assert_int_equal(i915_flex_remove_config(&shim_kernel, fd, 2), -EACCES);
  shim_i915_update(DEV, privileged, &yes);
  assert_int_equal(i915_flex_remove_config(&shim_kernel, fd, 2), 0);
  assert_int_equal(i915_flex_remove_config(&shim_kernel, fd, 2), -ENOENT);
  struct shim_i915_stats st;
  shim_i915_stats(DEV, &st);
  assert_int_equal(st.configs_added, 2);
  assert_int_equal(st.configs_removed, 1);
  shim_close(fd);
  shim_i915_reset();
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(selector__packs_the_fields),
      cmocka_unit_test(build__halves_raw_and_limits),
      cmocka_unit_test(uuid__differs_where_pti_gpu_collides),
      cmocka_unit_test(uuid__known_value),
      cmocka_unit_test(uuid_valid__syntax),
      cmocka_unit_test(add_remove__through_the_kernel),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
