/*
 * top_text.h: fitting untrusted text (process names, cgroup paths, tag
 * values) into a terminal column by display width.
 *
 * A byte string is decoded as the locale's multibyte text (mbrtowc; the
 * view runs under the user's LC_CTYPE). A byte that does not decode, a
 * control character (C0, DEL, C1: escape sequences start with ESC or CSI)
 * and a character wcwidth() cannot measure (-1) each become '?'. Wide
 * characters (CJK, emoji) count two columns and are never cut in half.
 */
#ifndef COMMON_TOP_TOP_TEXT_H
#define COMMON_TOP_TOP_TEXT_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Append to `out` (size `out_size`, NUL-terminated, at most out_size - 1
 * bytes) the longest printable prefix of `in` that is at most `width`
 * columns wide, padded with spaces to exactly `width` columns when `pad`.
 * Returns the number of columns written. Never splits a character.
 */
int top_text_fit(char *out, size_t out_size, const char *in, int width,
                 int pad);

/* Display width of `in` after the same replacements. */
int top_text_width(const char *in);

/* True when the locale's codeset is UTF-8 (nl_langinfo(CODESET)): the cut
 * marker is then U+2026 (one column), else '~'; charts use braille. */
bool top_text_utf8(void);

/* Like top_text_fit, but a text wider than `width` ends in the cut marker
 * (so a cut name never reads as a whole one). */
int top_text_fit_end(char *out, size_t out_size, const char *in, int width,
                     int pad);

/* Like top_text_fit_end, but a path ("/user.slice/user-1000.slice/app.scope")
 * is cut in the middle: its last component is kept whole when it fits with
 * a little of the front, else its end is kept after the marker. */
int top_text_fit_middle(char *out, size_t out_size, const char *in, int width,
                        int pad);

#endif
