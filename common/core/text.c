/*
 * text.c: sanitising hostile strings (see text.h).
 */
#include "common/core/text.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* Length of the valid UTF-8 sequence at s (1..4), or 0 if invalid, and
 * its code point in *out. Rejects overlongs, surrogates and code points
 * above U+10FFFF. */
static size_t text_utf8_len(const unsigned char *s, size_t avail,
                            uint32_t *out) {
  unsigned char c = s[0];
  size_t len;
  uint32_t min, cp;
  *out = c;
  if (c < 0x80)
    return 1;
  if (c >= 0xc2 && c <= 0xdf) {
    len = 2, min = 0x80, cp = c & 0x1f;
  } else if (c >= 0xe0 && c <= 0xef) {
    len = 3, min = 0x800, cp = c & 0x0f;
  } else if (c >= 0xf0 && c <= 0xf4) {
    len = 4, min = 0x10000, cp = c & 0x07;
  } else {
    return 0;
  }
  if (avail < len)
    return 0;
  for (size_t i = 1; i < len; i++) {
    if ((s[i] & 0xc0) != 0x80)
      return 0;
    cp = (cp << 6) | (s[i] & 0x3f);
  }
  if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
    return 0;
  *out = cp;
  return len;
}

/* UAX #9 (the Unicode bidirectional algorithm), section 2: the explicit
 * embeddings, overrides and isolates, and the implicit marks. Invisible,
 * they reorder the text around them on a terminal or a dashboard, so a
 * process name could make a line say what it does not. */
bool text_bidi(uint32_t cp) {
  return cp == 0x061c ||                   /* ARABIC LETTER MARK */
         cp == 0x200e || cp == 0x200f ||   /* LRM, RLM */
         (cp >= 0x202a && cp <= 0x202e) || /* LRE, RLE, PDF, LRO, RLO */
         (cp >= 0x2066 && cp <= 0x2069);   /* LRI, RLI, FSI, PDI */
}

size_t text_char(const char *s, size_t avail, bool *printable) {
  const unsigned char *u = (const unsigned char *)s;
  uint32_t cp;
  size_t n = text_utf8_len(u, avail, &cp);
  *printable = n > 0;
  if (n == 1 && (u[0] < 0x20 || u[0] == 0x7f))
    *printable = false; /* C0, DEL */
  else if (n == 2 && u[0] == 0xc2 && u[1] <= 0x9f)
    *printable = false; /* C1: U+0080..U+009F */
  else if (n > 1 && text_bidi(cp))
    *printable = false;
  return n ? n : 1;
}

size_t text_sanitize(char *out, size_t out_size, const char *in,
                     size_t in_len) {
  size_t o = 0;
  for (size_t i = 0; i < in_len && in[i] != '\0';) {
    bool ok;
    size_t n = text_char(in + i, in_len - i, &ok);
    size_t emit = ok ? n : 1;
    if (o + emit >= out_size)
      break;
    if (!ok) {
      out[o++] = '?';
    } else {
      memcpy(out + o, in + i, n);
      o += n;
    }
    i += n;
  }
  while (o > 0 && (out[o - 1] == ' '))
    o--;
  out[o] = '\0';
  return o;
}

uint64_t text_hash64_step(uint64_t h, const void *data, size_t len) {
  const unsigned char *p = data;
  for (size_t i = 0; i < len; i++)
    h = (h ^ p[i]) * 0x100000001b3ull; /* FNV-1a 64 prime */
  return h;
}

uint64_t text_hash64(const void *data, size_t len) {
  return text_hash64_step(TEXT_HASH64_INIT, data, len);
}

size_t text_sanitize_keyed(char *out, size_t out_size, const char *in,
                           size_t in_len) {
  char full[4096];
  size_t len = text_sanitize(full, sizeof(full), in, in_len);
  if (out_size <= TEXT_KEYED_SUFFIX_LEN ||
      (len < out_size && in_len < sizeof(full))) {
    return text_sanitize(out, out_size, full, len);
  }
  char suffix[TEXT_KEYED_SUFFIX_LEN + 1];
  snprintf(suffix, sizeof(suffix), "~%016llx",
           (unsigned long long)text_hash64(in, in_len));
  /* text_sanitize() never splits a UTF-8 sequence at its cut */
  size_t kept = text_sanitize(out, out_size - TEXT_KEYED_SUFFIX_LEN, full, len);
  memcpy(out + kept, suffix, sizeof(suffix));
  return kept + TEXT_KEYED_SUFFIX_LEN;
}
