/*
 * gpu_metrics.h: amdgpu's binary sysfs table `gpu_metrics` decoded
 * (amdgpu_pm.c: amdgpu_get_gpu_metrics; the layouts are those of
 * drivers/gpu/drm/amd/include/kgd_pp_interface.h, our copy in
 * gpu_metrics_layout.h).
 *
 * The header's format_revision and content_revision select the layout
 * (v1.0 .. v1.8 dGPUs, v2.0 .. v2.4 and v3.0 APUs); v1.6 has two layouts
 * told apart by structure_size. v1.9 is no struct but a list of
 * self-describing attributes (gpu_metrics_attrs.c). A field the firmware
 * does not fill keeps
 * the kernel's all-ones marker (smu_cmn_init_soft_gpu_metrics: memset
 * 0xFF): 0xFFFF, 0xFFFFFFFF or 0xFFFFFFFFFFFFFFFF is an absent value, never
 * a number. Each value comes out in base units (degrees Celsius, watts,
 * percent, hertz, volts), converted from the unit of its layout
 * (gpu_metrics.c says which, and from where).
 */
#ifndef COMMON_AMDGPU_GPU_METRICS_H
#define COMMON_AMDGPU_GPU_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The most values one table gives (v3.0 with every core: about 110; v1.9
 * on smu_v13_0_6: about 80). A v1.9 list may name more: the rest are
 * counted in n_skipped. */
#define GPU_METRICS_MAX_VALUES 192
/* Room for a sensor name: "gfxclk7", "core15", "l3_1". */
#define GPU_METRICS_SENSOR_MAX 16

/* What a value is; each kind is one field of the drm_device records. */
enum gpu_metrics_kind {
  GPU_METRICS_CELSIUS,         /* temperature now */
  GPU_METRICS_AVERAGE_CELSIUS, /* temperature, time filtered */
  GPU_METRICS_POWER_WATTS,     /* power, time filtered (average_*) */
  GPU_METRICS_CURRENT_WATTS,   /* power now (curr_socket_power) */
  GPU_METRICS_POWER_CAP_WATTS, /* a power limit in force */
  GPU_METRICS_BUSY_PERCENT,    /* activity, 0..100 */
  GPU_METRICS_AVERAGE_HZ,      /* clock, time filtered */
  GPU_METRICS_ACTUAL_HZ,       /* clock now (current_*) */
  GPU_METRICS_MAX_HZ,          /* a clock limit in force */
  GPU_METRICS_FAN_RPM,         /* fan speed */
  GPU_METRICS_VOLTS,           /* voltage */
  GPU_METRICS_KIND_COUNT
};

struct gpu_metrics_value {
  enum gpu_metrics_kind kind;
  char sensor[GPU_METRICS_SENSOR_MAX]; /* "edge", "gfx", "gfxclk", "core3" */
  double value;                        /* base unit of the kind */
};

/* ASIC-independent throttle bits (amdgpu_smu.h, SMU_THROTTLER_*_BIT):
 * power throttlers in bits 0..15, current 16..31, temperature 32..55,
 * other 56..63. */
#define GPU_METRICS_THROTTLE_POWER UINT64_C(0x000000000000ffff)
#define GPU_METRICS_THROTTLE_CURRENT UINT64_C(0x00000000ffff0000)
#define GPU_METRICS_THROTTLE_THERMAL UINT64_C(0x00ffffff00000000)
#define GPU_METRICS_THROTTLE_OTHER UINT64_C(0xff00000000000000)

struct gpu_metrics {
  uint16_t structure_size;  /* from the header */
  uint8_t format_revision;  /* 1 dGPU, 2 and 3 APU */
  uint8_t content_revision; /* the minor version */
  /* energy_accumulator: a cumulative count of `energy_unit_joules` each,
   * `energy_bits` wide (32 in v1.0, 64 after); energy_unit_joules is 0
   * where the header states no unit (v1.0 .. v1.3) */
  bool have_energy;
  uint64_t energy_raw;
  unsigned energy_bits;
  double energy_unit_joules;
  /* throttle_status: ASIC-dependent bits (firmware's own meaning) */
  bool have_throttle;
  uint32_t throttle_status;
  /* indep_throttle_status: the ASIC-independent bits above */
  bool have_indep_throttle;
  uint64_t indep_throttle_status;
  /* a value left out because it needs the SMC firmware version, which
   * the caller did not give (v3.0's average_gfx_activity) */
  bool smc_version_needed;
  /* v1.9: values present in the list but not reported (beyond
   * GPU_METRICS_MAX_VALUES, or of a unit their attribute cannot have) */
  unsigned n_skipped;
  /* why the table was refused (-EINVAL), a constant string; NULL on
   * success */
  const char *error;
  size_t n_values;
  struct gpu_metrics_value values[GPU_METRICS_MAX_VALUES];
};

/* The SMC firmware version not known (fw_version/smc_fw_version absent or
 * unreadable): gpu_metrics_decode leaves out what depends on it. */
#define GPU_METRICS_SMC_UNKNOWN 0u
/* v3.0: average_gfx_activity is centi-percent up to this SMC firmware,
 * percent after it (smu_v14_0_0_ppt.c: smu_v14_0_0_get_smu_metrics_data,
 * METRICS_AVERAGE_GFXACTIVITY: GfxActivity / 100 unless smc_fw_version >
 * 0x5d4600). */
#define GPU_METRICS_V3_GFX_PERCENT_AFTER 0x5d4600u

/* The header of the `len` bytes at `buf`: 0 with the three values set,
 * or -EINVAL when shorter than the 4-byte header. */
int gpu_metrics_header(const void *buf, size_t len, uint8_t *format,
                       uint8_t *content, uint16_t *size);

/* Decode `len` bytes of a gpu_metrics read into `out` (zeroed first).
 * `smc_fw_version` is the device's SMC firmware version
 * (fw_version/smc_fw_version), or GPU_METRICS_SMC_UNKNOWN: a value whose
 * unit depends on it is then left out and out->smc_version_needed set.
 * Returns 0; -EINVAL (out->error says why) when shorter than the header,
 * when the header's structure_size is not the layout's size, when `len`
 * is shorter than the layout (the kernel copies sizeof the struct, up to
 * PAGE_SIZE - 1), or when a v1.9 attribute list does not add up; -ENOTSUP
 * for a format/content pair with no layout here (out's header fields are
 * still set, so the caller can name the revision). */
int gpu_metrics_decode(const void *buf, size_t len, uint32_t smc_fw_version,
                       struct gpu_metrics *out);

/* gpu_metrics_attrs.c: the v1.9 attribute list of the `len` bytes at
 * `buf` (its header already read into out: structure_size <= len) into
 * `out`; 0 or -EINVAL with out->error set. */
int gpu_metrics_attrs_decode(const uint8_t *buf, size_t len,
                             struct gpu_metrics *out);

/* The field name of a kind ("celsius", "power_watts", ...) and its ctype
 * (metric_unit.c). */
const char *gpu_metrics_kind_field(enum gpu_metrics_kind kind);
const char *gpu_metrics_kind_ctype(enum gpu_metrics_kind kind);

#endif
