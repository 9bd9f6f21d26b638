/*
 * collectd_map.h: THE rule turning a record field into a collectd value
 * list identifier, shared by every plugin (README, "The collectd mapping
 * rule"). This comment is the canonical statement of the rule:
 *
 *   plugin          = the plugin name (not part of this struct)
 *   plugin_instance = parts joined by '+', each KEY=VALUE with the value
 *                     (and key) escaped: first instance=<label> when the
 *                     instance is a named <Instance> block (label != plugin
 *                     name) or when the record's first tag key is itself
 *                     "instance"; then every tag in record order. A record
 *                     without tags in the default instance: "".
 *   type            = the field's ctype (a types.db type), '/' -> '_'
 *   type_instance   = <measurement>_<field key>, each escaped
 *
 * Escaping: every byte that is '%' '+' '=' '~' '/' '.' ',' ';' ':' '!'
 * '"' '\'' '\\' '*' '?' '[' ']' '{' '}' '(' ')' space, a control byte
 * (< 0x20, 0x7f) or not part of a valid UTF-8 sequence becomes %XX
 * (upper-case hex). Everything else ('-', '_', '@', valid UTF-8, ...)
 * stays. Hence collectd's dispatch ('/' -> '_') and write_graphite 5.12
 * (dots, ':', '!', whitespace, control characters -> '_') change nothing, and
 * the identifier stays injective through collectd, InfluxDB's collectd listener
 * (tag `instance`), Graphite paths and Prometheus labels. Nor does a value hold
 * a glob, bracket, quote or separator character of Graphite queries, shells or
 * config files (hence '\'' as well as '"'). '=' and '+' never occur inside a
 * key or value, so part KEY is recovered with
 *   (?:^|\+)KEY=([^+~]*)        (POSIX ERE: (^|\+)KEY=([^+~]*), group 2)
 * followed by percent-decoding. The first instance= part, if any, is the
 * label; without one the label is the plugin name.
 *
 * Cut: a plugin_instance or type_instance whose encoded form is longer
 * than 127 bytes keeps its longest prefix of at most 110 (127 - 17) bytes
 * that ends neither inside a %XX escape nor inside a UTF-8 sequence,
 * followed by '~' and 16 lower-case hex digits of the 64-bit FNV-1a hash
 * (offset 0xcbf29ce484222325, prime 0x100000001b3) of the FULL encoded
 * string. '~' is always escaped otherwise, so ~([0-9a-f]{16})$ marks a cut
 * name. Two records get the same identifier only if their full encoded
 * names are equal or their 64-bit hashes collide. type is a types.db name:
 * it is only cut at 127 bytes on a UTF-8 boundary.
 *
 * Pure: no collectd headers, no allocation. host_collectd.c is its user.
 */
#ifndef COMMON_HOST_COLLECTD_MAP_H
#define COMMON_HOST_COLLECTD_MAP_H

#include "common/core/metric.h"

#include <stddef.h>

#define COLLECTD_MAP_NAME_MAX 128 /* collectd's DATA_MAX_NAME_LEN */
#define COLLECTD_MAP_HASH_LEN 17  /* "~" and 16 hex digits */

struct collectd_ident {
  char plugin_instance[COLLECTD_MAP_NAME_MAX]; /* NUL-terminated */
  char type[COLLECTD_MAP_NAME_MAX];            /* NUL-terminated */
  char type_instance[COLLECTD_MAP_NAME_MAX];   /* NUL-terminated */
};

/* Fill all of `out` for field `field_index` of `m` (borrowed); the field
 * must exist (field_index < m->n_fields). `plugin_name` is the plugin's
 * name; `instance_label` the label of the instance that made the record
 * (the top-level block's label is the plugin name; NULL means the same).
 * Both borrowed. */
void collectd_map(const struct metric *m, size_t field_index,
                  const char *plugin_name, const char *instance_label,
                  struct collectd_ident *out);

#endif
