/*
 * test_counter.c: wraparound at every width, accumulation past many
 * wraps, the fdinfo monotonic hold, rates and saturating sums, with
 * hand-computed values.
 */
#include "common/core/counter.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

static const struct {
  uint64_t prev, now;
  unsigned bits;
  uint64_t delta;
} wrap_cases[] = {
    {10, 25, 32, 15},
    {0xfffffff0u, 0x10u, 32, 0x20},     /* 32-bit wrap */
    {0xffffffffu, 0, 32, 1},            /* wrap by one */
    {5, 5, 32, 0},                      /* no progress */
    {0x1fffffff05ull, 0x3, 32, 0xfe},   /* high bits ignored */
    {0xfffffffff0ull, 0x0fu, 40, 0x1f}, /* 40-bit OA A counter */
    {0x0000000001ull, 0xffffffffffull, 40, 0xfffffffffeull},
    {0xffffffffffffull, 0x1, 48, 2}, /* 48-bit PMU counter */
    {UINT64_MAX - 1, 1, 64, 3},      /* 64-bit wrap */
    {UINT64_MAX, UINT64_MAX, 64, 0},
    {3, 1, 0, UINT64_MAX - 1},  /* 0 means 64 */
    {3, 1, 65, UINT64_MAX - 1}, /* so does > 64 */
    {1, 0, 1, 1},               /* 1-bit */
};

static void counter_wrap_delta__table(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof(wrap_cases) / sizeof(wrap_cases[0]); i++) {
    uint64_t got = counter_wrap_delta(wrap_cases[i].prev, wrap_cases[i].now,
                                      wrap_cases[i].bits);
    if (got != wrap_cases[i].delta)
      fail_msg("case %zu: got %llu, want %llu", i, (unsigned long long)got,
               (unsigned long long)wrap_cases[i].delta);
  }
}

/* A 32-bit counter read 3 times per wrap for 1000 wraps: the total is the
 * true count, far past 2^32. */
static void counter_update__many_wraps_32(void **state) {
  (void)state;
  struct counter c;
  counter_init(&c, 32);
  const uint64_t step = 0x55555555u; /* < 2^32 / 2 */
  uint64_t truth = 0x12345678u;      /* the first reading: the baseline */
  assert_int_equal(counter_update(&c, truth), 0);
  for (int i = 0; i < 3000; i++) {
    truth += step;
    assert_int_equal(counter_update(&c, truth & 0xffffffffu), step);
  }
  assert_int_equal(c.total, 3000 * step);
  assert_int_equal(c.last, truth & 0xffffffffu);
}

/* 40-bit OA counters: the raw reading may carry garbage above bit 39. */
static void counter_update__40_bit_masks_raw(void **state) {
  (void)state;
  struct counter c;
  counter_init(&c, 40);
  counter_update(&c, 0xab00fffffffff0ull);
  assert_int_equal(counter_update(&c, 0xcd0000000000010ull), 0x20);
  assert_int_equal(c.total, 0x20);
}

/* 64-bit: a decrease is a reset, not a wrap (2^64 - 10 + 20 would read
 * as 1.8e19 events in one interval): no delta, counting goes on from the
 * new base; a reading equal to the last adds 0. */
static void counter_update__64_bit_decrease_is_reset(void **state) {
  (void)state;
  struct counter c = {0};
  c.bits = 64;
  counter_update(&c, UINT64_MAX - 9);
  assert_int_equal(counter_update(&c, 10), 0);
  assert_int_equal(c.resets, 1);
  assert_int_equal(counter_update(&c, 30), 20);
  assert_int_equal(counter_update(&c, 30), 0);
  assert_int_equal(c.total, 20);
  assert_int_equal(c.resets, 1);
}

/* counter_step: steps, wraps of narrow counters, resets of 64-bit ones,
 * and steps beyond what the elapsed time allows. */
static const struct {
  uint64_t prev, now;
  unsigned bits;
  uint64_t max_step;
  enum counter_move want;
  uint64_t delta;
} step_cases[] = {
    {100, 150, 64, 0, COUNTER_STEP, 50},
    {150, 150, 64, 0, COUNTER_STEP, 0},
    {150, 100, 64, 0, COUNTER_RESET, 0},             /* went down */
    {UINT64_MAX - 1, 1, 64, 0, COUNTER_RESET, 0},    /* not a wrap */
    {150, 100, 0, 0, COUNTER_RESET, 0},              /* 0 means 64 */
    {0xfffffff0u, 0x10, 32, 0, COUNTER_STEP, 0x20},  /* u32 wrap */
    {0xfffffff0u, 0x10, 32, 0x1f, COUNTER_RESET, 0}, /* beyond the bound */
    {100, 2100, 64, 2000, COUNTER_STEP, 2000},       /* at the bound */
    {100, 2101, 64, 2000, COUNTER_RESET, 0},
    /* i915 rc6 u32 ms counter back near 0 after a reload: the wrapped
     * difference is 4.29e9 ms, more than the interval allows */
    {5000000, 100, 32, 11250, COUNTER_RESET, 0},
};

static void counter_step__table(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof(step_cases) / sizeof(step_cases[0]); i++) {
    uint64_t d = 12345;
    enum counter_move got =
        counter_step(step_cases[i].prev, step_cases[i].now, step_cases[i].bits,
                     step_cases[i].max_step, &d);
    if (got != step_cases[i].want || d != step_cases[i].delta)
      fail_msg("case %zu: got %d/%llu", i, (int)got, (unsigned long long)d);
  }
}

/* The fdinfo rule: a value that goes backwards holds the baseline until it
 * catches up, so the progress is 0 meanwhile and never a wrap. */
static void counter_hold__backwards_then_catch_up(void **state) {
  (void)state;
  struct counter_hold h = {0};
  assert_int_equal(counter_hold_update(&h, 1000), 0); /* baseline */
  assert_int_equal(counter_hold_update(&h, 1500), 500);
  assert_int_equal(counter_hold_update(&h, 1200), 0); /* backwards */
  assert_int_equal(h.value, 1500);
  assert_int_equal(counter_hold_update(&h, 1400), 0);
  assert_int_equal(counter_hold_update(&h, 1600), 100); /* caught up */
  assert_int_equal(h.value, 1600);
}

/* A client seen from its start counts its first value as progress. */
static void counter_hold_advance__from_zero(void **state) {
  (void)state;
  struct counter_hold h = {0};
  assert_int_equal(counter_hold_advance(&h, 700), 700);
  assert_int_equal(counter_hold_advance(&h, 650), 0);
  assert_int_equal(counter_hold_advance(&h, 900), 200);
  assert_true(h.have);
}

static void counter_rate__interval(void **state) {
  (void)state;
  double r = -1;
  assert_true(counter_rate(500, 250000000, &r)); /* 500 per 0.25 s */
  assert_true(r == 2000.0);
  assert_false(counter_rate(500, 0, &r)); /* no interval: no rate */
  assert_true(r == 2000.0);               /* untouched */
  assert_true(counter_rate(UINT64_MAX, 1000000000, &r));
  assert_true(r == 18446744073709551616.0);
}

static void counter_add_sat__saturates(void **state) {
  (void)state;
  bool sat = false;
  assert_int_equal(counter_add_sat(1, 2, &sat), 3);
  assert_false(sat);
  assert_int_equal(
      counter_add_sat(9223372036854775808ull, 9223372036854775808ull, &sat),
      UINT64_MAX);
  assert_true(sat);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(counter_wrap_delta__table),
      cmocka_unit_test(counter_update__many_wraps_32),
      cmocka_unit_test(counter_update__40_bit_masks_raw),
      cmocka_unit_test(counter_update__64_bit_decrease_is_reset),
      cmocka_unit_test(counter_step__table),
      cmocka_unit_test(counter_hold__backwards_then_catch_up),
      cmocka_unit_test(counter_hold_advance__from_zero),
      cmocka_unit_test(counter_rate__interval),
      cmocka_unit_test(counter_add_sat__saturates),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
