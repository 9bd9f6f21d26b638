/*
 * metric.c: building records and reporting overflow (see metric.h).
 */
#include "common/core/metric.h"
#include "common/core/log.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

void metric_init(struct metric *m, const char *measurement, uint64_t time_ns) {
  /* Counts only: clearing 4 KiB of arrays per record would cost more than
   * filling the few entries most records use. */
  m->measurement = measurement;
  m->time_ns = time_ns;
  m->n_tags = 0;
  m->n_fields = 0;
  m->dropped_tags = 0;
  m->dropped_fields = 0;
  m->first_dropped = NULL;
}

/* Record a refused add; returns -E2BIG. */
static int metric_drop(struct metric *m, size_t *counter, const char *key) {
  if (!metric_overflowed(m))
    m->first_dropped = key;
  (*counter)++;
  return -E2BIG;
}

int metric_add_tag(struct metric *m, const char *key, const char *value) {
  if (value == NULL || value[0] == '\0')
    return 0;
  if (m->n_tags >= METRIC_MAX_TAGS)
    return metric_drop(m, &m->dropped_tags, key);
  m->tags[m->n_tags].key = key;
  m->tags[m->n_tags].value = value;
  m->n_tags++;
  return 0;
}

int metric_add_int(struct metric *m, const char *key, const char *ctype,
                   uint64_t value) {
  if (m->n_fields >= METRIC_MAX_FIELDS)
    return metric_drop(m, &m->dropped_fields, key);
  struct metric_field *f = &m->fields[m->n_fields++];
  f->key = key;
  f->ctype = ctype;
  f->kind = METRIC_INT;
  f->v.i = value > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)value;
  return 0;
}

int metric_add_float(struct metric *m, const char *key, const char *ctype,
                     double value) {
  if (!isfinite(value))
    return 0;
  if (m->n_fields >= METRIC_MAX_FIELDS)
    return metric_drop(m, &m->dropped_fields, key);
  struct metric_field *f = &m->fields[m->n_fields++];
  f->key = key;
  f->ctype = ctype;
  f->kind = METRIC_FLOAT;
  f->v.f = value;
  return 0;
}

const char *metric_tag_value(const struct metric *m, const char *key) {
  for (size_t i = 0; i < m->n_tags; i++)
    if (strcmp(m->tags[i].key, key) == 0)
      return m->tags[i].value;
  return NULL;
}

bool metric_overflow_check(struct metric_overflow *o, const char *plugin,
                           const struct metric *m) {
  if (!metric_overflowed(m))
    return false;
  o->records++;
  o->tags += m->dropped_tags;
  o->fields += m->dropped_fields;
  if ((o->records & (o->records - 1)) != 0)
    return true; /* not a power of two: counted, not logged */
  log_msg(LOG_LEVEL_ERROR, plugin, m->measurement, "metric_add",
          "%zu tags and %zu fields dropped (first \"%s\"; a record holds at "
          "most %d tags and %d fields); %" PRIu64 " record%s so far",
          m->dropped_tags, m->dropped_fields,
          m->first_dropped ? m->first_dropped : "", METRIC_MAX_TAGS,
          METRIC_MAX_FIELDS, o->records, o->records == 1 ? "" : "s");
  return true;
}
