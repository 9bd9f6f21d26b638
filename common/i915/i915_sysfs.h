/*
 * i915_sysfs.h: metric-set ids from sysfs (i915_perf.c:
 * create_dynamic_oa_sysfs_entry, show_dynamic_id): every
 * registered OA config has `<SysfsRoot>/class/drm/card<N>/metrics/<uuid>/id`
 * (decimal), under the card (primary) node even when the render node is
 * the one open.
 */
#ifndef COMMON_I915_I915_SYSFS_H
#define COMMON_I915_I915_SYSFS_H

#include <stddef.h>
#include <stdint.h>

/* The card node ("card0") of the device behind DRM node `node` (renderD128
 * or card0): the card* entry of `<sysfs_root>/class/drm/<node>/device/drm`.
 * 0 with `out` set, or -errno (-ENOENT when there is none). */
int i915_sysfs_card(const char *sysfs_root, const char *node, char *out,
                    size_t cap);

/* The id of metric set `uuid` on `card`: 0 with `*id` set, -ENOENT when
 * the config is not registered, -EINVAL when the file is not a positive
 * decimal number, other -errno of the read. */
int i915_sysfs_metric_id(const char *sysfs_root, const char *card,
                         const char *uuid, uint64_t *id);

/* A MetricSet value: a decimal id (> 0) gives itself; a uuid is looked up
 * with i915_sysfs_metric_id. -EINVAL when it is neither. */
int i915_sysfs_metric_resolve(const char *sysfs_root, const char *card,
                              const char *metric_set, uint64_t *id);

#endif
