/*
 * pp_ring.c: the ring consumer rule (panthor_perf.c: session_emit_sample
 * publishes insert wrapped, session_read_extract_idx reads extract % slots):
 * read from extract % slots up to the kernel's wrapped insert, then write
 * back insert, wrapped, never a free-running count.
 */
#include "common/panthor/pp_ring.h"

#include <errno.h>

int pp_ring_plan(uint64_t extract, uint64_t insert, uint32_t slots,
                 struct pp_ring_plan *out) {
  if (slots == 0 || (slots & (slots - 1)) != 0 || slots > PP_RING_MAX_SLOTS)
    return -EINVAL;
  if (insert >= slots)
    return -ERANGE;
  uint32_t mask = slots - 1;
  uint32_t first = (uint32_t)(extract & mask);
  out->first = first;
  out->count = ((uint32_t)insert - first) & mask;
  out->slots = slots;
  out->next_extract = insert;
  return 0;
}
