/*
 * bench_oa.c: i915_oa's decode path without the kernel.
 *
 *  - record walk + accumulation: oa_accum_records() over a 32 MiB stream
 *    buffer of A32u40_A4u32_B8_C8 samples (264-byte records: header and a
 *    256-byte report, 52 counters each), against memcpy() of the same
 *    bytes; best of 5. The ratio is walk bandwidth / memcpy bandwidth
 *    (target >= 0.5).
 *  - allocations after a drain: malloc/calloc/realloc calls counted during
 *    100k rounds of what a read does with the drained bytes (walk,
 *    accumulate, derived metrics, both records to a discarding sink).
 */
#include "common/i915/oa_accum.h"
#include "common/i915/oa_format.h"
#include "plugins/i915_oa/i915_oa.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void *__libc_malloc(size_t n);
void *__libc_calloc(size_t n, size_t size);
void *__libc_realloc(void *p, size_t n);
void *malloc(size_t n);
void *calloc(size_t n, size_t size);
void *realloc(void *p, size_t n);
static long allocations;
void *malloc(size_t n) {
  allocations++;
  return __libc_malloc(n);
}
void *calloc(size_t n, size_t size) {
  allocations++;
  return __libc_calloc(n, size);
}
void *realloc(void *p, size_t n) {
  allocations++;
  return __libc_realloc(p, n);
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int nop(struct metric_sink *s) {
  (void)s;
  return 0;
}
static int discard(struct metric_sink *s, const struct metric *m) {
  (void)s;
  (void)m;
  return 0;
}
static struct metric_sink sink = {nop, discard, nop};

static void put32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }

/* `n` sample records of format 10 with every field moving. */
static void fill(uint8_t *buf, size_t n) {
  for (size_t r = 0; r < n; r++) {
    uint8_t *rec = buf + r * 264;
    memset(rec, 0, 264);
    put32(rec, 1); /* RECORD_SAMPLE */
    rec[6] = 264 & 0xFF;
    rec[7] = 264 >> 8;
    uint8_t *rep = rec + 8;
    put32(rep, 1u << 19);
    put32(rep + 4, (uint32_t)(r * 19200));
    put32(rep + 12, (uint32_t)(r * 1000000));
    for (unsigned i = 0; i < 36; i++)
      put32(rep + 16 + 4 * i, (uint32_t)(r * 1000 * (i + 1)));
    for (unsigned i = 0; i < 32; i++)
      rep[160 + i] = (uint8_t)(r >> 20);
    for (unsigned i = 0; i < 16; i++)
      put32(rep + 192 + 4 * i, (uint32_t)(r * 10 * (i + 1)));
  }
}

int main(void) {
  const size_t n = (32u << 20) / 264, len = n * 264;
  uint8_t *buf = __libc_malloc(len), *dst = __libc_malloc(len);
  if (buf == NULL || dst == NULL)
    return 1;
  fill(buf, n);
  const struct oa_format *fmt = oa_format_get(10);
  double walk = 1e9, copy = 1e9;
  struct oa_accum a;
  for (int r = 0; r < 5; r++) {
    oa_accum_init(&a, fmt, 1);
    struct oa_walk_result res;
    double t = now_s();
    oa_accum_records(&a, buf, len, &res);
    t = now_s() - t;
    if (res.error != NULL || a.reports != n)
      return 1;
    if (t < walk)
      walk = t;
    t = now_s();
    memcpy(dst, buf, len);
    __asm__ volatile("" : : "r"(dst) : "memory");
    t = now_s() - t;
    if (t < copy)
      copy = t;
  }
  double mb = (double)len / 1e6;
  printf("record walk + accumulation, %zu A32u40_A4u32_B8_C8 samples (%.0f "
         "MB): %.0f MB/s (%.0f ns per report); memcpy %.0f MB/s; ratio %.2f "
         "(target >= 0.5)\n",
         n, mb, mb / walk, walk * 1e9 / (double)n, mb / copy, copy / walk);

  /* the read path after a drain, with a device as the plugin holds it */
  static struct oa_instance inst;
  static struct oa_dev d;
  oa_config_defaults(&inst.cfg);
  inst.cfg.eu_metrics = true;
  d.platform = oa_platform_lookup(0x9A49);
  d.fmt = fmt;
  d.dev.started = true;
  d.dev.id.oa_timestamp_hz = 19200000;
  d.dev.id.eu_total = 96;
  snprintf(d.device_tag, sizeof(d.device_tag), "0000:00:02.0");
  snprintf(d.metric_set_tag, sizeof(d.metric_set_tag), "1");
  oa_accum_init(&d.acc, fmt, 1);
  d.acc_ready = true;
  const size_t per_read = 16; /* reports per drained chunk */
  allocations = 0;
  const long reads = 100000;
  for (long i = 0; i < reads; i++) {
    struct oa_walk_result res;
    size_t at = (size_t)i * per_read % (n - per_read);
    oa_accum_records(&d.acc, buf + at * 264, per_read * 264, &res);
    oa_report_device(&inst, &d, 1, &sink);
  }
  printf("allocations during %ld reads of %zu reports (walk, accumulate, "
         "metrics, records): %ld\n",
         reads, per_read, allocations);
  return allocations == 0 ? 0 : 1;
}
