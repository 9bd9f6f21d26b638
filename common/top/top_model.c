/*
 * top_model.c: the live view's model as a sink (top_model.h): begin()
 * empties the batch, write() copies a record in, end() joins the devices
 * and records their utilisation and power in the history. No I/O, no
 * terminal, no layout.
 */
#include "common/top/top_model.h"
#include "common/top/top_history.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int top_model_begin(struct metric_sink *sink) {
  struct top_model *m = (struct top_model *)sink;
  top_batch_clear(&m->batch);
  m->devs.n = 0;
  m->joined = 0;
  return 0;
}

static int top_model_write(struct metric_sink *sink, const struct metric *r) {
  struct top_model *m = (struct top_model *)sink;
  return top_batch_add(&m->batch, r);
}

/* The batch is whole: join its devices, remember their utilisation and
 * power. */
static int top_model_end(struct metric_sink *sink) {
  struct top_model *m = (struct top_model *)sink;
  int rc = top_devices_collect(&m->batch, &m->devs);
  m->joined = m->batch.n_recs;
  /* A batch with no record time (an empty one: no plugin has read yet)
   * has no place on the charts' time axis: time 0 there would stretch
   * their span to the whole epoch. */
  if (m->batch.time_ns == 0)
    return 0;
  if (m->history == NULL) {
    m->history = calloc(1, sizeof(*m->history));
    if (m->history == NULL)
      return 0; /* no charts; the screen itself is whole */
  }
  top_history_begin(m->history, m->batch.time_ns);
  for (size_t i = 0; rc == 0 && i < m->devs.n; i++) {
    const struct top_device *d = &m->devs.dev[i];
    double util = NAN;
    if (!top_device_util(d, &util))
      util = NAN;
    double power = d->v[TOP_DV_POWER].has ? d->v[TOP_DV_POWER].v : NAN;
    top_history_put(m->history, d->device, util, power);
  }
  return 0;
}

void top_model_init(struct top_model *m) {
  memset(m, 0, sizeof(*m));
  m->base.begin = top_model_begin;
  m->base.write = top_model_write;
  m->base.end = top_model_end;
}

void top_model_fini(struct top_model *m) {
  top_batch_fini(&m->batch);
  top_devices_fini(&m->devs);
  free(m->history);
  top_model_init(m);
}
