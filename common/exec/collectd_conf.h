/*
 * collectd_conf.h: collectd's configuration syntax, read without collectd,
 * for gpu-telemetry --config=FILE (so the shipped collectd snippets work
 * as they are). Pure and fuzzed (tests/fuzz/fuzz_collectd_conf.c).
 *
 * The syntax, as collectd's liboconfig reads it (src/liboconfig/scanner.l
 * and parser.y at collectd-5.12.0):
 *   Key value value ...         one item per line; a line may continue
 *                               after a backslash at its end
 *   <Key value ...>             a block: the lines up to </Key> are its
 *   ...                         children (the closing key in any case)
 *   </Key>
 *   # comment                   to the end of the line, outside quotes
 * Values: "quoted strings" (a backslash takes the next character as it
 * is), numbers (decimal, 0x hex, 0 octal, floats), booleans true/yes/on
 * and false/no/off, and unquoted words ([A-Za-z0-9_./:@+-]), which are
 * strings. Keys are words starting with a letter or '_'.
 *
 * Where we knowingly differ: collectd's scanner takes only a few shapes
 * of unquoted words (identifiers, IPv4 addresses with a port); we take
 * any run of the characters above, so a file collectd reads is read the
 * same, and a few files collectd refuses are read too.
 */
#ifndef COMMON_HOST_COLLECTD_CONF_H
#define COMMON_HOST_COLLECTD_CONF_H

#include "common/core/cfg.h"

#include <stddef.h>

/* Deepest nesting of blocks accepted. */
#define COLLECTD_CONF_MAX_DEPTH 16

/*
 * Parse `len` bytes of `text` into a list of items (`*items`, `*n`; free
 * with cfg_items_free). Returns 0, -ENOMEM, or -EINVAL with `err`
 * saying where and why ("line 3: unterminated string").
 */
int collectd_conf_parse(const char *text, size_t len, struct cfg_item **items,
                        size_t *n, char *err, size_t err_size);

#endif
