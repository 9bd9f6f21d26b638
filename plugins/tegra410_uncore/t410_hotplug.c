/*
 * t410_hotplug.c: PMUs that come and go under
 * <SysfsRoot>/bus/event_source/devices. A PMU driver loaded later
 * registers its PMUs (perf_pmu_register adds the device), one unloaded
 * removes them (perf_pmu_unregister), one reloaded registers them again,
 * under a new type number (kernel/events/core.c: perf_pmu_register takes
 * the next free idr id) and a new sysfs directory, hence a new inode.
 * Every read lists the directory (names and inode numbers: one getdents,
 * no PMU file read) and compares it with the last listing of the PMUs this
 * instance looks for: the preset's (when on) and those an Event names.
 *
 * A PMU that went: its groups are closed and dropped, their series end at
 * this read (one INFO line). A PMU that came, or came back: its
 * description is loaded afresh (type, cpumask, formats, events), its
 * preset groups and the groups of the Events naming it built and opened:
 * counts start from the open, never a delta across the gap (one INFO line:
 * the PMU's own, "appeared").
 */
#include "plugins/tegra410_uncore/t410.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Whether this instance looks for PMU `name`. */
static bool t410_wanted(const struct t410 *d, const char *name) {
  struct t410_preset_tags tags;
  if (d->preset_on && t410_preset_match(name, &tags))
    return true;
  for (size_t e = 0; e < d->cfg.n_events; e++) {
    /* an Event names its PMUs as "<pmu>/": enough to decide whether to
     * parse it again when this PMU comes (t410_attach does) */
    const char *t = d->cfg.events[e];
    size_t n = strlen(name);
    for (const char *p = strstr(t, name); p != NULL; p = strstr(p + 1, name))
      if (p[n] == '/' && (p == t || p[-1] == '{' || p[-1] == ','))
        return true;
  }
  return false;
}

/* The wanted PMUs listed now (owned array, *n); -errno when the directory
 * cannot be listed (then none). */
static int t410_list(const struct t410 *d, struct t410_seen **out, size_t *n) {
  const struct kernel_ops *k = d->host->kernel;
  char path[512];
  snprintf(path, sizeof(path), "%s/bus/event_source/devices",
           d->cfg.sysfs_root);
  *out = NULL;
  *n = 0;
  int fd = k->open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
  DIR *dir = fd >= 0 ? k->fdopendir(fd) : NULL;
  if (dir == NULL) {
    int err = errno;
    if (fd >= 0)
      k->close(fd);
    return -err;
  }
  size_t cap = 0;
  int rc = 0;
  struct dirent *de;
  while ((de = k->readdir(dir)) != NULL) {
    if (de->d_name[0] == '.' || strlen(de->d_name) >= PMU_NAME_MAX ||
        !t410_wanted(d, de->d_name))
      continue;
    if (*n == cap) {
      cap = cap ? 2 * cap : 16;
      struct t410_seen *grown = realloc(*out, cap * sizeof(*grown));
      if (grown == NULL) {
        rc = -ENOMEM;
        break;
      }
      *out = grown;
    }
    snprintf((*out)[*n].name, PMU_NAME_MAX, "%s", de->d_name);
    (*out)[(*n)++].ino = de->d_ino;
  }
  k->closedir(dir);
  if (rc < 0) {
    free(*out);
    *out = NULL;
    *n = 0;
  }
  return rc;
}

static bool t410_in(const struct t410_seen *list, size_t n,
                    const struct t410_seen *e) {
  for (size_t i = 0; i < n; i++)
    if (list[i].ino == e->ino && strcmp(list[i].name, e->name) == 0)
      return true;
  return false;
}

/* PMU `name` went: drop its groups and its description. */
static void t410_detach(struct t410 *d, const char *name) {
  size_t kept = 0, dropped = 0;
  for (size_t i = 0; i < d->n_groups; i++) {
    if (strcmp(d->groups[i].pg.pmu, name) == 0) {
      t410_group_fini(&d->groups[i]);
      dropped++;
    } else {
      d->groups[kept++] = d->groups[i];
    }
  }
  d->n_groups = kept;
  for (size_t i = 0; i < d->n_pmus; i++)
    if (strcmp(d->pmus[i].name, name) == 0) {
      pmu_desc_fini(&d->pmus[i]);
      d->pmus[i] = d->pmus[--d->n_pmus];
      break;
    }
  for (size_t i = 0; i < d->n_bad_pmus; i++)
    if (strcmp(d->bad_pmus[i], name) == 0) {
      memcpy(d->bad_pmus[i], d->bad_pmus[--d->n_bad_pmus], PMU_NAME_MAX);
      break;
    }
  if (dropped > 0)
    log_msg(LOG_LEVEL_INFO, T410_PLUGIN, name, "gone",
            "unregistered; its %zu group(s) closed, their series end (if it "
            "comes back it is counted afresh)",
            dropped);
}

/* PMU `name` came: its Event groups and preset groups, opened. */
static void t410_attach(struct t410 *d, const char *name, uint64_t now) {
  size_t first = d->n_groups;
  d->pmu_what = "appeared";
  struct pmu_group_spec *specs =
      calloc(T410_MAX_SPECS_PER_EVENT, sizeof(*specs));
  for (size_t e = 0; specs != NULL && e < d->cfg.n_events; e++) {
    const char *text = d->cfg.events[e];
    size_t n;
    struct pmu_parse_error err;
    if (pmu_event_parse(text, strlen(text), specs, T410_MAX_SPECS_PER_EVENT, &n,
                        &err) < 0)
      continue; /* checked at config time */
    for (size_t i = 0; i < n; i++) {
      bool config_error; /* said; the PMU came back without that event */
      if (strcmp(specs[i].events[0].pmu, name) == 0 &&
          t410_group_build(d, text, &specs[i], &config_error) != NULL)
        d->n_groups++;
    }
  }
  free(specs);
  if (d->preset_on) {
    struct t410_preset_tags tags;
    if (t410_preset_match(name, &tags) && tags.kind == T410_PCIE)
      d->n_pcie_labels = t410_pcie_labels_scan(
          d->cfg.sysfs_root, d->pcie_labels, T410_MAX_PCIE_LABELS);
    t410_preset_scan_one(d->cfg.sysfs_root, name, d->cfg.filters,
                         d->cfg.n_filters, t410_preset_add, d);
  }
  d->pmu_what = "PMU";
  for (size_t i = first; i < d->n_groups; i++)
    t410_group_start(&d->groups[i], now);
}

int t410_hotplug_init(struct t410 *d) {
  int rc = t410_list(d, &d->seen, &d->n_seen);
  return rc == -ENOMEM ? rc : 0;
}

void t410_hotplug_scan(struct t410 *d, uint64_t now_ns) {
  struct t410_seen *now;
  size_t n;
  int rc = t410_list(d, &now, &n);
  if (rc == -ENOMEM)
    return; /* try again at the next read */
  for (size_t i = 0; i < d->n_seen; i++)
    if (!t410_in(now, n, &d->seen[i]))
      t410_detach(d, d->seen[i].name);
  for (size_t i = 0; i < n; i++)
    if (!t410_in(d->seen, d->n_seen, &now[i])) {
      /* drop what failed to load before: it is a new registration */
      t410_detach(d, now[i].name);
      t410_attach(d, now[i].name, now_ns);
    }
  free(d->seen);
  d->seen = now;
  d->n_seen = n;
}

void t410_hotplug_none(const struct t410 *d) {
  char path[512];
  snprintf(path, sizeof(path), "%s/bus/event_source/devices",
           d->cfg.sysfs_root);
  const struct kernel_ops *k = d->host->kernel;
  int fd = k->open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
  int err = fd < 0 ? errno : 0;
  DIR *dir = fd >= 0 ? k->fdopendir(fd) : NULL;
  bool any = false;
  if (dir != NULL) {
    struct dirent *de;
    while (!any && (de = k->readdir(dir)) != NULL)
      any = de->d_name[0] != '.';
    k->closedir(dir);
  } else if (fd >= 0) {
    k->close(fd);
  }
  if (!any && d->sysfs_root_set)
    log_msg(LOG_LEVEL_WARNING, T410_PLUGIN, d->cfg.sysfs_root, "SysfsRoot",
            "%s%sno PMU under bus/event_source/devices; looking for the "
            "Tegra410 PMUs again at every read",
            err ? strerror(err) : "", err ? ": " : "");
  else
    log_msg(LOG_LEVEL_INFO, T410_PLUGIN, d->cfg.sysfs_root, "Preset",
            "no Tegra410 PMU (nvidia_ucf_pmu_*, nvidia_pcie_pmu_*_rc_*, "
            "nvidia_pcie_tgt_pmu_*_rc_*, nvidia_cmem_latency_pmu_*, "
            "nvidia_nvlink_c2c_pmu_*, nvidia_nvclink_pmu_*, "
            "nvidia_nvdlink_pmu_*) under bus/event_source/devices; looking "
            "again at every read");
}
