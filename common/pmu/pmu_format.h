/*
 * pmu_format.h: the sysfs PMU format grammar and value encoding, as the
 * perf tool implements them (tools/perf/util/pmu.c).
 *
 * /sys/bus/event_source/devices/<pmu>/format/<term> holds
 * "config<N>:<bits>" with N empty (config), 1, 2, 3 or 4 and bits a comma
 * list of "a" or "a-b" (non-contiguous ranges occur: "config:0-7,32-35").
 * N names a perf_event_attr word (include/uapi/linux/perf_event.h):
 * config, config1, config2 (PERF_ATTR_SIZE_VER1), config3 (VER8, 136
 * bytes, Linux 6.3) and config4 (VER9, 144 bytes: added after config3 for
 * the Arm SPE data-source filter; a kernel whose PMU names it in sysfs
 * has it). A word beyond those cannot be encoded in any attr.
 * A value is scattered LSB first into the set bits from low to high; a
 * value with more significant bits than the format has is rejected.
 *
 * Pure: no I/O, no allocation.
 */
#ifndef COMMON_PMU_PMU_FORMAT_H
#define COMMON_PMU_PMU_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#define PMU_CONFIG_WORDS 5 /* config, config1 .. config4 */

struct pmu_format {
  unsigned word; /* 0..4: config, config1, config2, config3, config4 */
  uint64_t mask; /* bits of that word the term owns */
};

/* Parse a format file's text (trailing newline allowed). Returns 0,
 * -ERANGE (config<N> with N above 4: no such perf_event_attr word) or
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
