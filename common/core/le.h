/*
 * le.h: little-endian loads from byte buffers, whatever the host's byte
 * order and the buffer's alignment: the fields of kernel records (OA
 * reports, xe query answers) and of PCI config space are little-endian.
 * Pure; the caller bounds-checks `p` against its buffer first.
 */
#ifndef COMMON_CORE_LE_H
#define COMMON_CORE_LE_H

#include <stdint.h>

/* The 32-bit little-endian value at p[0..3]. */
static inline uint32_t le32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
         (uint32_t)p[3] << 24;
}

/* The 64-bit little-endian value at p[0..7]. */
static inline uint64_t le64(const uint8_t *p) {
  return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32;
}

#endif
