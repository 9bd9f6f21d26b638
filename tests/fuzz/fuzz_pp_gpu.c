/*
 * fuzz_pp_gpu.c: libFuzzer target for GPU_INFO: any prefix decodes
 * within bounds to a NUL-terminated name and sane derived values.
 */
#include "common/panthor/pp_gpu.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
  struct pp_gpu g;
  if (pp_gpu_decode(data, size, &g) < 0) {
    if (size >= 4)
      abort();
    return 0;
  }
  if (strnlen(g.name, sizeof(g.name)) == sizeof(g.name) || g.name[0] == 0 ||
      g.shader_cores > 64 || g.l2_slices < 1 || g.l2_slices > 16 ||
      g.bytes_per_beat > 512)
    abort();
  return 0;
}
