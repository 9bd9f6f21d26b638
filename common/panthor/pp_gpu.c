/*
 * pp_gpu.c: GPU_INFO to product, core count and bus constants. The names
 * and the core-count / ray-tracing rules follow the kernel's table
 * (drivers/gpu/drm/panthor/panthor_hw.c, its GPU name table), so the `gpu` tag
 * matches what the kernel log prints. The constants follow libGPUCounters: L2
 * slices = 1 + mem_features[11:8], bus width = 2^l2_features[31:24] bits.
 */
#include "common/panthor/pp_gpu.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static unsigned pp_popcount64(uint64_t v) {
  unsigned n = 0;
  for (; v != 0; v &= v - 1)
    n++;
  return n;
}

/* The name of (arch major, product major); NULL when not in the table. */
static const char *pp_gpu_product(unsigned arch, unsigned prod, unsigned cores,
                                  bool rt, enum pp_family *family) {
  *family = PP_FAMILY_NONE;
  switch (arch << 4 | prod) {
  case 0xa2:
    *family = PP_FAMILY_G710;
    return "Mali-G710";
  case 0xa3:
    *family = PP_FAMILY_G710;
    return "Mali-G510";
  case 0xa4:
    *family = PP_FAMILY_G710;
    return "Mali-G310";
  case 0xa7:
    *family = PP_FAMILY_G710;
    return "Mali-G610";
  case 0xb2:
    *family = PP_FAMILY_G715;
    return cores > 10 && rt ? "Mali-G715-Immortalis"
           : cores >= 7     ? "Mali-G715"
                            : "Mali-G615";
  case 0xb3:
    *family = PP_FAMILY_G715;
    return "Mali-G615";
  case 0xc0:
    *family = PP_FAMILY_G720;
    return cores >= 10 && rt ? "Mali-G720-Immortalis"
           : cores >= 6      ? "Mali-G720"
                             : "Mali-G620";
  case 0xc1:
    *family = PP_FAMILY_G720;
    return "Mali-G620";
  case 0xd0:
    *family = PP_FAMILY_G725;
    return cores >= 10 && rt ? "Mali-G925-Immortalis"
           : cores >= 6      ? "Mali-G725"
                             : "Mali-G625";
  case 0xd1:
    *family = PP_FAMILY_G725;
    return "Mali-G625";
  case 0xe0:
    return "Mali-G1-Ultra";
  case 0xe1:
    return "Mali-G1-Premium";
  case 0xe3:
    return "Mali-G1-Pro";
  default:
    return NULL;
  }
}

int pp_gpu_decode(const void *buf, size_t len, struct pp_gpu *out) {
  memset(out, 0, sizeof(*out));
  if (buf == NULL || len < 4)
    return -EINVAL;
  size_t n = len < sizeof(out->raw) ? len : sizeof(out->raw);
  memcpy(&out->raw, buf, n);
  out->len = len;
  const struct pp_gpu_info *r = &out->raw;
  out->arch_major = r->gpu_id >> 28;
  out->arch_minor = (r->gpu_id >> 24) & 0xf;
  out->arch_rev = (r->gpu_id >> 20) & 0xf;
  out->product_major = (r->gpu_id >> 16) & 0xf;
  out->version_major = (r->gpu_id >> 12) & 0xf;
  out->version_minor = (r->gpu_id >> 4) & 0xff;
  out->version_status = r->gpu_id & 0xf;
  out->shader_cores = pp_popcount64(r->shader_present);
  out->l2_slices = 1 + ((r->mem_features >> 8) & 0xf);
  unsigned log2_bits = r->l2_features >> 24;
  /* 8..4096-bit buses are plausible; anything else is unknown, not made up
   * (0 keeps byte counts out of the records). */
  if (log2_bits >= 3 && log2_bits <= 12)
    out->bytes_per_beat = (1u << log2_bits) / 8;
  out->ray_tracing = (r->gpu_features & 4) != 0;
  out->counters_per_block = out->arch_major >= 11 ? 128 : 64;
  const char *name =
      pp_gpu_product(out->arch_major, out->product_major, out->shader_cores,
                     out->ray_tracing, &out->family);
  if (name != NULL)
    snprintf(out->name, sizeof(out->name), "%s", name);
  else /* the kernel log's form: gpu_id >> 16 */
    snprintf(out->name, sizeof(out->name), "Mali-0x%04x", r->gpu_id >> 16);
  return 0;
}
