/*
 * sysfs_link.h: a sysfs symlink's last path component, the way the DRM
 * plugins name a device (its `device` link: the PCI slot or platform
 * device name) and its driver (`device/driver`). Both plugins use this one
 * rule, so their `device` and `driver` tags join.
 */
#ifndef COMMON_SYSFS_SYSFS_LINK_H
#define COMMON_SYSFS_SYSFS_LINK_H

#include <stddef.h>

/*
 * The last component of the target of the link `rel`, a path under the
 * directory `root` (SysfsRoot), sanitised (text.h) into `out` of `size`
 * bytes. The path is walked as the kernel would, every link on the way
 * followed ("device" of "device/driver", "dev/char/226:0" of
 * "dev/char/226:0/device"), and so is the link read, but the walk is held
 * under `root`: every link met must have the shape the kernel gives sysfs
 * links (relative: "../" then names), and no "../" may climb above
 * `root`, or it is -EXDEV (a crafted tree's way to the real /sys or /etc).
 * Returns 0, -errno of the walk (-ENOENT: no such link, -ELOOP: more than
 * 40 links), -EXDEV, or -EINVAL when `rel` is not a link. Only directories
 * are opened, O_PATH (the links are read): it resumes no device.
 */
int sysfs_link_basename(const char *root, const char *rel, char *out,
                        size_t size);

#endif
