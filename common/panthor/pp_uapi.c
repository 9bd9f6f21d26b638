/*
 * pp_uapi.c: compile-time checks of pp_uapi.h against the series'
 * include/uapi/drm/panthor_drm.h: every struct size, the offsets
 * where the two layouts differ or padding could creep in, and the ioctl
 * numbers as DRM_IOWR computes them. Nothing here runs.
 */
#include "common/panthor/pp_uapi.h"

#include <linux/ioctl.h>

#define PP_CHECK(t, size) _Static_assert(sizeof(t) == (size), #t " size")
#define PP_AT(t, f, off)                                                       \
  _Static_assert(offsetof(t, f) == (off), #t "." #f " offset")
PP_CHECK(struct pp_dev_query, 16);
PP_CHECK(struct pp_gpu_info, 112);
PP_AT(struct pp_gpu_info, coherency_features, 44);
PP_AT(struct pp_gpu_info, texture_features, 48);
PP_AT(struct pp_gpu_info, as_present, 64);
PP_AT(struct pp_gpu_info, shader_present, 72);
PP_AT(struct pp_gpu_info, l2_present, 80);
PP_AT(struct pp_gpu_info, tiler_present, 88);
PP_AT(struct pp_gpu_info, core_features, 96);
PP_AT(struct pp_gpu_info, gpu_features, 104);
PP_CHECK(struct pp_perf_info_rfc_v2, PP_PERF_INFO_SIZE_RFC_V2);
PP_AT(struct pp_perf_info_rfc_v2, csg_blocks, 24);
PP_AT(struct pp_perf_info_rfc_v2, shader_blocks, 40);
PP_CHECK(struct pp_perf_info_v6, PP_PERF_INFO_SIZE_V6);
PP_AT(struct pp_perf_info_v6, sample_size, 12);
PP_AT(struct pp_perf_info_v6, fw_blocks, 24);
PP_AT(struct pp_perf_info_v6, shader_blocks, 40);
PP_CHECK(struct pp_sample_header, 56);
PP_AT(struct pp_sample_header, block_set, 16);
PP_AT(struct pp_sample_header, flags, 20);
PP_AT(struct pp_sample_header, user_data, 24);
PP_AT(struct pp_sample_header, shader_clock_cycles, 48);
PP_CHECK(struct pp_block_header, 24);
PP_AT(struct pp_block_header, enable_mask, 8);
PP_CHECK(struct pp_perf_control, 24);
PP_CHECK(struct pp_cmd_user, 8);
PP_CHECK(struct pp_setup_rfc_v2, 136);
PP_AT(struct pp_setup_rfc_v2, fd, 8);
PP_AT(struct pp_setup_rfc_v2, sample_slots, 20);
PP_AT(struct pp_setup_rfc_v2, control_offset, 24);
PP_AT(struct pp_setup_rfc_v2, sample_freq_ns, 32);
PP_AT(struct pp_setup_rfc_v2, fw_enable_mask, 40);
PP_AT(struct pp_setup_rfc_v2, csg_enable_mask, 56);
PP_AT(struct pp_setup_rfc_v2, shader_enable_mask, 120);
PP_CHECK(struct pp_setup_v6, 120);
PP_AT(struct pp_setup_v6, cshw_enable_mask, 56);
PP_AT(struct pp_setup_v6, shader_enable_mask, 104);
PP_CHECK(struct pp_ring_control, 16);
PP_CHECK(struct pp_bo_create, 24);
PP_AT(struct pp_bo_create, handle, 16);
PP_CHECK(struct pp_bo_mmap_offset, 16);
PP_CHECK(struct pp_gem_close, 8);

/* The numbers are what DRM_IOWR computes from panthor_drm.h's ids. */
_Static_assert(PP_IOCTL_DEV_QUERY == _IOWR('d', 0x40, struct pp_dev_query),
               "DEV_QUERY");
_Static_assert(PP_IOCTL_BO_CREATE == _IOWR('d', 0x45, struct pp_bo_create),
               "BO_CREATE");
_Static_assert(PP_IOCTL_BO_MMAP_OFFSET ==
                   _IOWR('d', 0x46, struct pp_bo_mmap_offset),
               "BO_MMAP_OFFSET");
_Static_assert(PP_IOCTL_GEM_CLOSE == _IOW('d', 0x09, struct pp_gem_close),
               "GEM_CLOSE");
_Static_assert(PP_IOCTL_PERF_CONTROL_RFC_V2 ==
                   _IOWR('d', 0x40 + 13, struct pp_perf_control),
               "PERF_CONTROL RFC v2");
_Static_assert(PP_IOCTL_PERF_CONTROL_V6 ==
                   _IOWR('d', 0x40 + 17, struct pp_perf_control),
               "PERF_CONTROL v6");
