/*
 * sink_json.c: JSON lines through yajl 2 (see sink_json.h).
 *
 * yajl facts this relies on (yajl 2.1, checked): yajl_gen_string escapes
 * '"', '\' and control characters and passes '/' and UTF-8 through;
 * yajl_gen_beautify is off by default (no spaces, no newline); with
 * yajl_gen_validate_utf8 set, a string that is not valid UTF-8 fails with
 * yajl_gen_invalid_string instead of producing invalid JSON.
 */
#include "common/sink/sink_json.h"
#include "common/core/numfmt.h"
#include "common/core/text.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_gen.h>

/* Generate `s` as a JSON string after text_sanitize(). text_sanitize
 * trims trailing spaces, which are valid; they are put back so the value
 * matches the Influx line. The sanitised copy is never longer than `s`. */
static yajl_gen_status json_string(yajl_gen g, const char *s, int *err) {
  size_t len = strlen(s);
  char small[256];
  char *clean = small;
  if (len >= sizeof(small)) {
    clean = malloc(len + 1);
    if (clean == NULL) {
      *err = -ENOMEM;
      return yajl_gen_in_error_state; /* any status but ok stops */
    }
  }
  size_t n = text_sanitize(clean, len + 1, s, len);
  for (size_t k = len; k > 0 && s[k - 1] == ' ' && n < len; k--)
    clean[n++] = ' ';
  yajl_gen_status st = yajl_gen_string(g, (const unsigned char *)clean, n);
  if (clean != small)
    free(clean);
  return st;
}

static yajl_gen_status json_fields(yajl_gen g, const struct metric *m,
                                   int *err) {
  yajl_gen_status st = yajl_gen_map_open(g);
  if (st == yajl_gen_status_ok)
    st = json_string(g, "name", err);
  if (st == yajl_gen_status_ok)
    st = json_string(g, m->measurement, err);
  if (st == yajl_gen_status_ok)
    st = json_string(g, "time", err);
  if (st == yajl_gen_status_ok) {
    /* yajl_gen_integer takes a long long: print the uint64 ourselves */
    char stamp[24];
    int n = snprintf(stamp, sizeof(stamp), "%" PRIu64, m->time_ns);
    st = yajl_gen_number(g, stamp, (size_t)n);
  }
  for (size_t i = 0; st == yajl_gen_status_ok && i < m->n_tags; i++) {
    st = json_string(g, m->tags[i].key, err);
    if (st == yajl_gen_status_ok)
      st = json_string(g, m->tags[i].value, err);
  }
  for (size_t i = 0; st == yajl_gen_status_ok && i < m->n_fields; i++) {
    const struct metric_field *f = &m->fields[i];
    st = json_string(g, f->key, err);
    if (st != yajl_gen_status_ok)
      break;
    if (f->kind == METRIC_INT) {
      st = yajl_gen_integer(g, f->v.i);
    } else {
      char num[NUMFMT_DOUBLE_MAX];
      int n = numfmt_double(f->v.f, num, sizeof(num));
      st = n < 0 ? yajl_gen_invalid_number : yajl_gen_number(g, num, (size_t)n);
    }
  }
  if (st == yajl_gen_status_ok)
    st = yajl_gen_map_close(g);
  return st;
}

int sink_json_format_with(struct sink_json *j, const struct metric *m,
                          char *out, size_t size) {
  if (m->n_fields == 0)
    return -EINVAL;
  yajl_gen g = j->gen;
  if (g == NULL) {
    g = yajl_gen_alloc(NULL);
    if (g == NULL)
      return -ENOMEM;
    yajl_gen_config(g, yajl_gen_validate_utf8, 1);
    j->gen = g;
  } else {
    /* Empty the buffer and start a new top-level value; after a failed
     * record the generator is in an error state, which reset clears. */
    yajl_gen_clear(g);
    yajl_gen_reset(g, NULL);
  }
  int rc = 0; /* set by json_string on ENOMEM */
  const unsigned char *text = NULL;
  size_t len = 0;
  yajl_gen_status st = json_fields(g, m, &rc);
  if (rc == 0 && (st != yajl_gen_status_ok ||
                  yajl_gen_get_buf(g, &text, &len) != yajl_gen_status_ok))
    rc = -EINVAL;
  if (rc == 0 && len + 2 > size)
    rc = -E2BIG;
  if (rc == 0) {
    memcpy(out, text, len);
    out[len] = '\n';
    out[len + 1] = '\0';
    rc = (int)len + 1;
  }
  return rc;
}

void sink_json_fini(struct sink_json *j) {
  if (j->gen != NULL)
    yajl_gen_free(j->gen);
  j->gen = NULL;
}

int sink_json_format(const struct metric *m, char *out, size_t size) {
  struct sink_json j = {NULL};
  int rc = sink_json_format_with(&j, m, out, size);
  sink_json_fini(&j);
  return rc;
}
