/*
 * test_host.h: a host context for tests that call a plugin's init()
 * directly: system clocks, the real kernel seam, a 1 s interval.
 */
#ifndef TESTS_LIB_TEST_HOST_H
#define TESTS_LIB_TEST_HOST_H

#include "common/core/plugin_host.h"

/* A static host named `instance` (borrowed). Not thread-safe. */
const struct plugin_host *test_host(const char *instance);

#endif
