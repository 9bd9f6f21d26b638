/*
 * test_pp_ring.c: the ring consumer against a model of the kernel's ring
 * (panthor_perf.c: wrapped insert, full = slots - 1 by CIRC_SPACE, the
 * sample accumulated, not written, when full) over thousands of indices and
 * many wraps.
 */
#include "common/panthor/pp_ring.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

static void pp_ring_plan__cases(void **state) {
  (void)state;
  struct pp_ring_plan p;
  assert_int_equal(pp_ring_plan(0, 0, 32, &p), 0);
  assert_int_equal(p.count, 0);
  assert_int_equal(p.next_extract, 0);
  /* across the wrap: 30, 31, 0, 1 */
  assert_int_equal(pp_ring_plan(30, 2, 32, &p), 0);
  assert_int_equal(p.first, 30);
  assert_int_equal(p.count, 4);
  assert_int_equal(pp_ring_slot(&p, 0), 30);
  assert_int_equal(pp_ring_slot(&p, 1), 31);
  assert_int_equal(pp_ring_slot(&p, 2), 0);
  assert_int_equal(pp_ring_slot(&p, 3), 1);
  assert_int_equal(p.next_extract, 2);
  /* full: slots - 1 unread */
  assert_int_equal(pp_ring_plan(5, 4, 32, &p), 0);
  assert_int_equal(p.count, 31);
  /* a free-running extract (libGPUCounters writes one) is taken mod slots,
   * as the kernel reads it */
  assert_int_equal(pp_ring_plan(37, 7, 32, &p), 0);
  assert_int_equal(p.first, 5);
  assert_int_equal(p.count, 2);
  assert_int_equal(pp_ring_plan(0, 1, 2, &p), 0);
  assert_int_equal(p.count, 1);
}

static void pp_ring_plan__rejects(void **state) {
  (void)state;
  struct pp_ring_plan p = {.first = 99, .count = 99};
  assert_int_equal(pp_ring_plan(0, 32, 32, &p), -ERANGE);
  assert_int_equal(pp_ring_plan(0, ~0ull, 32, &p), -ERANGE);
  assert_int_equal(pp_ring_plan(0, 0, 0, &p), -EINVAL);
  assert_int_equal(pp_ring_plan(0, 0, 24, &p), -EINVAL);
  assert_int_equal(pp_ring_plan(0, 0, 1u << 17, &p), -EINVAL);
  assert_int_equal(p.first, 99);
  assert_int_equal(p.count, 99);
  assert_int_equal(pp_ring_plan(0, 0, 1, &p), 0); /* 2^0: always empty */
  assert_int_equal(p.count, 0);
}

/* The kernel's side: write sample `seq` at insert unless full. */
struct kring {
  uint32_t slots;
  uint64_t extract, insert; /* as in the control BO */
  uint64_t *slot;           /* the sequence number stored per slot */
  uint64_t produced, dropped;
};

static void kring_produce(struct kring *k) {
  uint32_t free_slots =
      (uint32_t)((k->extract % k->slots) - k->insert - 1) & (k->slots - 1);
  k->produced++;
  if (free_slots == 0) {
    k->dropped++; /* silent: the consumer sees a sequence gap */
    return;
  }
  k->slot[k->insert] = k->produced;
  k->insert = (k->insert + 1) % k->slots;
}

static void pp_ring_plan__thousands_of_wraps(void **state) {
  (void)state;
  static const uint32_t sizes[] = {2, 4, 32, 256};
  srand(12);
  for (size_t s = 0; s < 4; s++) {
    struct kring k = {.slots = sizes[s]};
    k.slot = calloc(k.slots, sizeof(*k.slot));
    assert_non_null(k.slot);
    uint64_t expect = 1, consumed = 0, gaps = 0;
    for (int round = 0; round < 20002; round++) {
      /* the last two rounds: drain, then one sample into an empty ring, so
       * that every drop is followed by a consumed sample */
      int n = round == 20000   ? 0
              : round == 20001 ? 1
                               : rand() % (int)(k.slots + 2);
      for (int i = 0; i < n; i++)
        kring_produce(&k);
      struct pp_ring_plan p;
      assert_int_equal(pp_ring_plan(k.extract, k.insert, k.slots, &p), 0);
      assert_true(p.count <= k.slots - 1);
      for (uint32_t i = 0; i < p.count; i++) {
        uint64_t seq = k.slot[pp_ring_slot(&p, i)];
        assert_true(seq >= expect); /* in order, never twice */
        gaps += seq - expect;
        expect = seq + 1;
        consumed++;
      }
      k.extract = p.next_extract;
      assert_true(k.extract < k.slots); /* written back wrapped */
    }
    assert_int_equal(consumed + k.dropped, k.produced);
    assert_int_equal(gaps, k.dropped); /* every drop seen as a gap */
    assert_int_equal(expect, k.produced + 1);
    assert_true(k.dropped > 0);
    assert_true(k.produced > 20000);
    free(k.slot);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(pp_ring_plan__cases),
      cmocka_unit_test(pp_ring_plan__rejects),
      cmocka_unit_test(pp_ring_plan__thousands_of_wraps),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
