/*
 * t410_hotplug.h: a watch on the PMU directory,
 * <SysfsRoot>/bus/event_source/devices, for PMUs that come and go. A PMU
 * driver loaded later registers its PMUs (kernel/events/core.c:
 * perf_pmu_register adds the device), one unloaded removes them
 * (perf_pmu_unregister), one reloaded registers them again under a new
 * type number (the next free idr id) and a new sysfs directory, hence a
 * new inode. Each t410_hotplug_list lists the directory (names and inode
 * numbers: one getdents, no PMU file read) and says what changed since
 * the last listing: the PMUs that went and those that came (or came back,
 * with another inode).
 *
 * A layer under the plugin: it knows PMU directory entries only, nothing
 * of groups or presets; tegra410_uncore.c decides what a change means to
 * it. Its buffers are kept from one listing to the next: a listing
 * allocates only when the directory grew past every earlier one.
 */
#ifndef PLUGINS_TEGRA410_UNCORE_T410_HOTPLUG_H
#define PLUGINS_TEGRA410_UNCORE_T410_HOTPLUG_H

#include "common/core/kernel.h"
#include "common/pmu/pmu_event_parse.h" /* PMU_NAME_MAX */

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* One directory entry: a PMU's name and its kernfs inode. */
struct t410_hotplug_pmu {
  char name[PMU_NAME_MAX];
  ino_t ino;
};

struct t410_hotplug {
  struct t410_hotplug_pmu *seen; /* the last listing (owned) */
  size_t n_seen, cap_seen;
  struct t410_hotplug_pmu *now; /* the listing being made (owned) */
  size_t n_now, cap_now;
  /* what the last t410_hotplug_list found changed (owned, borrowed by the
   * caller until the next call) */
  struct t410_hotplug_pmu *went, *came;
  size_t n_went, n_came, cap_went, cap_came;
  int err; /* errno of the last listing's open, 0 when it was listed */
};

/* Empty: no PMU seen yet. */
void t410_hotplug_init(struct t410_hotplug *h);

/* List `<sysfs_root>/bus/event_source/devices` through `k` and set
 * h->went (listed last time, not now, or now under another inode) and
 * h->came (listed now, not last time: on the first call, every PMU).
 * Returns 0; -errno (h->err) when the directory cannot be listed, or
 * -ENOMEM: then nothing changed (went and came empty, the last listing
 * kept). */
int t410_hotplug_list(struct t410_hotplug *h, const struct kernel_ops *k,
                      const char *sysfs_root);

/* How many PMUs the last successful listing holds. */
size_t t410_hotplug_count(const struct t410_hotplug *h);

void t410_hotplug_fini(struct t410_hotplug *h);

#endif
