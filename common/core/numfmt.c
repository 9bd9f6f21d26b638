/*
 * numfmt.c: locale-independent shortest round-trip doubles (see numfmt.h).
 *
 * printf and strtod follow LC_NUMERIC, which a host (or a library it loads)
 * may have set to a locale with a ',' decimal separator. Both run here under
 * a private C locale object installed with uselocale(), which affects only
 * the calling thread, so collectd's other reader threads are not disturbed.
 */
#include "common/core/numfmt.h"

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pthread_once_t numfmt_once = PTHREAD_ONCE_INIT;
static locale_t numfmt_c_locale; /* never freed: lives as long as the process */

static void numfmt_make_c_locale(void) {
  numfmt_c_locale = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
}

/* Only if newlocale() failed (ENOMEM): put the thread's decimal separator
 * back to '.'. The separator may be several bytes long. */
static void numfmt_fix_separator(char *text) {
  const char *point = localeconv()->decimal_point;
  size_t n = strlen(point);
  if (n == 0 || strcmp(point, ".") == 0)
    return;
  char *p = strstr(text, point);
  if (p == NULL)
    return;
  *p = '.';
  memmove(p + 1, p + n, strlen(p + n) + 1);
}

int numfmt_double(double v, char *out, size_t size) {
  if (!isfinite(v))
    return -EINVAL;
  char text[NUMFMT_DOUBLE_MAX];
  pthread_once(&numfmt_once, numfmt_make_c_locale);
  locale_t old = (locale_t)0;
  if (numfmt_c_locale != (locale_t)0)
    old = uselocale(numfmt_c_locale);
  /* 17 significant digits always round-trip an IEEE double; fewer are
   * tried first so that 42.1 prints as "42.1". */
  for (int precision = 15; precision <= 17; precision++) {
    snprintf(text, sizeof(text), "%.*g", precision, v);
    if (strtod(text, NULL) == v)
      break;
  }
  if (old != (locale_t)0)
    uselocale(old);
  else
    numfmt_fix_separator(text);
  if (strpbrk(text, ".e") == NULL) /* integral: keep it a float */
    strcat(text, ".0");
  size_t len = strlen(text);
  if (len >= size)
    return -E2BIG;
  memcpy(out, text, len + 1);
  return (int)len;
}

double numfmt_scale(double v, double scale) {
  if (scale == 1.0 || !(scale > 0) || scale >= 1.0)
    return v * scale;
  double inv = round(1.0 / scale);
  if (fabs(1.0 / scale - inv) < 1e-6 * inv)
    return v / inv;
  return v * scale;
}
