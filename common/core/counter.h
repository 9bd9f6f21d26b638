/*
 * counter.h: hardware and kernel counters in one place.
 *
 *  - Wraparound: a counter of `bits` width (1..64) that went from `prev` to
 *    `now` advanced by (now - prev) mod 2^bits (OA's 32-bit timestamps and
 *    40-bit A counters, 48-bit PMU counters, 64-bit perf counts).
 *  - Accumulation: a `struct counter` folds every raw reading of such a
 *    counter into a 64-bit total since its first reading, so nothing is
 *    lost however often the hardware wraps, as long as it is read at least
 *    once per wrap period.
 *  - Resets: a 64-bit cumulative count (a kernel accumulator such as
 *    hwmon energy or xe's idle residency, a perf count) never wraps in
 *    practice, so one that went down was reset (driver reload, device
 *    reset, a counter re-created); so is any step larger than the elapsed
 *    time allows. A reset gives no delta for its interval; counting goes
 *    on from the new reading. Narrow hardware counters (OA's 32- and
 *    40-bit, i915's u32 rc6_residency_ms) wrap instead.
 *  - Monotonic hold: DRM fdinfo values may go backwards for a while and
 *    must catch up (Documentation/gpu/drm-usage-stats.rst); a held counter
 *    keeps its baseline until the value reaches it again, so such a period
 *    advances by 0, never by a wrapped or negative amount.
 *  - Rates: delta over a measured interval in nanoseconds.
 *
 * Pure: no I/O, no allocation, no globals.
 */
#ifndef COMMON_CORE_COUNTER_H
#define COMMON_CORE_COUNTER_H

#include <stdbool.h>
#include <stdint.h>

/* (now - prev) mod 2^bits; bits outside 1..64 count as 64. Bits of
 * `prev` and `now` above the width are ignored. */
uint64_t counter_wrap_delta(uint64_t prev, uint64_t now, unsigned bits);

/* How a counter moved between two readings. */
enum counter_move {
  COUNTER_STEP,  /* *delta is the progress */
  COUNTER_RESET, /* not a step: the counter was reset, no delta */
};

/* The move of a `bits`-wide counter (1..64; outside: 64) from `prev` to
 * `now`: below 64 bits, the wrapped difference; at 64 bits a decrease is
 * a reset. Either way a step above `max_step` (0: no bound) is a reset:
 * the caller bounds it by what the elapsed time allows. *delta is set for
 * a step and 0 for a reset. */
enum counter_move counter_step(uint64_t prev, uint64_t now, unsigned bits,
                               uint64_t max_step, uint64_t *delta);

/* A counter accumulated into 64 bits: a narrow one across its wraps, a
 * 64-bit one across its resets. Zero-initialise, or counter_init(). */
struct counter {
  uint64_t last;   /* the last raw reading, masked to the width */
  uint64_t total;  /* sum of every delta since the first reading */
  uint64_t resets; /* readings taken as a reset (64 bits: a decrease) */
  unsigned bits;   /* width of the raw counter */
  bool have;       /* a first reading was seen */
};

void counter_init(struct counter *c, unsigned bits);

/* Fold one raw reading in; returns the delta it added: 0 for the first
 * reading, which sets the baseline, and for a reset (counter_step), after
 * which counting goes on from `raw`. */
uint64_t counter_update(struct counter *c, uint64_t raw);

/* A value under the fdinfo monotonic rule. */
struct counter_hold {
  uint64_t value; /* the highest value seen: the baseline */
  bool have;
};

/* Fold `raw` in; returns its progress beyond the baseline (0 while `raw`
 * is below it; the first reading returns 0 and sets the baseline). */
uint64_t counter_hold_update(struct counter_hold *h, uint64_t raw);

/* Like counter_hold_update() with an existing baseline of 0 for the first
 * reading: a client's first sample counts from zero. */
uint64_t counter_hold_advance(struct counter_hold *h, uint64_t raw);

/* `delta` events over `interval_ns` as events per second; false (and *out
 * untouched) when the interval is 0. */
bool counter_rate(uint64_t delta, uint64_t interval_ns, double *out);

/* a + b, saturating at UINT64_MAX; *saturated is set when it did. */
uint64_t counter_add_sat(uint64_t a, uint64_t b, bool *saturated);

#endif
