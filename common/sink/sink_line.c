/*
 * sink_line.c: line-per-record sinks (see sink_line.h).
 */
#include "common/sink/sink_line.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define SINK_LINE_MAX (1u << 20)

static int sink_line_begin(struct metric_sink *sink) {
  struct sink_line *s = (struct sink_line *)sink;
  s->in_batch = 0;
  return 0;
}

/* Write one formatted record; in array mode the record's newline is held
 * back (the next record or the closing bracket follows it). */
static int sink_line_put(struct sink_line *s, size_t n) {
  if (s->array) {
    const char *lead = s->in_batch == 0 ? "[" : ",\n";
    if (fputs(lead, s->out) == EOF)
      return -EIO;
    if (n > 0 && s->buf[n - 1] == '\n')
      n--;
  }
  s->in_batch++;
  return fwrite(s->buf, 1, n, s->out) == n ? 0 : -EIO;
}

static int sink_line_write(struct metric_sink *sink, const struct metric *m) {
  struct sink_line *s = (struct sink_line *)sink;
  for (;;) {
    int n = -E2BIG; /* no buffer yet */
    if (s->buf != NULL && s->format == sink_json_format)
      n = sink_json_format_with(&s->json, m, s->buf, s->cap); /* reused */
    else if (s->buf != NULL)
      n = s->format(m, s->buf, s->cap);
    if (n >= 0)
      return sink_line_put(s, (size_t)n);
    if (n != -E2BIG || s->cap >= SINK_LINE_MAX)
      return n;
    size_t cap = s->cap ? s->cap * 2 : 1024;
    char *buf = realloc(s->buf, cap);
    if (buf == NULL)
      return -ENOMEM;
    s->buf = buf;
    s->cap = cap;
  }
}

static int sink_line_end(struct metric_sink *sink) {
  struct sink_line *s = (struct sink_line *)sink;
  int rc = 0;
  if (s->array && fputs(s->in_batch == 0 ? "[]\n" : "]\n", s->out) == EOF)
    rc = -EIO;
  s->in_batch = 0;
  return fflush(s->out) == 0 ? rc : -EIO;
}

void sink_line_array(struct sink_line *s) { s->array = true; }

void sink_line_init(struct sink_line *s, FILE *out,
                    sink_line_format_fn format) {
  memset(s, 0, sizeof(*s));
  s->base.begin = sink_line_begin;
  s->base.write = sink_line_write;
  s->base.end = sink_line_end;
  s->format = format;
  s->out = out;
}

void sink_line_fini(struct sink_line *s) {
  free(s->buf);
  s->buf = NULL;
  s->cap = 0;
  sink_json_fini(&s->json);
}
