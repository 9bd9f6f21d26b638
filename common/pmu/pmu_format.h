/*
 * pmu_format.h: the sysfs PMU format grammar and value encoding, as the
 * perf tool implements them (tools/perf/util/pmu.c).
 *
 * /sys/bus/event_source/devices/<pmu>/format/<term> holds
 * "config<N>:<bits>" with N empty (config), 1, 2 or 3 and bits a comma
 * list of "a" or "a-b" (non-contiguous ranges occur: "config:0-7,32-35").
 * A value is scattered LSB first into the set bits from low to high; a
 * value with more significant bits than the format has is rejected.
 *
 * Pure: no I/O, no allocation.
 */
#ifndef COMMON_PMU_PMU_FORMAT_H
#define COMMON_PMU_PMU_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#define PMU_CONFIG_WORDS 4 /* config, config1, config2, config3 */

struct pmu_format {
  unsigned word; /* 0..3: config, config1, config2, config3 */
  uint64_t mask; /* bits of that word the term owns */
};

/* Parse a format file's text (trailing newline allowed). Returns 0 or
 * -EINVAL (bad word, bit above 63, reversed range, empty list). */
int pmu_format_parse(const char *text, size_t len, struct pmu_format *out);

/* Number of bits the format holds. */
unsigned pmu_format_width(const struct pmu_format *f);

/* Largest value the format can hold. */
uint64_t pmu_format_max(const struct pmu_format *f);

/* Scatter `value` into config[f->word]; bits outside the format are left
 * as they are. Returns 0 or -ERANGE when the value does not fit. */
int pmu_format_encode(const struct pmu_format *f, uint64_t value,
                      uint64_t config[PMU_CONFIG_WORDS]);

#endif
