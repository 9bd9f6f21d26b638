/*
 * fuzz_sink_influx.c: libFuzzer target for the line formatters on raw,
 * unsanitised input: measurement, tag keys and values, field keys, kinds,
 * values and the timestamp all come from the bytes (fuzz_sink_format
 * covers the sanitised tag values cores really produce; this one covers the
 * formatters' own defences).
 *
 * Input: byte 0 = tag count (low nibble, mod 9) and field count (high
 * nibble, mod 12, plus 1); byte 1 = float bitmap for the fields; 8 bytes
 * timestamp; 8 bytes per field value; then NUL-separated strings:
 * measurement, tag key/value pairs, field keys. Missing bytes read as 0.
 *
 * Invariants (abort() on violation):
 *  - Influx: exactly one '\n', at the end; no other control character;
 *    the length is strlen; one byte less of buffer gives -E2BIG; and the
 *    line parses back as InfluxDB 1.x reads it (one backslash dropped
 *    before ',', '=', ' '; every other backslash literal; none before a
 *    separator, '"' or the end) into the same measurement, tags, fields,
 *    numbers and timestamp, with the '?' replacements of sink_influx.h.
 *  - JSON: yajl_tree parses it into one object with 2 + tags + fields
 *    members; printable-ASCII strings come back unchanged; numbers equal;
 *    one byte less of buffer gives -E2BIG.
 */
#include "common/core/text.h"
#include "common/sink/sink_influx.h"
#include "common/sink/sink_json.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_tree.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

#define FZ_STR_MAX 300
#define FZ_LINE_MAX 65536

struct fz_in {
  const unsigned char *p;
  size_t left;
};

static unsigned char fz_byte(struct fz_in *in) {
  if (in->left == 0)
    return 0;
  in->left--;
  return *in->p++;
}

static uint64_t fz_u64(struct fz_in *in) {
  uint64_t v = 0;
  for (int i = 0; i < 8; i++)
    v = v << 8 | fz_byte(in);
  return v;
}

/* The next NUL-terminated string, at most FZ_STR_MAX - 1 bytes. */
static void fz_str(struct fz_in *in, char *out) {
  size_t n = 0;
  while (in->left > 0) {
    unsigned char c = fz_byte(in);
    if (c == '\0')
      break;
    if (n < FZ_STR_MAX - 1)
      out[n++] = (char)c;
  }
  out[n] = '\0';
}

/* What the line must carry for `s`: a character text.h does not let
 * through (text_char: C0, DEL, C1, invalid UTF-8) as '?', and a backslash
 * at the end or right before ',', '=', ' ' or '"' as '?' (sink_influx.h). */
static void fz_expected(const char *s, char *out) {
  size_t n = 0, left = strlen(s);
  while (left > 0) {
    bool ok;
    size_t k = text_char(s, left, &ok);
    if (!ok ||
        (*s == '\\' && (s[1] == '\0' || strchr(",= \"", s[1]) != NULL))) {
      out[n++] = '?';
    } else {
      memcpy(out + n, s, k);
      n += k;
    }
    s += k;
    left -= k;
  }
  out[n] = '\0';
}

/* Read a token up to an unescaped byte of `stops`, as InfluxDB 1.x and
 * Telegraf both read it: a backslash before a byte of `specials` is
 * dropped, any other backslash is literal; a backslash before a stop, a
 * '"' or the end (where the readers disagree) must never be written.
 * Returns the stop byte (consumed), or 0 when the line ends first. */
static char fz_token(const char **p, const char *stops, const char *specials,
                     char *out, size_t cap) {
  size_t n = 0;
  for (;;) {
    char c = *(*p)++;
    if (c == '\0')
      return 0;
    if (c == '\\') {
      char next = **p;
      if (next != '\0' && strchr(specials, next) != NULL) {
        c = next;
        (*p)++;
      } else if (next == '\0' || next == '"' || strchr(stops, next) != NULL) {
        abort();
      }
    } else if (strchr(stops, c) != NULL) {
      out[n] = '\0';
      return c;
    }
    if (n + 1 >= cap)
      abort();
    out[n++] = c;
  }
}

static void fz_same(const char *got, const char *input) {
  char want[FZ_STR_MAX];
  fz_expected(input, want);
  if (strcmp(got, want) != 0)
    abort();
}

static void fz_check_influx(const struct metric *m, const char *line, int n) {
  if (n <= 0 || (size_t)n != strlen(line) || line[n - 1] != '\n')
    abort();
  for (int i = 0; i < n - 1; i++)
    if ((unsigned char)line[i] < 0x20 || line[i] == 0x7f)
      abort();
  char tok[2 * FZ_STR_MAX];
  const char *p = line;
  char stop = fz_token(&p, ", \n", ", ", tok, sizeof(tok));
  fz_same(tok, m->measurement);
  for (size_t i = 0; i < m->n_tags; i++) {
    if (stop != ',' || fz_token(&p, "=, \n", ",= ", tok, sizeof(tok)) != '=')
      abort();
    fz_same(tok, m->tags[i].key);
    stop = fz_token(&p, "=, \n", ",= ", tok, sizeof(tok));
    fz_same(tok, m->tags[i].value);
  }
  if (stop != ' ')
    abort();
  for (size_t i = 0; i < m->n_fields; i++) {
    const struct metric_field *f = &m->fields[i];
    if (fz_token(&p, "=, \n", ",= ", tok, sizeof(tok)) != '=')
      abort();
    fz_same(tok, f->key);
    stop = fz_token(&p, "=, \n", ",= ", tok, sizeof(tok));
    if (stop != (i + 1 < m->n_fields ? ',' : ' '))
      abort();
    char *end;
    if (f->kind == METRIC_INT) {
      char want[32];
      snprintf(want, sizeof(want), "%" PRId64 "i", f->v.i);
      if (strcmp(tok, want) != 0)
        abort();
    } else if (strtod(tok, &end) != f->v.f || *end != '\0' ||
               strpbrk(tok, ".e") == NULL) {
      abort();
    }
  }
  if (fz_token(&p, "=, \n", ",= ", tok, sizeof(tok)) != '\n' || *p != '\0')
    abort();
  char *end;
  if (strtoull(tok, &end, 10) != m->time_ns || *end != '\0')
    abort();
}

static bool fz_printable(const char *s) {
  for (; *s; s++)
    if ((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7f)
      return false;
  return true;
}

static void fz_check_json(const struct metric *m, char *line, int n) {
  if (n <= 0 || (size_t)n != strlen(line) || line[n - 1] != '\n')
    abort();
  line[n - 1] = '\0';
  char err[128];
  yajl_val tree = yajl_tree_parse(line, err, sizeof(err));
  if (tree == NULL || !YAJL_IS_OBJECT(tree) ||
      tree->u.object.len != 2 + m->n_tags + m->n_fields)
    abort();
  const char **keys = tree->u.object.keys;
  yajl_val *values = tree->u.object.values;
  if (!YAJL_IS_STRING(values[0]) || !YAJL_IS_NUMBER(values[1]))
    abort();
  if (fz_printable(m->measurement) &&
      strcmp(values[0]->u.string, m->measurement) != 0)
    abort();
  for (size_t i = 0; i < m->n_tags; i++) {
    const char *key = keys[2 + i];
    yajl_val v = values[2 + i];
    if (!YAJL_IS_STRING(v))
      abort();
    if (fz_printable(m->tags[i].key) && strcmp(key, m->tags[i].key) != 0)
      abort();
    if (fz_printable(m->tags[i].value) &&
        strcmp(v->u.string, m->tags[i].value) != 0)
      abort();
  }
  for (size_t i = 0; i < m->n_fields; i++) {
    const struct metric_field *f = &m->fields[i];
    yajl_val v = values[2 + m->n_tags + i];
    if (fz_printable(f->key) && strcmp(keys[2 + m->n_tags + i], f->key) != 0)
      abort();
    /* compare the raw number text: yajl_tree flags INT64_MIN and
     * subnormal doubles as out of range (ERANGE) though they are exact */
    if (!YAJL_IS_NUMBER(v))
      abort();
    const char *text = YAJL_GET_NUMBER(v);
    char *end;
    if (f->kind == METRIC_INT) {
      char want[32];
      snprintf(want, sizeof(want), "%" PRId64, f->v.i);
      if (strcmp(text, want) != 0)
        abort();
    } else if (strtod(text, &end) != f->v.f || *end != '\0') {
      abort();
    }
  }
  yajl_tree_free(tree);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
  static char strings[1 + 2 * METRIC_MAX_TAGS + METRIC_MAX_FIELDS][FZ_STR_MAX];
  static char line[FZ_LINE_MAX];
  struct fz_in in = {data, size};
  unsigned char shape = fz_byte(&in), floats = fz_byte(&in);
  size_t n_tags = (shape & 0x0f) % (METRIC_MAX_TAGS + 1);
  size_t n_fields = 1 + (shape >> 4) % METRIC_MAX_FIELDS;
  uint64_t time_ns = fz_u64(&in);
  uint64_t values[METRIC_MAX_FIELDS];
  for (size_t i = 0; i < n_fields; i++)
    values[i] = fz_u64(&in);
  size_t s = 0;
  fz_str(&in, strings[s++]);
  struct metric m;
  metric_init(&m, strings[0], time_ns);
  for (size_t i = 0; i < n_tags; i++) {
    char *key = strings[s++], *value = strings[s++];
    fz_str(&in, key);
    fz_str(&in, value);
    metric_add_tag(&m, key, value); /* an empty value is left out */
  }
  for (size_t i = 0; i < n_fields; i++) {
    char *key = strings[s++];
    fz_str(&in, key);
    if (floats & (1u << (i % 8))) {
      double d;
      memcpy(&d, &values[i], sizeof(d));
      metric_add_float(&m, key, "gauge", d); /* non-finite: left out */
    } else {
      /* any int64, negative ones too, behind metric_add_int's back */
      m.fields[m.n_fields++] = (struct metric_field){.key = key,
                                                     .ctype = "derive",
                                                     .kind = METRIC_INT,
                                                     .v.i = (int64_t)values[i]};
    }
  }

  int n = sink_influx_format(&m, line, sizeof(line));
  if (m.n_fields == 0) {
    if (n != -EINVAL || sink_json_format(&m, line, sizeof(line)) != -EINVAL)
      abort();
    return 0;
  }
  fz_check_influx(&m, line, n);
  if (sink_influx_format(&m, line, (size_t)n) != -E2BIG ||
      sink_influx_format(&m, line, (size_t)n + 1) != n)
    abort();

  n = sink_json_format(&m, line, sizeof(line));
  if (n <= 0 || sink_json_format(&m, line, (size_t)n) != -E2BIG ||
      sink_json_format(&m, line, (size_t)n + 1) != n)
    abort();
  fz_check_json(&m, line, n);
  return 0;
}
