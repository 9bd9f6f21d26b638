/*
 * top_format.c: values for people (top_format_value in top_screen.h), by the
 * unit of the field's collectd type as the one unit table has it
 * (common/core/metric_unit.h): percent, bytes, bytes per second, hertz,
 * watts, joules, volts, degrees, revolutions, time, or a plain number with
 * its symbol. Never by the field's name.
 */
#include "common/core/metric_unit.h"
#include "common/top/top_screen.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static size_t top_fmt_len(int n, size_t size) {
  if (n < 0)
    return 0;
  return (size_t)n >= size ? size - 1 : (size_t)n;
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
  size_t len = top_fmt_len(n, size);
  /* no unit: drop the trailing space */
  if (len > 0 && buf[len - 1] == ' ')
    buf[--len] = '\0';
  return len;
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
  return top_fmt_len(
      snprintf(buf, size, "%.*f %s", fabs(v) < 10 ? 2 : 1, v, unit[k]), size);
}

/* A number without a unit of its own: integers whole up to a million,
 * fractions with two decimals below 10^4, else scaled (12.3 M). */
static size_t top_plain(char *buf, size_t size, bool is_int, double v,
                        const char *symbol) {
  const char *sep = symbol[0] != '\0' && symbol[0] != '/' ? " " : "";
  if (is_int && fabs(v) < 1e6)
    return top_fmt_len(snprintf(buf, size, "%.0f%s%s", v, sep, symbol), size);
  if (!is_int && fabs(v) < 1e4)
    return top_fmt_len(snprintf(buf, size, "%.2f%s%s", v, sep, symbol), size);
  char unit[24];
  snprintf(unit, sizeof(unit), "%s", symbol);
  return top_scaled(buf, size, v, /*iec=*/false, unit);
}

size_t top_format_value(char *buf, size_t size, const char *ctype, bool is_int,
                        double v) {
  if (size == 0)
    return 0;
  const struct metric_unit *u = metric_unit_find(ctype);
  const char *sym = u != NULL ? u->symbol : "";
  if (strcmp(sym, "%") == 0)
    return top_fmt_len(snprintf(buf, size, "%.1f%%", v), size);
  if (strcmp(sym, "B") == 0)
    return top_scaled(buf, size, v, /*iec=*/true, "B");
  if (strcmp(sym, "B/s") == 0)
    return top_scaled(buf, size, v, /*iec=*/true, "B/s");
  if (strcmp(sym, "Hz") == 0 || strcmp(sym, "W") == 0 ||
      strcmp(sym, "J") == 0 || strcmp(sym, "V") == 0)
    return top_scaled(buf, size, v, /*iec=*/false, sym);
  if (strcmp(sym, "C") == 0)
    return top_fmt_len(snprintf(buf, size, "%.1f C", v), size);
  if (strcmp(sym, "rpm") == 0)
    return top_fmt_len(snprintf(buf, size, "%.0f rpm", v), size);
  if (strcmp(sym, "s") == 0)
    return top_seconds(buf, size, v);
  if (strcmp(sym, "ns") == 0)
    return top_seconds(buf, size, v / 1e9);
  return top_plain(buf, size, is_int, v, sym);
}
