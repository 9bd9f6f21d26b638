/*
 * sink_json.c: JSON lines through yajl (see sink_json.h).
 */
#include "common/sink_json.h"
#include "common/numfmt.h"
#include "common/text.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
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
