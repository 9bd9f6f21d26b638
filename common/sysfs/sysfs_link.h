/*
 * sysfs_link.h: a sysfs symlink's last path component, the way the DRM
 * plugins name a device (its `device` link: the PCI slot or platform
 * device name) and its driver (`device/driver`). Both plugins use this one
 * rule, so their `device` and `driver` tags join.
 */
#ifndef COMMON_SYSFS_SYSFS_LINK_H
#define COMMON_SYSFS_SYSFS_LINK_H

#include <stddef.h>

/* The last component of the target of the link `rel` (relative to `dirfd`,
 * or AT_FDCWD), sanitised (text.h) into `out` of `size` bytes. Every link
 * met on the way ("device" of "device/driver") and the link read must have
 * the shape the kernel gives sysfs links (relative: "../" then names);
 * another shape, which would lead out of SysfsRoot, is -EXDEV. Returns 0,
 * -errno of readlinkat or openat, -EXDEV, or -EINVAL when `rel` is not a
 * link. The links are read, and only directories on the way opened
 * (O_PATH): it resumes no device. */
int sysfs_link_basename(int dirfd, const char *rel, char *out, size_t size);

#endif
