/*
 * oa_platform.h: Intel GPU platform from the PCI device id (GETPARAM
 * CHIPSET_ID), with what the OA plugin needs of it: graphics version,
 * default report format, reason width, EU threads and EU metric family.
 *
 * The table matches device ids by their high bits, the way the id blocks
 * of the kernel's include/drm/intel/pciids.h (i915_pciids.h before) are laid
 * out per platform (exact ids first where blocks share a prefix, e.g. Broxton's
 * 0x0A84 inside Haswell's 0x0Axx). An id outside every block is "unknown": its
 * streams are still read, with the format given by `Format`.
 */
#ifndef COMMON_I915_OA_PLATFORM_H
#define COMMON_I915_OA_PLATFORM_H

#include "common/i915/oa_metrics.h"

#include <stdbool.h>
#include <stdint.h>

struct oa_platform {
  const char *name;        /* "TGL", "unknown" */
  unsigned gfx_ver;        /* graphics version x 100: 750 HSW, 800, 900, 1100,
                            * 1200, 1255 DG2, 1270 MTL; 0 unknown */
  uint32_t default_format; /* drm_i915_oa_format; 0 unknown */
  uint32_t media_format;   /* OAM format of the video engines; 0: none */
  int gen12; /* reason field: 1 7-bit (Gen12), 0 6-bit, OA_REASON_NONE */
  uint32_t eu_threads; /* EuThreadsCount */
  enum oa_eu_family eu_family;
  uint64_t timestamp_hz; /* OA timestamp frequency of kernels without the
                          * GETPARAMs (HSW..CFL); 0 elsewhere */
};

/* Whether metric set `set` (a uuid, or igt's symbol name "RenderBasic" of
 * a recording) is platform `p`'s Render Basic set, whose EU equations
 * oa_metrics applies; false on platforms without EU equations. Pure. */
bool oa_platform_render_basic(const struct oa_platform *p, const char *set);

/* The platform of PCI device id `devid` (never NULL). */
const struct oa_platform *oa_platform_lookup(uint32_t devid);

#endif
