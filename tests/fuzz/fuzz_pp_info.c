/*
 * fuzz_pp_info.c: libFuzzer target for perf_info: any bytes either fail
 * or give sizes whose walk fits the limits (no later overrun possible).
 */
#include "common/panthor/pp_info.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
  struct pp_info in;
  struct pp_error err;
  if (pp_info_decode(data, size, &in, &err) < 0)
    return 0;
  uint64_t walk = in.sample_header_size +
                  (uint64_t)in.n_blocks *
                      (in.block_header_size + 8ull * in.counters_per_block);
  if (walk != in.walk_size || in.sample_size < in.walk_size ||
      in.sample_size > PP_MAX_SAMPLE_SIZE || in.block_size % 8 != 0)
    abort();
  return 0;
}
