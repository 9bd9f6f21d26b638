/*
 * cfg.c: typed configuration getters (see cfg.h).
 */
#include "common/cfg.h"
#include "common/log.h"

#include <errno.h>
#include <math.h>
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

int cfg_parse_double(const char *text, double *out) {
  /* strtod honours LC_NUMERIC; accept only [+-]digits[.digits][e[+-]digits]
   * and convert by hand so "1,5" is an error in every locale. */
  const char *p = text;
  double sign = 1.0;
  if (*p == '+' || *p == '-')
    sign = (*p++ == '-') ? -1.0 : 1.0;
  if (!(*p >= '0' && *p <= '9') && !(*p == '.' && p[1] >= '0' && p[1] <= '9'))
    return -EINVAL;
  double value = 0.0;
  while (*p >= '0' && *p <= '9')
    value = value * 10.0 + (*p++ - '0');
  if (*p == '.') {
    double scale = 0.1;
    for (p++; *p >= '0' && *p <= '9'; p++, scale /= 10.0)
      value += (*p - '0') * scale;
  }
  if (*p == 'e' || *p == 'E') {
    p++;
    int esign = 1, exponent = 0;
    if (*p == '+' || *p == '-')
      esign = (*p++ == '-') ? -1 : 1;
    if (!(*p >= '0' && *p <= '9'))
      return -EINVAL;
    while (*p >= '0' && *p <= '9' && exponent < 10000)
      exponent = exponent * 10 + (*p++ - '0');
    value *= pow(10.0, esign * exponent);
  }
  if (*p != '\0' || !isfinite(value))
    return -EINVAL;
  *out = sign * value;
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
