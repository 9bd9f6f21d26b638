/*
 * pmu_event_parse.c: perf-syntax event strings (see pmu_event_parse.h).
 * A small recursive-descent parser over a byte range; every name and count
 * is bounded, every error names its offset.
 */
#include "common/pmu/pmu_event_parse.h"

#include <errno.h>
#include <string.h>

struct pep {
  const char *text;
  size_t len, pos;
  struct pmu_parse_error *err;
};

static int pep_fail(struct pep *p, int rc, const char *message) {
  p->err->offset = p->pos;
  p->err->message = message;
  return rc;
}

static bool pep_peek(const struct pep *p, char c) {
  return p->pos < p->len && p->text[p->pos] == c;
}

static bool pep_name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.';
}

static int pep_name(struct pep *p, char out[PMU_NAME_MAX]) {
  size_t start = p->pos;
  while (p->pos < p->len && pep_name_char(p->text[p->pos]))
    p->pos++;
  size_t n = p->pos - start;
  if (n == 0)
    return pep_fail(p, -EINVAL, "expected a name");
  if (n >= PMU_NAME_MAX) {
    p->pos = start;
    return pep_fail(p, -EINVAL, "name too long");
  }
  memcpy(out, p->text + start, n);
  out[n] = '\0';
  return 0;
}

static int pep_value(struct pep *p, uint64_t *out) {
  size_t start = p->pos;
  unsigned base = 10;
  if (p->pos + 1 < p->len && p->text[p->pos] == '0' &&
      (p->text[p->pos + 1] == 'x' || p->text[p->pos + 1] == 'X')) {
    base = 16;
    p->pos += 2;
  }
  uint64_t v = 0;
  size_t digits = 0;
  for (; p->pos < p->len; p->pos++, digits++) {
    char c = p->text[p->pos];
    unsigned d;
    if (c >= '0' && c <= '9')
      d = (unsigned)(c - '0');
    else if (base == 16 && c >= 'a' && c <= 'f')
      d = (unsigned)(c - 'a' + 10);
    else if (base == 16 && c >= 'A' && c <= 'F')
      d = (unsigned)(c - 'A' + 10);
    else
      break;
    if (v > (UINT64_MAX - d) / base) {
      p->pos = start;
      return pep_fail(p, -EINVAL, "value does not fit in 64 bits");
    }
    v = v * base + d;
  }
  if (digits == 0 || (p->pos < p->len && pep_name_char(p->text[p->pos]))) {
    p->pos = start;
    return pep_fail(p, -EINVAL, "expected a decimal or 0x hexadecimal value");
  }
  *out = v;
  return 0;
}

/* term (',' term)*, up to a '/' (`slash`) or to the end of the input.
 * The list may be empty. */
static int pep_terms(struct pep *p, struct pmu_event_spec *e, bool slash) {
  for (;;) {
    if (slash ? pep_peek(p, '/') : p->pos == p->len)
      return 0;
    if (e->n_terms == PMU_MAX_TERMS)
      return pep_fail(p, -E2BIG, "too many terms in one event");
    struct pmu_term *t = &e->terms[e->n_terms];
    int rc = pep_name(p, t->name);
    if (rc < 0)
      return rc;
    if (pep_peek(p, '=')) {
      p->pos++;
      if ((rc = pep_value(p, &t->value)) < 0)
        return rc;
      t->has_value = true;
    }
    e->n_terms++;
    if (pep_peek(p, ','))
      p->pos++;
    else if (slash && !pep_peek(p, '/'))
      return pep_fail(p, -EINVAL, "expected ',' or '/' after a term");
    else if (!slash && p->pos != p->len)
      return pep_fail(p, -EINVAL, "expected ',' after a term");
  }
}

/* pmu '/' [term (',' term)*] '/' */
static int pep_event(struct pep *p, struct pmu_event_spec *e) {
  memset(e, 0, sizeof(*e));
  int rc = pep_name(p, e->pmu);
  if (rc < 0)
    return rc;
  if (!pep_peek(p, '/'))
    return pep_fail(p, -EINVAL, "expected '/' after the PMU name");
  p->pos++;
  if ((rc = pep_terms(p, e, /*slash=*/true)) < 0)
    return rc;
  p->pos++; /* closing '/' */
  if (pep_peek(p, ':'))
    return pep_fail(p, -EINVAL,
                    "event modifiers are not supported for uncore PMUs");
  return 0;
}

int pmu_terms_parse(const char *text, size_t len, struct pmu_event_spec *out,
                    struct pmu_parse_error *err) {
  struct pep p = {text, len, 0, err};
  memset(out, 0, sizeof(*out));
  int rc = pep_terms(&p, out, /*slash=*/false);
  if (rc == 0 && out->n_terms > 0 && text[len - 1] == ',')
    rc = pep_fail(&p, -EINVAL, "expected a name");
  return rc;
}

int pmu_event_parse(const char *text, size_t len, struct pmu_group_spec *groups,
                    size_t max_groups, size_t *n_groups,
                    struct pmu_parse_error *err) {
  struct pep p = {text, len, 0, err};
  size_t n = 0;
  if (len == 0)
    return pep_fail(&p, -EINVAL, "empty event string");
  for (;;) {
    if (n == max_groups)
      return pep_fail(&p, -E2BIG, "too many events or groups");
    struct pmu_group_spec *g = &groups[n];
    memset(g, 0, sizeof(*g));
    int rc;
    if (pep_peek(&p, '{')) {
      p.pos++;
      g->braced = true;
      for (;;) {
        if (g->n_events == PMU_MAX_GROUP)
          return pep_fail(&p, -E2BIG, "too many events in one group");
        if ((rc = pep_event(&p, &g->events[g->n_events])) < 0)
          return rc;
        g->n_events++;
        if (pep_peek(&p, ',')) {
          p.pos++;
          continue;
        }
        if (!pep_peek(&p, '}'))
          return pep_fail(&p, -EINVAL, "expected ',' or '}' in a group");
        p.pos++;
        break;
      }
    } else {
      if ((rc = pep_event(&p, &g->events[0])) < 0)
        return rc;
      g->n_events = 1;
    }
    n++;
    if (p.pos == p.len)
      break;
    if (!pep_peek(&p, ','))
      return pep_fail(&p, -EINVAL, "expected ',' between events");
    p.pos++;
  }
  *n_groups = n;
  return 0;
}
