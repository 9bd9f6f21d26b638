/*
 * fileio.h: reading whole kernel files (procfs, sysfs, debugfs) relative to
 * a directory fd, into a growable buffer. No parsing lives here.
 */
#ifndef COMMON_CORE_FILEIO_H
#define COMMON_CORE_FILEIO_H

#include <stddef.h>
#include <sys/types.h>

struct fileio_buf {
  char *data; /* owned; NUL-terminated after a successful read */
  size_t len; /* bytes read, excluding the NUL */
  size_t cap;
};

void fileio_buf_init(struct fileio_buf *buf);
void fileio_buf_fini(struct fileio_buf *buf);

/*
 * Read `path` (relative to `dirfd`, or absolute) until EOF, up to `max`
 * bytes, into `buf`, retrying on EINTR. Never blocks: the file is opened
 * O_NONBLOCK and must be a regular file (-EINVAL otherwise; a FIFO under a
 * hostile root would hang a blocking read). The same holds for
 * fileio_read_line_at() and fileio_write_at(). The buffer grows as needed and
 * is reused between calls. Returns 0, -E2BIG when the file is longer than `max`
 * (buf then holds the first `max` bytes), or a negative errno.
 */
int fileio_read_at(int dirfd, const char *path, struct fileio_buf *buf,
                   size_t max);

/* Read from an already open fd (from its current offset). Same contract. */
int fileio_read_fd(int fd, struct fileio_buf *buf, size_t max);

/* Read a small file and strip the trailing newline into out (size > 0).
 * Returns the length or a negative errno. */
ssize_t fileio_read_line_at(int dirfd, const char *path, char *out,
                            size_t size);

/* Like fileio_read_line_at(), but only the file's final newline is
 * removed: newlines inside stay (a process name may hold them; the caller
 * sanitises). */
ssize_t fileio_read_text_at(int dirfd, const char *path, char *out,
                            size_t size);

/* Write `text` to an existing file (sysfs knob). 0 or a negative errno. */
int fileio_write_at(int dirfd, const char *path, const char *text);

#endif
