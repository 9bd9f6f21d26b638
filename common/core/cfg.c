/*
 * cfg.c: typed configuration getters (see cfg.h).
 */
#include "common/core/cfg.h"
#include "common/core/log.h"
#include "common/core/numfmt.h"

#include <errno.h>
#include <inttypes.h>
#include <locale.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void cfg_item_clear(struct cfg_item *item) {
  for (size_t i = 0; i < item->n_values; i++)
    free((void *)item->values[i].string);
  free((void *)item->values);
  cfg_items_free((struct cfg_item *)item->children, item->n_children);
  free((void *)item->key);
  memset(item, 0, sizeof(*item));
}

int cfg_item_copy(struct cfg_item *out, const struct cfg_item *in) {
  memset(out, 0, sizeof(*out));
  struct cfg_value *values =
      in->n_values ? calloc(in->n_values, sizeof(*values)) : NULL;
  struct cfg_item *children =
      in->n_children ? calloc(in->n_children, sizeof(*children)) : NULL;
  out->key = strdup(in->key);
  out->line = in->line;
  out->values = values;
  out->children = children;
  bool ok = out->key != NULL && (values != NULL || in->n_values == 0) &&
            (children != NULL || in->n_children == 0);
  for (size_t i = 0; ok && i < in->n_values; i++) {
    values[i] = in->values[i];
    values[i].string = NULL;
    out->n_values = i + 1;
    if (in->values[i].type == CFG_STRING &&
        (values[i].string = strdup(in->values[i].string)) == NULL)
      ok = false;
  }
  for (size_t i = 0; ok && i < in->n_children; i++) {
    out->n_children = i + 1;
    ok = cfg_item_copy(&children[i], &in->children[i]) == 0;
  }
  if (ok)
    return 0;
  cfg_item_clear(out);
  return -ENOMEM;
}

void cfg_items_free(struct cfg_item *items, size_t n) {
  for (size_t i = 0; i < n; i++)
    cfg_item_clear(&items[i]);
  free(items);
}

bool cfg_key_is(const struct cfg_item *item, const char *key) {
  return strcasecmp(item->key, key) == 0;
}

static int cfg_fail(const char *plugin, const struct cfg_item *item,
                    const char *problem) {
  log_msg(LOG_LEVEL_ERROR, plugin, "config", item->key, "%s", problem);
  return -EINVAL;
}

static int cfg_one_value(const char *plugin, const struct cfg_item *item) {
  if (item->n_values != 1 || item->n_children != 0)
    return cfg_fail(plugin, item, "expected exactly one value");
  return 0;
}

int cfg_get_string(const char *plugin, const struct cfg_item *item,
                   const char **out) {
  int rc = cfg_one_value(plugin, item);
  if (rc < 0)
    return rc;
  const struct cfg_value *v = &item->values[0];
  if (v->type != CFG_STRING && !(v->type == CFG_NUMBER && v->string != NULL))
    return cfg_fail(plugin, item, "expected a string");
  *out = v->string;
  return 0;
}

int cfg_number_text(double v, char *buf, size_t size) {
  if (!isfinite(v))
    return -EINVAL;
  int n;
  if (v == (double)(int64_t)v && fabs(v) <= 9007199254740992.0)
    n = snprintf(buf, size, "%" PRId64, (int64_t)v);
  else if ((n = numfmt_double(v, buf, size)) < 0)
    return -ERANGE;
  return n >= 0 && (size_t)n < size ? 0 : -ERANGE;
}

int cfg_get_bool(const char *plugin, const struct cfg_item *item, bool *out) {
  static const char *const truths[] = {"true", "yes", "on", "1"};
  static const char *const lies[] = {"false", "no", "off", "0"};
  int rc = cfg_one_value(plugin, item);
  if (rc < 0)
    return rc;
  const struct cfg_value *v = &item->values[0];
  if (v->type == CFG_BOOLEAN) {
    *out = v->boolean;
    return 0;
  }
  if (v->type == CFG_STRING) {
    for (size_t i = 0; i < sizeof(truths) / sizeof(truths[0]); i++) {
      if (strcasecmp(v->string, truths[i]) == 0) {
        *out = true;
        return 0;
      }
      if (strcasecmp(v->string, lies[i]) == 0) {
        *out = false;
        return 0;
      }
    }
    log_msg(LOG_LEVEL_ERROR, plugin, "config", item->key,
            "expected true or false, got \"%s\"", v->string);
    return -EINVAL;
  }
  return cfg_fail(plugin, item, "expected true or false");
}

static pthread_once_t cfg_once = PTHREAD_ONCE_INIT;
static locale_t cfg_c_locale; /* lives as long as the process */

static void cfg_make_c_locale(void) {
  cfg_c_locale = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
}

static bool cfg_digit(char c) { return c >= '0' && c <= '9'; }

/* The value of a hex digit (either case), or -1; no locale involved. */
static int cfg_hex_digit(char c) {
  if (cfg_digit(c))
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

int cfg_parse_double(const char *text, double *out) {
  /* Accept only [+-]digits[.digits][(e|E)[+-]digits] (or [+-].digits...),
   * so "1,5", hex, "inf", "nan" and spaces are errors in every locale; then
   * let strtod_l convert in the C locale, which rounds correctly (summing
   * digit * 0.1^k by hand made "0.3" 0.30000000000000004). */
  const char *p = text;
  if (*p == '+' || *p == '-')
    p++;
  if (!cfg_digit(*p) && !(*p == '.' && cfg_digit(p[1])))
    return -EINVAL;
  while (cfg_digit(*p))
    p++;
  if (*p == '.')
    for (p++; cfg_digit(*p); p++)
      ;
  if (*p == 'e' || *p == 'E') {
    p++;
    if (*p == '+' || *p == '-')
      p++;
    if (!cfg_digit(*p))
      return -EINVAL;
    while (cfg_digit(*p))
      p++;
  }
  if (*p != '\0')
    return -EINVAL;
  pthread_once(&cfg_once, cfg_make_c_locale);
  if (cfg_c_locale == (locale_t)0)
    return -EINVAL; /* newlocale failed: ENOMEM */
  char *end;
  double value = strtod_l(text, &end, cfg_c_locale);
  if (end != p || !isfinite(value))
    return -EINVAL;
  *out = value;
  return 0;
}

/* `v` as the shortest text that reads back as `v`, without numfmt's ".0"
 * (messages only: "between 0 and 86400"). */
static const char *cfg_fmt_double(double v, char *buf, size_t size) {
  int n = numfmt_double(v, buf, size);
  if (n < 0)
    return "?";
  if (n > 2 && strcmp(buf + n - 2, ".0") == 0)
    buf[n - 2] = '\0';
  return buf;
}

int cfg_get_double(const char *plugin, const struct cfg_item *item, double min,
                   double max, double *out) {
  int rc = cfg_one_value(plugin, item);
  if (rc < 0)
    return rc;
  const struct cfg_value *v = &item->values[0];
  double value;
  if (v->type == CFG_NUMBER) {
    value = v->number;
  } else if (v->type == CFG_STRING) {
    if (cfg_parse_double(v->string, &value) < 0) {
      log_msg(LOG_LEVEL_ERROR, plugin, "config", item->key,
              "expected a number, got \"%s\"", v->string);
      return -EINVAL;
    }
  } else {
    return cfg_fail(plugin, item, "expected a number");
  }
  if (!isfinite(value) || value < min || value > max) {
    char lo[NUMFMT_DOUBLE_MAX], hi[NUMFMT_DOUBLE_MAX], got[NUMFMT_DOUBLE_MAX];
    log_msg(LOG_LEVEL_ERROR, plugin, "config", item->key,
            "expected a number between %s and %s, got %s",
            cfg_fmt_double(min, lo, sizeof(lo)),
            cfg_fmt_double(max, hi, sizeof(hi)),
            v->type == CFG_STRING ? v->string
                                  : cfg_fmt_double(value, got, sizeof(got)));
    return -EINVAL;
  }
  *out = value;
  return 0;
}

/* digits * 10^exp10 into *out; -ERANGE past UINT64_MAX. `digits` holds
 * only '0'..'9' and no leading zero. */
static int cfg_u64_scale(const char *digits, size_t n, int64_t exp10,
                         uint64_t *out) {
  uint64_t value = 0;
  if (n == 0) {
    *out = 0; /* zero times any power of ten */
    return 0;
  }
  if ((int64_t)n + exp10 > 20)
    return -ERANGE; /* at least 10^20 */
  for (size_t i = 0; i < n; i++)
    if (__builtin_mul_overflow(value, 10, &value) ||
        __builtin_add_overflow(value, (uint64_t)(digits[i] - '0'), &value))
      return -ERANGE;
  for (int64_t e = 0; e < exp10; e++)
    if (__builtin_mul_overflow(value, 10, &value))
      return -ERANGE;
  *out = value;
  return 0;
}

int cfg_parse_u64(const char *text, uint64_t *out) {
  const char *p = text;
  uint64_t value = 0;
  if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
    p += 2;
    if (cfg_hex_digit(*p) < 0)
      return -EINVAL; /* "0x" alone, "0x-1", "0x 1" */
    for (int d; (d = cfg_hex_digit(*p)) >= 0; p++) {
      if (value >> 60 != 0)
        return -ERANGE; /* a 17th significant hex digit */
      value = value << 4 | (uint64_t)d;
    }
    if (*p != '\0')
      return -EINVAL;
    *out = value;
    return 0;
  }
  /* Decimal, exactly: [digits][.digits][(e|E)[+-]digits], at least one
   * digit before the exponent. The significant digits are collected
   * without leading zeros, the position of the point moves the exponent,
   * and the value must come out whole ("1e3" and "2.50e1" are whole,
   * "2.5" is not). */
  char digits[24];
  size_t n = 0, n_mantissa = 0;
  int64_t exp10 = 0;
  bool point = false, dropped_nonzero = false;
  for (;; p++) {
    if (*p == '.' && !point) {
      point = true;
      continue;
    }
    if (!cfg_digit(*p))
      break;
    n_mantissa++;
    if (n == 0 && *p == '0') {
      if (point)
        exp10--; /* 0.05: the zero after the point shifts the scale */
      continue;
    }
    if (n < sizeof(digits)) {
      digits[n++] = *p;
      if (point)
        exp10--;
    } else {
      /* Past 24 significant digits: the integer part is too large, or
       * fraction digits only matter as zero or not. */
      if (!point)
        exp10++;
      else if (*p != '0')
        dropped_nonzero = true;
    }
  }
  if (n_mantissa == 0)
    return -EINVAL;
  if (*p == 'e' || *p == 'E') {
    p++;
    bool negative = *p == '-';
    if (*p == '+' || *p == '-')
      p++;
    if (!cfg_digit(*p))
      return -EINVAL;
    int64_t e = 0;
    for (; cfg_digit(*p); p++)
      if (e < 100000)
        e = e * 10 + (*p - '0');
    exp10 += negative ? -e : e;
  }
  if (*p != '\0')
    return -EINVAL;
  /* Trailing zeros of the digits may pay for a negative exponent. */
  while (exp10 < 0 && n > 0 && digits[n - 1] == '0') {
    n--;
    exp10++;
  }
  if (n > 0 && (exp10 < 0 || dropped_nonzero))
    return -EDOM; /* not a whole number */
  return cfg_u64_scale(digits, n, exp10, out);
}

int cfg_get_u64(const char *plugin, const struct cfg_item *item, uint64_t min,
                uint64_t max, uint64_t *out) {
  int rc = cfg_one_value(plugin, item);
  if (rc < 0)
    return rc;
  const struct cfg_value *v = &item->values[0];
  char got[NUMFMT_DOUBLE_MAX];
  const char *as_written = got; /* the value as the user wrote it */
  uint64_t value = 0;
  if (v->type == CFG_STRING) {
    as_written = v->string;
    rc = cfg_parse_u64(v->string, &value);
    if (rc == -EINVAL) {
      log_msg(LOG_LEVEL_ERROR, plugin, "config", item->key,
              "expected a non-negative integer (decimal or 0x hex), got "
              "\"%s\"",
              v->string);
      return rc;
    }
    if (rc == -EDOM) {
      log_msg(LOG_LEVEL_ERROR, plugin, "config", item->key,
              "expected a whole number, got \"%s\"", v->string);
      return -EINVAL;
    }
  } else if (v->type == CFG_NUMBER) {
    /* collectd parses an unquoted number into a double: above 2^53 it may
     * already have been rounded to a neighbour, so refuse it. */
    double d = v->number;
    cfg_fmt_double(d, got, sizeof(got));
    if (!isfinite(d) || d != floor(d) || d < 0) {
      log_msg(LOG_LEVEL_ERROR, plugin, "config", item->key,
              "expected a non-negative whole number, got %s", got);
      return -EINVAL;
    }
    if (d > 9007199254740992.0) {
      log_msg(LOG_LEVEL_ERROR, plugin, "config", item->key,
              "%.0f is above 2^53, where collectd's numbers (doubles) "
              "cannot hold every integer; write it as a string, in quotes",
              d);
      return -EINVAL;
    }
    value = (uint64_t)d;
    snprintf(got, sizeof(got), "%" PRIu64, value);
  } else {
    return cfg_fail(plugin, item, "expected a number");
  }
  if (rc == -ERANGE || value < min || value > max) {
    log_msg(LOG_LEVEL_ERROR, plugin, "config", item->key,
            "expected a number between %" PRIu64 " and %" PRIu64 ", got %s",
            min, max, as_written);
    return -EINVAL;
  }
  *out = value;
  return 0;
}

int cfg_unknown(const char *plugin, const struct cfg_item *item) {
  return cfg_fail(plugin, item, "unknown option");
}

void *cfg_array_grow(void *arr, size_t n, size_t size) {
  if (n > 0 && (n & (n - 1)) != 0)
    return arr; /* below the power of two at or above n: room */
  size_t cap = n == 0 ? 1 : 2 * n;
  if (cap < n || cap > SIZE_MAX / size)
    return NULL;
  return realloc(arr, cap * size);
}
