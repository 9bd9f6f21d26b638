/*
 * test_named.c: find-or-append by name: exact matches only (no prefix
 * aliasing), zeroed new elements, full arrays and names too long for
 * their array refused rather than cut.
 */
#include "common/core/named.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

struct item {
  uint64_t value;
  char name[8];
};

static void named_find_or_add__exact_names(void **state) {
  (void)state;
  struct item items[3];
  memset(items, 0xee, sizeof(items)); /* new elements must come zeroed */
  size_t n = 0;
  bool added = false;
  struct item *rcs = NAMED_FIND_OR_ADD(items, n, 3, name, "rcs", 3, &added);
  assert_non_null(rcs);
  assert_true(added);
  assert_int_equal(rcs->value, 0);
  assert_string_equal(rcs->name, "rcs");
  rcs->value = 7;
  /* "rcs0" and "rc" are other names, not prefixes of "rcs" */
  struct item *rcs0 = NAMED_FIND_OR_ADD(items, n, 3, name, "rcs0", 4, &added);
  assert_true(added && rcs0 != rcs);
  struct item *rc = NAMED_FIND_OR_ADD(items, n, 3, name, "rcs0x", 2, &added);
  assert_true(added && rc != rcs);
  assert_string_equal(rc->name, "rc");
  assert_int_equal(n, 3);
  /* found again: same element, value kept */
  assert_ptr_equal(NAMED_FIND_OR_ADD(items, n, 3, name, "rcs", 3, &added), rcs);
  assert_false(added);
  assert_int_equal(rcs->value, 7);
}

static void named_find_or_add__full_and_too_long(void **state) {
  (void)state;
  struct item items[1];
  size_t n = 0;
  assert_null(NAMED_FIND_OR_ADD(items, n, 1, name, "12345678", 8, NULL));
  assert_int_equal(n, 0);
  assert_non_null(NAMED_FIND_OR_ADD(items, n, 1, name, "1234567", 7, NULL));
  assert_null(NAMED_FIND_OR_ADD(items, n, 1, name, "other", 5, NULL));
  assert_int_equal(n, 1);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(named_find_or_add__exact_names),
      cmocka_unit_test(named_find_or_add__full_and_too_long),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
