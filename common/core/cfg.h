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
  /* CFG_STRING: the value. CFG_NUMBER: the number as text
   * (cfg_number_text), set by a host whose configuration reads unquoted
   * numbers as numbers (collectd), or NULL: what cfg_get_string returns
   * for a key that takes a name or an id (`Format 10`, `MetricSet 1`) */
  const char *string;
  double number; /* CFG_NUMBER */
  bool boolean;  /* CFG_BOOLEAN */
};

struct cfg_item {
  const char *key;
  const struct cfg_value *values;
  size_t n_values;
  const struct cfg_item *children;
  size_t n_children;
  unsigned line; /* its line in a configuration file, 0: not from one */
};

/* One key a plugin's configure() accepts, for the executables' --help and
 * for tests/e2e/exec_options.sh, which checks the table against the keys
 * the configure function matches. Tables end with a NULL key. A key inside
 * a nested block is spelled "Block.Key", as on the command line. */
struct cfg_option {
  const char *key;  /* as in the README, e.g. "FullScanInterval" */
  const char *def;  /* the default, in words ("30", "none", "all") */
  const char *help; /* one short line: what it takes */
};

/* Free what `item` owns (its key, values and children, each allocated
 * on the heap as the hosts build them) and zero it. */
void cfg_item_clear(struct cfg_item *item);

/* Copy `in` (key, values, children) into `out`, every part on the heap:
 * 0, or -ENOMEM (`out` then cleared). */
int cfg_item_copy(struct cfg_item *out, const struct cfg_item *in);

/* Clear each of `n` items, then free the array. NULL is a no-op. */
void cfg_items_free(struct cfg_item *items, size_t n);

/*
 * Make room for element `n` of an array of `n` elements of `size` bytes
 * that is only ever grown through here: its capacity is the power of two
 * at or above `n`, doubled when full, so that building an array of n
 * elements copies O(n) bytes, not O(n²) (a configuration of 100,000
 * blocks, whatever the allocator's realloc does). Returns the array,
 * possibly moved, or NULL (ENOMEM; `arr` is left as it was).
 */
void *cfg_array_grow(void *arr, size_t n, size_t size);

/* Case-insensitive key match. */
bool cfg_key_is(const struct cfg_item *item, const char *key);

/* Exactly one string value, or a number that carries its text (struct
 * cfg_value): collectd reads an unquoted `Format 10` as the number 10,
 * which a key taking a name or an id takes as "10". *out is borrowed
 * from the item. */
int cfg_get_string(const char *plugin, const struct cfg_item *item,
                   const char **out);

/* Exactly one boolean: a boolean value, or one of the strings
 * true/false/yes/no/on/off/1/0 (any case). */
int cfg_get_bool(const char *plugin, const struct cfg_item *item, bool *out);

/* Exactly one finite number in [min, max]; strings are parsed in the C
 * locale (a comma decimal separator is rejected, whatever LC_NUMERIC). */
int cfg_get_double(const char *plugin, const struct cfg_item *item, double min,
                   double max, double *out);

/* Exactly one non-negative integer in [min, max], exact over the whole
 * uint64 range. A string is read by cfg_parse_u64 (decimal, 0x hex, or a
 * whole number in exponent form such as "1e6"); a number (collectd reads
 * unquoted numbers as doubles) must be whole and at most 2^53, above which
 * a double cannot hold every integer. Messages print bounds as integers and
 * the value as the user wrote it: "expected a number between 1 and 1000000,
 * got 1000001". */
int cfg_get_u64(const char *plugin, const struct cfg_item *item, uint64_t min,
                uint64_t max, uint64_t *out);

/* Log "PLUGIN: config: KEY: unknown option" and return -EINVAL. */
int cfg_unknown(const char *plugin, const struct cfg_item *item);

/* The text a host stores beside a CFG_NUMBER: a whole number up to 2^53
 * in magnitude in plain decimal ("10", "-3"), any other finite number in
 * its shortest round-trip form ("0.5", "1e+300"). 0, or -EINVAL for NaN
 * or an infinity, or -ERANGE when `size` is too small. Pure. */
int cfg_number_text(double v, char *buf, size_t size);

/* Parse a decimal number in the C locale; 0 or -EINVAL. Pure. */
int cfg_parse_double(const char *text, double *out);

/* Parse an unsigned 64-bit integer exactly, in any locale: "0x" or "0X"
 * then hex digits of either case, or decimal digits with an optional
 * fraction and exponent whose value is whole ("1e3", "2.50e1"). No sign,
 * no spaces, no suffix. Returns 0, -EINVAL (not such a number: "", "0x",
 * "12abc", "-1", " 1"), -EDOM (not whole: "2.5") or -ERANGE (above
 * 18446744073709551615); *out is set only on success. Pure. */
int cfg_parse_u64(const char *text, uint64_t *out);

#endif
