/*
 * sink_json.c: JSON lines through yajl (see sink_json.h).
 */
#include "common/sink_json.h"
#include "common/numfmt.h"
#include "common/text.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_gen.h>

static yajl_gen_status json_string(yajl_gen g, const char *s) {
  size_t len = strlen(s);
  char clean[1024];
  /* text_sanitize keeps valid UTF-8 as is; only hostile bytes change. */
  if (len < sizeof(clean)) {
    size_t n = text_sanitize(clean, sizeof(clean), s, len);
    if (n != len || memcmp(clean, s, len) != 0)
      return yajl_gen_string(g, (const unsigned char *)clean, n);
  }
  return yajl_gen_string(g, (const unsigned char *)s, len);
}

int sink_json_format(const struct metric *m, char *out, size_t size) {
  if (m->n_fields == 0)
    return -EINVAL;
  yajl_gen g = yajl_gen_alloc(NULL);
  if (g == NULL)
    return -ENOMEM;
  yajl_gen_status st = yajl_gen_map_open(g);
  if (st == yajl_gen_status_ok)
    st = json_string(g, "name");
  if (st == yajl_gen_status_ok)
    st = json_string(g, m->measurement);
  if (st == yajl_gen_status_ok)
    st = json_string(g, "time");
  if (st == yajl_gen_status_ok) {
    char stamp[24];
    int n = snprintf(stamp, sizeof(stamp), "%" PRIu64, m->time_ns);
    st = yajl_gen_number(g, stamp, (size_t)n);
  }
  for (size_t i = 0; st == yajl_gen_status_ok && i < m->n_tags; i++) {
    st = json_string(g, m->tags[i].key);
    if (st == yajl_gen_status_ok)
      st = json_string(g, m->tags[i].value);
  }
  for (size_t i = 0; st == yajl_gen_status_ok && i < m->n_fields; i++) {
    const struct metric_field *f = &m->fields[i];
    st = json_string(g, f->key);
    if (st != yajl_gen_status_ok)
      break;
    if (f->kind == METRIC_INT) {
      st = yajl_gen_integer(g, f->v.i);
    } else {
      char num[48];
      int n = numfmt_double(f->v.f, num, sizeof(num));
      st = n < 0 ? yajl_gen_invalid_number : yajl_gen_number(g, num, (size_t)n);
    }
  }
  if (st == yajl_gen_status_ok)
    st = yajl_gen_map_close(g);
  int rc;
  const unsigned char *text;
  size_t len;
  if (st != yajl_gen_status_ok ||
      yajl_gen_get_buf(g, &text, &len) != yajl_gen_status_ok) {
    rc = -EINVAL;
  } else if (len + 2 > size) {
    rc = -E2BIG;
  } else {
    memcpy(out, text, len);
    out[len] = '\n';
    out[len + 1] = '\0';
    rc = (int)len + 1;
  }
  yajl_gen_free(g);
  return rc;
}

static int sink_json_begin(struct metric_sink *sink) {
  (void)sink;
  return 0;
}

static int sink_json_write(struct metric_sink *sink, const struct metric *m) {
  struct sink_json *s = (struct sink_json *)sink;
  for (;;) {
    int n = s->buf ? sink_json_format(m, s->buf, s->cap) : -E2BIG;
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

static int sink_json_end(struct metric_sink *sink) {
  struct sink_json *s = (struct sink_json *)sink;
  return fflush(s->out) == 0 ? 0 : -EIO;
}

void sink_json_init(struct sink_json *s, FILE *out) {
  memset(s, 0, sizeof(*s));
  s->base.begin = sink_json_begin;
  s->base.write = sink_json_write;
  s->base.end = sink_json_end;
  s->out = out;
}

void sink_json_fini(struct sink_json *s) {
  free(s->buf);
  s->buf = NULL;
  s->cap = 0;
}
