/*
 * fuzz_text.c: libFuzzer target for text_sanitize() and
 * text_sanitize_keyed(): any bytes in, and out always NUL-terminated,
 * within its size, valid UTF-8 without control characters (C0, DEL, C1) or bidi
 * controls; a keyed name longer than its buffer ends in "~" and 16 hex digits.
 */
#include "common/core/text.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Valid UTF-8 (RFC 3629: no overlongs, no surrogates, <= U+10FFFF) and no
 * control character. */
static int text_ok(const unsigned char *s, size_t len) {
  for (size_t i = 0; i < len;) {
    unsigned char c = s[i];
    size_t n = c < 0x80             ? 1
               : (c & 0xe0) == 0xc0 ? 2
               : (c & 0xf0) == 0xe0 ? 3
               : (c & 0xf8) == 0xf0 ? 4
                                    : 0;
    if (n == 0 || i + n > len || c < 0x20 || c == 0x7f || c == 0xc0 ||
        c == 0xc1 || c > 0xf4)
      return 0;
    if (c == 0xc2 && (s[i + 1] & 0xff) <= 0x9f)
      return 0; /* C1: U+0080..U+009F */
    uint32_t cp = n == 1 ? c : c & (0x7f >> n);
    for (size_t k = 1; k < n; k++) {
      if ((s[i + k] & 0xc0) != 0x80)
        return 0;
      cp = (cp << 6) | (s[i + k] & 0x3f);
    }
    if (text_bidi(cp))
      return 0;
    i += n;
  }
  return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1)
    return 0;
  /* the first byte picks the output size: 1..256 */
  size_t out_size = (size_t)data[0] + 1;
  char *in = malloc(size);
  char *out = malloc(out_size);
  if (in == NULL || out == NULL)
    abort();
  memcpy(in, data + 1, size - 1);
  size_t n = text_sanitize(out, out_size, in, size - 1);
  if (n >= out_size || out[n] != '\0' || strlen(out) != n ||
      !text_ok((const unsigned char *)out, n))
    abort();
  /* whether the whole sanitised name fits: then no hash is added */
  char *whole = malloc(size);
  if (whole == NULL)
    abort();
  size_t whole_len = text_sanitize(whole, size, in, size - 1);
  bool cut = out_size > TEXT_KEYED_SUFFIX_LEN &&
             (whole_len >= out_size || size - 1 >= 4096);
  n = text_sanitize_keyed(out, out_size, in, size - 1);
  if (n >= out_size || out[n] != '\0' || strlen(out) != n)
    abort();
  if (cut &&
      (n < TEXT_KEYED_SUFFIX_LEN || out[n - TEXT_KEYED_SUFFIX_LEN] != '~' ||
       strspn(out + n - 16, "0123456789abcdef") != 16 ||
       memcmp(out, whole, n - TEXT_KEYED_SUFFIX_LEN) != 0))
    abort(); /* a cut name: a prefix of the whole, "~", the hash */
  if (!cut && (whole_len < out_size ? strcmp(out, whole) != 0
                                    : memcmp(out, whole, n) != 0))
    abort(); /* just sanitised (cut plainly when no hash fits) */
  free(whole);
  free(in);
  free(out);
  return 0;
}
