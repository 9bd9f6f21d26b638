/*
 * fuzz_oa_report.c: libFuzzer target for OA report decoding. The first
 * byte picks the format (the 14 i915 ones and xe's PEC64u64); two reports of
 * that size follow. Invariants: decoding stays inside the report (ASan), every
 * value fits its counter's width, and the accumulated difference of two reports
 * is the modular difference of their values.
 */
#include "common/i915/oa_accum.h"
#include "common/i915/oa_report.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
  if (size < 1)
    return 0;
  unsigned pick = data[0] % 15;
  const struct oa_format *fmt =
      oa_format_get(pick < 14 ? 1 + pick : OA_FORMAT_XE_PEC64u64);
  if (size < 1 + 2 * (size_t)fmt->size)
    return 0;
  const uint8_t *r0 = data + 1, *r1 = data + 1 + fmt->size;
  struct oa_report d0, d1;
  oa_report_decode(fmt, data[0] >> 7, r0, &d0);
  oa_report_decode(fmt, data[0] >> 7, r1, &d1);
  if (d0.reason > 0x7F || (!fmt->header64 && d0.timestamp > UINT32_MAX))
    abort();
  struct oa_accum a;
  oa_accum_init(&a, fmt, data[0] >> 7);
  oa_accum_report(&a, r0);
  oa_accum_report(&a, r1);
  for (unsigned i = 0; i < fmt->n_counters; i++) {
    unsigned w = fmt->counters[i].width;
    uint64_t mask = w >= 64 ? UINT64_MAX : (UINT64_C(1) << w) - 1;
    if (d1.values[i] > mask || a.totals.counters[i] > mask ||
        a.totals.counters[i] != ((d1.values[i] - d0.values[i]) & mask))
      abort();
  }
  return 0;
}
