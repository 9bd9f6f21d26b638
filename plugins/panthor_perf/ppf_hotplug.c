/*
 * ppf_hotplug.c: panthor nodes that come and go under <DevRoot>/dri (no
 * Device option). A GPU bound late (a module loaded, a device handed back
 * from VFIO, a driver reloaded after a reset) gets a new render node, and
 * an unbound one loses it (drm_dev_unregister removes the minor, and
 * devtmpfs the node). So every read lists the directory, names and inode
 * numbers only (a node recreated under the same name has a new inode): no
 * node is opened to see whether the set changed. A node that is new is
 * probed (its sysfs driver link first, when sysfs describes this /dev, so
 * another vendor's GPU is never opened and woken: drm_node.h) and, if it is
 * panthor, started; one that went has its device dropped, its series end.
 * A node that could not be opened or started is probed again on the
 * discovery session's backoff (1 s doubling to 1 min), quietly.
 */
#include "plugins/panthor_perf/panthor_perf.h"

#include "common/drm/drm_node.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The render nodes listed in <DevRoot>/dri now: up to PPF_MAX_SEEN. */
struct ppf_listing {
  struct ppf_seen nodes[PPF_MAX_SEEN];
  size_t n;
  int err; /* the listing failed (ENOENT: no dri), 0 if it worked */
};

static void ppf_list(const struct pp *p, struct ppf_listing *out) {
  const struct kernel_ops *k = p->host->kernel;
  char dri[PATH_MAX];
  snprintf(dri, sizeof(dri), "%s/dri", ppf_dev_root(p));
  out->n = 0;
  out->err = 0;
  int fd = k->open(dri, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
  DIR *dir = fd >= 0 ? k->fdopendir(fd) : NULL;
  if (dir == NULL) {
    out->err = errno;
    if (fd >= 0)
      k->close(fd);
    return;
  }
  struct dirent *de;
  while (out->n < PPF_MAX_SEEN && (de = k->readdir(dir)) != NULL) {
    unsigned minor;
    char tail;
    if (sscanf(de->d_name, "renderD%u%c", &minor, &tail) != 1 ||
        strlen(de->d_name) >= sizeof(out->nodes[0].name))
      continue;
    struct ppf_seen *e = &out->nodes[out->n++];
    snprintf(e->name, sizeof(e->name), "%s", de->d_name);
    e->ino = de->d_ino;
    e->kind = PPF_SEEN_FAILED;
  }
  k->closedir(dir);
}

static const struct ppf_seen *ppf_listed(const struct ppf_listing *l,
                                         const struct ppf_seen *e) {
  for (size_t i = 0; i < l->n; i++)
    if (strcmp(l->nodes[i].name, e->name) == 0 && l->nodes[i].ino == e->ino)
      return &l->nodes[i];
  return NULL;
}

static bool ppf_known(const struct pp *p, const struct ppf_seen *e) {
  for (size_t i = 0; i < p->n_seen; i++)
    if (strcmp(p->seen[i].name, e->name) == 0 && p->seen[i].ino == e->ino)
      return true;
  return false;
}

/* Probe node `e` and start it when it is panthor: its kind. *first gets
 * the first error of a panthor node that could not be started. */
static enum ppf_seen_kind ppf_probe(struct pp *p, const struct ppf_seen *e,
                                    const char *what, bool quiet, int *first) {
  const char *root = ppf_dev_root(p);
  /* sysfs describes the real /dev only */
  const char *sysfs = strcmp(root, "/dev") == 0 ? "/sys" : NULL;
  char driver[DRM_NODE_NAME_MAX];
  if (sysfs != NULL &&
      drm_node_sysfs_driver(sysfs, e->name, driver, sizeof(driver)) == 0 &&
      strcmp(driver, "panthor") != 0)
    return PPF_SEEN_OTHER; /* another driver's node: do not wake it */
  char path[PATH_MAX];
  snprintf(path, sizeof(path), "%s/dri/%s", root, e->name);
  const struct kernel_ops *k = p->host->kernel;
  int fd = k->open(path, O_RDWR | O_CLOEXEC | O_NONBLOCK, 0);
  int rc = fd < 0 ? -errno : drm_node_driver(k, fd, driver, sizeof(driver));
  if (fd >= 0)
    k->close(fd);
  if (rc < 0) {
    if (!quiet) /* the call that failed is named: open or the ioctl */
      log_errno(LOG_LEVEL_WARNING, PPF_PLUGIN, path,
                fd < 0 ? "open" : "DRM_IOCTL_VERSION", -rc,
                fd < 0 && (rc == -EACCES || rc == -EPERM)
                    ? "the render node needs read-write access (group render)"
                    : NULL);
    return PPF_SEEN_FAILED;
  }
  if (strcmp(driver, "panthor") != 0)
    return PPF_SEEN_OTHER;
  char *owned = strdup(path);
  rc = owned ? ppf_device_add(p, owned, e->ino, what, quiet) : -ENOMEM;
  if (rc < 0 && *first == 0)
    *first = rc;
  /* a Counter this GPU lacks is said once and the node left alone */
  return rc == 0         ? PPF_SEEN_OURS
         : rc == -EINVAL ? PPF_SEEN_OTHER
                         : PPF_SEEN_FAILED;
}

/* Nothing found at init: said once; WARNING when a configured DevRoot
 * holds no render node at all (a wrong path, most likely), INFO otherwise
 * (no GPU of this driver here, not an error). */
static void ppf_say_none(const struct pp *p, const struct ppf_listing *l) {
  char dri[PATH_MAX];
  snprintf(dri, sizeof(dri), "%s/dri", ppf_dev_root(p));
  if (p->cfg.dev_root != NULL && l->n == 0)
    log_msg(LOG_LEVEL_WARNING, PPF_PLUGIN, dri, "DevRoot",
            "%s%sno render node (renderD*) here; looking again at every "
            "read",
            l->err ? strerror(l->err) : "", l->err ? ": " : "");
  else
    log_msg(LOG_LEVEL_INFO, PPF_PLUGIN, dri, "devices",
            "no panthor render node (renderD*) found; looking again at "
            "every read (give Device to name one)");
}

int ppf_hotplug_scan(struct pp *p, uint64_t now_ns, bool init) {
  struct ppf_listing *l = malloc(sizeof(*l));
  if (l == NULL)
    return init ? -ENOMEM : 0;
  if (init) {
    char dri[PATH_MAX];
    snprintf(dri, sizeof(dri), "%s/dri", ppf_dev_root(p));
    devsession_init(&p->discovery, PPF_PLUGIN, dri);
    devsession_set_backoff(&p->discovery, DEVSESSION_BACKOFF_MIN_NS,
                           DEVSESSION_RELOOK_MAX_NS);
  }
  ppf_list(p, l);
  const char *what = init ? "init" : "appeared";
  /* gone: a node no longer listed (or recreated: another inode) */
  for (size_t i = 0; i < p->n_seen;) {
    if (ppf_listed(l, &p->seen[i]) != NULL) {
      i++;
      continue;
    }
    if (p->seen[i].kind == PPF_SEEN_OURS)
      for (size_t k = 0; k < p->n_devs; k++)
        if (p->devs[k].ino == p->seen[i].ino &&
            strcmp(strrchr(p->devs[k].path, '/') + 1, p->seen[i].name) == 0) {
          ppf_device_gone(p, k);
          break;
        }
    p->seen[i] = p->seen[--p->n_seen];
  }
  /* came: a node not seen before, probed once */
  int first = 0;
  for (size_t i = 0; i < l->n && p->n_seen < PPF_MAX_SEEN; i++) {
    if (ppf_known(p, &l->nodes[i]))
      continue;
    struct ppf_seen *e = &p->seen[p->n_seen++];
    *e = l->nodes[i];
    e->kind = ppf_probe(p, e, what, /*quiet=*/false, &first);
  }
  /* failed before: probed again when the backoff allows, quietly */
  bool failed = false;
  for (size_t i = 0; i < p->n_seen; i++)
    failed |= p->seen[i].kind == PPF_SEEN_FAILED;
  if (failed && !init && devsession_due(&p->discovery, now_ns)) {
    int again = 0;
    failed = false;
    for (size_t i = 0; i < p->n_seen; i++)
      if (p->seen[i].kind == PPF_SEEN_FAILED) {
        p->seen[i].kind =
            ppf_probe(p, &p->seen[i], what, /*quiet=*/true, &again);
        failed |= p->seen[i].kind == PPF_SEEN_FAILED;
      }
  }
  if (failed && devsession_due(&p->discovery, now_ns))
    devsession_fail(&p->discovery, now_ns, ENODEV);
  else if (!failed)
    devsession_close(&p->discovery); /* the next failure waits 1 s */
  int rc = 0;
  if (init) {
    if (first == -EINVAL) {
      log_msg(LOG_LEVEL_ERROR, PPF_PLUGIN, "init", NULL,
              "a Counter names what the GPU lacks: configuration error, "
              "nothing is collected");
      rc = -EINVAL;
    } else if (p->n_devs == 0 && first < 0) {
      rc = first; /* panthor nodes, none of which could be started */
    } else if (p->n_devs == 0) {
      ppf_say_none(p, l);
    }
  }
  free(l);
  return rc;
}
