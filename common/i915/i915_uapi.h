/*
 * i915_uapi.h: the i915 perf uAPI as this project uses it.
 *
 * Struct layouts come from libdrm's copy of the kernel header
 * (<i915_drm.h>); the sizes and values the kernel ABI fixes (the
 * kernel's include/uapi/drm/i915_drm.h) are checked here at compile time.
 * libdrm's copy predates a few constants (OA timestamp frequency, engine
 * class/instance properties, ENOTSUPP): they are defined
 * below with the values of the kernel's include/uapi/drm/i915_drm.h (perf
 * revision 7).
 */
#ifndef COMMON_I915_I915_UAPI_H
#define COMMON_I915_I915_UAPI_H

#include <i915_drm.h>

/* GETPARAM ids newer than libdrm's header */
#define I915_UAPI_PARAM_OA_TIMESTAMP_FREQUENCY 57

/* PERF_OPEN property ids (libdrm stops at POLL_OA_PERIOD = 8) */
#define I915_UAPI_PROP_SAMPLE_OA 2
#define I915_UAPI_PROP_OA_METRICS_SET 3
#define I915_UAPI_PROP_OA_FORMAT 4
#define I915_UAPI_PROP_OA_EXPONENT 5
#define I915_UAPI_PROP_POLL_OA_PERIOD 8
#define I915_UAPI_PROP_OA_ENGINE_CLASS 9
#define I915_UAPI_PROP_OA_ENGINE_INSTANCE 10
#define I915_UAPI_PROP_MAX 11 /* non-ABI: first invalid id */

/* The kernel-internal "operation not supported" errno i915 perf returns
 * when it is not initialised; userspace has no name for it. */
#define I915_UAPI_ENOTSUPP 524

/* The OA buffer the kernel allocates per stream (fixed on i915). */
#define I915_UAPI_OA_BUFFER_SIZE (16u << 20)

/* Minimum POLL_OA_PERIOD the kernel accepts, and its default (ns). */
#define I915_UAPI_POLL_PERIOD_MIN_NS 100000u
#define I915_UAPI_POLL_PERIOD_DEFAULT_NS 5000000u

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
_Static_assert(I915_OA_FORMAT_A12 == 8 &&
                   I915_OA_FORMAT_A32u40_A4u32_B8_C8 == 10,
               "i915_drm.h");
_Static_assert(DRM_IOCTL_I915_PERF_OPEN == 0x40106476u, "i915_drm.h");
_Static_assert(DRM_IOCTL_I915_PERF_ADD_CONFIG == 0x40486477u, "i915_drm.h");
_Static_assert(DRM_IOCTL_I915_PERF_REMOVE_CONFIG == 0x40086478u, "i915_drm.h");
_Static_assert(DRM_IOCTL_I915_GETPARAM == 0xC0106446u, "i915_drm.h");
_Static_assert(DRM_IOCTL_I915_QUERY == 0xC0106479u, "i915_drm.h");

#endif
