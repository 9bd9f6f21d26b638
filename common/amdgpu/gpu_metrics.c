/*
 * gpu_metrics.c: amdgpu's gpu_metrics tables decoded (gpu_metrics.h).
 *
 * One table per layout lists the fields we report: where each is
 * (offsetof our copy of the kernel struct, gpu_metrics_layout.h), how wide,
 * how many (arrays become sensors "<name><i>"), what it is and the factor
 * to its base unit. The units, per layout family, from the kernel:
 *
 *  - v1.0 .. v1.3 (dGPUs): the header states none. The producers copy the
 *    firmware's fields, which the same drivers' hwmon path reads as degrees
 *    Celsius, watts, percent, MHz and RPM (navi10_ppt.c:
 *    navi10_get_smu_metrics_data multiplies TemperatureEdge by
 *    SMU_TEMPERATURE_UNITS_PER_CENTIGRADES for millidegrees;
 *    navi10_get_gpu_metrics copies it as it is). The energy accumulator has
 *    no unit in these layouts: its count is decoded, no joules are given.
 *    voltage_* (v1.3): mV, stated.
 *  - v1.4 .. v1.8 (smu_v13_0_6): stated in the header: Celsius, watts, %,
 *    MHz, energy in 15.259 uJ (2^-16 J) units.
 *  - v2.0 .. v2.4 (APUs): v2_4 states centi-Celsius, centi-percent, mW,
 *    MHz and mV; v2.0 .. v2.3 come from the same firmware fields
 *    (renoir_ppt.c: renoir_get_gpu_metrics copies GfxTemperature and
 *    AverageGfxActivity, which renoir_get_smu_metrics_data divides by 100).
 *    fan_pwm has no unit anywhere and is not reported.
 *  - v3.0 (smu_v14_0_0): power mW and clocks MHz as stated; temperatures
 *    centi-Celsius although the header states no unit:
 *    smu_v14_0_0_get_gpu_metrics copies GfxTemperature, which
 *    smu_v14_0_0_get_smu_metrics_data divides by 100, as it does
 *    VcnActivity (centi-percent). GfxActivity is centi-percent only up to
 *    SMC firmware 0x5d4600 and percent after ("drm/amd/swsmu: modify the
 *    gfx activity scaling": smu_v14_0_0_get_smu_metrics_data divides it by
 *    100 only when smc_fw_version <= 0x5d4600), so its scale comes from
 *    the caller's SMC version, and without one it is left out. IpuBusy
 *    and CoreC0Residency are copied as they are and are percent, 0..100,
 *    as the header says ("% [0-100]"): not divided.
 *  - v1.9 (smu_v13_0_6 on current kernels): a list of attributes that
 *    carry their own unit and type (gpu_metrics_attrs.c).
 *
 * Pure: no I/O, no allocation, no globals but the constant tables.
 */
#include "common/amdgpu/gpu_metrics.h"

#include "common/amdgpu/gpu_metrics_int.h"
#include "common/amdgpu/gpu_metrics_layout.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* ---- every size and the offsets read, as worked out from the kernel
 * structs (natural alignment: u64 on 8 bytes) ---- */
#define GML_SIZE(s, n) _Static_assert(sizeof(struct s) == (n), #s " size")
#define GML_OFF(s, f, n)                                                       \
  _Static_assert(offsetof(struct s, f) == (n), #s "." #f " offset")
GML_SIZE(gml_header, 4);
GML_SIZE(gml_v1_0, 80);
GML_SIZE(gml_v1_1, 96);
GML_SIZE(gml_v1_2, 104);
GML_SIZE(gml_v1_3, 120);
GML_SIZE(gml_v1_4, 288);
GML_SIZE(gml_v1_5, 360);
GML_SIZE(gml_v1_6a, 384);
GML_SIZE(gml_xcp_v1_0, 168);
GML_SIZE(gml_xcp_v1_1, 232);
GML_SIZE(gml_xcp_v1_2, 440);
GML_SIZE(gml_v1_6, 1664);
GML_SIZE(gml_v1_7, 2208);
GML_SIZE(gml_v1_8, 3872);
GML_SIZE(gml_v2_0, 120);
GML_SIZE(gml_v2_1, 120);
GML_SIZE(gml_v2_2, 128);
GML_SIZE(gml_v2_3, 152);
GML_SIZE(gml_v2_4, 168);
GML_SIZE(gml_v3_0, 264);
GML_OFF(gml_v1_0, system_clock_counter, 8);
GML_OFF(gml_v1_0, energy_accumulator, 36);
GML_OFF(gml_v1_0, throttle_status, 68);
GML_OFF(gml_v1_0, current_fan_speed, 72);
GML_OFF(gml_v1_1, energy_accumulator, 24);
GML_OFF(gml_v1_1, average_gfxclk_frequency, 40);
GML_OFF(gml_v1_1, temperature_hbm, 88);
GML_OFF(gml_v1_3, voltage_soc, 104);
GML_OFF(gml_v1_3, indep_throttle_status, 112);
GML_OFF(gml_v1_4, energy_accumulator, 24);
GML_OFF(gml_v1_4, throttle_status, 40);
GML_OFF(gml_v1_4, current_gfxclk, 240);
GML_OFF(gml_v1_4, current_uclk, 280);
GML_OFF(gml_v1_5, energy_accumulator, 88);
GML_OFF(gml_v1_5, throttle_status, 104);
GML_OFF(gml_v1_5, current_gfxclk, 312);
GML_OFF(gml_v1_6a, throttle_status, 128);
GML_OFF(gml_v1_6a, current_gfxclk, 336);
GML_OFF(gml_v1_6, energy_accumulator, 16);
GML_OFF(gml_v1_6, current_gfxclk, 264);
GML_OFF(gml_v1_6, xcp_stats, 312);
GML_OFF(gml_v1_7, energy_accumulator, 24);
GML_OFF(gml_v1_7, current_gfxclk, 296);
GML_OFF(gml_v1_7, xcp_stats, 344);
GML_OFF(gml_v1_8, xcp_stats, 344);
GML_OFF(gml_v2_0, temperature_gfx, 16);
GML_OFF(gml_v2_0, current_coreclk, 92);
GML_OFF(gml_v2_0, throttle_status, 112);
GML_OFF(gml_v2_1, system_clock_counter, 32);
GML_OFF(gml_v2_1, average_socket_power, 40);
GML_OFF(gml_v2_1, throttle_status, 108);
GML_OFF(gml_v2_2, indep_throttle_status, 120);
GML_OFF(gml_v2_3, average_temperature_gfx, 128);
GML_OFF(gml_v2_4, average_cpu_voltage, 152);
GML_OFF(gml_v3_0, average_gfx_activity, 42);
GML_OFF(gml_v3_0, system_clock_counter, 104);
GML_OFF(gml_v3_0, average_socket_power, 112);
GML_OFF(gml_v3_0, average_apu_power, 120);
GML_OFF(gml_v3_0, average_core_power, 136);
GML_OFF(gml_v3_0, current_stapm_power_limit, 172);
GML_OFF(gml_v3_0, average_gfxclk_frequency, 174);
GML_OFF(gml_v3_0, current_coreclk, 190);
GML_OFF(gml_v3_0, current_gfx_maxfreq, 224);

/* ---- the tables ---- */

struct gm_field {
  uint16_t off;
  uint8_t width; /* bytes of one element: 2 or 4 */
  uint8_t count; /* elements: 1, or an array's length */
  uint8_t kind;  /* enum gpu_metrics_kind */
  const char *sensor;
  double scale; /* raw * scale = base unit */
  /* GM_SMC_GFX: the scale is the SMC firmware's (v3.0 gfx activity) */
  uint8_t flags;
};
#define GM_SMC_GFX 1u

#define MEMBER_SIZE(s, f) sizeof(((struct s *)0)->f)
#define F(s, f, k, name, sc)                                                   \
  { offsetof(struct s, f), MEMBER_SIZE(s, f), 1, k, name, sc, 0 }
#define A(s, f, k, name, sc)                                                   \
  {                                                                            \
    offsetof(struct s, f), MEMBER_SIZE(s, f[0]),                               \
        MEMBER_SIZE(s, f) / MEMBER_SIZE(s, f[0]), k, name, sc, 0               \
  }

#define MHZ 1e6
#define CELSIUS GPU_METRICS_CELSIUS
#define AVG_CELSIUS GPU_METRICS_AVERAGE_CELSIUS
#define WATTS GPU_METRICS_POWER_WATTS
#define CUR_WATTS GPU_METRICS_CURRENT_WATTS
#define CAP_WATTS GPU_METRICS_POWER_CAP_WATTS
#define BUSY GPU_METRICS_BUSY_PERCENT
#define AVG_HZ GPU_METRICS_AVERAGE_HZ
#define ACT_HZ GPU_METRICS_ACTUAL_HZ
#define MAX_HZ GPU_METRICS_MAX_HZ
#define RPM GPU_METRICS_FAN_RPM
#define VOLTS GPU_METRICS_VOLTS

/* v1.0 .. v1.3 share names and units (degrees, W, %, MHz, RPM) */
#define GM_V1_COMMON(s)                                                        \
  F(s, temperature_edge, CELSIUS, "edge", 1),                                  \
      F(s, temperature_hotspot, CELSIUS, "hotspot", 1),                        \
      F(s, temperature_mem, CELSIUS, "mem", 1),                                \
      F(s, temperature_vrgfx, CELSIUS, "vrgfx", 1),                            \
      F(s, temperature_vrsoc, CELSIUS, "vrsoc", 1),                            \
      F(s, temperature_vrmem, CELSIUS, "vrmem", 1),                            \
      F(s, average_gfx_activity, BUSY, "gfx", 1),                              \
      F(s, average_umc_activity, BUSY, "umc", 1),                              \
      F(s, average_mm_activity, BUSY, "mm", 1),                                \
      F(s, average_socket_power, WATTS, "socket", 1),                          \
      F(s, average_gfxclk_frequency, AVG_HZ, "gfxclk", MHZ),                   \
      F(s, average_socclk_frequency, AVG_HZ, "socclk", MHZ),                   \
      F(s, average_uclk_frequency, AVG_HZ, "uclk", MHZ),                       \
      F(s, average_vclk0_frequency, AVG_HZ, "vclk0", MHZ),                     \
      F(s, average_dclk0_frequency, AVG_HZ, "dclk0", MHZ),                     \
      F(s, average_vclk1_frequency, AVG_HZ, "vclk1", MHZ),                     \
      F(s, average_dclk1_frequency, AVG_HZ, "dclk1", MHZ),                     \
      F(s, current_gfxclk, ACT_HZ, "gfxclk", MHZ),                             \
      F(s, current_socclk, ACT_HZ, "socclk", MHZ),                             \
      F(s, current_uclk, ACT_HZ, "uclk", MHZ),                                 \
      F(s, current_vclk0, ACT_HZ, "vclk0", MHZ),                               \
      F(s, current_dclk0, ACT_HZ, "dclk0", MHZ),                               \
      F(s, current_vclk1, ACT_HZ, "vclk1", MHZ),                               \
      F(s, current_dclk1, ACT_HZ, "dclk1", MHZ),                               \
      F(s, current_fan_speed, RPM, "fan", 1)

static const struct gm_field gm_v1_0[] = {GM_V1_COMMON(gml_v1_0)};
static const struct gm_field gm_v1_1[] = {
    GM_V1_COMMON(gml_v1_1), A(gml_v1_1, temperature_hbm, CELSIUS, "hbm", 1)};
static const struct gm_field gm_v1_2[] = {
    GM_V1_COMMON(gml_v1_2), A(gml_v1_2, temperature_hbm, CELSIUS, "hbm", 1)};
static const struct gm_field gm_v1_3[] = {
    GM_V1_COMMON(gml_v1_3), A(gml_v1_3, temperature_hbm, CELSIUS, "hbm", 1),
    F(gml_v1_3, voltage_soc, VOLTS, "soc", 1e-3),
    F(gml_v1_3, voltage_gfx, VOLTS, "gfx", 1e-3),
    F(gml_v1_3, voltage_mem, VOLTS, "mem", 1e-3)};

/* v1.4 .. v1.8: Celsius, W, %, MHz; clocks per instance */
#define GM_V1_4_COMMON(s)                                                      \
  F(s, temperature_hotspot, CELSIUS, "hotspot", 1),                            \
      F(s, temperature_mem, CELSIUS, "mem", 1),                                \
      F(s, temperature_vrsoc, CELSIUS, "vrsoc", 1),                            \
      F(s, curr_socket_power, CUR_WATTS, "socket", 1),                         \
      F(s, average_gfx_activity, BUSY, "gfx", 1),                              \
      F(s, average_umc_activity, BUSY, "umc", 1),                              \
      A(s, current_gfxclk, ACT_HZ, "gfxclk", MHZ),                             \
      A(s, current_socclk, ACT_HZ, "socclk", MHZ),                             \
      A(s, current_vclk0, ACT_HZ, "vclk", MHZ),                                \
      A(s, current_dclk0, ACT_HZ, "dclk", MHZ),                                \
      F(s, current_uclk, ACT_HZ, "uclk", MHZ)

static const struct gm_field gm_v1_4[] = {
    GM_V1_4_COMMON(gml_v1_4), A(gml_v1_4, vcn_activity, BUSY, "vcn", 1)};
static const struct gm_field gm_v1_5[] = {
    GM_V1_4_COMMON(gml_v1_5), A(gml_v1_5, vcn_activity, BUSY, "vcn", 1),
    A(gml_v1_5, jpeg_activity, BUSY, "jpeg", 1)};
static const struct gm_field gm_v1_6a[] = {
    GM_V1_4_COMMON(gml_v1_6a), A(gml_v1_6a, vcn_activity, BUSY, "vcn", 1),
    A(gml_v1_6a, jpeg_activity, BUSY, "jpeg", 1)};
static const struct gm_field gm_v1_6[] = {GM_V1_4_COMMON(gml_v1_6)};
static const struct gm_field gm_v1_7[] = {GM_V1_4_COMMON(gml_v1_7)};
static const struct gm_field gm_v1_8[] = {GM_V1_4_COMMON(gml_v1_8)};

/* v2.x: centi-Celsius, centi-percent, mW, MHz */
#define GM_V2_COMMON(s)                                                        \
  F(s, temperature_gfx, CELSIUS, "gfx", 0.01),                                 \
      F(s, temperature_soc, CELSIUS, "soc", 0.01),                             \
      A(s, temperature_core, CELSIUS, "core", 0.01),                           \
      A(s, temperature_l3, CELSIUS, "l3_", 0.01),                              \
      F(s, average_gfx_activity, BUSY, "gfx", 0.01),                           \
      F(s, average_mm_activity, BUSY, "mm", 0.01),                             \
      F(s, average_socket_power, WATTS, "socket", 1e-3),                       \
      F(s, average_cpu_power, WATTS, "cpu", 1e-3),                             \
      F(s, average_soc_power, WATTS, "soc", 1e-3),                             \
      F(s, average_gfx_power, WATTS, "gfx", 1e-3),                             \
      A(s, average_core_power, WATTS, "core", 1e-3),                           \
      F(s, average_gfxclk_frequency, AVG_HZ, "gfxclk", MHZ),                   \
      F(s, average_socclk_frequency, AVG_HZ, "socclk", MHZ),                   \
      F(s, average_uclk_frequency, AVG_HZ, "uclk", MHZ),                       \
      F(s, average_fclk_frequency, AVG_HZ, "fclk", MHZ),                       \
      F(s, average_vclk_frequency, AVG_HZ, "vclk", MHZ),                       \
      F(s, average_dclk_frequency, AVG_HZ, "dclk", MHZ),                       \
      F(s, current_gfxclk, ACT_HZ, "gfxclk", MHZ),                             \
      F(s, current_socclk, ACT_HZ, "socclk", MHZ),                             \
      F(s, current_uclk, ACT_HZ, "uclk", MHZ),                                 \
      F(s, current_fclk, ACT_HZ, "fclk", MHZ),                                 \
      F(s, current_vclk, ACT_HZ, "vclk", MHZ),                                 \
      F(s, current_dclk, ACT_HZ, "dclk", MHZ),                                 \
      A(s, current_coreclk, ACT_HZ, "core", MHZ),                              \
      A(s, current_l3clk, ACT_HZ, "l3_", MHZ)
#define GM_V2_3_AVG(s)                                                         \
  F(s, average_temperature_gfx, AVG_CELSIUS, "gfx", 0.01),                     \
      F(s, average_temperature_soc, AVG_CELSIUS, "soc", 0.01),                 \
      A(s, average_temperature_core, AVG_CELSIUS, "core", 0.01),               \
      A(s, average_temperature_l3, AVG_CELSIUS, "l3_", 0.01)

static const struct gm_field gm_v2_0[] = {GM_V2_COMMON(gml_v2_0)};
static const struct gm_field gm_v2_1[] = {GM_V2_COMMON(gml_v2_1)};
static const struct gm_field gm_v2_2[] = {GM_V2_COMMON(gml_v2_2)};
static const struct gm_field gm_v2_3[] = {GM_V2_COMMON(gml_v2_3),
                                          GM_V2_3_AVG(gml_v2_3)};
static const struct gm_field gm_v2_4[] = {
    GM_V2_COMMON(gml_v2_4), GM_V2_3_AVG(gml_v2_4),
    F(gml_v2_4, average_cpu_voltage, VOLTS, "cpu", 1e-3),
    F(gml_v2_4, average_soc_voltage, VOLTS, "soc", 1e-3),
    F(gml_v2_4, average_gfx_voltage, VOLTS, "gfx", 1e-3)};

static const struct gm_field gm_v3_0[] = {
    F(gml_v3_0, temperature_gfx, CELSIUS, "gfx", 0.01),
    F(gml_v3_0, temperature_soc, CELSIUS, "soc", 0.01),
    A(gml_v3_0, temperature_core, CELSIUS, "core", 0.01),
    F(gml_v3_0, temperature_skin, CELSIUS, "skin", 0.01),
    {offsetof(struct gml_v3_0, average_gfx_activity), 2, 1, BUSY, "gfx", 0,
     GM_SMC_GFX},
    F(gml_v3_0, average_vcn_activity, BUSY, "vcn", 0.01),
    A(gml_v3_0, average_ipu_activity, BUSY, "ipu", 1),
    A(gml_v3_0, average_core_c0_activity, BUSY, "core", 1),
    F(gml_v3_0, average_socket_power, WATTS, "socket", 1e-3),
    F(gml_v3_0, average_ipu_power, WATTS, "ipu", 1e-3),
    F(gml_v3_0, average_apu_power, WATTS, "apu", 1e-3),
    F(gml_v3_0, average_gfx_power, WATTS, "gfx", 1e-3),
    F(gml_v3_0, average_dgpu_power, WATTS, "dgpu", 1e-3),
    F(gml_v3_0, average_all_core_power, WATTS, "all_cores", 1e-3),
    A(gml_v3_0, average_core_power, WATTS, "core", 1e-3),
    F(gml_v3_0, average_sys_power, WATTS, "sys", 1e-3),
    F(gml_v3_0, current_stapm_power_limit, CAP_WATTS, "socket", 1e-3),
    F(gml_v3_0, average_gfxclk_frequency, AVG_HZ, "gfxclk", MHZ),
    F(gml_v3_0, average_socclk_frequency, AVG_HZ, "socclk", MHZ),
    F(gml_v3_0, average_vpeclk_frequency, AVG_HZ, "vpeclk", MHZ),
    F(gml_v3_0, average_ipuclk_frequency, AVG_HZ, "ipuclk", MHZ),
    F(gml_v3_0, average_fclk_frequency, AVG_HZ, "fclk", MHZ),
    F(gml_v3_0, average_vclk_frequency, AVG_HZ, "vclk", MHZ),
    F(gml_v3_0, average_uclk_frequency, AVG_HZ, "uclk", MHZ),
    F(gml_v3_0, average_mpipu_frequency, AVG_HZ, "mpipuclk", MHZ),
    A(gml_v3_0, current_coreclk, ACT_HZ, "core", MHZ),
    F(gml_v3_0, current_core_maxfreq, MAX_HZ, "core", MHZ),
    F(gml_v3_0, current_gfx_maxfreq, MAX_HZ, "gfxclk", MHZ)};

struct gm_layout {
  uint8_t format, content;
  uint16_t size;  /* the struct's size: structure_size must equal it ... */
  uint16_t fixed; /* ... or, when non-zero, be at least this: v1.7 and
                     v1.8 end in partition statistics whose element struct
                     has differed between kernel versions of the same
                     revision (amdgpu_xcp_metrics_v1_2 with and without
                     gfx_below_host_limit_total_acc); every field read
                     comes before them. v1.6's two layouts are told apart
                     by their exact sizes. */
  const struct gm_field *fields;
  size_t n_fields;
  uint16_t energy_off; /* 0: none */
  uint8_t energy_width;
  double energy_unit;               /* 0: no unit stated */
  uint16_t throttle_off, indep_off; /* 0: none */
};

#define L(fmt, ct, s, tab, fixed, e_off, e_w, e_unit, thr, indep)              \
  {                                                                            \
    fmt, ct, sizeof(struct s), fixed, tab, sizeof(tab) / sizeof(tab[0]),       \
        e_off, e_w, e_unit, thr, indep                                         \
  }
#define OFF(s, f) offsetof(struct s, f)
#define EO(s) OFF(s, energy_accumulator)
#define EW(s) MEMBER_SIZE(s, energy_accumulator)

static const struct gm_layout gm_layouts[] = {
    L(1, 0, gml_v1_0, gm_v1_0, 0, EO(gml_v1_0), EW(gml_v1_0), 0,
      OFF(gml_v1_0, throttle_status), 0),
    L(1, 1, gml_v1_1, gm_v1_1, 0, EO(gml_v1_1), EW(gml_v1_1), 0,
      OFF(gml_v1_1, throttle_status), 0),
    L(1, 2, gml_v1_2, gm_v1_2, 0, EO(gml_v1_2), EW(gml_v1_2), 0,
      OFF(gml_v1_2, throttle_status), 0),
    L(1, 3, gml_v1_3, gm_v1_3, 0, EO(gml_v1_3), EW(gml_v1_3), 0,
      OFF(gml_v1_3, throttle_status), OFF(gml_v1_3, indep_throttle_status)),
    L(1, 4, gml_v1_4, gm_v1_4, 0, EO(gml_v1_4), EW(gml_v1_4), GM_Q16_JOULES,
      OFF(gml_v1_4, throttle_status), 0),
    L(1, 5, gml_v1_5, gm_v1_5, 0, EO(gml_v1_5), EW(gml_v1_5), GM_Q16_JOULES,
      OFF(gml_v1_5, throttle_status), 0),
    L(1, 6, gml_v1_6a, gm_v1_6a, 0, EO(gml_v1_6a), EW(gml_v1_6a), GM_Q16_JOULES,
      OFF(gml_v1_6a, throttle_status), 0),
    L(1, 6, gml_v1_6, gm_v1_6, 0, EO(gml_v1_6), EW(gml_v1_6), GM_Q16_JOULES, 0,
      0),
    L(1, 7, gml_v1_7, gm_v1_7, OFF(gml_v1_7, xcp_stats), EO(gml_v1_7),
      EW(gml_v1_7), GM_Q16_JOULES, 0, 0),
    L(1, 8, gml_v1_8, gm_v1_8, OFF(gml_v1_8, xcp_stats), EO(gml_v1_8),
      EW(gml_v1_8), GM_Q16_JOULES, 0, 0),
    L(2, 0, gml_v2_0, gm_v2_0, 0, 0, 0, 0, OFF(gml_v2_0, throttle_status), 0),
    L(2, 1, gml_v2_1, gm_v2_1, 0, 0, 0, 0, OFF(gml_v2_1, throttle_status), 0),
    L(2, 2, gml_v2_2, gm_v2_2, 0, 0, 0, 0, OFF(gml_v2_2, throttle_status),
      OFF(gml_v2_2, indep_throttle_status)),
    L(2, 3, gml_v2_3, gm_v2_3, 0, 0, 0, 0, OFF(gml_v2_3, throttle_status),
      OFF(gml_v2_3, indep_throttle_status)),
    L(2, 4, gml_v2_4, gm_v2_4, 0, 0, 0, 0, OFF(gml_v2_4, throttle_status),
      OFF(gml_v2_4, indep_throttle_status)),
    L(3, 0, gml_v3_0, gm_v3_0, 0, 0, 0, 0, 0, 0),
};

/* ---- decoding ---- */

uint64_t gm_le(const uint8_t *p, unsigned width) {
  uint64_t v = 0;
  for (unsigned i = width; i > 0; i--)
    v = v << 8 | p[i - 1];
  return v;
}

uint64_t gm_all_ones(unsigned width) {
  return width >= 8 ? UINT64_MAX : (UINT64_C(1) << (8 * width)) - 1;
}

int gpu_metrics_header(const void *buf, size_t len, uint8_t *format,
                       uint8_t *content, uint16_t *size) {
  const uint8_t *b = buf;
  if (len < sizeof(struct gml_header))
    return -EINVAL;
  *size = (uint16_t)gm_le(b, 2);
  *format = b[2];
  *content = b[3];
  return 0;
}

static const struct gm_layout *gm_find(uint8_t format, uint8_t content,
                                       uint16_t size, bool *known_pair) {
  *known_pair = false;
  for (size_t i = 0; i < sizeof(gm_layouts) / sizeof(gm_layouts[0]); i++) {
    const struct gm_layout *l = &gm_layouts[i];
    if (l->format != format || l->content != content)
      continue;
    *known_pair = true;
    if (l->fixed == 0 ? size == l->size : size >= l->fixed)
      return l;
  }
  return NULL;
}

bool gm_value_add(struct gpu_metrics *out, enum gpu_metrics_kind kind,
                  const char *sensor, bool indexed, unsigned index,
                  double value) {
  if (out->n_values >= GPU_METRICS_MAX_VALUES) {
    out->n_skipped++; /* the fixed layouts stay well below (tested) */
    return false;
  }
  struct gpu_metrics_value *v = &out->values[out->n_values++];
  v->kind = kind;
  if (indexed)
    snprintf(v->sensor, sizeof(v->sensor), "%s%u", sensor, index);
  else
    snprintf(v->sensor, sizeof(v->sensor), "%s", sensor);
  v->value = value;
  return true;
}

/* The scale of field `f`, or 0 when it cannot be known (then the value is
 * left out and out->smc_version_needed said). */
static double gm_scale(const struct gm_field *f, uint32_t smc,
                       struct gpu_metrics *out) {
  if (!(f->flags & GM_SMC_GFX))
    return f->scale;
  if (smc == GPU_METRICS_SMC_UNKNOWN) {
    out->smc_version_needed = true;
    return 0;
  }
  return smc > GPU_METRICS_V3_GFX_PERCENT_AFTER ? 1 : 0.01;
}

/* Refuse the table: every output but the header cleared, `why` said. */
int gm_refuse(struct gpu_metrics *out, const char *why) {
  uint16_t size = out->structure_size;
  uint8_t format = out->format_revision, content = out->content_revision;
  memset(out, 0, sizeof(*out));
  out->structure_size = size;
  out->format_revision = format;
  out->content_revision = content;
  out->error = why;
  return -EINVAL;
}

int gpu_metrics_decode(const void *buf, size_t len, uint32_t smc_fw_version,
                       struct gpu_metrics *out) {
  const uint8_t *b = buf;
  memset(out, 0, sizeof(*out));
  int rc = gpu_metrics_header(buf, len, &out->format_revision,
                              &out->content_revision, &out->structure_size);
  if (rc < 0) {
    out->error = "shorter than the 4-byte header";
    return rc;
  }
  if (out->format_revision == GM_ATTRS_FORMAT &&
      out->content_revision == GM_ATTRS_CONTENT) {
    /* amdgpu_get_gpu_metrics copies structure_size bytes: a shorter read
     * is cut */
    if (len < out->structure_size)
      return gm_refuse(out, "shorter than its structure_size");
    return gpu_metrics_attrs_decode(b, out->structure_size, out);
  }
  bool known_pair;
  const struct gm_layout *l =
      gm_find(out->format_revision, out->content_revision, out->structure_size,
              &known_pair);
  if (l == NULL) {
    if (!known_pair)
      return -ENOTSUP;
    return gm_refuse(out, "structure_size is not the kernel's layout of that "
                          "revision");
  }
  /* the kernel copies structure_size bytes (amdgpu_get_gpu_metrics): a
   * shorter read is cut */
  if (len < out->structure_size)
    return gm_refuse(out, "shorter than its structure_size");
  for (size_t i = 0; i < l->n_fields; i++) {
    const struct gm_field *f = &l->fields[i];
    for (unsigned k = 0; k < f->count; k++) {
      uint64_t raw = gm_le(b + f->off + (size_t)k * f->width, f->width);
      if (raw == gm_all_ones(f->width))
        continue;
      double scale = gm_scale(f, smc_fw_version, out);
      if (scale > 0)
        gm_value_add(out, (enum gpu_metrics_kind)f->kind, f->sensor,
                     f->count > 1, k, (double)raw * scale);
    }
  }
  if (l->energy_off != 0) {
    uint64_t raw = gm_le(b + l->energy_off, l->energy_width);
    if (raw != gm_all_ones(l->energy_width)) {
      out->have_energy = true;
      out->energy_raw = raw;
      out->energy_bits = 8u * l->energy_width;
      out->energy_unit_joules = l->energy_unit;
    }
  }
  if (l->throttle_off != 0) {
    uint64_t raw = gm_le(b + l->throttle_off, 4);
    if (raw != gm_all_ones(4)) {
      out->have_throttle = true;
      out->throttle_status = (uint32_t)raw;
    }
  }
  if (l->indep_off != 0) {
    uint64_t raw = gm_le(b + l->indep_off, 8);
    if (raw != gm_all_ones(8)) {
      out->have_indep_throttle = true;
      out->indep_throttle_status = raw;
    }
  }
  return 0;
}

static const struct {
  const char *field, *ctype;
} gm_kinds[GPU_METRICS_KIND_COUNT] = {
    [GPU_METRICS_CELSIUS] = {"celsius", "gpu_celsius"},
    [GPU_METRICS_AVERAGE_CELSIUS] = {"average_celsius", "gpu_celsius"},
    [GPU_METRICS_POWER_WATTS] = {"power_watts", "gpu_watts"},
    [GPU_METRICS_CURRENT_WATTS] = {"current_power_watts", "gpu_watts"},
    [GPU_METRICS_POWER_CAP_WATTS] = {"power_cap_watts", "gpu_watts"},
    [GPU_METRICS_BUSY_PERCENT] = {"busy_percent", "percent"},
    [GPU_METRICS_AVERAGE_HZ] = {"average_hz", "gpu_hertz"},
    [GPU_METRICS_ACTUAL_HZ] = {"actual_hz", "gpu_hertz"},
    [GPU_METRICS_MAX_HZ] = {"max_hz", "gpu_hertz"},
    [GPU_METRICS_FAN_RPM] = {"rpm", "gpu_rpm"},
    [GPU_METRICS_VOLTS] = {"volts", "gpu_volts"},
};

const char *gpu_metrics_kind_field(enum gpu_metrics_kind kind) {
  return (unsigned)kind < GPU_METRICS_KIND_COUNT ? gm_kinds[kind].field : "";
}

const char *gpu_metrics_kind_ctype(enum gpu_metrics_kind kind) {
  return (unsigned)kind < GPU_METRICS_KIND_COUNT ? gm_kinds[kind].ctype : "";
}
