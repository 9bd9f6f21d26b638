/*
 * ppf_hotplug.c: the render node watch (ppf_hotplug.h).
 */
#include "plugins/panthor_perf/ppf_hotplug.h"

#include "common/drm/drm_node.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>

void ppf_hotplug_init(struct ppf_hotplug *h, const char *dev_root) {
  memset(h, 0, sizeof(*h));
  snprintf(h->dri, sizeof(h->dri), "%s/dri", dev_root);
  /* sysfs describes the real /dev only */
  h->sysfs = strcmp(dev_root, "/dev") == 0;
}

void ppf_hotplug_list(struct ppf_hotplug *h, const struct kernel_ops *k) {
  struct ppf_hotplug_node listed[PPF_HOTPLUG_MAX];
  size_t n = 0;
  h->n_went = 0;
  h->err = 0;
  int fd = k->open(h->dri, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
  DIR *dir = fd >= 0 ? k->fdopendir(fd) : NULL;
  if (dir == NULL) {
    h->err = errno;
    if (fd >= 0)
      k->close(fd);
  } else {
    struct dirent *de;
    while (n < PPF_HOTPLUG_MAX && (de = k->readdir(dir)) != NULL) {
      unsigned minor;
      char tail;
      if (sscanf(de->d_name, "renderD%u%c", &minor, &tail) != 1 ||
          strlen(de->d_name) >= sizeof(listed[0].name))
        continue;
      snprintf(listed[n].name, sizeof(listed[n].name), "%s", de->d_name);
      listed[n].ino = de->d_ino;
      listed[n++].kind = PPF_HOTPLUG_NEW;
    }
    k->closedir(dir);
  }
  h->n_listed = n;
  /* gone: a known node no longer listed (or recreated: another inode) */
  for (size_t i = 0; i < h->n_nodes;) {
    bool there = false;
    for (size_t j = 0; j < n && !there; j++)
      there = listed[j].ino == h->nodes[i].ino &&
              strcmp(listed[j].name, h->nodes[i].name) == 0;
    if (there) {
      i++;
      continue;
    }
    h->went[h->n_went++] = h->nodes[i];
    h->nodes[i] = h->nodes[--h->n_nodes];
  }
  /* came: listed, not known */
  for (size_t j = 0; j < n && h->n_nodes < PPF_HOTPLUG_MAX; j++) {
    bool known = false;
    for (size_t i = 0; i < h->n_nodes && !known; i++)
      known = listed[j].ino == h->nodes[i].ino &&
              strcmp(listed[j].name, h->nodes[i].name) == 0;
    if (!known)
      h->nodes[h->n_nodes++] = listed[j];
  }
}

int ppf_hotplug_identify(const struct ppf_hotplug *h,
                         const struct kernel_ops *k, const char *name,
                         char *path, size_t size, const char **what) {
  snprintf(path, size, "%s/%s", h->dri, name);
  *what = NULL;
  char driver[DRM_NODE_NAME_MAX];
  if (h->sysfs &&
      drm_node_sysfs_driver("/sys", name, driver, sizeof(driver)) == 0 &&
      strcmp(driver, "panthor") != 0)
    return 0; /* another driver's node: do not open (wake) it */
  int fd = k->open(path, O_RDWR | O_CLOEXEC | O_NONBLOCK, 0);
  int rc = fd < 0 ? -errno : drm_node_driver(k, fd, driver, sizeof(driver));
  if (fd >= 0)
    k->close(fd);
  if (rc < 0) {
    *what = fd < 0 ? "open" : "DRM_IOCTL_VERSION";
    return rc;
  }
  return strcmp(driver, "panthor") == 0 ? 1 : 0;
}
