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
 * or AT_FDCWD), sanitised (text.h) into `out` of `size` bytes. Returns 0,
 * -errno of readlinkat, or -EINVAL for a target ending in '/'. The link is
 * read, not followed or opened: it resumes no device. */
int sysfs_link_basename(int dirfd, const char *rel, char *out, size_t size);

#endif
