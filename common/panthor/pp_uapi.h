/*
 * pp_uapi.h: the panthor perf uAPI, our own definitions for the two layouts
 * we speak: RFC v2 (Dec 2024, PERF_CONTROL id 13, CSG block type, no
 * sample_size) and v6 (Dec 2025, id 17, sample_size in perf_info). Neither
 * is in mainline (each series' include/uapi/drm/panthor_drm.h); every
 * size and offset below is checked at compile time against those structs,
 * and the ioctl numbers against DRM_IOWR (pp_uapi.c). Plus the mainline structs
 * we need (DEV_QUERY, GPU_INFO, BO_CREATE, BO_MMAP_OFFSET, GEM_CLOSE).
 *
 * Never issue a PERF_CONTROL number before DEV_QUERY PERF_INFO succeeded:
 * on a mainline kernel id 13 is BO_SET_LABEL and id 17 may be anything.
 */
#ifndef COMMON_PANTHOR_PP_UAPI_H
#define COMMON_PANTHOR_PP_UAPI_H

#include <stddef.h>
#include <stdint.h>

enum pp_layout {
  PP_LAYOUT_NONE = 0, /* not detected / auto */
  PP_LAYOUT_RFC_V2,   /* perf_info 48 bytes */
  PP_LAYOUT_V6,       /* perf_info 44 bytes */
};

/* ioctl numbers: DRM_IOWR(0x40 + id, struct) (panthor_drm.h) */
#define PP_IOCTL_DEV_QUERY 0xC0106440u
#define PP_IOCTL_BO_CREATE 0xC0186445u
#define PP_IOCTL_BO_MMAP_OFFSET 0xC0106446u
#define PP_IOCTL_GEM_CLOSE 0x40086409u           /* core DRM, W */
#define PP_IOCTL_PERF_CONTROL_RFC_V2 0xC018644Du /* id 13 */
#define PP_IOCTL_PERF_CONTROL_V6 0xC0186451u     /* id 17 */

/* DEV_QUERY types (4 is PERF_INFO in both layouts) */
#define PP_QUERY_GPU_INFO 0u
#define PP_QUERY_CSIF_INFO 1u
#define PP_QUERY_TIMESTAMP_INFO 2u
#define PP_QUERY_GROUP_PRIORITIES_INFO 3u
#define PP_QUERY_PERF_INFO 4u

/* perf_info sizes that identify the layout */
#define PP_PERF_INFO_SIZE_RFC_V2 48u
#define PP_PERF_INFO_SIZE_V6 44u

/* PERF_CONTROL commands (both layouts) */
#define PP_CMD_SETUP 0u
#define PP_CMD_TEARDOWN 1u
#define PP_CMD_START 2u
#define PP_CMD_STOP 3u
#define PP_CMD_SAMPLE 4u

/* Raw block type values: they differ between the layouts (each series' enum
 * drm_panthor_perf_block_type). */
#define PP_RAW_RFC_V2_FW 1u
#define PP_RAW_RFC_V2_CSG 2u
#define PP_RAW_RFC_V2_CSHW 3u
#define PP_RAW_RFC_V2_TILER 4u
#define PP_RAW_RFC_V2_MEMSYS 5u
#define PP_RAW_RFC_V2_SHADER 6u
#define PP_RAW_V6_METADATA 0u /* FW-internal, never exposed */
#define PP_RAW_V6_FW 1u
#define PP_RAW_V6_CSHW 2u
#define PP_RAW_V6_TILER 3u
#define PP_RAW_V6_MEMSYS 4u
#define PP_RAW_V6_SHADER 5u

#define PP_SAMPLE_OVERFLOW 1u /* sample header flags */
#define PP_SAMPLE_ERROR 2u
#define PP_FEAT_BLOCK_STATES 1u /* perf_info flags */

#define PP_SET_PRIMARY 0u /* counter sets; 1 and 2 need CAP_PERFMON */
#define PP_SET_SECONDARY 1u
#define PP_SET_TERTIARY 2u

#define PP_BO_NO_MMAP 1u /* BO_CREATE flag; must stay clear for our BOs */

struct pp_dev_query {
  uint32_t type;
  uint32_t size;    /* in: buffer size; out: copied (or real, if pointer 0) */
  uint64_t pointer; /* 0: size probe */
};

/* GPU_INFO, newest mainline layout; older kernels return a prefix. */
struct pp_gpu_info {
  uint32_t gpu_id, gpu_rev, csf_id, l2_features, tiler_features, mem_features,
      mmu_features, thread_features, max_threads, thread_max_workgroup_size,
      thread_max_barrier_size, coherency_features;
  uint32_t texture_features[4];
  uint32_t as_present, selected_coherency;
  uint64_t shader_present, l2_present, tiler_present;
  uint32_t core_features, pad;
  uint64_t gpu_features; /* arch 11+; bit 2 = ray intersection */
};

struct pp_perf_info_rfc_v2 {
  uint32_t counters_per_block, sample_header_size, block_header_size, flags,
      supported_clocks, fw_blocks, csg_blocks, cshw_blocks, tiler_blocks,
      memsys_blocks, shader_blocks, pad;
};

struct pp_perf_info_v6 {
  uint32_t counters_per_block, sample_header_size, block_header_size,
      sample_size, flags, supported_clocks, fw_blocks, cshw_blocks,
      tiler_blocks, memsys_blocks, shader_blocks;
};

struct pp_sample_header {
  uint64_t timestamp_start_ns, timestamp_end_ns;
  uint8_t block_set, pad[3];
  uint32_t flags;
  uint64_t user_data, toplevel_clock_cycles, coregroup_clock_cycles,
      shader_clock_cycles;
};

struct pp_block_header {
  uint8_t block_type, block_idx, block_states, clock, pad[4];
  uint64_t enable_mask[2];
};

struct pp_perf_control {
  uint32_t cmd;
  uint32_t handle; /* session id returned by SETUP (0 is valid) */
  uint64_t size;   /* argument size; pointer 0: size probe */
  uint64_t pointer;
};

struct pp_cmd_user { /* START, STOP, SAMPLE */
  uint64_t user_data;
};

struct pp_setup_rfc_v2 {
  uint8_t block_set, pad[7];
  int32_t fd; /* eventfd */
  uint32_t ringbuf_handle, control_handle, sample_slots;
  uint64_t control_offset, sample_freq_ns;
  uint64_t fw_enable_mask[2], csg_enable_mask[2], cshw_enable_mask[2],
      tiler_enable_mask[2], memsys_enable_mask[2], shader_enable_mask[2];
};

struct pp_setup_v6 {
  uint8_t block_set, pad[7];
  int32_t fd;
  uint32_t ringbuf_handle, control_handle, sample_slots;
  uint64_t control_offset, sample_freq_ns;
  uint64_t fw_enable_mask[2], cshw_enable_mask[2], tiler_enable_mask[2],
      memsys_enable_mask[2], shader_enable_mask[2];
};

/* At control_offset in the control BO, both layouts (RFC v2 order
 * [unverified]: the seed only says "a contiguous 16-byte range"). */
struct pp_ring_control {
  uint64_t extract_idx; /* written by userspace, wrapped */
  uint64_t insert_idx;  /* written by the kernel, already wrapped */
};

struct pp_bo_create {
  uint64_t size; /* in: requested; out: page-aligned */
  uint32_t flags, exclusive_vm_id, handle, pad;
};

struct pp_bo_mmap_offset {
  uint32_t handle, pad;
  uint64_t offset; /* out: fake offset for mmap on the DRM fd */
};

struct pp_gem_close {
  uint32_t handle, pad;
};

#endif
