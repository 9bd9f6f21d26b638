/*
 * pmu_event_resolve.h: from a parsed perf-syntax event to the config words
 * of its perf_event_attr, the way the perf tool does it
 * (tools/perf/util/pmu.c): terms apply in the order written; a bare name
 * that is not a format term is a named event from events/, whose own terms
 * apply at that point (so later terms override them); config, config1,
 * config2, config3 and config4 are raw words; every other term must be a format
 * term and its value must fit (pmu_format.h).
 *
 * Pure: works on a loaded struct pmu_desc, no I/O.
 */
#ifndef COMMON_PMU_PMU_EVENT_RESOLVE_H
#define COMMON_PMU_PMU_EVENT_RESOLVE_H

#include "common/pmu/pmu_event_parse.h"
#include "common/pmu/pmu_format.h"
#include "common/pmu/pmu_sysfs.h"

#include <stddef.h>
#include <stdint.h>

/* One event, resolved. */
struct pmu_event {
  char text[PMU_EVENT_TEXT_MAX]; /* its terms as written: pmu_event_text() */
  uint64_t config[PMU_CONFIG_WORDS];
  double scale;  /* of the named event, 1 otherwise */
  char unit[32]; /* of the named event, "" otherwise */
};

/*
 * The `event` tag of `spec`: its terms as written, values in hex
 * ("rd_bytes,src_bdf=0x108"), sanitised (text.h). A text that does not fit
 * keeps its longest prefix that does and ends in "~" and the 16 lowercase
 * hex digits of the 64-bit FNV-1a hash of the whole text, so events that
 * differ past the cut stay apart. Pure.
 */
void pmu_event_text(const struct pmu_event_spec *spec,
                    char out[PMU_EVENT_TEXT_MAX]);

/*
 * Resolve `spec` against `pmu` into `out` (zeroed first). Returns 0, or
 * -EINVAL with a message naming the term (or the named event) in `why`
 * ("unknown term \"x\" for PMU p", "value 0x8 too big for term \"event\"
 * (at most 0x7)").
 */
int pmu_event_resolve(const struct pmu_desc *pmu,
                      const struct pmu_event_spec *spec, struct pmu_event *out,
                      char *why, size_t why_size);

#endif
