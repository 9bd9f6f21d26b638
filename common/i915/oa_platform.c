/* oa_platform.c: device-id blocks to platforms (see oa_platform.h). */
#include "common/i915/oa_platform.h"
#include "common/i915/i915_uapi.h"
#include "common/i915/oa_accum.h"

#include <stddef.h>
#include <string.h>
#include <strings.h>

/* The OA timestamp frequencies of kernels older than
 * I915_PARAM_CS_TIMESTAMP_FREQUENCY (Linux 4.16), which supported HSW to
 * CFL only: i915_perf.c: i915_perf_init of those kernels set 12.5 MHz on
 * HSW and Gen8, 12 MHz on SKL and KBL (and CFL, a Gen9 part), 19.2 MHz on
 * BXT and GLK. Newer platforms need newer kernels, which answer the
 * GETPARAM. */
#define PLATFORM(var, nm, ver, fmt, reasons, threads, family, hz)              \
  static const struct oa_platform var = {.name = nm,                           \
                                         .gfx_ver = ver,                       \
                                         .default_format = fmt,                \
                                         .gen12 = reasons,                     \
                                         .eu_threads = threads,                \
                                         .eu_family = family,                  \
                                         .timestamp_hz = hz}

/* HSW reports carry no reason field (i915_perf.c: gen7_append_oa_reports
 * treats report dword 0 as undocumented flags; only Gen8+ has the reason,
 * gen8_append_oa_reports, 7 bits on graphics version 12) */
PLATFORM(HSW, "HSW", 750, I915_OA_FORMAT_A45_B8_C8, OA_REASON_NONE, 7,
         OA_EU_NONE, 12500000);
PLATFORM(BDW, "BDW", 800, I915_OA_FORMAT_A32u40_A4u32_B8_C8, 0, 7, OA_EU_GEN8,
         12500000);
PLATFORM(CHV, "CHV", 800, I915_OA_FORMAT_A32u40_A4u32_B8_C8, 0, 7, OA_EU_NONE,
         12500000);
PLATFORM(SKL, "SKL", 900, I915_OA_FORMAT_A32u40_A4u32_B8_C8, 0, 7, OA_EU_GEN8,
         12000000);
PLATFORM(BXT, "BXT", 900, I915_OA_FORMAT_A32u40_A4u32_B8_C8, 0, 7, OA_EU_NONE,
         19200000);
PLATFORM(GLK, "GLK", 900, I915_OA_FORMAT_A32u40_A4u32_B8_C8, 0, 7, OA_EU_NONE,
         19200000);
PLATFORM(KBL, "KBL", 900, I915_OA_FORMAT_A32u40_A4u32_B8_C8, 0, 7, OA_EU_GEN8,
         12000000);
PLATFORM(CFL, "CFL", 900, I915_OA_FORMAT_A32u40_A4u32_B8_C8, 0, 7, OA_EU_GEN8,
         12000000);
PLATFORM(CML, "CML", 900, I915_OA_FORMAT_A32u40_A4u32_B8_C8, 0, 7, OA_EU_GEN8,
         0);
PLATFORM(ICL, "ICL", 1100, I915_OA_FORMAT_A32u40_A4u32_B8_C8, 0, 7, OA_EU_NONE,
         0);
PLATFORM(EHL, "EHL", 1100, I915_OA_FORMAT_A32u40_A4u32_B8_C8, 0, 7, OA_EU_NONE,
         0);
PLATFORM(TGL, "TGL", 1200, I915_OA_FORMAT_A32u40_A4u32_B8_C8, 1, 7, OA_EU_GEN12,
         0);
PLATFORM(RKL, "RKL", 1200, I915_OA_FORMAT_A32u40_A4u32_B8_C8, 1, 7, OA_EU_NONE,
         0);
PLATFORM(DG1, "DG1", 1200, I915_OA_FORMAT_A32u40_A4u32_B8_C8, 1, 7, OA_EU_NONE,
         0);
PLATFORM(ADL, "ADL", 1200, I915_OA_FORMAT_A32u40_A4u32_B8_C8, 1, 7, OA_EU_GEN12,
         0);
PLATFORM(DG2, "DG2", 1255, I915_UAPI_OA_FORMAT_A24u40_A14u32_B8_C8, 1, 8,
         OA_EU_XVE, 0);
/* MTL: the media GT's OAM unit takes the OAM formats
 * (i915_perf.c: oa_init_supported_formats, oa_init_groups) */
static const struct oa_platform MTL = {
    .name = "MTL",
    .gfx_ver = 1270,
    .default_format = I915_UAPI_OA_FORMAT_A24u40_A14u32_B8_C8,
    .media_format = I915_UAPI_OAM_FORMAT_MPEC8u64_B8_C8,
    .gen12 = 1,
    .eu_threads = 8,
    .eu_family = OA_EU_NONE};
static const struct oa_platform UNKNOWN = {.name = "unknown", .gen12 = 1};

struct id_block {
  uint32_t mask, value;
  const struct oa_platform *platform;
};

/* First match wins: exact ids, then narrow blocks, then wide ones. The
 * blocks follow the id lists of include/drm/intel/pciids.h (i915_pciids.h
 * in older trees); RPL-P and RPL-U (INTEL_RPLP_IDS, INTEL_RPLU_IDS) are
 * ADL-P parts to i915 (intel_device_info.c: subplatform_rpl_ids) and
 * have ids outside the ADL blocks: 0xA720, 0xA721. */
static const struct id_block blocks[] = {
    {0xFFFF, 0x0A84, &BXT}, {0xFFFE, 0x1A84, &BXT}, {0xFFFE, 0x5A84, &BXT},
    {0xFFFE, 0x3184, &GLK}, {0xFFFF, 0x87C0, &KBL}, {0xFFFF, 0x87CA, &CFL},
    {0xFFFE, 0xA720, &ADL}, {0xFFFC, 0x22B0, &CHV}, {0xFFF0, 0x3E90, &CFL},
    {0xFFF0, 0x3EA0, &CFL}, {0xFFF0, 0x4C80, &RKL}, {0xFFF0, 0x4900, &DG1},
    {0xFFF0, 0x4680, &ADL}, {0xFFF0, 0x4690, &ADL}, {0xFFF0, 0x4620, &ADL},
    {0xFFF0, 0x46A0, &ADL}, {0xFFF0, 0x46B0, &ADL}, {0xFFF0, 0x46C0, &ADL},
    {0xFFF0, 0x46D0, &ADL}, {0xFFF0, 0xA780, &ADL}, {0xFFF0, 0xA7A0, &ADL},
    {0xFF00, 0x0400, &HSW}, {0xFF00, 0x0A00, &HSW}, {0xFF00, 0x0C00, &HSW},
    {0xFF00, 0x0D00, &HSW}, {0xFF00, 0x1600, &BDW}, {0xFF00, 0x1900, &SKL},
    {0xFF00, 0x5900, &KBL}, {0xFF00, 0x9B00, &CML}, {0xFF00, 0x8A00, &ICL},
    {0xFF00, 0x4500, &EHL}, {0xFF00, 0x4E00, &EHL}, {0xFF00, 0x9A00, &TGL},
    {0xFF00, 0x5600, &DG2}, {0xFF00, 0x7D00, &MTL},
};

/* The "Render Metrics Basic" set of each platform with EU equations, by
 * its hw_config_guid: the sets igt's libi915_perf (lib/i915/perf.c,
 * intel_perf_for_devinfo, from lib/i915/perf-configs/oa-*.xml, ids
 * registered in guids.xml) builds for the platform's GT variants, whose
 * equations oa_metrics.c follows and i915-perf-reader checks. */
static const struct {
  const char *uuid;
  const struct oa_platform *platform;
} render_basic[] = {
    {"b541bd57-0e0f-4154-b4c0-5858010a2bf7", &BDW},
    {"07b25942-d9fd-4fce-bd58-e29abd66b7de", &SKL}, /* GT2 */
    {"21fef15a-83f4-4ffa-bb81-7da6e38b8e4b", &SKL}, /* GT3 */
    {"95322a71-bb05-4437-bc27-f7dd7b27d136", &SKL}, /* GT4 */
    {"99c1a40e-a090-4354-86e3-4d068bb1917e", &KBL}, /* GT2 */
    {"17b4f3e0-d578-4ae3-b7a8-98d756d1e0df", &KBL}, /* GT3 */
    {"7fa796a4-0c7a-4201-afc6-cff0b2f528a2", &CFL}, /* GT2 */
    {"b316bcab-212f-4228-97de-af6b5a1a2ea1", &CFL}, /* GT3 */
    {"7fa796a4-0c7a-4201-afc6-cff0b2f528a2", &CML}, /* CFL GT2's set */
    {"0fc397c0-4833-492c-9ccd-4929d574d5b8", &TGL}, /* GT2 */
    {"c17af13d-3953-432b-9bd1-81346b4c2092", &TGL}, /* GT1 */
    {"4b886bf3-61ff-4381-9994-ac9b91202fc7", &ADL}, /* and RPL */
    {"47b237c5-ed48-465b-b869-0d7ef59a6982", &DG2}, /* ACM G10 */
    {"f5b8f05e-c84c-4f1c-bb05-68fbea73879b", &DG2}, /* ACM G11 */
};

bool oa_platform_render_basic(const struct oa_platform *p, const char *set) {
  if (p->eu_family == OA_EU_NONE || set == NULL)
    return false;
  /* a recording's metric set may be known by igt's symbol name only */
  if (strcmp(set, "RenderBasic") == 0)
    return true;
  for (size_t i = 0; i < sizeof render_basic / sizeof render_basic[0]; i++)
    if (render_basic[i].platform == p &&
        strcasecmp(render_basic[i].uuid, set) == 0)
      return true;
  return false;
}

const struct oa_platform *oa_platform_lookup(uint32_t devid) {
  for (size_t i = 0; i < sizeof blocks / sizeof blocks[0]; i++)
    if ((devid & blocks[i].mask) == blocks[i].value)
      return blocks[i].platform;
  return &UNKNOWN;
}
