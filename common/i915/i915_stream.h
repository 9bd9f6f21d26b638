/*
 * i915_stream.h: reading an i915 perf stream fd (i915_perf.c:
 * i915_perf_read). The reopen of a failed stream is paced by
 * common/core/devsession.
 *
 * A drain reads the non-blocking fd until EAGAIN into one buffer that
 * holds many records; the kernel copies whole records only, so every
 * chunk handed on is a sequence of complete records (a short read just
 * ends a chunk). ENOSPC (the next record is larger than the buffer) grows
 * the buffer by doubling up to I915_STREAM_BUF_MAX. In steady state a
 * drain allocates nothing.
 */
#ifndef COMMON_I915_I915_STREAM_H
#define COMMON_I915_I915_STREAM_H

#include "common/core/kernel.h"

#include <stddef.h>
#include <stdint.h>

#define I915_STREAM_BUF_INIT (128u << 10) /* ~480 records of 264 bytes */
#define I915_STREAM_BUF_MAX (1u << 20)    /* records are at most 64 KiB */
/* A drain stops after this many bytes even without EAGAIN, so a stream
 * that never runs dry cannot hold a read forever: twice the OA buffer. */
#define I915_STREAM_DRAIN_MAX (32u << 20)

struct i915_stream {
  int fd;                /* the stream fd (owned), -1 when closed */
  uint8_t *buf;          /* owned; kept across close and reopen */
  size_t cap;            /* bytes at buf */
  uint64_t reads, bytes; /* successful read() calls and bytes, cumulative */
};

/* Closed, with no buffer yet (`cap0` bytes at the first attach; 0 means
 * I915_STREAM_BUF_INIT). */
void i915_stream_init(struct i915_stream *s, size_t cap0);

/* Take over stream fd `fd` (closing any previous one) and make sure the
 * buffer exists: 0, or -ENOMEM (fd then closed). */
int i915_stream_attach(const struct kernel_ops *k, struct i915_stream *s,
                       int fd);

/* Called with each chunk of whole records read (the decoder skips what
 * it finds malformed; nothing it does stops the drain). */
typedef void (*i915_stream_fn)(void *ctx, const uint8_t *data, size_t len);

/* Read until EAGAIN (or I915_STREAM_DRAIN_MAX bytes), retrying EINTR,
 * growing the buffer on ENOSPC: the bytes drained (>= 0), or -errno of a read
 * that failed (EIO: the stream is disabled or dead; ENODEV: the device is gone;
 * -ENOSPC when a record exceeds I915_STREAM_BUF_MAX; -ENOMEM). -EBADF when
 * closed. */
int64_t i915_stream_drain(const struct kernel_ops *k, struct i915_stream *s,
                          i915_stream_fn fn, void *ctx);

/* Context-switch reports a drain interval allows for, per second. A
 * system-wide OA stream forwards one report at every context switch on
 * top of the periodic ones (i915_perf.c: gen8_append_oa_reports forwards
 * every report when no context is filtered), at a rate no period bounds;
 * 20000/s is above what desktops and servers switch contexts at. */
#define I915_STREAM_CTX_SWITCH_RATE 20000u

/* How often a stream of `report_size`-byte reports taken every
 * `period_ns`, plus I915_STREAM_CTX_SWITCH_RATE context-switch reports a
 * second, must be drained so the 16 MiB OA buffer never overflows: half
 * the time it takes to fill (the plugin_ops drain hook's interval). 0
 * when report_size is 0; a period of 0 (not periodic) counts the
 * context-switch reports alone. Pure. */
uint64_t i915_stream_drain_interval_ns(size_t report_size, uint64_t period_ns);

/* Close the fd (the buffer stays). */
void i915_stream_close(const struct kernel_ops *k, struct i915_stream *s);

/* Close and free the buffer. */
void i915_stream_fini(const struct kernel_ops *k, struct i915_stream *s);

#endif
