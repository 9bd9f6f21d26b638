/*
 * i915_oa.c: the plugin core. One OA stream per i915 device (Device
 * options, or every i915 render node under DevRoot), read in one
 * direction: drain the stream (common/i915/i915_device) -> walk and
 * accumulate every record (common/i915/oa_accum) -> records from state
 * (ioa_records.c) -> sink. The drain hook empties the streams between reads
 * so the 16 MiB OA buffer never overflows however long the interval.
 */
#include "plugins/i915_oa/i915_oa.h"
#include "common/core/fileio.h"
#include "common/core/found.h"
#include "common/i915/i915_perf_open.h"
#include "common/i915/oa_format.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void *oa_new(const char *instance) {
  (void)instance;
  struct oa_instance *inst = calloc(1, sizeof(*inst));
  if (inst != NULL)
    oa_config_defaults(&inst->cfg);
  return inst;
}

static int oa_configure(void *p, const struct cfg_item *item) {
  return oa_config_apply(&((struct oa_instance *)p)->cfg, item);
}

static const char *or_default(const char *v, const char *def) {
  return v != NULL ? v : def;
}

/* RP0, the highest GT frequency, in Hz from the card's gt_RP0_freq_mhz
 * (i915's legacy card attribute for gt0, gt/intel_gt_sysfs_pm.c); 0 when
 * unreadable. */
static uint64_t oa_read_rp0(const char *sysfs_root, const char *card) {
  char path[512], text[32];
  snprintf(path, sizeof path, "%s/class/drm/%s/gt_RP0_freq_mhz", sysfs_root,
           card);
  uint64_t mhz;
  if (fileio_read_line_at(AT_FDCWD, path, text, sizeof text) < 0 ||
      cfg_parse_u64(text, &mhz) < 0 || mhz == 0 || mhz > 100000)
    return 0;
  return mhz * 1000000u;
}

/* xe decodes the format property by its encoding within the platform's
 * own set (xe_oa.c: decode_oa_format over xe_oa_init_supported_formats):
 * a format of another platform with the same encoding would open and be
 * read in this platform's layout, and one outside the set is the
 * kernel's EINVAL. Both refused here naming the platform's own. */
static int oa_xe_format_check(struct oa_dev *d, const struct i915_device *dev,
                              uint32_t format) {
  unsigned gfx = xe_identity_gfx_ver(&dev->xe_id);
  uint32_t decoded = xe_oa_format_decoded(gfx, format);
  if (decoded == format)
    return 0;
  const struct oa_format *own = oa_format_get(xe_oa_default_format(gfx));
  if (log_complaint_raise(&d->identity_complaint))
    log_msg(LOG_LEVEL_ERROR, OA_PLUGIN, dev->object, "Format",
            "%s: xe on graphics %u.%02u %s; this platform's format is %s",
            oa_format_get(format)->name, gfx / 100, gfx % 100,
            decoded != 0 ? "reads it in the layout of another format of the "
                           "same encoding"
                         : "does not offer it",
            own != NULL ? own->name : "unknown");
  return -EINVAL;
}

/* Called by i915_device_open once the identity is known, before the
 * stream opens: the format, the exponent and a fresh accumulator base. */
static int oa_on_identity(void *ctx, const struct i915_device *dev,
                          struct i915_device_params *p) {
  struct oa_dev *d = ctx;
  struct oa_instance *inst = d->inst;
  d->platform = oa_platform_lookup(dev->id.devid);
  bool media = inst->cfg.engine_class == 2 || inst->cfg.engine_class == 3;
  if (dev->xe && media) {
    /* xe's media OA units are OAM/OAM_SAG with formats of their own: only
     * the OAG unit (render and compute engines) is read here */
    if (log_complaint_raise(&d->identity_complaint))
      log_msg(LOG_LEVEL_ERROR, OA_PLUGIN, dev->object, "Engine",
              "the xe media OA units (OAM) are not read; use Engine render");
    return -EINVAL;
  }
  if (dev->xe && inst->cfg.engine_instance >= 0 && dev->xe_unit != NULL &&
      dev->xe_unit->n_engines > 0) {
    /* xe_oa.c: xe_oa_assign_hwe: without an exec queue the stream runs on
     * the first engine of the OA unit, whatever ENGINE_INSTANCE says; the
     * unit's engines come in that order from query_oa_units */
    const struct drm_xe_engine_class_instance *first =
        &dev->xe_unit->engines[0];
    if (first->engine_class != inst->cfg.engine_class ||
        first->engine_instance != inst->cfg.engine_instance) {
      if (log_complaint_raise(&d->identity_complaint))
        log_msg(LOG_LEVEL_ERROR, OA_PLUGIN, dev->object, "Engine",
                "xe opens a system-wide stream on the first engine of the "
                "OA unit (class %u instance %u) whatever the instance "
                "asked; leave the instance out or give that engine",
                (unsigned)first->engine_class,
                (unsigned)first->engine_instance);
      return -EINVAL;
    }
  }
  if (!dev->xe && media && d->platform->media_format == 0) {
    /* i915_perf.c: __oa_engine_group gives the media classes an OA unit
     * (OAM) from graphics 12.70 on only */
    if (log_complaint_raise(&d->identity_complaint))
      log_msg(LOG_LEVEL_ERROR, OA_PLUGIN, dev->object, "Engine",
              "%s (0x%04x) has no OA unit on its video engines (MTL's media "
              "GT has one); use Engine render",
              d->platform->name, (unsigned)dev->id.devid);
    return -EINVAL;
  }
  /* the unit decides the format family (i915_perf.c:
   * read_properties_unlocked, engine_supports_oa_format): OAG formats for
   * render, OAM formats for the media engines */
  uint32_t format = inst->cfg.format ? inst->cfg.format
                    : dev->xe
                        ? xe_oa_default_format(xe_identity_gfx_ver(&dev->xe_id))
                    : media ? d->platform->media_format
                            : d->platform->default_format;
  if (format == 0) {
    log_msg(LOG_LEVEL_ERROR, OA_PLUGIN, dev->object, "identity",
            "device id 0x%04x is not in the platform table; set Format",
            (unsigned)dev->id.devid);
    return -EINVAL;
  }
  const struct oa_format *fmt = oa_format_get(format);
  uint64_t hz = dev->id.oa_timestamp_hz;
  if (hz == 0 && d->platform->timestamp_hz != 0) {
    /* a kernel without GETPARAM 57 and 51: the frequency its
     * i915_perf_init used for the platform (the identity is the plugin's
     * to complete: d->dev is dev) */
    hz = d->platform->timestamp_hz;
    d->dev.id.oa_timestamp_hz = hz;
  }
  if (hz == 0) {
    if (log_complaint_raise(&d->identity_complaint))
      log_msg(LOG_LEVEL_ERROR, OA_PLUGIN, dev->object, "identity",
              "the kernel gives no OA timestamp frequency (GETPARAM 57 and 51 "
              "fail) and %s (0x%04x) has none known: the sampling exponent "
              "cannot be chosen",
              d->platform->name, (unsigned)dev->id.devid);
    return -EINVAL;
  }
  int e = oa_exponent_for_period(inst->cfg.period_ns, hz);
  /* the longest period whose reports still see every 32-bit wrap */
  d->max_clock_hz = oa_read_rp0(p->sysfs_root, dev->card);
  uint64_t cap_ns = oa_period_cap_ns(d->max_clock_hz);
  int capped = oa_exponent_cap(e, hz, cap_ns);
  if (capped < e) {
    if (!d->acc_ready)
      log_msg(
          LOG_LEVEL_NOTICE, OA_PLUGIN, dev->object, "Period",
          "longer than the %llu ns in which 32-bit report fields can "
          "wrap at %s%llu MHz; sampling every %llu ns instead",
          (unsigned long long)cap_ns * 2,
          d->max_clock_hz ? "RP0 " : "an assumed ",
          (unsigned long long)((d->max_clock_hz ? d->max_clock_hz
                                                : OA_MAX_CLOCK_FALLBACK_HZ) /
                               1000000),
          (unsigned long long)oa_exponent_period_ns(capped, hz));
    e = capped;
  }
  if (!inst->privileged && inst->max_rate_hz > 0) {
    int min_e = i915_perf_open_min_exponent(hz, inst->max_rate_hz);
    if (e < min_e) {
      if (!d->acc_ready)
        log_msg(
            LOG_LEVEL_NOTICE, OA_PLUGIN, dev->object, "Period",
            "shorter than dev.i915.oa_max_sample_rate (%llu Hz) allows "
            "without CAP_PERFMON; sampling every %llu ns instead",
            (unsigned long long)inst->max_rate_hz,
            (unsigned long long)(1000000000u / i915_perf_open_rate(min_e, hz)));
      e = min_e;
    }
  }
  p->format = format;
  p->exponent = e;
  if (fmt == NULL || (dev->xe && xe_oa_format_property(format) == 0) ||
      (!dev->xe && format >= OA_FORMAT_XE_BASE)) {
    log_msg(LOG_LEVEL_ERROR, OA_PLUGIN, dev->object, "Format",
            "format %u is not one the %s driver has", (unsigned)format,
            dev->xe ? "xe" : "i915");
    return -EINVAL;
  }
  if (dev->xe && oa_xe_format_check(d, dev, format) < 0)
    return -EINVAL;
  /* xe runs Gen12+ only (xe_oa.c: xe_oa_init): the 7-bit reason field */
  int gen12 = dev->xe ? 1 : d->platform->gen12;
  if (!d->acc_ready || d->acc.fmt != fmt) {
    oa_accum_init(&d->acc, fmt, gen12);
    d->acc.rebase_on_buffer_lost = true;
    d->fmt = fmt;
    d->acc_ready = true;
    d->have_prev = false;
  } else {
    d->acc.have_base = false; /* a new stream: its first report is a base */
  }
  return 0;
}

/* i915_device_find passes a negative errno (-ENODEV: another driver). */
static void oa_on_missing(void *ctx, const char *entry, int err) {
  (void)ctx;
  if (err == -ENODEV)
    log_msg(LOG_LEVEL_ERROR, OA_PLUGIN, entry, "Device",
            "not an i915 or xe device (another DRM driver)");
  else if (err == -ENOTTY)
    log_msg(LOG_LEVEL_ERROR, OA_PLUGIN, entry, "Device",
            "not a DRM device (DRM_IOCTL_VERSION: %s)", strerror(ENOTTY));
  else
    log_msg(LOG_LEVEL_ERROR, OA_PLUGIN, entry, "Device", "%s", strerror(-err));
}

static int oa_flex_setup(struct oa_instance *inst) {
  struct i915_flex_event ev[I915_FLEX_COUNTERS];
  for (size_t i = 0; i < inst->cfg.n_flex; i++)
    ev[i] = inst->cfg.flex[i].event;
  int rc = i915_flex_build(ev, inst->cfg.n_flex, inst->flex_pairs,
                           &inst->n_flex_regs, inst->flex_counter);
  if (rc < 0)
    log_msg(LOG_LEVEL_ERROR, OA_PLUGIN, "config", "FlexEvent", "%s",
            rc == -E2BIG ? "the events need more than the 14 flex counters "
                           "of EU_PERF_CNTL0..6"
                         : "a selector does not fit 12 bits");
  return rc < 0 ? -EINVAL : 0;
}

/* An xe stream's OA status after an EIO (xe_oa.c: xe_oa_status_locked). */
static void oa_on_xe_status(void *ctx, uint64_t oa_status) {
  struct oa_dev *d = ctx;
  xe_oa_accum_status(&d->acc, &d->xe_counts, oa_status);
}

static void oa_dev_setup(struct oa_instance *inst, struct oa_dev *d,
                         const struct drm_node *node) {
  const struct oa_config *cfg = &inst->cfg;
  i915_device_init(&d->dev, node);
  d->inst = inst;
  snprintf(d->device_tag, sizeof(d->device_tag), "%s",
           node->pci[0] ? node->pci : node->name);
  d->params = (struct i915_device_params){
      .plugin = OA_PLUGIN,
      .sysfs_root = or_default(cfg->sysfs_root, "/sys"),
      .metric_set = cfg->metric_set,
      .flex = cfg->n_flex ? inst->flex_pairs : NULL,
      .n_flex = inst->n_flex_regs,
      .exponent = -1,
      /* the kernel's hrtimer that checks for new reports (revision 5+):
       * no faster than the reports come, and at least its 100 us */
      .poll_period_ns = cfg->period_ns > 100000 ? cfg->period_ns : 100000,
      .engine_class = cfg->engine_class,
      .engine_instance = cfg->engine_instance,
      .on_identity = oa_on_identity,
      .ctx = d,
      .on_xe_status = oa_on_xe_status,
  };
  if (cfg->metric_set != NULL)
    snprintf(d->metric_set_tag, sizeof(d->metric_set_tag), "%s",
             cfg->metric_set);
  else
    i915_flex_uuid(inst->flex_pairs, inst->n_flex_regs, d->metric_set_tag);
}

/* Set up and open (or arm the retry of) a stream on each of the `n`
 * nodes, each in a free slot (those past OA_MAX_DEVICES are said). */
static void oa_devices_add(struct oa_instance *inst,
                           const struct drm_node *nodes, size_t n) {
  uint64_t now = plugin_host_monotonic_ns(inst->host);
  if (inst->init_ns == 0) {
    inst->init_ns = now;
    inst->in_window = true; /* the first window: the open to the first read */
  }
  for (size_t i = 0; i < n; i++) {
    size_t slot = 0;
    while (slot < OA_MAX_DEVICES && inst->devs[slot].used)
      slot++;
    if (slot == OA_MAX_DEVICES) {
      log_msg(LOG_LEVEL_WARNING, OA_PLUGIN, nodes[i].path, "devices",
              "more than %d devices: not read", OA_MAX_DEVICES);
      continue;
    }
    struct oa_dev *d = &inst->devs[slot];
    memset(d, 0, sizeof(*d));
    d->used = true;
    if (slot >= inst->n_devs)
      inst->n_devs = slot + 1;
    oa_dev_setup(inst, d, &nodes[i]);
    /* a failure is logged and retried with backoff by every drain */
    if (i915_device_open(inst->host->kernel, &d->dev, &d->params, now) == 0) {
      d->window_start = now;
      d->windows = 1;
    }
  }
}

static size_t oa_devices_used(const struct oa_instance *inst) {
  size_t n = 0;
  for (size_t i = 0; i < inst->n_devs; i++)
    n += inst->devs[i].used;
  return n;
}

/* The render minors (renderD<N>) listed under `dev_root`, sorted; 0 when
 * it cannot be listed. */
static size_t oa_list_minors(const char *dev_root, unsigned *out, size_t max) {
  DIR *dir = opendir(dev_root);
  if (dir == NULL)
    return 0;
  size_t n = 0;
  for (struct dirent *de; (de = readdir(dir)) != NULL && n < max;) {
    uint64_t minor;
    if (strncmp(de->d_name, "renderD", 7) == 0 &&
        cfg_parse_u64(de->d_name + 7, &minor) == 0 && minor <= 0xfffff) {
      size_t at = n++;
      while (at > 0 && out[at - 1] > minor) { /* insertion: n <= 64 */
        out[at] = out[at - 1];
        at--;
      }
      out[at] = (unsigned)minor;
    }
  }
  closedir(dir);
  return n;
}

/* Devices come and go (auto-discovery): the found nodes against the
 * devices held. One whose node (path and PCI address) is no longer found
 * is stopped and its series end (said at INFO); a node not held is a new
 * device with a fresh base (said at INFO): a device back under another
 * minor is both. */
static void oa_reconcile(struct oa_instance *inst, const struct drm_node *nodes,
                         size_t n) {
  bool held[OA_MAX_DEVICES] = {false};
  for (size_t i = 0; i < inst->n_devs; i++) {
    struct oa_dev *d = &inst->devs[i];
    if (!d->used)
      continue;
    size_t k = 0;
    while (k < n && !(strcmp(nodes[k].path, d->dev.node.path) == 0 &&
                      strcmp(nodes[k].pci, d->dev.node.pci) == 0))
      k++;
    if (k < n) {
      held[k] = true;
      continue;
    }
    log_msg(LOG_LEVEL_INFO, OA_PLUGIN, d->dev.object, "devices",
            "%s is gone: its series end", d->dev.node.path);
    i915_device_stop(inst->host->kernel, &d->dev, &d->params);
    d->used = false;
  }
  for (size_t k = 0; k < n; k++)
    if (!held[k]) {
      log_msg(LOG_LEVEL_INFO, OA_PLUGIN,
              nodes[k].pci[0] ? nodes[k].pci : nodes[k].path, "devices",
              "%s appeared: read from a fresh base", nodes[k].path);
      oa_devices_add(inst, &nodes[k], 1);
    }
}

/* The next look on the discovery backoff; `reset`: from 1 s again. */
static void oa_watch_arm(struct oa_instance *inst, bool reset, uint64_t now) {
  if (reset) {
    devsession_init(&inst->discovery, OA_PLUGIN,
                    or_default(inst->cfg.dev_root, "/dev/dri"));
    devsession_set_backoff(&inst->discovery, DEVSESSION_BACKOFF_MIN_NS,
                           DEVSESSION_RELOOK_MAX_NS);
  }
  devsession_fail(&inst->discovery, now, ENOENT);
}

/* Auto-discovery with devices, at each read: look again when DevRoot's
 * render minors changed or the discovery backoff is due (1 s doubling to
 * 1 min while nothing changes). */
static void oa_watch(struct oa_instance *inst, uint64_t now) {
  const struct oa_config *cfg = &inst->cfg;
  const char *dev_root = or_default(cfg->dev_root, "/dev/dri");
  unsigned minors[DRM_NODE_MAX];
  size_t n_minors = oa_list_minors(dev_root, minors, DRM_NODE_MAX);
  bool changed = n_minors != inst->n_minors ||
                 memcmp(minors, inst->minors, n_minors * sizeof(*minors)) != 0;
  if (!changed && !devsession_due(&inst->discovery, now))
    return;
  memcpy(inst->minors, minors, n_minors * sizeof(*minors));
  inst->n_minors = n_minors;
  struct drm_node nodes[OA_MAX_DEVICES];
  int n = i915_device_find(inst->host->kernel, dev_root,
                           or_default(cfg->sysfs_root, "/sys"), NULL, 0, nodes,
                           OA_MAX_DEVICES, NULL, NULL);
  oa_reconcile(inst, nodes, n > 0 ? (size_t)n : 0);
  oa_watch_arm(inst, /*reset=*/changed, now);
}

/* From now on look for devices that come and go (oa_watch). */
static void oa_watch_start(struct oa_instance *inst) {
  const char *dev_root = or_default(inst->cfg.dev_root, "/dev/dri");
  inst->n_minors = oa_list_minors(dev_root, inst->minors, DRM_NODE_MAX);
  oa_watch_arm(inst, /*reset=*/true, plugin_host_monotonic_ns(inst->host));
  inst->watch = true;
}

static int oa_init(void *p, const struct plugin_host *host) {
  struct oa_instance *inst = p;
  struct oa_config *cfg = &inst->cfg;
  inst->host = host;
  if (cfg->replay != NULL) { /* a recording: no device is opened */
    if (access(cfg->replay, R_OK) < 0) {
      int err = errno;
      log_errno(LOG_LEVEL_ERROR, OA_PLUGIN, cfg->replay, "Replay", err, NULL);
      return -err;
    }
    return 0;
  }
  if (cfg->metric_set == NULL && cfg->n_flex == 0 && cfg->eu_metrics) {
    log_msg(LOG_LEVEL_ERROR, OA_PLUGIN, "config", "EuMetrics",
            "EuMetrics needs MetricSet: the Render Basic set's uuid or id "
            "(the sets are the directories of %s/class/drm/card<N>/metrics/)",
            or_default(cfg->sysfs_root, "/sys"));
    return -EINVAL;
  }
  if (cfg->metric_set == NULL && cfg->n_flex == 0)
    oa_config_default_flex(cfg); /* as the shipped snippet */
  if (cfg->metric_set != NULL && cfg->n_flex > 0) {
    log_msg(LOG_LEVEL_ERROR, OA_PLUGIN, "config", "FlexEvent",
            "FlexEvent makes its own metric set; leave MetricSet out");
    return -EINVAL;
  }
  if (cfg->n_flex > 0 && cfg->eu_metrics) {
    /* the EU equations read A7.. as the Render Basic set programs them;
     * flex events reprogram those counters */
    log_msg(LOG_LEVEL_ERROR, OA_PLUGIN, "config", "EuMetrics",
            "EuMetrics needs the Render Basic MetricSet; FlexEvent "
            "programs the counters its equations read: leave one out");
    return -EINVAL;
  }
  if (cfg->n_flex > 0 && oa_flex_setup(inst) < 0)
    return -EINVAL;
  const char *proc = or_default(cfg->proc_root, "/proc");
  if (i915_perf_open_max_rate(proc, &inst->max_rate_hz) < 0)
    inst->max_rate_hz = 0;
  inst->privileged = oa_privileged(proc);

  const char *dev_root = or_default(cfg->dev_root, "/dev/dri");
  unsigned minors[DRM_NODE_MAX];
  struct stat st;
  if (cfg->sysfs_root != NULL &&
      oa_list_minors(dev_root, minors, DRM_NODE_MAX) > 0) {
    /* render nodes, but a SysfsRoot without DRM classes */
    char path[4096];
    snprintf(path, sizeof path, "%s/class/drm", cfg->sysfs_root);
    if (stat(path, &st) < 0 || !S_ISDIR(st.st_mode))
      log_msg(LOG_LEVEL_WARNING, OA_PLUGIN, cfg->sysfs_root, "SysfsRoot",
              "holds no class/drm: no driver, PCI address or metric set is "
              "known there");
  }
  struct drm_node nodes[OA_MAX_DEVICES];
  int n = i915_device_find(host->kernel, dev_root,
                           or_default(cfg->sysfs_root, "/sys"),
                           (const char *const *)cfg->devices, cfg->n_devices,
                           nodes, OA_MAX_DEVICES, oa_on_missing, inst);
  if (cfg->n_devices == 0 && (n == 0 || n == -ENOENT || n == -ENOTDIR)) {
    /* Auto-discovery that found nothing (no i915 loaded, no /dev/dri) is
     * not an error: said once at INFO, looked for again at reads. */
    devsession_init(&inst->discovery, OA_PLUGIN, dev_root);
    devsession_set_backoff(&inst->discovery, DEVSESSION_BACKOFF_MIN_NS,
                           DEVSESSION_RELOOK_MAX_NS);
    /* a DevRoot given that exists and holds no render node is most
     * likely a wrong path: a warning; none at all (no GPU, the module
     * not loaded yet) is normal */
    bool wrong = cfg->dev_root != NULL && stat(dev_root, &st) == 0;
    devsession_failf(&inst->discovery, plugin_host_monotonic_ns(host), ENOENT,
                     wrong ? LOG_LEVEL_WARNING : LOG_LEVEL_INFO, "devices",
                     "no i915 or xe render node (renderD*) found; looking "
                     "again, "
                     "1 s doubling to 1 min (give Device to name one)");
    inst->relook = true;
    return 0;
  }
  if (n < 0) {
    log_errno(LOG_LEVEL_ERROR, OA_PLUGIN, dev_root, "devices", -n, NULL);
    return n;
  }
  if (n == 0) { /* each named Device was said above */
    log_msg(LOG_LEVEL_ERROR, OA_PLUGIN, "config", "Device",
            "none of the %zu named devices is an i915 or xe render node",
            cfg->n_devices);
    return -ENODEV;
  }
  oa_devices_add(inst, nodes, (size_t)n);
  if (cfg->n_devices == 0) /* auto-discovery: devices may come and go */
    oa_watch_start(inst);
  return 0;
}

/* Discovery found nothing at init: look again when due; the devices
 * found then are opened at once (their failures retried as always). */
static void oa_relook(struct oa_instance *inst, uint64_t now) {
  const struct oa_config *cfg = &inst->cfg;
  if (!devsession_due(&inst->discovery, now))
    return;
  struct drm_node nodes[OA_MAX_DEVICES];
  int n = i915_device_find(inst->host->kernel,
                           or_default(cfg->dev_root, "/dev/dri"),
                           or_default(cfg->sysfs_root, "/sys"), NULL, 0, nodes,
                           OA_MAX_DEVICES, NULL, NULL);
  if (n <= 0) {
    devsession_fail(&inst->discovery, now, n < 0 ? -n : ENOENT);
    return;
  }
  inst->relook = false;
  devsession_opened(&inst->discovery);
  devsession_healthy(&inst->discovery, "devices",
                     "%d i915 or xe render node(s) appeared", n);
  oa_devices_add(inst, nodes, (size_t)n);
  oa_watch_start(inst);
}

/* DutyCycle N > 1, after each read: a window (the stream open) lasts one
 * interval, then the streams stay closed for N - 1 intervals, so the GPU
 * can enter RC6 and other OA users can take the unit in between (an open
 * stream holds runtime PM, FORCEWAKE_ALL and the exclusive OA unit:
 * i915_perf.c: i915_oa_stream_init; on xe the same, RC6 kept off:
 * xe_oa.c: xe_oa_stream_init). The first report of each window only
 * sets a new base: the closed intervals are not counted, and what was
 * counted is said as `window_ns` and `coverage_percent`. */
static void oa_duty_cycle(struct oa_instance *inst) {
  if (inst->cfg.duty_cycle <= 1)
    return;
  const struct kernel_ops *k = inst->host->kernel;
  uint64_t now = plugin_host_monotonic_ns(inst->host);
  if (inst->in_window) {
    for (size_t i = 0; i < inst->n_devs; i++) {
      struct oa_dev *d = &inst->devs[i];
      if (!d->used)
        continue;
      if (d->window_start != 0 && d->dev.stream.fd >= 0)
        d->window_ns += now - d->window_start;
      d->window_start = 0;
      i915_device_pause(k, &d->dev);
    }
    inst->in_window = false;
    inst->cycle_pos = 1;
    return;
  }
  if (++inst->cycle_pos < inst->cfg.duty_cycle)
    return;
  for (size_t i = 0; i < inst->n_devs; i++) {
    struct oa_dev *d = &inst->devs[i];
    if (!d->used)
      continue;
    d->acc.have_base = false; /* a new stream: its first report is a base */
    if (i915_device_resume(k, &d->dev, &d->params, now) == 0) {
      d->window_start = now;
      d->windows++;
    }
  }
  inst->in_window = true;
}

static void oa_on_chunk(void *ctx, const uint8_t *data, size_t len) {
  struct oa_dev *d = ctx;
  if (d->dev.xe) { /* whole reports, no record headers */
    xe_oa_accum_reports(&d->acc, &d->xe_counts, data, len);
    return;
  }
  struct oa_walk_result res;
  oa_accum_records(&d->acc, data, len, &res);
  if (res.error == NULL)
    return;
  d->malformed++;
  if (log_complaint_raise(&d->malformed_complaint))
    log_msg(LOG_LEVEL_WARNING, OA_PLUGIN, d->dev.object, "read",
            "%s at byte %zu of a %zu-byte read; the rest of that read is "
            "skipped (counted in i915_oa_stream.malformed)",
            res.error, res.error_offset, len);
}

/* Drain every stream; the number of devices that failed, *first_err set
 * to the first failure's errno. */
static size_t oa_drain_all(struct oa_instance *inst, int *first_err) {
  uint64_t now = plugin_host_monotonic_ns(inst->host);
  size_t failed = 0;
  for (size_t i = 0; i < inst->n_devs; i++) {
    struct oa_dev *d = &inst->devs[i];
    if (!d->used)
      continue;
    int64_t r = i915_device_drain(inst->host->kernel, &d->dev, &d->params, now,
                                  oa_on_chunk, d);
    if (r < 0 || d->dev.stream.fd < 0) {
      if (*first_err == 0)
        *first_err = r < 0 ? (int)-r
                           : (d->dev.session.last_err ? d->dev.session.last_err
                                                      : EAGAIN);
      failed++;
    }
  }
  return failed;
}

/* Replay: every host's first read primes (the exec host discards it);
 * from the second, batches for up to half an interval per read, the
 * whole recording when the interval is 0 (plugin.h: replays), then
 * nothing. */
static int oa_read_replay(struct oa_instance *inst, struct metric_sink *sink) {
  if (++inst->reads < 2)
    return 0;
  if (inst->reads == 2) {
    int rc;
    inst->replay_state = oa_replay_start(inst, &rc);
    if (inst->replay_state == NULL)
      return rc;
  }
  if (inst->replay_state == NULL)
    return 0;
  uint64_t half = inst->host->interval_ns / 2;
  uint64_t until = half ? plugin_host_monotonic_ns(inst->host) + half : 0;
  int rc = oa_replay_step(inst->replay_state, sink, UINT64_MAX, until);
  if (oa_replay_done(inst->replay_state)) {
    oa_replay_close(inst->replay_state);
    inst->replay_state = NULL;
  }
  return rc;
}

static bool oa_replays(void *p) {
  return ((struct oa_instance *)p)->cfg.replay != NULL;
}

static int oa_read(void *p, struct metric_sink *sink) {
  struct oa_instance *inst = p;
  if (inst->cfg.replay != NULL)
    return oa_read_replay(inst, sink);
  if (inst->relook)
    oa_relook(inst, plugin_host_monotonic_ns(inst->host));
  else if (inst->watch)
    oa_watch(inst, plugin_host_monotonic_ns(inst->host));
  int err = 0;
  size_t failed = oa_drain_all(inst, &err);
  uint64_t time_ns = plugin_host_realtime_ns(inst->host);
  int rc = 0;
  for (size_t i = 0; i < inst->n_devs; i++) {
    if (!inst->devs[i].used)
      continue;
    int r = ioa_records_write(inst, &inst->devs[i], time_ns, sink);
    if (rc == 0 && r < 0)
      rc = r;
  }
  bool closed_on_purpose = !inst->in_window;
  oa_duty_cycle(inst);
  if (failed == oa_devices_used(inst) && !closed_on_purpose)
    return -err;
  return rc;
}

static int oa_drain(void *p) {
  int err = 0;
  oa_drain_all(p, &err);
  return 0;
}

static uint64_t oa_drain_interval(void *p) {
  struct oa_instance *inst = p;
  if (inst->relook) /* a device may come: drain as its largest reports */
    return i915_stream_drain_interval_ns(OA_REPORT_MAX, inst->cfg.period_ns);
  uint64_t best = 0;
  for (size_t i = 0; i < inst->n_devs; i++) {
    const struct oa_dev *d = &inst->devs[i];
    if (!d->used)
      continue;
    size_t size = d->fmt ? d->fmt->size : OA_REPORT_MAX;
    uint64_t ns = i915_stream_drain_interval_ns(size, inst->cfg.period_ns);
    if (ns > 0 && (best == 0 || ns < best))
      best = ns;
  }
  return best;
}

static void oa_free(void *p) {
  struct oa_instance *inst = p;
  if (inst == NULL)
    return;
  for (size_t i = 0; i < inst->n_devs; i++)
    if (inst->devs[i].used)
      i915_device_stop(inst->host->kernel, &inst->devs[i].dev,
                       &inst->devs[i].params);
  oa_replay_close(inst->replay_state);
  oa_config_fini(&inst->cfg);
  free(inst);
}

/* plugin.h: found. */
static int oa_found(void *p, char *text, size_t size) {
  const struct oa_instance *inst = p;
  struct found_text f;
  found_init(&f, text, size);
  if (inst->cfg.replay != NULL)
    return found_none(&f, "it replays the recording %s", inst->cfg.replay);
  for (size_t k = 0; k < inst->n_devs; k++)
    if (inst->devs[k].used)
      found_add(&f, inst->devs[k].dev.xe ? "xe" : "i915",
                inst->devs[k].device_tag[0] ? inst->devs[k].device_tag
                                            : inst->devs[k].dev.object);
  if (f.count > 0)
    return f.count;
  return found_none(&f, "no i915 or xe render node (renderD*)%s under %s",
                    inst->cfg.n_devices ? " of Device" : "",
                    or_default(inst->cfg.dev_root, "/dev/dri"));
}

/* collectd identities (collectd_map.h), e.g. for <Instance "gpu">:
 *   i915_oa-gpu-0000:00:02.0-render0-<metric set uuid>/percent-gpu_busy_percent
 *   i915_oa-gpu-0000:00:02.0-<metric set uuid>/gpu_events-stream-reports
 * A long label or metric set name keeps its start (collectd_map.h). */
static const struct collectd_rule oa_collectd_rules[] = {
    {"i915_oa",
     NULL,
     NULL,
     {{"device", NULL, 0}, {"engine", NULL, 0}, {"metric_set", NULL, CM_FREE}},
     {{0}}},
    {"i915_oa_stream",
     NULL,
     NULL,
     {{"device", NULL, 0}, {"metric_set", NULL, CM_FREE}},
     {{NULL, "stream", 0}}},
    {0},
};

const struct plugin_ops i915_oa_ops = {
    .name = OA_PLUGIN,
    .options = oa_options,
    .instance_new = oa_new,
    .configure = oa_configure,
    .init = oa_init,
    .read = oa_read,
    .drain = oa_drain,
    .drain_interval_ns = oa_drain_interval,
    .replays = oa_replays,
    .collectd_rules = oa_collectd_rules,
    .help_example = NULL, /* no nested block */
    .found = oa_found,
    .instance_free = oa_free,
};
