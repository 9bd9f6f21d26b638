/*
 * drm_clients_parse.c: the DRM debugfs client list decoder (see header).
 */
#include "common/drm/drm_clients_parse.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>

#define DRM_CLIENTS_PID_COLUMN 21 /* "%20s " */

/* The pid of one row, or 0 when the line is not a client row. */
static pid_t drm_clients_row_pid(const char *line, size_t len) {
  if (len <= DRM_CLIENTS_PID_COLUMN || line[DRM_CLIENTS_PID_COLUMN - 1] != ' ')
    return 0;
  size_t i = DRM_CLIENTS_PID_COLUMN;
  while (i < len && line[i] == ' ')
    i++;
  long long pid = 0;
  size_t digits = 0;
  for (; i < len && line[i] >= '0' && line[i] <= '9'; i++, digits++) {
    pid = pid * 10 + (line[i] - '0');
    if (pid > 0x3fffffff) /* PID_MAX_LIMIT is 2^22; anything near int is bad */
      return 0;
  }
  if (digits == 0 || (i < len && line[i] != ' '))
    return 0;
  return (pid_t)pid;
}

int drm_clients_parse(const void *buf, size_t len, pid_t *pids, size_t max,
                      size_t *n) {
  if (buf == NULL || n == NULL || (pids == NULL && max > 0))
    return -EINVAL;
  const char *text = buf;
  size_t pos = 0, count = 0;
  bool overflow = false;
  while (pos < len) {
    const char *line = text + pos;
    const char *nl = memchr(line, '\n', len - pos);
    size_t line_len = nl ? (size_t)(nl - line) : len - pos;
    pos += line_len + (nl ? 1 : 0);
    pid_t pid = drm_clients_row_pid(line, line_len);
    if (pid <= 0)
      continue;
    if (count == max) {
      overflow = true;
      continue;
    }
    pids[count++] = pid;
  }
  *n = count;
  return overflow ? -E2BIG : 0;
}
