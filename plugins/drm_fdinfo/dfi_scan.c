/*
 * dfi_scan.c: finding DRM clients and reading their fdinfo.
 *
 * Three ways, cheapest first:
 *  - known fds: every client remembers the (pid, fd) pairs it was found
 *    under; between full scans only those fdinfo files are read again;
 *  - debugfs client lists (<debugfs>/dri/<minor>/clients, root only) name
 *    the pid of every open DRM file: when a pid gains a row, only that
 *    process's fds are walked, so new clients appear within one read;
 *  - the full scan walks every /proc/<pid>/fd, fstatat()s each entry and
 *    reads fdinfo only for char devices of major 226 (DRM) or 261 (accel).
 *    It runs on the first read and then every FullScanInterval seconds,
 *    which bounds how late a new client is seen when debugfs is absent.
 *
 * Processes vanish mid-scan all the time (ENOENT, ESRCH): that is normal
 * and only logged at DEBUG. Processes whose fds we may not read (EACCES:
 * other users, non-dumpable) are counted and reported once per reason.
 */
#include "plugins/drm_fdinfo/dfi_scan.h"
#include "common/drm/drm_clients_parse.h"
#include "common/proc/proc_stat.h"
#include "plugins/drm_fdinfo/dfi.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

/* What we learn about a process the first time one of its fds is DRM. */
struct dfi_proc {
  pid_t pid;
  bool loaded;
  bool excluded; /* ProcessMatch did not match */
  char comm[DFI_COMM_MAX];
  char cgroup[DFI_CGROUP_MAX];
  struct cgroup_id ctr;      /* ReportBy Container: its container, if any */
  bool ctr_read;             /* ctr was looked for */
  char start[DFI_START_MAX]; /* start time in ticks after boot, or "" */
};

static uint64_t dfi_mono(struct dfi *d) {
  return plugin_host_monotonic_ns(d->host);
}

static bool dfi_vanished(int err) { return err == ENOENT || err == ESRCH; }

/* cgroup v2 line "0::/path"; on v1-only hosts the first line's path. */
static void dfi_cgroup_parse(const char *text, char *out, size_t size) {
  const char *line = text, *chosen = NULL;
  size_t chosen_len = 0;
  while (*line) {
    const char *nl = strchr(line, '\n');
    size_t len = nl ? (size_t)(nl - line) : strlen(line);
    const char *second = memchr(line, ':', len);
    const char *path =
        second ? memchr(second + 1, ':', len - (size_t)(second + 1 - line))
               : NULL;
    if (path != NULL) {
      path++;
      size_t path_len = len - (size_t)(path - line);
      if (strncmp(line, "0::", 3) == 0) {
        chosen = path, chosen_len = path_len;
        break;
      }
      if (chosen == NULL)
        chosen = path, chosen_len = path_len;
    }
    if (!nl)
      break;
    line = nl + 1;
  }
  if (chosen == NULL)
    snprintf(out, size, "unknown");
  else
    /* real Kubernetes paths run past 255 bytes with long equal prefixes */
    text_sanitize_keyed(out, size, chosen, chosen_len);
  if (out[0] == '\0')
    snprintf(out, size, "unknown");
}

static void dfi_proc_load(struct dfi *d, struct dfi_proc *p) {
  char path[64];
  p->loaded = true;
  snprintf(path, sizeof(path), "%d/comm", (int)p->pid);
  char raw[DFI_COMM_MAX];
  ssize_t n = fileio_read_text_at(d->proc_fd, path, raw, sizeof(raw));
  if (n > 0)
    text_sanitize(p->comm, sizeof(p->comm), raw, (size_t)n);
  if (n <= 0 || p->comm[0] == '\0')
    snprintf(p->comm, sizeof(p->comm), "?");
  /* The start time tells a new process under a reused pid from the old
   * one: it is part of the process series' identity. */
  char stat[1024];
  uint64_t start;
  snprintf(path, sizeof(path), "%d/stat", (int)p->pid);
  n = fileio_read_line_at(d->proc_fd, path, stat, sizeof(stat));
  if (n > 0 && proc_stat_start_time_decode(stat, (size_t)n, &start) == 0)
    snprintf(p->start, sizeof(p->start), "%llu", (unsigned long long)start);
  else
    p->start[0] = '\0';
  if (d->cfg.report_by & (DFI_SCOPE_CGROUP | DFI_SCOPE_CONTAINER)) {
    snprintf(path, sizeof(path), "%d/cgroup", (int)p->pid);
    bool got =
        fileio_read_at(d->proc_fd, path, &d->buf, 16384) >= 0 || d->buf.len > 0;
    if (!got)
      snprintf(p->cgroup, sizeof(p->cgroup), "unknown");
    else if (d->cfg.report_by & DFI_SCOPE_CGROUP)
      dfi_cgroup_parse(d->buf.data, p->cgroup, sizeof(p->cgroup));
    /* no container named (or no file): the process counts as the host's */
    if (!got || cgroup_id_parse(d->buf.data, d->buf.len, &p->ctr) < 0)
      memset(&p->ctr, 0, sizeof(p->ctr));
    p->ctr_read = (d->cfg.report_by & DFI_SCOPE_CONTAINER) != 0;
  }
  p->excluded = d->cfg.has_process_match &&
                regexec(&d->cfg.process_match, p->comm, 0, NULL, 0) != 0;
}

/* Values the decoder could not read are counted in drm_scan and said once
 * (until a full scan finds none), naming the file and the first such key;
 * drm-* keys the spec does not know are counted and logged at debug. */
static void dfi_fdinfo_check(struct dfi *d, pid_t pid, int fd,
                             const struct fdinfo *fi) {
  d->stats.malformed += fi->malformed;
  d->stats.unknown_keys += fi->unknown_keys;
  if (fi->malformed == 0 && fi->unknown_keys == 0)
    return; /* the common case: every fdinfo read passes here */
  char object[48];
  snprintf(object, sizeof(object), "pid %d fd %d", (int)pid, fd);
  if (fi->malformed > 0 && log_complaint_raise(&d->malformed_complaint))
    log_msg(LOG_LEVEL_WARNING, DFI_PLUGIN, object, fi->first_malformed,
            "malformed value (%u in this file); such values are skipped and "
            "counted in drm_scan.malformed",
            fi->malformed);
  if (fi->unknown_keys > 0)
    log_msg(LOG_LEVEL_DEBUG, DFI_PLUGIN, object, "fdinfo",
            "%u drm-* key(s) not in the spec", fi->unknown_keys);
}

/* Read and decode /proc/<pid>/fdinfo/<fd>. 0, -ENOENT (not a DRM file or
 * gone) or another negative errno. *mono is the time right after the read. */
static int dfi_fdinfo_read(struct dfi *d, pid_t pid, int fd, struct fdinfo *fi,
                           uint64_t *mono) {
  char path[64];
  snprintf(path, sizeof(path), "%d/fdinfo/%d", (int)pid, fd);
  int rc = fileio_read_at(d->proc_fd, path, &d->buf, DFI_FDINFO_MAX);
  *mono = dfi_mono(d);
  if (rc == 0 || rc == -E2BIG)
    d->stats.fdinfo_reads++;
  if (rc == -E2BIG) {
    d->stats.oversized++; /* parse what fits; the DRM block comes first */
    rc = 0;
  }
  if (rc < 0)
    return rc;
  rc = fdinfo_parse(d->buf.data, d->buf.len, fi);
  if (rc == 0)
    dfi_fdinfo_check(d, pid, fd, fi);
  return rc;
}

static void dfi_client_key(const struct fdinfo *fi,
                           const struct dfi_device *dev, pid_t pid, int fd,
                           const char **device, uint64_t *id) {
  *device = fi->pdev[0] ? fi->pdev : dev->name;
  /* Without drm-client-id (very old drivers) sharing cannot be detected:
   * each (pid, fd) is its own client. */
  *id = fi->has_client_id ? fi->client_id
                          : ((uint64_t)(uint32_t)pid << 32) | (uint32_t)fd;
}

/* Remember (pid, fd) as a holder of c. `keep_owner`: never evict the
 * owner's entry (an established attribution). */
static bool dfi_holder_add(struct dfi_client *c, pid_t pid, int fd, dev_t rdev,
                           bool keep_owner) {
  for (size_t i = 0; i < c->n_holders; i++)
    if (c->holders[i].pid == pid && c->holders[i].fd == fd)
      return true;
  struct dfi_holder h = {pid, fd, rdev};
  if (c->n_holders < DFI_MAX_HOLDERS) {
    c->holders[c->n_holders++] = h;
    return true;
  }
  /* Full: keep the lowest pids, the candidates of the attribution rule. */
  size_t highest = 0;
  for (size_t i = 1; i < c->n_holders; i++)
    if (c->holders[i].pid > c->holders[highest].pid)
      highest = i;
  if (pid >= c->holders[highest].pid ||
      (keep_owner && c->holders[highest].pid == c->owner))
    return false;
  c->holders[highest] = h;
  return true;
}

static void dfi_attribute(struct dfi_client *c, const struct dfi_proc *p) {
  c->owner = p->pid;
  snprintf(c->comm, sizeof(c->comm), "%s", p->comm);
  snprintf(c->owner_start, sizeof(c->owner_start), "%s", p->start);
  snprintf(c->cgroup, sizeof(c->cgroup), "%s", p->cgroup);
  c->ctr = p->ctr;
  c->ctr_read = p->ctr_read;
}

/* A parsed DRM fd of process p: find or create its client and update it. */
static void dfi_found(struct dfi *d, struct dfi_proc *p, int fd,
                      struct dfi_device *dev, const struct fdinfo *fi,
                      uint64_t mono) {
  dfi_device_learn(d, dev, fi);
  if (!dev_filter_driver_ok(&d->cfg.filter, fi->driver) ||
      (fi->pdev[0] && d->cfg.filter.n_devices &&
       !dev_filter_device_ok(&d->cfg.filter, fi->pdev, dev->minor)))
    return;
  const char *device;
  uint64_t id;
  dfi_client_key(fi, dev, p->pid, fd, &device, &id);
  struct dfi_client *c = dfi_client_find(&d->clients, device, id);
  if (c == NULL) {
    if (d->clients.count >= d->cfg.max_clients) {
      d->stats.clients_untracked++;
      if (d->walking != NULL)
        d->walking->untracked++;
      return;
    }
    c = dfi_client_insert(&d->clients, device, id);
    if (c == NULL) {
      log_errno(LOG_LEVEL_WARNING, DFI_PLUGIN, device, "client table", ENOMEM,
                NULL);
      return;
    }
    c->synthetic_id = !fi->has_client_id;
    c->created_gen = d->gen;
    dfi_attribute(c, p);
  }
  if (c->seen_gen != d->gen) {
    /* First sighting in this read. A full scan rebuilds the holder list
     * from scratch (dfi_full_scan sweeps afterwards). */
    if (d->stats.full_scan)
      c->n_holders = 0; /* every process is walked in this read */
    c->seen_gen = d->gen;
  }
  dfi_holder_add(c, p->pid, fd, dev->rdev,
                 /*keep_owner=*/c->created_gen != d->gen);
  if (c->owner == p->pid)
    dfi_attribute(c, p); /* comm may have changed (exec) */
  if (c->updated_gen != d->gen) {
    d->clamped_total += dfi_client_update(c, fi, mono);
    c->updated_gen = d->gen;
  }
}

/* One fd of process p that fstatat() says is a DRM or accel device. */
static void dfi_discover(struct dfi *d, struct dfi_proc *p, int fd,
                         dev_t rdev) {
  struct dfi_device *dev = dfi_device_get(d, rdev);
  if (dev == NULL || dev->excluded || dev->gone)
    return;
  if (!p->loaded)
    dfi_proc_load(d, p);
  if (p->excluded || dfi_device_is_suspended(d, dev))
    return;
  struct fdinfo fi;
  uint64_t mono;
  int rc = dfi_fdinfo_read(d, p->pid, fd, &fi, &mono);
  if (rc < 0) {
    if (rc != -ENOENT && !dfi_vanished(-rc))
      log_errno(LOG_LEVEL_DEBUG, DFI_PLUGIN, dev->name, "fdinfo", -rc, NULL);
    return;
  }
  dfi_found(d, p, fd, dev, &fi, mono);
}

/* Walk /proc/<pid>/fd. */
void dfi_scan_pid(struct dfi *d, pid_t pid, struct dfi_pid *e) {
  const struct kernel_ops *k = d->host->kernel;
  char path[32];
  snprintf(path, sizeof(path), "%d/fd", (int)pid);
  d->stats.processes++;
  int dir_fd =
      k->openat(d->proc_fd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
  if (e != NULL) {
    e->unreadable = false;
    e->untracked = 0;
  }
  if (dir_fd < 0) {
    int err = errno;
    if (err == EACCES || err == EPERM) {
      d->stats.unreadable++;
      if (e != NULL) {
        /* not tried again until its fd count changes or its phase comes:
         * an unprivileged reader must not pay a failing open per process
         * at every read (fs/proc/fd.c: proc_fd_getattr counts the fds
         * without a permission check) */
        struct stat st;
        e->unreadable = true;
        e->walked = true;
        e->fd_count = k->fstatat(d->proc_fd, path, &st, 0) == 0
                          ? (uint64_t)st.st_size
                          : 0;
      }
      if (log_complaint_raise(&d->eacces_complaint))
        log_errno(LOG_LEVEL_WARNING, DFI_PLUGIN, "/proc/<pid>/fd", "openat",
                  err,
                  "processes of other users or non-dumpable ones need root "
                  "or CAP_SYS_PTRACE; their count is reported as unreadable");
    } else if (!dfi_vanished(err)) {
      log_errno(LOG_LEVEL_DEBUG, DFI_PLUGIN, path, "openat", err, NULL);
    }
    return;
  }
  if (e != NULL) {
    /* the open-fd count of the kernels that report it (0 otherwise),
     * taken before the walk: a change after it shows at the next read */
    struct stat dir_st;
    e->fd_count = k->fstatat(dir_fd, "", &dir_st, AT_EMPTY_PATH) == 0
                      ? (uint64_t)dir_st.st_size
                      : 0;
    e->walked = true;
  }
  DIR *dir = k->fdopendir(dir_fd);
  if (dir == NULL) {
    k->close(dir_fd);
    return;
  }
  d->walking = e;
  struct dfi_proc proc = {.pid = pid};
  struct dirent *de;
  while ((de = k->readdir(dir)) != NULL) {
    if (de->d_name[0] < '0' || de->d_name[0] > '9')
      continue;
    d->stats.fds++;
    struct stat st;
    if (k->fstatat(dir_fd, de->d_name, &st, 0) < 0 || !S_ISCHR(st.st_mode))
      continue;
    unsigned maj = major(st.st_rdev);
    if (maj != DFI_DRM_MAJOR && maj != DFI_ACCEL_MAJOR)
      continue;
    dfi_discover(d, &proc, atoi(de->d_name), st.st_rdev);
  }
  d->walking = NULL;
  k->closedir(dir);
}

pid_t dfi_parse_pid(const char *name) {
  long pid = 0;
  for (const char *p = name; *p; p++) {
    if (*p < '0' || *p > '9' || pid > 0x3fffffff)
      return 0;
    pid = pid * 10 + (*p - '0');
  }
  return (pid_t)pid;
}

bool dfi_client_on_suspended(struct dfi *d, struct dfi_client *c) {
  for (size_t i = 0; i < c->n_holders; i++) {
    struct dfi_device *dev = dfi_device_get(d, c->holders[i].rdev);
    if (dev != NULL && dfi_device_is_suspended(d, dev))
      return true;
  }
  return false;
}

/*
 * Attribution rule: a new client goes to the lowest pid holding it (the
 * parent of a fork, usually); after that it stays with its owner while the
 * owner holds it, and passes to the lowest remaining holder when the owner
 * lets go. The owner's holder entry moves to the front, so steady-state
 * reads go through the owner's fd first.
 */
void dfi_reattribute(struct dfi *d, struct dfi_client *c) {
  size_t owner = c->n_holders, lowest = 0;
  for (size_t i = 0; i < c->n_holders; i++) {
    if (c->holders[i].pid == c->owner)
      owner = i;
    if (c->holders[i].pid < c->holders[lowest].pid)
      lowest = i;
  }
  if (owner == c->n_holders || (c->created_gen == d->gen && lowest != owner)) {
    struct dfi_proc p = {.pid = c->holders[lowest].pid};
    dfi_proc_load(d, &p);
    dfi_attribute(c, &p);
    owner = lowest;
  }
  struct dfi_holder first = c->holders[owner];
  memmove(&c->holders[1], &c->holders[0], owner * sizeof(first));
  c->holders[0] = first;
}

/* Re-read the fdinfo of every known client through the fds it was found
 * under; a client none of whose fds still shows it is gone. */
void dfi_refresh_known(struct dfi *d) {
  size_t n = 0;
  struct dfi_client **list = malloc((d->clients.count + 1) * sizeof(*list));
  if (list == NULL)
    return;
  struct dfi_client *c;
  dfi_client_for_each(&d->clients, i, c) list[n++] = c;

  for (size_t k = 0; k < n; k++) {
    c = list[k];
    if (c->updated_gen == d->gen)
      continue;
    bool alive = false;
    while (c->n_holders > 0 && !alive) {
      struct dfi_holder h = c->holders[0];
      struct dfi_device *dev = dfi_device_get(d, h.rdev);
      if (dev != NULL && dfi_device_is_suspended(d, dev)) {
        dfi_client_idle(c, dfi_mono(d));
        c->seen_gen = c->updated_gen = d->gen;
        alive = true;
        break;
      }
      struct fdinfo fi;
      uint64_t mono;
      /* a gone device's clients go with it (its minor may come back as
       * another device's: never mix the two) */
      int rc = dev && !dev->gone ? dfi_fdinfo_read(d, h.pid, h.fd, &fi, &mono)
                                 : -ENODEV;
      const char *device = NULL;
      uint64_t id = 0;
      if (rc == 0)
        dfi_client_key(&fi, dev, h.pid, h.fd, &device, &id);
      if (rc == 0 && id == c->id && strcmp(device, c->device) == 0) {
        d->clamped_total += dfi_client_update(c, &fi, mono);
        c->seen_gen = c->updated_gen = d->gen;
        alive = true;
        break;
      }
      /* This fd no longer shows this client. */
      memmove(&c->holders[0], &c->holders[1],
              (c->n_holders - 1) * sizeof(c->holders[0]));
      c->n_holders--;
      if (rc == 0) {
        /* The fd number was reused for another DRM client. */
        struct dfi_proc p = {.pid = h.pid};
        dfi_proc_load(d, &p);
        if (!p.excluded)
          dfi_found(d, &p, h.fd, dev, &fi, mono);
      }
    }
    if (!alive) {
      dfi_client_remove(&d->clients, c);
    } else if (c->n_holders > 0 &&
               (c->holders[0].pid != c->owner ||
                ((d->cfg.report_by & DFI_SCOPE_CGROUP) &&
                 c->cgroup[0] == '\0') ||
                ((d->cfg.report_by & DFI_SCOPE_CONTAINER) && !c->ctr_read))) {
      /* a new owner, or per-cgroup or per-container rows asked for while
       * running (the live view: ReportBy Cgroup, Container): its cgroup
       * was never read */
      struct dfi_proc p = {.pid = c->holders[0].pid};
      dfi_proc_load(d, &p);
      dfi_attribute(c, &p);
    }
  }
  free(list);
}
