/*
 * t410_events.c: from a parsed perf-syntax event to perf_event_attr config
 * words, the way the perf tool does it: terms apply in the order written;
 * a bare name that is not a format term is a named event from events/,
 * whose own terms apply at that point (so later terms override them);
 * config, config1, config2 and config3 are raw words; every other term
 * must be a format term and its value must fit (pmu_format.h).
 */
#include "plugins/tegra410_uncore/t410.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static const struct t410_term_format *t410_format_find(const struct t410_pmu *p,
                                                       const char *name) {
  for (size_t i = 0; i < p->n_formats; i++)
    if (strcmp(p->formats[i].name, name) == 0)
      return &p->formats[i];
  return NULL;
}

static const struct t410_named_event *t410_named_find(const struct t410_pmu *p,
                                                      const char *name) {
  for (size_t i = 0; i < p->n_events; i++)
    if (strcmp(p->events[i].name, name) == 0)
      return &p->events[i];
  return NULL;
}

/* Apply one term with a value; raw words or format terms only. */
static int t410_term_apply(const struct t410_pmu *pmu, const char *name,
                           uint64_t value, struct t410_counter *out, char *why,
                           size_t why_size) {
  static const char *const raw[] = {"config", "config1", "config2", "config3"};
  for (unsigned w = 0; w < PMU_CONFIG_WORDS; w++)
    if (strcmp(name, raw[w]) == 0) {
      out->config[w] = value;
      return 0;
    }
  const struct t410_term_format *f = t410_format_find(pmu, name);
  if (f == NULL) {
    snprintf(why, why_size, "unknown term \"%s\" for PMU %s", name, pmu->name);
    return -EINVAL;
  }
  if (pmu_format_encode(&f->format, value, out->config) < 0) {
    snprintf(why, why_size,
             "value 0x%" PRIx64 " too big for term \"%s\" (at most 0x%" PRIx64
             ")",
             value, name, pmu_format_max(&f->format));
    return -EINVAL;
  }
  return 0;
}

/* A named event's own terms, "event=0x113,umask=0x1". */
static int t410_named_apply(const struct t410_pmu *pmu,
                            const struct t410_named_event *ev,
                            struct t410_counter *out, char *why,
                            size_t why_size) {
  char text[T410_EVENT_TEXT_MAX + 8];
  snprintf(text, sizeof(text), "x/%s/", ev->terms);
  struct pmu_group_spec group;
  struct pmu_parse_error err;
  size_t n;
  if (strstr(ev->terms, "=?") != NULL) {
    snprintf(why, why_size, "event \"%s\" needs a value for a parameter (%s)",
             ev->name, ev->terms);
    return -EINVAL;
  }
  if (pmu_event_parse(text, strlen(text), &group, 1, &n, &err) < 0) {
    snprintf(why, why_size, "events/%s of PMU %s: %s", ev->name, pmu->name,
             err.message);
    return -EINVAL;
  }
  const struct pmu_event_spec *spec = &group.events[0];
  for (size_t i = 0; i < spec->n_terms; i++) {
    uint64_t value = spec->terms[i].has_value ? spec->terms[i].value : 1;
    int rc =
        t410_term_apply(pmu, spec->terms[i].name, value, out, why, why_size);
    if (rc < 0)
      return rc;
  }
  out->scale = ev->scale;
  snprintf(out->unit, sizeof(out->unit), "%s", ev->unit);
  return 0;
}

int t410_event_resolve(const struct t410_pmu *pmu,
                       const struct pmu_event_spec *spec,
                       struct t410_counter *out, char *why, size_t why_size) {
  memset(out, 0, sizeof(*out));
  out->scale = 1.0;
  size_t len = 0;
  for (size_t i = 0; i < spec->n_terms; i++) {
    const struct pmu_term *t = &spec->terms[i];
    int n = t->has_value
                ? snprintf(out->event + len, sizeof(out->event) - len,
                           "%s%s=0x%" PRIx64, i ? "," : "", t->name, t->value)
                : snprintf(out->event + len, sizeof(out->event) - len, "%s%s",
                           i ? "," : "", t->name);
    if (n > 0 && (size_t)n < sizeof(out->event) - len)
      len += (size_t)n;
    int rc;
    const struct t410_named_event *ev =
        t->has_value || t410_format_find(pmu, t->name)
            ? NULL
            : t410_named_find(pmu, t->name);
    if (ev != NULL)
      rc = t410_named_apply(pmu, ev, out, why, why_size);
    else
      rc = t410_term_apply(pmu, t->name, t->has_value ? t->value : 1, out, why,
                           why_size);
    if (rc < 0)
      return rc;
  }
  if (spec->n_terms == 0) {
    snprintf(why, why_size, "no event given for PMU %s", pmu->name);
    return -EINVAL;
  }
  return 0;
}
