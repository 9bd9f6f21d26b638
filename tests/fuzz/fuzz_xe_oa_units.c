/*
 * fuzz_xe_oa_units.c: libFuzzer target for the xe OA_UNITS query parser:
 * any bytes either fail with -EINVAL or give at most `max` units, each
 * with at most XE_OA_UNIT_MAX_ENGINES engines, read inside the buffer
 * (ASan).
 */
#include "common/xe/xe_oa.h"

#include <errno.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
  struct xe_oa_unit_info units[XE_OA_MAX_UNITS];
  int n = xe_oa_units_parse(data, size, units, XE_OA_MAX_UNITS);
  if (n == -EINVAL)
    return 0;
  if (n < 0 || n > XE_OA_MAX_UNITS)
    abort();
  for (int i = 0; i < n; i++)
    if (units[i].n_engines > XE_OA_UNIT_MAX_ENGINES)
      abort();
  return 0;
}
