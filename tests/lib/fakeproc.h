/*
 * fakeproc.h: synthetic /proc, /sys and debugfs trees for drm_fdinfo tests.
 *
 * Everything lives under one mkdtemp() directory: proc/, sys/, debug/ and
 * dev/ (real char device nodes made with mknod, so creating devices needs
 * root; fakeproc_can_mknod() tells). /proc/<pid>/fd/<n> entries are
 * symlinks to those nodes (or to a regular file), so fstatat() sees a char
 * device of the right major:minor exactly as on a real /proc.
 */
#ifndef TESTS_LIB_FAKEPROC_H
#define TESTS_LIB_FAKEPROC_H

#include <stdbool.h>
#include <sys/types.h>

struct fakeproc {
  char root[256];
  char proc[300], sys[300], debug[300], dev[300];
};

/* Create an empty tree; 0 or -errno. */
int fakeproc_init(struct fakeproc *fp);
/* Remove the whole tree. */
void fakeproc_fini(struct fakeproc *fp);
/* True when mknod of a char device works here (root). */
bool fakeproc_can_mknod(void);

/* A DRM/accel char device: /dev node, /sys/dev/char link, class entry,
 * device link to `device_name` (bus name), driver link, runtime_status. */
int fakeproc_device(struct fakeproc *fp, unsigned maj, unsigned min,
                    const char *minor_name, const char *device_name,
                    const char *driver);
int fakeproc_runtime_status(struct fakeproc *fp, const char *device_name,
                            const char *status);

/* A process directory with comm and cgroup files (`comm` is written raw,
 * any bytes, plus a newline). */
int fakeproc_process(struct fakeproc *fp, pid_t pid, const char *comm,
                     const char *cgroup);
void fakeproc_process_remove(struct fakeproc *fp, pid_t pid);

/* fd `fd` of `pid` pointing at device node `minor_name` (NULL: a regular
 * file), with fdinfo text `fdinfo` (written as is). */
int fakeproc_fd(struct fakeproc *fp, pid_t pid, int fd, const char *minor_name,
                const char *fdinfo);
int fakeproc_fdinfo(struct fakeproc *fp, pid_t pid, int fd, const char *text);
void fakeproc_fd_remove(struct fakeproc *fp, pid_t pid, int fd);

/* debugfs client list for DRM minor index `minor` with the given text. */
int fakeproc_debugfs_clients(struct fakeproc *fp, unsigned minor,
                             const char *text);

/* Write a file relative to the tree root, creating parent directories. */
int fakeproc_write(struct fakeproc *fp, const char *relpath, const char *text);

#endif
