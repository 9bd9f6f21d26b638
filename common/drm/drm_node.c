/* drm_node.c: DRM render node discovery through the kernel seam. */
#include "common/drm/drm_node.h"

#include "common/core/text.h"
#include "common/sysfs/sysfs_link.h"

#include <dirent.h>
#include <drm.h> /* libdrm's copy of the uAPI: struct drm_version */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int drm_node_driver(const struct kernel_ops *k, int fd, char *driver,
                    size_t cap) {
  /* One call is enough: the kernel copies at most name_len bytes and
   * writes back the full length; date and desc are not asked for. */
  char raw[DRM_NODE_NAME_MAX * 2];
  struct drm_version v;
  memset(&v, 0, sizeof v);
  v.name = raw;
  v.name_len = sizeof raw;
  if (kernel_ioctl_retry(k, fd, DRM_IOCTL_VERSION, &v) < 0)
    return -errno;
  size_t len = v.name_len < sizeof raw ? v.name_len : sizeof raw;
  text_sanitize(driver, cap, raw, len);
  return 0;
}

/* Basename of the symlink `<sysfs_root>/class/drm/<name>/<link>`, the
 * walk held under sysfs_root (sysfs_link.h: a crafted tree's links lead
 * nowhere else). */
static int link_basename(const char *sysfs_root, const char *name,
                         const char *link, char *out, size_t out_cap) {
  char rel[PATH_MAX];
  int n = snprintf(rel, sizeof rel, "class/drm/%s/%s", name, link);
  if (n < 0 || (size_t)n >= sizeof rel)
    return -ENAMETOOLONG;
  return sysfs_link_basename(sysfs_root, rel, out, out_cap);
}

int drm_node_sysfs_driver(const char *sysfs_root, const char *name, char *out,
                          size_t cap) {
  return link_basename(sysfs_root, name, "device/driver", out, cap);
}

/* "DDDD:BB:DD.F" in lower-case hex, as the PCI core names devices. */
static int is_pci_address(const char *s) {
  static const char shape[] = "xxxx:xx:xx.x";
  if (strlen(s) != sizeof shape - 1)
    return 0;
  for (size_t i = 0; shape[i] != '\0'; i++) {
    if (shape[i] == 'x' ? strchr("0123456789abcdef", s[i]) == NULL || s[i] == 0
                        : s[i] != shape[i])
      return 0;
  }
  return 1;
}

int drm_node_pci_address(const char *sysfs_root, const char *name, char *out,
                         size_t cap) {
  char base[DRM_NODE_PCI_MAX], bus[16];
  int rc = link_basename(sysfs_root, name, "device", base, sizeof base);
  if (rc < 0)
    return -ENOENT;
  /* the device's bus is its subsystem link; platform GPUs (Mali) are not
   * PCI even when their name looks like an address */
  rc = link_basename(sysfs_root, name, "device/subsystem", bus, sizeof bus);
  if (rc < 0 || strcmp(bus, "pci") != 0 || !is_pci_address(base))
    return -ENOENT;
  snprintf(out, cap, "%s", base);
  return 0;
}

/* drm_node_describe, and which call failed: "open" or "DRM_IOCTL_VERSION". */
static int drm_node_describe_what(const struct kernel_ops *k, const char *path,
                                  const char *sysfs_root, struct drm_node *node,
                                  const char **what);

int drm_node_describe(const struct kernel_ops *k, const char *path,
                      const char *sysfs_root, struct drm_node *node) {
  const char *what;
  return drm_node_describe_what(k, path, sysfs_root, node, &what);
}

static int drm_node_describe_what(const struct kernel_ops *k, const char *path,
                                  const char *sysfs_root, struct drm_node *node,
                                  const char **what) {
  memset(node, 0, sizeof *node);
  if (strlen(path) >= sizeof node->path)
    return -ENAMETOOLONG;
  strcpy(node->path, path);
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  text_sanitize(node->name, sizeof node->name, base, strlen(base));
  unsigned minor = 0;
  if (sscanf(node->name, "renderD%u", &minor) == 1 ||
      sscanf(node->name, "card%u", &minor) == 1)
    node->minor = minor;

  *what = "open";
  int fd = k->open(path, O_RDWR | O_CLOEXEC | O_NONBLOCK, 0);
  if (fd < 0)
    return -errno;
  *what = "DRM_IOCTL_VERSION";
  int rc = drm_node_driver(k, fd, node->driver, sizeof node->driver);
  k->close(fd);
  if (rc < 0)
    return rc;
  if (sysfs_root != NULL)
    drm_node_pci_address(sysfs_root, node->name, node->pci, sizeof node->pci);
  return 0;
}

static int by_minor(const void *a, const void *b) {
  unsigned ma = ((const struct drm_node *)a)->minor;
  unsigned mb = ((const struct drm_node *)b)->minor;
  return (ma > mb) - (ma < mb);
}

int drm_node_find(const struct kernel_ops *k, const char *dev_root,
                  const char *sysfs_root, const char *driver,
                  struct drm_node *nodes, size_t max,
                  void (*on_error)(void *ctx, const char *path,
                                   const char *what, int err),
                  void *ctx) {
  DIR *dir = opendir(dev_root);
  if (dir == NULL)
    return -errno;
  size_t n = 0;
  struct dirent *de;
  while (n < max && (de = readdir(dir)) != NULL) {
    unsigned minor;
    char tail;
    if (sscanf(de->d_name, "renderD%u%c", &minor, &tail) != 1)
      continue;
    char sysfs_driver[DRM_NODE_NAME_MAX];
    if (sysfs_root != NULL &&
        drm_node_sysfs_driver(sysfs_root, de->d_name, sysfs_driver,
                              sizeof sysfs_driver) == 0 &&
        strcmp(sysfs_driver, driver) != 0)
      continue; /* another driver's node: do not wake it */

    char path[PATH_MAX];
    int len = snprintf(path, sizeof path, "%s/%s", dev_root, de->d_name);
    if (len < 0 || (size_t)len >= sizeof path)
      continue;
    struct drm_node *node = &nodes[n];
    const char *what;
    int rc = drm_node_describe_what(k, path, sysfs_root, node, &what);
    if (rc < 0) {
      if (on_error != NULL)
        on_error(ctx, path, what, -rc);
      continue;
    }
    if (strcmp(node->driver, driver) == 0)
      n++;
  }
  closedir(dir);
  qsort(nodes, n, sizeof *nodes, by_minor);
  return (int)n;
}
