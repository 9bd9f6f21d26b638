/*
 * fuzz_pmu_terms_parse.c: libFuzzer target for bare term lists, as an
 * events/<name> file or a Filter's Terms hold them, and for the event tag
 * built from them. Invariants: an error names a message and an offset in
 * the input; a parse gives bounded, NUL-terminated, non-empty names; the
 * tag is bounded and, when whole, parses back to the same terms.
 */
#include "common/pmu/pmu_event_parse.h"
#include "common/pmu/pmu_event_resolve.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static void same_terms(const struct pmu_event_spec *a,
                       const struct pmu_event_spec *b) {
  if (a->n_terms != b->n_terms)
    abort();
  for (size_t i = 0; i < a->n_terms; i++)
    if (strcmp(a->terms[i].name, b->terms[i].name) != 0 ||
        a->terms[i].has_value != b->terms[i].has_value ||
        (a->terms[i].has_value && a->terms[i].value != b->terms[i].value))
      abort();
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
  struct pmu_event_spec spec, back;
  struct pmu_parse_error err = {0, NULL};
  if (pmu_terms_parse((const char *)data, size, &spec, &err) != 0) {
    if (err.message == NULL || err.offset > size)
      abort();
    return 0;
  }
  if (spec.pmu[0] != '\0' || spec.n_terms > PMU_MAX_TERMS)
    abort();
  for (size_t i = 0; i < spec.n_terms; i++) {
    size_t len = strnlen(spec.terms[i].name, PMU_NAME_MAX);
    if (len == 0 || len == PMU_NAME_MAX)
      abort();
  }
  char text[PMU_EVENT_TEXT_MAX];
  memset(text, 'x', sizeof(text));
  pmu_event_text(&spec, text);
  size_t len = strnlen(text, sizeof(text));
  if (len == sizeof(text))
    abort();
  const char *cut = strchr(text, '~');
  if (cut != NULL) {
    /* a cut tag: full length, "~" and 16 lowercase hex digits */
    if (len != PMU_EVENT_TEXT_MAX - 1 || text + len - cut != 17 ||
        strspn(cut + 1, "0123456789abcdef") != 16)
      abort();
    return 0;
  }
  if (pmu_terms_parse(text, len, &back, &err) != 0)
    abort();
  same_terms(&spec, &back);
  return 0;
}
