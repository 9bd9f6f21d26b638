/*
 * i915_stream.c: the stream reader (i915_stream.h), after
 * i915_perf_read() in drivers/gpu/drm/i915/i915_perf.c: whole records,
 * -ENOSPC only when nothing was copied, -EAGAIN when empty on a
 * non-blocking fd, -EIO when disabled.
 */
#include "common/i915/i915_stream.h"
#include "common/i915/i915_uapi.h"

#include <errno.h>
#include <stdlib.h>

void i915_stream_init(struct i915_stream *s, size_t cap0) {
  s->fd = -1;
  s->buf = NULL;
  s->cap = cap0 != 0 ? cap0 : I915_STREAM_BUF_INIT;
  s->reads = s->bytes = 0;
}

int i915_stream_attach(const struct kernel_ops *k, struct i915_stream *s,
                       int fd) {
  i915_stream_close(k, s);
  if (s->buf == NULL && (s->buf = malloc(s->cap)) == NULL) {
    k->close(fd);
    return -ENOMEM;
  }
  s->fd = fd;
  return 0;
}

/* Double the buffer (the contents are not kept: nothing is pending). */
static int grow(struct i915_stream *s) {
  if (s->cap >= I915_STREAM_BUF_MAX)
    return -ENOSPC;
  size_t cap =
      s->cap * 2 > I915_STREAM_BUF_MAX ? I915_STREAM_BUF_MAX : s->cap * 2;
  uint8_t *buf = malloc(cap);
  if (buf == NULL)
    return -ENOMEM;
  free(s->buf);
  s->buf = buf;
  s->cap = cap;
  return 0;
}

int64_t i915_stream_drain(const struct kernel_ops *k, struct i915_stream *s,
                          i915_stream_fn fn, void *ctx) {
  if (s->fd < 0)
    return -EBADF;
  int64_t total = 0;
  while (total < (int64_t)I915_STREAM_DRAIN_MAX) {
    ssize_t n = kernel_read_retry(k, s->fd, s->buf, s->cap);
    if (n < 0) {
      int err = errno;
      if (err == EAGAIN || err == EWOULDBLOCK)
        break;
      if (err == ENOSPC) {
        int rc = grow(s);
        if (rc < 0)
          return rc;
        continue;
      }
      return -err;
    }
    if (n == 0)
      break; /* not something i915 does; nothing more to read anyway */
    s->reads++;
    s->bytes += (uint64_t)n;
    total += n;
    fn(ctx, s->buf, (size_t)n);
  }
  return total;
}

uint64_t i915_stream_drain_interval_ns(size_t report_size, uint64_t period_ns) {
  if (report_size == 0)
    return 0;
  /* reports the buffer holds / (periodic + context-switch reports per
   * ns), halved: capacity * 1e9 * period / (1e9 + ctx_rate * period) / 2,
   * or capacity * 1e9 / ctx_rate / 2 without a period */
  unsigned __int128 cap = I915_UAPI_OA_BUFFER_SIZE / report_size;
  unsigned __int128 fill;
  if (period_ns == 0)
    fill = cap * 1000000000u / I915_STREAM_CTX_SWITCH_RATE;
  else
    fill = cap * 1000000000u * period_ns /
           (1000000000u +
            (unsigned __int128)I915_STREAM_CTX_SWITCH_RATE * period_ns);
  fill /= 2;
  return fill > UINT64_MAX ? UINT64_MAX : (uint64_t)fill;
}

void i915_stream_close(const struct kernel_ops *k, struct i915_stream *s) {
  if (s->fd >= 0)
    k->close(s->fd);
  s->fd = -1;
}

void i915_stream_fini(const struct kernel_ops *k, struct i915_stream *s) {
  i915_stream_close(k, s);
  free(s->buf);
  s->buf = NULL;
}
