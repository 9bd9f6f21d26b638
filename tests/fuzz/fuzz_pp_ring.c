/*
 * fuzz_pp_ring.c: libFuzzer target for the ring consumer: for any
 * (extract, insert, slots) a plan stays inside the ring, never reports
 * more than slots - 1 samples and writes back a wrapped extract.
 */
#include "common/panthor/pp_ring.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
  uint64_t extract = 0, insert = 0;
  uint32_t slots = 0;
  if (size < 20)
    return 0;
  memcpy(&extract, data, 8);
  memcpy(&insert, data + 8, 8);
  memcpy(&slots, data + 16, 4);
  struct pp_ring_plan p;
  if (pp_ring_plan(extract, insert, slots, &p) < 0)
    return 0;
  if (p.count >= slots || p.first >= slots || p.next_extract >= slots ||
      p.next_extract != insert)
    abort();
  for (uint32_t k = 0; k < p.count; k++)
    if (pp_ring_slot(&p, k) >= slots)
      abort();
  if (p.count > 0 &&
      pp_ring_slot(&p, p.count - 1) != (insert + slots - 1) % slots)
    abort();
  return 0;
}
