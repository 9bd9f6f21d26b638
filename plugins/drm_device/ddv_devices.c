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
 * what was found. Whether an attribute may be read while the device is
 * runtime-suspended is decided here from the kernel function behind it
 * (the comments at each table say which).
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
#define MS_NS UINT64_C(1000000)

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
  if (d->k->fstatat(dev->dirfd, rel, &st, 0) != 0)
    return false;
  return want_dir ? S_ISDIR(st.st_mode) : S_ISREG(st.st_mode);
}

/* Add a probe for `rel` when it exists; NULL when it does not (or no
 * memory: the attribute is then left out, like one the kernel lacks). */
static struct ddv_probe *ddv_probe_add(const struct ddv *d,
                                       struct ddv_device *dev, enum ddv_group g,
                                       const char *tag, const char *rel,
                                       const char *field, const char *ctype,
                                       enum ddv_kind kind, bool safe_asleep) {
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
  p->safe_asleep = safe_asleep;
  p->fd = -1;
  p->mult = 1;
  p->scale = 1.0;
  return p;
}

/* A frequency in MHz -> hertz. */
static void ddv_add_mhz(const struct ddv *d, struct ddv_device *dev,
                        const char *domain, const char *rel, const char *field,
                        bool safe_asleep) {
  struct ddv_probe *p = ddv_probe_add(d, dev, DDV_G_FREQ, domain, rel, field,
                                      "gpu_hertz", DDV_K_UINT, safe_asleep);
  if (p != NULL)
    p->mult = MHZ;
}

/* A cumulative residency in ms -> residency_ns and idle_percent. */
static void ddv_add_residency(const struct ddv *d, struct ddv_device *dev,
                              const char *domain, const char *rel) {
  struct ddv_probe *p =
      ddv_probe_add(d, dev, DDV_G_IDLE, domain, rel, "residency_ns", "gpu_time",
                    DDV_K_COUNTER, false);
  if (p == NULL)
    return;
  p->mult = MS_NS;
  p->rate_field = "idle_percent";
  p->rate_ctype = "percent";
  p->rate_scale = 1e-3 * 100.0; /* ms -> s, as a percentage */
}

/* Runtime PM (drivers/base/power/sysfs.c: runtime_status_show,
 * runtime_active_time_show, runtime_suspended_time_show, the last two in
 * ms from pm_runtime_active_time / pm_runtime_suspended_time): the PM
 * core's own bookkeeping, read without touching the device. */
static void ddv_probe_runtime(const struct ddv *d, struct ddv_device *dev) {
  struct ddv_probe *p =
      ddv_probe_add(d, dev, DDV_G_RUNTIME, "", "device/power/runtime_status",
                    "runtime_suspended", "gpu_flag", DDV_K_STATUS, true);
  dev->status = p != NULL ? (int)(p - dev->probes) : -1;
  p = ddv_probe_add(d, dev, DDV_G_RUNTIME, "",
                    "device/power/runtime_active_time", "runtime_active_ns",
                    "gpu_time", DDV_K_UINT, true);
  if (p != NULL)
    p->mult = MS_NS;
  p = ddv_probe_add(d, dev, DDV_G_RUNTIME, "",
                    "device/power/runtime_suspended_time",
                    "runtime_suspended_ns", "gpu_time", DDV_K_UINT, true);
  if (p != NULL)
    p->mult = MS_NS;
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
 * under SLPC (intel_rps_read_punit_req) do not wake but read 0 when asleep:
 * absent, not 0. rc6_residency_ms (get_residency: with_intel_runtime_pm)
 * and throttle_reason_* (rps_read_mmio: with_intel_runtime_pm) resume the
 * device: never read asleep. rc6_residency_ms is printed with "%u" (u32
 * ms, which wraps after 49.7 days): the counter unwraps it.
 */
static const struct {
  const char *name; /* after rps_ or gt_ */
  const char *field;
  bool safe_asleep;
} ddv_i915_freqs[] = {
    {"act_freq_mhz", "actual_hz", false},
    {"cur_freq_mhz", "requested_hz", false},
    {"min_freq_mhz", "min_hz", true},
    {"max_freq_mhz", "max_hz", true},
    {"boost_freq_mhz", "boost_hz", true},
    {"RP0_freq_mhz", "rp0_hz", true},
    {"RP1_freq_mhz", "rpe_hz", true},
    {"RPn_freq_mhz", "rpn_hz", true},
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
                ddv_i915_freqs[i].safe_asleep);
  }
  ddv_add_residency(d, dev, domain, rc6);
  if (!throttle)
    return;
  ddv_fmt(rel, sizeof(rel), "%sthrottle_reason_status", dir);
  ddv_probe_add(d, dev, DDV_G_THROTTLE, domain, rel, "throttled", "gpu_flag",
                DDV_K_FLAG, false);
  for (size_t i = 0; i < sizeof(ddv_i915_reasons) / sizeof(ddv_i915_reasons[0]);
       i++) {
    ddv_fmt(rel, sizeof(rel), "%sthrottle_reason_%s", dir, ddv_i915_reasons[i]);
    ddv_fmt(field, sizeof(field), "reason_%s", ddv_i915_reasons[i]);
    ddv_probe_add(d, dev, DDV_G_THROTTLE, domain, rel, field, "gpu_flag",
                  DDV_K_FLAG, false);
  }
}

/* The entries of directory `rel` (under the node) whose names start with
 * `prefix`, sorted, into names (each 64 bytes); returns how many. */
static size_t ddv_list(const struct ddv *d, const struct ddv_device *dev,
                       const char *rel, const char *prefix, char (*names)[64],
                       size_t max) {
  int fd = d->k->openat(dev->dirfd, rel, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
  if (fd < 0)
    return 0;
  DIR *dir = d->k->fdopendir(fd);
  if (dir == NULL) {
    d->k->close(fd);
    return 0;
  }
  size_t n = 0, plen = strlen(prefix);
  struct dirent *e;
  while (n < max && (e = d->k->readdir(dir)) != NULL) {
    if (strncmp(e->d_name, prefix, plen) != 0 || strlen(e->d_name) >= 64 ||
        e->d_name[0] == '.')
      continue;
    ddv_fmt(names[n++], 64, "%s", e->d_name);
  }
  d->k->closedir(dir);
  /* sorted by the number after the prefix, then by name */
  for (size_t i = 1; i < n; i++)
    for (size_t j = i; j > 0; j--) {
      long a = strtol(names[j - 1] + plen, NULL, 10);
      long b = strtol(names[j] + plen, NULL, 10);
      if (a < b || (a == b && strcmp(names[j - 1], names[j]) <= 0))
        break;
      char t[64];
      memcpy(t, names[j], 64);
      memcpy(names[j], names[j - 1], 64);
      memcpy(names[j - 1], t, 64);
    }
  return n;
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
 *  - gtidle/idle_residency_ms (xe_gt_idle.c: idle_residency_ms_show);
 *  - freq0/throttle/status and reason_* (xe_gt_throttle.c: status_show,
 *    reason_pl1_show, ...), each 0 or 1.
 * Every one of them takes a runtime-PM reference on current kernels
 * (xe_pm_runtime_get in the show functions, or the GuC/MMIO access behind
 * them): none is read while the device is suspended.
 */
static const struct {
  const char *file;
  const char *field;
} ddv_xe_freqs[] = {{"act_freq", "actual_hz"}, {"cur_freq", "requested_hz"},
                    {"min_freq", "min_hz"},    {"max_freq", "max_hz"},
                    {"rp0_freq", "rp0_hz"},    {"rpe_freq", "rpe_hz"},
                    {"rpa_freq", "rpa_hz"},    {"rpn_freq", "rpn_hz"}};

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
        ddv_add_mhz(d, dev, dom, rel, ddv_xe_freqs[i].field, false);
      }
      ddv_fmt(rel, sizeof(rel), "%s/gtidle/idle_residency_ms", base);
      ddv_add_residency(d, dev, dom, rel);
      ddv_fmt(rel, sizeof(rel), "%s/freq0/throttle/status", base);
      ddv_probe_add(d, dev, DDV_G_THROTTLE, dom, rel, "throttled", "gpu_flag",
                    DDV_K_FLAG, false);
      char reasons[24][64], tdir2[128];
      ddv_fmt(tdir2, sizeof(tdir2), "%s/freq0/throttle", base);
      size_t nr = ddv_list(d, dev, tdir2, "reason_", reasons, 24);
      for (size_t r = 0; r < nr; r++) {
        if (strlen(reasons[r]) >= sizeof(field))
          continue;
        ddv_fmt(rel, sizeof(rel), "%s/%s", tdir2, reasons[r]);
        ddv_fmt(field, sizeof(field), "%s", reasons[r]);
        ddv_probe_add(d, dev, DDV_G_THROTTLE, dom, rel, field, "gpu_flag",
                      DDV_K_FLAG, false);
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
 *  which resumes the GPU: never read asleep.
 *  - mem_info_{vram,vis_vram,gtt}_{total,used} in bytes (amdgpu_vram_mgr.c:
 *    amdgpu_mem_info_vram_total_show ...; amdgpu_gtt_mgr.c:
 *    amdgpu_mem_info_gtt_total_show ...): the memory managers' software
 *    counts, no device access: safe asleep.
 */
static void ddv_probe_amdgpu(const struct ddv *d, struct ddv_device *dev) {
  struct ddv_probe *p;
  p = ddv_probe_add(d, dev, DDV_G_FREQ, "sclk", "device/pp_dpm_sclk",
                    "requested_hz", "gpu_hertz", DDV_K_DPM, false);
  p = ddv_probe_add(d, dev, DDV_G_FREQ, "mclk", "device/pp_dpm_mclk",
                    "requested_hz", "gpu_hertz", DDV_K_DPM, false);
  (void)p;
  static const char *const regions[] = {"vram", "vis_vram", "gtt"};
  for (size_t i = 0; i < 3; i++) {
    char rel[96];
    ddv_fmt(rel, sizeof(rel), "device/mem_info_%s_total", regions[i]);
    ddv_probe_add(d, dev, DDV_G_MEMORY, regions[i], rel, "total_bytes", "bytes",
                  DDV_K_UINT, true);
    ddv_fmt(rel, sizeof(rel), "device/mem_info_%s_used", regions[i]);
    ddv_probe_add(d, dev, DDV_G_MEMORY, regions[i], rel, "used_bytes", "bytes",
                  DDV_K_UINT, true);
  }
  p = ddv_probe_add(d, dev, DDV_G_BUSY, "gpu", "device/gpu_busy_percent",
                    "percent", "percent", DDV_K_SINT, false);
  p = ddv_probe_add(d, dev, DDV_G_BUSY, "memory", "device/mem_busy_percent",
                    "percent", "percent", DDV_K_SINT, false);
  /* gpu_metrics (amdgpu_pm.c: amdgpu_get_gpu_metrics): the same runtime-PM
   * access as pp_dpm_* above, so never read asleep (ddv_gpu_metrics.c) */
  p = ddv_probe_add(d, dev, DDV_G_GPU_METRICS, "", "device/gpu_metrics",
                    "gpu_metrics", "", DDV_K_GPU_METRICS, false);
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
                    "time_ns", "gpu_time", DDV_K_COUNTER, true);
  if (p != NULL) {
    p->mult = 1000;            /* us -> ns */
    p->rate_field = "percent"; /* as amdgpu's gpu_busy_percent */
    p->rate_ctype = "percent";
    p->rate_scale = 1e-6 * 100.0; /* us -> s, as a percentage */
  }
  ddv_probe_add(d, dev, DDV_G_MEMORY, "npu", "device/npu_memory_utilization",
                "used_bytes", "bytes", DDV_K_UINT, true);
}

/*
 * devfreq (drivers/devfreq/devfreq.c, Documentation/ABI/testing/
 * sysfs-class-devfreq): device/devfreq/<dev>/cur_freq, min_freq, max_freq
 * in Hz. min_freq_show / max_freq_show print the core's scaling limits
 * (safe asleep); cur_freq_show calls the driver's get_cur_freq when it has
 * one (msm: msm_devfreq_get_cur_freq reads the clock), so it is left alone
 * while suspended.
 */
static void ddv_probe_devfreq(const struct ddv *d, struct ddv_device *dev) {
  char names[4][64];
  size_t n = ddv_list(d, dev, "device/devfreq", "", names, 4);
  for (size_t i = 0; i < n && i < 1; i++) {
    char rel[128];
    static const struct {
      const char *file, *field;
      bool safe;
    } f[] = {{"cur_freq", "actual_hz", false},
             {"min_freq", "min_hz", true},
             {"max_freq", "max_hz", true}};
    for (size_t k = 0; k < 3; k++) {
      ddv_fmt(rel, sizeof(rel), "device/devfreq/%s/%s", names[i], f[k].file);
      ddv_probe_add(d, dev, DDV_G_FREQ, "devfreq", rel, f[k].field, "gpu_hertz",
                    DDV_K_UINT, f[k].safe);
    }
  }
}

/* The word in file `rel` into out, or the fallback. */
static void ddv_hwmon_word(struct ddv *d, const struct ddv_device *dev,
                           const char *rel, const char *fallback, char *out,
                           size_t size) {
  ddv_fmt(out, size, "%s", fallback);
  int fd = d->k->openat(dev->dirfd, rel, O_RDONLY | O_NONBLOCK | O_CLOEXEC, 0);
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
 * is read while the device is suspended.
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
                      "gpu_energy", DDV_K_COUNTER, false);
    if (p == NULL)
      continue;
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
                        "gpu_celsius", DDV_K_SINT, false);
      if (p != NULL)
        p->scale = 1e-3;
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
                        DDV_K_SINT, false);
      if (p != NULL)
        p->scale = 1e-6;
    } else if (strcmp(type, "fan") == 0 && strcmp(tail, "input") == 0) {
      ddv_hwmon_label(d, dev, dir, chan, chan, sensor, sizeof(sensor));
      p = ddv_probe_add(d, dev, DDV_G_FAN, sensor, rel, "rpm", "gpu_rpm",
                        DDV_K_SINT, false);
    } else if (strcmp(type, "in") == 0 && strcmp(tail, "input") == 0) {
      ddv_hwmon_label(d, dev, dir, chan, chan, sensor, sizeof(sensor));
      p = ddv_probe_add(d, dev, DDV_G_VOLTAGE, sensor, rel, "volts",
                        "gpu_volts", DDV_K_SINT, false);
      if (p != NULL)
        p->scale = 1e-3;
    } else if (strcmp(type, "freq") == 0 && strcmp(tail, "input") == 0) {
      ddv_hwmon_label(d, dev, dir, chan, chan, sensor, sizeof(sensor));
      p = ddv_probe_add(d, dev, DDV_G_FREQ, sensor, rel, "actual_hz",
                        "gpu_hertz", DDV_K_UINT, false);
    }
  }
  free(files);
}

void ddv_probe_hwmon(struct ddv *d, struct ddv_device *dev) {
  dev->hwmon_pending = false;
  char dirs[4][64];
  size_t n = ddv_list(d, dev, "device/hwmon", "hwmon", dirs, 4);
  for (size_t i = 0; i < n; i++) {
    char dir[96];
    ddv_fmt(dir, sizeof(dir), "device/hwmon/%s", dirs[i]);
    ddv_probe_hwmon_dir(d, dev, dir);
  }
}

/* ---- the device list ---- */

static void ddv_device_fini(const struct ddv *d, struct ddv_device *dev) {
  for (size_t i = 0; i < dev->n_probes; i++)
    if (dev->probes[i].fd >= 0)
      d->k->close(dev->probes[i].fd);
  if (dev->dirfd >= 0)
    d->k->close(dev->dirfd);
  free(dev->probes);
  free(dev->recs);
  ddv_gm_free(dev);
  ddv_info_free(dev);
  dev->dirfd = -1;
  dev->probes = NULL;
  dev->recs = NULL;
}

/* Set up `dev` for node `node` of class directory `cls`; false when it is
 * filtered out or cannot be opened (said once per scan at most). */
static bool ddv_device_init(struct ddv *d, struct ddv_device *dev,
                            const char *cls, const char *node) {
  memset(dev, 0, sizeof(*dev));
  dev->dirfd = -1;
  dev->status = -1;
  ddv_fmt(dev->node, sizeof(dev->node), "%s", node);
  char path[512];
  ddv_fmt(path, sizeof(path), "%s/class/%s/%s", d->cfg.sysfs_root, cls, node);
  dev->dirfd = d->k->open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
  if (dev->dirfd < 0) {
    log_errno(LOG_LEVEL_WARNING, DDV_PLUGIN, path, "open", errno, NULL);
    return false;
  }
  if (sysfs_link_basename(dev->dirfd, "device", dev->name, sizeof(dev->name)) <
      0)
    ddv_fmt(dev->name, sizeof(dev->name), "%s", node);
  if (sysfs_link_basename(dev->dirfd, "device/driver", dev->driver,
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

/* Look at one class directory; new nodes are set up, known ones marked. */
static int ddv_scan_class(struct ddv *d, const char *cls) {
  char path[512];
  ddv_fmt(path, sizeof(path), "%s/class/%s", d->cfg.sysfs_root, cls);
  int fd = d->k->open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
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

int ddv_scan(struct ddv *d) {
  for (size_t i = 0; i < d->n_devices; i++)
    d->devices[i].seen = false;
  int rc = ddv_scan_class(d, "drm");
  int rc2 = ddv_scan_class(d, "accel");
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
  }
  d->n_devices = kept;
  if (d->n_devices > 1)
    qsort(d->devices, d->n_devices, sizeof(d->devices[0]), ddv_dev_cmp);
  d->rescan = false;
  return rc;
}

void ddv_devices_free(struct ddv *d) {
  for (size_t i = 0; i < d->n_devices; i++)
    ddv_device_fini(d, &d->devices[i]);
  free(d->devices);
  d->devices = NULL;
  d->n_devices = d->cap_devices = 0;
}
