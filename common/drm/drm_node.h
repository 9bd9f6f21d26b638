/*
 * drm_node.h: find DRM device nodes of one driver and name them.
 *
 * Shared by the plugins that open a GPU through its uAPI (i915_oa,
 * panthor_perf). Every open and ioctl goes through the kernel seam, so the
 * test emulation (tests/shim) can stand in for the device. The driver name
 * comes from DRM_IOCTL_VERSION, issued with libdrm's uAPI header through
 * the seam (libdrm's drmGetVersion would bypass it).
 *
 * Discovery lists `<dev_root>` (normally /dev/dri) for renderD<N> nodes.
 * Before a node is opened, its sysfs driver link (when sysfs is readable)
 * must name the wanted driver: opening another vendor's discrete GPU can
 * wake it from runtime suspend. Without sysfs (containers) every render
 * node is opened and asked.
 */
#ifndef COMMON_DRM_DRM_NODE_H
#define COMMON_DRM_DRM_NODE_H

#include "common/core/kernel.h"

#include <stddef.h>

#define DRM_NODE_PATH_MAX 256
#define DRM_NODE_NAME_MAX 32 /* driver names are short ("i915") */
#define DRM_NODE_PCI_MAX 32  /* "0000:00:02.0" */
#define DRM_NODE_MAX 64      /* render minors 128..191 */

struct drm_node {
  char path[DRM_NODE_PATH_MAX];   /* e.g. /dev/dri/renderD128 */
  char name[16];                  /* "renderD128" */
  unsigned minor;                 /* 128 for renderD128 */
  char driver[DRM_NODE_NAME_MAX]; /* from DRM_IOCTL_VERSION, sanitised */
  /* PCI address from sysfs ("0000:00:02.0"); "" when not a PCI device or
   * sysfs is unreadable. */
  char pci[DRM_NODE_PCI_MAX];
};

/* DRM_IOCTL_VERSION on `fd`: the driver name, sanitised and cut to fit
 * `cap` bytes (NUL included). 0, or a negative errno of the ioctl. */
int drm_node_driver(const struct kernel_ops *k, int fd, char *driver,
                    size_t cap);

/* The PCI address of DRM node `name` (renderD128, card0) from
 * `<sysfs_root>/class/drm/<name>/device`: 0 with `out` set when that link
 * leads to a PCI device, -ENOENT when it does not exist or is not PCI. */
int drm_node_pci_address(const char *sysfs_root, const char *name, char *out,
                         size_t cap);

/* The sysfs driver of node `name` (basename of the device's driver link):
 * 0 with `out` set, or a negative errno (-ENOENT without sysfs, -EXDEV
 * for a link that leads out of `sysfs_root`: sysfs_link.h). */
int drm_node_sysfs_driver(const char *sysfs_root, const char *name, char *out,
                          size_t cap);

/* Render nodes of `driver` under `dev_root`, in minor order: fills up to
 * `max` entries of `nodes` (path, name, minor, driver, pci) and returns how
 * many, or a negative errno when `dev_root` cannot be listed. Nodes that
 * cannot be opened or asked are skipped; each such failure is passed to
 * `on_error` (may be NULL) with the node path, the call that failed
 * ("open" or "DRM_IOCTL_VERSION") and the errno. */
int drm_node_find(const struct kernel_ops *k, const char *dev_root,
                  const char *sysfs_root, const char *driver,
                  struct drm_node *nodes, size_t max,
                  void (*on_error)(void *ctx, const char *path,
                                   const char *what, int err),
                  void *ctx);

/* Fill `node` for an explicitly named path (Device "/dev/dri/renderD128"):
 * open it through the seam, ask its driver, and take the PCI address from
 * sysfs when the basename is a DRM node name. 0 or a negative errno (of
 * open or the ioctl). */
int drm_node_describe(const struct kernel_ops *k, const char *path,
                      const char *sysfs_root, struct drm_node *node);

#endif
