/*
 * sysfs_link.c: a sysfs symlink's last component (sysfs_link.h).
 *
 * kernfs makes every sysfs link relative: a run of "../" up to the common
 * ancestor, then the target's names (fs/kernfs/symlink.c:
 * kernfs_get_target_path). A link of another shape (absolute, or with "."
 * or ".." among the names) is not the kernel's: in a crafted tree it would
 * lead the walk of "device/driver" out of SysfsRoot (an absolute `device`
 * link to the real /sys, or to /etc), so it is refused, as a link met on
 * the way and as the link read.
 */
#include "common/sysfs/sysfs_link.h"

#include "common/core/text.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

/* True when `t` has the shape kernfs_get_target_path gives a link. */
static bool sysfs_link_shaped(const char *t) {
  while (strncmp(t, "../", 3) == 0)
    t += 3;
  if (*t == '\0' || *t == '/')
    return false;
  for (const char *p = t; *p;) {
    size_t n = strcspn(p, "/");
    if (n == 0 || (n == 1 && p[0] == '.') ||
        (n == 2 && p[0] == '.' && p[1] == '.'))
      return false;
    p += n;
    if (*p == '/' && *++p == '\0')
      return false; /* a trailing '/' */
  }
  return true;
}

/* Read the link `name` in `dirfd` into `target` (size `size`): 1 for a
 * kernfs-shaped link, 0 when `name` is not a link, or -errno (-EXDEV for a
 * link of another shape). */
static int sysfs_link_read(int dirfd, const char *name, char *target,
                           size_t size) {
  ssize_t n = readlinkat(dirfd, name, target, size - 1);
  if (n < 0)
    return errno == EINVAL ? 0 : -errno;
  if ((size_t)n == size - 1)
    return -ENAMETOOLONG;
  target[n] = '\0';
  return sysfs_link_shaped(target) ? 1 : -EXDEV;
}

int sysfs_link_basename(int dirfd, const char *rel, char *out, size_t size) {
  char target[512], part[256];
  int cur = dirfd, owned = -1, rc = 0;
  const char *p = rel;
  if (*p == '/') { /* an absolute path: walked from "/" */
    owned = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (owned < 0)
      return -errno;
    cur = owned;
    while (*p == '/')
      p++;
  }
  /* every directory on the way: a link among them must be kernfs-shaped */
  for (const char *slash; rc == 0 && (slash = strchr(p, '/')) != NULL;) {
    size_t n = (size_t)(slash - p);
    if (n >= sizeof(part)) {
      rc = -ENAMETOOLONG;
      break;
    }
    memcpy(part, p, n);
    part[n] = '\0';
    p = slash + 1;
    while (*p == '/')
      p++;
    if (n == 0)
      continue;
    rc = sysfs_link_read(cur, part, target, sizeof(target));
    if (rc < 0)
      break;
    int next = openat(cur, part, O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (next < 0) {
      rc = -errno;
      break;
    }
    if (owned >= 0)
      close(owned);
    cur = owned = next;
    rc = 0;
  }
  if (rc == 0) {
    rc = sysfs_link_read(cur, p, target, sizeof(target));
    rc = rc == 0 ? -EINVAL : rc; /* not a link */
  }
  if (owned >= 0)
    close(owned);
  if (rc < 0)
    return rc;
  const char *base = strrchr(target, '/');
  base = base ? base + 1 : target;
  text_sanitize(out, size, base, strlen(base));
  return 0;
}
