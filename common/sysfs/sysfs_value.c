/*
 * sysfs_value.c: the sysfs value decoders (sysfs_value.h).
 */
#include "common/sysfs/sysfs_value.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <sys/types.h>

/* The length without the one trailing newline; -1 when empty or when a
 * newline appears anywhere else. */
static ssize_t sv_body(const char *buf, size_t len) {
  if (len > 0 && buf[len - 1] == '\n')
    len--;
  if (len == 0 || memchr(buf, '\n', len) != NULL)
    return -1;
  return (ssize_t)len;
}

static int sv_digits(const char *p, size_t n, uint64_t *out) {
  if (n == 0)
    return -EINVAL;
  uint64_t v = 0;
  for (size_t i = 0; i < n; i++) {
    if (p[i] < '0' || p[i] > '9')
      return -EINVAL;
    unsigned d = (unsigned)(p[i] - '0');
    if (v > (UINT64_MAX - d) / 10)
      return -ERANGE;
    v = v * 10 + d;
  }
  *out = v;
  return 0;
}

int sysfs_value_u64(const char *buf, size_t len, uint64_t *out) {
  ssize_t n = sv_body(buf, len);
  if (n < 0)
    return -EINVAL;
  return sv_digits(buf, (size_t)n, out);
}

int sysfs_value_s64(const char *buf, size_t len, int64_t *out) {
  ssize_t n = sv_body(buf, len);
  if (n < 0)
    return -EINVAL;
  bool neg = buf[0] == '-';
  uint64_t mag;
  int rc = sv_digits(buf + neg, (size_t)n - neg, &mag);
  if (rc < 0)
    return rc;
  if (neg) {
    if (mag > (uint64_t)INT64_MAX + 1)
      return -ERANGE;
    *out = mag == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)mag;
  } else {
    if (mag > INT64_MAX)
      return -ERANGE;
    *out = (int64_t)mag;
  }
  return 0;
}

int sysfs_value_word(const char *buf, size_t len, char *out, size_t size) {
  ssize_t n = sv_body(buf, len);
  if (n < 0 || size == 0 || (size_t)n >= size)
    return -EINVAL;
  for (ssize_t i = 0; i < n; i++)
    if (buf[i] <= ' ' || buf[i] > '~')
      if (buf[i] != ' ' || i == 0 || i == n - 1)
        return -EINVAL;
  memcpy(out, buf, (size_t)n);
  out[n] = '\0';
  return 0;
}

/* One "N: VALUEMhz[ *]" line of `n` bytes, or the unindexed
 * "   VALUEMhz *" that renoir_ppt.c: renoir_print_clk_levels appends when
 * the current clock matches no level; *current set when marked. */
static int sv_dpm_line(const char *p, size_t n, uint64_t *mhz, bool *current) {
  const char *colon = memchr(p, ':', n);
  const char *v = p, *end = p + n;
  if (colon != NULL) {
    if (colon == p)
      return -EINVAL;
    for (const char *q = p; q < colon; q++)
      if (!((*q >= '0' && *q <= '9') || (*q == 'S' && colon - p == 1)))
        return -EINVAL;
    v = colon + 1;
  } else if (n == 0 || *p != ' ') {
    return -EINVAL; /* no index: only the indented current clock */
  }
  while (v < end && *v == ' ')
    v++;
  const char *d = v;
  while (d < end && *d >= '0' && *d <= '9')
    d++;
  if (sv_digits(v, (size_t)(d - v), mhz) < 0)
    return -EINVAL;
  if (end - d < 3 || (memcmp(d, "Mhz", 3) != 0 && memcmp(d, "MHz", 3) != 0))
    return -EINVAL;
  d += 3;
  *current = false;
  while (d < end && *d == ' ')
    d++;
  if (d < end && *d == '*') {
    *current = true;
    d++;
  }
  while (d < end && *d == ' ')
    d++;
  return d == end ? 0 : -EINVAL;
}

int sysfs_value_dpm_current(const char *buf, size_t len, uint64_t *hz) {
  if (len == 0 || buf[len - 1] != '\n')
    return -EINVAL; /* empty, or cut without its last newline */
  bool found = false;
  uint64_t cur = 0;
  for (size_t pos = 0; pos < len;) {
    const char *nl = memchr(buf + pos, '\n', len - pos);
    size_t n = (size_t)(nl - (buf + pos));
    uint64_t mhz;
    bool mark;
    if (sv_dpm_line(buf + pos, n, &mhz, &mark) < 0)
      return -EINVAL;
    if (mark) {
      /* the SMUs mark each level equal to the current clock
       * (navi10_ppt.c: navi10_print_clk_levels): equal levels may each
       * be marked; two marked clocks that differ are not this format */
      if (mhz > UINT64_MAX / 1000000 || (found && cur != mhz * 1000000))
        return -EINVAL;
      found = true;
      cur = mhz * 1000000;
    }
    pos += n + 1;
  }
  if (!found)
    return -ENOENT;
  *hz = cur;
  return 0;
}
