/*
 * shim_i915.c: the i915 DRM device of the shim (shim_i915.h): the device
 * ioctls with the validation of drivers/gpu/drm/i915/i915_perf.c
 * (i915_perf_open_ioctl, i915_perf_add_config_ioctl,
 * i915_perf_remove_config_ioctl; i915_getparam.c: i915_getparam_ioctl;
 * i915_query.c for the topology), the sysfs metrics directory of the card
 * in a test tree (create_dynamic_oa_sysfs_entry), and registration.
 */
#include "tests/shim/shim_i915.h"
#include "common/i915/i915_uapi.h"
#include "tests/shim/shim_i915_int.h"

#include <drm.h>
#include <errno.h>
#include <fcntl.h>
#include <i915_drm.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

static pthread_mutex_t shim_i915_mutex = PTHREAD_MUTEX_INITIALIZER;
static struct shim_i915_dev shim_i915_devs[SHIM_I915_MAX_DEVICES];
static bool shim_i915_used[SHIM_I915_MAX_DEVICES];

/* Report sizes of the drm_i915_oa_format values (i915_perf.c:
 * oa_formats; the OAM ones from oa_init_supported_formats' MTL formats). */
static const size_t shim_i915_format_size[I915_UAPI_OA_FORMAT_LAST + 1] = {
    [I915_OA_FORMAT_A13] = 64,
    [I915_OA_FORMAT_A29] = 128,
    [I915_OA_FORMAT_A13_B8_C8] = 128,
    [I915_OA_FORMAT_B4_C8] = 64,
    [I915_OA_FORMAT_A45_B8_C8] = 256,
    [I915_OA_FORMAT_B4_C8_A16] = 128,
    [I915_OA_FORMAT_C4_B8] = 64,
    [I915_OA_FORMAT_A12] = 64,
    [I915_OA_FORMAT_A12_B8_C8] = 128,
    [I915_OA_FORMAT_A32u40_A4u32_B8_C8] = 256,
    [I915_UAPI_OAR_FORMAT_A32u40_A4u32_B8_C8] = 256,
    [I915_UAPI_OA_FORMAT_A24u40_A14u32_B8_C8] = 256,
    [I915_UAPI_OAM_FORMAT_MPEC8u64_B8_C8] = 192,
    [I915_UAPI_OAM_FORMAT_MPEC8u32_B8_C8] = 128,
};

/* The OAM formats (MTL's media unit; i915_perf.c: oa_init_supported_formats).
 */
static bool shim_i915_oam_format(uint64_t format) {
  return format == I915_UAPI_OAM_FORMAT_MPEC8u64_B8_C8 ||
         format == I915_UAPI_OAM_FORMAT_MPEC8u32_B8_C8;
}

void shim_i915_scenario_default(struct shim_i915_scenario *s) {
  memset(s, 0, sizeof *s);
  s->devid = 0x9A49;
  s->perf_revision = 7;
  s->oa_freq_hz = 19200000;
  s->cs_freq_hz = 19200000;
  s->eu_total = 96;
  s->topology_eus = 96;
  s->perf_ready = true;
  s->paranoid = true;
  s->privileged = true;
  s->max_sample_rate = 100000;
  s->formats = 1u << I915_OA_FORMAT_C4_B8 | 1u << I915_OA_FORMAT_A12 |
               1u << I915_OA_FORMAT_A12_B8_C8 |
               1u << I915_OA_FORMAT_A32u40_A4u32_B8_C8; /* Gen8..12 */
  s->reports = 4;
  s->ts_step = 19200;
  s->clk_step = 1000000;
  for (size_t i = 0; i < SHIM_I915_A; i++)
    s->a_step[i] = 1000 * (i + 1);
  s->a_step[0] = s->clk_step / 2;
  for (size_t i = 0; i < SHIM_I915_BC; i++)
    s->b_step[i] = s->c_step[i] = 10 * (i + 1);
  strcpy(s->card, "card0");
}

/* ---- sysfs ---- */

static void mkdir_p(const char *path) {
  char buf[PATH_MAX];
  snprintf(buf, sizeof buf, "%s", path);
  for (char *p = buf + 1; *p; p++)
    if (*p == '/') {
      *p = '\0';
      mkdir(buf, 0755);
      *p = '/';
    }
  mkdir(buf, 0755);
}

/* The directory of config `uuid` into `out`: 0, or -1 when too long. */
static int metric_dir(const struct shim_i915_dev *dev, const char *uuid,
                      char *out, size_t cap) {
  int n = snprintf(out, cap, "%s/class/drm/%s/metrics/%s", dev->s.sysfs_root,
                   dev->s.card, uuid);
  return n < 0 || (size_t)n >= cap ? -1 : 0;
}

static void sysfs_publish(const struct shim_i915_dev *dev,
                          const struct shim_i915_config *c) {
  if (dev->s.sysfs_root[0] == '\0')
    return;
  char dir[PATH_MAX], file[PATH_MAX + 8];
  if (metric_dir(dev, c->uuid, dir, sizeof dir) < 0)
    return;
  mkdir_p(dir);
  if (snprintf(file, sizeof file, "%s/id", dir) < 0)
    return;
  FILE *fp = fopen(file, "w");
  if (fp != NULL) {
    fprintf(fp, "%llu\n", (unsigned long long)c->id);
    fclose(fp);
  }
}

static void sysfs_unpublish(const struct shim_i915_dev *dev,
                            const struct shim_i915_config *c) {
  if (dev->s.sysfs_root[0] == '\0')
    return;
  char dir[PATH_MAX], file[PATH_MAX + 8];
  if (metric_dir(dev, c->uuid, dir, sizeof dir) < 0 ||
      snprintf(file, sizeof file, "%s/id", dir) < 0)
    return;
  unlink(file);
  rmdir(dir);
}

/* ---- device ioctls (dev->lock held) ---- */

static int fail(int err) {
  errno = err;
  return -1;
}

static int ioc_version(struct shim_i915_dev *dev, void *arg) {
  (void)dev;
  struct drm_version *v = arg;
  static const char name[] = "i915";
  size_t len = sizeof name - 1;
  if (v->name != NULL && v->name_len > 0)
    memcpy(v->name, name, len < v->name_len ? len : v->name_len);
  v->name_len = len;
  v->version_major = 1;
  v->version_minor = 6;
  return 0;
}

static int ioc_getparam(struct shim_i915_dev *dev, void *arg) {
  struct drm_i915_getparam *gp = arg;
  const struct shim_i915_scenario *s = &dev->s;
  int v;
  switch (gp->param) {
  case I915_PARAM_CHIPSET_ID:
    v = (int)s->devid;
    break;
  case I915_PARAM_REVISION:
    v = 1;
    break;
  case I915_PARAM_EU_TOTAL:
    v = (int)s->eu_total;
    break;
  case I915_PARAM_CS_TIMESTAMP_FREQUENCY:
    if (s->cs_freq_hz == 0)
      return fail(EINVAL); /* kernels before 4.16 (i915_getparam.c) */
    v = (int)s->cs_freq_hz;
    break;
  case I915_PARAM_PERF_REVISION:
    if (s->perf_revision == 0)
      return fail(EINVAL);
    v = s->perf_revision;
    break;
  case I915_UAPI_PARAM_OA_TIMESTAMP_FREQUENCY:
    if (s->oa_freq_hz == 0)
      return fail(EINVAL);
    v = (int)s->oa_freq_hz;
    break;
  default:
    return fail(EINVAL);
  }
  if (gp->value == NULL)
    return fail(EFAULT);
  *gp->value = v;
  return 0;
}

/* One slice, subslices of 8 EUs, `eus` EUs enabled in order. */
static size_t topology_blob(uint32_t eus, uint8_t *out, size_t cap) {
  uint16_t max_ss = (uint16_t)((eus + 7) / 8), ss_stride = (max_ss + 7) / 8;
  uint16_t hdr[8] = {0, 1, max_ss, 8, 1, ss_stride, (uint16_t)(1 + ss_stride),
                     1};
  size_t len = 16 + 1 + ss_stride + max_ss;
  if (out == NULL || cap < len)
    return len;
  memset(out, 0, len);
  memcpy(out, hdr, sizeof hdr);
  uint8_t *data = out + 16;
  data[0] = 1;
  for (uint16_t ss = 0; ss < max_ss; ss++) {
    data[1 + ss / 8] |= (uint8_t)(1u << (ss % 8));
    uint32_t left = eus - 8u * ss;
    data[1 + ss_stride + ss] = left >= 8 ? 0xFF : (uint8_t)((1u << left) - 1);
  }
  return len;
}

static int ioc_query(struct shim_i915_dev *dev, void *arg) {
  struct drm_i915_query *q = arg;
  if (q->flags != 0)
    return fail(EINVAL);
  struct drm_i915_query_item *items = (void *)(uintptr_t)q->items_ptr;
  if (q->num_items > 0 && items == NULL)
    return fail(EFAULT);
  for (uint32_t i = 0; i < q->num_items; i++) {
    struct drm_i915_query_item *it = &items[i];
    if (it->query_id != DRM_I915_QUERY_TOPOLOGY_INFO ||
        dev->s.topology_eus == 0) {
      it->length = -EINVAL; /* per-item errors go into the length */
      continue;
    }
    size_t need = topology_blob(dev->s.topology_eus, NULL, 0);
    if (it->length == 0) {
      it->length = (int32_t)need;
    } else if (it->length < (int32_t)need) {
      it->length = -EINVAL;
    } else if (it->data_ptr == 0) {
      it->length = -EFAULT;
    } else {
      topology_blob(dev->s.topology_eus, (void *)(uintptr_t)it->data_ptr, need);
      it->length = (int32_t)need;
    }
  }
  return 0;
}

static bool config_known(const struct shim_i915_dev *dev, uint64_t id) {
  for (size_t i = 0; i < dev->n_configs; i++)
    if (dev->configs[i].id == id)
      return true;
  return false;
}

/* The highest property id perf revision `rev` knows (i915_perf.c:
 * i915_perf_ioctl_version's history). */
static uint64_t max_prop(int rev) {
  return rev >= 6   ? I915_UAPI_PROP_OA_ENGINE_INSTANCE
         : rev >= 5 ? DRM_I915_PERF_PROP_POLL_OA_PERIOD
         : rev >= 4 ? DRM_I915_PERF_PROP_GLOBAL_SSEU
         : rev >= 3 ? DRM_I915_PERF_PROP_HOLD_PREEMPTION
                    : DRM_I915_PERF_PROP_OA_EXPONENT;
}

/* MTL (graphics 12.70): its media GT has an OAM unit. */
static bool shim_i915_mtl(uint32_t devid) { return (devid & 0xFF00) == 0x7D00; }

/* Whether the device has engine class:instance, as
 * intel_engine_lookup_user finds it: render0, copy0, video0..1,
 * video-enhance0 everywhere here, compute0 from DG2 on. */
static bool engine_exists(const struct shim_i915_scenario *s, uint64_t cls,
                          uint64_t inst) {
  bool xehp = (s->devid & 0xFF00) == 0x5600 || shim_i915_mtl(s->devid);
  switch (cls) {
  case I915_ENGINE_CLASS_RENDER:
  case I915_ENGINE_CLASS_COPY:
  case I915_ENGINE_CLASS_VIDEO_ENHANCE:
    return inst == 0;
  case I915_ENGINE_CLASS_VIDEO:
    return inst <= 1;
  case I915_ENGINE_CLASS_COMPUTE:
    return xehp && inst == 0;
  default:
    return false;
  }
}

/* The OA unit type of an engine (i915_perf.c: __oa_engine_group,
 * oa_init_groups): 1 OAG for render, 2 OAM for MTL's video and
 * video-enhance, 0 none (engine_supports_oa false). */
static int engine_oa_type(const struct shim_i915_scenario *s, uint64_t cls) {
  if (cls == I915_ENGINE_CLASS_RENDER)
    return 1;
  if ((cls == I915_ENGINE_CLASS_VIDEO ||
       cls == I915_ENGINE_CLASS_VIDEO_ENHANCE) &&
      shim_i915_mtl(s->devid))
    return 2;
  return 0;
}

/* i915_perf.c: i915_perf_open_ioctl -> read_properties_unlocked (each
 * property in isolation, then the engine and the format's unit type) ->
 * i915_perf_open_ioctl_locked (privilege) -> i915_oa_stream_init
 * (exclusive unit, format, config). Knowingly different: contexts, SSEU
 * and hold-preemption are refused (not emulated); the metric set is
 * checked before the privilege, which only changes the errno a caller
 * with two mistakes sees. */
static int ioc_perf_open(struct shim_i915_dev *dev, void *arg) {
  const struct drm_i915_perf_open_param *p = arg;
  const struct shim_i915_scenario *s = &dev->s;
  int err = 0;
  uint64_t set = 0, format = 0, cls = 0, inst = 0;
  int exponent = -1;
  bool sample = false, have_class = false, have_inst = false;
  int rev = s->perf_revision ? s->perf_revision : 1;
  const uint64_t *props = (const void *)(uintptr_t)p->properties_ptr;
  if (!s->perf_ready)
    err = I915_UAPI_ENOTSUPP;
  else if (p->flags &
           ~(uint64_t)(I915_PERF_FLAG_FD_CLOEXEC | I915_PERF_FLAG_FD_NONBLOCK |
                       I915_PERF_FLAG_DISABLED))
    err = EINVAL;
  else if (p->num_properties == 0 || p->num_properties >= I915_UAPI_PROP_MAX)
    err = EINVAL;
  else if (props == NULL)
    err = EFAULT;
  for (uint32_t i = 0; err == 0 && i < p->num_properties; i++) {
    uint64_t id = props[2 * i], v = props[2 * i + 1];
    if (id == 0 || id > max_prop(rev))
      err = EINVAL;
    else if (id == DRM_I915_PERF_PROP_CTX_HANDLE)
      err = ENOENT; /* no GEM contexts in the emulation */
    else if (id == DRM_I915_PERF_PROP_SAMPLE_OA)
      sample |= v != 0;
    else if (id == DRM_I915_PERF_PROP_OA_METRICS_SET)
      err = (set = v) == 0 ? EINVAL : 0;
    else if (id == DRM_I915_PERF_PROP_OA_FORMAT)
      err = (format = v) == 0 || v > I915_UAPI_OA_FORMAT_LAST ||
                    !(s->formats >> v & 1)
                ? EINVAL
                : 0;
    else if (id == DRM_I915_PERF_PROP_OA_EXPONENT && v > 31)
      err = EINVAL;
    else if (id == DRM_I915_PERF_PROP_OA_EXPONENT && !s->privileged) {
      /* period = ceil(2^(e+1) * 1e9 / f); rate 0 above a second */
      unsigned __int128 num = (unsigned __int128)1000000000u << (v + 1);
      uint64_t period = (uint64_t)((num + s->oa_freq_hz - 1) / s->oa_freq_hz);
      uint64_t rate = period > 1000000000u ? 0 : 1000000000u / period;
      if (rate > s->max_sample_rate)
        err = EACCES;
      exponent = (int)v;
    } else if (id == DRM_I915_PERF_PROP_OA_EXPONENT)
      exponent = (int)v;
    else if (id == DRM_I915_PERF_PROP_HOLD_PREEMPTION ||
             id == DRM_I915_PERF_PROP_GLOBAL_SSEU)
      err = EINVAL; /* needs a context / SSEU: not emulated */
    else if (id == DRM_I915_PERF_PROP_POLL_OA_PERIOD &&
             v < I915_UAPI_POLL_PERIOD_MIN_NS)
      err = EINVAL;
    else if (id == I915_UAPI_PROP_OA_ENGINE_CLASS)
      have_class = true, cls = (uint8_t)v;
    else if (id == I915_UAPI_PROP_OA_ENGINE_INSTANCE)
      have_inst = true, inst = (uint8_t)v;
  }
  if (err == 0 && have_class != have_inst)
    err = EINVAL;
  /* the engine, then the unit's format family */
  int type = engine_exists(s, cls, inst) ? engine_oa_type(s, cls) : 0;
  if (err == 0 && type == 0)
    err = EINVAL;
  if (err == 0 && format != 0 && shim_i915_oam_format(format) != (type == 2))
    err = EINVAL;
  if (err == 0 &&
      (!sample || format == 0 || set == 0 || !config_known(dev, set)))
    err = EINVAL;
  if (err == 0 && s->paranoid && !s->privileged)
    err = EACCES; /* a system-wide stream */
  if (err == 0 && (s->busy || dev->unit_busy))
    err = EBUSY;
  if (err == 0 && s->open_errno != 0) {
    err = s->open_errno;
    if (s->open_fails > 0 && --dev->s.open_fails == 0)
      dev->s.open_errno = 0;
  }
  int fd = -1;
  if (err == 0) {
    fd = shim_i915_stream_new(dev, (uint32_t)format,
                              shim_i915_format_size[format], p->flags);
    if (fd < 0)
      err = errno;
  }
  if (err != 0) {
    dev->stats.perf_open_fails++;
    return fail(err);
  }
  dev->stats.perf_opens++;
  dev->stats.last_format = (uint32_t)format;
  dev->stats.last_exponent = exponent;
  dev->stats.last_engine_class = (int)cls;
  dev->stats.last_engine_instance = (int)inst;
  return fd;
}

static bool uuid_ok(const char *u) {
  for (size_t i = 0; i < I915_UAPI_UUID_LEN; i++) {
    bool dash = i == 8 || i == 13 || i == 18 || i == 23;
    if (dash ? u[i] != '-'
             : !((u[i] >= '0' && u[i] <= '9') || (u[i] >= 'a' && u[i] <= 'f') ||
                 (u[i] >= 'A' && u[i] <= 'F')))
      return false;
  }
  return true;
}

/* Gen12 whitelists, boolean and mux (i915_perf.c: gen12_oa_b_counters,
 * gen12_oa_mux_regs). */
static bool reg_ok(bool boolean, uint32_t a) {
  if (boolean)
    return a == 0x2B2C || (a >= 0xD900 && a <= 0xD97C) ||
           (a >= 0xDC00 && a <= 0xDC44);
  return (a >= 0x0D00 && a <= 0x0D2C && a != 0x0D08) || a == 0x9840 ||
         a == 0x9884 || a == 0x9888 || a == 0x20CC;
}

static const uint32_t flex_addrs[7] = {0xE458, 0xE558, 0xE658, 0xE758,
                                       0xE45C, 0xE55C, 0xE65C};

static bool regs_ok(const uint32_t *regs, uint32_t n, int kind) {
  for (uint32_t i = 0; i < n; i++) {
    uint32_t a = regs[2 * i];
    bool ok = false;
    if (kind == 2)
      for (size_t k = 0; k < 7; k++)
        ok |= flex_addrs[k] == a;
    else
      ok = reg_ok(kind == 1, a);
    if (!ok)
      return false;
  }
  return true;
}

static int ioc_add_config(struct shim_i915_dev *dev, void *arg) {
  const struct drm_i915_perf_oa_config *c = arg;
  const struct shim_i915_scenario *s = &dev->s;
  const uint32_t *mux = (const void *)(uintptr_t)c->mux_regs_ptr;
  const uint32_t *bools = (const void *)(uintptr_t)c->boolean_regs_ptr;
  const uint32_t *flex = (const void *)(uintptr_t)c->flex_regs_ptr;
  uint32_t n_mux = mux ? c->n_mux_regs : 0,
           n_bool = bools ? c->n_boolean_regs : 0;
  uint32_t n_flex = flex ? c->n_flex_regs : 0;
  if (!s->perf_ready)
    return fail(I915_UAPI_ENOTSUPP);
  if (s->paranoid && !s->privileged)
    return fail(EACCES);
  if (n_mux + n_bool + n_flex == 0 || !uuid_ok(c->uuid))
    return fail(EINVAL);
  bool hsw = (s->devid & 0xFF00) == 0x0400 || (s->devid & 0xFF00) == 0x0A00 ||
             (s->devid & 0xFF00) == 0x0D00;
  if ((n_flex > 0 && hsw) || !regs_ok(mux, n_mux, 0) ||
      !regs_ok(bools, n_bool, 1) || !regs_ok(flex, n_flex, 2))
    return fail(EINVAL);
  for (size_t i = 0; i < dev->n_configs; i++)
    if (memcmp(dev->configs[i].uuid, c->uuid, I915_UAPI_UUID_LEN) == 0)
      return fail(EADDRINUSE);
  if (dev->n_configs == SHIM_I915_MAX_CONFIGS)
    return fail(ENOMEM);
  struct shim_i915_config *nc = &dev->configs[dev->n_configs++];
  memcpy(nc->uuid, c->uuid, I915_UAPI_UUID_LEN);
  nc->uuid[I915_UAPI_UUID_LEN] = '\0';
  nc->id = dev->next_id++;
  sysfs_publish(dev, nc);
  dev->stats.configs_added++;
  return (int)nc->id;
}

static int ioc_remove_config(struct shim_i915_dev *dev, void *arg) {
  uint64_t id;
  memcpy(&id, arg, sizeof id);
  if (!dev->s.perf_ready)
    return fail(I915_UAPI_ENOTSUPP);
  if (dev->s.paranoid && !dev->s.privileged)
    return fail(EACCES);
  for (size_t i = 0; i < dev->n_configs; i++)
    if (dev->configs[i].id == id) {
      sysfs_unpublish(dev, &dev->configs[i]);
      dev->configs[i] = dev->configs[--dev->n_configs];
      dev->stats.configs_removed++;
      return 0;
    }
  return fail(ENOENT);
}

#define DEV_IOCTL(name)                                                        \
  static int name##_f(struct shim_file *f, void *arg) {                        \
    struct shim_i915_dev *dev = f->data;                                       \
    pthread_mutex_lock(&dev->lock);                                            \
    int rc = name(dev, arg);                                                   \
    int err = errno;                                                           \
    pthread_mutex_unlock(&dev->lock);                                          \
    errno = err;                                                               \
    return rc;                                                                 \
  }
DEV_IOCTL(ioc_version)
DEV_IOCTL(ioc_getparam)
DEV_IOCTL(ioc_query)
DEV_IOCTL(ioc_perf_open)
DEV_IOCTL(ioc_add_config)
DEV_IOCTL(ioc_remove_config)

static const struct shim_ioctl shim_i915_ioctls[] = {
    {DRM_IOCTL_VERSION, ioc_version_f},
    {DRM_IOCTL_I915_GETPARAM, ioc_getparam_f},
    {DRM_IOCTL_I915_QUERY, ioc_query_f},
    {DRM_IOCTL_I915_PERF_OPEN, ioc_perf_open_f},
    {DRM_IOCTL_I915_PERF_ADD_CONFIG, ioc_add_config_f},
    {DRM_IOCTL_I915_PERF_REMOVE_CONFIG, ioc_remove_config_f},
};

static int dev_open(struct shim_file *f, void *ctx, int flags) {
  (void)flags;
  f->data = ctx;
  return 0;
}

static int dev_ioctl(struct shim_file *f, unsigned long request, void *arg) {
  return shim_ioctl_dispatch(shim_i915_ioctls,
                             sizeof shim_i915_ioctls / sizeof *shim_i915_ioctls,
                             f, request, arg);
}

static void dev_release(struct shim_file *f) { f->data = NULL; }

static const struct shim_file_ops shim_i915_dev_ops = {
    .name = "i915",
    .open = dev_open,
    .ioctl = dev_ioctl,
    .release = dev_release,
};

/* ---- registration ---- */

static struct shim_i915_dev *dev_find(const char *path) {
  for (size_t i = 0; i < SHIM_I915_MAX_DEVICES; i++)
    if (shim_i915_used[i] && strcmp(shim_i915_devs[i].path, path) == 0)
      return &shim_i915_devs[i];
  return NULL;
}

int shim_i915_add(const char *path, const struct shim_i915_scenario *s) {
  if (strlen(path) >= PATH_MAX)
    return fail(ENAMETOOLONG);
  pthread_mutex_lock(&shim_i915_mutex);
  size_t slot = SIZE_MAX;
  for (size_t i = 0; i < SHIM_I915_MAX_DEVICES && slot == SIZE_MAX; i++)
    if (!shim_i915_used[i])
      slot = i;
  int err = dev_find(path) ? EEXIST : slot == SIZE_MAX ? ENOMEM : 0;
  if (err == 0) {
    struct shim_i915_dev *dev = &shim_i915_devs[slot];
    /* a stream of an earlier test may still point here: keep the lock */
    static bool inited[SHIM_I915_MAX_DEVICES];
    if (!inited[slot]) {
      pthread_mutex_init(&dev->lock, NULL);
      inited[slot] = true;
    }
    pthread_mutex_lock(&dev->lock);
    strcpy(dev->path, path);
    dev->s = *s;
    memset(&dev->stats, 0, sizeof dev->stats);
    dev->n_configs = 0;
    dev->next_id = 2; /* 1 is the kernel's test config */
    dev->unit_busy = false;
    pthread_mutex_unlock(&dev->lock);
    /* minor 128 + slot: render nodes */
    if (shim_device_add(path, makedev(226, 128 + (unsigned)slot),
                        &shim_i915_dev_ops, dev) < 0)
      err = errno;
    else
      shim_i915_used[slot] = true;
    if (err == 0 && s->sysfs_root[0] != '\0') {
      char dir[PATH_MAX + 64];
      snprintf(dir, sizeof dir, "%s/class/drm/%s/metrics", s->sysfs_root,
               s->card);
      mkdir_p(dir);
    }
  }
  pthread_mutex_unlock(&shim_i915_mutex);
  return err ? fail(err) : 0;
}

int shim_i915_add_metric(const char *path, const char *uuid, uint64_t id) {
  pthread_mutex_lock(&shim_i915_mutex);
  struct shim_i915_dev *dev = dev_find(path);
  int err = dev == NULL                          ? ENOENT
            : strlen(uuid) != I915_UAPI_UUID_LEN ? EINVAL
                                                 : 0;
  if (err == 0) {
    pthread_mutex_lock(&dev->lock);
    if (dev->n_configs == SHIM_I915_MAX_CONFIGS) {
      err = ENOMEM;
    } else {
      struct shim_i915_config *c = &dev->configs[dev->n_configs++];
      memcpy(c->uuid, uuid, sizeof c->uuid);
      c->id = id;
      if (id >= dev->next_id)
        dev->next_id = id + 1;
      sysfs_publish(dev, c);
    }
    pthread_mutex_unlock(&dev->lock);
  }
  pthread_mutex_unlock(&shim_i915_mutex);
  return err ? fail(err) : 0;
}

int shim_i915_update(const char *path,
                     void (*fn)(struct shim_i915_scenario *s, void *ctx),
                     void *ctx) {
  pthread_mutex_lock(&shim_i915_mutex);
  struct shim_i915_dev *dev = dev_find(path);
  if (dev != NULL) {
    pthread_mutex_lock(&dev->lock);
    fn(&dev->s, ctx);
    pthread_mutex_unlock(&dev->lock);
  }
  pthread_mutex_unlock(&shim_i915_mutex);
  return dev ? 0 : fail(ENOENT);
}

int shim_i915_stats(const char *path, struct shim_i915_stats *out) {
  pthread_mutex_lock(&shim_i915_mutex);
  struct shim_i915_dev *dev = dev_find(path);
  if (dev != NULL) {
    pthread_mutex_lock(&dev->lock);
    *out = dev->stats;
    pthread_mutex_unlock(&dev->lock);
  }
  pthread_mutex_unlock(&shim_i915_mutex);
  return dev ? 0 : fail(ENOENT);
}

void shim_i915_reset(void) {
  pthread_mutex_lock(&shim_i915_mutex);
  for (size_t i = 0; i < SHIM_I915_MAX_DEVICES; i++)
    if (shim_i915_used[i]) {
      shim_device_remove(shim_i915_devs[i].path);
      shim_i915_used[i] = false;
    }
  pthread_mutex_unlock(&shim_i915_mutex);
}
