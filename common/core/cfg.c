/*
 * cfg.c: typed configuration getters (see cfg.h).
 */
#include "common/core/cfg.h"
#include "common/core/log.h"

#include <errno.h>
#include <inttypes.h>
#include <locale.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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
  if (item->values[0].type != CFG_STRING)
    return cfg_fail(plugin, item, "expected a string");
  *out = item->values[0].string;
  return 0;
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
    log_msg(LOG_LEVEL_ERROR, plugin, "config", item->key,
            "expected a number between %g and %g, got %g", min, max, value);
    return -EINVAL;
  }
  *out = value;
  return 0;
}

int cfg_get_u64(const char *plugin, const struct cfg_item *item, uint64_t min,
                uint64_t max, uint64_t *out) {
  double value;
  int rc = cfg_get_double(plugin, item, (double)min, (double)max, &value);
  if (rc < 0)
    return rc;
  /* (double)UINT64_MAX rounds up to 2^64, which passes the range check
   * but does not fit: converting it would be undefined behaviour. */
  if (value >= 18446744073709551616.0) {
    log_msg(LOG_LEVEL_ERROR, plugin, "config", item->key,
            "expected a number between %" PRIu64 " and %" PRIu64 ", got %g",
            min, max, value);
    return -EINVAL;
  }
  if (value != floor(value)) {
    log_msg(LOG_LEVEL_ERROR, plugin, "config", item->key,
            "expected a whole number, got %g", value);
    return -EINVAL;
  }
  *out = (uint64_t)value;
  return 0;
}

int cfg_unknown(const char *plugin, const struct cfg_item *item) {
  return cfg_fail(plugin, item, "unknown option");
}
