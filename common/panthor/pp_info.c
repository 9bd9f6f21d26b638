/*
 * pp_info.c: PERF_INFO of both layouts normalised and validated, the block
 * type tables, and SETUP encoded per layout (structs in pp_uapi.h, after
 * each series' include/uapi/drm/panthor_drm.h: drm_panthor_perf_info,
 * drm_panthor_perf_cmd_setup).
 */
#include "common/panthor/pp_info.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

static int pp_fail(struct pp_error *err, int rc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int pp_fail(struct pp_error *err, int rc, const char *fmt, ...) {
  if (err != NULL) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof(err->message), fmt, ap);
    va_end(ap);
  }
  return rc;
}

static const char *const pp_block_names[] = {"fw",    "csg",    "cshw",
                                             "tiler", "memsys", "shader"};

const char *pp_block_name(enum pp_block b) {
  return (unsigned)b < PP_BLOCK_COUNT ? pp_block_names[b] : "unknown";
}

enum pp_block pp_block_parse(const char *name) {
  for (unsigned b = 0; b < PP_BLOCK_COUNT; b++)
    if (strcasecmp(name, pp_block_names[b]) == 0)
      return (enum pp_block)b;
  return PP_BLOCK_UNKNOWN;
}

enum pp_block pp_block_from_raw(enum pp_layout layout, uint8_t raw) {
  static const enum pp_block rfc_v2[] = {
      PP_BLOCK_UNKNOWN, PP_BLOCK_FW,     PP_BLOCK_CSG,   PP_BLOCK_CSHW,
      PP_BLOCK_TILER,   PP_BLOCK_MEMSYS, PP_BLOCK_SHADER};
  static const enum pp_block v6[] = {PP_BLOCK_UNKNOWN, /* METADATA */
                                     PP_BLOCK_FW,      PP_BLOCK_CSHW,
                                     PP_BLOCK_TILER,   PP_BLOCK_MEMSYS,
                                     PP_BLOCK_SHADER};
  if (layout == PP_LAYOUT_RFC_V2 && raw < sizeof(rfc_v2) / sizeof(rfc_v2[0]))
    return rfc_v2[raw];
  if (layout == PP_LAYOUT_V6 && raw < sizeof(v6) / sizeof(v6[0]))
    return v6[raw];
  return PP_BLOCK_UNKNOWN;
}

const char *pp_layout_name(enum pp_layout layout) {
  return layout == PP_LAYOUT_RFC_V2 ? "rfc-v2"
         : layout == PP_LAYOUT_V6   ? "v6"
                                    : "none";
}

unsigned long pp_info_control_ioctl(enum pp_layout layout) {
  return layout == PP_LAYOUT_RFC_V2 ? PP_IOCTL_PERF_CONTROL_RFC_V2
         : layout == PP_LAYOUT_V6   ? PP_IOCTL_PERF_CONTROL_V6
                                    : 0;
}

/* A header size: at least the struct, at most the limit, 8-aligned (the
 * counters after it are u64). */
static int pp_check_header(const char *what, uint32_t v, uint32_t min,
                           struct pp_error *err) {
  if (v < min || v > PP_MAX_HEADER_SIZE || v % 8 != 0)
    return pp_fail(err, -EINVAL,
                   "perf_info %s %u: expected a multiple of 8 in [%u, %u]",
                   what, v, min, PP_MAX_HEADER_SIZE);
  return 0;
}

/* Sizes and counts, shared by both layouts; fills the derived sizes. */
static int pp_info_check(struct pp_info *in, uint32_t given_sample_size,
                         struct pp_error *err) {
  int rc;
  if ((rc = pp_check_header("sample_header_size", in->sample_header_size,
                            sizeof(struct pp_sample_header), err)) < 0 ||
      (rc = pp_check_header("block_header_size", in->block_header_size,
                            sizeof(struct pp_block_header), err)) < 0)
    return rc;
  if (in->counters_per_block < PP_MIN_COUNTERS_PER_BLOCK ||
      in->counters_per_block > PP_MAX_COUNTERS_PER_BLOCK)
    return pp_fail(err, -EINVAL,
                   "perf_info counters_per_block %u: expected %u to %u",
                   in->counters_per_block, PP_MIN_COUNTERS_PER_BLOCK,
                   PP_MAX_COUNTERS_PER_BLOCK);
  uint64_t n = 0;
  for (unsigned b = 0; b < PP_BLOCK_COUNT; b++) {
    uint32_t max =
        b == PP_BLOCK_FW || b == PP_BLOCK_CSHW ? 1 : PP_MAX_BLOCKS_PER_TYPE;
    if (in->blocks[b] > max)
      return pp_fail(err, -EINVAL, "perf_info %s_blocks %u: at most %u",
                     pp_block_names[b], in->blocks[b], max);
    n += in->blocks[b];
  }
  if (n == 0)
    return pp_fail(err, -EINVAL, "perf_info reports no counter block");
  in->n_blocks = (uint32_t)n;
  in->block_size = in->block_header_size + 8 * in->counters_per_block;
  uint64_t walk = in->sample_header_size + n * in->block_size;
  if (walk > PP_MAX_SAMPLE_SIZE)
    return pp_fail(err, -EINVAL, "perf_info describes a %llu-byte sample",
                   (unsigned long long)walk);
  in->walk_size = (uint32_t)walk;
  if (in->layout == PP_LAYOUT_RFC_V2) {
    in->sample_size = in->walk_size; /* not reported by RFC v2 */
    return 0;
  }
  /* v6 reports it: it must hold what the other fields describe; a larger
   * one (padding) becomes the ring stride. */
  if (given_sample_size < walk || given_sample_size > PP_MAX_SAMPLE_SIZE ||
      given_sample_size % 8 != 0)
    return pp_fail(err, -EINVAL,
                   "perf_info sample_size %u: the blocks need %llu bytes "
                   "(a multiple of 8, at most %u)",
                   given_sample_size, (unsigned long long)walk,
                   PP_MAX_SAMPLE_SIZE);
  in->sample_size = given_sample_size;
  return 0;
}

int pp_info_decode(const void *buf, size_t len, struct pp_info *out,
                   struct pp_error *err) {
  struct pp_info in;
  memset(&in, 0, sizeof(in));
  memset(out, 0, sizeof(*out));
  uint32_t given = 0;
  if (buf != NULL && len == PP_PERF_INFO_SIZE_RFC_V2) {
    struct pp_perf_info_rfc_v2 r;
    memcpy(&r, buf, sizeof(r));
    in.layout = PP_LAYOUT_RFC_V2;
    in.counters_per_block = r.counters_per_block;
    in.sample_header_size = r.sample_header_size;
    in.block_header_size = r.block_header_size;
    in.flags = r.flags;
    in.supported_clocks = r.supported_clocks;
    in.blocks[PP_BLOCK_FW] = r.fw_blocks;
    in.blocks[PP_BLOCK_CSG] = r.csg_blocks;
    in.blocks[PP_BLOCK_CSHW] = r.cshw_blocks;
    in.blocks[PP_BLOCK_TILER] = r.tiler_blocks;
    in.blocks[PP_BLOCK_MEMSYS] = r.memsys_blocks;
    in.blocks[PP_BLOCK_SHADER] = r.shader_blocks;
  } else if (buf != NULL && len == PP_PERF_INFO_SIZE_V6) {
    struct pp_perf_info_v6 r;
    memcpy(&r, buf, sizeof(r));
    in.layout = PP_LAYOUT_V6;
    in.counters_per_block = r.counters_per_block;
    in.sample_header_size = r.sample_header_size;
    in.block_header_size = r.block_header_size;
    given = r.sample_size;
    in.flags = r.flags;
    in.supported_clocks = r.supported_clocks;
    in.blocks[PP_BLOCK_FW] = r.fw_blocks;
    in.blocks[PP_BLOCK_CSHW] = r.cshw_blocks;
    in.blocks[PP_BLOCK_TILER] = r.tiler_blocks;
    in.blocks[PP_BLOCK_MEMSYS] = r.memsys_blocks;
    in.blocks[PP_BLOCK_SHADER] = r.shader_blocks;
  } else {
    return pp_fail(err, -EPROTO,
                   "perf_info of %zu bytes: neither RFC v2 (%u) nor v6 (%u)",
                   len, PP_PERF_INFO_SIZE_RFC_V2, PP_PERF_INFO_SIZE_V6);
  }
  int rc = pp_info_check(&in, given, err);
  if (rc < 0)
    return rc;
  *out = in;
  return 0;
}

int pp_info_setup_format(enum pp_layout layout,
                         const struct pp_setup_request *req, void *buf,
                         size_t *len) {
  uint32_t slots = req->sample_slots;
  if (req->block_set > PP_SET_TERTIARY || slots == 0 ||
      (slots & (slots - 1)) != 0)
    return -EINVAL;
  const uint64_t(*e)[2] = req->enable;
  if (layout == PP_LAYOUT_RFC_V2) {
    struct pp_setup_rfc_v2 s;
    memset(&s, 0, sizeof(s));
    s.block_set = req->block_set;
    s.fd = req->eventfd;
    s.ringbuf_handle = req->ringbuf_handle;
    s.control_handle = req->control_handle;
    s.sample_slots = slots;
    s.control_offset = req->control_offset;
    s.sample_freq_ns = req->sample_freq_ns;
    memcpy(s.fw_enable_mask, e[PP_BLOCK_FW], 16);
    memcpy(s.csg_enable_mask, e[PP_BLOCK_CSG], 16);
    memcpy(s.cshw_enable_mask, e[PP_BLOCK_CSHW], 16);
    memcpy(s.tiler_enable_mask, e[PP_BLOCK_TILER], 16);
    memcpy(s.memsys_enable_mask, e[PP_BLOCK_MEMSYS], 16);
    memcpy(s.shader_enable_mask, e[PP_BLOCK_SHADER], 16);
    memcpy(buf, &s, sizeof(s));
    *len = sizeof(s);
    return 0;
  }
  if (layout != PP_LAYOUT_V6 || e[PP_BLOCK_CSG][0] || e[PP_BLOCK_CSG][1])
    return -EINVAL;
  struct pp_setup_v6 s;
  memset(&s, 0, sizeof(s));
  s.block_set = req->block_set;
  s.fd = req->eventfd;
  s.ringbuf_handle = req->ringbuf_handle;
  s.control_handle = req->control_handle;
  s.sample_slots = slots;
  s.control_offset = req->control_offset;
  s.sample_freq_ns = req->sample_freq_ns;
  memcpy(s.fw_enable_mask, e[PP_BLOCK_FW], 16);
  memcpy(s.cshw_enable_mask, e[PP_BLOCK_CSHW], 16);
  memcpy(s.tiler_enable_mask, e[PP_BLOCK_TILER], 16);
  memcpy(s.memsys_enable_mask, e[PP_BLOCK_MEMSYS], 16);
  memcpy(s.shader_enable_mask, e[PP_BLOCK_SHADER], 16);
  memcpy(buf, &s, sizeof(s));
  *len = sizeof(s);
  return 0;
}

uint64_t pp_info_ring_size(const struct pp_info *info, uint32_t slots,
                           uint64_t page) {
  if (page == 0 || (page & (page - 1)) != 0)
    return 0;
  uint64_t bytes = (uint64_t)info->sample_size * slots; /* < 2^56 */
  if (bytes > UINT64_MAX - (page - 1))
    return 0;
  return (bytes + page - 1) & ~(page - 1);
}
