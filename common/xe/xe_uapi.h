/*
 * xe_uapi.h: the xe observation (OA) uAPI as this project uses it.
 *
 * Debian 12's libdrm (2.4.114) has no xe_drm.h, so the structs, ioctls and
 * constants used here are defined once below, under the kernel's names,
 * with the values and layouts of the kernel's include/uapi/drm/xe_drm.h;
 * every size and offset is checked at compile time. The kernel's header is
 * never included next to this one. Facts of the driver the header does not
 * name (the sysctl, the OA buffer default) cite their xe source file.
 */
#ifndef COMMON_XE_XE_UAPI_H
#define COMMON_XE_XE_UAPI_H

#include <drm.h>

#include <stddef.h>
#include <stdint.h>

/* xe_drm.h: ioctl numbers, offsets from DRM_COMMAND_BASE */
#define DRM_XE_DEVICE_QUERY 0x00
#define DRM_XE_OBSERVATION 0x0b

/* xe_drm.h: struct drm_xe_user_extension */
struct drm_xe_user_extension {
  uint64_t next_extension; /* user pointer to the next one, 0 at the end */
  uint32_t name;
  uint32_t pad; /* MBZ */
};

/* xe_drm.h: struct drm_xe_ext_set_property */
struct drm_xe_ext_set_property {
  struct drm_xe_user_extension base;
  uint32_t property;
  uint32_t pad; /* MBZ */
  uint64_t value;
  uint64_t reserved[2]; /* MBZ */
};

/* xe_drm.h: struct drm_xe_engine_class_instance */
#define DRM_XE_ENGINE_CLASS_RENDER 0
#define DRM_XE_ENGINE_CLASS_COPY 1
#define DRM_XE_ENGINE_CLASS_VIDEO_DECODE 2
#define DRM_XE_ENGINE_CLASS_VIDEO_ENHANCE 3
#define DRM_XE_ENGINE_CLASS_COMPUTE 4
struct drm_xe_engine_class_instance {
  uint16_t engine_class;
  uint16_t engine_instance;
  uint16_t gt_id;
  uint16_t pad;
};

/* xe_drm.h: struct drm_xe_engine, struct drm_xe_query_engines */
struct drm_xe_engine {
  struct drm_xe_engine_class_instance instance;
  uint64_t reserved[3];
};
struct drm_xe_query_engines {
  uint32_t num_engines;
  uint32_t pad;
  struct drm_xe_engine engines[];
};

/* xe_drm.h: struct drm_xe_query_config and its info[] indices */
#define DRM_XE_QUERY_CONFIG_REV_AND_DEVICE_ID 0 /* id: bits 15:0, rev 23:16 */
#define DRM_XE_QUERY_CONFIG_FLAGS 1
struct drm_xe_query_config {
  uint32_t num_params;
  uint32_t pad;
  uint64_t info[];
};

/* xe_drm.h: struct drm_xe_gt, struct drm_xe_query_gt_list */
#define DRM_XE_QUERY_GT_TYPE_MAIN 0
#define DRM_XE_QUERY_GT_TYPE_MEDIA 1
struct drm_xe_gt {
  uint16_t type;
  uint16_t tile_id;
  uint16_t gt_id;
  uint16_t pad[3];
  uint32_t reference_clock;
  uint64_t near_mem_regions;
  uint64_t far_mem_regions;
  uint16_t ip_ver_major; /* graphics/media IP version (GMD_ID platforms) */
  uint16_t ip_ver_minor;
  uint16_t ip_ver_rev;
  uint16_t pad2;
  uint64_t reserved[7];
};
struct drm_xe_query_gt_list {
  uint32_t num_gt;
  uint32_t pad;
  struct drm_xe_gt gt_list[];
};

/* xe_drm.h: struct drm_xe_device_query and the query ids. Size 0 asks
 * the kernel for the size; any other size but the exact one is EINVAL
 * (xe_query.c: query_engines and the other query_* functions). */
#define DRM_XE_DEVICE_QUERY_ENGINES 0
#define DRM_XE_DEVICE_QUERY_CONFIG 2
#define DRM_XE_DEVICE_QUERY_GT_LIST 3
#define DRM_XE_DEVICE_QUERY_OA_UNITS 8
struct drm_xe_device_query {
  uint64_t extensions;
  uint32_t query;
  uint32_t size;
  uint64_t data; /* user pointer */
  uint64_t reserved[2];
};

/* xe_drm.h: enum drm_xe_observation_type, enum drm_xe_observation_op,
 * struct drm_xe_observation_param */
#define DRM_XE_OBSERVATION_TYPE_OA 0
#define DRM_XE_OBSERVATION_OP_STREAM_OPEN 0
#define DRM_XE_OBSERVATION_OP_ADD_CONFIG 1
#define DRM_XE_OBSERVATION_OP_REMOVE_CONFIG 2
struct drm_xe_observation_param {
  uint64_t extensions;
  uint64_t observation_type;
  uint64_t observation_op;
  uint64_t param; /* user pointer: the first set_property, a config, or
                     a pointer to the u64 config id to remove */
};

#define DRM_IOCTL_XE_DEVICE_QUERY                                              \
  DRM_IOWR(DRM_COMMAND_BASE + DRM_XE_DEVICE_QUERY, struct drm_xe_device_query)
#define DRM_IOCTL_XE_OBSERVATION                                               \
  DRM_IOW(DRM_COMMAND_BASE + DRM_XE_OBSERVATION,                               \
          struct drm_xe_observation_param)

/* xe_drm.h: enum drm_xe_observation_ioctls (on the stream fd) */
#define DRM_XE_OBSERVATION_IOCTL_ENABLE _IO('i', 0x0)
#define DRM_XE_OBSERVATION_IOCTL_DISABLE _IO('i', 0x1)
#define DRM_XE_OBSERVATION_IOCTL_CONFIG _IO('i', 0x2)
#define DRM_XE_OBSERVATION_IOCTL_STATUS _IO('i', 0x3)
#define DRM_XE_OBSERVATION_IOCTL_INFO _IO('i', 0x4)

/* xe_drm.h: enum drm_xe_oa_unit_type, struct drm_xe_oa_unit (variable
 * size: num_engines eci[] follow), struct drm_xe_query_oa_units */
#define DRM_XE_OA_UNIT_TYPE_OAG 0
#define DRM_XE_OA_UNIT_TYPE_OAM 1
#define DRM_XE_OA_UNIT_TYPE_OAM_SAG 2
#define DRM_XE_OA_CAPS_BASE (1u << 0)
struct drm_xe_oa_unit {
  uint64_t extensions;
  uint32_t oa_unit_id;
  uint32_t oa_unit_type;
  uint64_t capabilities;
  uint64_t oa_timestamp_freq;
  uint64_t reserved[4];
  uint64_t num_engines;
  struct drm_xe_engine_class_instance eci[];
};
struct drm_xe_query_oa_units {
  uint64_t extensions;
  uint32_t num_oa_units;
  uint32_t pad;
  uint64_t oa_units[]; /* struct drm_xe_oa_unit, back to back */
};

/* xe_drm.h: enum drm_xe_oa_format_type and the OA_FORMAT property
 * fields (xe_oa.c: decode_oa_format matches them against oa_formats[]) */
#define DRM_XE_OA_FMT_TYPE_OAG 0
#define DRM_XE_OA_FMT_TYPE_OAR 1
#define DRM_XE_OA_FMT_TYPE_OAM 2
#define DRM_XE_OA_FMT_TYPE_OAC 3
#define DRM_XE_OA_FMT_TYPE_OAM_MPEC 4
#define DRM_XE_OA_FMT_TYPE_PEC 5
#define DRM_XE_OA_FORMAT_MASK_FMT_TYPE (0xffu << 0)
#define DRM_XE_OA_FORMAT_MASK_COUNTER_SEL (0xffu << 8)
#define DRM_XE_OA_FORMAT_MASK_COUNTER_SIZE (0xffu << 16)
#define DRM_XE_OA_FORMAT_MASK_BC_REPORT (0xffu << 24)

/* xe_drm.h: enum drm_xe_oa_property_id */
#define DRM_XE_OA_EXTENSION_SET_PROPERTY 0
#define DRM_XE_OA_PROPERTY_OA_UNIT_ID 1
#define DRM_XE_OA_PROPERTY_SAMPLE_OA 2
#define DRM_XE_OA_PROPERTY_OA_METRIC_SET 3
#define DRM_XE_OA_PROPERTY_OA_FORMAT 4
#define DRM_XE_OA_PROPERTY_OA_PERIOD_EXPONENT 5
#define DRM_XE_OA_PROPERTY_OA_DISABLED 6
#define DRM_XE_OA_PROPERTY_EXEC_QUEUE_ID 7
#define DRM_XE_OA_PROPERTY_OA_ENGINE_INSTANCE 8

/* xe_drm.h: struct drm_xe_oa_config */
struct drm_xe_oa_config {
  uint64_t extensions;
  char uuid[36];
  uint32_t n_regs;
  uint64_t regs_ptr; /* user pointer to (address, value) u32 pairs */
};

/* xe_drm.h: struct drm_xe_oa_stream_status and its oa_status bits */
#define DRM_XE_OASTATUS_REPORT_LOST (1u << 0)
#define DRM_XE_OASTATUS_BUFFER_OVERFLOW (1u << 1)
#define DRM_XE_OASTATUS_COUNTER_OVERFLOW (1u << 2)
#define DRM_XE_OASTATUS_MMIO_TRG_Q_FULL (1u << 3)
struct drm_xe_oa_stream_status {
  uint64_t extensions;
  uint64_t oa_status;
  uint64_t reserved[3];
};

/* xe_drm.h: struct drm_xe_oa_stream_info */
struct drm_xe_oa_stream_info {
  uint64_t extensions;
  uint64_t oa_buf_size;
  uint64_t reserved[3];
};

/* The sysctl xe_observation.c registers (observation_ctl_table:
 * "observation_paranoid" under "dev/xe"). */
#define XE_UAPI_PARANOID_SYSCTL "dev.xe.observation_paranoid"

/* The largest exponent xe_oa.c accepts (xe_oa_set_prop_oa_exponent:
 * value > OA_EXPONENT_MAX is EINVAL). */
#define XE_UAPI_OA_EXPONENT_MAX 31

_Static_assert(sizeof(struct drm_xe_user_extension) == 16, "xe_drm.h");
_Static_assert(sizeof(struct drm_xe_ext_set_property) == 48, "xe_drm.h");
_Static_assert(offsetof(struct drm_xe_ext_set_property, property) == 16,
               "xe_drm.h");
_Static_assert(offsetof(struct drm_xe_ext_set_property, value) == 24,
               "xe_drm.h");
_Static_assert(sizeof(struct drm_xe_engine_class_instance) == 8, "xe_drm.h");
_Static_assert(sizeof(struct drm_xe_engine) == 32, "xe_drm.h");
_Static_assert(sizeof(struct drm_xe_query_engines) == 8, "xe_drm.h");
_Static_assert(sizeof(struct drm_xe_query_config) == 8, "xe_drm.h");
_Static_assert(sizeof(struct drm_xe_gt) == 96, "xe_drm.h");
_Static_assert(offsetof(struct drm_xe_gt, reference_clock) == 12, "xe_drm.h");
_Static_assert(offsetof(struct drm_xe_gt, ip_ver_major) == 32, "xe_drm.h");
_Static_assert(sizeof(struct drm_xe_query_gt_list) == 8, "xe_drm.h");
_Static_assert(sizeof(struct drm_xe_device_query) == 40, "xe_drm.h");
_Static_assert(offsetof(struct drm_xe_device_query, size) == 12, "xe_drm.h");
_Static_assert(offsetof(struct drm_xe_device_query, data) == 16, "xe_drm.h");
_Static_assert(sizeof(struct drm_xe_observation_param) == 32, "xe_drm.h");
_Static_assert(offsetof(struct drm_xe_observation_param, param) == 24,
               "xe_drm.h");
_Static_assert(sizeof(struct drm_xe_oa_unit) == 72, "xe_drm.h");
_Static_assert(offsetof(struct drm_xe_oa_unit, oa_timestamp_freq) == 24,
               "xe_drm.h");
_Static_assert(offsetof(struct drm_xe_oa_unit, num_engines) == 64, "xe_drm.h");
_Static_assert(sizeof(struct drm_xe_query_oa_units) == 16, "xe_drm.h");
_Static_assert(sizeof(struct drm_xe_oa_config) == 56, "xe_drm.h");
_Static_assert(offsetof(struct drm_xe_oa_config, n_regs) == 44, "xe_drm.h");
_Static_assert(offsetof(struct drm_xe_oa_config, regs_ptr) == 48, "xe_drm.h");
_Static_assert(sizeof(struct drm_xe_oa_stream_status) == 40, "xe_drm.h");
_Static_assert(sizeof(struct drm_xe_oa_stream_info) == 40, "xe_drm.h");
/* the ioctl request numbers the kernel's macros give */
_Static_assert(DRM_IOCTL_XE_DEVICE_QUERY == 0xC0286440u, "xe_drm.h");
_Static_assert(DRM_IOCTL_XE_OBSERVATION == 0x4020644Bu, "xe_drm.h");
_Static_assert(DRM_XE_OBSERVATION_IOCTL_ENABLE == 0x6900 &&
                   DRM_XE_OBSERVATION_IOCTL_DISABLE == 0x6901 &&
                   DRM_XE_OBSERVATION_IOCTL_CONFIG == 0x6902 &&
                   DRM_XE_OBSERVATION_IOCTL_STATUS == 0x6903 &&
                   DRM_XE_OBSERVATION_IOCTL_INFO == 0x6904,
               "xe_drm.h");

#endif
