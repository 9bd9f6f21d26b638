/*
 * pmu_sysfs.h: what a PMU is, read from sysfs at init (never cached across
 * starts: type numbers change between boots, names between kernels), as
 * Documentation/ABI/testing/sysfs-bus-event_source-devices-* describe it:
 *
 *   <sysfs>/bus/event_source/devices/<pmu>/type
 *   <sysfs>/bus/event_source/devices/<pmu>/cpumask     (uncore PMUs)
 *   <sysfs>/bus/event_source/devices/<pmu>/format/<term>
 *   <sysfs>/bus/event_source/devices/<pmu>/events/<name>[.scale|.unit]
 *   <sysfs>/bus/event_source/devices/<pmu>/{identifier,peer,associated_cpus}
 *
 * CPUs, as perf does it: a PMU with a cpumask is opened on every CPU the
 * mask lists (an uncore PMU lists one CPU per socket or die it serves,
 * and each of those counts a different piece of hardware); a PMU without
 * one (core PMUs, msr, software) is opened on every online CPU
 * (<sysfs>/devices/system/cpu/online; CPU 0 when that file is missing too)
 * and its counts are summed.
 */
#ifndef COMMON_PMU_PMU_SYSFS_H
#define COMMON_PMU_PMU_SYSFS_H

#include "common/pmu/pmu_event_parse.h"
#include "common/pmu/pmu_format.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PMU_MAX_CPUS 4096      /* CPUs one PMU is opened on */
#define PMU_EVENT_TEXT_MAX 256 /* an events/<name> file, a term list */

struct pmu_term_format {
  char name[PMU_NAME_MAX]; /* format/<name> */
  struct pmu_format format;
};

struct pmu_named_event {
  char name[PMU_NAME_MAX];
  char terms[PMU_EVENT_TEXT_MAX]; /* events/<name>, e.g. "event=0x113" */
  double scale;                   /* events/<name>.scale, 1 when absent */
  char unit[32];                  /* events/<name>.unit, "" when absent */
};

/* One PMU as sysfs describes it. Every pointer is owned. */
struct pmu_desc {
  char name[PMU_NAME_MAX];
  uint32_t type; /* attr.type */
  int *cpus;     /* the cpumask's CPUs, or every online CPU without one */
  size_t n_cpus;
  bool has_cpumask;
  char identifier[64]; /* identifier: PMIIDR or ACPI HID, "" if none */
  char peer[64];       /* peer: C2C-family link partner, "" if none */
  struct pmu_term_format *formats;
  size_t n_formats;
  struct pmu_named_event *events;
  size_t n_events;
};

/*
 * Read PMU `name` under `sysfs_root` into `out` (zeroed first). Every
 * string read (PMU, format and event names, .unit, identifier, peer) is
 * bounded and sanitised for tags (text.h). Format files that do not parse,
 * events longer than PMU_EVENT_TEXT_MAX - 1 bytes and events whose .scale
 * is not a positive number are skipped with a warning; a cpumask CPU
 * outside associated_cpus is warned about. A cpumask (or, without one,
 * devices/system/cpu/online) that is present but holds no CPU list fails
 * the load: counting other CPUs would measure something else. Every
 * failure is logged here, once, carrying `plugin` (borrowed), the PMU and
 * the file. Returns 0, or a negative errno (-ENOENT: no such PMU;
 * -EINVAL: bad type or CPU list) with `out` released. Release with
 * pmu_desc_fini().
 */
int pmu_desc_load(const char *plugin, const char *sysfs_root, const char *name,
                  struct pmu_desc *out);

/* Free what `pmu` owns and zero it. */
void pmu_desc_fini(struct pmu_desc *pmu);

/* The format term `name`, or NULL. */
const struct pmu_term_format *pmu_desc_format(const struct pmu_desc *pmu,
                                              const char *name);

/* The named event `name` from events/, or NULL. */
const struct pmu_named_event *pmu_desc_event(const struct pmu_desc *pmu,
                                             const char *name);

/* Parse a CPU list ("0-3,8", trailing newline allowed) into at most `max`
 * CPUs; returns the count, -EINVAL when malformed or -E2BIG. Pure. */
int pmu_cpulist_parse(const char *text, int *cpus, size_t max);

#endif
