/*
 * collectd_map.h: THE rule turning a record field into a collectd value
 * list identifier, shared by every plugin (README, "The collectd mapping
 * rule"). This comment is the canonical statement of the rule:
 *
 *   plugin          = the plugin name (not part of this struct)
 *   plugin_instance = the record's tag values in record order, joined by '-'
 *   type            = the field's ctype (a types.db type)
 *   type_instance   = <measurement>_<field key>
 *
 * Each of the three is truncated to at most 127 bytes without splitting a
 * UTF-8 sequence: the result is always a prefix of the full text, cut
 * before the first sequence that would cross byte 127. '/' becomes '_'
 * (collectd's dispatch would do the same; doing it here makes the result
 * predictable and testable).
 *
 * Pure: no collectd headers, no allocation. host_collectd.c is its user.
 */
#ifndef COMMON_HOST_COLLECTD_MAP_H
#define COMMON_HOST_COLLECTD_MAP_H

#include "common/core/metric.h"

#include <stddef.h>

#define COLLECTD_MAP_NAME_MAX 128 /* collectd's DATA_MAX_NAME_LEN */

struct collectd_ident {
  char plugin_instance[COLLECTD_MAP_NAME_MAX]; /* NUL-terminated */
  char type[COLLECTD_MAP_NAME_MAX];            /* NUL-terminated */
  char type_instance[COLLECTD_MAP_NAME_MAX];   /* NUL-terminated */
};

/* Fill all of `out` for field `field_index` of `m` (borrowed); the field
 * must exist (field_index < m->n_fields). */
void collectd_map(const struct metric *m, size_t field_index,
                  struct collectd_ident *out);

#endif
