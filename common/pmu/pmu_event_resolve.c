/*
 * pmu_event_resolve.c: perf-syntax events to config words
 * (pmu_event_resolve.h).
 */
#include "common/pmu/pmu_event_resolve.h"
#include "common/core/text.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* Apply one term with a value; raw words or format terms only. */
static int pmu_term_apply(const struct pmu_desc *pmu, const char *name,
                          uint64_t value, struct pmu_event *out, char *why,
                          size_t why_size) {
  static const char *const raw[] = {"config", "config1", "config2", "config3",
                                    "config4"};
  for (unsigned w = 0; w < PMU_CONFIG_WORDS; w++)
    if (strcmp(name, raw[w]) == 0) {
      out->config[w] = value;
      return 0;
    }
  const struct pmu_term_format *f = pmu_desc_format(pmu, name);
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
static int pmu_named_apply(const struct pmu_desc *pmu,
                           const struct pmu_named_event *ev,
                           struct pmu_event *out, char *why, size_t why_size) {
  if (strstr(ev->terms, "=?") != NULL) {
    snprintf(why, why_size, "event \"%s\" needs a value for a parameter (%s)",
             ev->name, ev->terms);
    return -EINVAL;
  }
  struct pmu_event_spec spec;
  struct pmu_parse_error err;
  if (pmu_terms_parse(ev->terms, strlen(ev->terms), &spec, &err) < 0) {
    snprintf(why, why_size, "events/%s of PMU %s: %s", ev->name, pmu->name,
             err.message);
    return -EINVAL;
  }
  for (size_t i = 0; i < spec.n_terms; i++) {
    uint64_t value = spec.terms[i].has_value ? spec.terms[i].value : 1;
    int rc = pmu_term_apply(pmu, spec.terms[i].name, value, out, why, why_size);
    if (rc < 0)
      return rc;
  }
  out->scale = ev->scale;
  snprintf(out->unit, sizeof(out->unit), "%s", ev->unit);
  return 0;
}

/* The terms of `spec` as written ("rd_bytes,src_bdf=0x108"), whole, into
 * `full` (big enough for PMU_MAX_TERMS terms); the length. */
static size_t pmu_event_text_full(const struct pmu_event_spec *spec, char *full,
                                  size_t size) {
  size_t len = 0;
  full[0] = '\0';
  for (size_t i = 0; i < spec->n_terms && len < size; i++) {
    const struct pmu_term *t = &spec->terms[i];
    int n = t->has_value ? snprintf(full + len, size - len, "%s%s=0x%" PRIx64,
                                    i ? "," : "", t->name, t->value)
                         : snprintf(full + len, size - len, "%s%s",
                                    i ? "," : "", t->name);
    if (n < 0)
      break;
    len += (size_t)n;
  }
  return len < size ? len : size - 1;
}

void pmu_event_text(const struct pmu_event_spec *spec,
                    char out[PMU_EVENT_TEXT_MAX]) {
  /* every term at most "," name "=0x" 16 digits */
  char full[PMU_MAX_TERMS * (PMU_NAME_MAX + 20) + 1];
  size_t len = pmu_event_text_full(spec, full, sizeof(full));
  /* a text that must be cut keeps a prefix and the hash of the whole */
  text_sanitize_keyed(out, PMU_EVENT_TEXT_MAX, full, len);
}

int pmu_event_resolve(const struct pmu_desc *pmu,
                      const struct pmu_event_spec *spec, struct pmu_event *out,
                      char *why, size_t why_size) {
  memset(out, 0, sizeof(*out));
  out->scale = 1.0;
  if (spec->n_terms == 0) {
    snprintf(why, why_size, "no event given for PMU %s", pmu->name);
    return -EINVAL;
  }
  pmu_event_text(spec, out->text);
  for (size_t i = 0; i < spec->n_terms; i++) {
    const struct pmu_term *t = &spec->terms[i];
    int rc;
    const struct pmu_named_event *ev =
        t->has_value || pmu_desc_format(pmu, t->name)
            ? NULL
            : pmu_desc_event(pmu, t->name);
    if (ev != NULL)
      rc = pmu_named_apply(pmu, ev, out, why, why_size);
    else
      rc = pmu_term_apply(pmu, t->name, t->has_value ? t->value : 1, out, why,
                          why_size);
    if (rc < 0)
      return rc;
  }
  return 0;
}
