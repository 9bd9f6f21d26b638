/*
 * collectd_rule.h: a plugin's collectd identity, declared as data.
 *
 * For each kind of record the plugin writes, one rule says which tags make
 * the collectd plugin_instance and which the type_instance (the field key
 * always ends the type_instance; the type is the field's ctype, its unit).
 * The one mapper that reads these tables, and the canonical statement of
 * how parts are escaped, joined and cut, is common/collectd/collectd_map.h.
 * The rules are plain data, so a core stays free of collectd headers.
 *
 * Example (drm_fdinfo's engines of one process, read by <Instance "gpu">):
 *
 *   {"drm_engine", "scope", "process",
 *    {{"device"}, {"pid"}, {"comm", NULL, CM_FREE}},
 *    {{"engine", NULL, CM_FREE}}}
 *
 *   -> drm_fdinfo-gpu-0000:00:02.0-1234-glxgears/gpu_time-render-busy_ns
 */
#ifndef COMMON_CORE_COLLECTD_RULE_H
#define COMMON_CORE_COLLECTD_RULE_H

#define COLLECTD_RULE_PARTS 4

enum collectd_part_flags {
  CM_FREE = 1,     /* the value keeps its '-' (at most one part per name) */
  CM_OPTIONAL = 2, /* a missing tag leaves the part out (else: empty) */
  CM_TAIL = 4,     /* when the name must be cut, this part keeps its end
                      (cgroup paths: the container or unit) */
};

/* One '-'-separated part: `prefix` (verbatim, a literal of the table)
 * followed by the escaped value of tag `tag`; with tag NULL the part is
 * the prefix alone. */
struct collectd_part {
  const char *tag;
  const char *prefix;
  unsigned flags; /* enum collectd_part_flags */
};

/* A rule applies to records of `measurement`, and when `when_tag` is set,
 * only to those whose tag `when_tag` has the value `when_value` (NULL: the
 * tag is present). The first rule that applies is used. A table ends with
 * a rule whose measurement is NULL. Part lists end at the first part with
 * neither tag nor prefix. */
struct collectd_rule {
  const char *measurement;
  const char *when_tag;
  const char *when_value;
  struct collectd_part plugin_instance[COLLECTD_RULE_PARTS];
  struct collectd_part type_instance[COLLECTD_RULE_PARTS];
};

#endif
