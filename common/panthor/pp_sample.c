/*
 * pp_sample.c: the sample walk (panthor_drm.h: drm_panthor_perf_sample_header,
 * drm_panthor_perf_block_header; panthor_perf.c: session_populate_sample).
 * Offsets come from perf_info (pp_info.c validated them: the whole walk is
 * at most PP_MAX_SAMPLE_SIZE), so the only buffer check is len >=
 * walk_size; each block header is then checked against perf_info's counts.
 */
#include "common/panthor/pp_sample.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

static int pp_sample_fail(struct pp_sample *out, struct pp_error *err,
                          const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int pp_sample_fail(struct pp_sample *out, struct pp_error *err,
                          const char *fmt, ...) {
  memset(out, 0, sizeof(*out));
  if (err != NULL) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof(err->message), fmt, ap);
    va_end(ap);
  }
  return -EINVAL;
}

void pp_sample_block(const struct pp_sample *s, uint32_t i,
                     struct pp_block_view *out) {
  const uint8_t *p = s->blocks + (size_t)i * s->block_size;
  struct pp_block_header h;
  memcpy(&h, p, sizeof(h));
  out->type = pp_block_from_raw(s->layout, h.block_type);
  out->raw_type = h.block_type;
  out->idx = h.block_idx;
  out->states = h.block_states;
  out->clock = h.clock;
  out->enable_mask[0] = h.enable_mask[0];
  out->enable_mask[1] = h.enable_mask[1];
  out->counters = p + s->block_header_size;
}

int pp_sample_decode(const struct pp_info *info, const void *buf, size_t len,
                     struct pp_sample *out, struct pp_error *err) {
  if (info->layout == PP_LAYOUT_NONE || info->n_blocks == 0 ||
      info->walk_size == 0)
    return pp_sample_fail(out, err, "no perf_info to walk the sample by");
  if (buf == NULL || len < info->walk_size)
    return pp_sample_fail(out, err,
                          "sample of %zu bytes: perf_info describes %u", len,
                          info->walk_size);
  const uint8_t *p = buf;
  struct pp_sample_header h;
  memcpy(&h, p, sizeof(h));
  out->timestamp_start_ns = h.timestamp_start_ns;
  out->timestamp_end_ns = h.timestamp_end_ns;
  out->block_set = h.block_set;
  out->flags = h.flags;
  out->user_data = h.user_data;
  out->toplevel_cycles = h.toplevel_clock_cycles;
  out->coregroup_cycles = h.coregroup_clock_cycles;
  out->shader_cycles = h.shader_clock_cycles;
  out->blocks = p + info->sample_header_size;
  out->n_blocks = info->n_blocks;
  out->block_size = info->block_size;
  out->block_header_size = info->block_header_size;
  out->counters_per_block = info->counters_per_block;
  out->layout = info->layout;
  uint32_t seen[PP_BLOCK_COUNT] = {0};
  for (uint32_t i = 0; i < out->n_blocks; i++) {
    const uint8_t *b = out->blocks + (size_t)i * out->block_size;
    uint8_t raw = b[0], idx = b[1];
    enum pp_block t = pp_block_from_raw(info->layout, raw);
    if (t == PP_BLOCK_UNKNOWN)
      return pp_sample_fail(out, err,
                            "block %u: type %u is not in the %s "
                            "layout",
                            i, raw, pp_layout_name(info->layout));
    if (idx >= info->blocks[t] || seen[t] >= info->blocks[t])
      return pp_sample_fail(out, err,
                            "block %u: %s %u beyond the %u perf_info reports",
                            i, pp_block_name(t), idx, info->blocks[t]);
    seen[t]++;
  }
  return 0;
}
