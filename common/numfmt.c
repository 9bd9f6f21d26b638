/*
 * numfmt.c: locale-independent shortest round-trip doubles (see numfmt.h).
 */
#include "common/numfmt.h"

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static locale_t numfmt_c_locale(void) {
  static locale_t c_locale;
  if (c_locale == (locale_t)0)
    c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0);
  return c_locale;
}

int numfmt_double(double v, char *out, size_t size) {
  if (!isfinite(v))
    return -EINVAL;
  char text[40];
  locale_t c_locale = numfmt_c_locale();
  locale_t old = c_locale ? uselocale(c_locale) : (locale_t)0;
  for (int precision = 15; precision <= 17; precision++) {
    snprintf(text, sizeof(text), "%.*g", precision, v);
    if (strtod(text, NULL) == v)
      break;
  }
  if (old != (locale_t)0)
    uselocale(old);
  if (strpbrk(text, ".eEn") == NULL) /* integral: keep it a float */
    strcat(text, ".0");
  size_t len = strlen(text);
  if (len >= size)
    return -E2BIG;
  memcpy(out, text, len + 1);
  return (int)len;
}
