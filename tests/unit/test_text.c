/*
 * test_text.c: sanitising hostile strings: control characters, every kind
 * of invalid UTF-8 (stray bytes, overlongs, surrogates, beyond U+10FFFF,
 * cut sequences), bounded output that never splits a sequence, trailing
 * spaces and the input length.
 */
#include "common/core/text.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static void text_sanitize__table(void **state) {
  (void)state;
  static const struct {
    const char *in;
    size_t out_size;
    const char *out;
  } cases[] = {
      {"glxgears", 64, "glxgears"},
      {"", 64, ""},
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
  for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
    char out[64];
    size_t n =
        text_sanitize(out, cases[i].out_size, cases[i].in, strlen(cases[i].in));
    assert_string_equal(out, cases[i].out);
    assert_int_equal(n, strlen(cases[i].out));
  }
}

static void text_sanitize__control_characters(void **state) {
  (void)state;
  static const struct {
    const char *in, *out;
  } cases[] = {
      {"a\nb", "a?b"},
      {"a\rb", "a?b"},
      {"\x01\x02\x1f", "???"},
      {"\x1b[31mred", "?[31mred"},
      {"a\x7f", "a?"},
      {"x\t", "x?"},          /* a control is not trailing whitespace */
      {"q\"b\\s", "q\"b\\s"}, /* printable ASCII stays as it is */
      {" lead", " lead"},     /* only trailing spaces go */
      {"a b  ", "a b"},
      {"   ", ""},
      /* C1 (U+0080..U+009F) is valid UTF-8 but a control: one '?' each;
       * U+009B is a one-character CSI */
      {"\xc2\x85", "?"},
      {"a\xc2\x9b"
       "31mred",
       "a?31mred"},
      {"\xc2\x80\xc2\x9f\xc2\xa0", "??\xc2\xa0"}, /* U+00A0 stays */
  };
  for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
    char out[64];
    size_t n =
        text_sanitize(out, sizeof(out), cases[i].in, strlen(cases[i].in));
    if (strcmp(out, cases[i].out) != 0 || n != strlen(cases[i].out))
      fail_msg("case %zu: \"%s\" (%zu)", i, out, n);
  }
}

/* The bidirectional formatting characters (UAX #9) are one '?' each, as
 * C1 is, whatever their length; their neighbours stay. */
static void text_sanitize__bidi_controls(void **state) {
  (void)state;
  static const struct {
    const char *in, *out;
  } cases[] = {
      {"\xd8\x9c", "?"},                               /* U+061C ALM */
      {"\xe2\x80\x8e\xe2\x80\x8f", "??"},              /* LRM, RLM */
      {"\xe2\x80\xaa\xe2\x80\xab\xe2\x80\xac", "???"}, /* LRE RLE PDF */
      {"x\xe2\x80\xad\xe2\x80\xaey", "x??y"},          /* LRO, RLO */
      {"\xe2\x81\xa6\xe2\x81\xa7\xe2\x81\xa8\xe2\x81\xa9",
       "????"}, /* isolates */
      /* "evil\u202Egpj.exe" would show as "evilexe.jpg" */
      {"evil\xe2\x80\xaegpj.exe", "evil?gpj.exe"},
      /* the neighbours of each range stay */
      {"\xd8\x9b\xd8\x9d", "\xd8\x9b\xd8\x9d"}, /* U+061B, U+061D */
      {"\xe2\x80\x8d\xe2\x80\x90",
       "\xe2\x80\x8d\xe2\x80\x90"}, /* U+200D, U+2010 */
      {"\xe2\x80\xa9\xe2\x80\xaf",
       "\xe2\x80\xa9\xe2\x80\xaf"}, /* U+2029, U+202F */
      {"\xe2\x81\xa5\xe2\x81\xaa",
       "\xe2\x81\xa5\xe2\x81\xaa"}, /* U+2065, U+206A */
  };
  for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
    char out[64];
    size_t n =
        text_sanitize(out, sizeof(out), cases[i].in, strlen(cases[i].in));
    if (strcmp(out, cases[i].out) != 0 || n != strlen(cases[i].out))
      fail_msg("case %zu: \"%s\" (%zu)", i, out, n);
  }
  /* text_char: the bytes of the whole sequence, not printable */
  bool ok = true;
  assert_int_equal(text_char("\xe2\x80\xae", 3, &ok), 3);
  assert_false(ok);
  assert_int_equal(text_char("\xd8\x9c", 2, &ok), 2);
  assert_false(ok);
  assert_int_equal(text_char("\xe2\x80\xaf", 3, &ok), 3);
  assert_true(ok);
  assert_true(text_bidi(0x202e) && text_bidi(0x2066) && !text_bidi(0x2065));
}

/* Each byte that does not start a valid, shortest-form, non-surrogate
 * sequence up to U+10FFFF becomes one '?'; scanning resumes at the next
 * byte. */
static void text_sanitize__invalid_utf8(void **state) {
  (void)state;
  static const struct {
    const char *in, *out;
  } cases[] = {
      {"\x80", "?"}, /* stray continuation */
      {"\xbf\x80x", "??x"},
      {"\xc0\x80", "??"},               /* overlong NUL */
      {"\xc1\xbf", "??"},               /* overlong U+007F */
      {"\xc2\x80", "?"},                /* U+0080: shortest, but a C1 control */
      {"\xc2\xa0", "\xc2\xa0"},         /* U+00A0: shortest */
      {"\xe0\x80\xaf", "???"},          /* overlong '/' */
      {"\xe0\x9f\xbf", "???"},          /* overlong U+07FF */
      {"\xe0\xa0\x80", "\xe0\xa0\x80"}, /* U+0800 */
      {"\xed\x9f\xbf", "\xed\x9f\xbf"}, /* U+D7FF */
      {"\xed\xa0\x80", "???"},          /* U+D800 */
      {"\xed\xbf\xbf", "???"},          /* U+DFFF */
      {"\xee\x80\x80", "\xee\x80\x80"}, /* U+E000 */
      {"\xef\xbf\xbf", "\xef\xbf\xbf"}, /* U+FFFF */
      {"\xf0\x8f\xbf\xbf", "????"},     /* overlong U+FFFF */
      {"\xf0\x90\x80\x80", "\xf0\x90\x80\x80"}, /* U+10000 */
      {"\xf4\x8f\xbf\xbf", "\xf4\x8f\xbf\xbf"}, /* U+10FFFF */
      {"\xf4\x90\x80\x80", "????"},             /* U+110000 */
      {"\xf5\x80\x80\x80", "????"},
      {"\xf8\x88\x80\x80\x80", "?????"}, /* old 5-byte form */
      {"\xfe\xff", "??"},
      {"\xc3", "?"},   /* cut at the end */
      {"\xc3x", "?x"}, /* cut by ASCII */
      {"\xe6\xb8x", "??x"},
      {"\xf0\x9f\x98", "???"},
      {"\xc3\xc3\x9f", "?\xc3\x9f"}, /* cut by a new lead */
  };
  for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
    char out[64];
    size_t n =
        text_sanitize(out, sizeof(out), cases[i].in, strlen(cases[i].in));
    if (strcmp(out, cases[i].out) != 0 || n != strlen(cases[i].out))
      fail_msg("case %zu: got %zu bytes", i, n);
  }
}

/* out_size bounds the output including its NUL; a sequence that does not
 * fit whole is left out, and so is everything after it. */
static void text_sanitize__truncation(void **state) {
  (void)state;
  static const char in[] = "ab\xe6\xb8\xb2\xf0\x9f\x98\x80z";
  static const struct {
    size_t out_size;
    const char *out;
  } cases[] = {
      {1, ""},
      {2, "a"},
      {3, "ab"},
      {4, "ab"}, /* 3-byte char needs 6 */
      {5, "ab"},
      {6, "ab\xe6\xb8\xb2"},
      {9, "ab\xe6\xb8\xb2"}, /* 4-byte char needs 10 */
      {10, "ab\xe6\xb8\xb2\xf0\x9f\x98\x80"},
      {11, "ab\xe6\xb8\xb2\xf0\x9f\x98\x80z"},
      {64, "ab\xe6\xb8\xb2\xf0\x9f\x98\x80z"},
  };
  for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
    char out[64];
    memset(out, 'X', sizeof(out));
    size_t n = text_sanitize(out, cases[i].out_size, in, sizeof(in) - 1);
    if (strcmp(out, cases[i].out) != 0 || n != strlen(cases[i].out))
      fail_msg("out_size %zu: got %zu bytes", cases[i].out_size, n);
    if (cases[i].out_size < sizeof(out))
      assert_int_equal(out[cases[i].out_size], 'X'); /* nothing past it */
  }
  char out[8];
  /* a cut that leaves trailing spaces removes them too */
  assert_int_equal(text_sanitize(out, 5, "ab  cd", 6), 2);
  assert_string_equal(out, "ab");
  /* a '?' takes one byte, like the byte it replaces */
  assert_int_equal(text_sanitize(out, 4, "\xff\xff\xff\xff", 4), 3);
  assert_string_equal(out, "???");
}

/* in_len bounds the input; a NUL inside it ends the string. */
static void text_sanitize__input_length(void **state) {
  (void)state;
  char out[64];
  assert_int_equal(text_sanitize(out, sizeof(out), "abcdef", 3), 3);
  assert_string_equal(out, "abc");
  /* a sequence cut by in_len is invalid where it stands */
  assert_int_equal(text_sanitize(out, sizeof(out), "ab\xc3\x9f", 3), 3);
  assert_string_equal(out, "ab?");
  assert_int_equal(text_sanitize(out, sizeof(out), "ab\0cd", 5), 2);
  assert_string_equal(out, "ab");
  assert_int_equal(text_sanitize(out, sizeof(out), "anything", 0), 0);
  assert_string_equal(out, "");
  /* an unterminated buffer is read only up to in_len */
  const char raw[4] = {'w', 'x', 'y', 'z'};
  assert_int_equal(text_sanitize(out, sizeof(out), raw, sizeof(raw)), 4);
  assert_string_equal(out, "wxyz");
}

/* FNV-1a 64 of known inputs (the published test vectors). */
static void text_hash64__vectors(void **state) {
  (void)state;
  assert_int_equal(text_hash64("", 0), 0xcbf29ce484222325ull);
  assert_int_equal(text_hash64("a", 1), 0xaf63dc4c8601ec8cull);
  assert_int_equal(text_hash64("foobar", 6), 0x85944171f73967e8ull);
}

/* Short names are copied (sanitised); a long one keeps a prefix and the
 * hash of the whole, so two that differ only past the cut stay apart, and
 * the cut never splits a UTF-8 sequence. */
static void text_sanitize_keyed__cut_with_hash(void **state) {
  (void)state;
  char out[32], other[32], want[32];
  assert_int_equal(text_sanitize_keyed(out, sizeof(out), "short", 5), 5);
  assert_string_equal(out, "short");
  const char *a = "0123456789abcdefghijklmnopqrstuvwxyz-A";
  const char *b = "0123456789abcdefghijklmnopqrstuvwxyz-B";
  assert_int_equal(text_sanitize_keyed(out, sizeof(out), a, strlen(a)), 31);
  text_sanitize_keyed(other, sizeof(other), b, strlen(b));
  snprintf(want, sizeof(want), "0123456789abcd~%016llx",
           (unsigned long long)text_hash64(a, strlen(a)));
  assert_string_equal(out, want);
  assert_string_not_equal(out, other);
  assert_memory_equal(out, other, 14); /* the same prefix */
  /* "ß" (2 bytes) across the cut at byte 14: left out whole */
  const char *u = "0123456789abc\xc3\x9f-0123456789abcdefghij";
  size_t n = text_sanitize_keyed(out, sizeof(out), u, strlen(u));
  assert_int_equal(n, 13 + TEXT_KEYED_SUFFIX_LEN);
  assert_int_equal(out[13], '~');
  /* exactly fitting: no hash */
  const char *fits = "0123456789012345678901234567890";
  assert_int_equal(text_sanitize_keyed(out, sizeof(out), fits, 31), 31);
  assert_string_equal(out, fits);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(text_sanitize__table),
      cmocka_unit_test(text_sanitize__control_characters),
      cmocka_unit_test(text_sanitize__bidi_controls),
      cmocka_unit_test(text_sanitize__invalid_utf8),
      cmocka_unit_test(text_sanitize__truncation),
      cmocka_unit_test(text_sanitize__input_length),
      cmocka_unit_test(text_hash64__vectors),
      cmocka_unit_test(text_sanitize_keyed__cut_with_hash),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
