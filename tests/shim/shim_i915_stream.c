/*
 * shim_i915_stream.c: the i915 perf stream fd of the shim (shim_i915.h):
 * report generation in every format (the layouts of i915_drm.h's
 * drm_i915_oa_format as common/i915/oa_format.c reads them) and read()
 * as i915_perf.c: i915_perf_read -> gen8_oa_read does it: status records
 * first, whole records only (append_oa_sample), ENOSPC when the first
 * record does not fit, a short read when a later one does not, EAGAIN
 * when empty on a non-blocking fd, EIO once the stream is disabled or
 * dead. The reports are scripted, not timed (shim_i915.h).
 */
#include "common/i915/i915_uapi.h"
#include "tests/shim/shim_i915_int.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>

#define SHIM_I915_STATUS_MAX 3 /* status records a batch may start with */

struct shim_i915_stream {
  struct shim_i915_dev *dev; /* static storage, outlives the stream */
  uint32_t format;
  size_t size;   /* report bytes */
  bool enabled;  /* ENABLE/DISABLE ioctls */
  bool dead;     /* EIO for good (scripted) */
  bool armed;    /* the next read with nothing pending makes a batch */
  uint8_t *pend; /* the batch being delivered */
  size_t *rec_len;
  size_t n_rec, i_rec, off;
  size_t cap_rec; /* records pend and rec_len can hold */
};

static void put32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static void put64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }

/* Counter `i`'s value at report `r`, modulo 2^bits. */
static uint64_t counter(const struct shim_i915_scenario *s, size_t i,
                        uint64_t r, unsigned bits) {
  uint64_t v = s->a_start[i] + r * s->a_step[i];
  return bits == 64 ? v : v & ((UINT64_C(1) << bits) - 1);
}

/* A 40-bit counter: low 32 bits at `lo`, high byte at `hi`. */
static void put40(uint8_t *out, size_t lo, size_t hi, uint64_t v) {
  put32(out + lo, (uint32_t)v);
  out[hi] = (uint8_t)(v >> 32);
}

static void put_bc(const struct shim_i915_scenario *s, uint64_t r, uint8_t *out,
                   size_t b, size_t c) {
  for (size_t i = 0; i < SHIM_I915_BC; i++) {
    put32(out + b + 4 * i, (uint32_t)(r * s->b_step[i]));
    put32(out + c + 4 * i, (uint32_t)(r * s->c_step[i]));
  }
}

void shim_i915_report_write(const struct shim_i915_scenario *s, uint64_t r,
                            uint32_t format, size_t size, uint8_t *out) {
  memset(out, 0, size);
  bool ctx_switch = s->ctx_every != 0 && r > 0 && r % s->ctx_every == 0;
  uint32_t reason = ctx_switch ? 1u << 3 : 1u << 0; /* ctx switch : timer */
  uint32_t ctx = 0x100 + (uint32_t)(s->ctx_every ? r / s->ctx_every : 0);
  uint64_t ts = (uint64_t)s->ts_start + r * s->ts_step;
  uint64_t clk = (uint64_t)s->clk_start + r * s->clk_step;
  bool mpec64 = format == I915_UAPI_OAM_FORMAT_MPEC8u64_B8_C8;
  if (mpec64 || format == I915_UAPI_OAM_FORMAT_MPEC8u32_B8_C8) {
    /* OAM: 64-bit header */
    put64(out, (uint64_t)reason << 19);
    put64(out + 8, ts);
    put32(out + 16, ctx);
    put64(out + 24, clk);
    for (size_t i = 0; i < 8; i++) {
      if (mpec64)
        put64(out + 32 + 8 * i, counter(s, i, r, 64));
      else
        put32(out + 32 + 4 * i, (uint32_t)counter(s, i, r, 32));
    }
    if (mpec64)
      put_bc(s, r, out, 96, 128);
    else
      put_bc(s, r, out, 64, 96);
    return;
  }
  put32(out, reason << 19 | 1u << 16 /* ctx valid */);
  put32(out + 4, (uint32_t)ts);
  if (format ==
      I915_OA_FORMAT_A45_B8_C8) { /* HSW A45: A0 takes the clock-ticks dword */
    for (size_t i = 0; i < 45; i++)
      put32(out + 12 + 4 * i, (uint32_t)counter(s, i < SHIM_I915_A ? i : 0,
                                                i < SHIM_I915_A ? r : 0, 32));
    put_bc(s, r, out, 192, 224);
    return;
  }
  put32(out + 8, ctx);
  put32(out + 12, (uint32_t)clk);
  if (format == I915_OA_FORMAT_A32u40_A4u32_B8_C8 ||
      format == I915_UAPI_OAR_FORMAT_A32u40_A4u32_B8_C8) {
    for (size_t i = 0; i < 32; i++)
      put40(out, 16 + 4 * i, 160 + i, counter(s, i, r, 40));
    for (size_t i = 32; i < 36; i++)
      put32(out + 16 + 4 * i, (uint32_t)counter(s, i, r, 32));
    put_bc(s, r, out, 192, 224);
  } else if (format == I915_UAPI_OA_FORMAT_A24u40_A14u32_B8_C8) {
    for (size_t i = 0; i < 37; i++) {
      bool wide = (i >= 4 && i < 24) || (i >= 28 && i < 32);
      if (wide)
        put40(out, 16 + 4 * i, 160 + i, counter(s, i, r, 40));
      else
        put32(out + 16 + 4 * i, (uint32_t)counter(s, i, r, 32));
    }
    put32(out + 184, (uint32_t)counter(s, 37, r, 32));
    put_bc(s, r, out, 192, 224);
  } else if (format == I915_OA_FORMAT_A12 ||
             format == I915_OA_FORMAT_A12_B8_C8) {
    /* A12[_B8_C8]: A7..A18 from byte 12, over the clock dword (igt
     * tests/intel/perf.c: gen8_oa_formats) */
    for (size_t i = 0; i < 12; i++)
      put32(out + 12 + 4 * i, (uint32_t)counter(s, 7 + i, r, 32));
    if (format == I915_OA_FORMAT_A12_B8_C8)
      put_bc(s, r, out, 64, 96);
  }
}

/* Append a record of `len` bytes (header type/size, then `report`). */
static void push(struct shim_i915_stream *st, uint32_t type, uint16_t size,
                 size_t len) {
  uint8_t *p = st->pend + st->off;
  put32(p, type);
  memset(p + 4, 0, 2);
  memcpy(p + 6, &size, 2);
  st->rec_len[st->n_rec++] = len;
  st->off += len;
}

/* The next batch of the device's scenario into st->pend: -1/EIO when the
 * script kills the stream here. Called with dev->lock held. */
static int batch(struct shim_i915_stream *st) {
  struct shim_i915_dev *dev = st->dev;
  const struct shim_i915_scenario *s = &dev->s;
  unsigned n = dev->stats.batches + 1;
  dev->stats.batches = n;
  if (s->eio_at == n) {
    st->dead = true;
    errno = EIO;
    return -1;
  }
  size_t need = SHIM_I915_STATUS_MAX + (size_t)s->reports + 1;
  if (need > st->cap_rec) {
    uint8_t *p = realloc(st->pend, need * (8 + st->size));
    size_t *l = p ? realloc(st->rec_len, need * sizeof(size_t)) : NULL;
    if (p != NULL)
      st->pend = p;
    if (l == NULL) {
      errno = ENOMEM;
      return -1;
    }
    st->rec_len = l;
    st->cap_rec = need;
  }
  st->n_rec = st->i_rec = st->off = 0;
  /* the kernel checks the OA status register before any sample
   * (i915_perf.c: gen8_oa_read); at an overflow it restarts the unit with
   * an empty buffer, and the reports written over meanwhile are gone: the
   * counters moved on by buffer_lost_gap reports */
  if (s->buffer_lost_at == n) {
    push(st, DRM_I915_PERF_RECORD_OA_BUFFER_LOST, 8, 8);
    dev->stats.reports += s->buffer_lost_gap;
  }
  if (s->lost_every != 0 && n % s->lost_every == 0)
    push(st, DRM_I915_PERF_RECORD_OA_REPORT_LOST, 8, 8);
  for (unsigned i = 0; i < s->reports; i++) {
    shim_i915_report_write(s, dev->stats.reports++, st->format, st->size,
                           st->pend + st->off + 8);
    push(st, DRM_I915_PERF_RECORD_SAMPLE, (uint16_t)(8 + st->size),
         8 + st->size);
    if (i == 0 && s->corrupt_at == n)
      push(st, DRM_I915_PERF_RECORD_SAMPLE, 0,
           8); /* what a broken kernel might hand out */
  }
  return 0;
}

static ssize_t stream_read(struct shim_file *f, void *buf, size_t len) {
  struct shim_i915_stream *st = f->data;
  struct shim_i915_dev *dev = st->dev;
  pthread_mutex_lock(&dev->lock);
  dev->stats.reads++;
  ssize_t rc = -1;
  int err = 0;
  if (st->dead || !st->enabled) {
    err = EIO;
    goto out;
  }
  if (st->i_rec == st->n_rec) {
    if (!st->armed) { /* this drain is over */
      st->armed = true;
      err = EAGAIN;
      goto out;
    }
    st->armed = false;
    if (batch(st) < 0) {
      err = errno;
      goto out;
    }
  }
  size_t used = 0, copied = 0, from = 0;
  for (size_t i = 0; i < st->i_rec; i++)
    from += st->rec_len[i];
  while (st->i_rec < st->n_rec && used + st->rec_len[st->i_rec] <= len &&
         (st->dev->s.max_records == 0 || copied < st->dev->s.max_records)) {
    memcpy((uint8_t *)buf + used, st->pend + from + used,
           st->rec_len[st->i_rec]);
    used += st->rec_len[st->i_rec++];
    copied++;
  }
  if (copied == 0) {
    err = ENOSPC;
    goto out;
  }
  rc = (ssize_t)used;
out:
  shim_file_set_ready(f, st->i_rec < st->n_rec || st->armed);
  pthread_mutex_unlock(&dev->lock);
  if (rc < 0)
    errno = err;
  return rc;
}

static int stream_ioctl(struct shim_file *f, unsigned long request, void *arg) {
  struct shim_i915_stream *st = f->data;
  switch (request) {
  case I915_PERF_IOCTL_ENABLE:
    st->enabled = true;
    return 0;
  case I915_PERF_IOCTL_DISABLE:
    st->enabled = false;
    return 0;
  case I915_PERF_IOCTL_CONFIG: { /* arg is the id itself */
    uint64_t id = (uintptr_t)arg;
    pthread_mutex_lock(&st->dev->lock);
    bool known = false;
    for (size_t i = 0; i < st->dev->n_configs; i++)
      known |= st->dev->configs[i].id == id;
    pthread_mutex_unlock(&st->dev->lock);
    if (!known) {
      errno = EINVAL;
      return -1;
    }
    return 0;
  }
  default:
    errno = EINVAL; /* every other (i915_perf.c: i915_perf_ioctl_locked) */
    return -1;
  }
}

static short stream_poll(struct shim_file *f) {
  struct shim_i915_stream *st = f->data;
  pthread_mutex_lock(&st->dev->lock);
  shim_file_set_ready(f, st->i_rec < st->n_rec || st->armed);
  pthread_mutex_unlock(&st->dev->lock);
  return POLLIN | POLLRDNORM;
}

static void stream_release(struct shim_file *f) {
  struct shim_i915_stream *st = f->data;
  pthread_mutex_lock(&st->dev->lock);
  st->dev->unit_busy = false;
  st->dev->stats.streams_open--;
  pthread_mutex_unlock(&st->dev->lock);
  free(st->pend);
  free(st->rec_len);
  free(st);
  f->data = NULL;
}

static const struct shim_file_ops shim_i915_stream_ops = {
    .name = "i915-perf",
    .read = stream_read,
    .ioctl = stream_ioctl,
    .poll = stream_poll,
    .release = stream_release,
};

int shim_i915_stream_new(struct shim_i915_dev *dev, uint32_t format,
                         size_t size, uint32_t flags) {
  struct shim_i915_stream *st = calloc(1, sizeof *st);
  if (st == NULL) {
    errno = ENOMEM;
    return -1;
  }
  st->dev = dev;
  st->format = format;
  st->size = size;
  st->enabled = !(flags & 4); /* I915_PERF_FLAG_DISABLED */
  st->armed = true;
  int fd =
      shim_file_new(&shim_i915_stream_ops, st,
                    (flags & 1 ? O_CLOEXEC : 0) | (flags & 2 ? O_NONBLOCK : 0));
  if (fd < 0) {
    free(st);
    return -1;
  }
  dev->unit_busy = true;
  dev->stats.streams_open++;
  return fd;
}
