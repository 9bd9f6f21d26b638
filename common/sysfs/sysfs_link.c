/*
 * sysfs_link.c: a sysfs symlink's last component (sysfs_link.h).
 */
#include "common/sysfs/sysfs_link.h"

#include "common/core/text.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

int sysfs_link_basename(int dirfd, const char *rel, char *out, size_t size) {
  char target[512];
  ssize_t n = readlinkat(dirfd, rel, target, sizeof(target) - 1);
  if (n < 0)
    return -errno;
  target[n] = '\0';
  const char *base = strrchr(target, '/');
  base = base ? base + 1 : target;
  if (*base == '\0')
    return -EINVAL;
  text_sanitize(out, size, base, strlen(base));
  return 0;
}
