/*
 * collectd_map.h: THE rule turning a record field into a collectd value
 * list identifier, shared by every plugin (README, "The collectd mapping
 * rule"):
 *
 *   plugin          = the plugin name (not part of this struct)
 *   plugin_instance = the record's tag values in record order, joined by '-'
 *   type            = the field's ctype (a types.db type)
 *   type_instance   = <measurement>_<field key>
 *
 * Each part is cut to at most 127 bytes without splitting a UTF-8 sequence,
 * and '/' becomes '_' (collectd's dispatch would do the same; doing it here
 * makes the result predictable and testable).
 */
#ifndef COMMON_COLLECTD_MAP_H
#define COMMON_COLLECTD_MAP_H

#include "common/metric.h"

#define COLLECTD_MAP_NAME_MAX 128 /* DATA_MAX_NAME_LEN */

struct collectd_ident {
  char plugin_instance[COLLECTD_MAP_NAME_MAX];
  char type[COLLECTD_MAP_NAME_MAX];
  char type_instance[COLLECTD_MAP_NAME_MAX];
};

/* Fill `out` for field `field_index` of `m` (which must exist). Pure. */
void collectd_map(const struct metric *m, size_t field_index,
                  struct collectd_ident *out);

#endif
