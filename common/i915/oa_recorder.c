/* oa_recorder.c: the i915-perf-recorder file parser (igt
 * tools/i915-perf/i915_perf_recorder.c writes it, lib/i915/perf_data.h
 * defines its records, lib/i915/perf_data_reader.c: parse_data reads it). */
#include "common/i915/oa_recorder.h"

#include "common/i915/oa_report.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void oa_rec_parser_init(struct oa_rec_parser *p, const struct oa_rec_ops *ops,
                        void *ctx) {
  memset(p, 0, sizeof(*p));
  p->ops = ops;
  p->ctx = ctx;
}

static uint32_t ld32(const uint8_t *b) {
  return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
         (uint32_t)b[3] << 24;
}

static uint64_t ld64(const uint8_t *b) {
  return (uint64_t)ld32(b) | (uint64_t)ld32(b + 4) << 32;
}

static long fail(struct oa_rec_parser *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static long fail(struct oa_rec_parser *p, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(p->error, sizeof(p->error), fmt, ap);
  va_end(ap);
  p->error_offset = p->offset;
  return -1;
}

/* A fixed-size char field of the file, cut at its first NUL. */
static void copy_text(char *out, size_t cap, const uint8_t *in, size_t len) {
  size_t n = strnlen((const char *)in, len < cap - 1 ? len : cap - 1);
  memcpy(out, in, n);
  out[n] = '\0';
}

static int device_info(struct oa_rec_parser *p, const uint8_t *b) {
  struct oa_rec_device_info d;
  d.timestamp_frequency = ld64(b);
  d.device_id = ld32(b + 8);
  d.device_revision = ld32(b + 12);
  d.gt_min_frequency = ld32(b + 16);
  d.gt_max_frequency = ld32(b + 20);
  d.engine_class = ld32(b + 24);
  d.engine_instance = ld32(b + 28);
  d.oa_format = ld32(b + 32);
  copy_text(d.metric_set_name, sizeof(d.metric_set_name), b + 36, 256);
  copy_text(d.metric_set_uuid, sizeof(d.metric_set_uuid), b + 292, 40);
  const struct oa_format *fmt = oa_format_get(d.oa_format);
  if (fmt == NULL)
    return (int)fail(p, "DEVICE_INFO: unknown OA format %u", d.oa_format);
  if (d.timestamp_frequency == 0)
    return (int)fail(p, "DEVICE_INFO: timestamp frequency 0");
  /* One stream per file: what decodes the reports may not change. */
  if (p->fmt != NULL && fmt != p->fmt)
    return (int)fail(p,
                     "DEVICE_INFO: OA format %u after %u earlier in the file "
                     "(the reports would be decoded with the wrong layout)",
                     d.oa_format, p->fmt->id);
  if (p->fmt != NULL && d.timestamp_frequency != p->timestamp_frequency)
    return (int)fail(p,
                     "DEVICE_INFO: timestamp frequency %llu Hz after %llu Hz "
                     "earlier in the file",
                     (unsigned long long)d.timestamp_frequency,
                     (unsigned long long)p->timestamp_frequency);
  if (p->fmt != NULL && d.device_id != p->device_id)
    return (int)fail(p,
                     "DEVICE_INFO: device id 0x%04x after 0x%04x earlier in "
                     "the file",
                     (unsigned)d.device_id, (unsigned)p->device_id);
  p->fmt = fmt;
  p->timestamp_frequency = d.timestamp_frequency;
  p->device_id = d.device_id;
  if (p->ops->device_info)
    p->ops->device_info(p->ctx, &d);
  return 0;
}

/* One whole record of `size` bytes at `r`. */
static int record(struct oa_rec_parser *p, const uint8_t *r, uint32_t type,
                  size_t size) {
  const uint8_t *body = r + sizeof(struct drm_i915_perf_record_header);
  size_t body_len = size - sizeof(struct drm_i915_perf_record_header);
  if (!p->have_version && type != OA_REC_VERSION)
    return (int)fail(p, "the file does not start with a VERSION record "
                        "(not an i915-perf-recorder file?)");
  switch (type) {
  case OA_REC_VERSION:
    if (size != 16)
      return (int)fail(p, "VERSION record of %zu bytes (16 expected)", size);
    if (ld32(body) != 1)
      return (int)fail(p, "recorder file version %u (only version 1 is read)",
                       ld32(body));
    p->have_version = true;
    return 0;
  case OA_REC_DEVICE_INFO:
    if (size != OA_REC_DEVICE_INFO_SIZE)
      return (int)fail(p, "DEVICE_INFO record of %zu bytes (%u expected)", size,
                       OA_REC_DEVICE_INFO_SIZE);
    return device_info(p, body);
  case OA_REC_DEVICE_TOPOLOGY:
    if (p->ops->topology)
      p->ops->topology(p->ctx, body, body_len);
    return 0;
  case OA_REC_TIMESTAMP_CORRELATION:
    if (size != 24)
      return (int)fail(p, "TIMESTAMP_CORRELATION of %zu bytes (24 expected)",
                       size);
    if (p->ops->correlation)
      p->ops->correlation(p->ctx, ld64(body), ld64(body + 8));
    return 0;
  case DRM_I915_PERF_RECORD_SAMPLE:
    if (p->fmt == NULL)
      return (int)fail(p,
                       "a SAMPLE before DEVICE_INFO (report format unknown)");
    if (body_len != p->fmt->size)
      return (int)fail(p, "SAMPLE of %zu bytes (%u for format %s)", size,
                       8u + p->fmt->size, p->fmt->name);
    if (p->ops->sample)
      p->ops->sample(p->ctx, body);
    return 0;
  case DRM_I915_PERF_RECORD_OA_REPORT_LOST:
  case DRM_I915_PERF_RECORD_OA_BUFFER_LOST:
    if (p->ops->status)
      p->ops->status(p->ctx, type);
    return 0;
  default:
    return (int)fail(p, "unknown record type 0x%x", type);
  }
}

long oa_rec_parse(struct oa_rec_parser *p, const uint8_t *data, size_t len,
                  bool eof) {
  if (p->error[0] != '\0')
    return -1;
  size_t at = 0;
  while (len - at >= sizeof(struct drm_i915_perf_record_header)) {
    const uint8_t *r = data + at;
    uint32_t type = ld32(r);
    size_t size = (size_t)r[6] | (size_t)r[7] << 8;
    if (size < sizeof(struct drm_i915_perf_record_header))
      return fail(p, "record size %zu, below its 8-byte header", size);
    if (size > len - at)
      break; /* the rest comes with the next piece */
    if (record(p, r, type, size) < 0)
      return -1;
    at += size;
    p->offset += size;
  }
  if (eof && at < len)
    return fail(p, "truncated record (%zu of its bytes before the end)",
                len - at);
  return (long)at;
}

int oa_rec_read_fd(int fd, struct oa_rec_parser *p) {
  /* a record is at most 65535 bytes: a chunk of 1 MiB always holds one */
  const size_t cap = 1u << 20;
  uint8_t *buf = malloc(cap);
  if (buf == NULL)
    return -ENOMEM;
  size_t have = 0;
  int rc = 0;
  for (;;) {
    ssize_t n = read(fd, buf + have, cap - have);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0) {
      rc = -errno;
      break;
    }
    have += (size_t)n;
    long used = oa_rec_parse(p, buf, have, n == 0);
    if (used < 0) {
      rc = -1;
      break;
    }
    memmove(buf, buf + used, have - (size_t)used);
    have -= (size_t)used;
    if (n == 0)
      break;
  }
  free(buf);
  return rc;
}
