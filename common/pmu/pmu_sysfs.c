/*
 * pmu_sysfs.c: PMU discovery from sysfs (pmu_sysfs.h). Reads happen at init
 * only; the directory of the PMU is opened once and every file is read
 * relative to it.
 */
#include "common/pmu/pmu_sysfs.h"
#include "common/core/cfg.h"
#include "common/core/fileio.h"
#include "common/core/log.h"
#include "common/core/text.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PMU_STR2(x) #x
#define PMU_STR(x) PMU_STR2(x)

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

/* Read one-line file `file` at `fd` as a tag-safe string: bounded and
 * sanitised (text.h), never cut inside a UTF-8 sequence. The sanitised
 * length, or a negative errno (`out` then empty). */
static ssize_t pmu_read_text(int fd, const char *file, char *out, size_t size) {
  char raw[PMU_EVENT_TEXT_MAX];
  ssize_t n = fileio_read_line_at(fd, file, raw, sizeof(raw));
  out[0] = '\0';
  if (n < 0)
    return n;
  return (ssize_t)text_sanitize(out, size, raw, (size_t)n);
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
  int rc = n < 0 ? -EIO : pmu_format_parse(text, (size_t)n, &f);
  if (rc == -ERANGE) {
    char shown[PMU_NAME_MAX], value[64];
    text_sanitize(shown, sizeof(shown), name, strlen(name));
    text_sanitize(value, sizeof(value), text, (size_t)n);
    log_msg(LOG_LEVEL_WARNING, load->plugin, pmu->name, "format",
            "%s: \"%s\" names a config word perf_event_attr does not have "
            "(config to config4), ignored",
            shown, value);
    return 0;
  }
  if (rc < 0) {
    char shown[PMU_NAME_MAX];
    text_sanitize(shown, sizeof(shown), name, strlen(name));
    log_msg(LOG_LEVEL_WARNING, load->plugin, pmu->name, "format",
            "%s: unreadable or not \"config<N>:<bits>\", ignored", shown);
    return 0;
  }
  struct pmu_term_format *grown =
      realloc(pmu->formats, (pmu->n_formats + 1) * sizeof(*grown));
  if (grown == NULL)
    return -ENOMEM;
  pmu->formats = grown;
  text_sanitize(grown[pmu->n_formats].name, PMU_NAME_MAX, name, strlen(name));
  grown[pmu->n_formats++].format = f;
  return 0;
}

/* events/<name> with its optional <name>.scale and <name>.unit */
static int pmu_load_event(int fd, const char *name, struct pmu_load *load) {
  struct pmu_desc *pmu = load->pmu;
  if (strchr(name, '.') != NULL)
    return 0; /* .scale, .unit, .per-pkg, .snapshot: read with their event */
  struct pmu_named_event ev = {.scale = 1.0};
  text_sanitize(ev.name, sizeof(ev.name), name, strlen(name));
  /* one byte more than fits: a longer file would be cut to other terms */
  char terms[PMU_EVENT_TEXT_MAX + 1];
  ssize_t n = fileio_read_line_at(fd, name, terms, sizeof(terms));
  if (n < 0)
    return 0;
  if ((size_t)n >= sizeof(ev.terms)) {
    log_msg(LOG_LEVEL_WARNING, load->plugin, pmu->name, "events",
            "%s: longer than %d bytes, event ignored", ev.name,
            PMU_EVENT_TEXT_MAX - 1);
    return 0;
  }
  memcpy(ev.terms, terms, (size_t)n + 1);
  char path[PMU_NAME_MAX + 16], text[64];
  snprintf(path, sizeof(path), "%s.scale", name);
  if (fileio_read_line_at(fd, path, text, sizeof(text)) >= 0) {
    double scale;
    /* cfg_parse_double is locale independent, like perf's C-locale
     * strtod for .scale; a scale that is not a positive number would
     * report a different quantity: the event is not offered */
    if (cfg_parse_double(text, &scale) < 0 || !(scale > 0)) {
      char shown[64];
      text_sanitize(shown, sizeof(shown), text, strlen(text));
      log_msg(LOG_LEVEL_WARNING, load->plugin, pmu->name, "events",
              "%s.scale: \"%s\" is not a positive number, event ignored",
              ev.name, shown);
      return 0;
    }
    ev.scale = scale;
  }
  snprintf(path, sizeof(path), "%s.unit", name);
  pmu_read_text(fd, path, ev.unit, sizeof(ev.unit));
  struct pmu_named_event *grown =
      realloc(pmu->events, (pmu->n_events + 1) * sizeof(*grown));
  if (grown == NULL)
    return -ENOMEM;
  pmu->events = grown;
  grown[pmu->n_events++] = ev;
  return 0;
}

/* Why a CPU list file does not describe CPUs, from pmu_cpulist_parse(). */
static const char *pmu_cpulist_why(int rc) {
  return rc == 0        ? "lists no CPU"
         : rc == -E2BIG ? "lists more than " PMU_STR(PMU_MAX_CPUS) " CPUs"
                        : "not a CPU list (\"0-3,8\")";
}

/* Read CPU list `path` (at `dir_fd`) into scratch: the count; -ENOENT when
 * the file is missing; -EINVAL (logged: plugin, PMU, file and why) when
 * it is unreadable or does not list CPUs. */
static int pmu_read_cpulist(const char *plugin, const struct pmu_desc *pmu,
                            int dir_fd, const char *path, const char *file,
                            int *scratch) {
  char text[4096];
  ssize_t n = fileio_read_line_at(dir_fd, path, text, sizeof(text));
  if (n == -ENOENT)
    return -ENOENT;
  if (n < 0) {
    log_errno(LOG_LEVEL_ERROR, plugin, pmu->name, file, (int)-n, NULL);
    return -EINVAL;
  }
  int cpus = (size_t)n >= sizeof(text) - 1
                 ? -E2BIG
                 : pmu_cpulist_parse(text, scratch, PMU_MAX_CPUS);
  if (cpus > 0)
    return cpus;
  char shown[48];
  text_sanitize(shown, sizeof(shown), text, (size_t)n);
  log_msg(LOG_LEVEL_ERROR, plugin, pmu->name, file,
          "\"%s\" %s; PMU not counted", shown, pmu_cpulist_why(cpus));
  return -EINVAL;
}

/* Fill out->cpus from the cpumask, or from the online CPUs without one.
 * A cpumask or online file that is there but holds no CPU list is an
 * error (logged): counting other CPUs would be another measurement. */
static int pmu_load_cpus(const char *plugin, const char *sysfs_root, int dir_fd,
                         int *scratch, struct pmu_desc *out) {
  int cpus =
      pmu_read_cpulist(plugin, out, dir_fd, "cpumask", "cpumask", scratch);
  if (cpus > 0) {
    out->has_cpumask = true;
  } else if (cpus == -ENOENT) {
    char online[512];
    snprintf(online, sizeof(online), "%s/devices/system/cpu/online",
             sysfs_root);
    cpus = pmu_read_cpulist(plugin, out, AT_FDCWD, online,
                            "devices/system/cpu/online", scratch);
    if (cpus == -ENOENT) {
      scratch[0] = 0; /* no CPU list visible: CPU 0 is always there */
      cpus = 1;
    }
  }
  if (cpus < 0)
    return cpus;
  out->cpus = malloc((size_t)cpus * sizeof(int));
  if (out->cpus == NULL) {
    log_errno(LOG_LEVEL_ERROR, plugin, out->name, "PMU", ENOMEM, NULL);
    return -ENOMEM;
  }
  memcpy(out->cpus, scratch, (size_t)cpus * sizeof(int));
  out->n_cpus = (size_t)cpus;
  return 0;
}

/* A cpumask CPU outside associated_cpus makes the open fail with EINVAL
 * (arm_cspmu); say so at init. */
static void pmu_check_associated(const char *plugin, int dir_fd, int *scratch,
                                 const struct pmu_desc *pmu) {
  char text[4096], shown[64];
  ssize_t len;
  if (!pmu->has_cpumask || (len = fileio_read_line_at(dir_fd, "associated_cpus",
                                                      text, sizeof(text))) <= 0)
    return;
  text_sanitize(shown, sizeof(shown), text, (size_t)len);
  int n = pmu_cpulist_parse(text, scratch, PMU_MAX_CPUS);
  if (n <= 0) {
    log_msg(LOG_LEVEL_WARNING, plugin, pmu->name, "associated_cpus",
            "\"%s\" %s; not checked against the cpumask", shown,
            pmu_cpulist_why(n));
    return;
  }
  for (size_t c = 0; c < pmu->n_cpus; c++) {
    bool listed = false;
    for (int i = 0; i < n && !listed; i++)
      listed = scratch[i] == pmu->cpus[c];
    if (!listed)
      log_msg(LOG_LEVEL_WARNING, plugin, pmu->name, "cpumask",
              "CPU %d is not in associated_cpus (%s); opens may fail",
              pmu->cpus[c], shown);
  }
}

int pmu_desc_load(const char *plugin, const char *sysfs_root, const char *name,
                  struct pmu_desc *out) {
  memset(out, 0, sizeof(*out));
  text_sanitize(out->name, sizeof(out->name), name, strlen(name));
  char path[512], text[64];
  snprintf(path, sizeof(path), "%s/bus/event_source/devices/%s", sysfs_root,
           name);
  int dir_fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir_fd < 0) {
    int err = errno;
    log_errno(LOG_LEVEL_ERROR, plugin, out->name, "PMU", err, NULL);
    return -err;
  }
  int *scratch = NULL, rc = 0;
  ssize_t n = fileio_read_line_at(dir_fd, "type", text, sizeof(text));
  char *end = text;
  unsigned long type = n > 0 ? strtoul(text, &end, 10) : 0;
  if (n <= 0 || *end != '\0' || type > UINT32_MAX) {
    rc = n < 0 ? (int)n : -EINVAL;
    char shown[48];
    text_sanitize(shown, sizeof(shown), text, n > 0 ? (size_t)n : 0);
    if (n < 0)
      log_errno(LOG_LEVEL_ERROR, plugin, out->name, "type", -rc, NULL);
    else
      log_msg(LOG_LEVEL_ERROR, plugin, out->name, "type",
              "\"%s\" is not a PMU type number; PMU not counted", shown);
  }
  out->type = (uint32_t)type;
  if (rc == 0 && (scratch = malloc(PMU_MAX_CPUS * sizeof(int))) == NULL) {
    rc = -ENOMEM;
    log_errno(LOG_LEVEL_ERROR, plugin, out->name, "PMU", ENOMEM, NULL);
  }
  if (rc == 0)
    rc = pmu_load_cpus(plugin, sysfs_root, dir_fd, scratch, out);
  if (rc == 0) {
    /* informational: what the PMU says it is and what it is linked to */
    pmu_read_text(dir_fd, "identifier", out->identifier,
                  sizeof(out->identifier));
    pmu_read_text(dir_fd, "peer", out->peer, sizeof(out->peer));
    pmu_check_associated(plugin, dir_fd, scratch, out);
    struct pmu_load load = {plugin, out};
    static const char *const subdirs[] = {"format", "events"};
    for (size_t i = 0; i < 2 && rc == 0; i++) {
      rc = pmu_subdir_for_each(dir_fd, subdirs[i],
                               i ? pmu_load_event : pmu_load_format, &load);
      if (rc < 0)
        log_errno(LOG_LEVEL_ERROR, plugin, out->name, subdirs[i], -rc, NULL);
    }
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
