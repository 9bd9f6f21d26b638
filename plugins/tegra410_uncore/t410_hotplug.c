/*
 * t410_hotplug.c: the PMU directory watch (t410_hotplug.h).
 */
#include "plugins/tegra410_uncore/t410_hotplug.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void t410_hotplug_init(struct t410_hotplug *h) { memset(h, 0, sizeof(*h)); }

void t410_hotplug_fini(struct t410_hotplug *h) {
  free(h->seen);
  free(h->now);
  free(h->went);
  free(h->came);
  memset(h, 0, sizeof(*h));
}

/* Room for one more entry in *a (of *cap): false on ENOMEM. */
static bool t410_hotplug_room(struct t410_hotplug_pmu **a, size_t n,
                              size_t *cap) {
  if (n < *cap)
    return true;
  size_t grown_cap = *cap ? 2 * *cap : 16;
  struct t410_hotplug_pmu *grown = realloc(*a, grown_cap * sizeof(*grown));
  if (grown == NULL)
    return false;
  *a = grown;
  *cap = grown_cap;
  return true;
}

static bool t410_hotplug_in(const struct t410_hotplug_pmu *list, size_t n,
                            const struct t410_hotplug_pmu *e) {
  for (size_t i = 0; i < n; i++)
    if (list[i].ino == e->ino && strcmp(list[i].name, e->name) == 0)
      return true;
  return false;
}

/* The entries of `a` that `b` lacks, into *out (n, cap). */
static int t410_hotplug_diff(const struct t410_hotplug_pmu *a, size_t n_a,
                             const struct t410_hotplug_pmu *b, size_t n_b,
                             struct t410_hotplug_pmu **out, size_t *n_out,
                             size_t *cap) {
  *n_out = 0;
  for (size_t i = 0; i < n_a; i++) {
    if (t410_hotplug_in(b, n_b, &a[i]))
      continue;
    if (!t410_hotplug_room(out, *n_out, cap))
      return -ENOMEM;
    (*out)[(*n_out)++] = a[i];
  }
  return 0;
}

int t410_hotplug_list(struct t410_hotplug *h, const struct kernel_ops *k,
                      const char *sysfs_root) {
  h->n_went = h->n_came = 0;
  char path[512];
  snprintf(path, sizeof(path), "%s/bus/event_source/devices", sysfs_root);
  int fd = k->open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
  DIR *dir = fd >= 0 ? k->fdopendir(fd) : NULL;
  if (dir == NULL) {
    h->err = errno;
    if (fd >= 0)
      k->close(fd);
    return -h->err;
  }
  h->err = 0;
  h->n_now = 0;
  int rc = 0;
  struct dirent *de;
  while ((de = k->readdir(dir)) != NULL) {
    if (de->d_name[0] == '.' || strlen(de->d_name) >= PMU_NAME_MAX)
      continue;
    if (!t410_hotplug_room(&h->now, h->n_now, &h->cap_now)) {
      rc = -ENOMEM;
      break;
    }
    struct t410_hotplug_pmu *e = &h->now[h->n_now++];
    snprintf(e->name, sizeof(e->name), "%s", de->d_name);
    e->ino = de->d_ino;
  }
  k->closedir(dir);
  if (rc == 0)
    rc = t410_hotplug_diff(h->seen, h->n_seen, h->now, h->n_now, &h->went,
                           &h->n_went, &h->cap_went);
  if (rc == 0)
    rc = t410_hotplug_diff(h->now, h->n_now, h->seen, h->n_seen, &h->came,
                           &h->n_came, &h->cap_came);
  if (rc < 0) {
    h->n_went = h->n_came = 0;
    return rc;
  }
  /* the listing made becomes the last one; the old buffer is reused */
  struct t410_hotplug_pmu *old = h->seen;
  size_t old_cap = h->cap_seen;
  h->seen = h->now;
  h->n_seen = h->n_now;
  h->cap_seen = h->cap_now;
  h->now = old;
  h->cap_now = old_cap;
  h->n_now = 0;
  return 0;
}

size_t t410_hotplug_count(const struct t410_hotplug *h) { return h->n_seen; }
