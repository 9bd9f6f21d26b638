/*
 * pp_ring.h: the sample ring consumer as a pure function (panthor_perf.c:
 * session_emit_sample, session_read_extract_idx, CIRC_SPACE): from the extract
 * index we wrote, the insert index the kernel published (already wrapped) and
 * the slot count, which slots to read, in order, and the wrapped extract to
 * write back.
 *
 * libGPUCounters writes extract back free-running, which agrees with the
 * kernel only until the first wrap; we always write it wrapped. The ring
 * holds at most slots - 1 unread samples (free = extract - insert - 1 mod
 * slots), so insert == extract means empty.
 *
 * Pure: no I/O, no allocation, no globals.
 */
#ifndef COMMON_PANTHOR_PP_RING_H
#define COMMON_PANTHOR_PP_RING_H

#include <stdint.h>

#define PP_RING_MAX_SLOTS (1u << 16)

struct pp_ring_plan {
  uint32_t first;        /* slot of the first sample to read */
  uint32_t count;        /* samples to read: 0 .. slots - 1 */
  uint32_t slots;        /* copied from the call */
  uint64_t next_extract; /* write back after reading: == insert */
};

/*
 * Plan one consumption. `extract` is taken modulo slots (the kernel reads
 * it so). Returns 0; -EINVAL when slots is 0, not a power of two or above
 * PP_RING_MAX_SLOTS; -ERANGE when insert >= slots (the kernel publishes it
 * wrapped: anything else is corrupt and must not be followed). `out` is
 * untouched on error.
 */
int pp_ring_plan(uint64_t extract, uint64_t insert, uint32_t slots,
                 struct pp_ring_plan *out);

/* The slot of the k-th sample of `p` (k < p->count). */
static inline uint32_t pp_ring_slot(const struct pp_ring_plan *p, uint32_t k) {
  return (p->first + k) & (p->slots - 1);
}

#endif
