/*
 * test_plugin_host.c: the default host context (system clocks, the real
 * kernel, nothing shared) and plugin_shared, the registry of what one
 * plugin's instances share: found by key, keys copied, removal by object,
 * the entries left freed at fini.
 */
#include "common/core/plugin_host.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

static void plugin_host_init__defaults(void **state) {
  (void)state;
  struct plugin_host h;
  memset(&h, 0xa5, sizeof(h));
  plugin_host_init(&h, "gpu", 10);
  assert_string_equal(h.instance, "gpu");
  assert_int_equal(h.interval_ns, 10);
  assert_ptr_equal(h.kernel, &kernel_real);
  assert_null(h.shared);
  assert_ptr_equal(h.clock.monotonic_ns, plugin_clock_system.monotonic_ns);
  uint64_t a = plugin_host_monotonic_ns(&h), b = plugin_host_monotonic_ns(&h);
  assert_true(b >= a);
}

static void plugin_shared__find_add_remove(void **state) {
  (void)state;
  struct plugin_shared s;
  plugin_shared_init(&s);
  int x, y;
  char key[32] = "/dev/dri/renderD128";
  plugin_shared_lock(&s);
  assert_null(plugin_shared_find(&s, key));
  assert_int_equal(plugin_shared_add(&s, key, &x), 0);
  assert_int_equal(plugin_shared_add(&s, "/dev/dri/renderD129", &y), 0);
  strcpy(key, "changed"); /* the registry kept its own copy */
  assert_ptr_equal(plugin_shared_find(&s, "/dev/dri/renderD128"), &x);
  assert_ptr_equal(plugin_shared_find(&s, "/dev/dri/renderD129"), &y);
  assert_null(plugin_shared_find(&s, "/dev/dri/renderD12")); /* whole key */
  plugin_shared_remove(&s, &x);
  assert_null(plugin_shared_find(&s, "/dev/dri/renderD128"));
  assert_ptr_equal(plugin_shared_find(&s, "/dev/dri/renderD129"), &y);
  plugin_shared_remove(&s, &x); /* absent: nothing happens */
  plugin_shared_unlock(&s);
  plugin_shared_fini(&s); /* frees the entry left for &y, not y */
  assert_null(s.head);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(plugin_host_init__defaults),
      cmocka_unit_test(plugin_shared__find_add_remove),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
