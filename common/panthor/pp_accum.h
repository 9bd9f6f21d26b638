/*
 * pp_accum.h: panthor perf samples folded into 64-bit cumulative totals
 * per counter (summed over the blocks of its type: MEMSYS per L2 slice,
 * SHADER per core; per core too for PerCore), the stream's own counts, and
 * the derived metrics per interval (one plugin read, however many samples
 * it consumed), with libGPUCounters' equations for Mali CSF GPUs
 * (ARM-software/libGPUCounters).
 *
 * Counter values in a sample are deltas since the session's previous
 * delivered sample, so totals are plain sums: a reopened session just
 * keeps adding (pp_accum_restart forgets the time base only).
 *
 * Pure: no I/O, no globals; allocation only in pp_accum_init.
 */
#ifndef COMMON_PANTHOR_PP_ACCUM_H
#define COMMON_PANTHOR_PP_ACCUM_H

#include "common/panthor/pp_counters.h"
#include "common/panthor/pp_gpu.h"
#include "common/panthor/pp_info.h"
#include "common/panthor/pp_sample.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PP_ACCUM_MAX_RAW 64 /* Counter options */
#define PP_ACCUM_MAX_WATCH (PP_C_COUNT + PP_ACCUM_MAX_RAW)

/* Cumulative counts of the stream (record panthor_perf_stream). */
struct pp_stream {
  uint64_t samples;    /* consumed and decoded */
  uint64_t overflows;  /* samples flagged PP_SAMPLE_OVERFLOW */
  uint64_t errors;     /* flagged PP_SAMPLE_ERROR, or malformed */
  uint64_t dropped;    /* sequence gaps in user_data */
  uint64_t busy_skips; /* reads skipped: SAMPLE returned EBUSY (session) */
  uint64_t reopens;    /* sessions reopened after reset/unplug (session) */
  uint64_t clamped;    /* percentages bounded to [0, 100] */
};

/* The panthor_perf record's fields. */
enum pp_metric_int {
  PP_M_GPU_ACTIVE_CYCLES,
  PP_M_FRAGMENT_QUEUE_ACTIVE_CYCLES,
  PP_M_COMPUTE_QUEUE_ACTIVE_CYCLES,
  PP_M_TILER_ACTIVE_CYCLES,
  PP_M_FRAGMENT_ACTIVE_CYCLES,
  PP_M_COMPUTE_ACTIVE_CYCLES,
  PP_M_SHADER_CORE_ACTIVE_CYCLES,
  PP_M_EXT_READ_BYTES,
  PP_M_EXT_WRITE_BYTES,
  PP_M_EXT_READ_STALL_CYCLES,
  PP_M_EXT_WRITE_STALL_CYCLES,
  PP_M_L2_READ_LOOKUPS,
  PP_M_L2_WRITE_LOOKUPS,
  PP_M_FMA_INSTRUCTIONS,
  PP_M_INT_COUNT,
};

enum pp_metric_float {
  PP_M_FRAGMENT_QUEUE_UTILIZATION,
  PP_M_COMPUTE_QUEUE_UTILIZATION,
  PP_M_TILER_UTILIZATION,
  PP_M_FRAGMENT_UTILIZATION,
  PP_M_COMPUTE_UTILIZATION,
  PP_M_EXT_READ_BANDWIDTH,  /* bytes/s */
  PP_M_EXT_WRITE_BANDWIDTH, /* bytes/s */
  PP_M_FLOAT_COUNT,
};

struct pp_metrics {
  bool have_int[PP_M_INT_COUNT]; /* the product has the counters */
  uint64_t ints[PP_M_INT_COUNT];
  bool have_float[PP_M_FLOAT_COUNT]; /* counters, a sample, a non-0 base */
  double floats[PP_M_FLOAT_COUNT];
};

/* "gpu_active_cycles"...; "fragment_queue_utilization_percent"... */
const char *pp_metric_int_name(enum pp_metric_int m);
const char *pp_metric_float_name(enum pp_metric_float m);
/* The field type (metric_unit.h) of a panthor_perf integer: its unit. */
const char *pp_metric_int_ctype(enum pp_metric_int m);

struct pp_watch {
  uint16_t index; /* counter index in the block */
  uint16_t slot;  /* into total[] */
};

struct pp_accum_raw {
  struct pp_counter_loc loc;
  uint64_t *per_block; /* owned; blocks of loc.block entries, or NULL */
  uint32_t n_per_block;
};

struct pp_accum {
  struct pp_counter_loc named[PP_C_COUNT]; /* PP_BLOCK_UNKNOWN: absent */
  uint32_t bytes_per_beat;                 /* 0: bytes not reported */
  struct pp_watch watch[PP_BLOCK_COUNT][PP_ACCUM_MAX_WATCH];
  uint32_t n_watch[PP_BLOCK_COUNT];
  uint64_t total[PP_ACCUM_MAX_WATCH]; /* named ids, then raw counters */
  uint64_t interval[PP_C_COUNT];      /* named: since pp_accum_metrics */
  struct pp_accum_raw raw[PP_ACCUM_MAX_RAW];
  uint32_t n_raw;
  struct pp_stream stream;
  bool have_seq;
  uint64_t next_seq; /* user_data expected next */
  bool have_base;    /* base_end_ns: end of the previous interval */
  uint64_t base_end_ns, last_end_ns;
  uint32_t interval_samples;
};

/*
 * Set `a` up for one device: named counters located by the GPU's family,
 * `raw` (n_raw resolved Counter options, copied) summed per type and, with
 * per_core, kept per SHADER block (info->blocks[PP_BLOCK_SHADER] values).
 * Returns 0; -E2BIG when n_raw > PP_ACCUM_MAX_RAW; -ENOMEM (`a` is then
 * finalised). Call pp_accum_fini() to release.
 */
int pp_accum_init(struct pp_accum *a, const struct pp_gpu *gpu,
                  const struct pp_info *info, const struct pp_counter_loc *raw,
                  size_t n_raw, bool per_core);
void pp_accum_fini(struct pp_accum *a);

/* The SETUP enable masks for every counter `a` reads. */
void pp_accum_masks(const struct pp_accum *a,
                    uint64_t enable[PP_BLOCK_COUNT][2]);

/* Fold one decoded sample in: counters (never 0-3), flags, sequence gaps
 * (user_data above the one expected counts the gap as dropped; below is
 * ignored, e.g. STOP's final sample). */
void pp_accum_update(struct pp_accum *a, const struct pp_sample *s);

/* Decode `len` bytes with `info` and fold them in; a malformed sample is
 * counted in stream.errors and its error returned (-EINVAL, err filled). */
int pp_accum_add(struct pp_accum *a, const struct pp_info *info,
                 const uint8_t *buf, size_t len, struct pp_error *err);

/* After a reopen: the next interval has no time base (no bandwidth), and
 * the sequence starts again from the next sample's user_data. */
void pp_accum_restart(struct pp_accum *a);

/* The cumulative totals and this interval's derived metrics; starts the
 * next interval. */
void pp_accum_metrics(struct pp_accum *a, struct pp_metrics *out);

#endif
