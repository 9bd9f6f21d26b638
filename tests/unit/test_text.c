/*
 * test_text.c: sanitising hostile strings.
 */
#include "common/text.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

static void text_sanitize__table(void **state) {
  (void)state;
  static const struct {
    const char *in;
    size_t out_size;
    const char *out;
  } cases[] = {
      {"glxgears", 64, "glxgears"},
      {"tab\there", 64, "tab?here"},
      {"del\x7f", 64, "del?"},
      {"\xc3\x9f\xe6\xb8\xb2\xf0\x9f\x98\x80", 64,
       "\xc3\x9f\xe6\xb8\xb2\xf0\x9f\x98\x80"},
      {"bad\xff", 64, "bad?"},
      {"overlong\xc0\xaf", 64, "overlong??"},
      {"surrogate\xed\xa0\x80", 64, "surrogate???"},
      {"cut\xe6\xb8", 64, "cut??"},
      {"trailing   ", 64, "trailing"},
      {"abcdef", 4, "abc"},
      {"ab\xc3\x9f", 4, "ab"}, /* never half a sequence */
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    char out[64];
    size_t n =
        text_sanitize(out, cases[i].out_size, cases[i].in, strlen(cases[i].in));
    assert_string_equal(out, cases[i].out);
    assert_int_equal(n, strlen(cases[i].out));
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(text_sanitize__table),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
