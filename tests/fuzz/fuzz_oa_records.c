/*
 * fuzz_oa_records.c: libFuzzer target for the OA record walk and the
 * accumulator. The first byte picks the report format (1..14) and the
 * reason width; the rest is a stream buffer. Invariants: the walk never
 * reads outside the buffer (ASan), every sample it hands on is a whole
 * report, it stops at an error offset inside the buffer, the counts add
 * up, and the accumulator counts exactly the samples walked.
 */
#include "common/i915/oa_accum.h"
#include "common/i915/oa_report.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
  if (size < 1)
    return 0;
  const struct oa_format *fmt = oa_format_get(1 + data[0] % 14);
  struct oa_accum a;
  oa_accum_init(&a, fmt, data[0] >> 7);
  struct oa_walk_result res;
  oa_accum_records(&a, data + 1, size - 1, &res);
  if (res.error != NULL && res.error_offset >= size - 1)
    abort();
  if (a.reports != res.samples || a.report_lost != res.report_lost ||
      a.buffer_lost != res.buffer_lost)
    abort();
  /* every record is at least 8 bytes: the counts cannot exceed that */
  if ((res.samples + res.report_lost + res.buffer_lost + res.unknown) * 8 >
      size - 1)
    abort();
  if (a.reports > 0 && !a.have_base)
    abort();
  return 0;
}
