/*
 * sink_prom.c: the Prometheus text exposition format (see sink_prom.h).
 *
 * Format rules from the Prometheus documentation, "Exposition formats"
 * (text format 0.0.4: HELP and TYPE once per name, before its samples, all
 * samples of a name together, label values with \\, \" and \n escaped,
 * HELP with \\ and \n escaped) and naming rules from "Metric and label
 * naming" (base units, _total for counters, snake case); checked with
 * promtool check metrics (tests/e2e/prometheus_exec.sh).
 */
#include "common/sink/sink_prom.h"
#include "common/core/numfmt.h"
#include "common/core/text.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Longest tag key made a label name; longer keys are left out. */
#define PROM_LABEL_MAX 100

struct sink_prom_family {
  size_t name_off, name_len; /* in the arena */
  size_t help_off, help_len;
  size_t origin_off, origin_len; /* "measurement\0key" of its first field */
  struct sink_prom_unit unit;
  const struct metric_unit *row;
};

struct sink_prom_sample {
  uint32_t fam;
  uint32_t seq; /* arrival order: keeps the sort stable */
  size_t lab_off, lab_len;
  bool is_int;
  int64_t i;
  double f;
};

/* ---- names ---- */

/* Words a key may end with that name the unit of its row's base unit. */
static const struct {
  const char *base;
  const char *words[8];
} sink_prom_words[] = {
    {"seconds", {"ns", "us", "ms", "s", "sec", "secs", "seconds", NULL}},
    {"bytes", {"b", "byte", "bytes", NULL}},
    {"hertz", {"hz", "hertz", NULL}},
    {"ratio", {"percent", "pct", "ratio", NULL}},
    {"cycles", {"cycle", "cycles", NULL}},
    {"celsius", {"c", "celsius", NULL}},
    {"bytes_per_second", {"bps", "bytes_per_second", NULL}},
    {"per_second", {"per_second", "per_s", NULL}},
    {"requests_per_cycle", {"requests_per_cycle", NULL}},
    {"volts", {"v", "mv", "uv", "volt", "volts", NULL}},
    {"watts", {"w", "mw", "uw", "watt", "watts", NULL}},
    {"joules", {"j", "mj", "uj", "joule", "joules", NULL}},
};

/* Length of `word` with its '_' when `key` ends with "_<word>" or is
 * `word` (case-insensitively), else 0. */
static size_t sink_prom_ends(const char *key, size_t len, const char *word) {
  size_t w = strlen(word);
  if (len < w || strncasecmp(key + len - w, word, w) != 0)
    return 0;
  if (len == w)
    return w;
  return key[len - w - 1] == '_' ? w + 1 : 0;
}

struct sink_prom_unit sink_prom_unit_of(const char *key,
                                        const struct metric_unit *u) {
  struct sink_prom_unit pu = {u->base, u->base_scale, metric_unit_is_counter(u),
                              u->meaning, 0};
  size_t len = strlen(key);
  if (u->base[0] == '\0') /* a count: the key is the name */
    return pu;
  for (size_t i = 0; i < sizeof(sink_prom_words) / sizeof(*sink_prom_words);
       i++) {
    if (strcmp(sink_prom_words[i].base, u->base) != 0)
      continue;
    for (const char *const *w = sink_prom_words[i].words; *w != NULL; w++) {
      size_t n = sink_prom_ends(key, len, *w);
      if (n > pu.strip)
        pu.strip = n;
    }
  }
  if (pu.strip == 0) /* "..._<base>" already, e.g. latency_seconds */
    pu.strip = sink_prom_ends(key, len, u->base);
  return pu;
}

/* A bounded output cursor, as in sink_influx.c. */
struct prom_out {
  char *p;
  size_t size, len;
  bool full;
};

static void prom_putc(struct prom_out *o, char c) {
  if (o->full || o->len + 1 >= o->size) {
    o->full = true;
    return;
  }
  o->p[o->len++] = c;
}

/* Append `n` bytes of `s` as a name part: [a-z0-9_], CamelCase split. */
static void prom_name_part(struct prom_out *o, const char *s, size_t n) {
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c >= 'A' && c <= 'Z') {
      unsigned char prev = i > 0 ? (unsigned char)s[i - 1] : 0;
      if ((prev >= 'a' && prev <= 'z') || (prev >= '0' && prev <= '9'))
        prom_putc(o, '_');
      prom_putc(o, (char)(c - 'A' + 'a'));
    } else if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))
      prom_putc(o, (char)c);
    else
      prom_putc(o, '_');
  }
}

/* True when the '_'-separated `words` has the word [w, w + n). */
static bool prom_has_word(const char *words, const char *w, size_t n) {
  for (const char *p = words; *p;) {
    size_t k = strcspn(p, "_");
    if (k == n && memcmp(p, w, n) == 0)
      return true;
    p += k + (p[k] == '_');
  }
  return false;
}

int sink_prom_name(const char *measurement, const char *key,
                   const struct metric_unit *u, char *out, size_t size) {
  struct sink_prom_unit pu = sink_prom_unit_of(key, u);
  char meas[SINK_PROM_NAME_MAX + 2], stem[SINK_PROM_NAME_MAX + 2];
  struct prom_out mo = {meas, sizeof(meas), 0, false};
  if (measurement[0] >= '0' && measurement[0] <= '9')
    prom_putc(&mo, '_');
  prom_name_part(&mo, measurement, strlen(measurement));
  struct prom_out so = {stem, sizeof(stem), 0, false};
  prom_name_part(&so, key, strlen(key) - pu.strip);
  if (mo.full || so.full)
    return -E2BIG;
  meas[mo.len] = stem[so.len] = '\0';
  /* No word twice: a stem word the measurement or the unit already says
   * is left out (drm_device_power + power + watts is drm_device_power_watts,
   * not drm_device_power_power_watts). A counter's "_total" is the
   * format's suffix, not a word of the field: total_cycles stays
   * (drm_engine_total_cycles_total beside drm_engine_cycles_total). */
  char said[2 * SINK_PROM_NAME_MAX + 16];
  snprintf(said, sizeof(said), "%s_%s", meas, pu.base);
  struct prom_out o = {out, size, 0, false};
  if (size == 0)
    return -E2BIG;
  for (size_t i = 0; i < mo.len; i++)
    prom_putc(&o, meas[i]);
  for (const char *w = stem; *w;) {
    size_t n = strcspn(w, "_");
    if (n > 0 && !prom_has_word(said, w, n)) {
      prom_putc(&o, '_');
      for (size_t i = 0; i < n; i++)
        prom_putc(&o, w[i]);
    }
    w += n + (w[n] == '_');
  }
  if (pu.base[0] != '\0') {
    prom_putc(&o, '_');
    prom_name_part(&o, pu.base, strlen(pu.base));
  }
  if (pu.counter) {
    static const char total[] = "_total";
    prom_name_part(&o, total, sizeof(total) - 1);
  }
  if (o.full || o.len > SINK_PROM_NAME_MAX)
    return -E2BIG;
  if (o.len == 0)
    return -EINVAL; /* no measurement, key or unit: nothing to name */
  out[o.len] = '\0';
  return (int)o.len;
}

/* ---- growable buffers ---- */

/* Make room for `more` bytes in *buf (len, cap); false on ENOMEM. */
static bool prom_reserve(char **buf, size_t *cap, size_t len, size_t more) {
  if (len + more <= *cap)
    return true;
  size_t want = *cap ? *cap : 4096;
  while (want < len + more)
    want *= 2;
  char *grown = realloc(*buf, want);
  if (grown == NULL)
    return false;
  *buf = grown;
  *cap = want;
  return true;
}

static void prom_arena_put(struct sink_prom *s, const char *p, size_t n) {
  if (!prom_reserve(&s->arena, &s->arena_cap, s->arena_len, n)) {
    s->nomem = true;
    return;
  }
  memcpy(s->arena + s->arena_len, p, n);
  s->arena_len += n;
}

static void prom_text_put(struct sink_prom *s, const char *p, size_t n) {
  if (!prom_reserve(&s->text, &s->text_cap, s->text_len, n)) {
    s->nomem = true;
    return;
  }
  memcpy(s->text + s->text_len, p, n);
  s->text_len += n;
}

/* Append `s` escaped for a label value (quote true) or a HELP text; a
 * character that may not be printed (text_char) becomes '?'. */
static void prom_escaped(struct sink_prom *s, const char *in, bool quote) {
  size_t left = strlen(in);
  while (left > 0) {
    bool ok;
    size_t n = text_char(in, left, &ok);
    if (*in == '\\')
      prom_arena_put(s, "\\\\", 2);
    else if (*in == '"' && quote)
      prom_arena_put(s, "\\\"", 2);
    else if (*in == '\n')
      prom_arena_put(s, "\\n", 2);
    else
      prom_arena_put(s, ok ? in : "?", ok ? n : 1);
    in += n;
    left -= n;
  }
}

/* Write a label name made valid into `out` (room for strlen(key) + 2):
 * [a-zA-Z_][a-zA-Z0-9_]*, and an 'x' before one starting "__" (reserved
 * for Prometheus' own labels). Returns its length. */
static size_t prom_label_name(const char *key, char *out) {
  size_t n = 1; /* out[0]: room for a prefix */
  for (const char *k = key; *k; k++) {
    char c = *k;
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
              (c >= '0' && c <= '9') || c == '_';
    out[n++] = ok ? c : '_'; /* "_-" becomes "__": checked below */
  }
  out[n] = '\0';
  if (n == 1 || (out[1] >= '0' && out[1] <= '9'))
    out[0] = '_';
  else if (out[1] == '_' && out[2] == '_')
    out[0] = 'x';
  else {
    memmove(out, out + 1, n); /* with the NUL */
    n--;
  }
  return n;
}

/* ---- the sink ---- */

void sink_prom_set_units(struct sink_prom *s, const struct metric_unit *units) {
  s->units = units;
}

static int sink_prom_begin(struct metric_sink *sink) {
  struct sink_prom *s = (struct sink_prom *)sink;
  s->n_fams = 0;
  s->n_samples = 0;
  s->arena_len = 0;
  s->refused = 0;
  s->duplicates = 0;
  s->duplicate[0] = '\0';
  s->nomem = false;
  s->clash[0] = '\0';
  return 0;
}

static struct sink_prom_family *prom_family(struct sink_prom *s,
                                            const char *name, size_t len) {
  for (size_t i = s->n_fams; i-- > 0;) {
    struct sink_prom_family *f = &s->fams[i];
    if (f->name_len == len && memcmp(s->arena + f->name_off, name, len) == 0)
      return f;
  }
  return NULL;
}

static bool prom_same_unit(const struct sink_prom_unit *a,
                           const struct sink_prom_unit *b) {
  return a->counter == b->counter && a->scale == b->scale &&
         strcmp(a->base, b->base) == 0;
}

static void prom_refuse(struct sink_prom *s, const struct metric *m,
                        const struct metric_field *fld, const char *why) {
  if (s->refused++ == 0)
    snprintf(s->clash, sizeof(s->clash),
             "%.60s field \"%.60s\" (%.40s): %.320s", m->measurement, fld->key,
             fld->ctype, why);
}

static int sink_prom_write(struct metric_sink *sink, const struct metric *m) {
  struct sink_prom *s = (struct sink_prom *)sink;
  return sink_prom_write_units(s, m, s->units);
}

/* True when `text` has `word` as a whole word, in any case ("power in
 * watts" says watts; "cumulative nanoseconds" does not say seconds). */
static bool prom_says(const char *text, const char *word) {
  size_t n = strlen(word);
  for (const char *p = text; (p = strcasestr(p, word)) != NULL; p++) {
    bool start = p == text || !isalpha((unsigned char)p[-1]);
    bool end = !isalpha((unsigned char)p[n]);
    if (start && end)
      return true;
  }
  return false;
}

/* True when the family `f` was named from this measurement and key: two
 * that mangle to one name (reason_PL1 and reason_pl1) are not merged. */
static bool prom_same_origin(const struct sink_prom *s,
                             const struct sink_prom_family *f,
                             const char *measurement, const char *key) {
  size_t ml = strlen(measurement), kl = strlen(key);
  return f->origin_len == ml + 1 + kl + 1 &&
         memcmp(s->arena + f->origin_off, measurement, ml + 1) == 0 &&
         memcmp(s->arena + f->origin_off + ml + 1, key, kl + 1) == 0;
}

int sink_prom_write_units(struct sink_prom *s, const struct metric *m,
                          const struct metric_unit *units) {
  /* the label text, shared by every field of the record */
  size_t lab_off = s->arena_len;
  /* a label name twice (after making names valid) is an invalid series:
   * the first one stands */
  char names[METRIC_MAX_TAGS][PROM_LABEL_MAX + 3];
  size_t n_names = 0;
  for (size_t t = 0; t < m->n_tags && t < METRIC_MAX_TAGS; t++) {
    if (strlen(m->tags[t].key) > PROM_LABEL_MAX)
      continue; /* tag keys are short static identifiers */
    prom_label_name(m->tags[t].key, names[n_names]);
    bool twice = false;
    for (size_t k = 0; k < n_names && !twice; k++)
      twice = strcmp(names[k], names[n_names]) == 0;
    if (twice)
      continue;
    prom_arena_put(s, n_names == 0 ? "{" : ",", 1);
    prom_arena_put(s, names[n_names], strlen(names[n_names]));
    prom_arena_put(s, "=\"", 2);
    prom_escaped(s, m->tags[t].value, true);
    prom_arena_put(s, "\"", 1);
    n_names++;
  }
  if (n_names > 0)
    prom_arena_put(s, "}", 1);
  size_t lab_len = s->arena_len - lab_off;
  int rc = 0;
  for (size_t i = 0; i < m->n_fields; i++) {
    const struct metric_field *fld = &m->fields[i];
    const struct metric_unit *row = metric_unit_lookup(units, fld->ctype);
    if (row == NULL ||
        (fld->kind == METRIC_FLOAT && !(fld->v.f - fld->v.f == 0))) {
      rc = -EINVAL;
      continue;
    }
    char name[SINK_PROM_NAME_MAX + 1];
    int n = sink_prom_name(m->measurement, fld->key, row, name, sizeof(name));
    if (n < 0) {
      prom_refuse(s, m, fld,
                  n == -E2BIG ? "the metric name is too long"
                              : "the metric name is empty");
      continue;
    }
    struct sink_prom_unit pu = sink_prom_unit_of(fld->key, row);
    struct sink_prom_family *f = prom_family(s, name, (size_t)n);
    if (f != NULL && !prom_same_unit(&f->unit, &pu)) {
      char why[320];
      snprintf(why, sizeof(why),
               "%.100s is already a %s in \"%.30s\" (scale %g), this one a "
               "%s in \"%.30s\" (scale %g): refused",
               name, f->unit.counter ? "counter" : "gauge", f->unit.base,
               f->unit.scale, pu.counter ? "counter" : "gauge", pu.base,
               pu.scale);
      prom_refuse(s, m, fld, why);
      continue;
    }
    if (f != NULL && !prom_same_origin(s, f, m->measurement, fld->key)) {
      char why[320];
      const char *o = s->arena + f->origin_off;
      snprintf(why, sizeof(why),
               "%.100s is already the name of %.60s field \"%.60s\": two "
               "fields are not merged into one name: refused",
               name, o, o + strlen(o) + 1);
      prom_refuse(s, m, fld, why);
      continue;
    }
    if (f == NULL) {
      if (s->n_fams == s->cap_fams) {
        size_t cap = s->cap_fams ? 2 * s->cap_fams : 32;
        void *grown = realloc(s->fams, cap * sizeof(*s->fams));
        if (grown == NULL)
          return -ENOMEM;
        s->fams = grown;
        s->cap_fams = cap;
      }
      f = &s->fams[s->n_fams++];
      f->row = row;
      f->unit = pu;
      f->name_off = s->arena_len;
      f->name_len = (size_t)n;
      prom_arena_put(s, name, (size_t)n);
      f->origin_off = s->arena_len;
      prom_arena_put(s, m->measurement, strlen(m->measurement) + 1);
      prom_arena_put(s, fld->key, strlen(fld->key) + 1);
      f->origin_len = s->arena_len - f->origin_off;
      f->help_off = s->arena_len;
      char help[400];
      bool ratio = strcmp(pu.base, "ratio") == 0;
      /* the unit once: "power in watts" needs no ", in watts" */
      bool said = pu.base[0] == '\0' || prom_says(pu.meaning, pu.base);
      snprintf(help, sizeof(help), "%s %s: %s%s%s", m->measurement, fld->key,
               pu.meaning,
               ratio  ? ", as a ratio (1 is 100 %"
               : said ? ""
                      : ", in ",
               ratio  ? ")"
               : said ? ""
                      : pu.base);
      prom_escaped(s, help, false);
      f->help_len = s->arena_len - f->help_off;
    }
    if (s->n_samples == s->cap_samples) {
      size_t cap = s->cap_samples ? 2 * s->cap_samples : 256;
      void *grown = realloc(s->samples, cap * sizeof(*s->samples));
      if (grown == NULL)
        return -ENOMEM;
      s->samples = grown;
      s->cap_samples = cap;
    }
    struct sink_prom_sample *x = &s->samples[s->n_samples];
    x->fam = (uint32_t)(f - s->fams);
    x->seq = (uint32_t)s->n_samples++;
    x->lab_off = lab_off;
    x->lab_len = lab_len;
    x->is_int = fld->kind == METRIC_INT && pu.scale == 1.0;
    x->i = fld->kind == METRIC_INT ? fld->v.i : 0;
    x->f = numfmt_scale(fld->kind == METRIC_INT ? (double)fld->v.i : fld->v.f,
                        pu.scale);
  }
  return s->nomem ? -ENOMEM : rc;
}

/* qsort has no context argument: the arena of the sort in progress, one
 * per thread (sinks on different threads render independently). */
static _Thread_local const char *prom_sort_arena;

static int prom_sample_cmp(const void *pa, const void *pb) {
  const struct sink_prom_sample *a = pa, *b = pb;
  if (a->fam != b->fam)
    return a->fam < b->fam ? -1 : 1;
  size_t n = a->lab_len < b->lab_len ? a->lab_len : b->lab_len;
  int c = memcmp(prom_sort_arena + a->lab_off, prom_sort_arena + b->lab_off, n);
  if (c != 0)
    return c;
  if (a->lab_len != b->lab_len)
    return a->lab_len < b->lab_len ? -1 : 1;
  return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* Render the pass into s->text. */
static void prom_render(struct sink_prom *s) {
  s->text_len = 0;
  prom_sort_arena = s->arena;
  if (s->n_samples > 0)
    qsort(s->samples, s->n_samples, sizeof(*s->samples), prom_sample_cmp);
  prom_sort_arena = NULL;
  const struct sink_prom_sample *prev = NULL;
  for (size_t i = 0; i < s->n_samples; i++) {
    const struct sink_prom_sample *x = &s->samples[i];
    const struct sink_prom_family *f = &s->fams[x->fam];
    const char *name = s->arena + f->name_off;
    if (prev == NULL || prev->fam != x->fam) {
      prom_text_put(s, "# HELP ", 7);
      prom_text_put(s, name, f->name_len);
      prom_text_put(s, " ", 1);
      prom_text_put(s, s->arena + f->help_off, f->help_len);
      prom_text_put(s, "\n# TYPE ", 8);
      prom_text_put(s, name, f->name_len);
      prom_text_put(s, f->unit.counter ? " counter\n" : " gauge\n",
                    f->unit.counter ? 9 : 7);
    } else if (prev->lab_len == x->lab_len &&
               memcmp(s->arena + prev->lab_off, s->arena + x->lab_off,
                      x->lab_len) == 0) {
      if (s->duplicates++ == 0) /* the first one stands */
        snprintf(s->duplicate, sizeof(s->duplicate), "%.*s%.*s",
                 (int)(f->name_len < 200 ? f->name_len : 200), name,
                 (int)(x->lab_len < 300 ? x->lab_len : 300),
                 s->arena + x->lab_off);
      continue;
    }
    prev = x;
    prom_text_put(s, name, f->name_len);
    prom_text_put(s, s->arena + x->lab_off, x->lab_len);
    char num[NUMFMT_DOUBLE_MAX + 1] = " ";
    int n;
    if (x->is_int)
      n = snprintf(num + 1, sizeof(num) - 1, "%" PRId64, x->i);
    else
      n = numfmt_double(x->f, num + 1, sizeof(num) - 1);
    if (n < 0) /* a finite value times a scale <= 1 stays finite */
      n = snprintf(num + 1, sizeof(num) - 1, "NaN");
    num[1 + n] = '\n';
    prom_text_put(s, num, (size_t)n + 2);
  }
  if (prom_reserve(&s->text, &s->text_cap, s->text_len, 1))
    s->text[s->text_len] = '\0'; /* not counted in text_len */
  else
    s->nomem = true;
}

static int sink_prom_end(struct metric_sink *sink) {
  struct sink_prom *s = (struct sink_prom *)sink;
  prom_render(s);
  if (s->nomem)
    return -ENOMEM;
  if (s->stream == NULL)
    return 0;
  if (s->text_len > 0 &&
      fwrite(s->text, 1, s->text_len, s->stream) != s->text_len)
    return -EIO;
  return fflush(s->stream) == 0 ? 0 : -EIO;
}

void sink_prom_init(struct sink_prom *s, FILE *stream) {
  memset(s, 0, sizeof(*s));
  s->base.begin = sink_prom_begin;
  s->base.write = sink_prom_write;
  s->base.end = sink_prom_end;
  s->stream = stream;
}

const char *sink_prom_text(const struct sink_prom *s, size_t *len) {
  *len = s->text_len;
  return s->text != NULL ? s->text : "";
}

void sink_prom_fini(struct sink_prom *s) {
  free(s->fams);
  free(s->samples);
  free(s->arena);
  free(s->text);
  memset(s, 0, sizeof(*s));
}
