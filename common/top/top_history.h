/*
 * top_history.h: what the live view remembers between batches (the model
 * forgets each batch at the next begin()): per device, its utilisation
 * and power over the last minutes, and the chart cells drawn from them.
 *
 * A chart is drawn in one of two cell sets: Unicode braille (two samples
 * per cell, four dots high) when the locale's codeset is UTF-8, else ASCII
 * (one sample per cell, " .:|#" for a quarter of a cell each), as nvtop
 * does. The choice is the caller's (top_options.utf8), from
 * nl_langinfo(CODESET).
 */
#ifndef COMMON_TOP_TOP_HISTORY_H
#define COMMON_TOP_TOP_HISTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Samples kept per device: ten minutes at one read a second. */
#define TOP_HISTORY_LEN 600
/* Devices remembered; a device not seen for that many batches is dropped. */
#define TOP_HISTORY_DEVICES 16

struct top_series {
  float v[TOP_HISTORY_LEN]; /* ring, NAN: no value at that batch */
};

struct top_history_dev {
  char device[64];
  struct top_series util, power;
  bool has_power; /* a power value was ever seen */
  uint64_t last_batch;
};

struct top_history {
  struct top_history_dev dev[TOP_HISTORY_DEVICES];
  size_t n_dev;
  uint64_t t_ns[TOP_HISTORY_LEN]; /* batch times (the records' time) */
  size_t head;                    /* the slot the next batch writes */
  size_t n;                       /* batches stored, <= TOP_HISTORY_LEN */
  uint64_t batch;                 /* batches so far */
};

/* Start a batch at `t_ns` (Unix ns; 0: unknown). */
void top_history_begin(struct top_history *h, uint64_t t_ns);

/* This batch's values of `device` (NAN: none). */
void top_history_put(struct top_history *h, const char *device, double util,
                     double power);

/* The device's remembered series, or NULL. */
const struct top_history_dev *top_history_find(const struct top_history *h,
                                               const char *device);

/* Seconds between the oldest of the last `samples` batches and the newest;
 * 0 with fewer than two. */
double top_history_span(const struct top_history *h, size_t samples);

/*
 * Row `row` (0: top) of a chart `height` rows high and `width` cells wide
 * of series `s` on the scale [0, max], the newest sample at the right:
 * braille when `utf8`, else ASCII. NAN samples and those older than the
 * history are blank. Writes NUL-terminated UTF-8 into `out` (at most
 * `size` bytes; 3 per cell in braille); returns the samples shown.
 */
size_t top_chart_row(const struct top_history *h, const struct top_series *s,
                     double max, int width, int height, int row, bool utf8,
                     char *out, size_t size);

/* The largest sample of the last `samples` batches of `s`, or 0. */
double top_series_max(const struct top_history *h, const struct top_series *s,
                      size_t samples);

#endif
