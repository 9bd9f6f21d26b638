/* oa_report.c: OA report decoding and the stream record walk. */
#include "common/i915/oa_report.h"

#include "common/core/le.h"

#include <string.h>

void oa_report_decode(const struct oa_format *fmt, int gen12,
                      const uint8_t *raw, struct oa_report *out) {
  /* gen12 < 0: HSW, no reason field (oa_accum.h: OA_REASON_NONE) */
  uint32_t mask = gen12 < 0 ? 0 : gen12 ? 0x7F : 0x3F;
  if (fmt->header64) {
    /* id u64 @0, timestamp u64 @8, ctx u32 @16, clock u64 @24 */
    out->reason = (uint32_t)(le64(raw) >> 19) & mask;
    out->timestamp = le64(raw + 8);
    out->ctx_id = le32(raw + 16);
    out->clock = le64(raw + 24);
  } else {
    out->reason = (le32(raw) >> 19) & mask;
    out->timestamp = le32(raw + 4);
    out->ctx_id = le32(raw + 8);
    out->clock = fmt->has_clock ? le32(raw + 12) : 0;
  }
  for (unsigned i = 0; i < fmt->n_counters; i++) {
    const struct oa_counter *c = &fmt->counters[i];
    uint64_t v;
    if (c->width == 64)
      v = le64(raw + c->low);
    else if (c->width == 40)
      v = le32(raw + c->low) | (uint64_t)raw[c->high] << 32;
    else
      v = le32(raw + c->low);
    out->values[i] = v;
  }
}

static uint32_t header_type(const uint8_t *p) { return le32(p); }
static uint16_t header_size(const uint8_t *p) {
  return (uint16_t)(p[6] | p[7] << 8);
}

void oa_records_walk(const struct oa_format *fmt, const uint8_t *buf,
                     size_t len, const struct oa_walk_ops *ops, void *ctx,
                     struct oa_walk_result *res) {
  memset(res, 0, sizeof *res);
  size_t off = 0;
  while (off < len) {
    size_t left = len - off;
    if (left < sizeof(struct drm_i915_perf_record_header)) {
      res->error = "truncated record header";
      break;
    }
    const uint8_t *rec = buf + off;
    uint32_t type = header_type(rec);
    size_t size = header_size(rec);
    if (size == 0) {
      res->error = "record size 0";
      break;
    }
    if (size < sizeof(struct drm_i915_perf_record_header)) {
      res->error = "record size below its 8-byte header";
      break;
    }
    if (size > left) {
      res->error = "record larger than the bytes left";
      break;
    }
    if (type == DRM_I915_PERF_RECORD_SAMPLE) {
      if (size !=
          sizeof(struct drm_i915_perf_record_header) + (size_t)fmt->size) {
        res->error = "sample size does not match the report format";
        break;
      }
      res->samples++;
      if (ops->sample)
        ops->sample(ctx, rec + sizeof(struct drm_i915_perf_record_header));
    } else if (type == DRM_I915_PERF_RECORD_OA_REPORT_LOST ||
               type == DRM_I915_PERF_RECORD_OA_BUFFER_LOST) {
      if (type == DRM_I915_PERF_RECORD_OA_REPORT_LOST)
        res->report_lost++;
      else
        res->buffer_lost++;
      if (ops->status)
        ops->status(ctx, type);
    } else {
      res->unknown++;
    }
    off += size;
  }
  if (res->error != NULL)
    res->error_offset = off;
}
