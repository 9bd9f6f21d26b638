/*
 * metric.c: building records (see metric.h).
 */
#include "common/core/metric.h"

#include <errno.h>
#include <math.h>
#include <string.h>

void metric_init(struct metric *m, const char *measurement, uint64_t time_ns) {
  memset(m, 0, sizeof(*m));
  m->measurement = measurement;
  m->time_ns = time_ns;
}

int metric_add_tag(struct metric *m, const char *key, const char *value) {
  if (value == NULL || value[0] == '\0')
    return 0;
  if (m->n_tags >= METRIC_MAX_TAGS)
    return -E2BIG;
  m->tags[m->n_tags].key = key;
  m->tags[m->n_tags].value = value;
  m->n_tags++;
  return 0;
}

int metric_add_int(struct metric *m, const char *key, const char *ctype,
                   uint64_t value) {
  if (m->n_fields >= METRIC_MAX_FIELDS)
    return -E2BIG;
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
    return -E2BIG;
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
