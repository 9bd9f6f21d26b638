/*
 * i915_device.c: an i915 device's stream life (i915_device.h): open the
 * node, GETPARAM, the metric set, DRM_IOCTL_I915_PERF_OPEN (i915_perf.c:
 * i915_perf_open_ioctl), drain; one device failing never stops the
 * others, and a device failing at start is retried (devsession).
 */
#include "common/i915/i915_device.h"
#include "common/i915/i915_perf_open.h"
#include "common/i915/i915_sysfs.h"
#include "common/i915/i915_uapi.h"
#include "common/i915/oa_format.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static bool have_node(const struct drm_node *nodes, size_t n,
                      const char *path) {
  for (size_t i = 0; i < n; i++)
    if (strcmp(nodes[i].path, path) == 0)
      return true;
  return false;
}

int i915_device_find(const struct kernel_ops *k, const char *dev_root,
                     const char *sysfs_root, const char *const *wanted,
                     size_t n_wanted, struct drm_node *nodes, size_t max,
                     void (*on_missing)(void *ctx, const char *entry, int err),
                     void *ctx) {
  struct drm_node all[DRM_NODE_MAX];
  int n_all = -1;
  bool need_all = n_wanted == 0;
  for (size_t i = 0; i < n_wanted; i++)
    need_all |= wanted[i][0] != '/';
  if (need_all) {
    n_all = drm_node_find(k, dev_root, sysfs_root, "i915", all, DRM_NODE_MAX,
                          NULL, NULL);
    if (n_all < 0)
      return n_all;
    /* xe (xe_device.c: xe_driver.name) after i915: the same OA path */
    int n_xe = drm_node_find(k, dev_root, sysfs_root, "xe", all + n_all,
                             DRM_NODE_MAX - (size_t)n_all, NULL, NULL);
    if (n_xe > 0)
      n_all += n_xe;
  }
  size_t n = 0;
  if (n_wanted == 0) {
    for (int i = 0; i < n_all && n < max; i++)
      nodes[n++] = all[i];
    return (int)n;
  }
  for (size_t w = 0; w < n_wanted; w++) {
    struct drm_node node;
    int err = -ENOENT;
    if (wanted[w][0] == '/') {
      err = drm_node_describe(k, wanted[w], sysfs_root, &node);
      if (err == 0 && strcmp(node.driver, "i915") != 0 &&
          strcmp(node.driver, "xe") != 0)
        err = -ENODEV;
    } else {
      for (int i = 0; i < n_all && err != 0; i++)
        if (strcmp(all[i].pci, wanted[w]) == 0) {
          node = all[i];
          err = 0;
        }
    }
    if (err < 0) {
      if (on_missing != NULL)
        on_missing(ctx, wanted[w], err);
      continue;
    }
    if (n < max && !have_node(nodes, n, node.path))
      nodes[n++] = node;
  }
  return (int)n;
}

void i915_device_init(struct i915_device *dev, const struct drm_node *node) {
  memset(dev, 0, sizeof *dev);
  dev->node = *node;
  snprintf(dev->object, sizeof dev->object, "%s",
           node->pci[0] != '\0' ? node->pci : node->path);
  dev->fd = -1;
  dev->xe = strcmp(node->driver, "xe") == 0;
  i915_stream_init(&dev->stream, 0);
  devsession_init(&dev->session, NULL, dev->object);
}

/* Close stream and device (not the configs: the kernel keeps them). */
static void close_all(const struct kernel_ops *k, struct i915_device *dev) {
  i915_stream_close(k, &dev->stream);
  if (dev->fd >= 0)
    k->close(dev->fd);
  dev->fd = -1;
}

/* Say why `what` failed with `err` (once per episode) and arm the
 * backoff. Returns -err. */
static int failed(struct i915_device *dev, const struct i915_device_params *p,
                  const char *what, int err, uint64_t now_ns) {
  const char *hint = dev->xe ? xe_oa_open_hint(err) : i915_perf_open_hint(err);
  if (hint != NULL && hint[0] == '\0')
    hint = NULL;
  dev->session.plugin = p->plugin;
  /* a uuid's id file read, but not a number: name the file, the kernel's
   * hints do not apply (i915_perf.c: show_dynamic_id writes "%d
") */
  const char *uuid = strcmp(what, "metrics sysfs id") == 0 ? dev->flex_uuid
                     : strcmp(what, "MetricSet") == 0 && p->metric_set &&
                             i915_flex_uuid_valid(p->metric_set)
                         ? p->metric_set
                         : NULL;
  if (uuid != NULL && err == EINVAL)
    devsession_failf(&dev->session, now_ns, err, LOG_LEVEL_WARNING, what,
                     "%s/class/drm/%s/metrics/%s/id does not hold a metric "
                     "set id (a positive decimal number)",
                     p->sysfs_root, dev->card, uuid);
  else if (strcmp(what, "MetricSet") == 0 && err == ENOENT)
    devsession_failf(&dev->session, now_ns, err, LOG_LEVEL_WARNING, what,
                     "%s; hint: not registered on this device (see "
                     "%s/class/drm/%s/metrics)",
                     strerror(err), p->sysfs_root, dev->card);
  else
    devsession_failf(&dev->session, now_ns, err, LOG_LEVEL_WARNING, what,
                     "%s%s%s", i915_perf_open_strerror(err),
                     hint ? "; hint: " : "", hint ? hint : "");
  return -err;
}

/* xe: the identity from DEVICE_QUERY, completed into dev->id (the OA
 * timestamp frequency is the OA unit's: xe_query.c: query_oa_units). */
static int xe_identity(const struct kernel_ops *k, struct i915_device *dev,
                       const struct i915_device_params *p, const char **what) {
  int rc = xe_identity_read(k, dev->fd, &dev->xe_id, what);
  /* xe_query.c: xe_query_ioctl answers an unknown query id with EINVAL: a
   * kernel older than the OA_UNITS query has no xe OA at all */
  if (rc == -EINVAL && strcmp(*what, "DEVICE_QUERY OA_UNITS") == 0)
    return -ENODEV;
  if (rc < 0)
    return rc;
  int cls = p->engine_class >= 0 ? p->engine_class : DRM_XE_ENGINE_CLASS_RENDER;
  dev->xe_unit = xe_oa_unit_for(&dev->xe_id, cls, p->engine_instance);
  if (dev->xe_unit == NULL && p->engine_instance >= 0) /* on_identity says */
    dev->xe_unit = xe_oa_unit_for(&dev->xe_id, cls, -1);
  memset(&dev->id, 0, sizeof dev->id);
  dev->id.devid = dev->xe_id.devid;
  if (dev->xe_unit == NULL) {
    /* xe_query.c: query_oa_units lists none when OA is not initialised
     * (xe_oa.c: xe_oa_init: no GuC, or an SR-IOV VF) */
    *what = "DEVICE_QUERY OA_UNITS";
    return dev->xe_id.n_units == 0 ? -ENODEV : -EINVAL;
  }
  dev->id.oa_timestamp_hz = dev->xe_unit->timestamp_hz;
  return 0;
}

/* The metric-set id: MetricSet through sysfs, else the flex config
 * (ADD_CONFIG; EADDRINUSE: the id of the registered one from sysfs). */
static int metric_id(const struct kernel_ops *k, struct i915_device *dev,
                     const struct i915_device_params *p, const char **what) {
  if (p->metric_set != NULL) {
    *what = "MetricSet";
    return i915_sysfs_metric_resolve(p->sysfs_root, dev->card, p->metric_set,
                                     &dev->metric_id);
  }
  if (p->n_flex == 0) {
    *what = "MetricSet";
    return -EINVAL;
  }
  *what = dev->xe ? "OBSERVATION ADD_CONFIG" : "DRM_IOCTL_I915_PERF_ADD_CONFIG";
  i915_flex_uuid(p->flex, p->n_flex, dev->flex_uuid);
  int rc = dev->xe ? xe_oa_add_config(k, dev->fd, dev->flex_uuid, p->flex,
                                      p->n_flex, &dev->metric_id)
                   : i915_flex_add_config(k, dev->fd, dev->flex_uuid, p->flex,
                                          p->n_flex, &dev->metric_id);
  if (rc == 0) {
    dev->config_added = true;
    return 0;
  }
  if (rc != -EADDRINUSE)
    return rc;
  /* registered before (by an earlier run, or another instance): the same
   * uuid means the same registers, so its id is ours to use, not remove */
  *what = "metrics sysfs id";
  return i915_sysfs_metric_id(p->sysfs_root, dev->card, dev->flex_uuid,
                              &dev->metric_id);
}

int i915_device_open(const struct kernel_ops *k, struct i915_device *dev,
                     struct i915_device_params *p, uint64_t now_ns) {
  const char *what = "open";
  int rc;
  dev->session.plugin = p->plugin;
  if (dev->fd < 0) {
    dev->fd = k->open(dev->node.path, O_RDWR | O_CLOEXEC, 0);
    if (dev->fd < 0) {
      rc = -errno;
      goto fail;
    }
    if (dev->xe)
      rc = xe_identity(k, dev, p, &what);
    else if ((rc = i915_getparam_identity(k, dev->fd, &dev->id)) < 0)
      what = "DRM_IOCTL_I915_GETPARAM";
    if (rc < 0)
      goto fail;
    if (dev->card[0] == '\0' &&
        i915_sysfs_card(p->sysfs_root, dev->node.name, dev->card,
                        sizeof dev->card) < 0)
      /* no sysfs (a container): the card has the render node's index */
      snprintf(dev->card, sizeof dev->card, "card%u",
               dev->node.minor >= 128 ? dev->node.minor - 128
                                      : dev->node.minor);
    what = "setup";
    if (p->on_identity != NULL && (rc = p->on_identity(p->ctx, dev, p)) < 0)
      goto fail;
  }
  if (dev->metric_id == 0 && (rc = metric_id(k, dev, p, &what)) < 0)
    goto fail;
  if (dev->stream.fd < 0 && dev->xe) {
    struct xe_oa_open_args a = {
        .oa_unit_id = dev->xe_unit->id,
        .metric_set = dev->metric_id,
        .format = p->format,
        .exponent = p->exponent,
        .engine_instance = p->engine_instance,
    };
    rc = xe_oa_stream_open(k, dev->fd, &a, &what);
    if (rc < 0)
      goto fail;
    what = "stream buffer";
    if ((rc = i915_stream_attach(k, &dev->stream, rc)) < 0)
      goto fail;
  }
  if (dev->stream.fd < 0) {
    struct i915_perf_open_args a = {
        .perf_revision = dev->id.perf_revision,
        .metrics_set = dev->metric_id,
        .format = p->format,
        .exponent = p->exponent,
        .poll_period_ns = p->poll_period_ns,
        .engine_class = p->engine_class,
        .engine_instance = p->engine_instance,
    };
    what = "DRM_IOCTL_I915_PERF_OPEN";
    rc = i915_perf_open(k, dev->fd, &a);
    if (rc < 0)
      goto fail;
    what = "stream buffer";
    if ((rc = i915_stream_attach(k, &dev->stream, rc)) < 0)
      goto fail;
  }
  dev->started = true;
  devsession_opened(&dev->session);
  return 0;
fail:
  /* the next attempt starts from the device open: a half-open device
   * (identity unknown) is never used */
  close_all(k, dev);
  if (dev->xe && rc == -ENODEV && strcmp(what, "MetricSet") != 0) {
    /* no OA on this xe device (xe_oa.c: xe_oa_stream_open_ioctl answers
     * ENODEV before anything else): said once, never tried again */
    dev->no_oa = true;
    log_msg(LOG_LEVEL_WARNING, p->plugin, dev->object, what,
            "%s; hint: %s; this device is left alone", strerror(ENODEV),
            xe_oa_open_hint(ENODEV));
    return rc;
  }
  return failed(dev, p, what, -rc, now_ns);
}

struct xe_drain_ctx {
  i915_stream_fn fn;
  void *ctx;
  const struct i915_device_params *p;
};

static void xe_reports(void *ctx, const uint8_t *buf, size_t len) {
  struct xe_drain_ctx *x = ctx;
  x->fn(x->ctx, buf, len);
}

static void xe_status(void *ctx, uint64_t oa_status) {
  struct xe_drain_ctx *x = ctx;
  if (x->p->on_xe_status != NULL)
    x->p->on_xe_status(x->p->ctx, oa_status);
}

static int64_t xe_drain(const struct kernel_ops *k, struct i915_device *dev,
                        const struct i915_device_params *p, i915_stream_fn fn,
                        void *ctx) {
  static const struct xe_oa_drain_ops ops = {xe_reports, xe_status};
  struct xe_drain_ctx x = {fn, ctx, p};
  const struct oa_format *f = oa_format_get(p->format);
  if (f == NULL)
    return -EINVAL;
  int64_t n =
      xe_oa_drain_fd(k, dev->stream.fd, dev->stream.buf, dev->stream.cap,
                     f->size, &ops, &x, &dev->xe_counts);
  if (n > 0) {
    dev->stream.reads = dev->xe_counts.reads;
    dev->stream.bytes = dev->xe_counts.bytes;
  }
  return n;
}

int64_t i915_device_drain(const struct kernel_ops *k, struct i915_device *dev,
                          struct i915_device_params *p, uint64_t now_ns,
                          i915_stream_fn fn, void *ctx) {
  if (dev->paused || dev->no_oa)
    return 0;
  if (dev->stream.fd < 0) {
    if (!devsession_due(&dev->session, now_ns))
      return 0;
    int rc = i915_device_open(k, dev, p, now_ns);
    if (rc < 0)
      return rc;
  }
  int64_t n = dev->xe ? xe_drain(k, dev, p, fn, ctx)
                      : i915_stream_drain(k, &dev->stream, fn, ctx);
  if (n >= 0) {
    devsession_healthy(&dev->session, "stream", "open again");
    return n;
  }
  int err = (int)-n;
  close_all(k, dev);
  /* the config may be gone with the device: resolve it again */
  if (!dev->config_added)
    dev->metric_id = 0;
  return failed(dev, p, "read", err, now_ns);
}

void i915_device_pause(const struct kernel_ops *k, struct i915_device *dev) {
  i915_stream_close(k, &dev->stream);
  /* closed on purpose: the next open is a window, not a reopen */
  devsession_close(&dev->session);
  dev->paused = true;
}

int i915_device_resume(const struct kernel_ops *k, struct i915_device *dev,
                       struct i915_device_params *p, uint64_t now_ns) {
  int rc = i915_device_open(k, dev, p, now_ns);
  dev->paused = false;
  return rc;
}

void i915_device_stop(const struct kernel_ops *k, struct i915_device *dev,
                      const struct i915_device_params *p) {
  i915_stream_close(k, &dev->stream);
  if (dev->config_added) {
    int fd = dev->fd >= 0 ? dev->fd : k->open(dev->node.path, O_RDWR, 0);
    int rc = fd < 0    ? -errno
             : dev->xe ? xe_oa_remove_config(k, fd, dev->metric_id)
                       : i915_flex_remove_config(k, fd, dev->metric_id);
    if (rc < 0 && rc != -ENOENT)
      log_msg(LOG_LEVEL_WARNING, p->plugin, dev->object,
              dev->xe ? "OBSERVATION REMOVE_CONFIG"
                      : "DRM_IOCTL_I915_PERF_REMOVE_CONFIG",
              "%s", i915_perf_open_strerror(-rc));
    if (fd >= 0 && fd != dev->fd)
      k->close(fd);
    dev->config_added = false;
    dev->metric_id = 0;
  }
  if (dev->fd >= 0)
    k->close(dev->fd);
  dev->fd = -1;
  i915_stream_fini(k, &dev->stream);
  devsession_close(&dev->session);
}
