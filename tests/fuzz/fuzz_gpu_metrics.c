/*
 * fuzz_gpu_metrics.c: libFuzzer target for the amdgpu gpu_metrics decoder
 * (common/amdgpu/gpu_metrics.h): any bytes, no crash, no read past the
 * length, and every success keeps its promises: the table fits in what was
 * read, every value is a finite number (below zero only a temperature)
 * with a named sensor, and a refusal says why and leaves no values behind.
 * The fixed layouts and v1.9's attribute lists (seeds v1_9, v1_9_*).
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
  /* the SMC version from the input's last byte: known old, known new or
   * unknown, so each path of v3.0's gfx busy is taken */
  uint32_t smc = size == 0                 ? GPU_METRICS_SMC_UNKNOWN
                 : data[size - 1] % 3 == 0 ? GPU_METRICS_SMC_UNKNOWN
                 : data[size - 1] % 3 == 1 ? 0x005d4600u
                                           : 0x005d4700u;
  int rc = gpu_metrics_decode(copy, size, smc, &gm);
  if (rc == 0) {
    if (gm.structure_size > size || gm.n_values > GPU_METRICS_MAX_VALUES ||
        gm.error != NULL)
      abort();
    for (size_t i = 0; i < gm.n_values; i++) {
      const struct gpu_metrics_value *v = &gm.values[i];
      /* only a temperature may be below zero (v1.9's signed types) */
      if (!isfinite(v->value) ||
          (v->value < 0 && v->kind != GPU_METRICS_CELSIUS) ||
          v->sensor[0] == '\0' ||
          memchr(v->sensor, '\0', sizeof(v->sensor)) == NULL ||
          (unsigned)v->kind >= GPU_METRICS_KIND_COUNT)
        abort();
    }
    if (gm.have_energy && gm.energy_bits != 32 && gm.energy_bits != 64)
      abort();
    if (gm.smc_version_needed && smc != GPU_METRICS_SMC_UNKNOWN)
      abort();
  } else if (rc == -EINVAL) {
    if (gm.error == NULL || gm.n_values != 0 || gm.have_energy ||
        gm.have_throttle || gm.n_skipped != 0)
      abort();
  } else if (rc != -ENOTSUP) {
    abort();
  } else if (gm.n_values != 0 || gm.have_energy || gm.have_throttle) {
    abort();
  }
  free(copy);
  return 0;
}
