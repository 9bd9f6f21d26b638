/*
 * ddv_tree.h: synthetic sysfs trees of DRM devices for drm_device tests,
 * laid out as the kernel lays them out (the paths and units are those of
 * the kernel functions cited in plugins/drm_device/ddv_devices.c):
 *
 *   sys/class/drm/card<N> -> ../../devices/<bus path>/<dev>/drm/card<N>
 *   sys/devices/<bus path>/<dev>/drm/card<N>/device -> ../../../<dev>
 *   sys/devices/<bus path>/<dev>/driver -> ../../../bus/<bus>/drivers/<drv>
 *   sys/class/accel/accel<N> likewise under <dev>/accel/accel<N>
 *
 * Everything lives under one mkdtemp() directory; no root needed.
 */
#ifndef TESTS_LIB_DDV_TREE_H
#define TESTS_LIB_DDV_TREE_H

#include <stdbool.h>
#include <stddef.h>

struct ddv_tree {
  char root[256];
  char sys[300];
};

/* An empty tree under a new temporary directory (or under `dir` when not
 * NULL, which must exist); 0 or -errno. */
int ddv_tree_init(struct ddv_tree *t, const char *dir);
/* Remove the temporary directory (not a given `dir`'s contents). */
void ddv_tree_fini(struct ddv_tree *t);

/* A node `node` ("card0", "accel0") of class "drm" or "accel" for device
 * `dev` (PCI slot or platform name) bound to `driver`, runtime_status
 * "active", power/control "on", autosuspend_delay_ms 1000. 0 or -errno. */
int ddv_tree_device(struct ddv_tree *t, const char *cls, const char *node,
                    const char *dev, const char *driver);
/* Write `text` to sys/class/drm/<node>/<rel> (card nodes) or
 * sys/class/accel/<node>/<rel> (accel nodes), making directories. */
int ddv_tree_write(struct ddv_tree *t, const char *node, const char *rel,
                   const char *text);
/* Write `len` bytes of `data` there (binary attributes: gpu_metrics). */
int ddv_tree_write_bin(struct ddv_tree *t, const char *node, const char *rel,
                       const void *data, size_t len);
/* Write amdgpu's gpu_metrics of revision format.content there
 * (tests/lib/gm_build: first_layout for v1.6's first). */
int ddv_tree_gpu_metrics(struct ddv_tree *t, const char *node, unsigned format,
                         unsigned content, int first_layout);
/* Unbind or unplug: remove the node's class link and its own directory
 * (drm_minor_unregister: device_del), leaving the device's files. */
int ddv_tree_unbind(struct ddv_tree *t, const char *node);
/* Remove that file. */
int ddv_tree_remove(struct ddv_tree *t, const char *node, const char *rel);

/*
 * Whole devices with the values the tests expect (each adds its node):
 *   i915_igpu   card0 0000:00:02.0 i915, no gt/ directory (card-level files)
 *   i915_mtl    card0 0000:00:02.0 i915, gt/gt0 and gt/gt1
 *   i915_dgpu   card1 0000:03:00.0 i915, gt/gt0, hwmon energy/power
 *   xe_bmg      card1 0000:03:00.0 xe, tile0/gt0 and tile0/gt1, hwmon
 *   amdgpu_dgpu card1 0000:0b:00.0 amdgpu, pp_dpm, mem_info, hwmon, PCI
 *               ids, unique_id, vram vendor, gpu_metrics v1.3
 *   amdgpu_apu  card0 0000:c1:00.0 amdgpu, pp_dpm, mem_info, busy, PCI
 *               ids, gpu_metrics v2.2
 *   amdgpu_mi300 card2 0000:05:00.0 amdgpu, mem_info, gpu_metrics v1.8
 *   amdgpu_strix card3 0000:c5:00.0 amdgpu, gpu_metrics v3.0, SMC
 *               firmware 0x005d4600 (gfx activity in centi-percent)
 *   amdgpu_mi355 card4 0000:75:00.0 amdgpu, mem_info, PCI ids,
 *               gpu_metrics v1.9 (smu_v13_0_6's attribute list)
 *   panfrost    card0 fde60000.gpu panfrost, devfreq
 *   ivpu        accel0 0000:00:0b.0 intel_vpu, npu_busy_time_us,
 *               npu_memory_utilization, PCI ids
 * Returns 0 or -errno; -EINVAL for an unknown name.
 */
int ddv_tree_fixture(struct ddv_tree *t, const char *name);

/* Set power/control ("auto" or "on") and autosuspend_delay_ms of a node's
 * device (drivers/base/power/sysfs.c: control_show,
 * autosuspend_delay_ms_show). */
int ddv_tree_autosuspend(struct ddv_tree *t, const char *node,
                         const char *control, long long delay_ms);

/* Set runtime_status (and the two times, in ms) of a node's device. */
int ddv_tree_runtime(struct ddv_tree *t, const char *node, const char *status,
                     unsigned long long active_ms,
                     unsigned long long suspended_ms);

#endif
