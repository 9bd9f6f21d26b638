/*
 * test_proc_stat.c: the start time of /proc/<pid>/stat, with hostile
 * command names, truncated lines and overflow.
 */
#include "common/proc/proc_stat.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

/* A real line (this shape from proc(5)): starttime is 1234567. */
#define TAIL                                                                   \
  " S 1 100 100 0 -1 4194560 1060 0 0 0 3 1 0 0 20 0 1 0 1234567 "             \
  "11337728 1530 18446744073709551615 1 1 0 0 0 0 0 4096 1260 0 0 0 17 1 0 "   \
  "0 0 0 0\n"

static const struct {
  const char *line;
  int rc;
  uint64_t start;
} cases[] = {
    {"4242 (glxgears)" TAIL, 0, 1234567},
    {"4242 (a b) c) d)" TAIL, 0, 1234567}, /* ')' and spaces in comm */
    {"4242 (x) 1 2 3 4 5 6 7 8 9)" TAIL, 0, 1234567}, /* digits in comm */
    {"4242 ()" TAIL, 0, 1234567},                     /* empty comm */
    {"4242 (x) S 1 100 100 0 -1 4194560 1060 0 0 0 3 1 0 0 20 0 1 0 "
     "18446744073709551615 5\n",
     0, UINT64_MAX},
    {"4242 (x) S 1 100 100 0 -1 4194560 1060 0 0 0 3 1 0 0 20 0 1 0 "
     "18446744073709551616 5\n",
     -EINVAL, 0}, /* past 2^64 */
    {"4242 (x) S 1 100 100 0 -1 4194560 1060 0 0 0 3 1 0 0 20 0 1 0\n", -EINVAL,
     0}, /* truncated before it */
    {"4242 (x) S 1 100 100 0 -1 4194560 1060 0 0 0 3 1 0 0 20 0 1 0 12a 5\n",
     -EINVAL, 0},                     /* not a number */
    {"4242 x S 1 2 3\n", -EINVAL, 0}, /* no command name */
    {"", -EINVAL, 0},
};

static void proc_stat_start_time_decode__table(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    uint64_t start = 0;
    int rc = proc_stat_start_time_decode(cases[i].line, strlen(cases[i].line),
                                         &start);
    if (rc != cases[i].rc || (rc == 0 && start != cases[i].start))
      fail_msg("case %zu: rc %d start %llu", i, rc, (unsigned long long)start);
  }
}

/* Not NUL-terminated: the length bounds the scan. */
static void proc_stat_start_time_decode__length_bounds(void **state) {
  (void)state;
  const char *line = "1 (x)" TAIL;
  uint64_t start = 0;
  size_t cut = strstr(line, "1234567") - line + 4; /* "1234" */
  assert_int_equal(proc_stat_start_time_decode(line, cut, &start), 0);
  assert_int_equal(start, 1234);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(proc_stat_start_time_decode__table),
      cmocka_unit_test(proc_stat_start_time_decode__length_bounds),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
