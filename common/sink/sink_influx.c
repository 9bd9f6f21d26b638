/*
 * sink_influx.c: Influx line protocol formatting (see sink_influx.h).
 *
 * Escaping follows the InfluxDB 1.x line protocol reference (measurement:
 * comma and space; tag keys, tag values and field keys: comma, equals sign
 * and space), checked against InfluxDB 1.6's /write responses
 * (tests/e2e/influxdb_lineproto.sh).
 */
#include "common/sink/sink_influx.h"
#include "common/core/numfmt.h"
#include "common/core/text.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* A bounded output cursor: once something does not fit, `full` stays set
 * and nothing more is written, so callers check only once at the end. */
struct influx_out {
  char *p;
  size_t size, len;
  bool full;
};

static void influx_put(struct influx_out *o, const char *s, size_t n) {
  if (o->full || o->len + n >= o->size) { /* keep a byte for the NUL */
    o->full = true;
    return;
  }
  memcpy(o->p + o->len, s, n);
  o->len += n;
}

/* Append `s` escaped for a measurement, key or tag value (see the contract
 * in sink_influx.h): '\' before each byte of `specials`; a character that
 * may not be printed (text_char: C0, DEL, C1, invalid UTF-8) becomes '?';
 * a backslash that ends `s` or that stands right before ',', '=', ' ' or
 * '"' becomes '?', because no reader can carry it: InfluxDB 1.x/2.x treat
 * any byte after a backslash as escaped (so a final '\' swallows the
 * separator) while Telegraf pairs "\\" (so "\\," would end the token
 * there). Every other backslash is written once and read back as one by
 * all of them. */
static void influx_escaped(struct influx_out *o, const char *s,
                           const char *specials) {
  size_t left = strlen(s);
  while (left > 0) {
    bool ok;
    size_t n = text_char(s, left, &ok);
    unsigned char c = (unsigned char)*s;
    if (!ok) {
      influx_put(o, "?", 1);
    } else if (c == '\\') {
      unsigned char next = (unsigned char)s[1];
      bool stranded = next == '\0' || next == ',' || next == '=' ||
                      next == ' ' || next == '"';
      influx_put(o, stranded ? "?" : "\\", 1);
    } else {
      if (n == 1 && strchr(specials, c) != NULL)
        influx_put(o, "\\", 1);
      influx_put(o, s, n);
    }
    s += n;
    left -= n;
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
    char num[NUMFMT_DOUBLE_MAX];
    int n;
    influx_put(&o, i == 0 ? " " : ",", 1);
    influx_escaped(&o, f->key, ",= ");
    influx_put(&o, "=", 1);
    if (f->kind == METRIC_INT)
      n = snprintf(num, sizeof(num), "%" PRId64 "i", f->v.i);
    else
      n = numfmt_double(f->v.f, num, sizeof(num));
    if (n < 0)
      return n; /* a non-finite float: metric_add_float never stores one */
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
