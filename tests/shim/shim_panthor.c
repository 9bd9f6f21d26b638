/*
 * shim_panthor.c: the panthor render node of the shim (shim_panthor.h):
 * the device's files, DRM_IOCTL_VERSION, DEV_QUERY, the BOs and their
 * mappings, the ioctl routing of the three kernels. The perf sessions
 * live in shim_panthor_perf.c (shim_panthor_int.h joins the two).
 */
#include "tests/shim/shim_libc.h"
#include "tests/shim/shim_panthor_int.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/ioctl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sysmacros.h>
#include <unistd.h>

pthread_mutex_t pt_mutex = PTHREAD_MUTEX_INITIALIZER;
struct shim_panthor_config pt_cfg = {.layout = SHIM_PANTHOR_V6,
                                     .model = SHIM_PANTHOR_G720};
struct shim_panthor_stats pt_stats;
uint64_t pt_generation; /* bumped by a reset: older files are dead */

/* DRM_IOCTL_VERSION's struct, as the kernel's uAPI lays it out. */
struct pt_drm_version {
  int version_major, version_minor, version_patchlevel;
  size_t name_len;
  char *name;
  size_t date_len;
  char *date;
  size_t desc_len;
  char *desc;
};
#define PT_IOCTL_VERSION _IOWR('d', 0x00, struct pt_drm_version)
#define PT_IOCTL_BO_SET_LABEL 0xC010644Du /* mainline id 13 */

/* ---- GPU models ---- */

struct pt_model {
  uint32_t gpu_id, l2_features, mem_features, csf_id;
  uint64_t shader_present, gpu_features;
  uint32_t counters_per_block;
};

static const struct pt_model pt_models[] = {
    /* arch.prod 10.2, gs201's sparse 7 cores, 2 slices, 128-bit bus */
    [SHIM_PANTHOR_G710] = {0xa8620000u, 0x07120206u, 0x100u, 0x04c10000u,
                           0x1110055u, 0, 64},
    [SHIM_PANTHOR_G610] = {0xa8670000u, 0x07110206u, 0x000u, 0x04c10000u, 0xfu,
                           0, 64},
    [SHIM_PANTHOR_G715] = {0xb0020000u, 0x07120206u, 0x100u, 0x04c10000u, 0x7fu,
                           0, 128},
    [SHIM_PANTHOR_G720] = {0xc0000000u, 0x07120206u, 0x100u, 0x04c10000u, 0xffu,
                           0, 128},
    [SHIM_PANTHOR_G725] = {0xd0000000u, 0x08130206u, 0x300u, 0x04c10000u,
                           0x0f0fu, 0, 128},
};

static const struct pt_model *pt_model(void) {
  unsigned m = (unsigned)pt_cfg.model;
  return &pt_models[m < sizeof(pt_models) / sizeof(pt_models[0]) ? m : 0];
}

void pt_geometry(struct pt_geometry *g) {
  const struct pt_model *m = pt_model();
  memset(g, 0, sizeof(*g));
  g->counters_per_block = m->counters_per_block;
  g->sample_header_size = 56 + pt_cfg.header_pad;
  g->block_header_size = 24 + pt_cfg.header_pad;
  g->blocks[PT_FW] = 1;
  g->blocks[PT_CSG] = pt_cfg.layout == SHIM_PANTHOR_RFC_V2 ? 1 : 0;
  g->blocks[PT_CSHW] = 1;
  g->blocks[PT_TILER] = 1;
  g->blocks[PT_MEMSYS] = 1 + ((m->mem_features >> 8) & 0xf);
  g->blocks[PT_SHADER] = (uint32_t)__builtin_popcountll(m->shader_present);
  uint32_t n = 0;
  for (int t = 0; t < PT_TYPES; t++)
    n += g->blocks[t];
  g->block_size = g->block_header_size + 8 * g->counters_per_block;
  g->walk_size = g->sample_header_size + n * g->block_size;
  g->sample_size =
      g->walk_size + (pt_cfg.layout == SHIM_PANTHOR_V6 ? pt_cfg.sample_pad : 0);
}

/* ---- files ---- */

static int pt_open(struct shim_file *f, void *dev_ctx, int flags) {
  (void)dev_ctx;
  (void)flags;
  struct pt_file *pf = calloc(1, sizeof(*pf));
  if (pf == NULL) {
    errno = ENOMEM;
    return -1;
  }
  pthread_mutex_lock(&pt_mutex);
  pf->generation = pt_generation;
  pthread_mutex_unlock(&pt_mutex);
  f->data = pf;
  return 0;
}

void pt_bo_put(struct pt_bo *bo) {
  if (bo == NULL || --bo->refs > 0)
    return;
  shim_libc()->munmap(bo->map, bo->size);
  shim_libc()->close(bo->memfd);
  pt_stats.bos--;
  free(bo);
}

static void pt_release(struct shim_file *f) {
  struct pt_file *pf = f->data;
  pthread_mutex_lock(&pt_mutex);
  pt_sessions_of_file_closed(pf); /* postclose: they stay (see there) */
  for (size_t i = 0; i < PT_MAX_BOS; i++)
    pt_bo_put(pf->bos[i]);
  pthread_mutex_unlock(&pt_mutex);
  free(pf);
  f->data = NULL;
}

struct pt_bo *pt_bo_lookup(struct pt_file *pf, uint32_t handle) {
  if (handle == 0 || handle > PT_MAX_BOS)
    return NULL;
  return pf->bos[handle - 1];
}

static int pt_fail(int err) {
  errno = err;
  return -1;
}

/* ---- ioctls ---- */

static int pt_version(void *arg) {
  struct pt_drm_version *v = arg;
  static const char name[] = "panthor", date[] = "20230801",
                    desc[] = "Panthor DRM driver";
  v->version_major = 1;
  v->version_minor = pt_cfg.layout == SHIM_PANTHOR_V6 ? 8 : 2;
  v->version_patchlevel = 0;
  const char *s[3] = {name, date, desc};
  size_t *len[3] = {&v->name_len, &v->date_len, &v->desc_len};
  char *dst[3] = {v->name, v->date, v->desc};
  for (int i = 0; i < 3; i++) {
    size_t n = strlen(s[i]);
    if (dst[i] != NULL && *len[i] > 0)
      memcpy(dst[i], s[i], n < *len[i] ? n : *len[i]);
    *len[i] = n;
  }
  return 0;
}

static size_t pt_gpu_info(uint8_t out[112]) {
  const struct pt_model *m = pt_model();
  struct pp_gpu_info gi;
  memset(&gi, 0, sizeof(gi));
  gi.gpu_id = m->gpu_id;
  gi.csf_id = m->csf_id;
  gi.l2_features = m->l2_features;
  gi.mem_features = m->mem_features;
  gi.mmu_features = 0x2830; /* 48 VA bits */
  gi.shader_present = m->shader_present;
  gi.l2_present = 1;
  gi.tiler_present = 1;
  gi.gpu_features = m->gpu_features;
  memcpy(out, &gi, sizeof(gi));
  return sizeof(gi);
}

static size_t pt_perf_info(uint8_t out[48]) {
  struct pt_geometry g;
  pt_geometry(&g);
  if (pt_cfg.layout == SHIM_PANTHOR_RFC_V2) {
    struct pp_perf_info_rfc_v2 pi = {g.counters_per_block,
                                     g.sample_header_size,
                                     g.block_header_size,
                                     PP_FEAT_BLOCK_STATES,
                                     0,
                                     g.blocks[PT_FW],
                                     g.blocks[PT_CSG],
                                     g.blocks[PT_CSHW],
                                     g.blocks[PT_TILER],
                                     g.blocks[PT_MEMSYS],
                                     g.blocks[PT_SHADER],
                                     0};
    memcpy(out, &pi, sizeof(pi));
    return sizeof(pi);
  }
  struct pp_perf_info_v6 pi = {
      g.counters_per_block, g.sample_header_size, g.block_header_size,
      g.sample_size,        PP_FEAT_BLOCK_STATES, 0,
      g.blocks[PT_FW],      g.blocks[PT_CSHW],    g.blocks[PT_TILER],
      g.blocks[PT_MEMSYS],  g.blocks[PT_SHADER]};
  memcpy(out, &pi, sizeof(pi));
  return sizeof(pi);
}

/* PANTHOR_UOBJ_MIN_SIZE (panthor_drv.c): up to the last field each object
 * had when it entered the uAPI (gpu_info: tiler_present; timestamp_info:
 * current_timestamp; perf_info: shader_blocks). */
static size_t pt_query_min_size(uint32_t type, size_t len) {
  switch (type) {
  case PP_QUERY_GPU_INFO:
    return offsetof(struct pp_gpu_info, tiler_present) + 8;
  case PP_QUERY_TIMESTAMP_INFO:
    return 16;
  case PP_QUERY_PERF_INFO:
    return pt_cfg.layout == SHIM_PANTHOR_RFC_V2
               ? offsetof(struct pp_perf_info_rfc_v2, shader_blocks) + 4
               : sizeof(struct pp_perf_info_v6);
  default:
    return len;
  }
}

static int pt_dev_query(void *arg) {
  struct pp_dev_query *q = arg;
  uint8_t buf[112];
  size_t len;
  memset(buf, 0, sizeof(buf));
  switch (q->type) {
  case PP_QUERY_GPU_INFO:
    len = pt_gpu_info(buf);
    break;
  case PP_QUERY_CSIF_INFO:
    len = 24; /* slots and counts; zeros will do */
    break;
  case PP_QUERY_TIMESTAMP_INFO: {
    uint64_t ts[3] = {1000000000ull, pt_now_ns(), 0};
    memcpy(buf, ts, sizeof(ts));
    len = sizeof(ts);
    break;
  }
  case PP_QUERY_PERF_INFO:
    pt_stats.perf_info_queries++;
    if (pt_cfg.layout == SHIM_PANTHOR_NONE)
      return pt_fail(EINVAL); /* mainline: no such query type */
    len = pt_perf_info(buf);
    break;
  default:
    return pt_fail(EINVAL);
  }
  if (q->pointer == 0) {
    q->size = (uint32_t)len;
    return 0;
  }
  /* panthor_drv.c: panthor_set_uobj (PANTHOR_UOBJ_SET): EINVAL below the
   * object's minimal size, min(user, kernel) bytes copied, the rest of the
   * user's buffer zeroed, and `size` left as the caller gave it */
  if (q->size < pt_query_min_size(q->type, len))
    return pt_fail(EINVAL);
  size_t n = q->size < len ? q->size : len;
  memcpy((void *)(uintptr_t)q->pointer, buf, n);
  memset((uint8_t *)(uintptr_t)q->pointer + n, 0, q->size - n);
  return 0;
}

static int pt_bo_create(struct pt_file *pf, void *arg) {
  struct pp_bo_create *c = arg;
  if (c->size == 0 || (c->flags & ~PP_BO_NO_MMAP) != 0 || c->pad != 0)
    return pt_fail(EINVAL);
  if (c->exclusive_vm_id != 0)
    return pt_fail(EINVAL); /* no VM of that id on this file */
  size_t slot = 0;
  while (slot < PT_MAX_BOS && pf->bos[slot] != NULL)
    slot++;
  if (slot == PT_MAX_BOS || c->size > (1ull << 32))
    return pt_fail(ENOMEM);
  uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
  uint64_t size = (c->size + page - 1) / page * page;
  struct pt_bo *bo = calloc(1, sizeof(*bo));
  if (bo == NULL)
    return pt_fail(ENOMEM);
  bo->memfd = memfd_create("shim-panthor-bo", MFD_CLOEXEC);
  if (bo->memfd < 0 || ftruncate(bo->memfd, (off_t)size) != 0) {
    if (bo->memfd >= 0)
      shim_libc()->close(bo->memfd);
    free(bo);
    return pt_fail(ENOMEM);
  }
  bo->map = shim_libc()->mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED,
                              bo->memfd, 0);
  if (bo->map == MAP_FAILED) {
    shim_libc()->close(bo->memfd);
    free(bo);
    return pt_fail(ENOMEM);
  }
  bo->size = size;
  bo->refs = 1;
  bo->flags = c->flags;
  pf->bos[slot] = bo;
  pt_stats.bos++;
  c->size = size;
  c->handle = (uint32_t)slot + 1;
  return 0;
}

static int pt_bo_mmap_offset(struct pt_file *pf, void *arg) {
  struct pp_bo_mmap_offset *m = arg;
  if (m->pad != 0)
    return pt_fail(EINVAL);
  struct pt_bo *bo = pt_bo_lookup(pf, m->handle);
  if (bo == NULL)
    return pt_fail(ENOENT);
  if (bo->flags & PP_BO_NO_MMAP)
    return pt_fail(EPERM);
  m->offset = (uint64_t)m->handle << PT_OFFSET_SHIFT;
  return 0;
}

static int pt_gem_close(struct pt_file *pf, void *arg) {
  struct pp_gem_close *c = arg;
  if (c->pad != 0)
    return pt_fail(EINVAL);
  struct pt_bo *bo = pt_bo_lookup(pf, c->handle);
  if (bo == NULL)
    return pt_fail(EINVAL);
  pf->bos[c->handle - 1] = NULL;
  pt_bo_put(bo); /* a session keeps its own reference */
  return 0;
}

/* id 13 on a kernel whose id 13 is BO_SET_LABEL: {handle, pad, label}. */
static int pt_bo_set_label(struct pt_file *pf, void *arg) {
  uint32_t handle;
  memcpy(&handle, arg, sizeof(handle));
  return pt_bo_lookup(pf, handle) == NULL ? pt_fail(ENOENT) : 0;
}

static int pt_ioctl_locked(struct pt_file *pf, unsigned long request,
                           void *arg) {
  unsigned nr = _IOC_NR(request);
  if (arg == NULL && _IOC_SIZE(request) != 0)
    return pt_fail(EFAULT);
  if (request == PT_IOCTL_VERSION)
    return pt_version(arg);
  if (pf->generation != pt_generation)
    return pt_fail(pt_cfg.reset_errno ? pt_cfg.reset_errno : ENODEV);
  switch (request) {
  case PP_IOCTL_DEV_QUERY:
    return pt_dev_query(arg);
  case PP_IOCTL_BO_CREATE:
    return pt_bo_create(pf, arg);
  case PP_IOCTL_BO_MMAP_OFFSET:
    return pt_bo_mmap_offset(pf, arg);
  case PP_IOCTL_GEM_CLOSE:
    return pt_gem_close(pf, arg);
  default:
    break;
  }
  if (_IOC_TYPE(request) != 'd') {
    shim_log_unhandled("panthor", request);
    return pt_fail(ENOTTY);
  }
  /* DRM dispatches on the number byte and copies min(sizes) */
  bool perf13 = pt_cfg.layout == SHIM_PANTHOR_RFC_V2;
  bool perf17 = pt_cfg.layout == SHIM_PANTHOR_V6;
  if ((nr == 0x4d && perf13) || (nr == 0x51 && perf17))
    return pt_perf_control(pf, arg, _IOC_SIZE(request));
  if (request == PP_IOCTL_PERF_CONTROL_RFC_V2 ||
      request == PP_IOCTL_PERF_CONTROL_V6)
    pt_stats.stray_ioctls++;
  if (nr == 0x4d) /* BO_SET_LABEL on mainline and v6 */
    return pt_bo_set_label(pf, arg);
  if (nr >= 0x4e && nr <= 0x50 && pt_cfg.layout != SHIM_PANTHOR_RFC_V2)
    return pt_fail(EINVAL); /* mainline's 14-16: arguments we never give */
  return pt_fail(EINVAL);   /* beyond the driver's table */
}

static int pt_ioctl(struct shim_file *f, unsigned long request, void *arg) {
  pthread_mutex_lock(&pt_mutex);
  int rc = pt_ioctl_locked(f->data, request, arg);
  int err = errno;
  pthread_mutex_unlock(&pt_mutex);
  errno = err;
  return rc;
}

static void *pt_mmap(struct shim_file *f, void *addr, size_t len, int prot,
                     int flags, off_t offset) {
  struct pt_file *pf = f->data;
  pthread_mutex_lock(&pt_mutex);
  void *p = MAP_FAILED;
  int err = EINVAL;
  struct pt_bo *bo = NULL;
  if (pf->generation != pt_generation)
    err = pt_cfg.reset_errno ? pt_cfg.reset_errno : ENODEV;
  else if (offset > 0 && (offset & ((1ll << PT_OFFSET_SHIFT) - 1)) == 0)
    bo = pt_bo_lookup(pf, (uint32_t)(offset >> PT_OFFSET_SHIFT));
  if (bo != NULL && len > 0 && len <= bo->size &&
      (flags & MAP_TYPE) == MAP_SHARED) {
    p = shim_libc()->mmap(addr, len, prot, flags, bo->memfd, 0);
    err = errno;
    if (p != MAP_FAILED) {
      pt_stats.maps++;
      bo->maps++;
      if (prot & PROT_WRITE)
        bo->writable_maps++;
    }
  }
  pthread_mutex_unlock(&pt_mutex);
  if (p == MAP_FAILED)
    errno = err;
  return p;
}

static const struct shim_file_ops pt_ops = {
    .name = "panthor",
    .open = pt_open,
    .ioctl = pt_ioctl,
    .mmap = pt_mmap,
    .release = pt_release,
};

/* ---- registration ---- */

void shim_panthor_configure(const struct shim_panthor_config *cfg) {
  pthread_mutex_lock(&pt_mutex);
  pt_sessions_reset();
  pt_cfg = *cfg;
  uint64_t bos = pt_stats.bos;
  memset(&pt_stats, 0, sizeof(pt_stats));
  pt_stats.bos = bos;
  pt_sessions_add_others();
  pthread_mutex_unlock(&pt_mutex);
}

int shim_panthor_register(const char *path, unsigned minor) {
  shim_wait_hook = shim_panthor_irq;
  return shim_device_add(path, makedev(SHIM_PANTHOR_MAJOR, minor), &pt_ops,
                         NULL);
}

void shim_panthor_get_stats(struct shim_panthor_stats *out) {
  pthread_mutex_lock(&pt_mutex);
  uint32_t n = pt_sessions_count(); /* also sums the ring mappings */
  *out = pt_stats;
  out->sessions = n;
  pthread_mutex_unlock(&pt_mutex);
}
