/*
 * test_dev_filter.c: the Device and Driver options both DRM plugins share:
 * which devices and drivers pass (by name or node, exact words, none given
 * is all), the configuration errors in words, and other keys left to the
 * plugin.
 */
#include "common/core/log.h"
#include "common/sysfs/dev_filter.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

static char said[512];
static void keep(enum log_level level, const char *message) {
  (void)level;
  snprintf(said, sizeof(said), "%s", message);
}

static int add(struct dev_filter *f, const char *key, const char *const *names,
               size_t n) {
  struct cfg_value v[DEV_FILTER_MAX + 1];
  for (size_t i = 0; i < n; i++)
    v[i] = (struct cfg_value){.type = CFG_STRING, .string = names[i]};
  struct cfg_item item = {.key = key, .values = v, .n_values = n};
  int rc = 1;
  assert_true(dev_filter_configure(f, "p", &item, &rc));
  return rc;
}

static void dev_filter__matches(void **state) {
  (void)state;
  struct dev_filter f;
  dev_filter_init(&f);
  assert_true(dev_filter_device_ok(&f, "0000:03:00.0", "card1"));
  assert_true(dev_filter_driver_ok(&f, "xe"));
  static const char *const devs[] = {"0000:03:00.0", "renderD129"};
  assert_int_equal(add(&f, "Device", devs, 2), 0);
  static const char *const drvs[] = {"xe"};
  assert_int_equal(add(&f, "driver", drvs, 1), 0); /* any case of the key */
  static const struct {
    const char *name, *node;
    bool ok;
  } cases[] = {
      {"0000:03:00.0", "card1", true},      /* by name */
      {"fde60000.gpu", "renderD129", true}, /* by node */
      {"0000:03:00.00", "card2", false},    /* whole words only */
      {"0000:03:00", "renderD12", false},   /* no prefix match */
      {"0000:00:02.0", "card0", false},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
    if (dev_filter_device_ok(&f, cases[i].name, cases[i].node) != cases[i].ok)
      fail_msg("%s %s", cases[i].name, cases[i].node);
  assert_true(dev_filter_driver_ok(&f, "xe"));
  assert_false(dev_filter_driver_ok(&f, "xe2"));
  assert_false(dev_filter_driver_ok(&f, "i915"));
  dev_filter_fini(&f);
  assert_int_equal(f.n_devices, 0);
  assert_true(dev_filter_device_ok(&f, "x", "y"));
}

static void dev_filter__errors_in_words(void **state) {
  (void)state;
  struct dev_filter f;
  dev_filter_init(&f);
  log_set_sink(keep, LOG_LEVEL_ERROR);
  assert_int_equal(add(&f, "Device", NULL, 0), -EINVAL);
  assert_string_equal(said, "p: config: Device: expected one or more names");
  static const char *const empty[] = {""};
  assert_int_equal(add(&f, "Driver", empty, 1), -EINVAL);
  assert_string_equal(said, "p: config: Driver: expected a non-empty name");
  const char *many[DEV_FILTER_MAX + 1];
  for (size_t i = 0; i <= DEV_FILTER_MAX; i++)
    many[i] = "card0";
  assert_int_equal(add(&f, "Device", many, DEV_FILTER_MAX + 1), -EINVAL);
  assert_string_equal(said, "p: config: Device: at most 16 names");
  struct cfg_value n = {.type = CFG_NUMBER, .number = 3};
  struct cfg_item num = {.key = "Device", .values = &n, .n_values = 1};
  int rc = 0;
  assert_true(dev_filter_configure(&f, "p", &num, &rc));
  assert_int_equal(rc, -EINVAL);
  struct cfg_item other = {.key = "Devices", .values = &n, .n_values = 1};
  rc = 7;
  assert_false(dev_filter_configure(&f, "p", &other, &rc)); /* not ours */
  assert_int_equal(rc, 7);
  log_set_sink(NULL, LOG_LEVEL_INFO);
  dev_filter_fini(&f);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(dev_filter__matches),
      cmocka_unit_test(dev_filter__errors_in_words),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
