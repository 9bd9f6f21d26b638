/*
 * fuzz_pmu_group_decode.c: libFuzzer target for the decoder of a group
 * read (nr, enabled, running, {value, id} x nr). Input: one byte for the
 * number of events (0..PMU_MAX_GROUP + 1, so too many is tried), their
 * ids, then the words as read. Invariants: a decode needs the whole
 * layout and nr equal to the group size; it reports enabled and running
 * as read; a group that never ran counts 0; one that ran the whole time
 * counts exactly the values read (modulo 2^64).
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
  struct pmu_reading r;
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
  uint64_t counted = 0, read = 0;
  for (size_t k = 0; k < n_events; k++) {
    counted += r.counts[k];
    read += words[3 + 2 * k];
  }
  for (size_t k = n_events; k < PMU_MAX_GROUP; k++)
    if (r.counts[k] != 0)
      abort();
  if (words[2] == 0 && counted != 0)
    abort();
  if (words[2] != 0 && words[2] >= words[1] && counted != read)
    abort();
  free(words);
  return 0;
}
