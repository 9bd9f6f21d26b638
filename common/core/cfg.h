/*
 * cfg.h: a host-neutral configuration tree and the typed getters every
 * plugin reads it with.
 *
 * The collectd host converts oconfig_item_t into this tree; the exec host
 * builds it from --Key=value arguments (all values are then strings, which
 * the getters accept wherever a number or boolean is expected). Getters log
 * "PLUGIN: config: KEY: problem" themselves and return -EINVAL, so callers
 * only propagate the error.
 */
#ifndef COMMON_CORE_CFG_H
#define COMMON_CORE_CFG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum cfg_type { CFG_STRING, CFG_NUMBER, CFG_BOOLEAN };

struct cfg_value {
  enum cfg_type type;
  const char *string; /* CFG_STRING */
  double number;      /* CFG_NUMBER */
  bool boolean;       /* CFG_BOOLEAN */
};

struct cfg_item {
  const char *key;
  const struct cfg_value *values;
  size_t n_values;
  const struct cfg_item *children;
  size_t n_children;
};

/* Case-insensitive key match. */
bool cfg_key_is(const struct cfg_item *item, const char *key);

/* Exactly one string value. *out is borrowed from the item. */
int cfg_get_string(const char *plugin, const struct cfg_item *item,
                   const char **out);

/* Exactly one boolean: a boolean value, or one of the strings
 * true/false/yes/no/on/off/1/0 (any case). */
int cfg_get_bool(const char *plugin, const struct cfg_item *item, bool *out);

/* Exactly one finite number in [min, max]; strings are parsed in the C
 * locale (a comma decimal separator is rejected, whatever LC_NUMERIC). */
int cfg_get_double(const char *plugin, const struct cfg_item *item, double min,
                   double max, double *out);

/* Exactly one non-negative integer in [min, max]. */
int cfg_get_u64(const char *plugin, const struct cfg_item *item, uint64_t min,
                uint64_t max, uint64_t *out);

/* Log "PLUGIN: config: KEY: unknown option" and return -EINVAL. */
int cfg_unknown(const char *plugin, const struct cfg_item *item);

/* Parse a decimal number in the C locale; 0 or -EINVAL. Pure. */
int cfg_parse_double(const char *text, double *out);

#endif
