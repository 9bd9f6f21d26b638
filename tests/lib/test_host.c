/*
 * test_host.c: the default host context of direct init() calls.
 */
#include "tests/lib/test_host.h"

const struct plugin_host *test_host(const char *instance) {
  static struct plugin_host host;
  plugin_host_init(&host, instance, 1000000000ull);
  return &host;
}
