/*
 * fuzz_pp_sample.c: libFuzzer target for the sample walk. The input is a
 * perf_info (first byte: 0 = RFC v2 48 bytes, else v6 44 bytes) followed
 * by a sample; whatever both say, decoding and accumulating never read
 * outside the input (ASan) and a decoded sample lies inside it.
 */
#include "common/panthor/pp_accum.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
  if (size < 1)
    return 0;
  size_t info_len = data[0] == 0 ? 48 : 44;
  if (size < 1 + info_len)
    return 0;
  struct pp_info in;
  if (pp_info_decode(data + 1, info_len, &in, NULL) < 0)
    return 0;
  const unsigned char *sample = data + 1 + info_len;
  size_t len = size - 1 - info_len;
  /* a copy of exactly len bytes, so ASan sees any overrun */
  unsigned char *copy = malloc(len ? len : 1);
  if (copy == NULL)
    return 0;
  memcpy(copy, sample, len);
  struct pp_sample s;
  if (pp_sample_decode(&in, copy, len, &s, NULL) == 0) {
    if (s.blocks + (size_t)s.n_blocks * s.block_size > copy + len)
      abort();
    struct pp_gpu gpu;
    memset(&gpu, 0, sizeof(gpu));
    gpu.family = (enum pp_family)(data[0] % 5);
    gpu.bytes_per_beat = 16;
    struct pp_counter_loc raw[2] = {{PP_BLOCK_SHADER, 5}, {PP_BLOCK_MEMSYS, 7}};
    struct pp_accum a;
    if (pp_accum_init(&a, &gpu, &in, raw, 2, true) == 0) {
      pp_accum_update(&a, &s);
      struct pp_metrics m;
      pp_accum_metrics(&a, &m);
      if (a.stream.samples != 1)
        abort();
      pp_accum_fini(&a);
    }
  }
  free(copy);
  return 0;
}
