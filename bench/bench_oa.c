/*
 * bench_oa.c: i915_oa's decode path without the kernel.
 *
 *  - record walk + accumulation: oa_accum_records() over a 32 MiB stream
 *    buffer of A32u40_A4u32_B8_C8 samples (264-byte records: header and a
 *    256-byte report, 52 counters each), against memcpy() of the same
 *    bytes; best of 5. The ratio is walk bandwidth / memcpy bandwidth
 *    (target >= 0.5).
 *  - the same for xe's PEC64u64 (Xe2): xe_oa_accum_reports() over 32 MiB
 *    of whole 576-byte reports (no record headers; 64 counters of 64
 *    bits), against memcpy(); best of 5 (target >= 0.5).
 *  - replay of a recording of OA_REPLAY_MB (default 1024) MiB written to
 *    a temp file (VERSION, DEVICE_INFO, correlation points every 1000
 *    reports, A32u40 samples): throughput and peak RSS, which stays flat
 *    (the file is read in 1 MiB chunks, twice).
 *  - allocations after a drain: malloc/calloc/realloc calls counted during
 *    100k rounds of what a read does with the drained bytes (walk,
 *    accumulate, derived metrics, both records to a discarding sink).
 */
#include "bench/bench_util.h"
#include "common/i915/oa_accum.h"
#include "common/i915/oa_format.h"
#include "common/xe/xe_oa.h"
#include "plugins/i915_oa/i915_oa.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

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

static void write_all(int fd, const void *p, size_t n) {
  if (write(fd, p, n) != (ssize_t)n) {
    perror("bench_oa: write");
    exit(1);
  }
}

/* A recorder file of about `mb` MiB of samples from `buf` (n records). */
static int write_recording(const char *path, size_t mb, const uint8_t *buf,
                           size_t n) {
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0)
    return -1;
  uint8_t head[16 + 344] = {0};
  put32(head, 0x10000);
  head[6] = 16;
  put32(head + 8, 1);
  put32(head + 16, 0x10001);
  head[22] = 344 & 0xFF;
  head[23] = 344 >> 8;
  uint64_t hz = 19200000;
  memcpy(head + 24, &hz, 8);
  put32(head + 24 + 8, 0x9a49);
  put32(head + 24 + 32, 10);
  write_all(fd, head, sizeof(head));
  size_t total = mb << 20, written = 0, r = 0;
  while (written < total) {
    if (r % 1000 == 0) { /* a correlation point */
      uint8_t c[24] = {0};
      put32(c, 0x10003);
      c[6] = 24;
      uint64_t cpu = 1000000000u + r * 1000000u, gpu = r * 19200u;
      memcpy(c + 8, &cpu, 8);
      memcpy(c + 16, &gpu, 8);
      write_all(fd, c, sizeof(c));
    }
    size_t chunk = n - r % n < 4096 ? n - r % n : 4096;
    write_all(fd, buf + (r % n) * 264, chunk * 264);
    written += chunk * 264;
    r += chunk;
  }
  return close(fd);
}

int main(void) {
  const size_t n = (size_t)bench_count(32l << 20, 64l << 10) / 264,
               len = n * 264;
  uint8_t *buf = __libc_malloc(len), *dst = __libc_malloc(len);
  if (buf == NULL || dst == NULL)
    return 1;
  fill(buf, n);
  const struct oa_format *fmt = oa_format_get(10);
  double walk = 1e9, copy = 1e9;
  struct oa_accum a;
  const int runs = (int)bench_count(5, 1);
  for (int r = 0; r < runs; r++) {
    oa_accum_init(&a, fmt, 1);
    struct oa_walk_result res;
    double t = bench_now_s();
    oa_accum_records(&a, buf, len, &res);
    t = bench_now_s() - t;
    if (res.error != NULL || a.reports != n)
      return 1;
    if (t < walk)
      walk = t;
    t = bench_now_s();
    memcpy(dst, buf, len);
    __asm__ volatile("" : : "r"(dst) : "memory");
    t = bench_now_s() - t;
    if (t < copy)
      copy = t;
  }
  double mb = (double)len / 1e6;
  printf("record walk + accumulation, %zu A32u40_A4u32_B8_C8 samples (%.0f "
         "MB): %.0f MB/s (%.0f ns per report); memcpy %.0f MB/s; ratio %.2f "
         "(target >= 0.5)\n",
         n, mb, mb / walk, walk * 1e9 / (double)n, mb / copy, copy / walk);

  /* xe PEC64u64: whole reports, 64-bit counters */
  {
    const struct oa_format *pec = oa_format_get(OA_FORMAT_XE_PEC64u64);
    const size_t pn = (size_t)bench_count(32l << 20, 64l << 10) / pec->size,
                 plen = pn * pec->size;
    for (size_t r = 0; r < pn; r++) {
      uint8_t *rep = buf + r * pec->size;
      memset(rep, 0, pec->size);
      uint64_t v = (uint64_t)r * 19200;
      memcpy(rep + 8, &v, 8);
      v = (uint64_t)r * 1000000;
      memcpy(rep + 24, &v, 8);
      for (unsigned c = 0; c < 64; c++) {
        v = (uint64_t)r * (c + 1) * 1000;
        memcpy(rep + 32 + 8 * c, &v, 8);
      }
    }
    double pwalk = 1e9, pcopy = 1e9;
    for (int r = 0; r < runs; r++) {
      struct oa_accum pa;
      struct xe_oa_stream_counts pc = {0};
      oa_accum_init(&pa, pec, 1);
      double t = bench_now_s();
      xe_oa_accum_reports(&pa, &pc, buf, plen);
      t = bench_now_s() - t;
      if (pa.reports != pn || pa.totals.counters[63] != (pn - 1) * 64000)
        return 1;
      if (t < pwalk)
        pwalk = t;
      t = bench_now_s();
      memcpy(dst, buf, plen);
      __asm__ volatile("" : : "r"(dst) : "memory");
      t = bench_now_s() - t;
      if (t < pcopy)
        pcopy = t;
    }
    double pmb = (double)plen / 1e6;
    printf("xe PEC64u64 report walk + accumulation, %zu reports (%.0f MB): "
           "%.0f MB/s (%.0f ns per report); memcpy %.0f MB/s; ratio %.2f "
           "(target >= 0.5)\n",
           pn, pmb, pmb / pwalk, pwalk * 1e9 / (double)pn, pmb / pcopy,
           pcopy / pwalk);
    fill(buf, n); /* the A32u40 samples again, for what follows */
  }

  /* replay of a large recording: bounded memory, throughput */
  const char *env = getenv("OA_REPLAY_MB");
  size_t rec_mb = env ? strtoul(env, NULL, 10) : (size_t)bench_count(1024, 1);
  char path[] = "/tmp/bench_oa.XXXXXX";
  int tmp = mkstemp(path);
  if (rec_mb > 0 && tmp >= 0) {
    close(tmp);
    if (write_recording(path, rec_mb, buf, n) < 0)
      return 1;
    struct oa_instance rinst;
    memset(&rinst, 0, sizeof(rinst));
    oa_config_defaults(&rinst.cfg);
    rinst.cfg.replay = path;
    rinst.cfg.replay_interval = 1.0;
    struct metric_sink rsink = *bench_discard_sink();
    struct rusage before, after;
    getrusage(RUSAGE_SELF, &before);
    double t = bench_now_s();
    int rc = oa_replay_run(&rinst, &rsink);
    t = bench_now_s() - t;
    getrusage(RUSAGE_SELF, &after);
    unlink(path);
    if (rc < 0)
      return 1;
    printf("replay of a %zu MiB recording (1 s batches): %.1f s, %.0f MB/s; "
           "peak RSS %ld KiB before, %ld KiB after\n",
           rec_mb, t, (double)(rec_mb << 20) / 1e6 / t, before.ru_maxrss,
           after.ru_maxrss);
  }

  /* the read path after a drain, with a device as the plugin holds it */
  static struct oa_instance inst;
  static struct oa_dev d;
  oa_config_defaults(&inst.cfg);
  inst.cfg.eu_metrics = true;
  d.platform = oa_platform_lookup(0x9A49);
  d.fmt = fmt;
  d.inst = &inst; /* ioa_records reads the instance's options */
  d.dev.started = true;
  d.dev.id.oa_timestamp_hz = 19200000;
  d.dev.id.eu_total = 96;
  snprintf(d.device_tag, sizeof(d.device_tag), "0000:00:02.0");
  snprintf(d.metric_set_tag, sizeof(d.metric_set_tag), "1");
  oa_accum_init(&d.acc, fmt, 1);
  d.acc_ready = true;
  const size_t per_read = 16; /* reports per drained chunk */
  allocations = 0;
  const long reads = bench_count(100000, 20);
  for (long i = 0; i < reads; i++) {
    struct oa_walk_result res;
    size_t at = (size_t)i * per_read % (n - per_read);
    oa_accum_records(&d.acc, buf + at * 264, per_read * 264, &res);
    ioa_records_write(&inst, &d, 1, bench_discard_sink());
  }
  printf("allocations during %ld reads of %zu reports (walk, accumulate, "
         "metrics, records): %ld\n",
         reads, per_read, allocations);
  return allocations == 0 ? 0 : 1;
}
