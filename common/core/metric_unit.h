/*
 * metric_unit.h: the one table of field types.
 *
 * Every record field names a ctype (metric.h): the collectd type it maps to,
 * which is also its unit. One ctype holds exactly one unit, so that every
 * output can name the unit: collectd and its writers through the type
 * (write_prometheus calls a metric collectd_<plugin>_<type>), the native
 * Prometheus exposition through a suffix in base units, the live view through
 * a scale. A new unit is a new row here and a line in a types.db fragment
 * (types.db for the shared gpu_* types, plugins/<p>/types.db for a plugin's
 * own); the standard collectd types used (percent, bytes, objects) come from
 * collectd's types.db.
 *
 * Counters are cumulative integers (collectd DERIVE with minimum 0, a
 * Prometheus counter named ..._total); gauges are values now (collectd
 * GAUGE, a Prometheus gauge).
 */
#ifndef COMMON_CORE_METRIC_UNIT_H
#define COMMON_CORE_METRIC_UNIT_H

#include <stdbool.h>
#include <stddef.h>

enum metric_ds {
  METRIC_DS_GAUGE,  /* a value now */
  METRIC_DS_DERIVE, /* a cumulative counter, never negative */
};

struct metric_unit {
  const char *ctype;   /* collectd type name, as in types.db */
  enum metric_ds ds;   /* collectd data source type */
  const char *symbol;  /* the unit of the value as recorded: "ns", "B", "%"
                          ("" for a plain count or a number without unit) */
  const char *base;    /* Prometheus base-unit name suffix without the
                          leading '_' ("seconds", "bytes", "hertz", "ratio",
                          ...); "" when the name carries no unit */
  double base_scale;   /* value * base_scale is in the base unit */
  const char *meaning; /* one phrase for HELP texts and docs */
};

/* The row for `ctype`, or NULL when it is not in the table (a programming
 * error the tests catch: every field's ctype must have a row). */
const struct metric_unit *metric_unit_find(const char *ctype);

/* The row for `ctype` among a plugin's own rows `own` (plugin_ops.units:
 * ending with a NULL ctype; NULL for none), then in the table; NULL when
 * neither has it. Both hosts refuse such a field (not written, an ERROR
 * once per type), so that no unit is ever mixed under one name. */
const struct metric_unit *metric_unit_lookup(const struct metric_unit *own,
                                             const char *ctype);

/* The types a host has refused so far, so that each is reported once.
 * Zero it to start; not thread-safe. */
#define METRIC_UNIT_REFUSED_MAX 16
struct metric_unit_refused {
  char ctype[METRIC_UNIT_REFUSED_MAX][64];
  size_t n;
};

/* True the first time `ctype` is refused: log then. After
 * METRIC_UNIT_REFUSED_MAX distinct types, false (quiet). */
bool metric_unit_refuse(struct metric_unit_refused *r, const char *ctype);

/* The rows, for the tests and the docs. */
extern const struct metric_unit metric_units[];
extern const size_t metric_units_count;

/* What the collectd host multiplies a float value of `ctype` by before it
 * stores it: 1 but for the few types whose collectd unit is smaller than
 * the recorded one. A DERIVE holds integers, so a counter recorded as a
 * float in base units (energy_joules) is stored in a smaller unit, the
 * one its types.db line documents (gpu_energy: microjoules, joules * 1e6;
 * the type's name carries no unit, as Prometheus' naming rules want for
 * write_prometheus' collectd_<plugin>_<type>_total). */
double metric_unit_collectd_scale(const char *ctype);

/* True for a cumulative counter (Prometheus: a counter named ..._total). */
static inline bool metric_unit_is_counter(const struct metric_unit *u) {
  return u->ds == METRIC_DS_DERIVE;
}

#endif
