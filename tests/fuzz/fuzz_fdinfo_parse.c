/*
 * fuzz_fdinfo_parse.c: libFuzzer target for the fdinfo decoder
 * (common/drm/fdinfo_parse.h, Documentation/gpu/drm-usage-stats.rst). Any bytes
 * must decode without a crash and leave the output consistent: counts
 * within the arrays, every string NUL-terminated inside its field, engine
 * and region names non-empty, printable, unique (compared whole), and a
 * capacity of at least 1. A violation aborts, which libFuzzer reports.
 */
#include "common/drm/fdinfo_parse.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static void check_string(const char *s, size_t size) {
  if (strnlen(s, size) == size)
    abort();
}

static void check_name(const char *name) {
  size_t n = strnlen(name, FDINFO_NAME_MAX);
  if (n == 0 || n == FDINFO_NAME_MAX)
    abort();
  for (size_t i = 0; i < n; i++)
    if ((unsigned char)name[i] <= ' ' || (unsigned char)name[i] >= 0x7f)
      abort();
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
  struct fdinfo fi;
  int rc = fdinfo_parse(data, size, &fi);
  if (rc != 0 && rc != -ENOENT)
    abort();
  if (fi.n_engines > FDINFO_MAX_ENGINES || fi.n_regions > FDINFO_MAX_REGIONS)
    abort();
  check_string(fi.driver, sizeof(fi.driver));
  check_string(fi.pdev, sizeof(fi.pdev));
  check_string(fi.client_name, sizeof(fi.client_name));
  if (rc == 0 && fi.driver[0] == '\0')
    abort();
  for (size_t i = 0; i < fi.n_engines; i++) {
    check_name(fi.engines[i].name);
    if (fi.engines[i].capacity < 1)
      abort();
    for (size_t k = 0; k < i; k++)
      if (strcmp(fi.engines[k].name, fi.engines[i].name) == 0)
        abort();
  }
  for (size_t i = 0; i < fi.n_regions; i++) {
    check_name(fi.regions[i].name);
    for (size_t k = 0; k < i; k++)
      if (strcmp(fi.regions[k].name, fi.regions[i].name) == 0)
        abort();
  }
  return 0;
}
