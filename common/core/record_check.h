/*
 * record_check.h: what every host checks in every record a plugin hands
 * it, before any output sees it (the collectd host and the runner of the
 * executables alike):
 *  - a record that lost tags or fields (metric.h) is said, rate-limited,
 *    and the rest delivered;
 *  - a field whose ctype has no row in the shared unit table nor in the
 *    plugin's own (metric_unit.h) is not delivered, since no output would
 *    know its unit: said once per type at ERROR.
 * One per plugin instance; not thread-safe (an instance is read on one
 * thread at a time).
 */
#ifndef COMMON_HOST_RECORD_CHECK_H
#define COMMON_HOST_RECORD_CHECK_H

#include "common/core/metric.h"
#include "common/core/metric_unit.h"

struct record_check {
  const char *plugin;              /* borrowed */
  const struct metric_unit *units; /* the plugin's own, or NULL */
  struct metric_overflow overflow;
  struct metric_unit_refused refused;
};

void record_check_init(struct record_check *c, const char *plugin,
                       const struct metric_unit *units);

/* The record to deliver: `m` itself when every field has a unit, else
 * `kept` filled with the fields that have one, or NULL when none has. */
const struct metric *record_check(struct record_check *c,
                                  const struct metric *m, struct metric *kept);

/* True when field `f` has a unit row (and so may be delivered). */
bool record_check_field(struct record_check *c, const struct metric_field *f);

#endif
