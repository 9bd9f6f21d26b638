/*
 * top_format.c: values for people, by field name and collectd type
 * (top_format_value in top_model.h): percent, bytes, bytes per second,
 * hertz, seconds, watts, degrees, plain numbers.
 */
#include "common/top/top_model.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static bool top_has(const char *s, const char *part) {
  return s != NULL && strstr(s, part) != NULL;
}

static bool top_ends(const char *s, const char *suffix) {
  size_t a = strlen(s), b = strlen(suffix);
  return a >= b && strcmp(s + a - b, suffix) == 0;
}

/* v scaled by 1024 (iec) or 1000 with a prefix; "%.1f %s%s". */
static size_t top_scaled(char *buf, size_t size, double v, bool iec,
                         const char *unit) {
  static const char *const si[] = {"", "k", "M", "G", "T", "P"};
  static const char *const bin[] = {"", "Ki", "Mi", "Gi", "Ti", "Pi"};
  double base = iec ? 1024.0 : 1000.0;
  int k = 0;
  double a = fabs(v);
  /* 999.96 k prints as 1000.0 k: take the next prefix then */
  while ((a >= base || (k < 5 && a >= base - 0.05 && a > 999)) && k < 5) {
    a /= base;
    v /= base;
    k++;
  }
  int n = k == 0 && v == floor(v) && a < 1e15
              ? snprintf(buf, size, "%.0f %s", v, unit)
              : snprintf(buf, size, "%.*f %s%s", a < 10 ? 2 : 1, v,
                         iec ? bin[k] : si[k], unit);
  if (n < 0)
    n = 0;
  if ((size_t)n >= size)
    n = size ? (int)size - 1 : 0;
  /* no unit: drop the trailing space */
  if (n > 0 && buf[n - 1] == ' ')
    buf[--n] = '\0';
  return (size_t)n;
}

/* Seconds as ns, us, ms or s. */
static size_t top_seconds(char *buf, size_t size, double s) {
  static const char *const unit[] = {"ns", "us", "ms", "s"};
  double v = s * 1e9;
  int k = 0;
  while (fabs(v) >= 1000 && k < 3) {
    v /= 1000;
    k++;
  }
  int n = snprintf(buf, size, "%.*f %s", fabs(v) < 10 ? 2 : 1, v, unit[k]);
  return n < 0 ? 0 : (size_t)n >= size ? size - 1 : (size_t)n;
}

size_t top_format_value(char *buf, size_t size, const char *key,
                        const char *ctype, bool is_int, double v) {
  int n;
  if (size == 0)
    return 0;
  if (top_has(key, "percent") || top_has(key, "utilization") ||
      (ctype && strcmp(ctype, "percent") == 0))
    n = snprintf(buf, size, "%.1f%%", v);
  else if (top_has(key, "bandwidth") || top_has(key, "bytes_per_second") ||
           top_has(ctype, "bytes_per_second"))
    return top_scaled(buf, size, v, /*iec=*/true, "B/s");
  else if (top_ends(key, "bytes") ||
           (ctype &&
            (strcmp(ctype, "bytes") == 0 || strcmp(ctype, "gpu_bytes") == 0)))
    return top_scaled(buf, size, v, /*iec=*/true, "B");
  else if (top_ends(key, "_hz") || top_has(key, "frequency") ||
           top_has(ctype, "hertz") || (ctype && !strcmp(ctype, "frequency")))
    return top_scaled(buf, size, v, /*iec=*/false, "Hz");
  else if (top_ends(key, "_seconds"))
    return top_seconds(buf, size, v);
  else if (top_ends(key, "_ns"))
    return top_seconds(buf, size, v / 1e9);
  else if (top_has(key, "watt") || top_has(key, "power") ||
           top_has(ctype, "power"))
    return top_scaled(buf, size, v, /*iec=*/false, "W");
  else if (top_has(key, "temp") || top_has(key, "celsius"))
    n = snprintf(buf, size, "%.1f C", v);
  else if (is_int && fabs(v) < 1e6)
    n = snprintf(buf, size, "%.0f", v);
  else if (!is_int && fabs(v) < 1e4)
    n = snprintf(buf, size, "%.2f", v);
  else
    return top_scaled(buf, size, v, /*iec=*/false, "");
  return n < 0 ? 0 : (size_t)n >= size ? size - 1 : (size_t)n;
}
