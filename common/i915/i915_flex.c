/*
 * i915_flex.c: flex register configs (i915_flex.h). The whitelist and
 * ADD/REMOVE_CONFIG rules follow i915_perf_add_config_ioctl() in
 * drivers/gpu/drm/i915/i915_perf.c (and its whitelist,
 * gen8_is_valid_flex_addr).
 *
 * Why our own uuid: pti-gpu appends each 32-bit word to a std::string as
 * one char (only its low byte survives) and keeps 32 bits of std::hash,
 * so 0x005 and 0x105 share a uuid, the second ADD_CONFIG fails with
 * EADDRINUSE and the tool silently reuses the first (wrong) config.
 */
#include "common/i915/i915_flex.h"
#include "common/core/text.h"
#include "common/i915/i915_uapi.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

const uint32_t i915_flex_addr[I915_FLEX_REGS] = {
    0xE458, 0xE558, 0xE658, 0xE758, 0xE45C, 0xE55C, 0xE65C,
};

int32_t i915_flex_selector(unsigned event, unsigned shader, unsigned row) {
  if (event > 0xF || shader > 0xF || row > 0xF)
    return -EINVAL;
  return (int32_t)(event | shader << 4 | row << 8);
}

int i915_flex_addr_valid(uint32_t addr) {
  for (size_t i = 0; i < I915_FLEX_REGS; i++)
    if (i915_flex_addr[i] == addr)
      return 1;
  return 0;
}

int i915_flex_build(const struct i915_flex_event *ev, size_t n, uint32_t *pairs,
                    size_t *n_regs, unsigned *counter) {
  uint32_t values[I915_FLEX_REGS] = {0};
  unsigned first[I915_FLEX_COUNTERS];
  size_t slot = 0;
  if (n > I915_FLEX_COUNTERS)
    return -E2BIG;
  for (size_t i = 0; i < n; i++) {
    if (ev[i].raw) {
      slot += slot % 2; /* a whole register starts on a low half */
      if (slot + 2 > I915_FLEX_COUNTERS)
        return -E2BIG;
      values[slot / 2] = ev[i].value;
      first[i] = i915_flex_counter((unsigned)slot);
      slot += 2;
      continue;
    }
    if (ev[i].value > 0xFFF)
      return -EINVAL;
    if (slot + 1 > I915_FLEX_COUNTERS)
      return -E2BIG;
    values[slot / 2] |= ev[i].value << (slot % 2 ? 12 : 0);
    first[i] = i915_flex_counter((unsigned)slot);
    slot++;
  }
  size_t regs = (slot + 1) / 2;
  for (size_t r = 0; r < regs; r++) {
    pairs[2 * r] = i915_flex_addr[r];
    pairs[2 * r + 1] = values[r];
  }
  *n_regs = regs;
  memcpy(counter, first, n * sizeof *counter);
  return 0;
}

/* splitmix64's finaliser: spreads the FNV state over the second half. */
static uint64_t mix64(uint64_t x) {
  x ^= x >> 30;
  x *= UINT64_C(0xbf58476d1ce4e5b9);
  x ^= x >> 27;
  x *= UINT64_C(0x94d049bb133111eb);
  return x ^ (x >> 31);
}

void i915_flex_uuid(const uint32_t *pairs, size_t n,
                    char out[I915_FLEX_UUID_SIZE]) {
  uint64_t h = TEXT_HASH64_INIT;
  for (size_t i = 0; i < 2 * n; i++) {
    /* little-endian bytes, whatever the host: the uuid is stable */
    uint8_t b[4] = {(uint8_t)pairs[i], (uint8_t)(pairs[i] >> 8),
                    (uint8_t)(pairs[i] >> 16), (uint8_t)(pairs[i] >> 24)};
    h = text_hash64_step(h, b, sizeof b);
  }
  uint64_t lo = mix64(h ^ (uint64_t)n);
  snprintf(out, I915_FLEX_UUID_SIZE, "%08x-%04x-%04x-%04x-%012llx",
           (unsigned)(h >> 32), (unsigned)(h >> 16) & 0xFFFF,
           (unsigned)h & 0xFFFF, (unsigned)(lo >> 48),
           (unsigned long long)(lo & UINT64_C(0xFFFFFFFFFFFF)));
}

int i915_flex_uuid_valid(const char *s) {
  for (size_t i = 0; i < I915_UAPI_UUID_LEN; i++) {
    int dash = i == 8 || i == 13 || i == 18 || i == 23;
    if (dash ? s[i] != '-' : !isxdigit((unsigned char)s[i]))
      return 0;
  }
  return s[I915_UAPI_UUID_LEN] == '\0';
}

int i915_flex_add_config(const struct kernel_ops *k, int fd, const char *uuid,
                         const uint32_t *pairs, size_t n, uint64_t *id) {
  if (!i915_flex_uuid_valid(uuid) || n == 0 || n > I915_FLEX_REGS)
    return -EINVAL;
  struct drm_i915_perf_oa_config c;
  memset(&c, 0, sizeof c);
  memcpy(c.uuid, uuid, sizeof c.uuid); /* no terminator in the ABI */
  c.n_flex_regs = (uint32_t)n;
  c.flex_regs_ptr = (uintptr_t)pairs;
  int rc = kernel_ioctl_retry(k, fd, DRM_IOCTL_I915_PERF_ADD_CONFIG, &c);
  if (rc < 0)
    return -errno;
  if (rc < 2)
    return -EPROTO; /* 0 is invalid, 1 the kernel's test config */
  *id = (uint64_t)rc;
  return 0;
}

int i915_flex_remove_config(const struct kernel_ops *k, int fd, uint64_t id) {
  uint64_t arg = id;
  if (kernel_ioctl_retry(k, fd, DRM_IOCTL_I915_PERF_REMOVE_CONFIG, &arg) < 0)
    return -errno;
  return 0;
}
