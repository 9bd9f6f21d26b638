/*
 * fuzz_oa_recorder.c: libFuzzer target for the i915-perf-recorder parser.
 * The input is a file; it is fed once whole and once in pieces whose
 * lengths come from the first byte. Invariants: no read outside the
 * input (ASan), both ways deliver the same records and stop at the same
 * error offset, and a stopped parser stays stopped.
 */
#include "common/i915/oa_recorder.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

struct seen {
  unsigned long infos, topologies, correlations, samples, statuses;
};

static void on_info(void *c, const struct oa_rec_device_info *i) {
  (void)i;
  ((struct seen *)c)->infos++;
}
static void on_topology(void *c, const uint8_t *b, size_t n) {
  (void)b;
  (void)n;
  ((struct seen *)c)->topologies++;
}
static void on_correlation(void *c, uint64_t a, uint64_t b) {
  (void)a;
  (void)b;
  ((struct seen *)c)->correlations++;
}
static void on_sample(void *c, const uint8_t *r) {
  (void)r;
  ((struct seen *)c)->samples++;
}
static void on_status(void *c, uint32_t t) {
  (void)t;
  ((struct seen *)c)->statuses++;
}

static const struct oa_rec_ops ops = {on_info, on_topology, on_correlation,
                                      on_sample, on_status};

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
  if (size < 1)
    return 0;
  size_t piece = 1 + data[0] % 97;
  data++;
  size--;
  struct seen whole = {0}, pieces = {0};
  struct oa_rec_parser a, b;
  oa_rec_parser_init(&a, &ops, &whole);
  long used = oa_rec_parse(&a, data, size, true);
  if (used >= 0 && (size_t)used != size)
    abort(); /* at the end every byte is a record or an error */

  /* the same bytes in pieces, as oa_rec_read_fd feeds them */
  oa_rec_parser_init(&b, &ops, &pieces);
  size_t fed = 0, start = 0;
  long rc = 0;
  while (rc >= 0) {
    size_t end = fed + piece < size ? fed + piece : size;
    rc = oa_rec_parse(&b, data + start, end - start, end == size);
    if (rc >= 0)
      start += (size_t)rc;
    fed = end;
    if (end == size)
      break;
  }
  if (memcmp(&whole, &pieces, sizeof(whole)) != 0 ||
      strcmp(a.error, b.error) != 0 || a.error_offset != b.error_offset)
    abort();
  if (a.error[0] != '\0' && oa_rec_parse(&a, data, size, true) != -1)
    abort();
  return 0;
}
