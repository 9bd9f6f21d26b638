/*
 * oa_recording.c: write an igt i915-perf-recorder file (version 1, the
 * records of igt lib/i915/perf_data.h) with known contents, for replay
 * tests.
 *
 *   oa_recording OUT [key=value ...]
 *     devid=0x9a49 format=10 freq=19200000 reports=100 ts_step=19200
 *     clk_step=1000000 a0_step=500000 ts_start=0 clk_start=0
 *     a_start=0 (every 40-bit A counter starts here) ctx_every=0
 *     lost_at=0 (a REPORT_LOST before report n) buffer_lost_at=0
 *     corr_every=0 (a TIMESTAMP_CORRELATION every n reports; 0: none)
 *     cpu_start=1000000000 (ns at the first report) eus=64 (at most)
 *     version=1 truncate=0 (cut the last n bytes) bad_type_at=0
 *     info2_at=0 (a second DEVICE_INFO before report n) info2_format=0
 *     info2_freq=0 (0: as the first) corr_a=0 corr_b=0 (correlation
 *     points before reports a and b only, b may be `reports`: after the
 *     last; needs corr_every=0 and corr_b > 0) corr_between=0 (that many
 *     points between each two reports) cs_shift=0 (correlation GPU
 *     timestamps in CS ticks: the OA timestamp >> cs_shift, as on DG2)
 *     topo_lie=0 (a topology whose masks lie past its record)
 *     corr_lead=0 (a first correlation point that many ticks before the
 *     first report, as igt's recorder writes one before it opens the
 *     stream) cs_high=0 (added to every correlation GPU timestamp's upper
 *     bits: the register's 36 bits do not start at the reports' 0)
 *
 * Report r (from 0) has timestamp ts_start + r*ts_step, clock ticks
 * clk_start + r*clk_step, A0 a0_step*r, A<i> (i>0) a_start + r*1000*(i+1)
 * (each modulo its width), B<i> and C<i> r*10*(i+1). Correlation points
 * map report r's timestamp to cpu_start + r*ts_step*1e9/freq, with the
 * GPU timestamp's upper 32 bits counting the wraps (as the recorder's
 * RENDER_RING_TIMESTAMP read does).
 */
#include "common/i915/i915_uapi.h"
#include "common/i915/oa_recorder.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct opts {
  uint64_t devid, format, freq, reports, ts_step, clk_step, a0_step, ts_start,
      clk_start, a_start, ctx_every, lost_at, buffer_lost_at, corr_every,
      cpu_start, eus, version, truncate, bad_type_at, info2_at, info2_format,
      info2_freq, corr_a, corr_b, corr_between, cs_shift, topo_lie, corr_lead,
      cs_high;
};

static FILE *out;

static void put(const void *p, size_t n) {
  if (fwrite(p, 1, n, out) != n) {
    perror("oa_recording: write");
    exit(1);
  }
}
static void u32(uint32_t v) { put(&v, 4); }
static void u64(uint64_t v) { put(&v, 8); }
static void header(uint32_t type, uint16_t size) {
  u32(type);
  uint16_t pad = 0;
  put(&pad, 2);
  put(&size, 2);
}

static void le32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }

static void report(const struct opts *o, uint64_t r, uint8_t *rep,
                   size_t size) {
  memset(rep, 0, size);
  uint32_t reason = o->ctx_every && r % o->ctx_every == 0 ? 8 : 1;
  le32(rep, reason << 19);
  le32(rep + 4, (uint32_t)(o->ts_start + r * o->ts_step));
  le32(rep + 12, (uint32_t)(o->clk_start + r * o->clk_step));
  if (o->format == I915_OA_FORMAT_A32u40_A4u32_B8_C8 ||
      o->format == I915_UAPI_OAR_FORMAT_A32u40_A4u32_B8_C8) {
    for (unsigned i = 0; i < 32; i++) {
      uint64_t v = i == 0 ? o->a0_step * r : o->a_start + r * 1000 * (i + 1);
      v &= (UINT64_C(1) << 40) - 1;
      le32(rep + 16 + 4 * i, (uint32_t)v);
      rep[160 + i] = (uint8_t)(v >> 32);
    }
    for (unsigned i = 32; i < 36; i++)
      le32(rep + 16 + 4 * i, (uint32_t)(r * 1000 * (i + 1)));
  } else if (o->format == I915_OA_FORMAT_A12 ||
             o->format == I915_OA_FORMAT_A12_B8_C8) { /* A7..A18 from byte 12 */
    for (unsigned i = 7; i < 19; i++)
      le32(rep + 12 + 4 * (i - 7), (uint32_t)(r * 1000 * (i + 1)));
  }
  if (size >= 256)
    for (unsigned i = 0; i < 16; i++)
      le32(rep + 192 + 4 * i, (uint32_t)(r * 10 * ((i % 8) + 1)));
}

/* A correlation point `ticks` after report 0 (negative: before it). */
static void correlation_ticks(const struct opts *o, int64_t ticks) {
  uint64_t gpu = o->ts_start + (uint64_t)ticks; /* 64-bit: wraps counted */
  int64_t cpu =
      (int64_t)o->cpu_start + ticks * INT64_C(1000000000) / (int64_t)o->freq;
  header(OA_REC_TIMESTAMP_CORRELATION, 24);
  u64((uint64_t)cpu);
  /* RENDER_RING_TIMESTAMP's 36 bits (igt's recorder reads it whole) */
  u64(((gpu >> o->cs_shift) + (o->cs_high << 32)) & ((UINT64_C(1) << 36) - 1));
}

/* A correlation point at report r plus `part` / `parts` of a step. */
static void correlation_at(const struct opts *o, uint64_t r, uint64_t part,
                           uint64_t parts) {
  correlation_ticks(o, (int64_t)(r * o->ts_step + part * o->ts_step / parts));
}

static void correlation(const struct opts *o, uint64_t r) {
  correlation_at(o, r, 0, 1);
}

static void device_info(const struct opts *o, uint64_t format, uint64_t freq) {
  uint8_t info[336] = {0};
  memcpy(info, &freq, 8);
  le32(info + 8, (uint32_t)o->devid);
  le32(info + 24, 0); /* render */
  le32(info + 32, (uint32_t)format);
  memcpy(info + 36, "RenderBasic", 11);
  memcpy(info + 292, "db41edd4-d8e7-4730-ad11-b9a2d6833503", 36);
  header(OA_REC_DEVICE_INFO, OA_REC_DEVICE_INFO_SIZE);
  put(info, sizeof(info));
}

static int set(struct opts *o, const char *kv) {
  static const char *const keys[] = {
      "devid",          "format",     "freq",        "reports",
      "ts_step",        "clk_step",   "a0_step",     "ts_start",
      "clk_start",      "a_start",    "ctx_every",   "lost_at",
      "buffer_lost_at", "corr_every", "cpu_start",   "eus",
      "version",        "truncate",   "bad_type_at", "info2_at",
      "info2_format",   "info2_freq", "corr_a",      "corr_b",
      "corr_between",   "cs_shift",   "topo_lie",    "corr_lead",
      "cs_high"};
  uint64_t *slots = &o->devid;
  const char *eq = strchr(kv, '=');
  if (eq == NULL)
    return -1;
  for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
    if (strlen(keys[i]) == (size_t)(eq - kv) &&
        strncmp(kv, keys[i], (size_t)(eq - kv)) == 0) {
      char *end;
      slots[i] = strtoull(eq + 1, &end, 0);
      return *end == '\0' ? 0 : -1;
    }
  return -1;
}

int main(int argc, char **argv) {
  struct opts o = {.devid = 0x9a49,
                   .format = I915_OA_FORMAT_A32u40_A4u32_B8_C8,
                   .freq = 19200000,
                   .reports = 100,
                   .ts_step = 19200,
                   .clk_step = 1000000,
                   .a0_step = 500000,
                   .cpu_start = 1000000000,
                   .eus = 64,
                   .version = 1};
  if (argc < 2) {
    fprintf(stderr, "usage: oa_recording OUT [key=value ...]\n");
    return 2;
  }
  for (int i = 2; i < argc; i++)
    if (set(&o, argv[i]) < 0) {
      fprintf(stderr, "oa_recording: bad argument \"%s\"\n", argv[i]);
      return 2;
    }
  size_t size = o.format == I915_OA_FORMAT_A12         ? 64
                : o.format == I915_OA_FORMAT_A12_B8_C8 ? 128
                                                       : 256;
  out = fopen(argv[1], "wb");
  if (out == NULL) {
    perror(argv[1]);
    return 1;
  }
  header(OA_REC_VERSION, 16);
  u32((uint32_t)o.version);
  u32(0);
  device_info(&o, o.format, o.freq);
  /* topology: one slice, one subslice, o.eus EUs (at most 64) */
  uint8_t topo[16 + 1 + 1 + 8] = {0};
  uint16_t f[8] = {0, 1, 1, 64, 1, 1, 2, 8}; /* flags, max_*, offsets */
  if (o.topo_lie)
    f[1] = 200; /* max_slices: a slice mask of 25 bytes in a 10-byte blob */
  memcpy(topo, f, 16);
  topo[16] = 1; /* slice 0 */
  topo[17] = 1; /* subslice 0 */
  for (unsigned e = 0; e < o.eus && e < 64; e++)
    topo[18 + e / 8] |= (uint8_t)(1u << (e % 8));
  header(OA_REC_DEVICE_TOPOLOGY, 8 + sizeof(topo) + 6); /* padded to 8 */
  put(topo, sizeof(topo));
  put("\0\0\0\0\0\0", 6);
  uint8_t rep[256];
  size_t size_now = size;
  if (o.corr_lead)
    correlation_ticks(&o, -(int64_t)o.corr_lead);
  for (uint64_t r = 0; r < o.reports; r++) {
    if (o.corr_every && r % o.corr_every == 0)
      correlation(&o, r);
    if (o.corr_b && (r == o.corr_a || r == o.corr_b))
      correlation(&o, r);
    for (uint64_t k = 1; r > 0 && k <= o.corr_between; k++)
      correlation_at(&o, r - 1, k, o.corr_between + 1);
    if (o.info2_at && r == o.info2_at) {
      uint64_t fmt2 = o.info2_format ? o.info2_format : o.format;
      device_info(&o, fmt2, o.info2_freq ? o.info2_freq : o.freq);
      size_now = fmt2 == 8 ? 64 : fmt2 == 9 ? 128 : 256;
    }
    if (o.lost_at && r == o.lost_at)
      header(DRM_I915_PERF_RECORD_OA_REPORT_LOST, 8);
    if (o.buffer_lost_at && r == o.buffer_lost_at)
      header(DRM_I915_PERF_RECORD_OA_BUFFER_LOST, 8);
    if (o.bad_type_at && r == o.bad_type_at)
      header(0x77, 8);
    report(&o, r, rep, size_now);
    header(DRM_I915_PERF_RECORD_SAMPLE, (uint16_t)(8 + size_now));
    put(rep, size_now);
  }
  if (o.corr_every || (o.corr_b && o.corr_b == o.reports))
    correlation(&o, o.reports); /* after the last report, as igt asks */
  if (fclose(out) != 0) {
    perror(argv[1]);
    return 1;
  }
  if (o.truncate > 0) {
    FILE *f2 = fopen(argv[1], "rb+");
    fseek(f2, 0, SEEK_END);
    long len = ftell(f2);
    fclose(f2);
    if (truncate(argv[1], len - (long)o.truncate) < 0) {
      perror("truncate");
      return 1;
    }
  }
  return 0;
}
