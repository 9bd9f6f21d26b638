/*
 * t410_sysfs.c: what a PMU is, read from sysfs at init (never cached
 * across starts: type numbers change between boots, names between
 * kernels):
 *
 *   <sysfs>/bus/event_source/devices/<pmu>/type
 *   <sysfs>/bus/event_source/devices/<pmu>/cpumask      (uncore: one CPU)
 *   <sysfs>/bus/event_source/devices/<pmu>/format/<term>
 *   <sysfs>/bus/event_source/devices/<pmu>/events/<name>[.scale|.unit]
 *
 * A PMU without a cpumask (msr, software) counts per CPU: it is opened on
 * every online CPU (<sysfs>/devices/system/cpu/online) and summed.
 */
#include "common/core/cfg.h"
#include "common/core/fileio.h"
#include "plugins/tegra410_uncore/t410.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int t410_cpulist_parse(const char *text, int *cpus, size_t max) {
  size_t n = 0;
  const char *p = text;
  while (*p == ' ' || *p == '\n')
    p++;
  if (*p == '\0')
    return 0;
  for (;;) {
    char *end;
    long lo = strtol(p, &end, 10), hi;
    if (end == p || lo < 0 || lo >= 1 << 20)
      return -EINVAL;
    p = end;
    hi = lo;
    if (*p == '-') {
      hi = strtol(p + 1, &end, 10);
      if (end == p + 1 || hi < lo || hi >= 1 << 20)
        return -EINVAL;
      p = end;
    }
    for (long c = lo; c <= hi; c++) {
      if (n == max)
        return -E2BIG;
      cpus[n++] = (int)c;
    }
    if (*p == ',') {
      p++;
      continue;
    }
    while (*p == '\n' || *p == ' ')
      p++;
    return *p == '\0' ? (int)n : -EINVAL;
  }
}

/* Call `fn` for every entry of <pmu dir>/<subdir> not starting with '.'
 * and short enough to be a name, until it returns non-zero. A missing
 * directory has no entries. */
static int t410_subdir_for_each(int dir_fd, const char *subdir,
                                int (*fn)(int fd, const char *name,
                                          struct t410_pmu *pmu),
                                struct t410_pmu *pmu) {
  int fd = openat(dir_fd, subdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0)
    return errno == ENOENT ? 0 : -errno;
  DIR *dir = fdopendir(fd);
  if (dir == NULL) {
    close(fd);
    return -ENOMEM;
  }
  struct dirent *de;
  int rc = 0;
  while (rc == 0 && (de = readdir(dir)) != NULL)
    if (de->d_name[0] != '.' && strlen(de->d_name) < PMU_NAME_MAX)
      rc = fn(fd, de->d_name, pmu);
  closedir(dir);
  return rc;
}

/* format/<term>: "config<N>:<bits>" */
static int t410_load_format(int fd, const char *name, struct t410_pmu *pmu) {
  char text[128];
  ssize_t n = fileio_read_line_at(fd, name, text, sizeof(text));
  struct pmu_format f;
  if (n < 0 || pmu_format_parse(text, (size_t)n, &f) < 0) {
    log_msg(LOG_LEVEL_WARNING, T410_PLUGIN, pmu->name, "format",
            "%s: unreadable or not \"config<N>:<bits>\", ignored", name);
    return 0;
  }
  struct t410_term_format *grown =
      realloc(pmu->formats, (pmu->n_formats + 1) * sizeof(*grown));
  if (grown == NULL)
    return -ENOMEM;
  pmu->formats = grown;
  snprintf(grown[pmu->n_formats].name, PMU_NAME_MAX, "%s", name);
  grown[pmu->n_formats++].format = f;
  return 0;
}

/* events/<name> with its optional <name>.scale and <name>.unit */
static int t410_load_event(int fd, const char *name, struct t410_pmu *pmu) {
  if (strchr(name, '.') != NULL)
    return 0; /* .scale, .unit, .per-pkg, .snapshot: read with their event */
  struct t410_named_event ev = {.scale = 1.0};
  snprintf(ev.name, sizeof(ev.name), "%s", name);
  if (fileio_read_line_at(fd, name, ev.terms, sizeof(ev.terms)) < 0)
    return 0;
  char path[PMU_NAME_MAX + 16], text[64];
  snprintf(path, sizeof(path), "%s.scale", name);
  if (fileio_read_line_at(fd, path, text, sizeof(text)) > 0) {
    double scale;
    /* cfg_parse_double is locale independent, like perf's C-locale
     * strtod for .scale */
    if (cfg_parse_double(text, &scale) == 0 && scale > 0)
      ev.scale = scale;
  }
  snprintf(path, sizeof(path), "%s.unit", name);
  fileio_read_line_at(fd, path, ev.unit, sizeof(ev.unit));
  struct t410_named_event *grown =
      realloc(pmu->events, (pmu->n_events + 1) * sizeof(*grown));
  if (grown == NULL)
    return -ENOMEM;
  pmu->events = grown;
  grown[pmu->n_events++] = ev;
  return 0;
}

int t410_pmu_load(const char *sysfs_root, const char *name,
                  struct t410_pmu *out) {
  memset(out, 0, sizeof(*out));
  snprintf(out->name, sizeof(out->name), "%s", name);
  char path[512], text[4096];
  snprintf(path, sizeof(path), "%s/bus/event_source/devices/%s", sysfs_root,
           name);
  int dir_fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir_fd < 0)
    return -errno;
  int rc = 0;
  ssize_t n = fileio_read_line_at(dir_fd, "type", text, sizeof(text));
  char *end;
  unsigned long type = n > 0 ? strtoul(text, &end, 10) : 0;
  if (n <= 0 || *end != '\0' || type > UINT32_MAX)
    rc = n < 0 ? (int)n : -EINVAL;
  out->type = (uint32_t)type;
  out->cpus = calloc(T410_MAX_CPUS, sizeof(int));
  if (rc == 0 && out->cpus == NULL)
    rc = -ENOMEM;
  if (rc == 0) {
    n = fileio_read_line_at(dir_fd, "cpumask", text, sizeof(text));
    int cpus = n > 0 ? t410_cpulist_parse(text, out->cpus, T410_MAX_CPUS) : 0;
    if (cpus > 0) {
      out->has_cpumask = true;
      out->n_cpus = 1; /* uncore: the first CPU owns the events */
    } else {
      char online[512];
      snprintf(online, sizeof(online), "%s/devices/system/cpu/online",
               sysfs_root);
      n = fileio_read_line_at(AT_FDCWD, online, text, sizeof(text));
      cpus = n > 0 ? t410_cpulist_parse(text, out->cpus, T410_MAX_CPUS) : -1;
      if (cpus <= 0) {
        out->cpus[0] = 0; /* no CPU list visible: CPU 0 is always there */
        cpus = 1;
      }
      out->n_cpus = (size_t)cpus;
    }
  }
  if (rc == 0) {
    /* informational: what the PMU says it is and what it is linked to */
    if (fileio_read_line_at(dir_fd, "identifier", out->identifier,
                            sizeof(out->identifier)) < 0)
      out->identifier[0] = '\0';
    if (fileio_read_line_at(dir_fd, "peer", out->peer, sizeof(out->peer)) < 0)
      out->peer[0] = '\0';
    /* the cpumask CPU must be one of associated_cpus, else EINVAL */
    n = fileio_read_line_at(dir_fd, "associated_cpus", text, sizeof(text));
    int *assoc =
        n > 0 && out->has_cpumask ? calloc(T410_MAX_CPUS, sizeof(int)) : NULL;
    int n_assoc = assoc ? t410_cpulist_parse(text, assoc, T410_MAX_CPUS) : -1;
    bool listed = n_assoc <= 0;
    for (int i = 0; i < n_assoc && !listed; i++)
      listed = assoc[i] == out->cpus[0];
    free(assoc);
    if (!listed)
      log_msg(LOG_LEVEL_WARNING, T410_PLUGIN, name, "cpumask",
              "CPU %d is not in associated_cpus (%s); opens may fail",
              out->cpus[0], text);
    rc = t410_subdir_for_each(dir_fd, "format", t410_load_format, out);
  }
  if (rc == 0)
    rc = t410_subdir_for_each(dir_fd, "events", t410_load_event, out);
  close(dir_fd);
  if (rc < 0)
    t410_pmu_fini(out);
  return rc;
}

void t410_pmu_fini(struct t410_pmu *pmu) {
  free(pmu->cpus);
  free(pmu->formats);
  free(pmu->events);
  memset(pmu, 0, sizeof(*pmu));
}
