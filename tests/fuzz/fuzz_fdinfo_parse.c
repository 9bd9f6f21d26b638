/*
 * fuzz_fdinfo_parse.c: libFuzzer target for the fdinfo decoder. Any bytes
 * must decode without a crash and leave the output consistent.
 */
#include "common/fdinfo_parse.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static void check_name(const char *name, size_t max) {
  size_t n = strnlen(name, max);
  if (n == 0 || n == max)
    abort();
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
  struct fdinfo fi;
  int rc = fdinfo_parse(data, size, &fi);
  if (rc != 0 && rc != -2 /* -ENOENT */)
    abort();
  if (fi.n_engines > FDINFO_MAX_ENGINES || fi.n_regions > FDINFO_MAX_REGIONS)
    abort();
  if (strnlen(fi.driver, sizeof(fi.driver)) == sizeof(fi.driver) ||
      strnlen(fi.pdev, sizeof(fi.pdev)) == sizeof(fi.pdev) ||
      strnlen(fi.client_name, sizeof(fi.client_name)) == sizeof(fi.client_name))
    abort();
  if (rc == 0 && fi.driver[0] == '\0')
    abort();
  for (size_t i = 0; i < fi.n_engines; i++) {
    check_name(fi.engines[i].name, FDINFO_NAME_MAX);
    if (fi.engines[i].capacity == 0)
      abort();
  }
  for (size_t i = 0; i < fi.n_regions; i++)
    check_name(fi.regions[i].name, FDINFO_NAME_MAX);
  return 0;
}
