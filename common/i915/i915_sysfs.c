/* i915_sysfs.c: metric-set ids from sysfs (i915_sysfs.h). */
#include "common/i915/i915_sysfs.h"
#include "common/core/fileio.h"
#include "common/i915/i915_flex.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int i915_sysfs_card(const char *sysfs_root, const char *node, char *out,
                    size_t cap) {
  char path[PATH_MAX];
  int n = snprintf(path, sizeof path, "%s/class/drm/%s/device/drm", sysfs_root,
                   node);
  if (n < 0 || (size_t)n >= sizeof path)
    return -ENAMETOOLONG;
  DIR *dir = opendir(path);
  if (dir == NULL)
    return -errno;
  int rc = -ENOENT;
  unsigned best = UINT_MAX;
  struct dirent *de;
  while ((de = readdir(dir)) != NULL) {
    unsigned minor;
    char tail;
    /* the lowest card<N> (a device has one primary node) */
    if (sscanf(de->d_name, "card%u%c", &minor, &tail) != 1 || minor >= best)
      continue;
    if ((size_t)snprintf(out, cap, "card%u", minor) >= cap) {
      rc = -ENAMETOOLONG;
      break;
    }
    best = minor;
    rc = 0;
  }
  closedir(dir);
  return rc;
}

static int parse_id(const char *text, uint64_t *id) {
  char *end;
  errno = 0;
  unsigned long long v = strtoull(text, &end, 10);
  if (end == text || *end != '\0' || errno != 0 || v == 0 || text[0] == '-' ||
      text[0] == '+')
    return -EINVAL;
  *id = v;
  return 0;
}

int i915_sysfs_metric_id(const char *sysfs_root, const char *card,
                         const char *uuid, uint64_t *id) {
  char path[PATH_MAX], text[32];
  if (!i915_flex_uuid_valid(uuid))
    return -EINVAL;
  int n = snprintf(path, sizeof path, "%s/class/drm/%s/metrics/%s/id",
                   sysfs_root, card, uuid);
  if (n < 0 || (size_t)n >= sizeof path)
    return -ENAMETOOLONG;
  ssize_t len = fileio_read_line_at(AT_FDCWD, path, text, sizeof text);
  if (len < 0)
    return (int)len;
  return parse_id(text, id);
}

int i915_sysfs_metric_resolve(const char *sysfs_root, const char *card,
                              const char *metric_set, uint64_t *id) {
  if (i915_flex_uuid_valid(metric_set))
    return i915_sysfs_metric_id(sysfs_root, card, metric_set, id);
  return parse_id(metric_set, id);
}
