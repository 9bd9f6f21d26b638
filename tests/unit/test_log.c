/*
 * test_log.c: every message in one shape, and nothing a terminal obeys:
 * objects and details come from the machine (device and process names,
 * paths), so ESC, BEL, C1 controls (U+009B: a one-character CSI) and
 * invalid UTF-8 become '?' (text.h's rule) before the host sees them.
 */
#include "common/core/log.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

static char last[1100];
static int level_seen;
static void capture(enum log_level level, const char *message) {
  level_seen = (int)level;
  snprintf(last, sizeof(last), "%s", message);
}

static void log_msg__shape_and_control_characters(void **state) {
  (void)state;
  static const struct {
    const char *object, *detail, *want;
  } cases[] = {
      {"card0", "ok", "p: card0: open: ok"},
      {"ev\x1b[2Jil", "x", "p: ev?[2Jil: open: x"},
      {"bell\a", "x", "p: bell?: open: x"},
      {"csi\xc2\x9b"
       "31m",
       "x", "p: csi?31m: open: x"},
      {"bad\xff\xfe", "x", "p: bad??: open: x"},
      {"\xc3\x9f\xe6\xb8\xb2", "x", "p: \xc3\x9f\xe6\xb8\xb2: open: x"},
      {"a", "multi\nline\r", "p: a: open: multi?line?"},
  };
  log_set_sink(capture, LOG_LEVEL_DEBUG);
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    log_msg(LOG_LEVEL_WARNING, "p", cases[i].object, "open", "%s",
            cases[i].detail);
    assert_string_equal(last, cases[i].want);
    assert_int_equal(level_seen, LOG_LEVEL_WARNING);
  }
  log_errno(LOG_LEVEL_ERROR, "p", "/dev/\x1b]0;x\a", "open", EACCES, "CAP");
  assert_string_equal(last,
                      "p: /dev/?]0;x?: open: Permission denied; hint: CAP");
  log_set_sink(NULL, LOG_LEVEL_INFO);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(log_msg__shape_and_control_characters),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
