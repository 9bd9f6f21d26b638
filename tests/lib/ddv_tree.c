/*
 * ddv_tree.c: synthetic DRM sysfs trees (ddv_tree.h).
 */
#include "tests/lib/ddv_tree.h"

#include "tests/lib/gm_build.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int dt_mkdirs(const char *path) {
  char tmp[1024];
  snprintf(tmp, sizeof(tmp), "%s", path);
  for (char *p = tmp + 1; *p; p++) {
    if (*p != '/')
      continue;
    *p = '\0';
    if (mkdir(tmp, 0755) != 0 && errno != EEXIST)
      return -errno;
    *p = '/';
  }
  if (mkdir(tmp, 0755) != 0 && errno != EEXIST)
    return -errno;
  return 0;
}

static int dt_write_abs_bin(const char *path, const void *data, size_t len) {
  char dir[1024];
  snprintf(dir, sizeof(dir), "%s", path);
  char *slash = strrchr(dir, '/');
  if (slash != NULL) {
    *slash = '\0';
    int rc = dt_mkdirs(dir);
    if (rc < 0)
      return rc;
  }
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0)
    return -errno;
  ssize_t n = write(fd, data, len);
  int err = errno;
  close(fd);
  return n == (ssize_t)len ? 0 : -(n < 0 ? err : EIO);
}

static int dt_write_abs(const char *path, const char *text) {
  char dir[1024];
  snprintf(dir, sizeof(dir), "%s", path);
  char *slash = strrchr(dir, '/');
  if (slash != NULL) {
    *slash = '\0';
    int rc = dt_mkdirs(dir);
    if (rc < 0)
      return rc;
  }
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0)
    return -errno;
  size_t len = strlen(text);
  ssize_t n = write(fd, text, len);
  int err = errno;
  close(fd);
  return n == (ssize_t)len ? 0 : -(n < 0 ? err : EIO);
}

int ddv_tree_init(struct ddv_tree *t, const char *dir) {
  memset(t, 0, sizeof(*t));
  if (dir != NULL) {
    snprintf(t->root, sizeof(t->root), "%s", dir);
  } else {
    snprintf(t->root, sizeof(t->root), "/tmp/ddv_tree.XXXXXX");
    if (mkdtemp(t->root) == NULL)
      return -errno;
  }
  snprintf(t->sys, sizeof(t->sys), "%s/sys", t->root);
  return dt_mkdirs(t->sys);
}

static int dt_rm(const char *path, const struct stat *st, int flag,
                 struct FTW *ftw) {
  (void)st;
  (void)flag;
  (void)ftw;
  return remove(path);
}

void ddv_tree_fini(struct ddv_tree *t) {
  if (t->root[0] != '\0' && strncmp(t->root, "/tmp/ddv_tree.", 14) == 0)
    nftw(t->root, dt_rm, 16, FTW_DEPTH | FTW_PHYS);
  t->root[0] = '\0';
}

static const char *dt_cls(const char *node) {
  return strncmp(node, "accel", 5) == 0 ? "accel" : "drm";
}

int ddv_tree_device(struct ddv_tree *t, const char *cls, const char *node,
                    const char *dev, const char *driver) {
  bool pci = strchr(dev, ':') != NULL;
  const char *bus = pci ? "pci" : "platform";
  char devdir[600], path[900], target[900];
  snprintf(devdir, sizeof(devdir), "%s/devices/%s/%s", t->sys,
           pci ? "pci0000:00" : "platform", dev);
  snprintf(path, sizeof(path), "%s/%s/%s", devdir, cls, node);
  int rc = dt_mkdirs(path);
  if (rc < 0)
    return rc;
  /* node/device -> the bus device */
  snprintf(path, sizeof(path), "%s/%s/%s/device", devdir, cls, node);
  snprintf(target, sizeof(target), "../../../%s", dev);
  if (symlink(target, path) != 0 && errno != EEXIST)
    return -errno;
  /* the driver */
  snprintf(path, sizeof(path), "%s/bus/%s/drivers/%s", t->sys, bus, driver);
  if ((rc = dt_mkdirs(path)) < 0)
    return rc;
  snprintf(path, sizeof(path), "%s/driver", devdir);
  snprintf(target, sizeof(target), "../../../bus/%s/drivers/%s", bus, driver);
  if (symlink(target, path) != 0 && errno != EEXIST)
    return -errno;
  /* class/<cls>/<node> */
  snprintf(path, sizeof(path), "%s/class/%s", t->sys, cls);
  if ((rc = dt_mkdirs(path)) < 0)
    return rc;
  snprintf(path, sizeof(path), "%s/class/%s/%s", t->sys, cls, node);
  snprintf(target, sizeof(target), "../../devices/%s/%s/%s/%s",
           pci ? "pci0000:00" : "platform", dev, cls, node);
  if (symlink(target, path) != 0 && errno != EEXIST)
    return -errno;
  int rc2 = ddv_tree_runtime(t, node, "active", 1000, 0);
  return rc2 < 0 ? rc2 : ddv_tree_autosuspend(t, node, "on", 1000);
}

int ddv_tree_autosuspend(struct ddv_tree *t, const char *node,
                         const char *control, long long delay_ms) {
  char v[32];
  snprintf(v, sizeof(v), "%s\n", control);
  int rc = ddv_tree_write(t, node, "device/power/control", v);
  snprintf(v, sizeof(v), "%lld\n", delay_ms);
  if (rc == 0)
    rc = ddv_tree_write(t, node, "device/power/autosuspend_delay_ms", v);
  return rc;
}

int ddv_tree_unbind(struct ddv_tree *t, const char *node) {
  char link[600], target[1024], dir[1700];
  snprintf(link, sizeof(link), "%s/class/%s/%s", t->sys, dt_cls(node), node);
  ssize_t n = readlink(link, target, sizeof(target) - 1);
  if (n < 0)
    return -errno;
  target[n] = '\0';
  snprintf(dir, sizeof(dir), "%s/class/%s/%s", t->sys, dt_cls(node), target);
  if (unlink(link) != 0)
    return -errno;
  /* the node's own directory, not the device's files behind its link */
  return nftw(dir, dt_rm, 16, FTW_DEPTH | FTW_PHYS) == 0 ? 0 : -errno;
}

int ddv_tree_write(struct ddv_tree *t, const char *node, const char *rel,
                   const char *text) {
  char path[1024];
  snprintf(path, sizeof(path), "%s/class/%s/%s/%s", t->sys, dt_cls(node), node,
           rel);
  return dt_write_abs(path, text);
}

int ddv_tree_write_bin(struct ddv_tree *t, const char *node, const char *rel,
                       const void *data, size_t len) {
  char path[1024];
  snprintf(path, sizeof(path), "%s/class/%s/%s/%s", t->sys, dt_cls(node), node,
           rel);
  return dt_write_abs_bin(path, data, len);
}

int ddv_tree_gpu_metrics(struct ddv_tree *t, const char *node, unsigned format,
                         unsigned content, int first_layout) {
  static uint8_t b[GM_BUILD_MAX];
  size_t len = gm_build(b, format, content, first_layout);
  if (len == 0)
    return -EINVAL;
  return ddv_tree_write_bin(t, node, "device/gpu_metrics", b, len);
}

int ddv_tree_remove(struct ddv_tree *t, const char *node, const char *rel) {
  char path[1024];
  snprintf(path, sizeof(path), "%s/class/%s/%s/%s", t->sys, dt_cls(node), node,
           rel);
  return unlink(path) == 0 ? 0 : -errno;
}

int ddv_tree_runtime(struct ddv_tree *t, const char *node, const char *status,
                     unsigned long long active_ms,
                     unsigned long long suspended_ms) {
  char v[32];
  int rc = ddv_tree_write(t, node, "device/power/runtime_status", status);
  snprintf(v, sizeof(v), "%llu\n", active_ms);
  if (rc == 0)
    rc = ddv_tree_write(t, node, "device/power/runtime_active_time", v);
  snprintf(v, sizeof(v), "%llu\n", suspended_ms);
  if (rc == 0)
    rc = ddv_tree_write(t, node, "device/power/runtime_suspended_time", v);
  if (rc == 0 && strchr(status, '\n') == NULL) {
    char s[32];
    snprintf(s, sizeof(s), "%s\n", status);
    rc = ddv_tree_write(t, node, "device/power/runtime_status", s);
  }
  return rc;
}

struct dt_file {
  const char *rel, *text;
};

static int dt_files(struct ddv_tree *t, const char *node,
                    const struct dt_file *f, size_t n) {
  for (size_t i = 0; i < n; i++) {
    int rc = ddv_tree_write(t, node, f[i].rel, f[i].text);
    if (rc < 0)
      return rc;
  }
  return 0;
}

#define DT_FILES(t, node, arr)                                                 \
  dt_files(t, node, arr, sizeof(arr) / sizeof(arr[0]))

/* i915 per-GT files (intel_gt_sysfs_pm.c), MHz and ms. */
static int dt_i915_gt(struct ddv_tree *t, const char *node, const char *dir,
                      unsigned act, unsigned rc6_ms) {
  char rel[128], v[32];
  static const struct {
    const char *f;
    unsigned mhz;
  } fr[] = {{"cur_freq_mhz", 1300}, {"min_freq_mhz", 300},
            {"max_freq_mhz", 2250}, {"boost_freq_mhz", 2250},
            {"RP0_freq_mhz", 2250}, {"RP1_freq_mhz", 700},
            {"RPn_freq_mhz", 300}};
  snprintf(rel, sizeof(rel), "gt/%s/rps_act_freq_mhz", dir);
  snprintf(v, sizeof(v), "%u\n", act);
  int rc = ddv_tree_write(t, node, rel, v);
  for (size_t i = 0; rc == 0 && i < sizeof(fr) / sizeof(fr[0]); i++) {
    snprintf(rel, sizeof(rel), "gt/%s/rps_%s", dir, fr[i].f);
    snprintf(v, sizeof(v), "%u\n", fr[i].mhz);
    rc = ddv_tree_write(t, node, rel, v);
  }
  snprintf(rel, sizeof(rel), "gt/%s/rc6_residency_ms", dir);
  snprintf(v, sizeof(v), "%u\n", rc6_ms);
  if (rc == 0)
    rc = ddv_tree_write(t, node, rel, v);
  static const char *const reasons[] = {"status", "pl1",           "pl2",
                                        "pl4",    "thermal",       "prochot",
                                        "ratl",   "vr_thermalert", "vr_tdc"};
  for (size_t i = 0; rc == 0 && i < 9; i++) {
    snprintf(rel, sizeof(rel), "gt/%s/throttle_reason_%s", dir, reasons[i]);
    rc = ddv_tree_write(t, node, rel, i == 0 || i == 1 ? "1\n" : "0\n");
  }
  snprintf(rel, sizeof(rel), "gt/%s/rc6_enable", dir);
  if (rc == 0)
    rc = ddv_tree_write(t, node, rel, "1\n");
  return rc;
}

/* xe per-GT files (xe_gt_freq.c, xe_gt_idle.c, xe_gt_throttle.c). */
static int dt_xe_gt(struct ddv_tree *t, const char *node, unsigned tile,
                    unsigned gt, unsigned act, unsigned idle_ms) {
  char base[64], rel[160], v[32];
  snprintf(base, sizeof(base), "device/tile%u/gt%u", tile, gt);
  static const struct {
    const char *f;
    unsigned mhz;
  } fr[] = {{"cur_freq", 2000}, {"min_freq", 400},  {"max_freq", 2850},
            {"rp0_freq", 2850}, {"rpe_freq", 1900}, {"rpn_freq", 400}};
  snprintf(rel, sizeof(rel), "%s/freq0/act_freq", base);
  snprintf(v, sizeof(v), "%u\n", act);
  int rc = ddv_tree_write(t, node, rel, v);
  for (size_t i = 0; rc == 0 && i < sizeof(fr) / sizeof(fr[0]); i++) {
    snprintf(rel, sizeof(rel), "%s/freq0/%s", base, fr[i].f);
    snprintf(v, sizeof(v), "%u\n", fr[i].mhz);
    rc = ddv_tree_write(t, node, rel, v);
  }
  snprintf(rel, sizeof(rel), "%s/gtidle/idle_residency_ms", base);
  snprintf(v, sizeof(v), "%u\n", idle_ms);
  if (rc == 0)
    rc = ddv_tree_write(t, node, rel, v);
  snprintf(rel, sizeof(rel), "%s/gtidle/name", base);
  if (rc == 0)
    rc = ddv_tree_write(t, node, rel, gt == 0 ? "gt0-rc\n" : "gt1-mc\n");
  snprintf(rel, sizeof(rel), "%s/gtidle/idle_status", base);
  if (rc == 0)
    rc = ddv_tree_write(t, node, rel, "gt-c6\n");
  static const char *const files[] = {
      "status",      "reason_pl1",           "reason_pl2",
      "reason_pl4",  "reason_thermal",       "reason_prochot",
      "reason_ratl", "reason_vr_thermalert", "reason_vr_tdc"};
  for (size_t i = 0; rc == 0 && i < 9; i++) {
    snprintf(rel, sizeof(rel), "%s/freq0/throttle/%s", base, files[i]);
    rc = ddv_tree_write(t, node, rel,
                        i == 0 || i == 4 ? "1\n" : "0\n"); /* thermal */
  }
  return rc;
}

int ddv_tree_fixture(struct ddv_tree *t, const char *name) {
  int rc;
  if (strcmp(name, "i915_igpu") == 0) {
    /* before gt/: card-level gt_*_freq_mhz and power/rc6_residency_ms */
    if ((rc = ddv_tree_device(t, "drm", "card0", "0000:00:02.0", "i915")) < 0)
      return rc;
    static const struct dt_file f[] = {
        {"gt_act_freq_mhz", "350\n"},
        {"gt_cur_freq_mhz", "350\n"},
        {"gt_min_freq_mhz", "100\n"},
        {"gt_max_freq_mhz", "1150\n"},
        {"gt_boost_freq_mhz", "1150\n"},
        {"gt_RP0_freq_mhz", "1150\n"},
        {"gt_RP1_freq_mhz", "350\n"},
        {"gt_RPn_freq_mhz", "100\n"},
        {"power/rc6_residency_ms", "4294967000\n"},
        {"power/rc6_enable", "1\n"}};
    return DT_FILES(t, "card0", f);
  }
  if (strcmp(name, "i915_mtl") == 0) {
    if ((rc = ddv_tree_device(t, "drm", "card0", "0000:00:02.0", "i915")) < 0)
      return rc;
    /* the card-level files stay (max/min over the GTs) */
    static const struct dt_file f[] = {{"gt_act_freq_mhz", "1800\n"},
                                       {"power/rc6_residency_ms", "5000\n"}};
    if ((rc = DT_FILES(t, "card0", f)) < 0)
      return rc;
    if ((rc = dt_i915_gt(t, "card0", "gt0", 1800, 5000)) < 0)
      return rc;
    return dt_i915_gt(t, "card0", "gt1", 1000, 9000);
  }
  if (strcmp(name, "i915_dgpu") == 0) {
    if ((rc = ddv_tree_device(t, "drm", "card1", "0000:03:00.0", "i915")) < 0)
      return rc;
    if ((rc = dt_i915_gt(t, "card1", "gt0", 2000, 100)) < 0)
      return rc;
    /* i915_hwmon.c: energy1_input µJ, power1_max µW (PL1), in0_input mV */
    static const struct dt_file f[] = {
        {"device/hwmon/hwmon3/name", "i915\n"},
        {"device/hwmon/hwmon3/energy1_input", "1000000\n"},
        {"device/hwmon/hwmon3/power1_max", "190000000\n"},
        {"device/hwmon/hwmon3/power1_rated_max", "190000000\n"},
        {"device/hwmon/hwmon3/power1_crit", "400000000\n"},
        {"device/hwmon/hwmon3/in0_input", "1050\n"}};
    return DT_FILES(t, "card1", f);
  }
  if (strcmp(name, "xe_bmg") == 0) {
    if ((rc = ddv_tree_device(t, "drm", "card1", "0000:03:00.0", "xe")) < 0)
      return rc;
    if ((rc = dt_xe_gt(t, "card1", 0, 0, 2400, 1000)) < 0 ||
        (rc = dt_xe_gt(t, "card1", 0, 1, 1200, 2000)) < 0)
      return rc;
    /* xe_hwmon.c: channel 1 "card", 2 "pkg"; temp labels pkg, vram */
    static const struct dt_file f[] = {
        {"device/hwmon/hwmon2/name", "xe\n"},
        {"device/hwmon/hwmon2/energy1_input", "5000000\n"},
        {"device/hwmon/hwmon2/energy1_label", "card\n"},
        {"device/hwmon/hwmon2/energy2_input", "3000000\n"},
        {"device/hwmon/hwmon2/energy2_label", "pkg\n"},
        {"device/hwmon/hwmon2/power1_max", "250000000\n"},
        {"device/hwmon/hwmon2/power1_label", "card\n"},
        {"device/hwmon/hwmon2/power2_max", "150000000\n"},
        {"device/hwmon/hwmon2/power2_label", "pkg\n"},
        {"device/hwmon/hwmon2/temp2_input", "45000\n"},
        {"device/hwmon/hwmon2/temp2_label", "pkg\n"},
        {"device/hwmon/hwmon2/temp3_input", "52500\n"},
        {"device/hwmon/hwmon2/temp3_label", "vram\n"},
        {"device/hwmon/hwmon2/fan1_input", "1200\n"},
        {"device/hwmon/hwmon2/in1_input", "850\n"},
        {"device/hwmon/hwmon2/in1_label", "pkg\n"}};
    return DT_FILES(t, "card1", f);
  }
  if (strcmp(name, "amdgpu_dgpu") == 0) {
    if ((rc = ddv_tree_device(t, "drm", "card1", "0000:0b:00.0", "amdgpu")) < 0)
      return rc;
    static const struct dt_file f[] = {
        {"device/pp_dpm_sclk", "0: 500Mhz \n1: 1850Mhz *\n2: 2500Mhz \n"},
        {"device/pp_dpm_mclk", "0: 96Mhz \n1: 456Mhz \n2: 1000Mhz *\n"},
        {"device/gpu_busy_percent", "37\n"},
        {"device/mem_busy_percent", "12\n"},
        {"device/mem_info_vram_total", "17163091968\n"},
        {"device/mem_info_vram_used", "1073741824\n"},
        {"device/mem_info_vis_vram_total", "17163091968\n"},
        {"device/mem_info_vis_vram_used", "536870912\n"},
        {"device/mem_info_gtt_total", "33554432000\n"},
        {"device/mem_info_gtt_used", "20971520\n"},
        {"device/hwmon/hwmon4/name", "amdgpu\n"},
        {"device/hwmon/hwmon4/temp1_input", "51000\n"},
        {"device/hwmon/hwmon4/temp1_label", "edge\n"},
        {"device/hwmon/hwmon4/temp2_input", "63000\n"},
        {"device/hwmon/hwmon4/temp2_label", "junction\n"},
        {"device/hwmon/hwmon4/temp3_input", "70000\n"},
        {"device/hwmon/hwmon4/temp3_label", "mem\n"},
        {"device/hwmon/hwmon4/power1_average", "123000000\n"},
        {"device/hwmon/hwmon4/power1_cap", "272000000\n"},
        {"device/hwmon/hwmon4/power1_label", "PPT\n"},
        {"device/hwmon/hwmon4/fan1_input", "1450\n"},
        {"device/hwmon/hwmon4/in0_input", "987\n"},
        {"device/hwmon/hwmon4/in0_label", "vddgfx\n"},
        {"device/hwmon/hwmon4/freq1_input", "1850000000\n"},
        {"device/hwmon/hwmon4/freq1_label", "sclk\n"},
        {"device/hwmon/hwmon4/freq2_input", "1000000000\n"},
        {"device/hwmon/hwmon4/freq2_label", "mclk\n"},
        /* pci-sysfs.c; amdgpu_pm.c: amdgpu_get_unique_id;
         * amdgpu_vram_mgr.c: amdgpu_mem_info_vram_vendor */
        {"device/vendor", "0x1002\n"},
        {"device/device", "0x73bf\n"},
        {"device/subsystem_vendor", "0x1002\n"},
        {"device/subsystem_device", "0x0e3a\n"},
        {"device/unique_id", "5c2d4e1f0a3b6978\n"},
        {"device/mem_info_vram_vendor", "samsung\n"}};
    if ((rc = DT_FILES(t, "card1", f)) < 0)
      return rc;
    return ddv_tree_gpu_metrics(t, "card1", 1, 3, 0);
  }
  if (strcmp(name, "amdgpu_apu") == 0) {
    if ((rc = ddv_tree_device(t, "drm", "card0", "0000:c1:00.0", "amdgpu")) < 0)
      return rc;
    static const struct dt_file f[] = {
        {"device/pp_dpm_sclk", "0: 800Mhz *\n1: 2700Mhz \n"},
        {"device/pp_dpm_mclk", "0: 400Mhz \n1: 800Mhz *\n"},
        {"device/gpu_busy_percent", "3\n"},
        {"device/mem_info_vram_total", "536870912\n"},
        {"device/mem_info_vram_used", "268435456\n"},
        {"device/mem_info_gtt_total", "16777216000\n"},
        {"device/mem_info_gtt_used", "104857600\n"},
        {"device/vendor", "0x1002\n"},
        {"device/device", "0x1636\n"},
        {"device/subsystem_vendor", "0x17aa\n"},
        {"device/subsystem_device", "0x3801\n"}};
    if ((rc = DT_FILES(t, "card0", f)) < 0)
      return rc;
    return ddv_tree_gpu_metrics(t, "card0", 2, 2, 0);
  }
  if (strcmp(name, "amdgpu_mi300") == 0) {
    if ((rc = ddv_tree_device(t, "drm", "card2", "0000:05:00.0", "amdgpu")) < 0)
      return rc;
    static const struct dt_file f[] = {
        {"device/mem_info_vram_total", "206141652992\n"},
        {"device/mem_info_vram_used", "2147483648\n"},
        {"device/vendor", "0x1002\n"},
        {"device/device", "0x74a1\n"}};
    if ((rc = DT_FILES(t, "card2", f)) < 0)
      return rc;
    return ddv_tree_gpu_metrics(t, "card2", 1, 8, 0);
  }
  if (strcmp(name, "amdgpu_strix") == 0) {
    if ((rc = ddv_tree_device(t, "drm", "card3", "0000:c5:00.0", "amdgpu")) < 0)
      return rc;
    /* SMC firmware 93.70.0: GfxActivity still in centi-percent
     * (amdgpu_ucode.c: FW_VERSION_ATTR, "0x%08x\n") */
    static const struct dt_file f[] = {
        {"device/fw_version/smc_fw_version", "0x005d4600\n"}};
    if ((rc = DT_FILES(t, "card3", f)) < 0)
      return rc;
    return ddv_tree_gpu_metrics(t, "card3", 3, 0, 0);
  }
  if (strcmp(name, "amdgpu_mi355") == 0) {
    if ((rc = ddv_tree_device(t, "drm", "card4", "0000:75:00.0", "amdgpu")) < 0)
      return rc;
    static const struct dt_file f[] = {
        {"device/mem_info_vram_total", "309237645312\n"},
        {"device/mem_info_vram_used", "4294967296\n"},
        {"device/vendor", "0x1002\n"},
        {"device/device", "0x75a3\n"}};
    if ((rc = DT_FILES(t, "card4", f)) < 0)
      return rc;
    return ddv_tree_gpu_metrics(t, "card4", 1, 9, 0);
  }
  if (strcmp(name, "panfrost") == 0) {
    if ((rc = ddv_tree_device(t, "drm", "card0", "fde60000.gpu", "panfrost")) <
        0)
      return rc;
    static const struct dt_file f[] = {
        {"device/devfreq/fde60000.gpu/cur_freq", "400000000\n"},
        {"device/devfreq/fde60000.gpu/min_freq", "200000000\n"},
        {"device/devfreq/fde60000.gpu/max_freq", "800000000\n"},
        {"device/devfreq/fde60000.gpu/governor", "simple_ondemand\n"}};
    return DT_FILES(t, "card0", f);
  }
  if (strcmp(name, "ivpu") == 0) {
    if ((rc = ddv_tree_device(t, "accel", "accel0", "0000:00:0b.0",
                              "intel_vpu")) < 0)
      return rc;
    /* ivpu_sysfs.c: npu_busy_time_us_show, npu_memory_utilization_show */
    static const struct dt_file f[] = {
        {"device/npu_busy_time_us", "1500000\n"},
        {"device/npu_memory_utilization", "268435456\n"},
        {"device/vendor", "0x8086\n"},
        {"device/device", "0x7d1d\n"},
        {"device/subsystem_vendor", "0x8086\n"},
        {"device/subsystem_device", "0x0000\n"}};
    return DT_FILES(t, "accel0", f);
  }
  return -EINVAL;
}
