/*
 * fileio.c: whole-file reads for procfs/sysfs (see fileio.h).
 */
#include "common/core/fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void fileio_buf_init(struct fileio_buf *buf) {
  buf->data = NULL;
  buf->len = 0;
  buf->cap = 0;
}

void fileio_buf_fini(struct fileio_buf *buf) {
  free(buf->data);
  fileio_buf_init(buf);
}

static int fileio_reserve(struct fileio_buf *buf, size_t want) {
  if (buf->cap >= want)
    return 0;
  size_t cap = buf->cap ? buf->cap : 4096;
  while (cap < want)
    cap *= 2;
  char *data = realloc(buf->data, cap);
  if (data == NULL)
    return -ENOMEM;
  buf->data = data;
  buf->cap = cap;
  return 0;
}

int fileio_read_fd(int fd, struct fileio_buf *buf, size_t max) {
  buf->len = 0;
  for (;;) {
    size_t room = max - buf->len;
    if (room > 65536)
      room = 65536;
    int rc = fileio_reserve(buf, buf->len + room + 2);
    if (rc < 0)
      return rc;
    if (room == 0) {
      /* At the limit: one more byte tells whether the file goes on. */
      char probe;
      ssize_t n;
      do
        n = read(fd, &probe, 1);
      while (n < 0 && errno == EINTR);
      buf->data[buf->len] = '\0';
      return n > 0 ? -E2BIG : 0;
    }
    ssize_t n = read(fd, buf->data + buf->len, room);
    if (n < 0) {
      if (errno == EINTR)
        continue;
      int err = errno;
      buf->data[buf->len] = '\0';
      return -err;
    }
    if (n == 0)
      break;
    buf->len += (size_t)n;
  }
  buf->data[buf->len] = '\0';
  return 0;
}

/* Open a file to read without ever blocking: O_NONBLOCK so a FIFO (or a
 * device) planted under a hostile ProcRoot/SysfsRoot cannot stall the
 * open, and only regular files are read (procfs, sysfs and debugfs files
 * all are), so a FIFO cannot stall the read either. The fd or -errno;
 * -EINVAL for a file that is not regular. */
static int fileio_open_regular(int dirfd, const char *path, int flags) {
  int fd = openat(dirfd, path, flags | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
  if (fd < 0)
    return -errno;
  struct stat st;
  if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    return -EINVAL;
  }
  return fd;
}

int fileio_read_at(int dirfd, const char *path, struct fileio_buf *buf,
                   size_t max) {
  buf->len = 0;
  int fd = fileio_open_regular(dirfd, path, O_RDONLY);
  if (fd < 0)
    return fd;
  int rc = fileio_read_fd(fd, buf, max);
  close(fd);
  return rc;
}

/* One read of at most size - 1 bytes, NUL-terminated. */
static ssize_t fileio_read_small_at(int dirfd, const char *path, char *out,
                                    size_t size) {
  int fd = fileio_open_regular(dirfd, path, O_RDONLY);
  if (fd < 0)
    return fd;
  ssize_t n;
  do
    n = read(fd, out, size - 1);
  while (n < 0 && errno == EINTR);
  int err = errno;
  close(fd);
  if (n < 0)
    return -err;
  out[n] = '\0';
  return n;
}

ssize_t fileio_read_line_at(int dirfd, const char *path, char *out,
                            size_t size) {
  ssize_t n = fileio_read_small_at(dirfd, path, out, size);
  char *nl = n > 0 ? memchr(out, '\n', (size_t)n) : NULL;
  if (nl != NULL) {
    *nl = '\0';
    n = nl - out;
  }
  return n;
}

ssize_t fileio_read_text_at(int dirfd, const char *path, char *out,
                            size_t size) {
  ssize_t n = fileio_read_small_at(dirfd, path, out, size);
  if (n > 0 && out[n - 1] == '\n')
    out[--n] = '\0';
  return n;
}

int fileio_write_at(int dirfd, const char *path, const char *text) {
  /* O_TRUNC is ignored by sysfs and keeps regular files exact; O_NONBLOCK
   * and the regular-file check keep a planted FIFO from blocking us. */
  int fd = fileio_open_regular(dirfd, path, O_WRONLY | O_TRUNC);
  if (fd < 0)
    return fd;
  size_t len = strlen(text);
  ssize_t n;
  do
    n = write(fd, text, len);
  while (n < 0 && errno == EINTR);
  int err = errno;
  close(fd);
  if (n < 0)
    return -err;
  return (size_t)n == len ? 0 : -EIO;
}
