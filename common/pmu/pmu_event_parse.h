/*
 * pmu_event_parse.h: event strings in the perf tool's own syntax, so users
 * paste what `perf list` and the kernel documentation show:
 *
 *   nvidia_pcie_pmu_0_rc_1/rd_bytes,src_bdf=0x0180,src_bdf_en=1/
 *   nvidia_ucf_pmu_0/event=0x113,src_loc_cpu=1,dst_loc_cmem=1/
 *   {nvidia_cmem_latency_pmu_0/rd_req/,nvidia_cmem_latency_pmu_0/cycles/}
 *   msr/tsc/
 *
 * A list is comma separated; braces make a group. Terms are name[=value]
 * with decimal or 0x hexadecimal values; a bare name is either a format
 * term set to 1 or a named event from the PMU's events/ directory, which
 * the engine resolves. Event modifiers after the last '/' (":u", ":k")
 * are rejected: uncore PMUs take no exclude bits.
 *
 * Pure: no I/O, no allocation.
 */
#ifndef COMMON_PMU_PMU_EVENT_PARSE_H
#define COMMON_PMU_PMU_EVENT_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PMU_NAME_MAX 64  /* PMU, term and event names, with NUL */
#define PMU_MAX_TERMS 12 /* terms of one event */
#define PMU_MAX_GROUP 8  /* events of one group */

struct pmu_term {
  char name[PMU_NAME_MAX];
  bool has_value;
  uint64_t value;
};

struct pmu_event_spec {
  char pmu[PMU_NAME_MAX];
  size_t n_terms;
  struct pmu_term terms[PMU_MAX_TERMS];
};

struct pmu_group_spec {
  bool braced; /* written as {...} */
  size_t n_events;
  struct pmu_event_spec events[PMU_MAX_GROUP];
};

struct pmu_parse_error {
  size_t offset;       /* byte offset in the input */
  const char *message; /* static text */
};

/*
 * Parse `len` bytes of `text` into at most `max_groups` groups (an event
 * outside braces is a group of one). Returns 0 with *n_groups set, or
 * -EINVAL / -E2BIG with *err describing the first problem.
 */
int pmu_event_parse(const char *text, size_t len, struct pmu_group_spec *groups,
                    size_t max_groups, size_t *n_groups,
                    struct pmu_parse_error *err);

/*
 * Parse `len` bytes of a bare term list, as an events/<name> file or a
 * Filter's Terms hold it ("event=0x113,umask=0x1"), into out->terms, with
 * out->pmu empty. An empty text gives no terms. Returns 0, or -EINVAL /
 * -E2BIG with *err describing the first problem (offset into `text`).
 */
int pmu_terms_parse(const char *text, size_t len, struct pmu_event_spec *out,
                    struct pmu_parse_error *err);

#endif
