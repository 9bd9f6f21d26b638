/*
 * capture_sink.c: the test sink (see capture_sink.h). Each record is
 * formatted into its own heap buffer, doubled until the line fits, and the
 * buffer is kept as the captured line.
 */
#include "tests/lib/capture_sink.h"
#include "common/sink/sink_influx.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int capture_begin(struct metric_sink *sink) {
  (void)sink;
  return 0;
}

/* Format `m` into a heap buffer grown until the line fits; returns the
 * owned line or NULL with *rc set. */
static char *capture_format(const struct metric *m, int *rc) {
  size_t size = 512;
  for (;;) {
    char *line = malloc(size);
    if (line == NULL) {
      *rc = -ENOMEM;
      return NULL;
    }
    int n = sink_influx_format(m, line, size);
    if (n >= 0)
      return line;
    free(line);
    if (n != -E2BIG || size >= ((size_t)1 << 26)) {
      *rc = n;
      return NULL;
    }
    size *= 2;
  }
}

static int capture_write(struct metric_sink *sink, const struct metric *m) {
  struct capture_sink *c = (struct capture_sink *)sink;
  int rc = 0;
  char *line = capture_format(m, &rc);
  if (line == NULL)
    return rc;
  if (c->n_lines == c->cap) {
    size_t cap = c->cap ? c->cap * 2 : 64;
    char **lines = realloc(c->lines, cap * sizeof(*lines));
    if (lines == NULL) {
      free(line);
      return -ENOMEM;
    }
    c->lines = lines;
    c->cap = cap;
  }
  c->lines[c->n_lines++] = line;
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
  for (size_t i = 0; i < c->n_lines; i++) {
    free(c->lines[i]);
    c->lines[i] = NULL;
  }
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
