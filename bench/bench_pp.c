/*
 * bench_pp.c: panthor_perf's read path without the kernel.
 *
 *  - walk + accumulation: pp_accum_add() (decode every block header,
 *    validate, sum the named counters and 8 raw Counter options with
 *    PerCore) of a G725-sized sample (v6 layout, 128 counters per block,
 *    FW + CSHW + TILER + 4 L2 slices + 16 shader cores: 24160 bytes) over
 *    a 32-slot ring, against memcpy() of the same bytes; best of 5 runs
 *    of 200k samples. The ratio is walk bandwidth / memcpy bandwidth. The
 *    walk reads every block header and only the counters asked for, so
 *    it can beat a copy of every byte.
 *  - allocations on the read path: malloc/calloc/realloc calls counted
 *    during 100k rounds of what a read does after the session delivered
 *    its sample (fold, metrics, records to a discarding sink).
 */
#include "bench/bench_util.h"
#include "common/panthor/pp_accum.h"
#include "plugins/panthor_perf/panthor_perf.h"
#include "tests/lib/pp_build.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint64_t value(void *ctx, enum pp_block t, uint32_t idx, uint32_t k) {
  (void)ctx;
  return (uint64_t)t * 7919 + idx * 131 + k;
}

#define SLOTS 32

int main(void) {
  struct pp_build b = {.layout = PP_LAYOUT_V6,
                       .counters_per_block = 128,
                       .blocks = {1, 0, 1, 1, 4, 16}};
  uint8_t raw_info[48];
  struct pp_info info;
  if (pp_info_decode(raw_info, pp_build_info(&b, raw_info), &info, NULL) < 0)
    return 1;
  size_t len = info.sample_size;
  uint8_t *ring = __libc_malloc(len * SLOTS);
  uint8_t *dst = __libc_malloc(len);
  if (ring == NULL || dst == NULL)
    return 1;
  for (uint64_t i = 0; i < SLOTS; i++)
    pp_build_sample(&b, ring + i * len, 0, i + 1, 0, i + 1, value, NULL);

  struct pp p;
  memset(&p, 0, sizeof(p));
  static const char *const counters[] = {
      "shader:5",  "shader:6",  "shader:7", "shader:8",
      "memsys:30", "memsys:31", "cshw:10",  "EXEC_CORE_ACTIVE"};
  struct ppf_device d;
  memset(&d, 0, sizeof(d));
  d.gpu.family = PP_FAMILY_G725;
  d.gpu.bytes_per_beat = 16;
  snprintf(d.gpu.name, sizeof(d.gpu.name), "Mali-G925-Immortalis");
  snprintf(d.name, sizeof(d.name), "renderD128");
  d.info = info;
  for (size_t i = 0; i < 8; i++) {
    if (pp_counter_spec_parse(counters[i], &p.cfg.counters[i], NULL) < 0 ||
        pp_counter_resolve(&p.cfg.counters[i], d.gpu.family, &info,
                           &d.counters[i], NULL) < 0)
      return 1;
  }
  p.cfg.n_counters = 8;
  if (pp_accum_init(&d.acc, &d.gpu, &info, d.counters, 8, true) < 0)
    return 1;

  const long n = bench_count(200000, 20);
  double walk = 1e9, copy = 1e9;
  for (int r = 0; r < 5; r++) {
    double t = bench_now_s();
    for (long i = 0; i < n; i++)
      pp_accum_add(&d.acc, &info, ring + (size_t)(i % SLOTS) * len, len, NULL);
    t = bench_now_s() - t;
    if (t < walk)
      walk = t;
    t = bench_now_s();
    for (long i = 0; i < n; i++) {
      memcpy(dst, ring + (size_t)(i % SLOTS) * len, len);
      __asm__ volatile("" : : "r"(dst) : "memory");
    }
    t = bench_now_s() - t;
    if (t < copy)
      copy = t;
  }
  double mb = (double)len * (double)n / 1e6;
  printf("sample walk + accumulation, G725-sized sample (%zu bytes, %u "
         "blocks of 128 counters, 8 raw Counters with PerCore): %.0f MB/s; "
         "memcpy %.0f MB/s; ratio %.2f (target >= 0.5)\n",
         len, info.n_blocks, mb / walk, mb / copy, copy / walk);

  struct pp_metrics m;
  pp_accum_metrics(&d.acc, &m);
  allocations = 0;
  const long reads = bench_count(100000, 20);
  for (long i = 0; i < reads; i++) {
    pp_accum_add(&d.acc, &info, ring + (size_t)(i % SLOTS) * len, len, NULL);
    pp_accum_metrics(&d.acc, &m);
    ppf_report(&p, &d, &m, bench_discard_sink(), 1);
  }
  printf("allocations during %ld reads (fold, metrics, records): %ld\n", reads,
         allocations);
  pp_accum_fini(&d.acc);
  return allocations == 0 ? 0 : 1;
}
