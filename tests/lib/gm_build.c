/*
 * gm_build.c: gpu_metrics tables for tests (gm_build.h). The offsets are
 * the kernel structs' as laid out by hand (natural alignment), field by
 * field, in the comments.
 */
#include "tests/lib/gm_build.h"

#include <string.h>

void gm_put(uint8_t *buf, size_t off, unsigned width, uint64_t v) {
  for (unsigned i = 0; i < width; i++)
    buf[off + i] = (uint8_t)(v >> (8 * i));
}

struct gm_set {
  uint16_t off;
  uint8_t width;
  uint64_t value;
};

/* v1.0 (80 bytes): header 0, system_clock_counter 8 (after a 4-byte
 * hole), temperature_edge 16 .. vrmem 26, average_gfx 28, umc 30, mm 32,
 * average_socket_power 34, energy_accumulator (u32) 36, average clocks 40
 * .. 52, current clocks 54 .. 66, throttle_status 68, current_fan_speed
 * 72, pcie width/speed (u8) 74/75. mm left unfilled. */
static const struct gm_set gm_v1_0[] = {
    {16, 2, 45},   {18, 2, 60},  {20, 2, 70},   {28, 2, 35},
    {30, 2, 10},   {34, 2, 150}, {36, 4, 1000}, {40, 2, 1800},
    {54, 2, 1900}, {68, 4, 0x4}, {72, 2, 1500}, {8, 8, 123456789}};
/* v1.1 (96): temperatures 4 .. 14, activity 16/18/20, socket power 22,
 * energy (u64) 24, system_clock_counter 32, average clocks 40 .. 52,
 * current 54 .. 66, throttle_status 68, fan 72, pcie 74/76, padding 78,
 * gfx/mem_activity_acc 80/84, temperature_hbm[4] 88 .. 94.
 * v1.2 (104): + firmware_timestamp 96. v1.3 (120): + voltage_soc/gfx/mem
 * 104/106/108, padding1 110, indep_throttle_status 112. */
static const struct gm_set gm_v1_1[] = {
    {4, 2, 45},    {6, 2, 60},   {8, 2, 70},    {16, 2, 35},
    {18, 2, 10},   {22, 2, 150}, {24, 8, 1000}, {40, 2, 1800},
    {54, 2, 1900}, {68, 4, 0},   {72, 2, 1500}, {88, 2, 80}};
static const struct gm_set gm_v1_3[] = {
    {4, 2, 45},    {6, 2, 60},
    {8, 2, 70},    {16, 2, 35},
    {18, 2, 10},   {22, 2, 150},
    {24, 8, 1000}, {40, 2, 1800},
    {54, 2, 1900}, {68, 4, 0x10},
    {72, 2, 1500}, {88, 2, 80},
    {106, 2, 900}, {112, 8, UINT64_C(1) << 35}};
/* v1.4 (288): temperature_hotspot 4, mem 6, vrsoc 8, curr_socket_power
 * 10, average_gfx 12, umc 14, vcn_activity[4] 16, energy 24,
 * system_clock_counter 32, throttle_status 40, gfxclk_lock 44, pcie and
 * xgmi 48 .. 54, activity acc 56/60, pcie counters 64 .. 96, xgmi data
 * 104 .. 224, firmware_timestamp 232, current_gfxclk[8] 240,
 * socclk[4] 256, vclk0[4] 264, dclk0[4] 272, uclk 280, padding 282. */
static const struct gm_set gm_v1_4[] = {
    {4, 2, 70},     {6, 2, 65},
    {8, 2, 50},     {10, 2, 550},
    {12, 2, 80},    {14, 2, 20},
    {16, 2, 5},     {24, 8, UINT64_C(65536) * 1000},
    {40, 4, 0},     {240, 2, 2100},
    {242, 2, 2000}, {280, 2, 1300}};
/* v1.5 (360): as v1.4 to vcn_activity, jpeg_activity[32] 24, energy 88,
 * system_clock_counter 96, throttle_status 104, ..., pcie nak 168/172,
 * xgmi data 176 .. 296, firmware_timestamp 304, current_gfxclk[8] 312,
 * socclk 328, vclk0 336, dclk0 344, uclk 352. */
static const struct gm_set gm_v1_5[] = {
    {4, 2, 70},  {10, 2, 550},   {12, 2, 80},
    {16, 2, 5},  {24, 2, 7},     {88, 8, UINT64_C(65536) * 1000},
    {104, 4, 0}, {312, 2, 2100}, {352, 2, 1300}};
/* v1.6, first layout (384): as v1.5 to the energy 88, system_clock 96,
 * accumulation_counter 104, residencies 108 .. 124, throttle_status 128,
 * gfxclk_lock 132, ..., current_gfxclk[8] 336, uclk 376. */
static const struct gm_set gm_v1_6a[] = {
    {4, 2, 70},  {10, 2, 550},   {12, 2, 80},   {88, 8, UINT64_C(65536) * 1000},
    {128, 4, 0}, {336, 2, 2100}, {376, 2, 1300}};
/* v1.6 (1664): temperatures 4 .. 8, curr_socket_power 10, gfx 12, umc 14,
 * energy 16, system_clock 24, accumulation_counter 32, residencies 36 ..
 * 52, gfxclk_lock 56, ..., firmware_timestamp 256, current_gfxclk[8] 264,
 * socclk 280, vclk0 288, dclk0 296, uclk 304, num_partition 306,
 * xcp_stats[8] 312 (168 each), pcie_lc_perf_other_end_recovery 1656. */
static const struct gm_set gm_v1_6[] = {
    {4, 2, 70},     {10, 2, 550},  {12, 2, 80}, {16, 8, UINT64_C(65536) * 1000},
    {264, 2, 2100}, {304, 2, 1300}};
/* v1.7 (2208) and v1.8 (3872): mem_max_bandwidth 16, energy 24,
 * system_clock 32, ..., xgmi_link_status[8] 264, padding 280,
 * firmware_timestamp 288, current_gfxclk[8] 296, socclk 312, vclk0 320,
 * dclk0 328, uclk 336, num_partition 338, xcp_stats[8] 344 (232 / 440
 * each), pcie_lc_perf_other_end_recovery 2200 / 3864. */
static const struct gm_set gm_v1_7[] = {
    {4, 2, 70},     {10, 2, 550},  {12, 2, 80}, {24, 8, UINT64_C(65536) * 1000},
    {296, 2, 2100}, {336, 2, 1300}};
/* v2.0 (120): system_clock_counter 8, temperature_gfx 16, soc 18,
 * core[8] 20, l3[2] 36, average_gfx 40, mm 42, socket power 44, cpu 46,
 * soc 48, gfx 50, core_power[8] 52, average clocks 68 .. 78, current 80
 * .. 90, coreclk[8] 92, l3clk[2] 108, throttle_status 112, fan_pwm 116. */
static const struct gm_set gm_v2_0[] = {
    {16, 2, 4550}, {18, 2, 5000}, {20, 2, 6000}, {40, 2, 2500}, {44, 2, 15000},
    {50, 2, 5000}, {68, 2, 1200}, {80, 2, 1300}, {92, 2, 4000}, {112, 4, 0}};
/* v2.1 (120): temperature_gfx 4, soc 6, core[8] 8, l3[2] 24, average_gfx
 * 28, mm 30, system_clock_counter 32, socket power 40, cpu 42, soc 44,
 * gfx 46, core_power[8] 48, average clocks 64 .. 74, current 76 .. 86,
 * coreclk[8] 88, l3clk[2] 104, throttle_status 108, fan_pwm 112,
 * padding[3] 114. v2.2 (128): + indep_throttle_status 120. v2.3 (152):
 * + average_temperature_gfx 128, soc 130, core[8] 132, l3[2] 148.
 * v2.4 (168): + average_cpu/soc/gfx_voltage 152/154/156, currents 158 ..
 * 162. */
static const struct gm_set gm_v2_1[] = {
    {4, 2, 4550},   {6, 2, 5000},   {8, 2, 6000},  {24, 2, 5500}, {28, 2, 2500},
    {40, 2, 15000}, {46, 2, 5000},  {48, 2, 1000}, {64, 2, 1200}, {76, 2, 1300},
    {88, 2, 4000},  {104, 2, 3000}, {108, 4, 0}};
static const struct gm_set gm_v2_2[] = {{120, 8, UINT64_C(1) << 4}};
static const struct gm_set gm_v2_3[] = {{128, 2, 4400}};
static const struct gm_set gm_v2_4[] = {{156, 2, 750}};
/* v3.0 (264): temperature_gfx 4, soc 6, core[16] 8, skin 40,
 * average_gfx_activity 42, vcn 44, ipu[8] 46, core_c0[16] 62, dram and
 * ipu bandwidth 94 .. 100, system_clock_counter 104,
 * average_socket_power (u32) 112, ipu_power (u16) 116, apu_power (u32)
 * 120, gfx 124, dgpu 128, all_core 132, core_power[16] 136, sys_power 168,
 * stapm_power_limit 170, current_stapm_power_limit 172, average clocks
 * 174 .. 188, current_coreclk[16] 190, core_maxfreq 222, gfx_maxfreq
 * 224, throttle residencies 228 .. 252, time_filter_alphavalue 256. */
/* average_gfx_activity 4200 is 42 % on SMC firmware up to 0x5d4600
 * (centi-percent); ipu[0] and core_c0[0] are percent as they are. */
static const struct gm_set gm_v3_0[] = {
    {4, 2, 5200},    {40, 2, 3500},   {42, 2, 4200},   {46, 2, 37},
    {62, 2, 88},     {112, 4, 25000}, {120, 4, 20000}, {136, 2, 1500},
    {172, 2, 30000}, {174, 2, 2000},  {190, 2, 4500},  {224, 2, 2900}};

#define N(a) (sizeof(a) / sizeof(a[0]))

/* v1.9: smu_v13_0_6_ppt.h: SMU_13_0_6_METRICS_FIELDS, in its order: the
 * attribute id (enum amdgpu_metrics_attr_id), unit (enum
 * amdgpu_metrics_attr_unit: 0 NONE, 1 CLOCK_1 MHz, 2 TEMP_1, 3 POWER_1,
 * 4 TIME_1, 5 TIME_2, 6 SPEED_1, 7 SPEED_2, 8 BW_1, 9 DATA_1, 10 PERCENT),
 * type (enum amdgpu_metrics_attr_type: 2 U16, 4 U32, 6 U64) and count
 * (SMU_13_0_6_NUM_XGMI_LINKS 8, _MAX_GFX_CLKS 8, _MAX_CLKS 4, _MAX_XCC 8,
 * _MAX_VCN 4, _MAX_JPEG 40). */
static const struct {
  uint8_t id, unit, type, count;
} gm_v1_9_fields[] = {
    {0, 2, 2, 1},    /* temperature_hotspot */
    {1, 2, 2, 1},    /* temperature_mem */
    {2, 2, 2, 1},    /* temperature_vrsoc */
    {3, 3, 2, 1},    /* curr_socket_power */
    {4, 10, 2, 1},   /* average_gfx_activity */
    {5, 10, 2, 1},   /* average_umc_activity */
    {6, 8, 6, 1},    /* mem_max_bandwidth */
    {7, 0, 6, 1},    /* energy_accumulator */
    {8, 4, 6, 1},    /* system_clock_counter */
    {9, 0, 4, 1},    /* accumulation_counter */
    {10, 0, 4, 1},   /* prochot_residency_acc */
    {11, 0, 4, 1},   /* ppt_residency_acc */
    {12, 0, 4, 1},   /* socket_thm_residency_acc */
    {13, 0, 4, 1},   /* vr_thm_residency_acc */
    {14, 0, 4, 1},   /* hbm_thm_residency_acc */
    {15, 0, 4, 1},   /* gfxclk_lock_status */
    {16, 0, 2, 1},   /* pcie_link_width */
    {17, 7, 2, 1},   /* pcie_link_speed */
    {18, 0, 2, 1},   /* xgmi_link_width */
    {19, 6, 2, 1},   /* xgmi_link_speed */
    {20, 10, 4, 1},  /* gfx_activity_acc */
    {21, 10, 4, 1},  /* mem_activity_acc */
    {22, 10, 6, 1},  /* pcie_bandwidth_acc */
    {23, 8, 6, 1},   /* pcie_bandwidth_inst */
    {24, 0, 6, 1},   /* pcie_l0_to_recov_count_acc */
    {25, 0, 6, 1},   /* pcie_replay_count_acc */
    {26, 0, 6, 1},   /* pcie_replay_rover_count_acc */
    {27, 0, 4, 1},   /* pcie_nak_sent_count_acc */
    {28, 0, 4, 1},   /* pcie_nak_rcvd_count_acc */
    {29, 9, 6, 8},   /* xgmi_read_data_acc */
    {30, 9, 6, 8},   /* xgmi_write_data_acc */
    {31, 0, 2, 8},   /* xgmi_link_status */
    {32, 5, 6, 1},   /* firmware_timestamp */
    {33, 1, 2, 8},   /* current_gfxclk */
    {34, 1, 2, 4},   /* current_socclk */
    {35, 1, 2, 4},   /* current_vclk0 */
    {36, 1, 2, 4},   /* current_dclk0 */
    {37, 1, 2, 1},   /* current_uclk */
    {39, 0, 4, 1},   /* pcie_lc_perf_other_end_recovery */
    {40, 10, 4, 8},  /* gfx_busy_inst */
    {41, 10, 2, 40}, /* jpeg_busy */
    {42, 10, 2, 4},  /* vcn_busy */
    {43, 10, 6, 8},  /* gfx_busy_acc */
    {44, 0, 6, 8},   /* gfx_below_host_limit_ppt_acc */
    {45, 0, 6, 8},   /* gfx_below_host_limit_thm_acc */
    {46, 0, 6, 8},   /* gfx_low_utilization_acc */
    {47, 0, 6, 8},   /* gfx_below_host_limit_total_acc */
};
/* what a MI300 fills, as in gm_v1_4 (id, index, value) */
static const struct {
  uint8_t id, index;
  uint64_t value;
} gm_v1_9[] = {{0, 0, 70},
               {1, 0, 65},
               {2, 0, 50},
               {3, 0, 550},
               {4, 0, 80},
               {5, 0, 20},
               {7, 0, UINT64_C(65536) * 1000},
               {33, 0, 2100},
               {33, 1, 2000},
               {37, 0, 1300},
               {40, 0, 81},
               {41, 0, 7},
               {42, 0, 5}};

static const unsigned gm_type_width[8] = {1, 1, 2, 2, 4, 4, 8, 8};

uint64_t gm_build_enc(unsigned unit, unsigned type, unsigned id,
                      unsigned inst) {
  return (uint64_t)unit << 24 | (uint64_t)type << 20 | (uint64_t)id << 10 |
         inst;
}

size_t gm_build_attr(const uint8_t *buf, unsigned id, unsigned index,
                     unsigned *width) {
  size_t size = (size_t)buf[0] | (size_t)buf[1] << 8, off = 8;
  uint32_t count = (uint32_t)buf[4] | (uint32_t)buf[5] << 8 |
                   (uint32_t)buf[6] << 16 | (uint32_t)buf[7] << 24;
  for (uint32_t a = 0; a < count && off + 8 <= size; a++) {
    uint64_t enc = 0;
    for (unsigned i = 0; i < 8; i++)
      enc |= (uint64_t)buf[off + i] << (8 * i);
    off += 8;
    unsigned w = gm_type_width[(enc >> 20) & 7], inst = enc & 0x3FF;
    if (((enc >> 10) & 0x3FF) == id && index < inst) {
      *width = w;
      return off + (size_t)index * w;
    }
    off += (size_t)w * inst;
  }
  return 0;
}

static size_t gm_build_v1_9(uint8_t *buf) {
  size_t off = 8;
  for (size_t i = 0; i < N(gm_v1_9_fields); i++) {
    unsigned w = gm_type_width[gm_v1_9_fields[i].type];
    gm_put(buf, off, 8,
           gm_build_enc(gm_v1_9_fields[i].unit, gm_v1_9_fields[i].type,
                        gm_v1_9_fields[i].id, gm_v1_9_fields[i].count));
    off += 8;
    memset(buf + off, 0xFF, (size_t)w * gm_v1_9_fields[i].count);
    off += (size_t)w * gm_v1_9_fields[i].count;
  }
  gm_put(buf, 0, 2, off); /* sizeof the packed struct */
  buf[2] = 1;
  buf[3] = 9;
  gm_put(buf, 4, 4, N(gm_v1_9_fields));
  for (size_t i = 0; i < N(gm_v1_9); i++) {
    unsigned w = 0;
    size_t at = gm_build_attr(buf, gm_v1_9[i].id, gm_v1_9[i].index, &w);
    gm_put(buf, at, w, gm_v1_9[i].value);
  }
  return off;
}

static void gm_apply(uint8_t *buf, const struct gm_set *s, size_t n) {
  for (size_t i = 0; i < n; i++)
    gm_put(buf, s[i].off, s[i].width, s[i].value);
}

size_t gm_build(uint8_t *buf, unsigned format, unsigned content,
                int first_layout) {
  size_t size = 0;
  unsigned key = format * 100 + content;
  if (key == 109)
    return gm_build_v1_9(buf);
  if (key == 106 && first_layout)
    key = 1061;
  static const uint16_t sizes[][2] = {
      {100, 80},   {101, 96},   {102, 104},  {103, 120},
      {104, 288},  {105, 360},  {1061, 384}, {106, 1664},
      {107, 2208}, {108, 3872}, {200, 120},  {201, 120},
      {202, 128},  {203, 152},  {204, 168},  {300, 264}};
  for (size_t i = 0; i < N(sizes); i++)
    if (sizes[i][0] == key)
      size = sizes[i][1];
  if (size == 0)
    return 0;
  memset(buf, 0xFF, size);
  gm_put(buf, 0, 2, size);
  buf[2] = (uint8_t)format;
  buf[3] = (uint8_t)content;
  switch (key) {
  case 100:
    gm_apply(buf, gm_v1_0, N(gm_v1_0));
    break;
  case 101:
  case 102:
    gm_apply(buf, gm_v1_1, N(gm_v1_1));
    break;
  case 103:
    gm_apply(buf, gm_v1_3, N(gm_v1_3));
    break;
  case 104:
    gm_apply(buf, gm_v1_4, N(gm_v1_4));
    break;
  case 105:
    gm_apply(buf, gm_v1_5, N(gm_v1_5));
    break;
  case 1061:
    gm_apply(buf, gm_v1_6a, N(gm_v1_6a));
    break;
  case 106:
    gm_apply(buf, gm_v1_6, N(gm_v1_6));
    break;
  case 107:
  case 108:
    gm_apply(buf, gm_v1_7, N(gm_v1_7));
    break;
  case 200:
    gm_apply(buf, gm_v2_0, N(gm_v2_0));
    break;
  case 204:
    gm_apply(buf, gm_v2_4, N(gm_v2_4));
    /* fall through */
  case 203:
    gm_apply(buf, gm_v2_3, N(gm_v2_3));
    /* fall through */
  case 202:
    gm_apply(buf, gm_v2_2, N(gm_v2_2));
    /* fall through */
  case 201:
    gm_apply(buf, gm_v2_1, N(gm_v2_1));
    break;
  case 300:
    gm_apply(buf, gm_v3_0, N(gm_v3_0));
    break;
  }
  return size;
}
