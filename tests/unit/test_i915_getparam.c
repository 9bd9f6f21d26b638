/* Device identity through the shim: GETPARAM with its fallbacks, the
 * topology QUERY (two calls), the EU count of a topology blob. */
#include "common/i915/i915_getparam.h"
#include "tests/shim/shim.h"
#include "tests/shim/shim_i915.h"

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#define DEV "/shim-test/dri/renderD128"

static int open_dev(const struct shim_i915_scenario *sc) {
  assert_int_equal(shim_i915_add(DEV, sc), 0);
  int fd = shim_open(DEV, O_RDWR, 0);
  assert_true(fd >= 0);
  return fd;
}

static int teardown(void **state) {
  (void)state;
  shim_i915_reset();
  return 0;
}

static void identity__from_the_newest_params(void **state) {
  (void)state;
  struct shim_i915_scenario sc;
  shim_i915_scenario_default(&sc);
  sc.topology_eus = 80;
  sc.eu_total = 96; /* GETPARAM 34 disagrees: the QUERY wins */
  sc.oa_freq_hz = 25000000;
  int fd = open_dev(&sc);
  struct i915_identity id;
  assert_int_equal(i915_getparam_identity(&shim_kernel, fd, &id), 0);
  assert_int_equal(id.devid, 0x9A49);
  assert_int_equal(id.perf_revision, 7);
  assert_int_equal(id.oa_timestamp_hz, 25000000);
  assert_int_equal(id.oa_timestamp_param, 57);
  assert_int_equal(id.eu_total, 80);
  assert_int_equal(id.eu_from_topology, 1);
  shim_close(fd);
}

static void identity__falls_back(void **state) {
  (void)state;
  struct shim_i915_scenario sc;
  shim_i915_scenario_default(&sc);
  sc.perf_revision = 0; /* old kernel: revision 1 */
  sc.oa_freq_hz = 0;    /* fallback CS_TIMESTAMP_FREQUENCY */
  sc.cs_freq_hz = 12000000;
  sc.topology_eus = 0; /* QUERY item fails: GETPARAM 34 */
  sc.eu_total = 24;
  int fd = open_dev(&sc);
  struct i915_identity id;
  assert_int_equal(i915_getparam_identity(&shim_kernel, fd, &id), 0);
  assert_int_equal(id.perf_revision, 1);
  assert_int_equal(id.oa_timestamp_hz, 12000000);
  assert_int_equal(id.oa_timestamp_param, 51);
  assert_int_equal(id.eu_total, 24);
  assert_int_equal(id.eu_from_topology, 0);
  void *blob = (void *)1;
  size_t len = 5;
  assert_int_equal(i915_getparam_topology(&shim_kernel, fd, &blob, &len),
                   -EINVAL);
  assert_ptr_equal(blob, (void *)1);
  assert_int_equal(len, 5);
  shim_close(fd);
}

static void identity__not_i915(void **state) {
  (void)state;
  struct i915_identity id = {.devid = 7};
  int v = 3;
  /* a plain file: GETPARAM is ENOTTY */
  int fd = shim_open("/dev/null", O_RDWR, 0);
  assert_int_equal(i915_getparam(&shim_kernel, fd, 4, &v), -ENOTTY);
  assert_int_equal(v, 3);
  assert_int_equal(i915_getparam_identity(&shim_kernel, fd, &id), -ENOTTY);
  assert_int_equal(id.devid, 7);
  shim_close(fd);
}

static void topology_eus__counts_and_bounds(void **state) {
  (void)state;
  /* 2 slices (only slice 1 on), 2 subslices each, 8 EUs per subslice */
  uint8_t blob[16 + 1 + 2 + 4] = {0};
  const uint16_t hdr[8] = {0, 2, 2, 8, 1, 1, 3, 1};
  memcpy(blob, hdr, sizeof hdr);
  blob[16] = 0x2;  /* slice 1 */
  blob[17] = 0x3;  /* slice 0 subslices (ignored: slice off) */
  blob[18] = 0x1;  /* slice 1: subslice 0 only */
  blob[19] = 0xFF; /* s0 ss0 */
  blob[20] = 0xFF; /* s0 ss1 */
  blob[21] = 0x0F; /* s1 ss0: 4 EUs */
  blob[22] = 0xFF; /* s1 ss1: subslice off */
  uint32_t eus = 0;
  assert_int_equal(i915_getparam_topology_eus(blob, sizeof blob, &eus), 0);
  assert_int_equal(eus, 4);
  eus = 9;
  assert_int_equal(i915_getparam_topology_eus(blob, 15, &eus), -EINVAL);
  assert_int_equal(i915_getparam_topology_eus(blob, 21, &eus), -EINVAL);
  assert_int_equal(eus, 9);
  const uint16_t wild[8] = {0, 1, 1, 8, 1, 1, 60000, 1}; /* eu_offset */
  memcpy(blob, wild, sizeof wild);
  blob[16] = 1;
  blob[17] = 1;
  assert_int_equal(i915_getparam_topology_eus(blob, sizeof blob, &eus),
                   -EINVAL);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_teardown(identity__from_the_newest_params, teardown),
      cmocka_unit_test_teardown(identity__falls_back, teardown),
      cmocka_unit_test(identity__not_i915),
      cmocka_unit_test(topology_eus__counts_and_bounds),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
