/*
 * i915_getparam.h: the identity of an i915 device through its uAPI
 * (i915_getparam.c: i915_getparam_ioctl; i915_query.c: query_topology_info):
 * GETPARAM and the topology QUERY,
 * every call through the kernel seam so the shim can stand in.
 */
#ifndef COMMON_I915_I915_GETPARAM_H
#define COMMON_I915_I915_GETPARAM_H

#include "common/core/kernel.h"

#include <stddef.h>
#include <stdint.h>

/* Largest topology blob accepted (a real one is well under 1 KiB). */
#define I915_GETPARAM_TOPOLOGY_MAX 65536

struct i915_identity {
  int perf_revision;        /* GETPARAM 54; 1 when the kernel lacks it */
  uint64_t oa_timestamp_hz; /* GETPARAM 57, fallback 51; 0 if neither */
  int oa_timestamp_param;   /* 57 or 51: which one answered; 0 none */
  uint32_t devid;           /* GETPARAM 4 (PCI device id) */
  uint32_t eu_total;        /* topology QUERY, fallback GETPARAM 34 */
  int eu_from_topology;     /* 1 when eu_total came from the QUERY */
};

/* GETPARAM `param` on `fd`: 0 with `*value` set, or -errno. */
int i915_getparam(const struct kernel_ops *k, int fd, int param, int *value);

/* The TOPOLOGY_INFO blob by the two-call pattern (size, then data):
 * 0 with `*blob` (owned, free()) and `*len` set, or -errno (the ioctl's,
 * or the negative item length the kernel wrote; -E2BIG above
 * I915_GETPARAM_TOPOLOGY_MAX; -ENOMEM). Outputs untouched on error. */
int i915_getparam_topology(const struct kernel_ops *k, int fd, void **blob,
                           size_t *len);

/* The number of EUs a topology blob enables (popcount of every enabled
 * slice/subslice's EU mask, i915_drm.h: drm_i915_query_topology_info): 0
 * with `*eus` set, or -EINVAL when an
 * offset or stride points outside the blob. Pure. */
int i915_getparam_topology_eus(const void *blob, size_t len, uint32_t *eus);

/* Everything in struct i915_identity. Fails (-errno) only when CHIPSET_ID
 * fails (not an i915 device, or gone); the rest falls back as documented
 * above. */
int i915_getparam_identity(const struct kernel_ops *k, int fd,
                           struct i915_identity *out);

#endif
