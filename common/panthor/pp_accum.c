/*
 * pp_accum.c: samples into totals, and the derived metrics with
 * libGPUCounters' equations (ARM-software/libGPUCounters):
 *
 *   GPU active base        GPU_ACTIVE (G715: any-queue active, CSHW 6)
 *   queue active           queued - queue stall; where the product has no
 *                          stall counter (fragment on G720/G725) queued
 *   queue / tiler util %   100 * that / GPU active
 *   fragment / compute %   100 * FRAG_ACTIVE or COMPUTE_ACTIVE /
 *                          SHADER_CORE_ACTIVE (both summed over cores)
 *   ext bytes              beats * bytes_per_beat
 *   bandwidth              bytes / (timestamp_end_ns of the interval's last
 *                          sample - that of the previous interval's last)
 *
 * The read path (pp_accum_update) touches only the counters asked for:
 * per block, a watch list of (index, slot) built at init.
 */
#include "common/panthor/pp_accum.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const char *const pp_int_names[PP_M_INT_COUNT] = {
    "gpu_active_cycles",
    "fragment_queue_active_cycles",
    "compute_queue_active_cycles",
    "tiler_active_cycles",
    "fragment_active_cycles",
    "compute_active_cycles",
    "shader_core_active_cycles",
    "ext_read_bytes",
    "ext_write_bytes",
    "ext_read_stall_cycles",
    "ext_write_stall_cycles",
    "l2_read_lookups",
    "l2_write_lookups",
    "fma_instructions"};

/* Units: cycles of the GPU clock, bytes on the external bus (beats times
 * bytes per beat), and counted occurrences (L2 lookups, FMA instructions
 * issued). */
static const char *const pp_int_ctypes[PP_M_INT_COUNT] = {
    "gpu_cycles", "gpu_cycles", "gpu_cycles", "gpu_cycles", "gpu_cycles",
    "gpu_cycles", "gpu_cycles", "gpu_bytes",  "gpu_bytes",  "gpu_cycles",
    "gpu_cycles", "gpu_events", "gpu_events", "gpu_events"};

static const char *const pp_float_names[PP_M_FLOAT_COUNT] = {
    "fragment_queue_utilization_percent",
    "compute_queue_utilization_percent",
    "tiler_utilization_percent",
    "fragment_utilization_percent",
    "compute_utilization_percent",
    "ext_read_bandwidth",
    "ext_write_bandwidth"};

const char *pp_metric_int_name(enum pp_metric_int m) {
  return (unsigned)m < PP_M_INT_COUNT ? pp_int_names[m] : NULL;
}

const char *pp_metric_int_ctype(enum pp_metric_int m) {
  return (unsigned)m < PP_M_INT_COUNT ? pp_int_ctypes[m] : NULL;
}

const char *pp_metric_float_name(enum pp_metric_float m) {
  return (unsigned)m < PP_M_FLOAT_COUNT ? pp_float_names[m] : NULL;
}

static void pp_watch_add(struct pp_accum *a, struct pp_counter_loc loc,
                         uint16_t slot) {
  if ((unsigned)loc.block >= PP_BLOCK_COUNT)
    return;
  uint32_t *n = &a->n_watch[loc.block];
  a->watch[loc.block][*n].index = (uint16_t)loc.index;
  a->watch[loc.block][*n].slot = slot;
  (*n)++;
}

void pp_accum_fini(struct pp_accum *a) {
  for (uint32_t i = 0; i < a->n_raw; i++)
    free(a->raw[i].per_block);
  memset(a, 0, sizeof(*a));
}

int pp_accum_init(struct pp_accum *a, const struct pp_gpu *gpu,
                  const struct pp_info *info, const struct pp_counter_loc *raw,
                  size_t n_raw, bool per_core) {
  memset(a, 0, sizeof(*a));
  if (n_raw > PP_ACCUM_MAX_RAW)
    return -E2BIG;
  a->bytes_per_beat = gpu->bytes_per_beat;
  for (int id = 0; id < PP_C_COUNT; id++) {
    struct pp_counter_loc *loc = &a->named[id];
    if (pp_counter_locate(gpu->family, (enum pp_counter_id)id, loc) == 0 &&
        (info->blocks[loc->block] == 0 ||
         loc->index >= info->counters_per_block))
      loc->block = PP_BLOCK_UNKNOWN; /* the session has no such counter */
    pp_watch_add(a, *loc, (uint16_t)id);
  }
  for (size_t i = 0; i < n_raw; i++) {
    struct pp_accum_raw *r = &a->raw[a->n_raw++];
    r->loc = raw[i];
    if ((unsigned)r->loc.block < PP_BLOCK_COUNT &&
        (r->loc.index < PP_FIRST_COUNTER ||
         r->loc.index >= info->counters_per_block))
      r->loc.block = PP_BLOCK_UNKNOWN; /* never a header word, never past */
    if (per_core && r->loc.block == PP_BLOCK_SHADER &&
        info->blocks[PP_BLOCK_SHADER] > 0) {
      r->n_per_block = info->blocks[PP_BLOCK_SHADER];
      r->per_block = calloc(r->n_per_block, sizeof(*r->per_block));
      if (r->per_block == NULL) {
        pp_accum_fini(a);
        return -ENOMEM;
      }
    }
    pp_watch_add(a, r->loc, (uint16_t)(PP_C_COUNT + i));
  }
  return 0;
}

void pp_accum_masks(const struct pp_accum *a,
                    uint64_t enable[PP_BLOCK_COUNT][2]) {
  memset(enable, 0, sizeof(uint64_t[PP_BLOCK_COUNT][2]));
  for (unsigned b = 0; b < PP_BLOCK_COUNT; b++)
    for (uint32_t k = 0; k < a->n_watch[b]; k++) {
      unsigned i = a->watch[b][k].index;
      enable[b][i / 64] |= 1ull << (i % 64);
    }
}

void pp_accum_update(struct pp_accum *a, const struct pp_sample *s) {
  a->stream.samples++;
  if (s->flags & PP_SAMPLE_OVERFLOW)
    a->stream.overflows++;
  if (s->flags & PP_SAMPLE_ERROR)
    a->stream.errors++;
  if (a->have_seq && s->user_data > a->next_seq)
    a->stream.dropped += s->user_data - a->next_seq;
  if (!a->have_seq || s->user_data >= a->next_seq) {
    a->next_seq = s->user_data + 1;
    a->have_seq = true;
  }
  for (uint32_t i = 0; i < s->n_blocks; i++) {
    struct pp_block_view b;
    pp_sample_block(s, i, &b);
    if ((unsigned)b.type >= PP_BLOCK_COUNT)
      continue;
    const struct pp_watch *w = a->watch[b.type];
    for (uint32_t k = 0, n = a->n_watch[b.type]; k < n; k++) {
      uint64_t v = pp_block_counter(&b, w[k].index);
      uint16_t slot = w[k].slot;
      a->total[slot] += v;
      if (slot < PP_C_COUNT) {
        a->interval[slot] += v;
        continue;
      }
      struct pp_accum_raw *r = &a->raw[slot - PP_C_COUNT];
      if (r->per_block != NULL && b.idx < r->n_per_block)
        r->per_block[b.idx] += v;
    }
  }
  a->last_end_ns = s->timestamp_end_ns;
  a->interval_samples++;
}

int pp_accum_add(struct pp_accum *a, const struct pp_info *info,
                 const uint8_t *buf, size_t len, struct pp_error *err) {
  struct pp_sample s;
  int rc = pp_sample_decode(info, buf, len, &s, err);
  if (rc < 0) {
    a->stream.errors++;
    return rc;
  }
  pp_accum_update(a, &s);
  return 0;
}

void pp_accum_restart(struct pp_accum *a) {
  a->have_base = false;
  a->have_seq = false; /* a new session numbers its samples afresh */
}

static bool pp_has(const struct pp_accum *a, enum pp_counter_id id) {
  return a->named[id].block != PP_BLOCK_UNKNOWN;
}

/* 100 * num / den into field f, when both counters exist and den > 0,
 * bounded to [0, 100] as drm_fdinfo bounds utilisation: the counters of
 * one sample come from different blocks (and clock domains) latched at
 * slightly different times, and GPU_ACTIVE is a stand-in on some
 * products, so a raw ratio can pass 100. Each bounded value is counted
 * in stream.clamped. */
static void pp_percent(struct pp_accum *a, struct pp_metrics *m,
                       enum pp_metric_float f, bool have, double num,
                       double den) {
  if (have && den > 0) {
    double v = 100.0 * num / den;
    if (!(v <= 100.0)) { /* NaN cannot come: den > 0, num finite */
      v = 100.0;
      a->stream.clamped++;
    } else if (v < 0) {
      v = 0;
      a->stream.clamped++;
    }
    m->have_float[f] = true;
    m->floats[f] = v;
  }
}

/* queued - stall (never below 0); queued alone without a stall counter. */
static uint64_t pp_queue_active(const struct pp_accum *a, const uint64_t *v,
                                enum pp_counter_id queued,
                                enum pp_counter_id stall) {
  uint64_t q = v[queued];
  if (!pp_has(a, stall))
    return q;
  return q > v[stall] ? q - v[stall] : 0;
}

void pp_accum_metrics(struct pp_accum *a, struct pp_metrics *out) {
  memset(out, 0, sizeof(*out));
  const uint64_t *t = a->total;
  static const struct {
    enum pp_metric_int m;
    enum pp_counter_id id;
  } direct[] = {
      {PP_M_GPU_ACTIVE_CYCLES, PP_C_GPU_ACTIVE},
      {PP_M_TILER_ACTIVE_CYCLES, PP_C_TILER_ACTIVE},
      {PP_M_FRAGMENT_ACTIVE_CYCLES, PP_C_FRAG_ACTIVE},
      {PP_M_COMPUTE_ACTIVE_CYCLES, PP_C_COMPUTE_ACTIVE},
      {PP_M_SHADER_CORE_ACTIVE_CYCLES, PP_C_SHADER_CORE_ACTIVE},
      {PP_M_EXT_READ_STALL_CYCLES, PP_C_L2_EXT_AR_STALL},
      {PP_M_EXT_WRITE_STALL_CYCLES, PP_C_L2_EXT_W_STALL},
      {PP_M_L2_READ_LOOKUPS, PP_C_L2_READ_LOOKUP},
      {PP_M_L2_WRITE_LOOKUPS, PP_C_L2_WRITE_LOOKUP},
      {PP_M_FMA_INSTRUCTIONS, PP_C_EXEC_INSTR_FMA},
  };
  for (size_t i = 0; i < sizeof(direct) / sizeof(direct[0]); i++)
    if (pp_has(a, direct[i].id)) {
      out->have_int[direct[i].m] = true;
      out->ints[direct[i].m] = t[direct[i].id];
    }
  if (pp_has(a, PP_C_ITER_FRAG_ACTIVE)) {
    out->have_int[PP_M_FRAGMENT_QUEUE_ACTIVE_CYCLES] = true;
    out->ints[PP_M_FRAGMENT_QUEUE_ACTIVE_CYCLES] = pp_queue_active(
        a, t, PP_C_ITER_FRAG_ACTIVE, PP_C_ITER_FRAG_READY_BLOCKED);
  }
  if (pp_has(a, PP_C_ITER_COMP_ACTIVE)) {
    out->have_int[PP_M_COMPUTE_QUEUE_ACTIVE_CYCLES] = true;
    out->ints[PP_M_COMPUTE_QUEUE_ACTIVE_CYCLES] = pp_queue_active(
        a, t, PP_C_ITER_COMP_ACTIVE, PP_C_ITER_COMP_READY_BLOCKED);
  }
  uint32_t bpb = a->bytes_per_beat;
  if (bpb > 0 && pp_has(a, PP_C_L2_EXT_READ_BEATS)) {
    out->have_int[PP_M_EXT_READ_BYTES] = true;
    out->ints[PP_M_EXT_READ_BYTES] = t[PP_C_L2_EXT_READ_BEATS] * bpb;
  }
  if (bpb > 0 && pp_has(a, PP_C_L2_EXT_WRITE_BEATS)) {
    out->have_int[PP_M_EXT_WRITE_BYTES] = true;
    out->ints[PP_M_EXT_WRITE_BYTES] = t[PP_C_L2_EXT_WRITE_BEATS] * bpb;
  }

  if (a->interval_samples > 0) {
    const uint64_t *v = a->interval;
    double gpu = (double)v[PP_C_GPU_ACTIVE];
    double core = (double)v[PP_C_SHADER_CORE_ACTIVE];
    bool g = pp_has(a, PP_C_GPU_ACTIVE);
    bool c = pp_has(a, PP_C_SHADER_CORE_ACTIVE);
    pp_percent(a, out, PP_M_FRAGMENT_QUEUE_UTILIZATION,
               g && pp_has(a, PP_C_ITER_FRAG_ACTIVE),
               (double)pp_queue_active(a, v, PP_C_ITER_FRAG_ACTIVE,
                                       PP_C_ITER_FRAG_READY_BLOCKED),
               gpu);
    pp_percent(a, out, PP_M_COMPUTE_QUEUE_UTILIZATION,
               g && pp_has(a, PP_C_ITER_COMP_ACTIVE),
               (double)pp_queue_active(a, v, PP_C_ITER_COMP_ACTIVE,
                                       PP_C_ITER_COMP_READY_BLOCKED),
               gpu);
    pp_percent(a, out, PP_M_TILER_UTILIZATION,
               g && pp_has(a, PP_C_TILER_ACTIVE), (double)v[PP_C_TILER_ACTIVE],
               gpu);
    pp_percent(a, out, PP_M_FRAGMENT_UTILIZATION,
               c && pp_has(a, PP_C_FRAG_ACTIVE), (double)v[PP_C_FRAG_ACTIVE],
               core);
    pp_percent(a, out, PP_M_COMPUTE_UTILIZATION,
               c && pp_has(a, PP_C_COMPUTE_ACTIVE),
               (double)v[PP_C_COMPUTE_ACTIVE], core);
    if (a->have_base && a->last_end_ns > a->base_end_ns && bpb > 0) {
      double dt = (double)(a->last_end_ns - a->base_end_ns) / 1e9;
      if (pp_has(a, PP_C_L2_EXT_READ_BEATS)) {
        out->have_float[PP_M_EXT_READ_BANDWIDTH] = true;
        out->floats[PP_M_EXT_READ_BANDWIDTH] =
            (double)v[PP_C_L2_EXT_READ_BEATS] * bpb / dt;
      }
      if (pp_has(a, PP_C_L2_EXT_WRITE_BEATS)) {
        out->have_float[PP_M_EXT_WRITE_BANDWIDTH] = true;
        out->floats[PP_M_EXT_WRITE_BANDWIDTH] =
            (double)v[PP_C_L2_EXT_WRITE_BEATS] * bpb / dt;
      }
    }
    a->base_end_ns = a->last_end_ns;
    a->have_base = true;
  }
  memset(a->interval, 0, sizeof(a->interval));
  a->interval_samples = 0;
}
