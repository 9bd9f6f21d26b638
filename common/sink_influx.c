/*
 * sink_influx.c: Influx line protocol (see sink_influx.h).
 */
#include "common/sink_influx.h"
#include "common/numfmt.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

struct influx_out {
  char *p;
  size_t size, len;
  bool full;
};

static void influx_put(struct influx_out *o, const char *s, size_t n) {
  if (o->full || o->len + n >= o->size) {
    o->full = true;
    return;
  }
  memcpy(o->p + o->len, s, n);
  o->len += n;
}

static void influx_escaped(struct influx_out *o, const char *s,
                           const char *specials) {
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c < 0x20 || c == 0x7f) {
      influx_put(o, "?", 1);
      continue;
    }
    if (c == '\\' || strchr(specials, c) != NULL)
      influx_put(o, "\\", 1);
    influx_put(o, s, 1);
  }
}

int sink_influx_format(const struct metric *m, char *out, size_t size) {
  if (m->n_fields == 0)
    return -EINVAL;
  struct influx_out o = {out, size, 0, false};
  influx_escaped(&o, m->measurement, ", ");
  for (size_t i = 0; i < m->n_tags; i++) {
    influx_put(&o, ",", 1);
    influx_escaped(&o, m->tags[i].key, ",= ");
    influx_put(&o, "=", 1);
    influx_escaped(&o, m->tags[i].value, ",= ");
  }
  for (size_t i = 0; i < m->n_fields; i++) {
    const struct metric_field *f = &m->fields[i];
    char num[48];
    int n;
    influx_put(&o, i == 0 ? " " : ",", 1);
    influx_escaped(&o, f->key, ",= ");
    influx_put(&o, "=", 1);
    if (f->kind == METRIC_INT)
      n = snprintf(num, sizeof(num), "%" PRId64 "i", f->v.i);
    else
      n = numfmt_double(f->v.f, num, sizeof(num));
    if (n < 0)
      return n;
    influx_put(&o, num, (size_t)n);
  }
  char stamp[32];
  int n = snprintf(stamp, sizeof(stamp), " %" PRIu64 "\n", m->time_ns);
  influx_put(&o, stamp, (size_t)n);
  if (o.full)
    return -E2BIG;
  out[o.len] = '\0';
  return (int)o.len;
}

static int sink_influx_begin(struct metric_sink *sink) {
  (void)sink;
  return 0;
}

static int sink_influx_write(struct metric_sink *sink, const struct metric *m) {
  struct sink_influx *s = (struct sink_influx *)sink;
  for (;;) {
    int n = s->buf ? sink_influx_format(m, s->buf, s->cap) : -E2BIG;
    if (n >= 0)
      return fwrite(s->buf, 1, (size_t)n, s->out) == (size_t)n ? 0 : -EIO;
    if (n != -E2BIG || s->cap >= (1u << 20))
      return n;
    size_t cap = s->cap ? s->cap * 2 : 1024;
    char *buf = realloc(s->buf, cap);
    if (buf == NULL)
      return -ENOMEM;
    s->buf = buf;
    s->cap = cap;
  }
}

static int sink_influx_end(struct metric_sink *sink) {
  struct sink_influx *s = (struct sink_influx *)sink;
  return fflush(s->out) == 0 ? 0 : -EIO;
}

void sink_influx_init(struct sink_influx *s, FILE *out) {
  memset(s, 0, sizeof(*s));
  s->base.begin = sink_influx_begin;
  s->base.write = sink_influx_write;
  s->base.end = sink_influx_end;
  s->out = out;
}

void sink_influx_fini(struct sink_influx *s) {
  free(s->buf);
  s->buf = NULL;
  s->cap = 0;
}
