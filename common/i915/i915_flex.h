/*
 * i915_flex.h: the EU_PERF_CNTL ("flex", PM register) configs of i915
 * perf (i915_perf.c: i915_perf_add_config_ioctl; pti-gpu's PerfMonReg flow):
 * selector values, the config uuid, and ADD/REMOVE_CONFIG through the kernel
 * seam.
 *
 * Each of the seven EU_PERF_CNTL registers holds two 12-bit selectors
 * (bits 11:0 and 23:12); register r's pair feeds the 40-bit A counters
 * A(7 + 2r) and A(8 + 2r). Selector bits: 3:0 event, 7:4 shader filter,
 * 11:8 EU-row filter (inferred from igt's metric XML, not from a PRM).
 */
#ifndef COMMON_I915_I915_FLEX_H
#define COMMON_I915_I915_FLEX_H

#include "common/core/kernel.h"
#include "common/i915/i915_uapi.h"

#include <stddef.h>
#include <stdint.h>

#define I915_FLEX_REGS 7      /* EU_PERF_CNTL0..6 */
#define I915_FLEX_COUNTERS 14 /* A7..A20 */
#define I915_FLEX_FIRST_A 7
#define I915_FLEX_UUID_SIZE (I915_UAPI_UUID_LEN + 1) /* and a NUL */

/* EU_PERF_CNTL0..6 in the kernel's whitelist order. */
extern const uint32_t i915_flex_addr[I915_FLEX_REGS];

/* The 12-bit selector of (event 0..15, shader filter 0..15, EU-row filter
 * 0..15), or -EINVAL when a field is out of range. Pure. */
int32_t i915_flex_selector(unsigned event, unsigned shader, unsigned row);

/* The A counter (7..20) that selector slot `slot` (0..13: register slot/2,
 * low half when even) feeds. */
static inline unsigned i915_flex_counter(unsigned slot) {
  return I915_FLEX_FIRST_A + slot;
}

/* One FlexEvent: a 12-bit selector (one A counter), or a raw 32-bit
 * EU_PERF_CNTL value (a whole register: two A counters). */
struct i915_flex_event {
  int raw;        /* 1: `value` is a whole register value */
  uint32_t value; /* selector (0..0xFFF), or the raw register value */
};

/* Lay `n` events out over EU_PERF_CNTL0..6 in order: a selector takes the
 * next free half (low, then high), a raw value the next whole register.
 * Writes the (address, value) pairs of every register used to `pairs`
 * (2 * I915_FLEX_REGS u32) and their number to `*n_regs`, and event i's
 * first A counter to `counter[i]` (7..20; a raw event also feeds the next
 * one). A half left unused is 0. 0, -EINVAL (a selector above 0xFFF), or
 * -E2BIG (more than 14 counters). Pure; outputs untouched on error. */
int i915_flex_build(const struct i915_flex_event *ev, size_t n, uint32_t *pairs,
                    size_t *n_regs, unsigned *counter);

/* Whether `addr` is one of the seven flex registers. */
int i915_flex_addr_valid(uint32_t addr);

/* The uuid of a config made of `n` (address, value) pairs at `pairs`
 * (2n u32): a stable 64-bit FNV-1a hash of every byte of every pair,
 * stretched to 128 bits and printed 8-4-4-4-12 in lower-case hex, so any
 * change of any bit of any address or value (0x005 vs 0x105) gives
 * another uuid. `out` gets 36 characters and a NUL. Pure. */
void i915_flex_uuid(const uint32_t *pairs, size_t n,
                    char out[I915_FLEX_UUID_SIZE]);

/* Whether `s` has the kernel's uuid syntax (8-4-4-4-12 hex digits). */
int i915_flex_uuid_valid(const char *s);

/* DRM_IOCTL_I915_PERF_ADD_CONFIG with `n` flex pairs only (no mux, no
 * boolean registers) under `uuid`: 0 with `*id` set, or -errno
 * (-EADDRINUSE: that uuid is registered; resolve it through sysfs). */
int i915_flex_add_config(const struct kernel_ops *k, int fd, const char *uuid,
                         const uint32_t *pairs, size_t n, uint64_t *id);

/* DRM_IOCTL_I915_PERF_REMOVE_CONFIG of `id`: 0 or -errno. */
int i915_flex_remove_config(const struct kernel_ops *k, int fd, uint64_t id);

#endif
