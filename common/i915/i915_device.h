/*
 * i915_device.h: one i915 device's OA stream over its life: open the
 * node, learn its identity, obtain the metric-set id (a sysfs uuid, a
 * number, or a flex config added with ADD_CONFIG), open the stream, drain
 * it at every read, and after EIO or a vanished device close everything
 * and reopen with backoff (common/core/devsession: 1 s doubling to
 * 5 min). Failures are logged once per episode with the kernel's meaning
 * (i915_perf_open_hint), recovery at INFO. Every kernel call goes through
 * the seam.
 */
#ifndef COMMON_I915_I915_DEVICE_H
#define COMMON_I915_I915_DEVICE_H

#include "common/core/devsession.h"
#include "common/core/kernel.h"
#include "common/core/log.h"
#include "common/drm/drm_node.h"
#include "common/i915/i915_flex.h"
#include "common/i915/i915_getparam.h"
#include "common/i915/i915_stream.h"
#include "common/xe/xe_oa.h"

#include <stdbool.h>
#include <stdint.h>

struct i915_device;

/* What the plugin asks of every device (borrowed strings). */
struct i915_device_params {
  const char *plugin;     /* LoadPlugin name, for messages */
  const char *sysfs_root; /* normally /sys */
  const char *metric_set; /* uuid or decimal id; NULL: the flex config */
  const uint32_t *flex;   /* (address, value) pairs, or NULL */
  size_t n_flex;
  uint32_t format;                   /* drm_i915_oa_format */
  int exponent;                      /* 0..31, < 0 not periodic */
  uint64_t poll_period_ns;           /* 0: kernel default */
  int engine_class, engine_instance; /* < 0: default engine */
  /* Optional: called once the device's identity is known (every time the
   * device is opened, before the stream): may set format, exponent and
   * the rest from dev->id (platform table, OA timestamp frequency).
   * 0, or -errno to refuse the device (logged as "setup"). */
  int (*on_identity)(void *ctx, const struct i915_device *dev,
                     struct i915_device_params *p);
  void *ctx;
  /* xe devices: the drain hands whole reports (no record headers) to the
   * drain's `fn`, and each OA status the kernel reports after an EIO
   * (DRM_XE_OASTATUS_* bits) here (may be NULL). */
  void (*on_xe_status)(void *ctx, uint64_t oa_status);
};

struct i915_device {
  struct drm_node node;           /* path, name, pci */
  char object[DRM_NODE_PATH_MAX]; /* how messages name it (PCI or path) */
  char card[16];                  /* card<N> of the metrics directory */
  struct i915_identity id;
  int fd; /* device fd (owned), -1 closed */
  struct i915_stream stream;
  /* the stream's life: backoff, opens and reopens (successful stream
   * opens; reopens after the first), last_err (0 when healthy), said */
  struct devsession session;
  uint64_t metric_id;
  char flex_uuid[I915_FLEX_UUID_SIZE];
  bool config_added; /* ADD_CONFIG by us: REMOVE_CONFIG at stop */
  bool started;      /* the stream was open once */
  bool paused;       /* closed on purpose (i915_device_pause) */
  /* xe devices (the node's driver is "xe"): the identity from
   * DEVICE_QUERY (dev->id gets its devid and the OA unit's timestamp
   * frequency), the OA unit of the stream, the stream's counts, and
   * `no_oa`: the kernel answered ENODEV (an SR-IOV VF, no GuC), said once
   * and the device left alone. */
  bool xe;
  struct xe_identity xe_id;
  const struct xe_oa_unit_info *xe_unit;
  struct xe_oa_stream_counts xe_counts;
  bool no_oa;
};

/* The i915 and xe render nodes the `Device` options name: each entry of
 * `wanted` (n_wanted; none: every i915 node, then every xe node, under
 * `dev_root`) is a node
 * path ("/dev/dri/renderD128", described through the seam) or a PCI
 * address ("0000:00:02.0", matched against the i915 nodes found). Fills
 * up to `max` nodes, without duplicates, and returns how many; an entry
 * that names no i915 or xe node is passed to `on_missing` (may be NULL)
 * with a negative errno (-ENODEV: another driver; -ENOENT: no such
 * node/address; or the error of opening it). -errno when `dev_root` cannot be
 * listed and a PCI address or no Device was given. */
int i915_device_find(const struct kernel_ops *k, const char *dev_root,
                     const char *sysfs_root, const char *const *wanted,
                     size_t n_wanted, struct drm_node *nodes, size_t max,
                     void (*on_missing)(void *ctx, const char *entry, int err),
                     void *ctx);

/* Set up `dev` for DRM node `node` (copied); nothing is opened. Messages
 * name the plugin of the params given to the first i915_device_open. */
void i915_device_init(struct i915_device *dev, const struct drm_node *node);

/* Open whatever is not open yet (device, identity, metric set, stream).
 * 0 when the stream is open, else -errno of the step that failed (logged
 * once, backoff armed; *what names the step for the caller). Called at
 * init and, through i915_device_drain, whenever the backoff is due. */
int i915_device_open(const struct kernel_ops *k, struct i915_device *dev,
                     struct i915_device_params *p, uint64_t now_ns);

/* Drain the stream into `fn` (i915_stream_drain). When it is closed and
 * the backoff is due, reopen first; when the read fails (EIO, ENODEV),
 * close stream and device and arm the backoff. Returns the bytes drained,
 * 0 while waiting for the backoff, or -errno. */
int64_t i915_device_drain(const struct kernel_ops *k, struct i915_device *dev,
                          struct i915_device_params *p, uint64_t now_ns,
                          i915_stream_fn fn, void *ctx);

/* Close the stream on purpose, keeping the device fd and the metric set:
 * the kernel then drops its runtime-PM and forcewake references and the
 * exclusive OA unit (i915_perf.c: i915_perf_release ->
 * i915_oa_stream_destroy), so the GPU may enter RC6 and other OA users
 * may open. Drains return 0 until i915_device_resume. */
void i915_device_pause(const struct kernel_ops *k, struct i915_device *dev);

/* Open the stream again after i915_device_pause (not counted in
 * `reopens`): 0, or -errno as i915_device_open (logged, backoff armed;
 * later drains retry). */
int i915_device_resume(const struct kernel_ops *k, struct i915_device *dev,
                       struct i915_device_params *p, uint64_t now_ns);

/* Close the stream, REMOVE_CONFIG what this device added, close the
 * device, free the buffer. Idempotent. */
void i915_device_stop(const struct kernel_ops *k, struct i915_device *dev,
                      const struct i915_device_params *p);

#endif
