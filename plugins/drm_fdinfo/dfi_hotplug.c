/*
 * dfi_hotplug.c: DRM and accel devices that come and go. A GPU bound
 * later (an eGPU plugged in, a device handed back from VFIO, a driver
 * reloaded after a reset) registers its minors (drm_dev_register ->
 * drm_minor_register adds card<N>, renderD<N> to class drm; accel<N> to
 * class accel), and an unbound one removes them (drm_dev_unregister). So
 * every read lists <SysfsRoot>/class/drm and class/accel, names and inode
 * numbers only: a minor registered again has a new kernfs node, so a new
 * inode, even under the same name. A minor whose entry went is gone: its
 * clients are dropped and its device's series end at this read (the
 * kernel answers every later ioctl ENODEV: drm_ioctl's
 * drm_dev_is_unplugged). A new entry's `dev` file gives its st_rdev; the
 * device is resolved afresh from sysfs (a minor number reused by another
 * GPU gets that GPU's name) and its clients are new clients, counted from
 * their first read. Also the roots' check at init.
 */
#include "plugins/drm_fdinfo/dfi.h"
#include "plugins/drm_fdinfo/dfi_scan.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <xf86drm.h> /* DRM minor name prefixes */

#define DFI_MAX_MINORS 256 /* class entries looked at per read */

struct dfi_minor {
  char class[8]; /* drm, accel */
  char name[32]; /* card0, renderD128, accel0 */
  ino_t ino;
};

static bool dfi_minor_name(const char *name) {
  if (strchr(name, '-') != NULL)
    return false; /* connectors such as card0-HDMI-A-1 */
  return strncmp(name, DRM_PRIMARY_MINOR_NAME,
                 strlen(DRM_PRIMARY_MINOR_NAME)) == 0 ||
         strncmp(name, DRM_RENDER_MINOR_NAME, strlen(DRM_RENDER_MINOR_NAME)) ==
             0 ||
         strncmp(name, "accel", 5) == 0;
}

/* The minors listed now; -1 when neither class directory can be listed. */
static int dfi_minors_list(const struct dfi *d, struct dfi_minor *out,
                           size_t max) {
  static const char *const classes[] = {"drm", "accel"};
  const struct kernel_ops *ops = d->host->kernel;
  int n = 0;
  bool listed = false;
  for (size_t k = 0; k < 2; k++) {
    char path[512];
    snprintf(path, sizeof(path), "%s/class/%s", d->cfg.sysfs_root, classes[k]);
    int fd = ops->open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
    DIR *dir = fd >= 0 ? ops->fdopendir(fd) : NULL;
    if (dir == NULL) {
      if (fd >= 0)
        ops->close(fd);
      continue;
    }
    listed = true;
    struct dirent *de;
    while ((size_t)n < max && (de = ops->readdir(dir)) != NULL) {
      if (!dfi_minor_name(de->d_name) ||
          strlen(de->d_name) >= sizeof(out[0].name))
        continue;
      snprintf(out[n].class, sizeof(out[n].class), "%s", classes[k]);
      snprintf(out[n].name, sizeof(out[n].name), "%s", de->d_name);
      out[n++].ino = de->d_ino;
    }
    ops->closedir(dir);
  }
  return listed ? n : -1;
}

/* The device of listed minor `m` (its class entry's `dev`), NULL if its
 * `dev` does not read as "M:m"; *was_live: it was known and live (learned
 * from a client's fd before sysfs listed it). */
static struct dfi_device *
dfi_minor_device(struct dfi *d, const struct dfi_minor *m, bool *was_live) {
  *was_live = false;
  char path[512], line[32];
  unsigned maj, min;
  snprintf(path, sizeof(path), "%s/class/%s/%s/dev", d->cfg.sysfs_root,
           m->class, m->name);
  if (fileio_read_line_at(AT_FDCWD, path, line, sizeof(line)) <= 0 ||
      sscanf(line, "%u:%u", &maj, &min) != 2)
    return NULL;
  dev_t rdev = makedev(maj, min);
  path[strlen(path) - strlen("/dev")] = '\0'; /* the class entry */
  for (size_t i = 0; i < d->n_devices; i++)
    if (d->devices[i].rdev == rdev) {
      struct dfi_device *dev = &d->devices[i];
      *was_live = !dev->gone;
      if (dev->gone) /* maybe another */
        dfi_device_resolve(d, dev, path, d->quiet_resolve);
      else if (strcmp(dev->minor, m->name) != 0) {
        /* learned from a client's fd first, where dev/char is masked: its
         * minor name is "M:m", the class entry's is the kernel's; keep
         * the name a client's drm-pdev gave it */
        char learned[sizeof(dev->name)], driver[sizeof(dev->driver)];
        bool keep = strcmp(dev->name, dev->minor) != 0;
        memcpy(learned, dev->name, sizeof(learned));
        memcpy(driver, dev->driver, sizeof(driver));
        dfi_device_resolve(d, dev, path, /*quiet=*/true);
        if (keep && strcmp(dev->name, dev->minor) == 0) {
          memcpy(dev->name, learned, sizeof(dev->name));
          if (dev->driver[0] == '\0')
            memcpy(dev->driver, driver, sizeof(dev->driver));
        }
      }
      return dev;
    }
  return dfi_device_get_listed(d, rdev, path);
}

/* Whether a live device other than `self` has the name `name`. */
static bool dfi_name_live(const struct dfi *d, const char *name,
                          const struct dfi_device *self) {
  for (size_t i = 0; i < d->n_devices; i++)
    if (&d->devices[i] != self && !d->devices[i].gone &&
        strcmp(d->devices[i].name, name) == 0)
      return true;
  return false;
}

void dfi_hotplug_refresh(struct dfi *d, bool init) {
  struct dfi_minor *now = malloc(DFI_MAX_MINORS * sizeof(*now));
  if (now == NULL)
    return;
  int n = dfi_minors_list(d, now, DFI_MAX_MINORS);
  if (n < 0) {
    free(now);
    return;
  }
  /* gone: a listed minor no longer there (or registered again) */
  for (size_t i = 0; i < d->n_devices; i++) {
    struct dfi_device *dev = &d->devices[i];
    if (dev->gone || dev->ino == 0)
      continue;
    bool there = false;
    for (int k = 0; k < n && !there; k++)
      there = now[k].ino == dev->ino && strcmp(now[k].name, dev->minor) == 0;
    if (there)
      continue;
    dev->gone = true;
    dev->ino = 0;
    if (!dev->excluded && !dfi_name_live(d, dev->name, dev))
      log_msg(LOG_LEVEL_INFO, DFI_PLUGIN, dev->name, "gone",
              "%s unregistered; the device's series end", dev->minor);
  }
  /* came: an entry no live device has */
  d->quiet_resolve = !init;
  for (int k = 0; k < n; k++) {
    bool known = false;
    for (size_t i = 0; i < d->n_devices && !known; i++)
      known = !d->devices[i].gone && d->devices[i].ino == now[k].ino &&
              strcmp(d->devices[i].minor, now[k].name) == 0;
    if (known)
      continue;
    bool was_live;
    struct dfi_device *dev = dfi_minor_device(d, &now[k], &was_live);
    if (dev == NULL)
      continue;
    dev->ino = now[k].ino;
    dev->gone = false;
    if (!init && !was_live && !dev->excluded &&
        !dfi_name_live(d, dev->name, dev))
      log_msg(LOG_LEVEL_INFO, DFI_PLUGIN, dev->name, "appeared",
              "%s (%s, driver %s)", dev->minor,
              major(dev->rdev) == DFI_ACCEL_MAJOR ? "accel" : "drm",
              dev->driver[0] ? dev->driver : "unknown");
  }
  d->quiet_resolve = false;
  free(now);
}

/* Whether directory `path` has an entry for which `want` holds; *err gets
 * the errno of its open (0 when it opened). */
static bool dfi_dir_has(const struct dfi *d, const char *path,
                        bool (*want)(const char *name), int *err) {
  const struct kernel_ops *ops = d->host->kernel;
  *err = 0;
  int fd = ops->open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
  DIR *dir = fd >= 0 ? ops->fdopendir(fd) : NULL;
  if (dir == NULL) {
    *err = errno;
    if (fd >= 0)
      ops->close(fd);
    return false;
  }
  bool found = false;
  struct dirent *de;
  while (!found && (de = ops->readdir(dir)) != NULL)
    found = want(de->d_name);
  ops->closedir(dir);
  return found;
}

static bool dfi_is_pid(const char *name) { return dfi_parse_pid(name) > 0; }
static bool dfi_is_entry(const char *name) { return name[0] != '.'; }

void dfi_roots_check(struct dfi *d) {
  int err;
  if (!dfi_dir_has(d, d->cfg.proc_root, dfi_is_pid, &err))
    log_msg(LOG_LEVEL_WARNING, DFI_PLUGIN, d->cfg.proc_root, "ProcRoot",
            "%s%sno process directory (<pid>/fd): not a procfs; no client "
            "can be found",
            err ? strerror(err) : "", err ? ": " : "");
  static const char *const sys_dirs[] = {"dev/char", "class/drm",
                                         "class/accel"};
  bool any = false;
  for (size_t i = 0; i < 3 && !any; i++) {
    char path[512];
    snprintf(path, sizeof(path), "%s/%s", d->cfg.sysfs_root, sys_dirs[i]);
    any = dfi_dir_has(d, path, dfi_is_entry, &err) || err == 0;
  }
  if (!any)
    log_msg(LOG_LEVEL_WARNING, DFI_PLUGIN, d->cfg.sysfs_root, "SysfsRoot",
            "no dev/char, class/drm or class/accel: not a sysfs; devices are "
            "named by their clients' drm-pdev or minor numbers only");
  /* DevRoot: dfi_open_watch says it (a configured one without dri or
   * accel is a warning there) */
}
