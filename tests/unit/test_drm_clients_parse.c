/*
 * test_drm_clients_parse.c: the debugfs client list decoder on the row
 * layouts the kernel prints (drm_debugfs.c drm_clients_info).
 */
#include "common/drm/drm_clients_parse.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#define HEADER "             command   pid dev master a   uid      magic\n"

static void drm_clients_parse__rows(void **state) {
  (void)state;
  const char *text =
      HEADER "                Xorg  1234   0   y    y     0          0\n"
             "         gnome-shell 999999 128   n    y  1000          0\n"
             "           <unknown>     0   0   n    y     0          0\n";
  pid_t pids[8];
  size_t n = 99;
  assert_int_equal(drm_clients_parse(text, strlen(text), pids, 8, &n), 0);
  assert_int_equal(n, 2);
  assert_int_equal(pids[0], 1234);
  assert_int_equal(pids[1], 999999);
}

static void drm_clients_parse__comm_with_spaces_and_name_column(void **state) {
  (void)state;
  /* comm "Web Content" has a space; 6.15+ appends the client name */
  const char *text = HEADER
      "         Web Content    77 128   n    y  1000          0 firefox-gl\n";
  pid_t pids[4];
  size_t n;
  assert_int_equal(drm_clients_parse(text, strlen(text), pids, 4, &n), 0);
  assert_int_equal(n, 1);
  assert_int_equal(pids[0], 77);
}

static void drm_clients_parse__overflow_and_garbage(void **state) {
  (void)state;
  const char *text =
      HEADER "                   a     1   0   n    y     0          0\n"
             "                   b     2   0   n    y     0          0\n"
             "                   c     3   0   n    y     0          0\n"
             "short\n"
             "                   d    4x   0   n    y     0          0\n"
             "                   e 99999999999999 0 n y 0 0\n";
  pid_t pids[2];
  size_t n;
  assert_int_equal(drm_clients_parse(text, strlen(text), pids, 2, &n), -E2BIG);
  assert_int_equal(n, 2);
  assert_int_equal(pids[1], 2);
  assert_int_equal(drm_clients_parse("", 0, pids, 2, &n), 0);
  assert_int_equal(n, 0);
  assert_int_equal(drm_clients_parse(NULL, 0, pids, 2, &n), -EINVAL);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(drm_clients_parse__rows),
      cmocka_unit_test(drm_clients_parse__comm_with_spaces_and_name_column),
      cmocka_unit_test(drm_clients_parse__overflow_and_garbage),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
