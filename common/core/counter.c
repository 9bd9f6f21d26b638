/*
 * counter.c: wraparound, resets, accumulation, monotonic hold and rates
 * (counter.h).
 */
#include "common/core/counter.h"

static uint64_t counter_mask(unsigned bits) {
  return bits == 0 || bits >= 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
}

uint64_t counter_wrap_delta(uint64_t prev, uint64_t now, unsigned bits) {
  uint64_t mask = counter_mask(bits);
  /* unsigned subtraction is modulo 2^64; masking reduces it mod 2^bits */
  return ((now & mask) - (prev & mask)) & mask;
}

enum counter_move counter_step(uint64_t prev, uint64_t now, unsigned bits,
                               uint64_t max_step, uint64_t *delta) {
  *delta = 0;
  uint64_t d;
  if (bits == 0 || bits >= 64) {
    if (now < prev)
      return COUNTER_RESET; /* 2^64 of anything is not one interval */
    d = now - prev;
  } else {
    d = counter_wrap_delta(prev, now, bits);
  }
  if (max_step != 0 && d > max_step)
    return COUNTER_RESET;
  *delta = d;
  return COUNTER_STEP;
}

void counter_init(struct counter *c, unsigned bits) {
  c->last = 0;
  c->total = 0;
  c->resets = 0;
  c->bits = bits;
  c->have = false;
}

uint64_t counter_update(struct counter *c, uint64_t raw) {
  raw &= counter_mask(c->bits);
  if (!c->have) {
    c->last = raw;
    c->have = true;
    return 0;
  }
  uint64_t delta;
  if (counter_step(c->last, raw, c->bits, /*max_step=*/0, &delta) ==
      COUNTER_RESET)
    c->resets++;
  c->last = raw;
  c->total += delta;
  return delta;
}

static uint64_t counter_hold_from(struct counter_hold *h, uint64_t raw) {
  if (raw < h->value)
    return 0; /* went backwards: hold until it catches up */
  uint64_t delta = raw - h->value;
  h->value = raw;
  return delta;
}

uint64_t counter_hold_update(struct counter_hold *h, uint64_t raw) {
  if (!h->have) {
    h->value = raw;
    h->have = true;
    return 0;
  }
  return counter_hold_from(h, raw);
}

uint64_t counter_hold_advance(struct counter_hold *h, uint64_t raw) {
  h->have = true;
  return counter_hold_from(h, raw);
}

bool counter_rate(uint64_t delta, uint64_t interval_ns, double *out) {
  if (interval_ns == 0)
    return false;
  *out = (double)delta * 1e9 / (double)interval_ns;
  return true;
}

uint64_t counter_add_sat(uint64_t a, uint64_t b, bool *saturated) {
  uint64_t sum;
  if (__builtin_add_overflow(a, b, &sum)) {
    *saturated = true;
    return UINT64_MAX;
  }
  return sum;
}
