/*
 * dfi_devices.c: what drm_fdinfo knows about DRM (major 226) and accel
 * (major 261) char devices, resolved once per st_rdev under SysfsRoot:
 *
 *   <sysfs>/dev/char/<M>:<m>            -> .../drm/renderD128 (minor name)
 *   <sysfs>/dev/char/<M>:<m>/device     -> .../0000:03:00.0 or fde60000.gpu
 *   <sysfs>/dev/char/<M>:<m>/device/driver -> .../drivers/xe
 *   <sysfs>/dev/char/<M>:<m>/device/power/runtime_status
 *
 * A sysfs that masks dev/char and the device links (some container
 * runtimes show class/drm/<minor>/dev only) still has the class entry the
 * minor was listed by (dfi_hotplug.c): its name is the minor's, and when
 * the entry is the kernel's link into devices/ (class_dir_create_and_add:
 * class/drm/<minor> -> ../../devices/<bus path>/<device>/drm/<minor>), the
 * path names the device as the `device` link would. So a client's device
 * and the listed minor stay one device with one name (no "M:m" twin).
 *
 * Also the panfrost/panthor "profiling" switch: without it those drivers
 * do not sample cycles and timestamps, so their engines read as idle.
 */
#include "plugins/drm_fdinfo/dfi.h"

#include "common/core/text.h"
#include "common/sysfs/sysfs_link.h"

#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

/* The device named by the class entry's own link target, "../../devices/
 * .../<device>/<class>/<minor>": 0 with `out` set, or -1 (not a link of
 * that shape). */
static int dfi_class_link_device(const char *class_entry, char *out,
                                 size_t size) {
  char target[512];
  ssize_t n = readlink(class_entry, target, sizeof(target) - 1);
  if (n <= 0 || strncmp(target, "../", 3) != 0)
    return -1;
  target[n] = '\0';
  const char *minor_name = strrchr(class_entry, '/');
  char *cls = strrchr(target, '/');
  if (minor_name == NULL || cls == NULL || strcmp(cls, minor_name) != 0)
    return -1;
  *cls = '\0'; /* ".../<device>/<class>" */
  cls = strrchr(target, '/');
  if (cls == NULL)
    return -1;
  *cls = '\0'; /* ".../<device>" */
  const char *device = strrchr(target, '/');
  device = device != NULL ? device + 1 : target;
  if (device[0] == '\0' || strcmp(device, "..") == 0 ||
      strcmp(device, "devices") == 0)
    return -1;
  text_sanitize(out, size, device, strlen(device));
  return 0;
}

void dfi_device_resolve(const struct dfi *d, struct dfi_device *dev,
                        const char *class_entry, bool quiet) {
  const char *sysfs = d->cfg.sysfs_root;
  char base[128], path[160], full[512];
  snprintf(base, sizeof(base), "dev/char/%u:%u", major(dev->rdev),
           minor(dev->rdev));
  snprintf(full, sizeof(full), "%s/%s", sysfs, base);
  /* dev/char masked: the class entry the minor was listed by, under
   * SysfsRoot ("<SysfsRoot>/class/drm/<minor>") */
  size_t root_len = strlen(sysfs);
  bool by_class = class_entry != NULL && access(full, F_OK) != 0 &&
                  strncmp(class_entry, sysfs, root_len) == 0 &&
                  class_entry[root_len] == '/';
  if (by_class)
    snprintf(base, sizeof(base), "%s", class_entry + root_len + 1);
  snprintf(dev->minor, sizeof(dev->minor), "%u:%u", major(dev->rdev),
           minor(dev->rdev));
  if (by_class) { /* the entry's own name is the minor's */
    const char *slash = strrchr(base, '/');
    const char *entry = slash ? slash + 1 : base;
    text_sanitize(dev->minor, sizeof(dev->minor), entry, strlen(entry));
  } else {
    sysfs_link_basename(sysfs, base, dev->minor, sizeof(dev->minor));
  }

  snprintf(path, sizeof(path), "%s/device", base);
  int rc = sysfs_link_basename(sysfs, path, dev->name, sizeof(dev->name));
  /* no device link (masked): the class entry's own link target names it;
   * one that leads out of SysfsRoot names nothing */
  if (rc < 0 &&
      (rc == -EXDEV || class_entry == NULL ||
       dfi_class_link_device(class_entry, dev->name, sizeof(dev->name)) < 0))
    snprintf(dev->name, sizeof(dev->name), "%s", dev->minor);
  if (rc == -EXDEV) /* nothing is read through it (sysfs_link.h) */
    log_msg(LOG_LEVEL_WARNING, DFI_PLUGIN, dev->minor, "device",
            "%s: a link that leads out of SysfsRoot (%s): its name, driver "
            "and power state are not read",
            path, strerror(EXDEV));

  snprintf(path, sizeof(path), "%s/device/driver", base);
  if (rc < 0 ||
      sysfs_link_basename(sysfs, path, dev->driver, sizeof(dev->driver)) < 0)
    dev->driver[0] = '\0';

  snprintf(dev->pm_path, sizeof(dev->pm_path),
           "%s/%s/device/power/runtime_status", sysfs, base);
  if (rc == -EXDEV || access(dev->pm_path, R_OK) != 0)
    dev->pm_path[0] = '\0';

  dev->excluded =
      !dev_filter_device_ok(&d->cfg.filter, dev->name, dev->minor) ||
      (dev->driver[0] && !dev_filter_driver_ok(&d->cfg.filter, dev->driver));
  if (!quiet)
    log_msg(LOG_LEVEL_INFO, DFI_PLUGIN, dev->name, "device",
            "%s (%s, driver %s)%s", dev->minor,
            major(dev->rdev) == DFI_ACCEL_MAJOR ? "accel" : "drm",
            dev->driver[0] ? dev->driver : "unknown",
            dev->excluded ? ", excluded by filters" : "");
}

struct dfi_device *dfi_device_get(struct dfi *d, dev_t rdev) {
  return dfi_device_get_listed(d, rdev, NULL);
}

struct dfi_device *dfi_device_get_listed(struct dfi *d, dev_t rdev,
                                         const char *class_entry) {
  for (size_t i = 0; i < d->n_devices; i++)
    if (d->devices[i].rdev == rdev)
      return &d->devices[i];
  if (d->n_devices == d->cap_devices) {
    size_t cap = d->cap_devices ? d->cap_devices * 2 : 8;
    struct dfi_device *grown = realloc(d->devices, cap * sizeof(*grown));
    if (grown == NULL)
      return NULL;
    d->devices = grown;
    d->cap_devices = cap;
  }
  struct dfi_device *dev = &d->devices[d->n_devices++];
  memset(dev, 0, sizeof(*dev));
  dev->rdev = rdev;
  dfi_device_resolve(d, dev, class_entry, d->quiet_resolve);
  return dev;
}

void dfi_device_learn(struct dfi *d, struct dfi_device *dev,
                      const struct fdinfo *fi) {
  if (fi->pdev[0] == '\0' || strcmp(dev->name, fi->pdev) == 0)
    return;
  /* drm-pdev is the kernel's own name for the device; sysfs may have given
   * another (no /sys in a container, a wrong SysfsRoot). One device is one
   * series: adopt the fdinfo name, so the client groups and the device's
   * own drm_clients record agree. */
  log_msg(LOG_LEVEL_INFO, DFI_PLUGIN, fi->pdev, "device",
          "%s is named %s by drm-pdev (sysfs: \"%s\")", dev->minor, fi->pdev,
          dev->name);
  snprintf(dev->name, sizeof(dev->name), "%s", fi->pdev);
  size_t len = strlen(fi->driver);
  if (dev->driver[0] == '\0' && len < sizeof(dev->driver))
    memcpy(dev->driver, fi->driver, len + 1); /* never a cut name */
  dev->excluded =
      !dev_filter_device_ok(&d->cfg.filter, dev->name, dev->minor) ||
      (dev->driver[0] && !dev_filter_driver_ok(&d->cfg.filter, dev->driver));
}

/* Drivers whose fdinfo read resumes a runtime-suspended device: xe takes a
 * runtime-PM reference and forcewake to sample its engine timestamps. */
static bool dfi_driver_wakes_on_read(const char *driver) {
  return strcmp(driver, "xe") == 0;
}

bool dfi_device_is_suspended(struct dfi *d, struct dfi_device *dev) {
  if (d->cfg.wake_suspended || dev->pm_path[0] == '\0' ||
      !dfi_driver_wakes_on_read(dev->driver))
    return false;
  if (dev->checked_gen != d->gen) {
    char status[32];
    ssize_t n =
        fileio_read_line_at(AT_FDCWD, dev->pm_path, status, sizeof(status));
    dev->suspended = n > 0 && strcmp(status, "suspended") == 0;
    dev->checked_gen = d->gen;
  }
  return dev->suspended;
}

void dfi_devices_free(struct dfi *d) {
  free(d->devices);
  d->devices = NULL;
  d->n_devices = d->cap_devices = 0;
}

/* panthor: bit 0 = cycles, bit 1 = timestamps; panfrost: a boolean. */
static const struct {
  const char *driver;
  const char *value;
} dfi_profiling_drivers[] = {{"panfrost", "1"}, {"panthor", "3"}};

int dfi_profiling_enable(struct dfi *d) {
  int failures = 0;
  for (size_t k = 0; k < 2; k++) {
    char pattern[512];
    glob_t g;
    snprintf(pattern, sizeof(pattern), "%s/bus/platform/drivers/%s/*/profiling",
             d->cfg.sysfs_root, dfi_profiling_drivers[k].driver);
    if (glob(pattern, 0, NULL, &g) != 0)
      continue;
    for (size_t i = 0; i < g.gl_pathc; i++) {
      const char *path = g.gl_pathv[i];
      char old[32];
      ssize_t n = fileio_read_line_at(AT_FDCWD, path, old, sizeof(old));
      int rc = n < 0 ? (int)n : 0;
      if (rc == 0)
        rc = fileio_write_at(AT_FDCWD, path, dfi_profiling_drivers[k].value);
      if (rc < 0) {
        log_errno(LOG_LEVEL_WARNING, DFI_PLUGIN, path, "EnableProfiling", -rc,
                  "writing the profiling switch needs root");
        failures++;
        continue;
      }
      char **paths =
          realloc(d->profiling_paths, (d->n_profiling + 1) * sizeof(*paths));
      if (paths != NULL)
        d->profiling_paths = paths;
      char **olds =
          realloc(d->profiling_old, (d->n_profiling + 1) * sizeof(*olds));
      if (olds != NULL)
        d->profiling_old = olds;
      char *p = strdup(path), *o = strdup(old);
      if (paths == NULL || olds == NULL || p == NULL || o == NULL) {
        free(p);
        free(o);
        /* Cannot remember it: put the old value back right away. */
        fileio_write_at(AT_FDCWD, path, old);
        failures++;
        continue;
      }
      d->profiling_paths[d->n_profiling] = p;
      d->profiling_old[d->n_profiling] = o;
      d->n_profiling++;
      log_msg(LOG_LEVEL_INFO, DFI_PLUGIN, path, "EnableProfiling",
              "set to %s (was %s)", dfi_profiling_drivers[k].value, old);
    }
    globfree(&g);
  }
  return failures ? -EIO : 0;
}

void dfi_profiling_restore(struct dfi *d) {
  for (size_t i = 0; i < d->n_profiling; i++) {
    int rc =
        fileio_write_at(AT_FDCWD, d->profiling_paths[i], d->profiling_old[i]);
    if (rc < 0)
      log_errno(LOG_LEVEL_WARNING, DFI_PLUGIN, d->profiling_paths[i],
                "restore profiling", -rc, NULL);
    free(d->profiling_paths[i]);
    free(d->profiling_old[i]);
  }
  free(d->profiling_paths);
  free(d->profiling_old);
  d->profiling_paths = d->profiling_old = NULL;
  d->n_profiling = 0;
}
