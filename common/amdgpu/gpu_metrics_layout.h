/*
 * gpu_metrics_layout.h: our own definitions of amdgpu's gpu_metrics
 * tables, laid out field for field as the kernel's structs of the same
 * names in drivers/gpu/drm/amd/include/kgd_pp_interface.h (struct
 * metrics_table_header, gpu_metrics_v1_0 .. v1_8, v2_0 .. v2_4, v3_0).
 * The kernel fills one of them (smu_cmn_init_soft_gpu_metrics: every byte
 * 0xFF, then the header with structure_size = sizeof the struct) and
 * amdgpu_pm.c: amdgpu_get_gpu_metrics copies it to the sysfs page as it is,
 * in the CPU's byte order with the compiler's natural alignment (v1_0 and
 * v2_0 have a hole after the header, "not naturally aligned").
 *
 * These structs are never laid over input bytes: the decoder
 * (gpu_metrics.c) reads each field little-endian at offsetof() of these
 * structs, and gpu_metrics.c checks every size and the offsets it uses at
 * compile time against the numbers worked out from the kernel structs.
 *
 * gpu_metrics_v1_6 exists in two layouts: the first (vcn and jpeg
 * activity, throttle_status; 384 bytes) and the one that replaced it when
 * the partition (XCP) statistics came (amdgpu_xcp_metrics; 1664 bytes).
 * Both have format 1, content 6; structure_size tells them apart.
 */
#ifndef COMMON_AMDGPU_GPU_METRICS_LAYOUT_H
#define COMMON_AMDGPU_GPU_METRICS_LAYOUT_H

#include <stdint.h>

/* kgd_pp_interface.h array sizes */
#define GML_NUM_HBM_INSTANCES 4
#define GML_NUM_XGMI_LINKS 8
#define GML_MAX_GFX_CLKS 8
#define GML_MAX_CLKS 4
#define GML_NUM_VCN 4
#define GML_NUM_JPEG_ENG 32
#define GML_NUM_JPEG_ENG_V1 40
#define GML_MAX_XCC 8
#define GML_NUM_XCP 8

struct gml_header {
  uint16_t structure_size;
  uint8_t format_revision;
  uint8_t content_revision;
};

/* v1.0 .. v1.3: dGPUs (navi1x, sienna_cichlid, arcturus, aldebaran,
 * smu_v13_0_0/7). No units in the header; the producers copy the firmware's
 * degrees Celsius, watts, percent, MHz and RPM. */
struct gml_v1_0 {
  struct gml_header h;
  uint64_t system_clock_counter;
  uint16_t temperature_edge, temperature_hotspot, temperature_mem;
  uint16_t temperature_vrgfx, temperature_vrsoc, temperature_vrmem;
  uint16_t average_gfx_activity, average_umc_activity, average_mm_activity;
  uint16_t average_socket_power;
  uint32_t energy_accumulator;
  uint16_t average_gfxclk_frequency, average_socclk_frequency;
  uint16_t average_uclk_frequency, average_vclk0_frequency;
  uint16_t average_dclk0_frequency, average_vclk1_frequency;
  uint16_t average_dclk1_frequency;
  uint16_t current_gfxclk, current_socclk, current_uclk, current_vclk0;
  uint16_t current_dclk0, current_vclk1, current_dclk1;
  uint32_t throttle_status;
  uint16_t current_fan_speed;
  uint8_t pcie_link_width, pcie_link_speed;
};

#define GML_V1_1_BODY                                                          \
  struct gml_header h;                                                         \
  uint16_t temperature_edge, temperature_hotspot, temperature_mem;             \
  uint16_t temperature_vrgfx, temperature_vrsoc, temperature_vrmem;            \
  uint16_t average_gfx_activity, average_umc_activity, average_mm_activity;    \
  uint16_t average_socket_power;                                               \
  uint64_t energy_accumulator;                                                 \
  uint64_t system_clock_counter;                                               \
  uint16_t average_gfxclk_frequency, average_socclk_frequency;                 \
  uint16_t average_uclk_frequency, average_vclk0_frequency;                    \
  uint16_t average_dclk0_frequency, average_vclk1_frequency;                   \
  uint16_t average_dclk1_frequency;                                            \
  uint16_t current_gfxclk, current_socclk, current_uclk, current_vclk0;        \
  uint16_t current_dclk0, current_vclk1, current_dclk1;                        \
  uint32_t throttle_status;                                                    \
  uint16_t current_fan_speed;                                                  \
  uint16_t pcie_link_width, pcie_link_speed;                                   \
  uint16_t padding;                                                            \
  uint32_t gfx_activity_acc, mem_activity_acc;                                 \
  uint16_t temperature_hbm[GML_NUM_HBM_INSTANCES]

struct gml_v1_1 {
  GML_V1_1_BODY;
};
struct gml_v1_2 {
  GML_V1_1_BODY;
  uint64_t firmware_timestamp;
};
struct gml_v1_3 {
  GML_V1_1_BODY;
  uint64_t firmware_timestamp;
  uint16_t voltage_soc, voltage_gfx, voltage_mem; /* mV */
  uint16_t padding1;
  uint64_t indep_throttle_status;
};

/* v1.4 .. v1.8: smu_v13_0_6 (MI300). Units in the header: Celsius, watts,
 * %, energy in 15.259 uJ (2^-16 J), MHz. */
#define GML_V1_4_PCIE_XGMI                                                     \
  uint16_t pcie_link_width, pcie_link_speed;                                   \
  uint16_t xgmi_link_width, xgmi_link_speed;                                   \
  uint32_t gfx_activity_acc, mem_activity_acc;                                 \
  uint64_t pcie_bandwidth_acc, pcie_bandwidth_inst;                            \
  uint64_t pcie_l0_to_recov_count_acc, pcie_replay_count_acc;                  \
  uint64_t pcie_replay_rover_count_acc
#define GML_V1_4_CLOCKS                                                        \
  uint16_t current_gfxclk[GML_MAX_GFX_CLKS];                                   \
  uint16_t current_socclk[GML_MAX_CLKS];                                       \
  uint16_t current_vclk0[GML_MAX_CLKS];                                        \
  uint16_t current_dclk0[GML_MAX_CLKS];                                        \
  uint16_t current_uclk

struct gml_v1_4 {
  struct gml_header h;
  uint16_t temperature_hotspot, temperature_mem, temperature_vrsoc;
  uint16_t curr_socket_power;
  uint16_t average_gfx_activity, average_umc_activity;
  uint16_t vcn_activity[GML_NUM_VCN];
  uint64_t energy_accumulator;
  uint64_t system_clock_counter;
  uint32_t throttle_status;
  uint32_t gfxclk_lock_status;
  GML_V1_4_PCIE_XGMI;
  uint64_t xgmi_read_data_acc[GML_NUM_XGMI_LINKS];
  uint64_t xgmi_write_data_acc[GML_NUM_XGMI_LINKS];
  uint64_t firmware_timestamp;
  GML_V1_4_CLOCKS;
  uint16_t padding;
};

struct gml_v1_5 {
  struct gml_header h;
  uint16_t temperature_hotspot, temperature_mem, temperature_vrsoc;
  uint16_t curr_socket_power;
  uint16_t average_gfx_activity, average_umc_activity;
  uint16_t vcn_activity[GML_NUM_VCN];
  uint16_t jpeg_activity[GML_NUM_JPEG_ENG];
  uint64_t energy_accumulator;
  uint64_t system_clock_counter;
  uint32_t throttle_status;
  uint32_t gfxclk_lock_status;
  GML_V1_4_PCIE_XGMI;
  uint32_t pcie_nak_sent_count_acc, pcie_nak_rcvd_count_acc;
  uint64_t xgmi_read_data_acc[GML_NUM_XGMI_LINKS];
  uint64_t xgmi_write_data_acc[GML_NUM_XGMI_LINKS];
  uint64_t firmware_timestamp;
  GML_V1_4_CLOCKS;
  uint16_t padding;
};

/* v1.6, first layout: v1.5 plus the accumulated throttler residencies */
struct gml_v1_6a {
  struct gml_header h;
  uint16_t temperature_hotspot, temperature_mem, temperature_vrsoc;
  uint16_t curr_socket_power;
  uint16_t average_gfx_activity, average_umc_activity;
  uint16_t vcn_activity[GML_NUM_VCN];
  uint16_t jpeg_activity[GML_NUM_JPEG_ENG];
  uint64_t energy_accumulator;
  uint64_t system_clock_counter;
  uint32_t accumulation_counter;
  uint32_t prochot_residency_acc, ppt_residency_acc;
  uint32_t socket_thm_residency_acc, vr_thm_residency_acc;
  uint32_t hbm_thm_residency_acc;
  uint32_t throttle_status;
  uint32_t gfxclk_lock_status;
  GML_V1_4_PCIE_XGMI;
  uint32_t pcie_nak_sent_count_acc, pcie_nak_rcvd_count_acc;
  uint64_t xgmi_read_data_acc[GML_NUM_XGMI_LINKS];
  uint64_t xgmi_write_data_acc[GML_NUM_XGMI_LINKS];
  uint64_t firmware_timestamp;
  GML_V1_4_CLOCKS;
  uint16_t padding;
};

/* kgd_pp_interface.h: struct amdgpu_xcp_metrics (v1.6),
 * amdgpu_xcp_metrics_v1_1 (v1.7), amdgpu_xcp_metrics_v1_2 (v1.8) */
struct gml_xcp_v1_0 {
  uint32_t gfx_busy_inst[GML_MAX_XCC];
  uint16_t jpeg_busy[GML_NUM_JPEG_ENG];
  uint16_t vcn_busy[GML_NUM_VCN];
  uint64_t gfx_busy_acc[GML_MAX_XCC];
};
struct gml_xcp_v1_1 {
  uint32_t gfx_busy_inst[GML_MAX_XCC];
  uint16_t jpeg_busy[GML_NUM_JPEG_ENG];
  uint16_t vcn_busy[GML_NUM_VCN];
  uint64_t gfx_busy_acc[GML_MAX_XCC];
  uint64_t gfx_below_host_limit_acc[GML_MAX_XCC];
};
struct gml_xcp_v1_2 {
  uint32_t gfx_busy_inst[GML_MAX_XCC];
  uint16_t jpeg_busy[GML_NUM_JPEG_ENG_V1];
  uint16_t vcn_busy[GML_NUM_VCN];
  uint64_t gfx_busy_acc[GML_MAX_XCC];
  uint64_t gfx_below_host_limit_ppt_acc[GML_MAX_XCC];
  uint64_t gfx_below_host_limit_thm_acc[GML_MAX_XCC];
  uint64_t gfx_low_utilization_acc[GML_MAX_XCC];
  uint64_t gfx_below_host_limit_total_acc[GML_MAX_XCC];
};

/* The residencies to the clocks, shared by v1.6 (second layout) .. v1.8
 * after their first fields. */
#define GML_V1_6_MID                                                           \
  uint32_t accumulation_counter;                                               \
  uint32_t prochot_residency_acc, ppt_residency_acc;                           \
  uint32_t socket_thm_residency_acc, vr_thm_residency_acc;                     \
  uint32_t hbm_thm_residency_acc;                                              \
  uint32_t gfxclk_lock_status;                                                 \
  GML_V1_4_PCIE_XGMI;                                                          \
  uint32_t pcie_nak_sent_count_acc, pcie_nak_rcvd_count_acc;                   \
  uint64_t xgmi_read_data_acc[GML_NUM_XGMI_LINKS];                             \
  uint64_t xgmi_write_data_acc[GML_NUM_XGMI_LINKS]

struct gml_v1_6 {
  struct gml_header h;
  uint16_t temperature_hotspot, temperature_mem, temperature_vrsoc;
  uint16_t curr_socket_power;
  uint16_t average_gfx_activity, average_umc_activity;
  uint64_t energy_accumulator;
  uint64_t system_clock_counter;
  GML_V1_6_MID;
  uint64_t firmware_timestamp;
  GML_V1_4_CLOCKS;
  uint16_t num_partition;
  struct gml_xcp_v1_0 xcp_stats[GML_NUM_XCP];
  uint32_t pcie_lc_perf_other_end_recovery;
};

#define GML_V1_7_BODY(xcp)                                                     \
  struct gml_header h;                                                         \
  uint16_t temperature_hotspot, temperature_mem, temperature_vrsoc;            \
  uint16_t curr_socket_power;                                                  \
  uint16_t average_gfx_activity, average_umc_activity;                         \
  uint64_t mem_max_bandwidth;                                                  \
  uint64_t energy_accumulator;                                                 \
  uint64_t system_clock_counter;                                               \
  GML_V1_6_MID;                                                                \
  uint16_t xgmi_link_status[GML_NUM_XGMI_LINKS];                               \
  uint16_t padding;                                                            \
  uint64_t firmware_timestamp;                                                 \
  GML_V1_4_CLOCKS;                                                             \
  uint16_t num_partition;                                                      \
  struct xcp xcp_stats[GML_NUM_XCP];                                           \
  uint32_t pcie_lc_perf_other_end_recovery

struct gml_v1_7 {
  GML_V1_7_BODY(gml_xcp_v1_1);
};
struct gml_v1_8 {
  GML_V1_7_BODY(gml_xcp_v1_2);
};

/* v2.0 .. v2.4: APUs (renoir, vangogh, yellow_carp, smu_v13_0_4/5).
 * Temperatures in centi-degrees Celsius and activity in centi-percent
 * (stated in v2_4; renoir_ppt.c: renoir_get_smu_metrics_data divides the
 * same firmware fields by 100), power in mW (stated in v2_4). */
#define GML_V2_TEMPS                                                           \
  uint16_t temperature_gfx, temperature_soc;                                   \
  uint16_t temperature_core[8];                                                \
  uint16_t temperature_l3[2]
#define GML_V2_POWER_CLOCKS                                                    \
  uint16_t average_socket_power, average_cpu_power;                            \
  uint16_t average_soc_power, average_gfx_power;                               \
  uint16_t average_core_power[8];                                              \
  uint16_t average_gfxclk_frequency, average_socclk_frequency;                 \
  uint16_t average_uclk_frequency, average_fclk_frequency;                     \
  uint16_t average_vclk_frequency, average_dclk_frequency;                     \
  uint16_t current_gfxclk, current_socclk, current_uclk, current_fclk;         \
  uint16_t current_vclk, current_dclk;                                         \
  uint16_t current_coreclk[8];                                                 \
  uint16_t current_l3clk[2];                                                   \
  uint32_t throttle_status;                                                    \
  uint16_t fan_pwm

struct gml_v2_0 {
  struct gml_header h;
  uint64_t system_clock_counter;
  GML_V2_TEMPS;
  uint16_t average_gfx_activity, average_mm_activity;
  GML_V2_POWER_CLOCKS;
  uint16_t padding;
};

#define GML_V2_1_BODY                                                          \
  struct gml_header h;                                                         \
  GML_V2_TEMPS;                                                                \
  uint16_t average_gfx_activity, average_mm_activity;                          \
  uint64_t system_clock_counter;                                               \
  GML_V2_POWER_CLOCKS;                                                         \
  uint16_t padding[3]

struct gml_v2_1 {
  GML_V2_1_BODY;
};
struct gml_v2_2 {
  GML_V2_1_BODY;
  uint64_t indep_throttle_status;
};
#define GML_V2_3_BODY                                                          \
  GML_V2_1_BODY;                                                               \
  uint64_t indep_throttle_status;                                              \
  uint16_t average_temperature_gfx, average_temperature_soc;                   \
  uint16_t average_temperature_core[8];                                        \
  uint16_t average_temperature_l3[2]
struct gml_v2_3 {
  GML_V2_3_BODY;
};
struct gml_v2_4 {
  GML_V2_3_BODY;
  uint16_t average_cpu_voltage, average_soc_voltage, average_gfx_voltage;
  uint16_t average_cpu_current, average_soc_current, average_gfx_current;
};

/* v3.0: smu_v14_0_0 APUs. Units in the header comments: busy % [0-100],
 * power mW, clocks MHz; temperatures without a unit, centi-degrees as in
 * v2 (smu_v14_0_0_ppt.c: smu_v14_0_0_get_smu_metrics_data divides the same
 * firmware fields by 100). */
struct gml_v3_0 {
  struct gml_header h;
  uint16_t temperature_gfx, temperature_soc;
  uint16_t temperature_core[16];
  uint16_t temperature_skin;
  uint16_t average_gfx_activity, average_vcn_activity;
  uint16_t average_ipu_activity[8];
  uint16_t average_core_c0_activity[16];
  uint16_t average_dram_reads, average_dram_writes;
  uint16_t average_ipu_reads, average_ipu_writes;
  uint64_t system_clock_counter;
  uint32_t average_socket_power;
  uint16_t average_ipu_power;
  uint32_t average_apu_power, average_gfx_power, average_dgpu_power;
  uint32_t average_all_core_power;
  uint16_t average_core_power[16];
  uint16_t average_sys_power;
  uint16_t stapm_power_limit, current_stapm_power_limit;
  uint16_t average_gfxclk_frequency, average_socclk_frequency;
  uint16_t average_vpeclk_frequency, average_ipuclk_frequency;
  uint16_t average_fclk_frequency, average_vclk_frequency;
  uint16_t average_uclk_frequency, average_mpipu_frequency;
  uint16_t current_coreclk[16];
  uint16_t current_core_maxfreq, current_gfx_maxfreq;
  uint32_t throttle_residency_prochot, throttle_residency_spl;
  uint32_t throttle_residency_fppt, throttle_residency_sppt;
  uint32_t throttle_residency_thm_core, throttle_residency_thm_gfx;
  uint32_t throttle_residency_thm_soc;
  uint32_t time_filter_alphavalue;
};

#endif
