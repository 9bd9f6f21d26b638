/*
 * gpu_metrics_int.h: what the two halves of the gpu_metrics decoder share
 * (gpu_metrics.c: the fixed layouts; gpu_metrics_attrs.c: v1.9's
 * attribute list). Not for other modules: gpu_metrics.h is the interface.
 */
#ifndef COMMON_AMDGPU_GPU_METRICS_INT_H
#define COMMON_AMDGPU_GPU_METRICS_INT_H

#include "common/amdgpu/gpu_metrics.h"

#include <stdbool.h>
#include <stdint.h>

/* v1.9: format 1, content 9 (smu_v13_0_6_ppt.c: smu_v13_0_6_tables_init,
 * smu_v13_0_6_gpu_metrics_init(gpu_metrics, 1, 9)). */
#define GM_ATTRS_FORMAT 1
#define GM_ATTRS_CONTENT 9

/* 2^-16 J: "Energy (15.259uJ (2^-16) units)" (kgd_pp_interface.h, v1.4 ..
 * v1.8; smu_v13_0_6_get_gpu_metrics fills v1.9's energy_accumulator from
 * the same SocketEnergyAcc under the same comment) */
#define GM_Q16_JOULES (1.0 / 65536.0)

/* `width` bytes at p, little-endian. */
uint64_t gm_le(const uint8_t *p, unsigned width);
/* The kernel's "not filled" marker of a `width`-byte field. */
uint64_t gm_all_ones(unsigned width);
/* Append a value (sensor, or sensor<index> when indexed); false, and
 * out->n_skipped counted, when the array is full. */
bool gm_value_add(struct gpu_metrics *out, enum gpu_metrics_kind kind,
                  const char *sensor, bool indexed, unsigned index,
                  double value);
/* Clear every output but the header, set out->error = why; -EINVAL. */
int gm_refuse(struct gpu_metrics *out, const char *why);

#endif
