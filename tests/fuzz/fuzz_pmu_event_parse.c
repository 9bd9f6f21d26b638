/*
 * fuzz_pmu_event_parse.c: libFuzzer target for perf-syntax event strings.
 */
#include "common/pmu/pmu_event_parse.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static struct pmu_group_spec groups[4];

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
  size_t n = 99;
  struct pmu_parse_error err = {0, NULL};
  int rc = pmu_event_parse((const char *)data, size, groups, 4, &n, &err);
  if (rc != 0) {
    if (err.message == NULL || err.offset > size)
      abort();
    return 0;
  }
  if (n == 0 || n > 4)
    abort();
  for (size_t g = 0; g < n; g++) {
    if (groups[g].n_events == 0 || groups[g].n_events > PMU_MAX_GROUP)
      abort();
    for (size_t e = 0; e < groups[g].n_events; e++) {
      const struct pmu_event_spec *ev = &groups[g].events[e];
      size_t len = strnlen(ev->pmu, PMU_NAME_MAX);
      if (len == 0 || len == PMU_NAME_MAX || ev->n_terms > PMU_MAX_TERMS)
        abort();
    }
  }
  return 0;
}
