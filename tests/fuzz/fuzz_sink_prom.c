/*
 * fuzz_sink_prom.c: libFuzzer target for the Prometheus exposition
 * (sink_prom.h) on raw, unsanitised input: measurements, tag keys and
 * values, field keys, ctypes (from the table, or one it lacks), kinds and
 * values all come from the bytes, over several records of one pass.
 *
 * Input: byte 0 = record count (mod 6, plus 1); per record: one byte tag
 * count (low nibble mod 5) and field count (high nibble mod 6, plus 1),
 * one byte of float bits, 8 bytes per field value, one byte per field for
 * its ctype (index into metric_units, past the end: an unknown one), then
 * NUL-separated strings: measurement, tag key/value pairs, field keys.
 * Missing bytes read as 0.
 *
 * Invariants (abort() on violation): the text is valid UTF-8 and ends
 * with '\n' (or is empty); no control byte but '\n'; every line is
 * "# HELP name text", "# TYPE name counter|gauge" or a sample
 * "name[{label="value",...}] number"; names match [a-zA-Z_:][a-zA-Z0-9_:]*,
 * label names [a-zA-Z_][a-zA-Z0-9_]* not starting "__", label values hold
 * only the escapes \\, \" and \n; HELP and TYPE come once per name, before
 * its samples, and its samples are together; counters end in "_total" (a
 * gauge may too, when its key does);
 * the number of samples plus the refused and duplicate ones and the
 * fields that were -EINVAL equals the number of fields written.
 */
#include "common/core/metric_unit.h"
#include "common/sink/sink_prom.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

#define FZ_STR_MAX 80
#define FZ_RECORDS 6
#define FZ_NAMES 64

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

/* Length of the valid UTF-8 sequence at `s`, 0 if invalid. */
static size_t fz_utf8(const unsigned char *s, const unsigned char *end) {
  unsigned char c = s[0];
  size_t n = c < 0x80                 ? 1
             : c >= 0xc2 && c <= 0xdf ? 2
             : c >= 0xe0 && c <= 0xef ? 3
             : c >= 0xf0 && c <= 0xf4 ? 4
                                      : 0;
  if (n == 0 || s + n > end)
    return 0;
  uint32_t cp = n == 1 ? c : c & (0x7f >> n);
  for (size_t i = 1; i < n; i++) {
    if ((s[i] & 0xc0) != 0x80)
      return 0;
    cp = cp << 6 | (s[i] & 0x3f);
  }
  if ((n == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
      (n == 4 && (cp < 0x10000 || cp > 0x10ffff)))
    return 0;
  return n;
}

static bool fz_name_char(char c, bool first, bool colon) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
         (colon && c == ':') || (!first && c >= '0' && c <= '9');
}

/* A name at *p; returns its length (0: none). */
static size_t fz_name(const char *p, bool colon) {
  size_t n = 0;
  while (fz_name_char(p[n], n == 0, colon))
    n++;
  return n;
}

struct fz_fam {
  char name[SINK_PROM_NAME_MAX + 1];
  bool help, type, samples, closed, counter;
};

static struct fz_fam *fz_fam(struct fz_fam *fams, size_t *n, const char *name,
                             size_t len) {
  for (size_t i = 0; i < *n; i++)
    if (strlen(fams[i].name) == len && memcmp(fams[i].name, name, len) == 0)
      return &fams[i];
  if (*n == FZ_NAMES * 2 || len > SINK_PROM_NAME_MAX)
    abort();
  struct fz_fam *f = &fams[(*n)++];
  memset(f, 0, sizeof(*f));
  memcpy(f->name, name, len);
  return f;
}

/* Check the text; returns the number of samples. */
static size_t fz_check(const char *text, size_t len) {
  const unsigned char *u = (const unsigned char *)text;
  for (size_t i = 0; i < len;) {
    if (u[i] < 0x20 && u[i] != '\n')
      abort();
    if (u[i] == 0x7f)
      abort();
    size_t n = fz_utf8(u + i, u + len);
    if (n == 0)
      abort();
    i += n;
  }
  if (len > 0 && text[len - 1] != '\n')
    abort();
  static struct fz_fam fams[FZ_NAMES * 2];
  size_t n_fams = 0, samples = 0;
  struct fz_fam *current = NULL;
  for (const char *p = text; p < text + len;) {
    const char *eol = memchr(p, '\n', (size_t)(text + len - p));
    bool help = strncmp(p, "# HELP ", 7) == 0;
    bool type = strncmp(p, "# TYPE ", 7) == 0;
    const char *q = help || type ? p + 7 : p;
    size_t nl = fz_name(q, true);
    if (nl == 0)
      abort();
    struct fz_fam *f = fz_fam(fams, &n_fams, q, nl);
    if (f != current) {
      if (current != NULL)
        current->closed = true;
      if (f->closed)
        abort(); /* a name seen before, not together */
      current = f;
    }
    q += nl;
    if (help || type) {
      if (*q != ' ' || f->samples || (help && f->help) || (type && f->type))
        abort();
      if (type) {
        f->counter = strncmp(q, " counter\n", 9) == 0;
        if (!f->counter && strncmp(q, " gauge\n", 7) != 0)
          abort();
        if (f->counter && !(nl >= 6 && memcmp(q - 6, "_total", 6) == 0))
          abort();
      } else {
        for (const char *h = q; h < eol; h++)
          if (*h == '\\' && h[1] != '\\' && h[1] != 'n')
            abort();
          else if (*h == '\\')
            h++;
      }
      f->help |= help;
      f->type |= type;
      p = eol + 1;
      continue;
    }
    if (!f->help || !f->type)
      abort();
    f->samples = true;
    samples++;
    if (*q == '{') {
      q++;
      for (;;) {
        size_t ln = fz_name(q, false);
        if (ln == 0 || (q[0] == '_' && q[1] == '_') || q[ln] != '=' ||
            q[ln + 1] != '"')
          abort();
        q += ln + 2;
        while (*q != '"') {
          if (*q == '\n')
            abort();
          if (*q == '\\') {
            if (q[1] != '\\' && q[1] != '"' && q[1] != 'n')
              abort();
            q++;
          }
          q++;
        }
        q++;
        if (*q == '}')
          break;
        if (*q != ',')
          abort();
        q++;
      }
      q++;
    }
    if (*q != ' ')
      abort();
    char *end;
    strtod(q + 1, &end);
    if (end == q + 1 || end != eol)
      abort();
    p = eol + 1;
  }
  return samples;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
  struct fz_in in = {data, size};
  static struct metric ms[FZ_RECORDS];
  static char strs[FZ_RECORDS][1 + 2 * 4 + 6][FZ_STR_MAX];
  size_t n_records = (size_t)(fz_byte(&in) % FZ_RECORDS) + 1;
  size_t fields = 0;
  for (size_t r = 0; r < n_records; r++) {
    unsigned char counts = fz_byte(&in);
    size_t n_tags = (counts & 0x0f) % 5, n_fields = (counts >> 4) % 6 + 1;
    unsigned char floats = fz_byte(&in);
    uint64_t values[6];
    const char *ctypes[6];
    for (size_t i = 0; i < n_fields; i++) {
      values[i] = 0;
      for (int b = 0; b < 8; b++)
        values[i] = values[i] << 8 | fz_byte(&in);
      size_t c = fz_byte(&in) % (metric_units_count + 1);
      ctypes[i] = c < metric_units_count ? metric_units[c].ctype : "nope";
    }
    char(*s)[FZ_STR_MAX] = strs[r];
    size_t k = 0;
    fz_str(&in, s[k]);
    metric_init(&ms[r], s[k++], 1);
    for (size_t t = 0; t < n_tags; t++) {
      fz_str(&in, s[k]);
      fz_str(&in, s[k + 1]);
      metric_add_tag(&ms[r], s[k], s[k + 1]);
      k += 2;
    }
    for (size_t i = 0; i < n_fields; i++) {
      fz_str(&in, s[k]);
      if (floats >> i & 1) {
        double d;
        memcpy(&d, &values[i], sizeof(d));
        metric_add_float(&ms[r], s[k], ctypes[i], d);
      } else
        metric_add_int(&ms[r], s[k], ctypes[i], values[i]);
      k++;
    }
    fields += ms[r].n_fields;
  }
  struct sink_prom sp;
  sink_prom_init(&sp, NULL);
  sp.base.begin(&sp.base);
  size_t invalid = 0;
  for (size_t r = 0; r < n_records; r++) {
    if (sp.base.write(&sp.base, &ms[r]) == -EINVAL)
      for (size_t i = 0; i < ms[r].n_fields; i++)
        invalid += metric_unit_find(ms[r].fields[i].ctype) == NULL;
  }
  if (sp.base.end(&sp.base) != 0)
    abort();
  size_t len;
  const char *text = sink_prom_text(&sp, &len);
  if (strlen(text) != len)
    abort();
  size_t samples = fz_check(text, len);
  if (samples + sp.refused + sp.duplicates + invalid != fields)
    abort();
  sink_prom_fini(&sp);
  return 0;
}
