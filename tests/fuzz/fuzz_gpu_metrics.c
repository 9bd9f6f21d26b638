/*
 * fuzz_gpu_metrics.c: libFuzzer target for the amdgpu gpu_metrics decoder
 * (common/amdgpu/gpu_metrics.h): any bytes, no crash, no read past the
 * length, and every success keeps its promises: the table fits in what was
 * read, every value is a finite non-negative number with a named sensor,
 * and a refusal leaves no values behind.
 */
#include "common/amdgpu/gpu_metrics.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct gpu_metrics gm;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  /* a copy of exactly `size` bytes, so ASan sees any over-read */
  uint8_t *copy = malloc(size ? size : 1);
  if (copy == NULL)
    return 0;
  memcpy(copy, data, size);
  int rc = gpu_metrics_decode(copy, size, &gm);
  if (rc == 0) {
    if (gm.structure_size > size || gm.n_values > GPU_METRICS_MAX_VALUES)
      abort();
    for (size_t i = 0; i < gm.n_values; i++) {
      const struct gpu_metrics_value *v = &gm.values[i];
      if (!isfinite(v->value) || v->value < 0 || v->sensor[0] == '\0' ||
          memchr(v->sensor, '\0', sizeof(v->sensor)) == NULL ||
          (unsigned)v->kind >= GPU_METRICS_KIND_COUNT)
        abort();
    }
    if (gm.have_energy && gm.energy_bits != 32 && gm.energy_bits != 64)
      abort();
  } else if (rc != -EINVAL && rc != -ENOTSUP) {
    abort();
  } else if (gm.n_values != 0 || gm.have_energy || gm.have_throttle) {
    abort();
  }
  free(copy);
  return 0;
}
