/*
 * top_text.c: display-width fitting of untrusted text (top_text.h).
 */
#include "common/top/top_text.h"
#include "common/core/text.h"

#include <langinfo.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <wchar.h>

/* The next character of `in` (at most `len` bytes): its width in `*cols`
 * and bytes to copy, or '?' when it is not printable. Returns the bytes
 * consumed (>= 1). */
static size_t top_text_next(const char *in, size_t len, mbstate_t *st,
                            int *cols, bool *replace) {
  wchar_t wc;
  size_t n = mbrtowc(&wc, in, len, st);
  if (n == (size_t)-1 || n == (size_t)-2 || n == 0) {
    memset(st, 0, sizeof(*st));
    *cols = 1;
    *replace = true;
    return 1;
  }
  int w = wcwidth(wc);
  /* wcwidth is -1 for C0/C1 controls and DEL in glibc; check explicitly
   * too, since the C locale decodes only ASCII. The bidi controls have
   * width 0 there: refused by the rule of text_char. */
  if (w < 0 || wc < 0x20 || (wc >= 0x7f && wc < 0xa0) ||
      text_bidi((uint32_t)wc)) {
    *cols = 1;
    *replace = true;
    return n;
  }
  *cols = w;
  *replace = false;
  return n;
}

int top_text_fit(char *out, size_t out_size, const char *in, int width,
                 int pad) {
  if (out_size == 0)
    return 0;
  size_t o = strlen(out);
  if (o >= out_size)
    return 0;
  size_t len = in ? strlen(in) : 0;
  mbstate_t st;
  memset(&st, 0, sizeof(st));
  int used = 0;
  for (size_t i = 0; i < len;) {
    int cols;
    bool replace;
    size_t n = top_text_next(in + i, len - i, &st, &cols, &replace);
    size_t bytes = replace ? 1 : n;
    if (used + cols > width || o + bytes + 1 > out_size)
      break;
    if (replace)
      out[o] = '?';
    else
      memcpy(out + o, in + i, n);
    o += bytes;
    used += cols;
    i += n;
  }
  while (pad && used < width && o + 2 <= out_size) {
    out[o++] = ' ';
    used++;
  }
  out[o] = '\0';
  return used;
}

int top_text_width(const char *in) {
  size_t len = in ? strlen(in) : 0;
  mbstate_t st;
  memset(&st, 0, sizeof(st));
  int used = 0;
  for (size_t i = 0; i < len;) {
    int cols;
    bool replace;
    i += top_text_next(in + i, len - i, &st, &cols, &replace);
    used += cols;
  }
  return used;
}

bool top_text_utf8(void) {
  const char *cs = nl_langinfo(CODESET);
  return cs != NULL && strcmp(cs, "UTF-8") == 0;
}

static const char *top_text_marker(void) {
  return top_text_utf8() ? "\xe2\x80\xa6" : "~";
}

static void top_text_pad(char *out, size_t out_size, int used, int width) {
  size_t o = strlen(out);
  while (used < width && o + 2 <= out_size) {
    out[o++] = ' ';
    used++;
  }
  out[o] = '\0';
}

int top_text_fit_end(char *out, size_t out_size, const char *in, int width,
                     int pad) {
  if (width <= 1 || top_text_width(in) <= width)
    return top_text_fit(out, out_size, in, width, pad);
  int used = top_text_fit(out, out_size, in, width - 1, 0);
  used += top_text_fit(out, out_size, top_text_marker(), 1, 0);
  if (pad)
    top_text_pad(out, out_size, used, width);
  return used < width && pad ? width : used;
}

/* The suffix of `in` that is at most `width` columns wide. */
static const char *top_text_tail(const char *in, int width) {
  int total = top_text_width(in);
  size_t len = strlen(in);
  mbstate_t st;
  memset(&st, 0, sizeof(st));
  size_t i = 0;
  while (i < len && total > width) {
    int cols;
    bool replace;
    i += top_text_next(in + i, len - i, &st, &cols, &replace);
    total -= cols;
  }
  return in + i;
}

int top_text_fit_middle(char *out, size_t out_size, const char *in, int width,
                        int pad) {
  if (in == NULL || width <= 1 || top_text_width(in) <= width)
    return top_text_fit(out, out_size, in, width, pad);
  const char *slash = strrchr(in, '/');
  int tail_w = slash != NULL && slash != in && slash[1] != '\0'
                   ? top_text_width(slash)
                   : -1;
  int used;
  if (tail_w > 0 && tail_w + 2 <= width) {
    /* "/user.slice/…/app-firefox.scope": the front, the marker, the end */
    used = top_text_fit(out, out_size, in, width - 1 - tail_w, 0);
    used += top_text_fit(out, out_size, top_text_marker(), 1, 0);
    used += top_text_fit(out, out_size, slash, tail_w, 0);
  } else {
    /* "…efox.scope": the end of the last component */
    used = top_text_fit(out, out_size, top_text_marker(), 1, 0);
    used +=
        top_text_fit(out, out_size, top_text_tail(in, width - 1), width - 1, 0);
  }
  if (pad)
    top_text_pad(out, out_size, used, width);
  return pad && used < width ? width : used;
}
