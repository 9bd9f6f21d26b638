/*
 * capture_sink.c: the test sink (see capture_sink.h).
 */
#include "tests/lib/capture_sink.h"
#include "common/sink_influx.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int capture_begin(struct metric_sink *sink) {
  (void)sink;
  return 0;
}

static int capture_write(struct metric_sink *sink, const struct metric *m) {
  struct capture_sink *c = (struct capture_sink *)sink;
  char line[8192];
  int n = sink_influx_format(m, line, sizeof(line));
  if (n < 0)
    return n;
  if (c->n_lines == c->cap) {
    size_t cap = c->cap ? c->cap * 2 : 64;
    char **lines = realloc(c->lines, cap * sizeof(*lines));
    if (lines == NULL)
      return -ENOMEM;
    c->lines = lines;
    c->cap = cap;
  }
  c->lines[c->n_lines] = strdup(line);
  if (c->lines[c->n_lines] == NULL)
    return -ENOMEM;
  c->n_lines++;
  return 0;
}

static int capture_end(struct metric_sink *sink) {
  ((struct capture_sink *)sink)->batches++;
  return 0;
}

void capture_sink_init(struct capture_sink *c) {
  memset(c, 0, sizeof(*c));
  c->base.begin = capture_begin;
  c->base.write = capture_write;
  c->base.end = capture_end;
}

void capture_sink_clear(struct capture_sink *c) {
  for (size_t i = 0; i < c->n_lines; i++)
    free(c->lines[i]);
  c->n_lines = 0;
}

void capture_sink_fini(struct capture_sink *c) {
  capture_sink_clear(c);
  free(c->lines);
  c->lines = NULL;
  c->cap = 0;
}

const char *capture_sink_find(const struct capture_sink *c,
                              const char *prefix) {
  size_t len = strlen(prefix);
  for (size_t i = 0; i < c->n_lines; i++)
    if (strncmp(c->lines[i], prefix, len) == 0)
      return c->lines[i];
  return NULL;
}

size_t capture_sink_count(const struct capture_sink *c, const char *prefix) {
  size_t len = strlen(prefix), n = 0;
  for (size_t i = 0; i < c->n_lines; i++)
    n += strncmp(c->lines[i], prefix, len) == 0;
  return n;
}
