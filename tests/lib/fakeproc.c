/*
 * fakeproc.c: synthetic proc/sys/debugfs trees (see fakeproc.h).
 */
#include "tests/lib/fakeproc.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

static int fakeproc_mkdirs(const char *path) {
  char tmp[1024];
  snprintf(tmp, sizeof(tmp), "%s", path);
  for (char *p = tmp + 1; *p; p++) {
    if (*p != '/')
      continue;
    *p = '\0';
    if (mkdir(tmp, 0755) < 0 && errno != EEXIST)
      return -errno;
    *p = '/';
  }
  if (mkdir(tmp, 0755) < 0 && errno != EEXIST)
    return -errno;
  return 0;
}

static int fakeproc_write_abs(const char *path, const char *text) {
  char dir[1024];
  snprintf(dir, sizeof(dir), "%s", path);
  char *slash = strrchr(dir, '/');
  if (slash != NULL) {
    *slash = '\0';
    int rc = fakeproc_mkdirs(dir);
    if (rc < 0)
      return rc;
  }
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0)
    return -errno;
  size_t len = strlen(text);
  ssize_t n = write(fd, text, len);
  close(fd);
  return n == (ssize_t)len ? 0 : -EIO;
}

int fakeproc_write(struct fakeproc *fp, const char *relpath, const char *text) {
  char path[1024];
  snprintf(path, sizeof(path), "%s/%s", fp->root, relpath);
  return fakeproc_write_abs(path, text);
}

int fakeproc_init(struct fakeproc *fp) {
  const char *tmp = getenv("TMPDIR");
  snprintf(fp->root, sizeof(fp->root), "%s/fakeproc.XXXXXX",
           tmp ? tmp : "/tmp");
  if (mkdtemp(fp->root) == NULL)
    return -errno;
  chmod(fp->root, 0755);
  snprintf(fp->proc, sizeof(fp->proc), "%s/proc", fp->root);
  snprintf(fp->sys, sizeof(fp->sys), "%s/sys", fp->root);
  snprintf(fp->debug, sizeof(fp->debug), "%s/debug", fp->root);
  snprintf(fp->dev, sizeof(fp->dev), "%s/dev", fp->root);
  int rc = fakeproc_mkdirs(fp->proc);
  if (rc == 0)
    rc = fakeproc_mkdirs(fp->sys);
  if (rc == 0)
    rc = fakeproc_mkdirs(fp->debug);
  if (rc == 0)
    rc = fakeproc_mkdirs(fp->dev);
  return rc;
}

static int fakeproc_rm(const char *path, const struct stat *st, int flag,
                       struct FTW *ftw) {
  (void)st;
  (void)flag;
  (void)ftw;
  chmod(path, 0755);
  remove(path);
  return 0;
}

void fakeproc_fini(struct fakeproc *fp) {
  if (fp->root[0])
    nftw(fp->root, fakeproc_rm, 16, FTW_DEPTH | FTW_PHYS);
  fp->root[0] = '\0';
}

bool fakeproc_can_mknod(void) { return geteuid() == 0; }

int fakeproc_device(struct fakeproc *fp, unsigned maj, unsigned min,
                    const char *minor_name, const char *device_name,
                    const char *driver) {
  char path[1024], target[1024];
  snprintf(path, sizeof(path), "%s/%s", fp->dev, minor_name);
  unlink(path);
  if (mknod(path, S_IFCHR | 0666, makedev(maj, min)) < 0)
    return -errno;
  /* sys/devices/<dev>/drm/<minor> and the links the plugin follows */
  snprintf(path, sizeof(path), "%s/devices/%s/drm/%s", fp->sys, device_name,
           minor_name);
  int rc = fakeproc_mkdirs(path);
  if (rc < 0)
    return rc;
  snprintf(path, sizeof(path), "%s/devices/%s/drm/%s/device", fp->sys,
           device_name, minor_name);
  /* devices/<dev>/drm/<minor>/device -> the bus device, named by its
   * basename like real sysfs links are. */
  unlink(path);
  snprintf(target, sizeof(target), "../../../%s", device_name);
  symlink(target, path);
  if (driver != NULL) {
    snprintf(path, sizeof(path), "%s/bus/drivers/%s", fp->sys, driver);
    fakeproc_mkdirs(path);
    snprintf(path, sizeof(path), "%s/devices/%s/driver", fp->sys, device_name);
    snprintf(target, sizeof(target), "../../bus/drivers/%s", driver);
    unlink(path);
    symlink(target, path);
  }
  snprintf(path, sizeof(path), "%s/dev/char", fp->sys);
  fakeproc_mkdirs(path);
  snprintf(path, sizeof(path), "%s/dev/char/%u:%u", fp->sys, maj, min);
  snprintf(target, sizeof(target), "../../devices/%s/drm/%s", device_name,
           minor_name);
  unlink(path);
  if (symlink(target, path) < 0)
    return -errno;
  snprintf(path, sizeof(path), "%s/class/%s/%s/dev", fp->sys,
           maj == 261 ? "accel" : "drm", minor_name);
  char line[32];
  snprintf(line, sizeof(line), "%u:%u\n", maj, min);
  return fakeproc_write_abs(path, line);
}

int fakeproc_runtime_status(struct fakeproc *fp, const char *device_name,
                            const char *status) {
  char path[1024];
  snprintf(path, sizeof(path), "%s/devices/%s/power/runtime_status", fp->sys,
           device_name);
  return fakeproc_write_abs(path, status);
}

int fakeproc_process(struct fakeproc *fp, pid_t pid, const char *comm,
                     const char *cgroup) {
  char path[1024], text[512];
  snprintf(path, sizeof(path), "%s/%d/fd", fp->proc, (int)pid);
  int rc = fakeproc_mkdirs(path);
  if (rc < 0)
    return rc;
  snprintf(path, sizeof(path), "%s/%d/fdinfo", fp->proc, (int)pid);
  if ((rc = fakeproc_mkdirs(path)) < 0)
    return rc;
  snprintf(path, sizeof(path), "%s/%d/comm", fp->proc, (int)pid);
  snprintf(text, sizeof(text), "%s\n", comm);
  if ((rc = fakeproc_write_abs(path, text)) < 0)
    return rc;
  snprintf(path, sizeof(path), "%s/%d/cgroup", fp->proc, (int)pid);
  snprintf(text, sizeof(text), "0::%s\n", cgroup ? cgroup : "/");
  return fakeproc_write_abs(path, text);
}

void fakeproc_process_remove(struct fakeproc *fp, pid_t pid) {
  char path[1024];
  snprintf(path, sizeof(path), "%s/%d", fp->proc, (int)pid);
  nftw(path, fakeproc_rm, 16, FTW_DEPTH | FTW_PHYS);
}

int fakeproc_fdinfo(struct fakeproc *fp, pid_t pid, int fd, const char *text) {
  char path[1024];
  snprintf(path, sizeof(path), "%s/%d/fdinfo/%d", fp->proc, (int)pid, fd);
  return fakeproc_write_abs(path, text);
}

int fakeproc_fd(struct fakeproc *fp, pid_t pid, int fd, const char *minor_name,
                const char *fdinfo) {
  char path[1024], target[1024];
  snprintf(path, sizeof(path), "%s/%d/fd/%d", fp->proc, (int)pid, fd);
  if (minor_name != NULL) {
    snprintf(target, sizeof(target), "%s/%s", fp->dev, minor_name);
  } else {
    snprintf(target, sizeof(target), "%s/regular", fp->root);
    fakeproc_write_abs(target, "not a device\n");
  }
  unlink(path);
  if (symlink(target, path) < 0)
    return -errno;
  return fakeproc_fdinfo(fp, pid, fd, fdinfo);
}

void fakeproc_fd_remove(struct fakeproc *fp, pid_t pid, int fd) {
  char path[1024];
  snprintf(path, sizeof(path), "%s/%d/fd/%d", fp->proc, (int)pid, fd);
  unlink(path);
  snprintf(path, sizeof(path), "%s/%d/fdinfo/%d", fp->proc, (int)pid, fd);
  unlink(path);
}

int fakeproc_debugfs_clients(struct fakeproc *fp, unsigned minor,
                             const char *text) {
  char path[1024];
  snprintf(path, sizeof(path), "%s/dri/%u/clients", fp->debug, minor);
  return fakeproc_write_abs(path, text);
}
