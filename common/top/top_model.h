/*
 * top_model.h: the model behind the executables' --format=top, as plain
 * data (nvtop's gpu_info, htop's meters): a sink that keeps
 *
 *  - the last batch of records (top_batch.h; one batch may hold the
 *    records of several plugins, begin() and end() around them all);
 *  - per GPU, its typed values joined from every plugin that names the
 *    device (top_device.h: drm_fdinfo's engines and memory, drm_device's
 *    clock, temperature, power, fan and VRAM), made at end();
 *  - each device's utilisation and power over the last minutes
 *    (top_history.h), kept across batches.
 *
 * The model draws nothing and calls no screen code: the screen
 * (top_screen.h) and the terminal (top_view.h) read it.
 */
#ifndef COMMON_TOP_TOP_MODEL_H
#define COMMON_TOP_TOP_MODEL_H

#include "common/core/metric.h"
#include "common/top/top_batch.h"
#include "common/top/top_device.h"

#include <stdbool.h>

struct top_history; /* top_history.h */

struct top_model {
  struct metric_sink base; /* begin() clears, write() copies, end() joins */
  struct top_batch batch;  /* the last batch's records */
  struct top_devices devs; /* its devices, joined at end(); strings are
                              the batch's */
  size_t joined; /* the batch's records when devs was joined (top_render
                    joins a batch written to since, for its screen) */
  struct top_history *history; /* owned, kept across batches; NULL until
                                  the first end() with a time (or out of
                                  memory) */
};

/* Set up `m` (caller-owned storage), empty. */
void top_model_init(struct top_model *m);

/* Free everything `m` holds; it can be initialised again. */
void top_model_fini(struct top_model *m);

#endif
