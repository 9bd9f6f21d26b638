/*
 * ppf_hotplug.h: a watch on <DevRoot>/dri for render nodes that come and
 * go. A GPU bound late (a module loaded, a device handed back from VFIO, a
 * driver reloaded after a reset) gets a new render node, and an unbound
 * one loses it (drm_dev_unregister removes the minor, and devtmpfs the
 * node). So each ppf_hotplug_list lists the directory, names and inode
 * numbers only (a node recreated under the same name has a new inode): no
 * node is opened to see whether the set changed. ppf_hotplug_identify
 * asks one node which driver it is: its sysfs driver link first, when
 * sysfs describes this /dev, so that another vendor's GPU is never opened
 * and woken (drm_node.h), else DRM_IOCTL_VERSION on the node.
 *
 * A layer under the plugin: it knows render nodes and drivers only,
 * nothing of sessions or devices; panthor_perf.c decides what a node that
 * came or went means, and records what each node turned out to be (its
 * `kind`) for the next listings.
 */
#ifndef PLUGINS_PANTHOR_PERF_PPF_HOTPLUG_H
#define PLUGINS_PANTHOR_PERF_PPF_HOTPLUG_H

#include "common/core/kernel.h"

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define PPF_HOTPLUG_MAX 64 /* render minors 128..191 */

/* What a node turned out to be (set by the plugin: ppf_hotplug_node). */
enum ppf_hotplug_kind {
  PPF_HOTPLUG_NEW,    /* listed, not looked at yet */
  PPF_HOTPLUG_OURS,   /* a panthor node the plugin reads */
  PPF_HOTPLUG_OTHER,  /* another driver's, or one the plugin leaves alone */
  PPF_HOTPLUG_FAILED, /* could not be opened or started: ask again later */
};

struct ppf_hotplug_node {
  char name[32]; /* renderD128 */
  ino_t ino;
  enum ppf_hotplug_kind kind;
};

struct ppf_hotplug {
  char dri[PATH_MAX]; /* <DevRoot>/dri */
  bool sysfs;         /* DevRoot is /dev: /sys describes its nodes */
  struct ppf_hotplug_node nodes[PPF_HOTPLUG_MAX]; /* known, in any order */
  size_t n_nodes;
  /* the last listing: nodes gone since the one before (their kind as it
   * was), and how many it found (err: errno of its open, 0 if listed) */
  struct ppf_hotplug_node went[PPF_HOTPLUG_MAX];
  size_t n_went;
  size_t n_listed;
  int err;
};

/* Watch `<dev_root>/dri`; nothing known yet. */
void ppf_hotplug_init(struct ppf_hotplug *h, const char *dev_root);

/* List the directory through `k`: h->went gets the known nodes no longer
 * listed (or listed under another inode), which are forgotten; nodes
 * listed for the first time are added with kind PPF_HOTPLUG_NEW. */
void ppf_hotplug_list(struct ppf_hotplug *h, const struct kernel_ops *k);

/* Which driver node `name` is: 1 panthor (`path` gets its path), 0
 * another driver, or a negative errno of the open or the ioctl (`*what`
 * names which: "open" or "DRM_IOCTL_VERSION"; `path` set). */
int ppf_hotplug_identify(const struct ppf_hotplug *h,
                         const struct kernel_ops *k, const char *name,
                         char *path, size_t size, const char **what);

#endif
