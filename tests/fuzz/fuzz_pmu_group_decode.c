/*
 * fuzz_pmu_group_decode.c: libFuzzer target for the decoder of a group
 * read (nr, enabled, running, {value, id} x nr). Input: one byte for the
 * number of events (0..PMU_MAX_GROUP + 1, so too many is tried), their
 * ids, then the words as read. Invariants: a decode needs the whole
 * layout and nr equal to the group size; it reports enabled, running and
 * the values as read. The decoded read is then differenced against the
 * open's zero baseline (pmu_counts_delta): never ran -> not counted and
 * 0; ran the whole time -> exactly the values read; scaled -> never
 * below the value read (below 2^53, where perf's double arithmetic is
 * exact).
 */
#include "common/pmu/pmu_group.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
  if (size < 1)
    return 0;
  size_t n_events = data[0] % (PMU_MAX_GROUP + 2);
  data++, size--;
  uint64_t ids[PMU_MAX_GROUP + 1] = {0};
  size_t n_ids = n_events < PMU_MAX_GROUP + 1 ? n_events : PMU_MAX_GROUP + 1;
  if (size < n_ids * sizeof(uint64_t))
    return 0;
  memcpy(ids, data, n_ids * sizeof(uint64_t));
  data += n_ids * sizeof(uint64_t);
  size -= n_ids * sizeof(uint64_t);
  size_t n_words = size / sizeof(uint64_t);
  uint64_t *words = malloc((n_words ? n_words : 1) * sizeof(uint64_t));
  if (words == NULL)
    return 0;
  if (n_words)
    memcpy(words, data, n_words * sizeof(uint64_t));
  struct pmu_counts r;
  int rc = pmu_group_decode(words, n_words, ids, n_events, &r);
  if (rc != 0) {
    if (rc != -EIO)
      abort();
    free(words);
    return 0;
  }
  if (n_events > PMU_MAX_GROUP || n_words < 3 + 2 * n_events ||
      words[0] != n_events || r.enabled_ns != words[1] ||
      r.running_ns != words[2])
    abort();
  for (size_t k = n_events; k < PMU_MAX_GROUP; k++)
    if (r.values[k] != 0)
      abort();
  struct pmu_counts zero, d;
  memset(&zero, 0, sizeof(zero));
  enum pmu_scaled sc = pmu_counts_delta(&zero, &r, n_events, &d);
  /* the oracle: each value lands at the first event carrying its id */
  uint64_t want[PMU_MAX_GROUP] = {0};
  for (size_t i = 0; i < n_events; i++) {
    size_t k = 0;
    while (ids[k] != words[4 + 2 * i])
      k++;
    want[k] = words[3 + 2 * i];
  }
  for (size_t k = 0; k < n_events; k++) {
    if (r.values[k] != want[k])
      abort();
    if (sc == PMU_NOT_COUNTED && d.values[k] != 0)
      abort();
    if (sc == PMU_EXACT && d.values[k] != want[k])
      abort();
    /* scaling up never loses counts (below 2^53, where perf's double
     * holds the value exactly) */
    if (sc == PMU_SCALED && want[k] < (1ull << 53) && d.values[k] < want[k])
      abort();
  }
  if ((words[2] == 0) != (sc == PMU_NOT_COUNTED))
    abort();
  free(words);
  return 0;
}
