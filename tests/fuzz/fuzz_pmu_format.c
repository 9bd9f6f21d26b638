/*
 * fuzz_pmu_format.c: libFuzzer target for the sysfs format grammar and the
 * encoder: any text parses or is rejected; an encoded value reads back.
 */
#include "common/pmu/pmu_format.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
  if (size < 8)
    return 0;
  uint64_t value;
  memcpy(&value, data, sizeof(value));
  struct pmu_format f;
  if (pmu_format_parse((const char *)data + 8, size - 8, &f) != 0)
    return 0;
  if (f.word >= PMU_CONFIG_WORDS || f.mask == 0)
    abort();
  uint64_t config[PMU_CONFIG_WORDS] = {0};
  value &= pmu_format_max(&f);
  if (pmu_format_encode(&f, value, config) != 0)
    abort();
  /* gather the bits back, low to high */
  uint64_t back = 0;
  unsigned next = 0;
  for (unsigned b = 0; b < 64; b++)
    if (f.mask & (1ull << b))
      back |= ((config[f.word] >> b) & 1) << next++;
  if (back != value || (config[f.word] & ~f.mask) != 0)
    abort();
  return 0;
}
