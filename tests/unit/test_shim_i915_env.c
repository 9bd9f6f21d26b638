/* The i915 shim device's environment loader (SHIM_I915_PATH,
 * SHIM_I915_SCENARIO, SHIM_I915_SCENARIO_<n>), as the preloaded shim
 * applies it under the real daemon. */
#include "tests/shim/shim.h"
#include "tests/shim/shim_i915.h"

#include <drm.h>
#include <errno.h>
#include <fcntl.h>
#include <i915_drm.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

static int getparam(const char *path, int param) {
  int fd = shim_open(path, O_RDWR, 0);
  assert_true(fd >= 0);
  int v = -1;
  struct drm_i915_getparam gp = {.param = param, .value = &v};
  int rc = shim_ioctl(fd, DRM_IOCTL_I915_GETPARAM, &gp);
  shim_close(fd);
  return rc < 0 ? -errno : v;
}

static int teardown(void **state) {
  (void)state;
  shim_i915_reset();
  unsetenv("SHIM_I915_PATH");
  unsetenv("SHIM_I915_SCENARIO");
  unsetenv("SHIM_I915_SCENARIO_1");
  return 0;
}

static void load_env__paths_and_per_device_keys(void **state) {
  (void)state;
  char root[] = "/tmp/shim_i915_env.XXXXXX";
  assert_non_null(mkdtemp(root));
  char scen[512];
  snprintf(scen, sizeof scen,
           "devid=0x4680,revision=5,sysfs=%s,card=card3,"
           "metric=01234567-89ab-cdef-0123-456789abcdef:1,a7=123,near_wrap=1",
           root);
  setenv("SHIM_I915_PATH", "/shim-env/renderD128,/shim-env/renderD129", 1);
  setenv("SHIM_I915_SCENARIO", scen, 1);
  setenv("SHIM_I915_SCENARIO_1", "devid=0x5917,oa_freq=0,cs_freq=12000000", 1);
  assert_int_equal(shim_i915_load_env(), 0);
  assert_int_equal(getparam("/shim-env/renderD128", 4), 0x4680);
  assert_int_equal(getparam("/shim-env/renderD128", 54), 5);
  assert_int_equal(getparam("/shim-env/renderD128", 57), 19200000);
  assert_int_equal(getparam("/shim-env/renderD129", 4), 0x5917);
  assert_int_equal(getparam("/shim-env/renderD129", 57), -EINVAL);
  assert_int_equal(getparam("/shim-env/renderD129", 51), 12000000);
  char path[PATH_MAX], text[8] = {0};
  snprintf(path, sizeof path,
           "%s/class/drm/card3/metrics/01234567-89ab-cdef-0123-456789abcdef/id",
           root);
  FILE *f = fopen(path, "r");
  assert_non_null(f);
  assert_non_null(fgets(text, sizeof text, f));
  fclose(f);
  assert_string_equal(text, "1\n");
  char cmd[64];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
  assert_int_equal(system(cmd), 0);
}

static void load_env__bad_items_are_reported(void **state) {
  (void)state;
  setenv("SHIM_I915_PATH", "/shim-env/renderD130", 1);
  setenv("SHIM_I915_SCENARIO", "devid=12,bogus=1,reports=x,metric=short:1", 1);
  errno = 0;
  assert_int_equal(shim_i915_load_env(), -1);
  assert_int_equal(errno, EINVAL);
  /* the valid part applies */
  assert_int_equal(getparam("/shim-env/renderD130", 4), 12);
}

static void load_env__default_path(void **state) {
  (void)state;
  assert_int_equal(shim_i915_load_env(), 0);
  struct shim_i915_stats st;
  assert_int_equal(shim_i915_stats(SHIM_I915_PATH, &st), 0);
  assert_int_equal(shim_i915_stats("/dev/dri/renderD199", &st), -1);
  assert_int_equal(errno, ENOENT);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_teardown(load_env__paths_and_per_device_keys, teardown),
      cmocka_unit_test_teardown(load_env__bad_items_are_reported, teardown),
      cmocka_unit_test_teardown(load_env__default_path, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
