/*
 * pmu_sysfs.c: PMU discovery from sysfs (pmu_sysfs.h). Reads happen at init
 * only; the directory of the PMU is opened once and every file is read
 * relative to it.
 */
#include "common/pmu/pmu_sysfs.h"
#include "common/core/cfg.h"
#include "common/core/fileio.h"
#include "common/core/log.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int pmu_cpulist_parse(const char *text, int *cpus, size_t max) {
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

const struct pmu_term_format *pmu_desc_format(const struct pmu_desc *pmu,
                                              const char *name) {
  for (size_t i = 0; i < pmu->n_formats; i++)
    if (strcmp(pmu->formats[i].name, name) == 0)
      return &pmu->formats[i];
  return NULL;
}

const struct pmu_named_event *pmu_desc_event(const struct pmu_desc *pmu,
                                             const char *name) {
  for (size_t i = 0; i < pmu->n_events; i++)
    if (strcmp(pmu->events[i].name, name) == 0)
      return &pmu->events[i];
  return NULL;
}

struct pmu_load {
  const char *plugin;
  struct pmu_desc *pmu;
};

/* Call `fn` for every entry of <pmu dir>/<subdir> not starting with '.'
 * and short enough to be a name, until it returns non-zero. A missing
 * directory has no entries. */
static int pmu_subdir_for_each(int dir_fd, const char *subdir,
                               int (*fn)(int fd, const char *name,
                                         struct pmu_load *load),
                               struct pmu_load *load) {
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
      rc = fn(fd, de->d_name, load);
  closedir(dir);
  return rc;
}

/* format/<term>: "config<N>:<bits>" */
static int pmu_load_format(int fd, const char *name, struct pmu_load *load) {
  struct pmu_desc *pmu = load->pmu;
  char text[128];
  ssize_t n = fileio_read_line_at(fd, name, text, sizeof(text));
  struct pmu_format f;
  if (n < 0 || pmu_format_parse(text, (size_t)n, &f) < 0) {
    log_msg(LOG_LEVEL_WARNING, load->plugin, pmu->name, "format",
            "%s: unreadable or not \"config<N>:<bits>\", ignored", name);
    return 0;
  }
  struct pmu_term_format *grown =
      realloc(pmu->formats, (pmu->n_formats + 1) * sizeof(*grown));
  if (grown == NULL)
    return -ENOMEM;
  pmu->formats = grown;
  snprintf(grown[pmu->n_formats].name, PMU_NAME_MAX, "%s", name);
  grown[pmu->n_formats++].format = f;
  return 0;
}

/* events/<name> with its optional <name>.scale and <name>.unit */
static int pmu_load_event(int fd, const char *name, struct pmu_load *load) {
  struct pmu_desc *pmu = load->pmu;
  if (strchr(name, '.') != NULL)
    return 0; /* .scale, .unit, .per-pkg, .snapshot: read with their event */
  struct pmu_named_event ev = {.scale = 1.0};
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
  if (fileio_read_line_at(fd, path, ev.unit, sizeof(ev.unit)) < 0)
    ev.unit[0] = '\0';
  struct pmu_named_event *grown =
      realloc(pmu->events, (pmu->n_events + 1) * sizeof(*grown));
  if (grown == NULL)
    return -ENOMEM;
  pmu->events = grown;
  grown[pmu->n_events++] = ev;
  return 0;
}

/* Fill out->cpus from the cpumask, or from the online CPUs without one. */
static int pmu_load_cpus(const char *sysfs_root, int dir_fd, int *scratch,
                         struct pmu_desc *out) {
  char text[4096];
  ssize_t n = fileio_read_line_at(dir_fd, "cpumask", text, sizeof(text));
  int cpus = n > 0 ? pmu_cpulist_parse(text, scratch, PMU_MAX_CPUS) : 0;
  if (cpus > 0) {
    out->has_cpumask = true;
  } else {
    char online[512];
    snprintf(online, sizeof(online), "%s/devices/system/cpu/online",
             sysfs_root);
    n = fileio_read_line_at(AT_FDCWD, online, text, sizeof(text));
    cpus = n > 0 ? pmu_cpulist_parse(text, scratch, PMU_MAX_CPUS) : -1;
    if (cpus <= 0) {
      scratch[0] = 0; /* no CPU list visible: CPU 0 is always there */
      cpus = 1;
    }
  }
  out->cpus = malloc((size_t)cpus * sizeof(int));
  if (out->cpus == NULL)
    return -ENOMEM;
  memcpy(out->cpus, scratch, (size_t)cpus * sizeof(int));
  out->n_cpus = (size_t)cpus;
  return 0;
}

/* A cpumask CPU outside associated_cpus makes the open fail with EINVAL
 * (arm_cspmu); say so at init. */
static void pmu_check_associated(const char *plugin, int dir_fd, int *scratch,
                                 const struct pmu_desc *pmu) {
  char text[4096];
  if (!pmu->has_cpumask ||
      fileio_read_line_at(dir_fd, "associated_cpus", text, sizeof(text)) <= 0)
    return;
  int n = pmu_cpulist_parse(text, scratch, PMU_MAX_CPUS);
  for (size_t c = 0; n > 0 && c < pmu->n_cpus; c++) {
    bool listed = false;
    for (int i = 0; i < n && !listed; i++)
      listed = scratch[i] == pmu->cpus[c];
    if (!listed)
      log_msg(LOG_LEVEL_WARNING, plugin, pmu->name, "cpumask",
              "CPU %d is not in associated_cpus (%s); opens may fail",
              pmu->cpus[c], text);
  }
}

int pmu_desc_load(const char *plugin, const char *sysfs_root, const char *name,
                  struct pmu_desc *out) {
  memset(out, 0, sizeof(*out));
  snprintf(out->name, sizeof(out->name), "%s", name);
  char path[512], text[64];
  snprintf(path, sizeof(path), "%s/bus/event_source/devices/%s", sysfs_root,
           name);
  int dir_fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir_fd < 0)
    return -errno;
  int *scratch = NULL, rc = 0;
  ssize_t n = fileio_read_line_at(dir_fd, "type", text, sizeof(text));
  char *end = text;
  unsigned long type = n > 0 ? strtoul(text, &end, 10) : 0;
  if (n <= 0 || *end != '\0' || type > UINT32_MAX)
    rc = n < 0 ? (int)n : -EINVAL;
  out->type = (uint32_t)type;
  if (rc == 0 && (scratch = malloc(PMU_MAX_CPUS * sizeof(int))) == NULL)
    rc = -ENOMEM;
  if (rc == 0)
    rc = pmu_load_cpus(sysfs_root, dir_fd, scratch, out);
  if (rc == 0) {
    /* informational: what the PMU says it is and what it is linked to */
    if (fileio_read_line_at(dir_fd, "identifier", out->identifier,
                            sizeof(out->identifier)) < 0)
      out->identifier[0] = '\0';
    if (fileio_read_line_at(dir_fd, "peer", out->peer, sizeof(out->peer)) < 0)
      out->peer[0] = '\0';
    pmu_check_associated(plugin, dir_fd, scratch, out);
    struct pmu_load load = {plugin, out};
    rc = pmu_subdir_for_each(dir_fd, "format", pmu_load_format, &load);
    if (rc == 0)
      rc = pmu_subdir_for_each(dir_fd, "events", pmu_load_event, &load);
  }
  free(scratch);
  close(dir_fd);
  if (rc < 0)
    pmu_desc_fini(out);
  return rc;
}

void pmu_desc_fini(struct pmu_desc *pmu) {
  free(pmu->cpus);
  free(pmu->formats);
  free(pmu->events);
  memset(pmu, 0, sizeof(*pmu));
}
