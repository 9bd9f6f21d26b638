/*
 * top_history.c: per-device series across batches and the chart cells
 * drawn from them (top_history.h). Braille cells (Unicode's block
 * U+2800..U+28FF, dots numbered 1-2-3-7 down the left column and 4-5-6-8
 * down the right, dot k being bit k-1) carry two samples side by side,
 * four dots high (an empty cell is a blank); ASCII cells one sample, four
 * levels high.
 */
#include "common/top/top_history.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static void top_series_clear(struct top_series *s) {
  for (size_t i = 0; i < TOP_HISTORY_LEN; i++)
    s->v[i] = NAN;
}

void top_history_begin(struct top_history *h, uint64_t t_ns) {
  h->t_ns[h->head] = t_ns;
  /* the slot about to be written holds no value of any device yet */
  for (size_t i = 0; i < h->n_dev; i++) {
    h->dev[i].util.v[h->head] = NAN;
    h->dev[i].power.v[h->head] = NAN;
  }
  h->head = (h->head + 1) % TOP_HISTORY_LEN;
  if (h->n < TOP_HISTORY_LEN)
    h->n++;
  h->batch++;
}

/* The slot of the batch `back` batches before the latest (0: latest). */
static size_t top_history_slot(const struct top_history *h, size_t back) {
  return (h->head + TOP_HISTORY_LEN - 1 - back) % TOP_HISTORY_LEN;
}

void top_history_put(struct top_history *h, const char *device, double util,
                     double power) {
  if (h->n == 0)
    return; /* no batch begun */
  struct top_history_dev *d = NULL;
  for (size_t i = 0; i < h->n_dev && d == NULL; i++)
    if (strcmp(h->dev[i].device, device) == 0)
      d = &h->dev[i];
  if (d == NULL) {
    size_t k = h->n_dev;
    if (k == TOP_HISTORY_DEVICES) { /* replace the longest unseen */
      k = 0;
      for (size_t i = 1; i < h->n_dev; i++)
        if (h->dev[i].last_batch < h->dev[k].last_batch)
          k = i;
    } else {
      h->n_dev++;
    }
    d = &h->dev[k];
    snprintf(d->device, sizeof(d->device), "%s", device);
    top_series_clear(&d->util);
    top_series_clear(&d->power);
    d->has_power = false;
  }
  size_t slot = top_history_slot(h, 0);
  d->util.v[slot] = (float)util;
  d->power.v[slot] = (float)power;
  d->has_power |= !isnan(power);
  d->last_batch = h->batch;
}

const struct top_history_dev *top_history_find(const struct top_history *h,
                                               const char *device) {
  for (size_t i = 0; device != NULL && i < h->n_dev; i++)
    if (strcmp(h->dev[i].device, device) == 0)
      return &h->dev[i];
  return NULL;
}

double top_history_span(const struct top_history *h, size_t samples) {
  if (samples > h->n)
    samples = h->n;
  if (samples < 2)
    return 0;
  uint64_t newest = h->t_ns[top_history_slot(h, 0)];
  uint64_t oldest = h->t_ns[top_history_slot(h, samples - 1)];
  return newest > oldest ? (double)(newest - oldest) / 1e9 : 0;
}

double top_series_max(const struct top_history *h, const struct top_series *s,
                      size_t samples) {
  double max = 0;
  for (size_t b = 0; b < samples && b < h->n; b++) {
    float v = s->v[top_history_slot(h, b)];
    if (!isnan(v) && v > max)
      max = v;
  }
  return max;
}

/* Dots (or quarter cells) of the sample `back` batches ago lit in chart
 * row `row`: 0..4; -1 for no sample. */
static int top_chart_level(const struct top_history *h,
                           const struct top_series *s, size_t back, double max,
                           int height, int row) {
  if (back >= h->n)
    return -1;
  float v = s->v[top_history_slot(h, back)];
  if (isnan(v))
    return -1;
  double frac = max > 0 ? v / max : 0;
  if (frac < 0)
    frac = 0;
  if (frac > 1)
    frac = 1;
  int dots = (int)lround(frac * 4.0 * height);
  if (dots == 0 && v > 0)
    dots = 1;                         /* a busy device never looks idle */
  int below = 4 * (height - 1 - row); /* dots in the rows beneath */
  int lit = dots - below;
  return lit < 0 ? 0 : lit > 4 ? 4 : lit;
}

size_t top_chart_row(const struct top_history *h, const struct top_series *s,
                     double max, int width, int height, int row, bool utf8,
                     char *out, size_t size) {
  /* braille: bits of the left column's dots from the bottom (7, 3, 2, 1)
   * and of the right column's (8, 6, 5, 4) */
  static const unsigned left[] = {0x40, 0x04, 0x02, 0x01};
  static const unsigned right[] = {0x80, 0x20, 0x10, 0x08};
  static const char ascii[] = " .:|#";
  size_t o = 0, shown = 0;
  if (size == 0)
    return 0;
  int per_cell = utf8 ? 2 : 1;
  for (int c = 0; c < width; c++) {
    /* cell c shows the samples that many cells from the right edge */
    size_t back_r = (size_t)(width - 1 - c) * (size_t)per_cell;
    if (!utf8) {
      int lit = top_chart_level(h, s, back_r, max, height, row);
      if (o + 2 > size)
        break;
      out[o++] = ascii[lit < 0 ? 0 : lit];
      shown += lit >= 0;
      continue;
    }
    int lr = top_chart_level(h, s, back_r, max, height, row);
    int ll = top_chart_level(h, s, back_r + 1, max, height, row);
    unsigned bits = 0;
    for (int k = 0; k < 4; k++) {
      if (ll > k)
        bits |= left[k];
      if (lr > k)
        bits |= right[k];
    }
    shown += (lr >= 0) + (ll >= 0);
    if (o + 4 > size)
      break;
    if (bits == 0) { /* a blank, not U+2800: some fonts draw its dots */
      out[o++] = ' ';
      continue;
    }
    /* U+2800 + bits in UTF-8: E2, A0 | bits >> 6, 80 | bits & 3F */
    out[o++] = (char)0xe2;
    out[o++] = (char)(0xa0 | (bits >> 6));
    out[o++] = (char)(0x80 | (bits & 0x3f));
  }
  out[o] = '\0';
  return shown;
}
