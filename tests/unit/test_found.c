/*
 * test_found.c: the line of a plugin's found() op (common/core/found.c):
 * devices joined by ", " as "DRIVER DEVICE", a missing driver left out,
 * names from the system sanitised (an escape sequence cannot reach a
 * terminal), a line that does not fit cut with "..." and every device
 * still counted, and the reason when there is none.
 */
#include "common/core/found.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

static void found_add__joins_driver_and_device(void **state) {
  (void)state;
  char text[128];
  struct found_text f;
  found_init(&f, text, sizeof(text));
  found_add(&f, "i915", "0000:00:02.0");
  found_add(&f, "", "renderD128");
  found_add(&f, NULL, "nvidia_pcie_pmu_0_rc_1");
  assert_int_equal(f.count, 3);
  assert_string_equal(text,
                      "i915 0000:00:02.0, renderD128, nvidia_pcie_pmu_0_rc_1");
}

static void found_add__sanitises_names(void **state) {
  (void)state;
  char text[128];
  struct found_text f;
  found_init(&f, text, sizeof(text));
  found_add(&f, "x\x1b[2J",
            "card\x07"
            "0");
  assert_null(strchr(text, '\x1b'));
  assert_null(strchr(text, '\x07'));
  assert_string_equal(text, "x?[2J card?0");
}

static void found_add__cut_line_counts_every_device(void **state) {
  (void)state;
  char text[24];
  struct found_text f;
  found_init(&f, text, sizeof(text));
  for (int i = 0; i < 10; i++)
    found_add(&f, "amdgpu", "0000:03:00.0");
  assert_int_equal(f.count, 10);
  assert_int_equal(strlen(text), sizeof(text) - 1);
  assert_string_equal(text + strlen(text) - 3, "...");
}

static void found_none__says_why(void **state) {
  (void)state;
  char text[64];
  struct found_text f;
  found_init(&f, text, sizeof(text));
  assert_int_equal(found_none(&f, "no render node under %s", "/dev/dri"), 0);
  assert_string_equal(text, "no render node under /dev/dri");
  char tiny[1];
  found_init(&f, tiny, 0); /* no room at all: nothing written */
  found_add(&f, "i915", "card0");
  assert_int_equal(f.count, 1);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(found_add__joins_driver_and_device),
      cmocka_unit_test(found_add__sanitises_names),
      cmocka_unit_test(found_add__cut_line_counts_every_device),
      cmocka_unit_test(found_none__says_why),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
