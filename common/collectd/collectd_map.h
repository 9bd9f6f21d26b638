/*
 * collectd_map.h: THE rule turning a record field into a collectd value
 * list identifier, one generic mapper over each plugin's table of rules
 * (collectd_rule.h; docs/collectd-naming.md). This comment is
 * the canonical statement of the rule, in the manner of collectd's own
 * plugins (cpu: cpu-0/percent-user; interface: interface-eth0/if_octets):
 *
 *   plugin          = the plugin name
 *   plugin_instance = '-'-joined parts: the instance label when the record
 *                     comes from a named <Instance> block (its label is not
 *                     the plugin name), then the rule's plugin_instance
 *                     parts. "" when there are none.
 *   type            = the field's ctype: its unit (metric_unit.h)
 *   type_instance   = '-'-joined parts: the rule's type_instance parts,
 *                     then the field key.
 *
 * The rule is the first of the plugin's table that applies to the record
 * (collectd_rule.h). A record no rule applies to (a plugin without a
 * table) gets every tag value in record order as its plugin_instance parts
 * and its measurement as the one type_instance part.
 *
 * A part is the rule's literal prefix followed by the tag value, escaped:
 * the bytes A-Z a-z 0-9 '_' '.' '@' and valid UTF-8 sequences stay; '/'
 * becomes '+' (a cgroup path reads +kubepods+pod123+ctr); the part flagged
 * CM_FREE (the plugin's free text: process name, cgroup, metric set) keeps
 * '-' and escapes ':'; the other parts (names the kernel or the plugin
 * gives: device, engine, PMU) keep ':' (0000:00:02.0) and escape '-'; the
 * instance label keeps neither. Every other byte (space, control bytes,
 * quotes, backslash, '%', '+', '~', '=', '!', '*', ...) becomes %XX
 * (upper-case hex). Prefixes and field keys are the plugin's identifiers
 * and are used as they are.
 *
 * So collectd's identifier parser (host/plugin-pinst/type-tinst, split at
 * the first '-' of the plugin and of the type, which have none) reads every
 * identifier back, collectdctl and unixsock need no quoting, and nothing
 * reaches collectd that it rewrites. InfluxDB's collectd listener and
 * write_prometheus take names as they are. write_graphite 5.12 rewrites '.'
 * and ':' (with whitespace, quotes, backslash, '!', '/', parentheses) to
 * its EscapeCharacter: with EscapeCharacter "=" (docs/backends.md), which
 * no name holds otherwise, free text and labels (which hold no ':') never
 * meet in Graphite; only two kernel names differing just in '.' against
 * ':' could. (With the default '_', values differing only in '.' against
 * '_' would meet.) With at most one CM_FREE part per name, the parts, and
 * so the tags, are recovered from the name: split at '-', the free part
 * takes what is left between the others.
 *
 * Fit: each of plugin_instance and type_instance holds at most 63 bytes
 * (libcollectdclient's LCC_NAME_LEN is 64 with the NUL; the daemon's 128).
 * A longer name is cut; HASH below is the 64-bit FNV-1a hash (offset
 * 0xcbf29ce484222325, prime 0x100000001b3) of the FULL name, folded to 32
 * bits (high half XOR low half), as 8 lower-case hex digits. The part that
 * gives way is the rule's CM_TAIL part, else its CM_FREE part, else the
 * last part with a tag; the others stay whole. A part keeps, on escape and
 * UTF-8 boundaries, as much as fits:
 *   - of its start, the removed end replaced by ~HASH;
 *   - CM_TAIL (cgroup paths): of its end, whole path components from a
 *     '+', behind HASH~ (HASH~+pod123+ctr); when not even the last
 *     component fits, that component's start, then ~HASH (a container
 *     scope keeps its id's first digits: cri-containerd-3f2a9b...~HASH).
 * When the other parts leave that part fewer than 4 bytes, the name itself
 * keeps its first 54 bytes, then ~HASH. '~' occurs nowhere else, so
 * "~[0-9a-f]{8}" or "[0-9a-f]{8}~" marks a cut, and two names stay apart
 * unless their 32-bit hashes collide.
 *
 * Pure: no collectd headers, no allocation. host_collectd.c is its user.
 */
#ifndef COMMON_HOST_COLLECTD_MAP_H
#define COMMON_HOST_COLLECTD_MAP_H

#include "common/core/collectd_rule.h"
#include "common/core/metric.h"

#include <stddef.h>

#define COLLECTD_MAP_NAME_MAX 64 /* libcollectdclient's LCC_NAME_LEN */
#define COLLECTD_MAP_HASH_LEN 9  /* "~" and 8 hex digits */

struct collectd_ident {
  char plugin_instance[COLLECTD_MAP_NAME_MAX]; /* NUL-terminated */
  char type[COLLECTD_MAP_NAME_MAX];            /* NUL-terminated */
  char type_instance[COLLECTD_MAP_NAME_MAX];   /* NUL-terminated */
};

/* The rule of `rules` (a table, or NULL) that applies to `m`, or NULL. */
const struct collectd_rule *
collectd_rule_find(const struct collectd_rule *rules, const struct metric *m);

/* Fill all of `out` for field `field_index` of `m` (borrowed); the field
 * must exist (field_index < m->n_fields). `rules` is the plugin's table
 * (NULL: none); `plugin_name` the plugin's name; `instance_label` the
 * label of the instance that made the record (the top-level block's label
 * is the plugin name; NULL means the same). All borrowed. */
void collectd_map(const struct collectd_rule *rules, const struct metric *m,
                  size_t field_index, const char *plugin_name,
                  const char *instance_label, struct collectd_ident *out);

#endif
