/* oa_platform.c: device-id blocks to platforms (see oa_platform.h). */
#include "common/i915/oa_platform.h"

#include <stddef.h>

/* drm_i915_oa_format values used as defaults (sheet §4) */
enum {
  FMT_A45_B8_C8 = 5,
  FMT_A32u40 = 10,
  FMT_A24u40 = 12,
};

static const struct oa_platform HSW = {"HSW", 750, FMT_A45_B8_C8,
                                       0,     7,   OA_EU_NONE};
static const struct oa_platform BDW = {"BDW", 800, FMT_A32u40,
                                       0,     7,   OA_EU_GEN8};
static const struct oa_platform CHV = {"CHV", 800, FMT_A32u40,
                                       0,     7,   OA_EU_NONE};
static const struct oa_platform SKL = {"SKL", 900, FMT_A32u40,
                                       0,     7,   OA_EU_GEN8};
static const struct oa_platform BXT = {"BXT", 900, FMT_A32u40,
                                       0,     7,   OA_EU_NONE};
static const struct oa_platform GLK = {"GLK", 900, FMT_A32u40,
                                       0,     7,   OA_EU_NONE};
static const struct oa_platform KBL = {"KBL", 900, FMT_A32u40,
                                       0,     7,   OA_EU_GEN8};
static const struct oa_platform CFL = {"CFL", 900, FMT_A32u40,
                                       0,     7,   OA_EU_GEN8};
static const struct oa_platform CML = {"CML", 900, FMT_A32u40,
                                       0,     7,   OA_EU_GEN8};
static const struct oa_platform ICL = {"ICL", 1100, FMT_A32u40,
                                       0,     7,    OA_EU_NONE};
static const struct oa_platform EHL = {"EHL", 1100, FMT_A32u40,
                                       0,     7,    OA_EU_NONE};
static const struct oa_platform TGL = {"TGL", 1200, FMT_A32u40,
                                       1,     7,    OA_EU_GEN12};
static const struct oa_platform RKL = {"RKL", 1200, FMT_A32u40,
                                       1,     7,    OA_EU_NONE};
static const struct oa_platform DG1 = {"DG1", 1200, FMT_A32u40,
                                       1,     7,    OA_EU_NONE};
static const struct oa_platform ADL = {"ADL", 1200, FMT_A32u40,
                                       1,     7,    OA_EU_GEN12};
static const struct oa_platform DG2 = {"DG2", 1255, FMT_A24u40,
                                       1,     8,    OA_EU_XVE};
static const struct oa_platform MTL = {"MTL", 1270, FMT_A24u40,
                                       1,     8,    OA_EU_NONE};
static const struct oa_platform UNKNOWN = {"unknown", 0, 0, 1, 0, OA_EU_NONE};

struct id_block {
  uint32_t mask, value;
  const struct oa_platform *platform;
};

/* First match wins: exact ids, then narrow blocks, then wide ones. */
static const struct id_block blocks[] = {
    {0xFFFF, 0x0A84, &BXT}, {0xFFFE, 0x1A84, &BXT}, {0xFFFE, 0x5A84, &BXT},
    {0xFFFE, 0x3184, &GLK}, {0xFFFF, 0x87C0, &KBL}, {0xFFFF, 0x87CA, &CFL},
    {0xFFFC, 0x22B0, &CHV}, {0xFFF0, 0x3E90, &CFL}, {0xFFF0, 0x3EA0, &CFL},
    {0xFFF0, 0x4C80, &RKL}, {0xFFF0, 0x4900, &DG1}, {0xFFF0, 0x4680, &ADL},
    {0xFFF0, 0x4690, &ADL}, {0xFFF0, 0x4620, &ADL}, {0xFFF0, 0x46A0, &ADL},
    {0xFFF0, 0x46B0, &ADL}, {0xFFF0, 0x46C0, &ADL}, {0xFFF0, 0x46D0, &ADL},
    {0xFFF0, 0xA780, &ADL}, {0xFFF0, 0xA7A0, &ADL}, {0xFF00, 0x0400, &HSW},
    {0xFF00, 0x0A00, &HSW}, {0xFF00, 0x0C00, &HSW}, {0xFF00, 0x0D00, &HSW},
    {0xFF00, 0x1600, &BDW}, {0xFF00, 0x1900, &SKL}, {0xFF00, 0x5900, &KBL},
    {0xFF00, 0x9B00, &CML}, {0xFF00, 0x8A00, &ICL}, {0xFF00, 0x4500, &EHL},
    {0xFF00, 0x4E00, &EHL}, {0xFF00, 0x9A00, &TGL}, {0xFF00, 0x5600, &DG2},
    {0xFF00, 0x7D00, &MTL},
};

const struct oa_platform *oa_platform_lookup(uint32_t devid) {
  for (size_t i = 0; i < sizeof blocks / sizeof blocks[0]; i++)
    if ((devid & blocks[i].mask) == blocks[i].value)
      return blocks[i].platform;
  return &UNKNOWN;
}
