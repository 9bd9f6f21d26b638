/*
 * ddv_devices.c: finding DRM devices and the attributes each one has.
 *
 * Nodes: SysfsRoot/class/drm/card<N> (drm_sysfs.c: drm_sysfs_device_add,
 * the primary minor) and SysfsRoot/class/accel/accel<N>
 * (drm_accel.c: accel_minor_alloc / accel_set_device_instance_params).
 * Identity as drm_fdinfo has it (dfi_devices.c): the device is the basename
 * of the node's "device" link (PCI slot "0000:03:00.0" or platform name
 * "fde60000.gpu"), the driver the basename of "device/driver".
 *
 * Every attribute is looked for here once, with fstatat through the kernel
 * seam (a stat opens nothing and resumes nothing); a read then opens only
 * what was found. What reading an attribute does to runtime PM (enum
 * ddv_pm: nothing, or a reference that resumes a suspended device and
 * restarts the autosuspend timer) is decided here from the kernel function
 * behind it (the comments at each table say which).
 *
 * Nodes come and go (unbind, hot-unplug, a driver reload that gives
 * another minor): ddv_scan looks at the class directories again on the
 * read's back-off (drm_device.c), sets up what is new from a fresh base
 * and drops what is gone, one INFO line each way.
 */
#include "plugins/drm_device/ddv.h"

#include "common/core/text.h"
#include "common/sysfs/sysfs_link.h"
#include "common/sysfs/sysfs_value.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MHZ UINT64_C(1000000)

/* snprintf that says whether everything fit (a cut path is not used). */
__attribute__((format(printf, 3, 4))) static bool
ddv_fmt(char *out, size_t size, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(out, size, fmt, ap);
  va_end(ap);
  return n >= 0 && (size_t)n < size;
}

int ddv_node_openat(const struct ddv *d, const struct ddv_device *dev,
                    const char *rel, int flags) {
  if (dev->dirfd >= 0)
    return d->k->openat(dev->dirfd, rel, flags, 0);
  char path[sizeof(dev->path) + 160];
  if (!ddv_fmt(path, sizeof(path), "%s/%s", dev->path, rel)) {
    errno = ENAMETOOLONG;
    return -1;
  }
  return d->k->openat(AT_FDCWD, path, flags, 0);
}

int ddv_node_fstatat(const struct ddv *d, const struct ddv_device *dev,
                     const char *rel, struct stat *st, int flags) {
  if (dev->dirfd >= 0)
    return d->k->fstatat(dev->dirfd, rel, st, flags);
  char path[sizeof(dev->path) + 160];
  if (!ddv_fmt(path, sizeof(path), "%s/%s", dev->path, rel)) {
    errno = ENAMETOOLONG;
    return -1;
  }
  return d->k->fstatat(AT_FDCWD, path, st, flags);
}

/* A card or accel directory always has the "device" link to its parent
 * (device_add: device_add_class_symlinks); lookups in a removed kernfs
 * directory fail with ENOENT. */
bool ddv_device_alive(const struct ddv *d, const struct ddv_device *dev) {
  struct stat st;
  return ddv_node_fstatat(d, dev, "device", &st, AT_SYMLINK_NOFOLLOW) == 0;
}

/* ---- building a device's probes and records ---- */

static int ddv_rec_get(struct ddv_device *dev, enum ddv_group g,
                       const char *tag) {
  for (size_t i = 0; i < dev->n_recs; i++)
    if (dev->recs[i].group == g && strcmp(dev->recs[i].tag, tag) == 0)
      return (int)i;
  if (dev->n_recs == dev->cap_recs) {
    size_t cap = dev->cap_recs ? dev->cap_recs * 2 : 8;
    struct ddv_rec *grown = realloc(dev->recs, cap * sizeof(*grown));
    if (grown == NULL)
      return -ENOMEM;
    dev->recs = grown;
    dev->cap_recs = cap;
  }
  struct ddv_rec *r = &dev->recs[dev->n_recs];
  r->group = g;
  text_sanitize(r->tag, sizeof(r->tag), tag, strlen(tag));
  return (int)dev->n_recs++;
}

static bool ddv_exists(const struct ddv *d, const struct ddv_device *dev,
                       const char *rel, bool want_dir) {
  struct stat st;
  if (ddv_node_fstatat(d, dev, rel, &st, 0) != 0)
    return false;
  return want_dir ? S_ISDIR(st.st_mode) : S_ISREG(st.st_mode);
}

/* Add a probe for `rel` when it exists; NULL when it does not (or no
 * memory: the attribute is then left out, like one the kernel lacks).
 * `pm` says what reading it does to runtime PM (ddv.h). */
static struct ddv_probe *ddv_probe_add(const struct ddv *d,
                                       struct ddv_device *dev, enum ddv_group g,
                                       const char *tag, const char *rel,
                                       const char *field, const char *ctype,
                                       enum ddv_kind kind, enum ddv_pm pm) {
  if (strlen(rel) >= sizeof(((struct ddv_probe *)0)->rel) ||
      !ddv_exists(d, dev, rel, false))
    return NULL;
  int rec = ddv_rec_get(dev, g, tag);
  if (rec < 0)
    return NULL;
  if (dev->n_probes == dev->cap_probes) {
    size_t cap = dev->cap_probes ? dev->cap_probes * 2 : 16;
    struct ddv_probe *grown = realloc(dev->probes, cap * sizeof(*grown));
    if (grown == NULL)
      return NULL;
    dev->probes = grown;
    dev->cap_probes = cap;
  }
  struct ddv_probe *p = &dev->probes[dev->n_probes++];
  memset(p, 0, sizeof(*p));
  ddv_fmt(p->rel, sizeof(p->rel), "%s", rel);
  ddv_fmt(p->field, sizeof(p->field), "%s", field);
  p->ctype = ctype;
  p->kind = kind;
  p->rec = (uint16_t)rec;
  p->pm = pm;
  p->bits = 64;
  p->fd = -1;
  p->mult = 1;
  p->scale = 1.0;
  p->cap = -1;
  return p;
}

/* Refuse values of `p` outside [lo, hi] (in its reported unit): the
 * kernel never prints them there (the caller cites why). */
static void ddv_bound(struct ddv_probe *p, double lo, double hi) {
  if (p == NULL)
    return;
  p->bounded = true;
  p->lo = lo;
  p->hi = hi;
}

/* A frequency in MHz -> hertz. i915 and xe print a u32 of MHz ("%d"),
 * which the hardware's ratio fields bound far lower: xe_guc_pc.c
 * decode_freq scales a 9-bit ratio by 50/3 MHz (8.5 GHz at most), i915's
 * intel_gpu_freq an 8- or 9-bit ratio by 50 or 50/3 MHz (12.75 GHz at
 * most): above DDV_MAX_HZ a value is refused. */
static struct ddv_probe *ddv_add_mhz(const struct ddv *d,
                                     struct ddv_device *dev, const char *domain,
                                     const char *rel, const char *field,
                                     enum ddv_pm pm) {
  struct ddv_probe *p = ddv_probe_add(d, dev, DDV_G_FREQ, domain, rel, field,
                                      "gpu_hertz", DDV_K_UINT, pm);
  if (p != NULL)
    p->mult = MHZ;
  ddv_bound(p, 0, DDV_MAX_HZ);
  return p;
}

/* A cumulative residency in ms, `bits` wide -> residency_ns and
 * idle_percent. Residency is time: a step longer than the interval is a
 * reset (counter_step). */
static void ddv_add_residency(const struct ddv *d, struct ddv_device *dev,
                              const char *domain, const char *rel,
                              unsigned bits) {
  struct ddv_probe *p =
      ddv_probe_add(d, dev, DDV_G_IDLE, domain, rel, "residency_ns", "gpu_time",
                    DDV_K_COUNTER, DDV_PM_REF);
  if (p == NULL)
    return;
  p->bits = (uint8_t)bits;
  p->time_bound = true;
  p->mult = DDV_MS_NS;
  p->rate_field = "idle_percent";
  p->rate_ctype = "percent";
  p->rate_scale = 1e-3 * 100.0; /* ms -> s, as a percentage */
}

static int ddv_index(const struct ddv_device *dev, const struct ddv_probe *p) {
  return p != NULL ? (int)(p - dev->probes) : -1;
}

/* Runtime PM (drivers/base/power/sysfs.c: runtime_status_show,
 * runtime_active_time_show, runtime_suspended_time_show, the last two in
 * ms from pm_runtime_active_time / pm_runtime_suspended_time; control_show
 * "auto" or "on"; autosuspend_delay_ms_show, -EIO without autosuspend):
 * the PM core's own bookkeeping, read without touching the device. control
 * and the delay give no field: they decide how often the attributes that
 * take a PM reference are read (ddv_read.c). */
static void ddv_probe_runtime(const struct ddv *d, struct ddv_device *dev) {
  /* the drm_device record exists for values_age_seconds even without
   * these files */
  dev->runtime_rec = ddv_rec_get(dev, DDV_G_RUNTIME, "");
  struct ddv_probe *p =
      ddv_probe_add(d, dev, DDV_G_RUNTIME, "", "device/power/runtime_status",
                    "runtime_suspended", "gpu_flag", DDV_K_STATUS, DDV_PM_NONE);
  dev->status = ddv_index(dev, p);
  p = ddv_probe_add(d, dev, DDV_G_RUNTIME, "", "device/power/control", "", "",
                    DDV_K_CONTROL, DDV_PM_NONE);
  dev->control = ddv_index(dev, p);
  p = ddv_probe_add(d, dev, DDV_G_RUNTIME, "",
                    "device/power/autosuspend_delay_ms", "", "", DDV_K_DELAY,
                    DDV_PM_NONE);
  dev->delay = ddv_index(dev, p);
  p = ddv_probe_add(d, dev, DDV_G_RUNTIME, "",
                    "device/power/runtime_active_time", "runtime_active_ns",
                    "gpu_time", DDV_K_UINT, DDV_PM_NONE);
  if (p != NULL)
    p->mult = DDV_MS_NS;
  p = ddv_probe_add(
      d, dev, DDV_G_RUNTIME, "", "device/power/runtime_suspended_time",
      "runtime_suspended_ns", "gpu_time", DDV_K_UINT, DDV_PM_NONE);
  if (p != NULL)
    p->mult = DDV_MS_NS;
  dev->susp = ddv_index(dev, p);
}

/*
 * i915 (gt/intel_gt_sysfs_pm.c). Per GT under gt/gt<N>/ as rps_*_freq_mhz,
 * rc6_residency_ms and throttle_reason_* (gt/intel_gt_sysfs.c:
 * intel_gt_sysfs_register makes gt/gt<N> for every GT, one or more, since
 * 5.19); on older kernels, without gt/, the card-level gt_*_freq_mhz and
 * power/rc6_residency_ms, which on multi-GT parts are the max (frequency)
 * or min (RC6) over the GTs (sysfs_gt_attribute_r_func), so gt/ wins.
 * throttle_reason_* exist only under gt/ (intel_gt_sysfs_pm_init: "end of
 * the legacy interfaces").
 *
 * While suspended: the limits min/max/boost/RP0/RP1/RPn come from software
 * state (intel_rps.c: intel_rps_get_min_frequency and siblings) and are
 * safe. act_freq_mhz (intel_rps_read_actual_frequency) and cur_freq_mhz
 * under SLPC (intel_rps_read_punit_req) read the hardware only while it is
 * in use (with_intel_runtime_pm_if_in_use: pm_runtime_get_if_in_use takes
 * a reference only while the device is active and already held by another
 * user, and its put marks last_busy only then: DDV_PM_IF_IN_USE) and read
 * 0 when asleep: absent, not 0. rc6_residency_ms (get_residency:
 * with_intel_runtime_pm) and throttle_reason_* (rps_read_mmio:
 * with_intel_runtime_pm) take a reference, whose put restarts the
 * autosuspend timer (intel_runtime_pm.c: __intel_runtime_pm_put,
 * pm_runtime_put_autosuspend, after pm_runtime_mark_last_busy on older
 * kernels): never read
 * asleep, read on the autosuspend rule. rc6_residency_ms is get_residency's
 * u32 of ms ("%u", which wraps after 49.7 days): a 32-bit counter, the
 * only one here that wraps.
 */
static const struct {
  const char *name; /* after rps_ or gt_ */
  const char *field;
  enum ddv_pm pm;
} ddv_i915_freqs[] = {
    {"act_freq_mhz", "actual_hz", DDV_PM_IF_IN_USE},
    {"cur_freq_mhz", "requested_hz", DDV_PM_IF_IN_USE},
    {"min_freq_mhz", "min_hz", DDV_PM_NONE},
    {"max_freq_mhz", "max_hz", DDV_PM_NONE},
    {"boost_freq_mhz", "boost_hz", DDV_PM_NONE},
    {"RP0_freq_mhz", "rp0_hz", DDV_PM_NONE},
    {"RP1_freq_mhz", "rpe_hz", DDV_PM_NONE},
    {"RPn_freq_mhz", "rpn_hz", DDV_PM_NONE},
};

static const char *const ddv_i915_reasons[] = {
    "pl1",     "pl2",  "pl4",           "thermal",
    "prochot", "ratl", "vr_thermalert", "vr_tdc"};

static void ddv_probe_i915_gt(const struct ddv *d, struct ddv_device *dev,
                              const char *dir, const char *prefix,
                              const char *rc6, const char *domain,
                              bool throttle) {
  char rel[128], field[32];
  for (size_t i = 0; i < sizeof(ddv_i915_freqs) / sizeof(ddv_i915_freqs[0]);
       i++) {
    ddv_fmt(rel, sizeof(rel), "%s%s%s", dir, prefix, ddv_i915_freqs[i].name);
    ddv_add_mhz(d, dev, domain, rel, ddv_i915_freqs[i].field,
                ddv_i915_freqs[i].pm);
  }
  ddv_add_residency(d, dev, domain, rc6, /*bits=*/32);
  if (!throttle)
    return;
  ddv_fmt(rel, sizeof(rel), "%sthrottle_reason_status", dir);
  ddv_probe_add(d, dev, DDV_G_THROTTLE, domain, rel, "throttled", "gpu_flag",
                DDV_K_FLAG, DDV_PM_REF);
  for (size_t i = 0; i < sizeof(ddv_i915_reasons) / sizeof(ddv_i915_reasons[0]);
       i++) {
    ddv_fmt(rel, sizeof(rel), "%sthrottle_reason_%s", dir, ddv_i915_reasons[i]);
    ddv_fmt(field, sizeof(field), "reason_%s", ddv_i915_reasons[i]);
    ddv_probe_add(d, dev, DDV_G_THROTTLE, domain, rel, field, "gpu_flag",
                  DDV_K_FLAG, DDV_PM_REF);
  }
}

/* Names compared with their digit runs as numbers ("hwmon2" before
 * "hwmon10", "temp2_input" before "temp10_input"), then bytewise. */
static int ddv_name_cmp(const void *a, const void *b) {
  const char *x = a, *y = b;
  while (*x != '\0' && *y != '\0') {
    if (*x >= '0' && *x <= '9' && *y >= '0' && *y <= '9') {
      const char *xs = x, *ys = y;
      while (*xs == '0')
        xs++;
      while (*ys == '0')
        ys++;
      const char *xe = xs, *ye = ys;
      while (*xe >= '0' && *xe <= '9')
        xe++;
      while (*ye >= '0' && *ye <= '9')
        ye++;
      if (xe - xs != ye - ys)
        return xe - xs < ye - ys ? -1 : 1;
      int c = strncmp(xs, ys, (size_t)(xe - xs));
      if (c != 0)
        return c;
      x = xe;
      y = ye;
      continue;
    }
    if (*x != *y)
      return (unsigned char)*x < (unsigned char)*y ? -1 : 1;
    x++;
    y++;
  }
  return *x == *y ? strcmp(a, b) : (*x == '\0' ? -1 : 1);
}

/* Entries looked at in one directory at most (a hostile or broken sysfs
 * cannot make discovery allocate without bound). */
#define DDV_LIST_SCAN_MAX 65536u

/* The entries of directory `rel` (under the node) whose names start with
 * `prefix`, sorted (ddv_name_cmp), the first `max` of them into names
 * (each 64 bytes); returns how many. All are sorted before the cap, which
 * is said once (discovery runs once per device); a directory that exists
 * but cannot be read is said too. */
static size_t ddv_list(const struct ddv *d, const struct ddv_device *dev,
                       const char *rel, const char *prefix, char (*names)[64],
                       size_t max) {
  int fd = ddv_node_openat(d, dev, rel, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) {
    int err = errno;
    if (err != ENOENT && err != ENOTDIR) {
      char object[200];
      ddv_fmt(object, sizeof(object), "%s: %s", dev->name, rel);
      log_errno(LOG_LEVEL_WARNING, DDV_PLUGIN, object, "open", err, NULL);
    }
    return 0;
  }
  DIR *dir = d->k->fdopendir(fd);
  if (dir == NULL) {
    d->k->close(fd);
    return 0;
  }
  char(*all)[64] = NULL;
  size_t n = 0, cap = 0, plen = strlen(prefix), looked = 0;
  struct dirent *e;
  while (looked < DDV_LIST_SCAN_MAX && (e = d->k->readdir(dir)) != NULL) {
    looked++;
    if (strncmp(e->d_name, prefix, plen) != 0 || strlen(e->d_name) >= 64 ||
        e->d_name[0] == '.')
      continue;
    if (n == cap) {
      size_t ncap = cap ? cap * 2 : 32;
      char(*grown)[64] = realloc(all, ncap * sizeof(*grown));
      if (grown == NULL)
        break; /* what was listed so far is used */
      all = grown;
      cap = ncap;
    }
    ddv_fmt(all[n++], 64, "%s", e->d_name);
  }
  d->k->closedir(dir);
  if (n > 1)
    qsort(all, n, sizeof(*all), ddv_name_cmp);
  size_t kept = n < max ? n : max;
  if (kept > 0)
    memcpy(names, all, kept * sizeof(*all));
  free(all);
  if (n > max) {
    char object[200];
    ddv_fmt(object, sizeof(object), "%s: %s", dev->name, rel);
    log_msg(LOG_LEVEL_WARNING, DDV_PLUGIN, object, "readdir",
            "%zu entries%s%s%s, only the first %zu (in name order) are read", n,
            plen ? " named " : "", prefix, plen ? "*" : "", max);
  }
  return kept;
}

static bool ddv_is_number(const char *s) {
  if (*s == '\0')
    return false;
  for (; *s; s++)
    if (*s < '0' || *s > '9')
      return false;
  return true;
}

static void ddv_probe_i915(const struct ddv *d, struct ddv_device *dev) {
  char gts[8][64];
  size_t n =
      ddv_exists(d, dev, "gt", true) ? ddv_list(d, dev, "gt", "gt", gts, 8) : 0;
  bool any = false;
  for (size_t i = 0; i < n; i++) {
    if (!ddv_is_number(gts[i] + 2))
      continue;
    char dir[96], rc6[128];
    ddv_fmt(dir, sizeof(dir), "gt/%s/", gts[i]);
    ddv_fmt(rc6, sizeof(rc6), "gt/%s/rc6_residency_ms", gts[i]);
    ddv_probe_i915_gt(d, dev, dir, "rps_", rc6, gts[i], true);
    any = true;
  }
  if (!any)
    ddv_probe_i915_gt(d, dev, "", "gt_", "power/rc6_residency_ms", "gt0",
                      false);
}

/*
 * xe: device/tile<T>/gt<G>/ (xe_tile_sysfs.c, xe_gt_sysfs.c; GT ids are
 * unique across tiles, so the domain is gt<G>):
 *  - freq0/{act,cur,min,max,rp0,rpe,rpa,rpn}_freq in MHz (xe_gt_freq.c:
 *    act_freq_show ... rpn_freq_show; rpa_freq_show, the achievable
 *    frequency, on newer kernels only);
 *  - gtidle/idle_residency_ms (xe_gt_idle.c: idle_residency_ms_show; a
 *    u64 that get_residency_ms extends from the 32-bit hardware count);
 *  - freq0/throttle/status and reason_* (xe_gt_throttle.c: status_show,
 *    reason_pl1_show, ...), each 0 or 1.
 * All but rpn_freq take a runtime-PM reference (xe_pm_runtime_get in the
 * show functions, or behind them: xe_gt_throttle.c
 * xe_gt_throttle_get_limit_reasons for the throttle files) whose put
 * restarts the autosuspend timer (xe_pm.c: xe_pm_runtime_put,
 * pm_runtime_mark_last_busy + pm_runtime_put): none is read while the
 * device is suspended, all on the autosuspend rule. rpn_freq_show takes
 * none: it prints xe_guc_pc_get_rpn_freq, the fused RPn cached at init
 * (pc->rpn_freq), so it is read at every read, asleep too.
 * rpe_freq and rpa_freq are "calculated by PCODE at runtime" (the DOC of
 * xe_gt_freq.c; xe_guc_pc_get_rpe_freq / _rpa_freq call
 * pc_update_rp_values, which reads the hardware each time): runtime
 * values, read on the rule like cur_freq. The limits cost more than a
 * register read (xe_guc_pc.c): xe_guc_pc_get_min_freq / _max_freq send a
 * GuC SLPC query (pc_action_query_task_state), rp0 is cached but its show
 * takes a reference; they change only when written or re-fused, so min,
 * max and rp0 (and any other freq0 file) are limits, read at the first
 * read and then every DDV_LIMITS_NS, or when requested_hz leaves [min_hz,
 * max_hz]. cur_freq (xe_guc_pc_get_cur_freq) takes forcewake (XE_FW_GT)
 * to read RPNSWREQ: the GT leaves RC6 for that read.
 */
static const struct {
  const char *file;
  const char *field;
  enum ddv_pm pm;
  bool limit;
} ddv_xe_freqs[] = {{"act_freq", "actual_hz", DDV_PM_REF, false},
                    {"cur_freq", "requested_hz", DDV_PM_REF, false},
                    {"min_freq", "min_hz", DDV_PM_REF, true},
                    {"max_freq", "max_hz", DDV_PM_REF, true},
                    {"rp0_freq", "rp0_hz", DDV_PM_REF, true},
                    {"rpe_freq", "rpe_hz", DDV_PM_REF, false},
                    {"rpa_freq", "rpa_hz", DDV_PM_REF, false},
                    {"rpn_freq", "rpn_hz", DDV_PM_NONE, false}};

static void ddv_probe_xe(const struct ddv *d, struct ddv_device *dev) {
  char tiles[8][64];
  size_t nt = ddv_list(d, dev, "device", "tile", tiles, 8);
  for (size_t t = 0; t < nt; t++) {
    if (!ddv_is_number(tiles[t] + 4))
      continue;
    char tdir[96], gts[8][64];
    ddv_fmt(tdir, sizeof(tdir), "device/%s", tiles[t]);
    size_t ng = ddv_list(d, dev, tdir, "gt", gts, 8);
    for (size_t g = 0; g < ng; g++) {
      if (!ddv_is_number(gts[g] + 2))
        continue;
      const char *dom = gts[g];
      char rel[128], field[32], base[112];
      ddv_fmt(base, sizeof(base), "%s/%s", tdir, gts[g]);
      for (size_t i = 0; i < sizeof(ddv_xe_freqs) / sizeof(ddv_xe_freqs[0]);
           i++) {
        ddv_fmt(rel, sizeof(rel), "%s/freq0/%s", base, ddv_xe_freqs[i].file);
        struct ddv_probe *p = ddv_add_mhz(
            d, dev, dom, rel, ddv_xe_freqs[i].field, ddv_xe_freqs[i].pm);
        if (p != NULL)
          p->limit = ddv_xe_freqs[i].limit;
      }
      ddv_fmt(rel, sizeof(rel), "%s/gtidle/idle_residency_ms", base);
      ddv_add_residency(d, dev, dom, rel, /*bits=*/64);
      ddv_fmt(rel, sizeof(rel), "%s/freq0/throttle/status", base);
      ddv_probe_add(d, dev, DDV_G_THROTTLE, dom, rel, "throttled", "gpu_flag",
                    DDV_K_FLAG, DDV_PM_REF);
      char reasons[24][64], tdir2[128];
      ddv_fmt(tdir2, sizeof(tdir2), "%s/freq0/throttle", base);
      size_t nr = ddv_list(d, dev, tdir2, "reason_", reasons, 24);
      for (size_t r = 0; r < nr; r++) {
        if (strlen(reasons[r]) >= sizeof(field))
          continue;
        ddv_fmt(rel, sizeof(rel), "%s/%s", tdir2, reasons[r]);
        ddv_fmt(field, sizeof(field), "%s", reasons[r]);
        ddv_probe_add(d, dev, DDV_G_THROTTLE, dom, rel, field, "gpu_flag",
                      DDV_K_FLAG, DDV_PM_REF);
      }
    }
  }
}

/*
 * amdgpu, all under device/:
 *  - pp_dpm_sclk, pp_dpm_mclk (amdgpu_pm.c: amdgpu_get_pp_dpm_clock): the
 *    level the SMU selected, reported as requested_hz of domains sclk and
 *    mclk (the measured clock is hwmon freq1/freq2, below);
 *  - gpu_busy_percent, mem_busy_percent (amdgpu_pm.c:
 *    amdgpu_get_gpu_busy_percent, amdgpu_get_mem_busy_percent).
 *  Those call amdgpu_pm_get_access_if_active (returns -EPERM while
 *  suspended) on current kernels but pm_runtime_get_sync on older ones,
 *  which resumes the GPU: never read asleep. Either way the reference is
 *  dropped by amdgpu_pm_put_access (pm_runtime_put_autosuspend, after
 *  pm_runtime_mark_last_busy on older kernels), which restarts the
 *  autosuspend timer: read on the autosuspend rule.
 *  - mem_info_{vram,vis_vram,gtt}_{total,used} in bytes (amdgpu_vram_mgr.c:
 *    amdgpu_mem_info_vram_total_show ...; amdgpu_gtt_mgr.c:
 *    amdgpu_mem_info_gtt_total_show ...): the memory managers' software
 *    counts, no device access: safe asleep.
 */
static void ddv_probe_amdgpu(const struct ddv *d, struct ddv_device *dev) {
  ddv_bound(ddv_probe_add(d, dev, DDV_G_FREQ, "sclk", "device/pp_dpm_sclk",
                          "requested_hz", "gpu_hertz", DDV_K_DPM, DDV_PM_REF),
            0, DDV_MAX_HZ);
  ddv_bound(ddv_probe_add(d, dev, DDV_G_FREQ, "mclk", "device/pp_dpm_mclk",
                          "requested_hz", "gpu_hertz", DDV_K_DPM, DDV_PM_REF),
            0, DDV_MAX_HZ);
  static const char *const regions[] = {"vram", "vis_vram", "gtt"};
  for (size_t i = 0; i < sizeof(regions) / sizeof(regions[0]); i++) {
    char rel[96];
    ddv_fmt(rel, sizeof(rel), "device/mem_info_%s_total", regions[i]);
    ddv_probe_add(d, dev, DDV_G_MEMORY, regions[i], rel, "total_bytes", "bytes",
                  DDV_K_UINT, DDV_PM_NONE);
    ddv_fmt(rel, sizeof(rel), "device/mem_info_%s_used", regions[i]);
    ddv_probe_add(d, dev, DDV_G_MEMORY, regions[i], rel, "used_bytes", "bytes",
                  DDV_K_UINT, DDV_PM_NONE);
  }
  /* the SMU's load, 0..100 (amdgpu_get_gpu_busy_percent prints the
   * AMDGPU_PP_SENSOR_GPU_LOAD / _MEM_LOAD sensor with "%d") */
  ddv_bound(ddv_probe_add(d, dev, DDV_G_BUSY, "gpu", "device/gpu_busy_percent",
                          "percent", "percent", DDV_K_SINT, DDV_PM_REF),
            0, 100);
  ddv_bound(ddv_probe_add(d, dev, DDV_G_BUSY, "memory",
                          "device/mem_busy_percent", "percent", "percent",
                          DDV_K_SINT, DDV_PM_REF),
            0, 100);
  /* gpu_metrics (amdgpu_pm.c: amdgpu_get_gpu_metrics): the same runtime-PM
   * access as pp_dpm_* above, so never read asleep (ddv_gpu_metrics.c) */
  struct ddv_probe *p =
      ddv_probe_add(d, dev, DDV_G_GPU_METRICS, "", "device/gpu_metrics",
                    "gpu_metrics", "", DDV_K_GPU_METRICS, DDV_PM_REF);
  if (p != NULL)
    ddv_gm_probe(d, dev);
}

/*
 * intel_vpu, the Intel NPU (accel node), under device/ (ivpu_sysfs.c):
 *  - npu_busy_time_us (npu_busy_time_us_show): the time the NPU had jobs
 *    submitted, in us, cumulative: time_ns and the busy percent of the
 *    interval;
 *  - npu_memory_utilization (npu_memory_utilization_show): bytes of the
 *    NPU's resident buffer objects.
 * Both add up driver state under a lock (busy_time plus the running job's
 * time from ktime_get; the bo_list): no register, no runtime PM: safe
 * asleep.
 */
static void ddv_probe_ivpu(const struct ddv *d, struct ddv_device *dev) {
  struct ddv_probe *p =
      ddv_probe_add(d, dev, DDV_G_BUSY, "npu", "device/npu_busy_time_us",
                    "time_ns", "gpu_time", DDV_K_COUNTER, DDV_PM_NONE);
  if (p != NULL) {
    p->mult = 1000;            /* us -> ns */
    p->rate_field = "percent"; /* as amdgpu's gpu_busy_percent */
    p->rate_ctype = "percent";
    p->rate_scale = 1e-6 * 100.0; /* us -> s, as a percentage */
  }
  ddv_probe_add(d, dev, DDV_G_MEMORY, "npu", "device/npu_memory_utilization",
                "used_bytes", "bytes", DDV_K_UINT, DDV_PM_NONE);
}

/*
 * devfreq (drivers/devfreq/devfreq.c, Documentation/ABI/testing/
 * sysfs-class-devfreq): device/devfreq/<dev>/cur_freq, min_freq, max_freq
 * in Hz. min_freq_show / max_freq_show print the core's scaling limits
 * (safe asleep); cur_freq_show calls the driver's get_cur_freq when it has
 * one (msm: msm_devfreq_get_cur_freq reads the clock), so it is left alone
 * while suspended, and, whatever the driver does for it, read on the
 * autosuspend rule. A GPU has one devfreq device (devm_devfreq_add_device
 * on the GPU's own device): the first in name order is read.
 */
static void ddv_probe_devfreq(const struct ddv *d, struct ddv_device *dev) {
  char names[1][64];
  if (ddv_list(d, dev, "device/devfreq", "", names, 1) == 0)
    return;
  static const struct {
    const char *file, *field;
    enum ddv_pm pm;
  } f[] = {{"cur_freq", "actual_hz", DDV_PM_REF},
           {"min_freq", "min_hz", DDV_PM_NONE},
           {"max_freq", "max_hz", DDV_PM_NONE}};
  for (size_t k = 0; k < sizeof(f) / sizeof(f[0]); k++) {
    char rel[128];
    ddv_fmt(rel, sizeof(rel), "device/devfreq/%s/%s", names[0], f[k].file);
    /* devfreq.c: "%lu" Hz of the OPP table's clocks */
    ddv_bound(ddv_probe_add(d, dev, DDV_G_FREQ, "devfreq", rel, f[k].field,
                            "gpu_hertz", DDV_K_UINT, f[k].pm),
              0, DDV_MAX_HZ);
  }
}

/* The word in file `rel` into out, or the fallback. */
static void ddv_hwmon_word(struct ddv *d, const struct ddv_device *dev,
                           const char *rel, const char *fallback, char *out,
                           size_t size) {
  ddv_fmt(out, size, "%s", fallback);
  int fd = ddv_node_openat(d, dev, rel, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0)
    return;
  ssize_t n = kernel_read_retry(d->k, fd, d->buf, SYSFS_VALUE_MAX);
  d->k->close(fd);
  char word[48];
  if (n > 0 && n < SYSFS_VALUE_MAX &&
      sysfs_value_word(d->buf, (size_t)n, word, sizeof(word)) == 0)
    text_sanitize(out, size, word, strlen(word));
}

/* The label of hwmon channel `<type><n>` into out, or the fallback. Labels
 * are static strings in every driver (hwmon.c: hwmon_attr_show_string ->
 * read_string: amdgpu_pm.c amdgpu_hwmon_show_temp_label, xe_hwmon.c
 * xe_hwmon_read_label), so reading one never touches the device. */
static void ddv_hwmon_label(struct ddv *d, const struct ddv_device *dev,
                            const char *dir, const char *chan,
                            const char *fallback, char *out, size_t size) {
  char rel[128];
  ddv_fmt(rel, sizeof(rel), "%s/%s_label", dir, chan);
  ddv_hwmon_word(d, dev, rel, fallback, out, size);
}

/*
 * hwmon (Documentation/hwmon/sysfs-interface.rst): device/hwmon/hwmon<N>/
 * temp<i>_input (m°C), power<i>_input / power<i>_average (µW),
 * power<i>_cap / power<i>_max (µW: amdgpu's cap, i915/xe's PL1 limit),
 * energy<i>_input (µJ, cumulative), fan<i>_input (RPM), in<i>_input (mV),
 * freq<i>_input (Hz, amdgpu sclk/mclk). Drivers: i915_hwmon.c (hwm_read:
 * with_intel_runtime_pm), xe_hwmon.c (xe_hwmon_read: xe_pm_runtime_get),
 * amdgpu_pm.c (amdgpu_hwmon_show_*: runtime-PM access as above): no value
 * is read while the device is suspended, and all (of other drivers too)
 * are read on the autosuspend rule. energy<i>_input is a 64-bit count
 * (i915_hwmon.c: hwm_energy, xe_hwmon.c: xe_hwmon_energy_get accumulate
 * the 32-bit register into a u64): one that goes down was reset.
 *
 * Power and energy channels meet in one record per sensor (the label, or
 * "power<i>" without one). With an energy counter, power_watts is its
 * average over the interval and power<i>_input/average are not read.
 * amdgpu shows power<i>_average and power<i>_input each where the SMU has
 * that sensor (amdgpu_pm.c: hwmon_attributes_visible), so a part may have
 * both: then the average is read, the input not.
 * i915 adds to the device's "i915" hwmon one "i915_gt<N>" hwmon per GT
 * whose only attribute is energy1_input, without a label (i915_hwmon.c:
 * i915_hwmon_register, hwm_gt_is_visible): that sensor is "gt<N>".
 *
 * Bounds (hwmon.c: hwmon_attr_show prints the driver's long with "%ld";
 * nothing there clamps it): temperatures within absolute zero and
 * DDV_MAX_CELSIUS (amdgpu_hwmon_show_temp: the SMU's degrees x 1000;
 * xe_hwmon/i915: a register's degrees), power and power caps within 0 and
 * DDV_MAX_WATTS (amdgpu_hwmon_show_power_cap: a u32 of W x 10^6;
 * i915_hwmon.c hwm_power_max_read / xe_hwmon_power_max_read: a register's
 * limit scaled to µW, 0 with the limit disabled), fans within 0 and
 * DDV_MAX_RPM, voltages within 0 and DDV_MAX_VOLTS (i915 hwm_in_read,
 * amdgpu_hwmon_show_vddgfx: positive mV of a register or the SMU),
 * frequencies within 0 and DDV_MAX_HZ (amdgpu_hwmon_show_sclk: the SMU's
 * clock in 10 kHz as Hz). INT64_MIN as a cap, 2^31 m°C as a temperature
 * are no driver's values: refused, said once.
 */
static void ddv_probe_hwmon_dir(struct ddv *d, struct ddv_device *dev,
                                const char *dir) {
  /* amdgpu has about 80 files; on the heap (discovery only) */
  char(*files)[64] = malloc(256 * sizeof(*files));
  if (files == NULL)
    return;
  size_t n = ddv_list(d, dev, dir, "", files, 256);
  char rel[128], sensor[48], chan[24], name[48];
  /* hwmon.c: name_show prints the name given at registration */
  ddv_fmt(rel, sizeof(rel), "%s/name", dir);
  ddv_hwmon_word(d, dev, rel, "", name, sizeof(name));
  unsigned gt;
  char extra;
  bool per_gt = sscanf(name, "i915_gt%u%c", &gt, &extra) == 1;
  /* energy first: it decides whether power*_input is read */
  bool energy_for[16] = {false}, average_for[16] = {false};
  for (size_t i = 0; i < n; i++) {
    unsigned c;
    char tail[16];
    if (sscanf(files[i], "power%u_%15s", &c, tail) == 2 &&
        strcmp(tail, "average") == 0 && c < 16)
      average_for[c] = true;
    if (sscanf(files[i], "energy%u_%15s", &c, tail) != 2 ||
        strcmp(tail, "input") != 0 || c >= 16)
      continue;
    ddv_fmt(chan, sizeof(chan), "energy%u", c);
    char fb[24];
    if (per_gt)
      ddv_fmt(fb, sizeof(fb), "gt%u", gt);
    else
      ddv_fmt(fb, sizeof(fb), "power%u", c);
    ddv_hwmon_label(d, dev, dir, chan, fb, sensor, sizeof(sensor));
    ddv_fmt(rel, sizeof(rel), "%s/%s", dir, files[i]);
    struct ddv_probe *p =
        ddv_probe_add(d, dev, DDV_G_POWER, sensor, rel, "energy_joules",
                      "gpu_energy", DDV_K_COUNTER, DDV_PM_REF);
    if (p == NULL)
      continue;
    p->energy_bound = true;
    p->scale = 1e-6;      /* µJ -> J */
    p->rate_scale = 1e-6; /* µJ/s -> W */
    p->rate_field = "power_watts";
    p->rate_ctype = "gpu_watts";
    energy_for[c] = true;
  }
  for (size_t i = 0; i < n; i++) {
    unsigned c;
    char type[16], tail[16];
    if (sscanf(files[i], "%15[a-z]%u_%15s", type, &c, tail) != 3)
      continue;
    ddv_fmt(rel, sizeof(rel), "%s/%s", dir, files[i]);
    ddv_fmt(chan, sizeof(chan), "%s%u", type, c);
    struct ddv_probe *p = NULL;
    if (strcmp(type, "temp") == 0 && strcmp(tail, "input") == 0) {
      ddv_hwmon_label(d, dev, dir, chan, chan, sensor, sizeof(sensor));
      p = ddv_probe_add(d, dev, DDV_G_TEMPERATURE, sensor, rel, "celsius",
                        "gpu_celsius", DDV_K_SINT, DDV_PM_REF);
      if (p != NULL)
        p->scale = 1e-3;
      ddv_bound(p, DDV_MIN_CELSIUS, DDV_MAX_CELSIUS);
    } else if (strcmp(type, "power") == 0) {
      const char *field = NULL;
      if (strcmp(tail, "cap") == 0 || strcmp(tail, "max") == 0)
        field = "power_cap_watts";
      else if ((strcmp(tail, "average") == 0 ||
                (strcmp(tail, "input") == 0 && !(c < 16 && average_for[c]))) &&
               !(c < 16 && energy_for[c]))
        field = "power_watts";
      if (field == NULL)
        continue;
      char fb[24];
      ddv_fmt(fb, sizeof(fb), "power%u", c);
      ddv_hwmon_label(d, dev, dir, chan, fb, sensor, sizeof(sensor));
      p = ddv_probe_add(d, dev, DDV_G_POWER, sensor, rel, field, "gpu_watts",
                        DDV_K_SINT, DDV_PM_REF);
      if (p != NULL)
        p->scale = 1e-6;
      ddv_bound(p, 0, DDV_MAX_WATTS);
    } else if (strcmp(type, "fan") == 0 && strcmp(tail, "input") == 0) {
      ddv_hwmon_label(d, dev, dir, chan, chan, sensor, sizeof(sensor));
      ddv_bound(ddv_probe_add(d, dev, DDV_G_FAN, sensor, rel, "rpm", "gpu_rpm",
                              DDV_K_SINT, DDV_PM_REF),
                0, DDV_MAX_RPM);
    } else if (strcmp(type, "in") == 0 && strcmp(tail, "input") == 0) {
      ddv_hwmon_label(d, dev, dir, chan, chan, sensor, sizeof(sensor));
      p = ddv_probe_add(d, dev, DDV_G_VOLTAGE, sensor, rel, "volts",
                        "gpu_volts", DDV_K_SINT, DDV_PM_REF);
      if (p != NULL)
        p->scale = 1e-3;
      ddv_bound(p, 0, DDV_MAX_VOLTS);
    } else if (strcmp(type, "freq") == 0 && strcmp(tail, "input") == 0) {
      ddv_hwmon_label(d, dev, dir, chan, chan, sensor, sizeof(sensor));
      ddv_bound(ddv_probe_add(d, dev, DDV_G_FREQ, sensor, rel, "actual_hz",
                              "gpu_hertz", DDV_K_UINT, DDV_PM_REF),
                0, DDV_MAX_HZ);
    }
  }
  free(files);
}

/* hwmon directories per device read at most (i915 has one per GT and one
 * for the card; amdgpu and xe one). */
#define DDV_HWMON_DIRS 16

void ddv_probe_hwmon(struct ddv *d, struct ddv_device *dev) {
  dev->hwmon_pending = false;
  char dirs[DDV_HWMON_DIRS][64];
  size_t n = ddv_list(d, dev, "device/hwmon", "hwmon", dirs, DDV_HWMON_DIRS);
  for (size_t i = 0; i < n; i++) {
    char dir[96];
    ddv_fmt(dir, sizeof(dir), "device/hwmon/%s", dirs[i]);
    ddv_probe_hwmon_dir(d, dev, dir);
  }
  /* each energy counter's power cap, where its sensor has one (the bound
   * of its growth: ddv_read.c, ddv_counter) */
  for (size_t i = 0; i < dev->n_probes; i++) {
    struct ddv_probe *e = &dev->probes[i];
    if (e->kind != DDV_K_COUNTER || strcmp(e->field, "energy_joules") != 0)
      continue;
    for (size_t k = 0; k < dev->n_probes; k++)
      if (dev->probes[k].rec == e->rec &&
          strcmp(dev->probes[k].field, "power_cap_watts") == 0)
        e->cap = (int)k;
  }
}

/* ---- the device list ---- */

static void ddv_device_fini(struct ddv *d, struct ddv_device *dev) {
  for (size_t i = 0; i < dev->n_probes; i++)
    if (dev->probes[i].fd >= 0) {
      d->k->close(dev->probes[i].fd);
      d->fds_open--;
    }
  if (dev->dirfd >= 0) {
    d->k->close(dev->dirfd);
    d->fds_open--;
  }
  free(dev->probes);
  free(dev->recs);
  ddv_gm_free(dev);
  ddv_info_free(dev);
  dev->dirfd = -1;
  dev->probes = NULL;
  dev->recs = NULL;
}

/* True the first time `node` is found leading out of SysfsRoot (each
 * scan finds it again): said at WARNING then, at DEBUG after. */
static bool ddv_first_out(struct ddv *d, const char *node) {
  for (size_t i = 0; i < d->n_said_out; i++)
    if (strcmp(d->said_out[i], node) == 0)
      return false;
  if (d->n_said_out < sizeof(d->said_out) / sizeof(d->said_out[0]))
    ddv_fmt(d->said_out[d->n_said_out++], sizeof(d->said_out[0]), "%s", node);
  return true;
}

/* Set up `dev` for node `node` of class directory `cls`; false when it is
 * filtered out or cannot be opened (said once per scan at most). */
static bool ddv_device_init(struct ddv *d, struct ddv_device *dev,
                            const char *cls, const char *node) {
  memset(dev, 0, sizeof(*dev));
  dev->dirfd = -1;
  dev->status = dev->control = dev->delay = dev->susp = -1;
  dev->runtime_rec = -1;
  ddv_fmt(dev->node, sizeof(dev->node), "%s", node);
  if (!ddv_fmt(dev->path, sizeof(dev->path), "%s/class/%s/%s",
               d->cfg.sysfs_root, cls, node)) {
    log_errno(LOG_LEVEL_WARNING, DDV_PLUGIN, dev->path, "open", ENAMETOOLONG,
              NULL);
    return false;
  }
  dev->dirfd = d->k->open(dev->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
  if (dev->dirfd < 0) {
    log_errno(LOG_LEVEL_WARNING, DDV_PLUGIN, dev->path, "open", errno, NULL);
    return false;
  }
  d->fds_open++;
  char rel[300];
  snprintf(rel, sizeof(rel), "class/%s/%s/device", cls, node);
  int rc =
      sysfs_link_basename(d->cfg.sysfs_root, rel, dev->name, sizeof(dev->name));
  if (rc == -EXDEV) { /* its attributes are read through it: not at all */
    log_msg(ddv_first_out(d, node) ? LOG_LEVEL_WARNING : LOG_LEVEL_DEBUG,
            DDV_PLUGIN, dev->path, "device",
            "a link that leads out of SysfsRoot (%s): skipped",
            strerror(EXDEV));
    ddv_device_fini(d, dev);
    return false;
  }
  if (rc < 0)
    ddv_fmt(dev->name, sizeof(dev->name), "%s", node);
  snprintf(rel, sizeof(rel), "class/%s/%s/device/driver", cls, node);
  if (sysfs_link_basename(d->cfg.sysfs_root, rel, dev->driver,
                          sizeof(dev->driver)) < 0)
    dev->driver[0] = '\0';
  if (!ddv_config_device_ok(&d->cfg, dev->name, dev->node) ||
      !ddv_config_driver_ok(&d->cfg, dev->driver)) {
    ddv_device_fini(d, dev);
    return false;
  }
  ddv_info_probe(d, dev);
  ddv_probe_runtime(d, dev);
  if (strcmp(dev->driver, "intel_vpu") == 0)
    ddv_probe_ivpu(d, dev);
  else if (strcmp(dev->driver, "i915") == 0)
    ddv_probe_i915(d, dev);
  else if (strcmp(dev->driver, "xe") == 0)
    ddv_probe_xe(d, dev);
  else if (strcmp(dev->driver, "amdgpu") == 0)
    ddv_probe_amdgpu(d, dev);
  ddv_probe_devfreq(d, dev);
  /* hwmon channels are named by their labels, which are files of the
   * device's hwmon: read them only once the device is seen active
   * (ddv_device_read), so that nothing of a suspended device but the
   * attributes marked safe is ever opened. */
  dev->hwmon_pending = true;
  if (d->fds_open > d->fd_budget) {
    /* beyond the budget: attributes are opened by path from now on */
    d->k->close(dev->dirfd);
    dev->dirfd = -1;
    d->fds_open--;
  }
  log_msg(LOG_LEVEL_INFO, DDV_PLUGIN, dev->name, "device",
          "%s (driver %s): %zu attributes", node,
          dev->driver[0] ? dev->driver : "unknown", dev->n_probes);
  return true;
}

static bool ddv_node_name(const char *cls, const char *name) {
  const char *prefix = strcmp(cls, "drm") == 0 ? "card" : "accel";
  size_t n = strlen(prefix);
  return strncmp(name, prefix, n) == 0 && ddv_is_number(name + n);
}

/* Look at one class directory; new nodes are set up, known ones marked.
 * *present says whether the directory exists. */
static int ddv_scan_class(struct ddv *d, const char *cls, bool *present) {
  char path[512];
  ddv_fmt(path, sizeof(path), "%s/class/%s", d->cfg.sysfs_root, cls);
  int fd = d->k->open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
  *present = fd >= 0 || errno != ENOENT;
  if (fd < 0)
    return errno == ENOENT ? 0 : -errno;
  DIR *dir = d->k->fdopendir(fd);
  if (dir == NULL) {
    int err = errno;
    d->k->close(fd);
    return -err;
  }
  struct dirent *e;
  while ((e = d->k->readdir(dir)) != NULL) {
    if (!ddv_node_name(cls, e->d_name))
      continue;
    struct ddv_device *known = NULL;
    for (size_t i = 0; i < d->n_devices; i++)
      if (!d->devices[i].gone && strcmp(d->devices[i].node, e->d_name) == 0)
        known = &d->devices[i];
    if (known != NULL) {
      known->seen = true;
      continue;
    }
    if (d->n_devices == d->cap_devices) {
      size_t cap = d->cap_devices ? d->cap_devices * 2 : 4;
      struct ddv_device *grown = realloc(d->devices, cap * sizeof(*grown));
      if (grown == NULL)
        continue;
      d->devices = grown;
      d->cap_devices = cap;
    }
    struct ddv_device *dev = &d->devices[d->n_devices];
    if (ddv_device_init(d, dev, cls, e->d_name)) {
      dev->seen = true;
      d->n_devices++;
      d->scan_changes++;
    }
  }
  d->k->closedir(dir);
  return 0;
}

static int ddv_dev_cmp(const void *a, const void *b) {
  const struct ddv_device *x = a, *y = b;
  size_t lx = strlen(x->node), ly = strlen(y->node);
  /* card before accel, then by number */
  bool ax = x->node[0] == 'a', ay = y->node[0] == 'a';
  if (ax != ay)
    return ax ? 1 : -1;
  if (lx != ly)
    return lx < ly ? -1 : 1;
  return strcmp(x->node, y->node);
}

/* Said once while no device is there (again after one was found): at
 * WARNING when a configured SysfsRoot has neither class directory (not a
 * sysfs tree: a wrong SysfsRoot), else at INFO (the default /sys of a
 * machine whose kernel has no DRM driver loaded: nothing is wrong). */
static void ddv_say_none(struct ddv *d, bool drm, bool accel) {
  d->no_class = !drm && !accel;
  if (d->n_devices > 0) {
    d->said_none = false;
    return;
  }
  if (d->said_none)
    return;
  d->said_none = true;
  if (!drm && !accel)
    log_msg(strcmp(d->cfg.sysfs_root, "/sys") != 0 ? LOG_LEVEL_WARNING
                                                   : LOG_LEVEL_INFO,
            DDV_PLUGIN, d->cfg.sysfs_root, "SysfsRoot",
            "has neither class/drm nor class/accel: no DRM device can be "
            "found there; looking again every 1 s doubling to 1 min");
  else
    log_msg(LOG_LEVEL_INFO, DDV_PLUGIN, d->cfg.sysfs_root, "SysfsRoot",
            "no DRM device%s in class/drm (card<N>) or class/accel "
            "(accel<N>); looking again every 1 s doubling to 1 min",
            d->cfg.filter.n_devices || d->cfg.filter.n_drivers
                ? " matching Device/Driver"
                : "");
}

int ddv_scan(struct ddv *d) {
  for (size_t i = 0; i < d->n_devices; i++)
    d->devices[i].seen = false;
  d->scan_changes = 0;
  bool drm, accel;
  int rc = ddv_scan_class(d, "drm", &drm);
  int rc2 = ddv_scan_class(d, "accel", &accel);
  if (rc == 0)
    rc = rc2;
  if (rc < 0) {
    for (size_t i = 0; i < d->n_devices; i++)
      d->devices[i].seen = true; /* keep what we had */
    if (log_complaint_raise(&d->scan_complaint))
      log_errno(LOG_LEVEL_WARNING, DDV_PLUGIN, d->cfg.sysfs_root, "class/drm",
                -rc, NULL);
  } else if (log_complaint_release(&d->scan_complaint)) {
    log_msg(LOG_LEVEL_INFO, DDV_PLUGIN, d->cfg.sysfs_root, "class/drm",
            "readable again");
  }
  size_t kept = 0;
  for (size_t i = 0; i < d->n_devices; i++) {
    if (d->devices[i].seen) {
      d->devices[kept++] = d->devices[i];
      continue;
    }
    bool back = false; /* the node is there again, set up anew */
    for (size_t j = 0; j < d->n_devices; j++)
      back |= j != i && d->devices[j].seen &&
              strcmp(d->devices[j].node, d->devices[i].node) == 0;
    log_msg(LOG_LEVEL_INFO, DDV_PLUGIN, d->devices[i].name, "device",
            back ? "%s changed: set up again" : "%s is gone",
            d->devices[i].node);
    ddv_device_fini(d, &d->devices[i]);
    d->scan_changes++;
  }
  d->n_devices = kept;
  if (d->n_devices > 1)
    qsort(d->devices, d->n_devices, sizeof(d->devices[0]), ddv_dev_cmp);
  d->rescan = false;
  if (rc == 0)
    ddv_say_none(d, drm, accel);
  return rc;
}

void ddv_devices_free(struct ddv *d) {
  for (size_t i = 0; i < d->n_devices; i++)
    ddv_device_fini(d, &d->devices[i]);
  free(d->devices);
  d->devices = NULL;
  d->n_devices = d->cap_devices = 0;
}
