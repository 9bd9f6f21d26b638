/*
 * record_check.c: the hosts' checks of a plugin's records (see
 * record_check.h).
 */
#include "common/core/record_check.h"
#include "common/core/log.h"

#include <string.h>

void record_check_init(struct record_check *c, const char *plugin,
                       const struct metric_unit *units) {
  memset(c, 0, sizeof(*c));
  c->plugin = plugin;
  c->units = units;
}

bool record_check_field(struct record_check *c, const struct metric_field *f) {
  if (metric_unit_lookup(c->units, f->ctype) != NULL)
    return true;
  const char *ctype = f->ctype != NULL ? f->ctype : "(null)";
  if (metric_unit_refuse(&c->refused, ctype))
    log_msg(LOG_LEVEL_ERROR, c->plugin, ctype, "metric_unit_find",
            "no such field type (one unit per type: add a row to "
            "metric_unit.c or the plugin's units); its fields are not "
            "written");
  return false;
}

const struct metric *record_check(struct record_check *c,
                                  const struct metric *m, struct metric *kept) {
  metric_overflow_check(&c->overflow, c->plugin, m);
  size_t good = 0;
  while (good < m->n_fields &&
         metric_unit_lookup(c->units, m->fields[good].ctype) != NULL)
    good++;
  if (good == m->n_fields)
    return m;
  *kept = *m;
  kept->n_fields = 0;
  for (size_t i = 0; i < m->n_fields; i++)
    if (record_check_field(c, &m->fields[i]))
      kept->fields[kept->n_fields++] = m->fields[i];
  return kept->n_fields > 0 ? kept : NULL;
}
