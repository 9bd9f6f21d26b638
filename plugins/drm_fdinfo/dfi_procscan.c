/*
 * dfi_procscan.c: which processes a read of drm_fdinfo walks.
 *
 * Walking /proc/<pid>/fd means one fstatat() per open fd on the machine:
 * the syscall floor of a full scan, about 3 us per fd. A read instead
 *  1. re-reads the fdinfo of known clients through the fds they were found
 *     under (dfi_refresh_known: closed clients go at once);
 *  2. walks the processes whose debugfs client-list rows grew (root);
 *  3. lists /proc once, unless no task was created since the previous
 *     listing (the last pid handed out, in /proc/loadavg, is the same:
 *     then the processes are those of the table), and walks
 *     - every process that is new since the previous read;
 *     - where the kernel reports the open-fd count in st_size of
 *       /proc/<pid>/fd (fs/proc/fd.c: proc_fd_getattr, Linux 6.2; detected
 *       at init, FdCount): the processes whose count changed. The count is
 *       one stat() per process, about as dear as listing the process, so
 *       it is looked at for the processes whose count phase falls into
 *       the time since the previous read: every count once per
 *       FdCountInterval (0: every count at every read), and every count
 *       at a read after a DRM or accel node under DevRoot was opened
 *       (inotify IN_OPEN on <DevRoot>/dri and <DevRoot>/accel: opening
 *       a node is how a client is made; fs/notify/fsnotify.c reports
 *       opens of a watched directory's entries to any reader allowed to
 *       list it, so no root is needed);
 *     - the processes whose walk phase falls into that time: every process
 *       once per FullScanInterval whatever the read times. With fd counts
 *       this walk only catches an fd replaced in place (dup2 onto an open
 *       fd, or a close and an open between two looks), so its window is
 *       long (auto: DFI_WALK_WINDOW_COUNTS); without them it is what finds
 *       a known process's new client (auto: DFI_WALK_WINDOW_PLAIN);
 *     - every process when the walk window has passed since the previous
 *       read (the first read, FullScanInterval 0, or a long pause).
 * Each pid has a fixed phase in a window (a hash of the pid), so the work
 * is spread evenly over the reads and no read costs much more than its
 * neighbours. Processes without DRM clients are never asked for their
 * comm or stat: only a DRM fd found in a walk reads them.
 */
#include "common/drm/drm_clients_parse.h"
#include "plugins/drm_fdinfo/dfi.h"
#include "plugins/drm_fdinfo/dfi_scan.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#define DFI_DEBUGFS_MAX_PIDS 65536
/* FullScanInterval auto, seconds: with fd counts the walk is only the
 * safety net for fds replaced in place; without, it finds new clients. */
#define DFI_WALK_WINDOW_COUNTS 3600.0
#define DFI_WALK_WINDOW_PLAIN 30.0

static uint64_t dfi_now(struct dfi *d) {
  return plugin_host_monotonic_ns(d->host);
}

static int dfi_pid_cmp(const void *a, const void *b) {
  pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;
  return (x > y) - (x < y);
}

/*
 * Read every debugfs client list; return (in *changed, owned) the pids that
 * have more rows than at the previous read. False when no list is readable.
 */
static bool dfi_debugfs_diff(struct dfi *d, pid_t **changed,
                             size_t *n_changed) {
  *changed = NULL;
  *n_changed = 0;
  char pattern[512];
  glob_t g;
  snprintf(pattern, sizeof(pattern), "%s/{dri,accel}/*/clients",
           d->cfg.debugfs_root);
  if (glob(pattern, GLOB_BRACE, NULL, &g) != 0) {
    d->debugfs_ok = false;
    return false;
  }
  pid_t *pids = malloc(DFI_DEBUGFS_MAX_PIDS * sizeof(*pids));
  if (pids == NULL) {
    globfree(&g);
    return false; /* full scans still find everything */
  }
  size_t n = 0;
  bool any = false;
  for (size_t i = 0; i < g.gl_pathc; i++) {
    if (fileio_read_at(AT_FDCWD, g.gl_pathv[i], &d->buf, 1 << 22) < 0)
      continue;
    size_t got = 0;
    drm_clients_parse(d->buf.data, d->buf.len, pids + n,
                      DFI_DEBUGFS_MAX_PIDS - n, &got);
    n += got;
    any = true;
  }
  globfree(&g);
  if (!any) {
    if (log_complaint_raise(&d->debugfs_complaint))
      log_msg(LOG_LEVEL_INFO, DFI_PLUGIN, d->cfg.debugfs_root, "clients",
              "DRM client lists are not readable (needs root and a mounted "
              "debugfs); new clients are found by full scans only");
    free(pids);
    d->debugfs_ok = false;
    return false;
  }
  qsort(pids, n, sizeof(*pids), dfi_pid_cmp);
  /* Both lists are sorted: a pid whose row count grew is new work. */
  pid_t *out = malloc((n + 1) * sizeof(*out));
  size_t i = 0, j = 0, m = 0;
  while (out != NULL && i < n) {
    pid_t pid = pids[i];
    size_t now = 0, before = 0;
    while (i < n && pids[i] == pid)
      i++, now++;
    while (j < d->n_debugfs_pids && d->debugfs_pids[j] < pid)
      j++;
    while (j < d->n_debugfs_pids && d->debugfs_pids[j] == pid)
      j++, before++;
    if (now > before)
      out[m++] = pid;
  }
  free(d->debugfs_pids);
  d->debugfs_pids = pids;
  d->n_debugfs_pids = n;
  d->debugfs_ok = true;
  *changed = out;
  *n_changed = m;
  return true;
}

/* The pid's fixed phase in a window of `window_ns` (splitmix64 of the pid:
 * consecutive pids land far apart). */
static uint64_t dfi_phase(pid_t pid, uint64_t window_ns) {
  uint64_t z = (uint64_t)(uint32_t)pid + 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return (z ^ (z >> 31)) % window_ns;
}

/* Whether the phase of `pid` lies in (from, to] on the window's circle. */
static bool dfi_phase_due(pid_t pid, uint64_t window_ns, uint64_t from,
                          uint64_t to) {
  uint64_t p = dfi_phase(pid, window_ns), a = from % window_ns,
           b = to % window_ns;
  if (to - from >= window_ns)
    return true;
  return a <= b ? (p > a && p <= b) : (p > a || p <= b);
}

/* The walk and count windows from the options and the detected mode. */
static void dfi_windows_set(struct dfi *d) {
  double walk = d->cfg.full_scan_interval_s;
  if (walk < 0)
    walk = d->fd_count_mode ? DFI_WALK_WINDOW_COUNTS : DFI_WALK_WINDOW_PLAIN;
  d->walk_window_ns = (uint64_t)(walk * 1e9);
  d->count_window_ns = (uint64_t)(d->cfg.fd_count_interval_s * 1e9);
  if (d->count_window_ns > d->walk_window_ns)
    d->count_window_ns = d->walk_window_ns; /* a walk looks at the count */
  log_msg(LOG_LEVEL_INFO, DFI_PLUGIN, d->cfg.proc_root, "FullScanInterval",
          "every process's fds are walked once per %.0f s%s", walk,
          d->fd_count_mode ? "" : "; new processes at every read");
  if (d->fd_count_mode)
    log_msg(LOG_LEVEL_INFO, DFI_PLUGIN, d->cfg.proc_root, "FdCountInterval",
            "every process's fd count is looked at once per %.0f s; new "
            "processes and changed counts are walked at once",
            (double)d->count_window_ns / 1e9);
}

void dfi_fd_count_detect(struct dfi *d) {
  const struct kernel_ops *k = d->host->kernel;
  if (d->cfg.fd_count >= 0) {
    d->fd_count_mode = d->cfg.fd_count == 1;
    log_msg(LOG_LEVEL_INFO, DFI_PLUGIN, d->cfg.proc_root, "FdCount",
            "%s (configured)",
            d->fd_count_mode ? "fd counts are used" : "fd counts are not used");
    dfi_windows_set(d);
    return;
  }
  /* Ask the kernel about a process whose fds we know: ourselves. The
   * directory fd we open is one of them, so count after opening it. */
  int fd =
      k->openat(d->proc_fd, "self/fd", O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
  DIR *dir = fd >= 0 ? k->fdopendir(fd) : NULL;
  struct stat st;
  size_t n = 0;
  bool ok = dir != NULL && k->fstatat(fd, "", &st, AT_EMPTY_PATH) == 0;
  struct dirent *de;
  while (ok && (de = k->readdir(dir)) != NULL)
    n += de->d_name[0] >= '0' && de->d_name[0] <= '9';
  if (dir != NULL)
    k->closedir(dir);
  else if (fd >= 0)
    k->close(fd);
  d->fd_count_mode = ok && n > 0 && (uint64_t)st.st_size == n;
  log_msg(LOG_LEVEL_INFO, DFI_PLUGIN, d->cfg.proc_root, "FdCount",
          d->fd_count_mode
              ? "the kernel reports fd counts: processes whose count changed "
                "are walked"
              : "the kernel does not report fd counts (before Linux 6.2)");
  dfi_windows_set(d);
}

/* Whether ProcRoot shows our own pid namespace (its "self" is the entry of
 * our pid): then /proc/loadavg's last pid is that of ProcRoot's processes. */
static void dfi_pid_ns_detect(struct dfi *d) {
  const struct kernel_ops *k = d->host->kernel;
  char own[32];
  snprintf(own, sizeof(own), "%d", (int)getpid());
  struct stat self, mine;
  d->own_pid_ns = k->fstatat(d->proc_fd, "self", &self, 0) == 0 &&
                  k->fstatat(d->proc_fd, own, &mine, 0) == 0 &&
                  self.st_dev == mine.st_dev && self.st_ino == mine.st_ino;
}

void dfi_open_watch(struct dfi *d) {
  dfi_pid_ns_detect(d);
  const struct kernel_ops *k = d->host->kernel;
  static const char *const dirs[] = {"dri", "accel"};
  int fd = k->inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  if (fd < 0) {
    log_errno(LOG_LEVEL_INFO, DFI_PLUGIN, d->cfg.dev_root, "inotify_init1",
              errno, "device opens are found by fd counts only");
    return;
  }
  int watched = 0;
  for (size_t i = 0; i < 2; i++) {
    char path[512];
    snprintf(path, sizeof(path), "%s/%s", d->cfg.dev_root, dirs[i]);
    if (k->inotify_add_watch(fd, path, IN_OPEN | IN_ONLYDIR) >= 0)
      watched++;
    else if (errno != ENOENT)
      log_errno(LOG_LEVEL_INFO, DFI_PLUGIN, path, "inotify_add_watch", errno,
                NULL);
  }
  if (watched == 0) {
    k->close(fd);
    /* a configured DevRoot holding neither is a wrong path more likely
     * than a machine without DRM devices: said at the default level */
    log_msg(d->dev_root_set ? LOG_LEVEL_WARNING : LOG_LEVEL_INFO, DFI_PLUGIN,
            d->cfg.dev_root, d->dev_root_set ? "DevRoot" : "inotify",
            "no dri or accel directory to watch: opens are found by the fd "
            "counts of FdCountInterval");
    return;
  }
  d->notify_fd = fd;
  log_msg(LOG_LEVEL_INFO, DFI_PLUGIN, d->cfg.dev_root, "inotify",
          "opens of its DRM/accel nodes have every fd count looked at "
          "at the next read");
}

/* Whether a watched node was opened since the previous read (the queue
 * drained). An overflowed queue counts as an open. */
static bool dfi_opened(struct dfi *d) {
  if (d->notify_fd < 0)
    return false;
  bool any = false;
  char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
  while (d->host->kernel->read(d->notify_fd, buf, sizeof(buf)) > 0)
    any = true;
  return any;
}

/* Walk `pid`, remembering what was found in its table entry. */
static void dfi_walk(struct dfi *d, pid_t pid) {
  bool created;
  struct dfi_pid *e = dfi_pids_get(&d->pids, pid, &created);
  if (e != NULL)
    e->seen_gen = d->gen;
  dfi_scan_pid(d, pid, e);
}

/* Whether a process's open-fd count differs from the one its last walk
 * saw (one stat of /proc/<pid>/fd). */
static bool dfi_count_changed(struct dfi *d, pid_t pid,
                              const struct dfi_pid *e) {
  char path[32];
  snprintf(path, sizeof(path), "%d/fd", (int)pid);
  struct stat st;
  if (d->host->kernel->fstatat(d->proc_fd, path, &st, 0) < 0)
    return false; /* gone, or not ours to see: nothing to find there */
  return (uint64_t)st.st_size != e->fd_count;
}

/* Look at one process of the pass (see the top). */
static void dfi_pass_one(struct dfi *d, pid_t pid, struct dfi_pid *e,
                         bool created, bool full, bool opened, uint64_t from,
                         uint64_t to) {
  bool walk = full || e == NULL || created || !e->walked ||
              dfi_phase_due(pid, d->walk_window_ns, from, to);
  if (!walk && d->fd_count_mode &&
      (opened || d->count_window_ns == 0 ||
       dfi_phase_due(pid, d->count_window_ns, from, to)))
    walk = dfi_count_changed(d, pid, e);
  if (walk)
    dfi_scan_pid(d, pid, e);
}

/* The last pid the kernel handed out in the reader's pid namespace (the
 * last field of /proc/loadavg: fs/proc/loadavg.c: loadavg_proc_show,
 * idr_get_cursor of task_active_pid_ns), or 0 when unknown. */
static pid_t dfi_last_pid(struct dfi *d) {
  if (!d->own_pid_ns)
    return 0;
  char line[128];
  ssize_t n = fileio_read_line_at(d->proc_fd, "loadavg", line, sizeof(line));
  const char *last = n > 0 ? strrchr(line, ' ') : NULL;
  return last != NULL ? dfi_parse_pid(last + 1) : 0;
}

/* No task was created since the previous listing: the processes are the
 * table's (those that exited since stay until the next listing; their
 * looks fail as ENOENT). */
static void dfi_table_pass(struct dfi *d, bool opened, uint64_t from,
                           uint64_t to) {
  for (size_t i = 0; i < d->pids.cap; i++) {
    struct dfi_pid *e = &d->pids.slots[i];
    if (e->pid == 0 || e->seen_gen == d->gen)
      continue; /* empty, or walked already in this read (debugfs) */
    e->seen_gen = d->gen;
    dfi_pass_one(d, e->pid, e, /*created=*/false, /*full=*/false, opened, from,
                 to);
  }
}

/* List /proc once (unless no task was created since the previous listing);
 * walk the processes that are due (see the top). */
static int dfi_proc_pass(struct dfi *d, bool full, bool opened, uint64_t from,
                         uint64_t to) {
  const struct kernel_ops *k = d->host->kernel;
  pid_t last_pid = dfi_last_pid(d);
  if (!full && last_pid != 0 && last_pid == d->last_pid) {
    dfi_table_pass(d, opened, from, to);
    return 0;
  }
  int dir_fd =
      k->openat(d->proc_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
  DIR *dir = dir_fd >= 0 ? k->fdopendir(dir_fd) : NULL;
  if (dir == NULL) {
    int err = errno;
    if (dir_fd >= 0)
      k->close(dir_fd);
    log_errno(LOG_LEVEL_ERROR, DFI_PLUGIN, d->cfg.proc_root, "opendir", err,
              NULL);
    return -err;
  }
  struct dirent *de;
  while ((de = k->readdir(dir)) != NULL) {
    pid_t pid = dfi_parse_pid(de->d_name);
    if (pid <= 0)
      continue;
    bool created;
    struct dfi_pid *e = dfi_pids_get(&d->pids, pid, &created);
    if (e != NULL) {
      if (e->seen_gen == d->gen)
        continue; /* walked already in this read (debugfs) */
      e->seen_gen = d->gen;
    }
    dfi_pass_one(d, pid, e, created, full, opened, from, to);
  }
  k->closedir(dir);
  if (dfi_pids_sweep(&d->pids, d->gen) < 0)
    return -ENOMEM;
  d->last_pid = last_pid; /* every process up to it is in the table */
  return 0;
}

/* After a read that walked every process: the holder lists were rebuilt,
 * so clients nobody holds any more are gone. After any read: new clients
 * go to the lowest pid holding them. */
static void dfi_clients_settle(struct dfi *d, bool full) {
  struct dfi_client *c;
  dfi_client_for_each(&d->clients, i, c) {
    if (c->seen_gen == d->gen) {
      if (full || c->created_gen == d->gen)
        dfi_reattribute(d, c);
    } else if (!full) {
      continue; /* not walked in this read: dfi_refresh_known judged it */
    } else if (c->n_holders > 0 && dfi_client_on_suspended(d, c)) {
      c->seen_gen = d->gen;
      dfi_client_idle(c, dfi_now(d));
    } else {
      dfi_client_remove(&d->clients, c);
    }
  }
}

/* Once per window: recoveries are said, the full-scan count goes up. */
static void dfi_window_done(struct dfi *d) {
  if (d->stats.unreadable == 0 && log_complaint_release(&d->eacces_complaint))
    log_msg(LOG_LEVEL_INFO, DFI_PLUGIN, d->cfg.proc_root, "openat",
            "every process is readable again");
  if (d->stats.malformed == 0 && log_complaint_release(&d->malformed_complaint))
    log_msg(LOG_LEVEL_INFO, DFI_PLUGIN, d->cfg.proc_root, "fdinfo",
            "no malformed value any more");
  d->full_scans_total++;
}

int dfi_scan(struct dfi *d) {
  d->gen++;
  memset(&d->stats, 0, sizeof(d->stats));
  uint64_t now = dfi_now(d);
  uint64_t window = d->walk_window_ns;
  uint64_t from = d->last_read_ns;
  bool full = !d->scanned_once || window == 0 || now - from >= window;
  d->stats.full_scan = full;
  if (!full)
    dfi_refresh_known(d);
  if (d->cfg.use_debugfs) {
    pid_t *changed;
    size_t n_changed;
    if (dfi_debugfs_diff(d, &changed, &n_changed) && !full)
      for (size_t i = 0; i < n_changed; i++)
        dfi_walk(d, changed[i]);
    free(changed);
  }
  int rc = dfi_proc_pass(d, full, dfi_opened(d), from, now);
  if (rc < 0)
    return rc;
  dfi_clients_settle(d, full);
  /* Scan statistics describe the machine, not the kind of read: every
   * process's state as its last walk saw it. */
  dfi_pids_totals(&d->pids, &d->stats.unreadable, &d->stats.clients_untracked);
  if (full || (window > 0 && now / window != from / window))
    dfi_window_done(d);
  d->last_read_ns = now;
  d->scanned_once = true;
  return 0;
}
