/*
 * i915_uapi.h: the i915 perf uAPI as this project uses it.
 *
 * Struct layouts come from libdrm's copy of the kernel header
 * (<i915_drm.h>); the sizes and values the kernel ABI fixes (the
 * kernel's include/uapi/drm/i915_drm.h) are checked here at compile time.
 * Debian 12's libdrm (2.4.114) predates a few constants (OA timestamp
 * frequency, the DG2 and MTL formats, the engine class/instance
 * properties): each is defined once below, under an I915_UAPI_ name, with
 * the value of the kernel's include/uapi/drm/i915_drm.h (perf revision 7);
 * so are the facts of i915_perf.c the header does not name (ENOTSUPP, the
 * OA buffer size, the minimum poll period).
 */
#ifndef COMMON_I915_I915_UAPI_H
#define COMMON_I915_I915_UAPI_H

#include <i915_drm.h>

/* GETPARAM ids newer than libdrm's header */
#define I915_UAPI_PARAM_OA_TIMESTAMP_FREQUENCY 57

/* enum drm_i915_oa_format values newer than libdrm's header (which stops
 * at I915_OA_FORMAT_A32u40_A4u32_B8_C8 = 10). Own names: the kernel's are
 * enum constants, which a newer libdrm would declare again. */
#define I915_UAPI_OAR_FORMAT_A32u40_A4u32_B8_C8 11
#define I915_UAPI_OA_FORMAT_A24u40_A14u32_B8_C8 12
#define I915_UAPI_OAM_FORMAT_MPEC8u64_B8_C8 13 /* MTL OAM */
#define I915_UAPI_OAM_FORMAT_MPEC8u32_B8_C8 14 /* MTL OAM */
#define I915_UAPI_OA_FORMAT_LAST I915_UAPI_OAM_FORMAT_MPEC8u32_B8_C8

/* enum drm_i915_perf_property_id values newer than libdrm's header (which
 * stops at DRM_I915_PERF_PROP_POLL_OA_PERIOD = 8; perf revision 6) */
#define I915_UAPI_PROP_OA_ENGINE_CLASS 9
#define I915_UAPI_PROP_OA_ENGINE_INSTANCE 10
#define I915_UAPI_PROP_MAX 11 /* the kernel's non-ABI first invalid id */

/* Engine class names as i915 gives them to userspace (i915_drm_client.c:
 * uabi_class_names), indexed by I915_ENGINE_CLASS_*: an initialiser. */
#define I915_UAPI_ENGINE_CLASSES (I915_ENGINE_CLASS_COMPUTE + 1)
#define I915_UAPI_ENGINE_CLASS_NAMES                                           \
  {                                                                            \
    [I915_ENGINE_CLASS_RENDER] = "render", [I915_ENGINE_CLASS_COPY] = "copy",  \
    [I915_ENGINE_CLASS_VIDEO] = "video",                                       \
    [I915_ENGINE_CLASS_VIDEO_ENHANCE] = "video-enhance",                       \
    [I915_ENGINE_CLASS_COMPUTE] = "compute",                                   \
  }

/* The kernel-internal "operation not supported" errno i915 perf returns
 * when it is not initialised; userspace has no name for it. */
#define I915_UAPI_ENOTSUPP 524

/* The OA buffer the kernel allocates per stream (fixed on i915). */
#define I915_UAPI_OA_BUFFER_SIZE (16u << 20)

/* Minimum POLL_OA_PERIOD the kernel accepts (ns; i915_perf.c:
 * read_properties_unlocked). */
#define I915_UAPI_POLL_PERIOD_MIN_NS 100000u

/* The length of a metrics-set uuid, without terminator. */
#define I915_UAPI_UUID_LEN 36

_Static_assert(sizeof(struct drm_i915_perf_open_param) == 16, "i915_drm.h");
_Static_assert(sizeof(struct drm_i915_perf_oa_config) == 72, "i915_drm.h");
_Static_assert(sizeof(struct drm_i915_getparam) == 16, "i915_drm.h");
_Static_assert(sizeof(struct drm_i915_query) == 16, "i915_drm.h");
_Static_assert(sizeof(struct drm_i915_query_item) == 24, "i915_drm.h");
_Static_assert(sizeof(struct drm_i915_query_topology_info) == 16, "i915_drm.h");
_Static_assert(sizeof(struct drm_i915_perf_record_header) == 8, "i915_drm.h");
_Static_assert(DRM_I915_PERF_RECORD_SAMPLE == 1 &&
                   DRM_I915_PERF_RECORD_OA_REPORT_LOST == 2 &&
                   DRM_I915_PERF_RECORD_OA_BUFFER_LOST == 3,
               "i915_drm.h");
_Static_assert(I915_OA_FORMAT_A13 == 1 && I915_OA_FORMAT_A45_B8_C8 == 5 &&
                   I915_OA_FORMAT_C4_B8 == 7 && I915_OA_FORMAT_A12 == 8 &&
                   I915_OA_FORMAT_A32u40_A4u32_B8_C8 == 10,
               "i915_drm.h");
_Static_assert(DRM_I915_PERF_PROP_CTX_HANDLE == 1 &&
                   DRM_I915_PERF_PROP_SAMPLE_OA == 2 &&
                   DRM_I915_PERF_PROP_OA_METRICS_SET == 3 &&
                   DRM_I915_PERF_PROP_OA_FORMAT == 4 &&
                   DRM_I915_PERF_PROP_OA_EXPONENT == 5 &&
                   DRM_I915_PERF_PROP_HOLD_PREEMPTION == 6 &&
                   DRM_I915_PERF_PROP_GLOBAL_SSEU == 7 &&
                   DRM_I915_PERF_PROP_POLL_OA_PERIOD == 8,
               "i915_drm.h");
_Static_assert(I915_ENGINE_CLASS_RENDER == 0 && I915_ENGINE_CLASS_COPY == 1 &&
                   I915_ENGINE_CLASS_VIDEO == 2 &&
                   I915_ENGINE_CLASS_VIDEO_ENHANCE == 3 &&
                   I915_ENGINE_CLASS_COMPUTE == 4,
               "i915_drm.h");
_Static_assert(I915_PERF_FLAG_FD_CLOEXEC == 1 &&
                   I915_PERF_FLAG_FD_NONBLOCK == 2 &&
                   I915_PERF_FLAG_DISABLED == 4,
               "i915_drm.h");
_Static_assert(I915_PERF_IOCTL_ENABLE == 0x6900 &&
                   I915_PERF_IOCTL_DISABLE == 0x6901 &&
                   I915_PERF_IOCTL_CONFIG == 0x6902,
               "i915_drm.h");
_Static_assert(DRM_IOCTL_I915_PERF_OPEN == 0x40106476u, "i915_drm.h");
_Static_assert(DRM_IOCTL_I915_PERF_ADD_CONFIG == 0x40486477u, "i915_drm.h");
_Static_assert(DRM_IOCTL_I915_PERF_REMOVE_CONFIG == 0x40086478u, "i915_drm.h");
_Static_assert(DRM_IOCTL_I915_GETPARAM == 0xC0106446u, "i915_drm.h");
_Static_assert(DRM_IOCTL_I915_QUERY == 0xC0106479u, "i915_drm.h");

#endif
