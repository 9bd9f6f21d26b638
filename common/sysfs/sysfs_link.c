/*
 * sysfs_link.c: a sysfs symlink's last component (sysfs_link.h).
 *
 * kernfs makes every sysfs link relative: a run of "../" up to the common
 * ancestor, then the target's names (fs/kernfs/symlink.c:
 * kernfs_get_target_path). A link of another shape (absolute, or with "."
 * or ".." among the names) is not the kernel's and is refused. A link of
 * that shape can still climb out of SysfsRoot with more "../" than its
 * directory is deep (a `device` link of a crafted tree leading to the real
 * /sys, or to /etc), or through a link met among its names, so the path is
 * resolved here one component at a time, as the kernel's walk does
 * (fs/namei.c: link_path_walk, with a link's target walked from the
 * directory that holds the link), keeping the resolved directory as names
 * under the root: a ".." at the root, or more than SYSFS_LINK_MAX_LINKS
 * links, ends the walk. Each directory is then opened with openat2's
 * RESOLVE_BENEATH and RESOLVE_NO_SYMLINKS (fs/namei.c: the LOOKUP_BENEATH
 * and LOOKUP_NO_SYMLINKS checks), so the kernel itself holds the walk to
 * the names found; a kernel without openat2 (before 5.6: ENOSYS) gets the
 * same walk with openat and O_NOFOLLOW per component.
 */
#include "common/sysfs/sysfs_link.h"

#include "common/core/text.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The kernel's limit on links followed in one walk (include/linux/namei.h:
 * MAXSYMLINKS). */
#define SYSFS_LINK_MAX_LINKS 40

/* The longest path handled, resolved or still to walk. */
#define SYSFS_LINK_PATH_MAX 1024

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

/* The walk: `dir` is the resolved directory, names under the root
 * ("" for the root itself), none of them a link. */
struct sysfs_walk {
  int rootfd;
  char dir[SYSFS_LINK_PATH_MAX];
  size_t len;
  unsigned links;
};

#ifdef SYS_openat2
/* Set once openat2 said ENOSYS (a kernel before 5.6, or a tool such as
 * valgrind 3.19 that does not know the call): not asked again. */
static atomic_bool sysfs_no_openat2;
#endif

/* Open the resolved directory, O_PATH: only links in it are read. */
static int sysfs_walk_open(const struct sysfs_walk *w) {
  const char *path = w->len > 0 ? w->dir : ".";
#ifdef SYS_openat2
  if (!atomic_load_explicit(&sysfs_no_openat2, memory_order_relaxed)) {
    struct open_how how = {.flags = O_PATH | O_DIRECTORY | O_CLOEXEC,
                           .resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
                                      RESOLVE_NO_MAGICLINKS};
    long fd = syscall(SYS_openat2, w->rootfd, path, &how, sizeof(how));
    if (fd >= 0 || errno != ENOSYS)
      return fd >= 0 ? (int)fd : -errno;
    atomic_store_explicit(&sysfs_no_openat2, true, memory_order_relaxed);
  }
#endif
  /* no openat2: a component at a time, none of them followed */
  int cur = openat(w->rootfd, ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
  for (const char *p = w->len > 0 ? w->dir : ""; cur >= 0 && *p;) {
    char name[256];
    size_t n = strcspn(p, "/");
    if (n >= sizeof(name)) {
      close(cur);
      return -ENAMETOOLONG;
    }
    memcpy(name, p, n);
    name[n] = '\0';
    p += n + (p[n] == '/');
    int next = openat(cur, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    int err = errno;
    close(cur);
    cur = next;
    if (cur < 0)
      return err == ENOTDIR ? -ELOOP : -err; /* a link put there since */
  }
  return cur >= 0 ? cur : -errno;
}

/* Read `name` in the resolved directory: 1 and its target in `target`
 * (size SYSFS_LINK_PATH_MAX) for a kernfs-shaped link, 0 when it is not
 * a link or does not exist, or -errno (-EXDEV: a link of another shape). */
static int sysfs_walk_readlink(const struct sysfs_walk *w, const char *name,
                               char *target) {
  int dfd = sysfs_walk_open(w);
  if (dfd == -ENOENT || dfd == -ENOTDIR)
    return 0; /* a name that is not there cannot lead anywhere */
  if (dfd < 0)
    return dfd;
  ssize_t n = readlinkat(dfd, name, target, SYSFS_LINK_PATH_MAX - 1);
  int err = errno;
  close(dfd);
  if (n < 0)
    return err == EINVAL || err == ENOENT || err == ENOTDIR ? 0 : -err;
  if ((size_t)n == SYSFS_LINK_PATH_MAX - 1)
    return -ENAMETOOLONG;
  target[n] = '\0';
  return sysfs_link_shaped(target) ? 1 : -EXDEV;
}

/* Walk `path` from the resolved directory, following every link among
 * its components (its last one too when `follow_last`, else that one is
 * left in `last`, size 256). 0, or -errno: -EXDEV when it leads out of the
 * root, -ELOOP after too many links. */
static int sysfs_walk_path(struct sysfs_walk *w, const char *path,
                           bool follow_last, char *last) {
  char pending[SYSFS_LINK_PATH_MAX], target[SYSFS_LINK_PATH_MAX];
  size_t len = strlen(path);
  if (len >= sizeof(pending))
    return -ENAMETOOLONG;
  memcpy(pending, path, len + 1);
  for (char *p = pending;;) {
    while (*p == '/')
      p++;
    if (*p == '\0')
      return 0;
    size_t n = strcspn(p, "/");
    char name[256];
    if (n >= sizeof(name))
      return -ENAMETOOLONG;
    memcpy(name, p, n);
    name[n] = '\0';
    p += n;
    while (*p == '/')
      p++;
    if (strcmp(name, ".") == 0)
      continue;
    if (strcmp(name, "..") == 0) {
      if (w->len == 0)
        return -EXDEV; /* above the root */
      char *up = memrchr(w->dir, '/', w->len);
      w->len = up != NULL ? (size_t)(up - w->dir) : 0;
      w->dir[w->len] = '\0';
      continue;
    }
    if (*p == '\0' && !follow_last) {
      memcpy(last, name, n + 1);
      return 0;
    }
    int rc = sysfs_walk_readlink(w, name, target);
    if (rc < 0)
      return rc;
    if (rc == 1) { /* the link's target, then what was left */
      if (++w->links > SYSFS_LINK_MAX_LINKS)
        return -ELOOP;
      size_t t = strlen(target), rest = strlen(p);
      if (t + 1 + rest >= sizeof(pending))
        return -ENAMETOOLONG;
      memmove(pending + t + 1, p, rest + 1);
      memcpy(pending, target, t);
      pending[t] = '/';
      p = pending;
      continue;
    }
    if (w->len + 1 + n >= sizeof(w->dir))
      return -ENAMETOOLONG;
    if (w->len > 0)
      w->dir[w->len++] = '/';
    memcpy(w->dir + w->len, name, n + 1);
    w->len += n;
  }
}

/* Read the link `last` of the resolved directory into `target`; 0 or
 * -errno (-EINVAL: not a link, -EXDEV: not kernfs-shaped). */
static int sysfs_walk_last(const struct sysfs_walk *w, const char *last,
                           char *target) {
  int dfd = sysfs_walk_open(w);
  if (dfd < 0)
    return dfd;
  ssize_t n = readlinkat(dfd, last, target, SYSFS_LINK_PATH_MAX - 1);
  int err = errno;
  close(dfd);
  if (n < 0)
    return -err;
  if ((size_t)n == SYSFS_LINK_PATH_MAX - 1)
    return -ENAMETOOLONG;
  target[n] = '\0';
  return sysfs_link_shaped(target) ? 0 : -EXDEV;
}

int sysfs_link_basename(const char *root, const char *rel, char *out,
                        size_t size) {
  struct sysfs_walk w = {.rootfd = -1, .len = 0, .links = 0};
  char last[256] = "", target[SYSFS_LINK_PATH_MAX];
  w.dir[0] = '\0';
  w.rootfd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (w.rootfd < 0)
    return -errno;
  int rc = sysfs_walk_path(&w, rel, /*follow_last=*/false, last);
  if (rc == 0 && last[0] == '\0')
    rc = -EINVAL; /* no name: the root, or a directory reached by ".." */
  if (rc == 0)
    rc = sysfs_walk_last(&w, last, target);
  /* where it leads must be under the root too, whether it is there or not
   * (then no link can be met on the way: the names are taken as they are) */
  if (rc == 0)
    rc = sysfs_walk_path(&w, target, /*follow_last=*/true, last);
  close(w.rootfd);
  if (rc < 0)
    return rc;
  const char *base = strrchr(target, '/');
  base = base ? base + 1 : target;
  text_sanitize(out, size, base, strlen(base));
  return 0;
}
