/*
 * bench_scan.c: what a drm_fdinfo read costs, against the cheapest possible
 * walk of the same /proc.
 *
 *  - syscall floor: opendir the proc root, and for every process open
 *    <pid>/fd and fstatat() each entry, nothing else. Any fdinfo scanner
 *    has to make at least these calls (igt gputop, nvtop and htop make
 *    more);
 *  - full scan: drm_fdinfo_ops with FullScanInterval 0 (every read walks
 *    everything), UseDebugfs false, records into a discarding sink;
 *  - steady state: FullScanInterval 3600 and FdCountInterval 0, after one
 *    priming read, so a read re-reads the fds of known clients and looks
 *    at every process's fd count (where the kernel reports it): the most
 *    a read does between walks;
 *  - daemon equivalent: the default settings read every 10 s and every
 *    1 s of a scripted clock over BENCH_DAEMON_SECONDS (3600: one walk
 *    window at the defaults with fd counts), after a priming read; the
 *    CPU time of those reads over the scripted time is the share of one
 *    core the collectd daemon spends on the plugin at that Interval,
 *    shown beside the CPU time of one walk of every process (the floor).
 *    The reads run back to back in real time, so a child is forked (and
 *    reaped) before each, as on a busy machine where some task is created
 *    every second: the read then lists /proc, as a daemon's does there.
 *    Only the reads' CPU time is counted. bench/daemon_cost.sh measures
 *    the daemon itself;
 *  - the seam: the floor walk through kernel_real's function pointers
 *    against the same walk calling libc directly;
 *  - spread window: FullScanInterval 30 s read every (scripted) second, so
 *    each read also walks the thirtieth of the processes whose phase came;
 *    the most expensive read of the window against the floor;
 *  - RSS (VmRSS) before and after BENCH_READS (3000) steady-state reads (each
 * stats every process: about 3 ms with 2000 processes).
 *
 * First on the real /proc, with BENCH_PROCS (2000) helper processes holding
 * BENCH_FDS (30) fds each added. This machine has no GPU, so the real /proc
 * holds no DRM client: that part measures the cost of looking. Then, unless
 * BENCH_DRM=0 (or not root: mknod), on a synthetic tree (tests/lib/
 * fakeproc, under /dev/shm unless TMPDIR is set) of the same size where
 * every tenth process holds one DRM fd, to show the steady state with known
 * clients (RSS there over BENCH_DRM_READS, 2000, reads). Each time is the
 * best of BENCH_RUNS (5) rounds; a round measures floor, full scan and
 * steady read one right after the other (floor and full scan in turns
 * first), so the ratios compare like with like.
 */
#include "bench/bench_util.h"
#include "common/core/kernel.h"
#include "common/core/log.h"
#include "plugins/drm_fdinfo/drm_fdinfo.h"
#include "tests/lib/fakeproc.h"
#include "tests/lib/test_host.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double clock_s(clockid_t id) {
  struct timespec ts;
  clock_gettime(id, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double now_s(void) { return clock_s(CLOCK_MONOTONIC); }

/* This process's CPU time, user + system: what the scan itself costs,
 * less disturbed than wall time by other work on a small machine. */
static double cpu_s(void) { return clock_s(CLOCK_PROCESS_CPUTIME_ID); }

static long env_long(const char *name, long fallback, long min) {
  const char *v = getenv(name);
  char *end;
  if (v == NULL || *v == '\0')
    return fallback;
  errno = 0;
  long n = strtol(v, &end, 10);
  if (errno != 0 || *end != '\0' || n < min) {
    fprintf(stderr, "bench: %s: expected an integer >= %ld, got \"%s\"\n", name,
            min, v);
    exit(2);
  }
  return n;
}

/* The floor: the syscalls any fdinfo scanner has to make. */
static void floor_walk(const char *root, long *procs, long *fds) {
  DIR *proc = opendir(root);
  struct dirent *de;
  *procs = *fds = 0;
  if (proc == NULL)
    return;
  while ((de = readdir(proc)) != NULL) {
    if (de->d_name[0] < '0' || de->d_name[0] > '9')
      continue;
    char path[300];
    snprintf(path, sizeof(path), "%s/fd", de->d_name);
    int dfd = openat(dirfd(proc), path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd < 0)
      continue;
    (*procs)++;
    DIR *fd_dir = fdopendir(dfd);
    if (fd_dir == NULL) {
      close(dfd);
      continue;
    }
    struct dirent *fe;
    while ((fe = readdir(fd_dir)) != NULL) {
      struct stat st;
      if (fe->d_name[0] < '0' || fe->d_name[0] > '9')
        continue;
      (*fds)++;
      (void)fstatat(dfd, fe->d_name, &st, 0);
    }
    closedir(fd_dir);
  }
  closedir(proc);
}

/* The same walk through the kernel seam, as the plugin makes it. */
static void floor_walk_seam(const char *root, long *procs, long *fds) {
  const struct kernel_ops *k = &kernel_real;
  int root_fd = k->open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
  DIR *proc = root_fd >= 0 ? k->fdopendir(root_fd) : NULL;
  struct dirent *de;
  *procs = *fds = 0;
  if (proc == NULL) {
    if (root_fd >= 0)
      k->close(root_fd);
    return;
  }
  while ((de = k->readdir(proc)) != NULL) {
    if (de->d_name[0] < '0' || de->d_name[0] > '9')
      continue;
    char path[300];
    snprintf(path, sizeof(path), "%s/fd", de->d_name);
    int dfd = k->openat(root_fd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
    if (dfd < 0)
      continue;
    (*procs)++;
    DIR *fd_dir = k->fdopendir(dfd);
    if (fd_dir == NULL) {
      k->close(dfd);
      continue;
    }
    struct dirent *fe;
    while ((fe = k->readdir(fd_dir)) != NULL) {
      struct stat st;
      if (fe->d_name[0] < '0' || fe->d_name[0] > '9')
        continue;
      (*fds)++;
      (void)k->fstatat(dfd, fe->d_name, &st, 0);
    }
    k->closedir(fd_dir);
  }
  k->closedir(proc);
}

/* Discards records but keeps what the plugin says about its own scan. */
struct bench_sink {
  struct metric_sink base;
  long processes, fds, fdinfo_reads, clients;
};

static int bench_sink_write(struct metric_sink *s, const struct metric *m) {
  struct bench_sink *b = (struct bench_sink *)s;
  if (strcmp(m->measurement, "drm_scan") != 0)
    return 0;
  for (size_t i = 0; i < m->n_fields; i++) {
    const char *k = m->fields[i].key;
    long v = (long)m->fields[i].v.i;
    if (strcmp(k, "processes") == 0)
      b->processes = v;
    else if (strcmp(k, "fds") == 0)
      b->fds = v;
    else if (strcmp(k, "fdinfo_reads") == 0)
      b->fdinfo_reads = v;
    else if (strcmp(k, "clients") == 0)
      b->clients = v;
  }
  return 0;
}

static struct bench_sink sink = {
    {bench_sink_nop, bench_sink_write, bench_sink_nop}, 0, 0, 0, 0};

/* The scripted monotonic clock of the spread-window instance. */
static uint64_t spread_mono_ns;
static uint64_t spread_mono(void *ctx) {
  (void)ctx;
  return spread_mono_ns;
}
static uint64_t spread_real(void *ctx) {
  (void)ctx;
  return 1700000000000000000ull + spread_mono_ns;
}

/* A drm_fdinfo instance from NULL-terminated key, value pairs, with the
 * host context `host` (NULL: system clocks). */
static void *plugin_start_with(const char *const *kv,
                               const struct plugin_host *host) {
  void *inst = drm_fdinfo_ops.instance_new("bench");
  if (inst == NULL)
    goto fail;
  for (size_t i = 0; kv[i] != NULL; i += 2) {
    struct cfg_value v = {.type = CFG_STRING, .string = kv[i + 1]};
    struct cfg_item item = {kv[i], &v, 1, NULL, 0, 0};
    if (drm_fdinfo_ops.configure(inst, &item) < 0)
      goto fail;
  }
  if (drm_fdinfo_ops.init(inst, host ? host : test_host("drm_fdinfo")) < 0)
    goto fail;
  return inst;
fail:
  fprintf(stderr, "bench: cannot start drm_fdinfo\n");
  exit(1);
}

static void *plugin_start(const char *const *kv) {
  return plugin_start_with(kv, NULL);
}

static double plugin_read(void *inst) {
  double t = now_s();
  if (drm_fdinfo_ops.read(inst, &sink.base) < 0) {
    fprintf(stderr, "bench: drm_fdinfo read failed\n");
    exit(1);
  }
  return now_s() - t;
}

static long rss_kib(void) {
  FILE *f = fopen("/proc/self/status", "r");
  char line[256];
  long kib = -1;
  while (f && fgets(line, sizeof(line), f))
    if (sscanf(line, "VmRSS: %ld kB", &kib) == 1)
      break;
  if (f)
    fclose(f);
  return kib;
}

struct timings {
  double floor, full, steady; /* best wall time of the runs, seconds */
  double cpu_seam;            /* best CPU time of the floor through the seam */
  double spread_max;          /* the window's most expensive read */
  double spread_mean;
  double cpu_floor, cpu_full; /* best CPU time of the runs, seconds */
  long procs, fds;            /* seen by the floor walk */
};

static void keep_best(double *best, double t) {
  if (t < *best)
    *best = t;
}

/* Interleaved rounds of floor walk, full-scan read and steady-state read.
 * Floor and full scan swap places every round: whichever goes second finds
 * the kernel's caches warmer, and neither should get that every time. */
static void measure(const char *root, void *full, void *steady, int runs,
                    struct timings *t) {
  t->floor = t->full = t->steady = t->cpu_floor = t->cpu_full = 1e9;
  t->cpu_seam = 1e9;
  plugin_read(steady); /* priming: the one full scan */
  for (int r = 0; r < runs; r++) {
    long procs, fds;
    double c0 = cpu_s();
    floor_walk_seam(root, &procs, &fds);
    keep_best(&t->cpu_seam, cpu_s() - c0);
    for (int k = 0; k < 2; k++) {
      double c = cpu_s(), s = now_s();
      if ((r + k) % 2 == 0) {
        floor_walk(root, &t->procs, &t->fds);
        keep_best(&t->floor, now_s() - s);
        keep_best(&t->cpu_floor, cpu_s() - c);
      } else {
        keep_best(&t->full, plugin_read(full));
        keep_best(&t->cpu_full, cpu_s() - c);
      }
    }
    keep_best(&t->steady, plugin_read(steady));
  }
}

static void print_timings(const char *prefix, const struct timings *t,
                          int runs) {
  printf("%sbest of %d runs:\n", prefix, runs);
  printf("%s  syscall floor (fd dirs + fstatat)    %10.3f ms\n", prefix,
         t->floor * 1e3);
  printf("%s  full scan (FullScanInterval 0)       %10.3f ms\n", prefix,
         t->full * 1e3);
  printf("%s  steady read (FullScanInterval 3600)  %10.3f ms\n", prefix,
         t->steady * 1e3);
  printf("%sfull_scan_ratio %.3f (target <= 1.10)\n", prefix,
         t->full / t->floor);
  printf("%s  (CPU time: floor %.3f ms, full scan %.3f ms, ratio %.3f)\n",
         prefix, t->cpu_floor * 1e3, t->cpu_full * 1e3,
         t->cpu_full / t->cpu_floor);
  printf("%s  (the floor through the kernel seam: CPU %.3f ms, ratio %.3f to "
         "direct libc calls)\n",
         prefix, t->cpu_seam * 1e3, t->cpu_seam / t->cpu_floor);
  printf("%ssteady_ratio %.5f (target <= 0.05: a read between full walks "
         "that looks at every fd count)\n",
         prefix, t->steady / t->floor);
  printf("%s  spread window (FullScanInterval 30, 30 reads): most expensive "
         "read %.3f ms, mean %.3f ms\n",
         prefix, t->spread_max * 1e3, t->spread_mean * 1e3);
  printf("%sspread_max_ratio %.4f (target <= 0.30)\n", prefix,
         t->spread_max / t->floor);
}

/* One window of FullScanInterval 30 read every scripted second, after a
 * priming read that walks everything: the worst and the mean read. */
static void spread_window(const char *const *kv, struct timings *t) {
  struct plugin_host host;
  plugin_host_init(&host, "bench", 1000000000ull);
  host.clock = (struct plugin_clock){spread_mono, spread_real, NULL};
  spread_mono_ns = 1000000000ull;
  void *inst = plugin_start_with(kv, &host);
  plugin_read(inst);
  double sum = 0;
  t->spread_max = 0;
  for (int i = 1; i <= 30; i++) {
    spread_mono_ns += 1000000000ull;
    double r = plugin_read(inst);
    sum += r;
    if (r > t->spread_max)
      t->spread_max = r;
  }
  t->spread_mean = sum / 30;
  drm_fdinfo_ops.instance_free(inst);
}

/* The default settings read every `interval` scripted seconds over
 * `seconds`, after a priming read: the CPU time of the reads over the
 * scripted time is the daemon's share of one core at that Interval. */
static void daemon_equivalent(const char *prefix, const char *const *kv,
                              const struct timings *t, long seconds) {
  static const unsigned intervals[] = {10, 1};
  for (size_t i = 0; i < 2; i++) {
    struct plugin_host host;
    plugin_host_init(&host, "bench", 1000000000ull);
    host.clock = (struct plugin_clock){spread_mono, spread_real, NULL};
    spread_mono_ns = 1000000000ull;
    void *inst = plugin_start_with(kv, &host);
    plugin_read(inst);
    long reads = seconds / (long)intervals[i];
    long walked = 0, counts_read = 0;
    double c = 0, most = 0;
    for (long r = 0; r < reads; r++) {
      spread_mono_ns += intervals[i] * 1000000000ull;
      pid_t child = fork(); /* a new task: the read lists /proc */
      if (child == 0)
        _exit(0);
      while (child > 0 && waitpid(child, NULL, 0) < 0 && errno == EINTR)
        ;
      double c1 = cpu_s();
      plugin_read(inst);
      double one = cpu_s() - c1;
      c += one;
      if (one > most)
        most = one;
      walked += sink.processes;
      counts_read += sink.fdinfo_reads;
    }
    double share = c / (double)seconds;
    printf("%sdaemon_share_interval_%u %.4f%% of one core (target <= %s): "
           "%ld reads over %ld s, CPU %.1f ms (%.3f ms a read, most %.3f "
           "ms), %ld processes walked, %ld fdinfo reads\n",
           prefix, intervals[i], 100 * share,
           intervals[i] == 10 ? "0.1%" : "0.6%", reads, seconds, c * 1e3,
           c * 1e3 / (double)reads, most * 1e3, walked, counts_read);
    printf("%s  = %.3f full-walk floors (CPU %.3f ms each) per %ld s; a "
           "floor walk every 30 s alone would be %.3f%%\n",
           prefix, c / t->cpu_floor, t->cpu_floor * 1e3, seconds,
           100 * t->cpu_floor / 30.0);
    drm_fdinfo_ops.instance_free(inst);
  }
}

/* RSS before and after `reads` steady-state reads of `inst`, after a
 * warm-up of 1 % of them (first-touch page faults are not growth). */
static void rss_growth(const char *prefix, void *inst, long reads) {
  for (long i = 0; i < reads / 100; i++)
    plugin_read(inst);
  long before = rss_kib();
  double t = now_s();
  for (long i = 0; i < reads; i++)
    plugin_read(inst);
  t = now_s() - t;
  long after = rss_kib();
  printf("%srss %ld KiB before, %ld KiB after %ld steady reads (%.2f s): "
         "growth %ld KiB (%.2f bytes per read)\n",
         prefix, before, after, reads, t, after - before,
         reads > 0 ? (double)(after - before) * 1024.0 / (double)reads : 0.0);
}

/* N helper processes holding M fds each; they leave when `hold` closes. */
struct helpers {
  pid_t *pids;
  long n;
  int hold; /* write end; closing it releases every helper */
};

static int helpers_start(struct helpers *h, long n, long m) {
  int ready[2], hold[2];
  h->pids = calloc((size_t)n + 1, sizeof(*h->pids));
  h->n = 0;
  h->hold = -1;
  if (h->pids == NULL || pipe2(ready, O_CLOEXEC) < 0)
    return -1;
  if (pipe2(hold, O_CLOEXEC) < 0) {
    close(ready[0]);
    close(ready[1]);
    return -1;
  }
  h->hold = hold[1];
  fflush(NULL); /* nothing buffered may be written twice */
  for (long i = 0; i < n; i++) {
    pid_t pid = fork();
    if (pid < 0) {
      perror("bench: fork");
      break;
    }
    if (pid == 0) {
      close(ready[0]);
      close(hold[1]);
      for (long k = 0; k < m; k++)
        if (open("/dev/null", O_RDONLY) < 0)
          break;
      char c = 1;
      if (write(ready[1], &c, 1) != 1)
        _exit(1);
      /* EOF when the parent closes hold[1] or dies: no orphans left. */
      while (read(hold[0], &c, 1) < 0 && errno == EINTR)
        ;
      _exit(0);
    }
    h->pids[h->n++] = pid;
  }
  close(ready[1]);
  close(hold[0]);
  long got = 0;
  while (got < h->n) {
    char buf[256];
    ssize_t r = read(ready[0], buf, sizeof(buf));
    if (r < 0 && errno == EINTR)
      continue;
    if (r <= 0)
      break;
    got += r;
  }
  close(ready[0]);
  return got == n ? 0 : -1;
}

static void helpers_stop(struct helpers *h) {
  if (h->hold >= 0)
    close(h->hold);
  h->hold = -1;
  for (long i = 0; i < h->n; i++)
    while (waitpid(h->pids[i], NULL, 0) < 0 && errno == EINTR)
      ;
  free(h->pids);
  h->pids = NULL;
  h->n = 0;
}

static int real_proc(long n_procs, long n_fds, int runs, long reads,
                     long daemon_s) {
  struct helpers h;
  double t = now_s();
  if (helpers_start(&h, n_procs, n_fds) < 0) {
    fprintf(stderr, "bench: only %ld of %ld helpers started\n", h.n, n_procs);
    helpers_stop(&h);
    return -1;
  }
  printf("real /proc: %ld helper processes x %ld fds started in %.1f s\n", h.n,
         n_fds, now_s() - t);
  const char *const full_kv[] = {"ProcRoot", "/proc",      "FullScanInterval",
                                 "0",        "UseDebugfs", "false",
                                 NULL};
  const char *const steady_kv[] = {
      "ProcRoot",   "/proc",           "FullScanInterval",
      "3600",       "FdCountInterval", "0",
      "UseDebugfs", "false",           NULL};
  const char *const default_kv[] = {"ProcRoot", "/proc", NULL};
  const char *const spread_kv[] = {"ProcRoot", "/proc",      "FullScanInterval",
                                   "30",       "UseDebugfs", "false",
                                   NULL};
  void *full = plugin_start(full_kv);
  void *steady = plugin_start(steady_kv);
  struct timings tm;
  measure("/proc", full, steady, runs, &tm);
  spread_window(spread_kv, &tm);
  plugin_read(full);
  printf("  present in /proc during the run: %ld processes, %ld fds\n",
         tm.procs, tm.fds);
  printf("  the plugin's full scan saw %ld processes, %ld fds, %ld DRM "
         "clients (%ld fdinfo reads)\n",
         sink.processes, sink.fds, sink.clients, sink.fdinfo_reads);
  printf("  no GPU on this machine: no DRM clients in the real /proc, so "
         "this is the cost of looking\n  (and a steady read has no known "
         "client to re-read: next to nothing to do)\n");
  print_timings("  ", &tm, runs);
  daemon_equivalent("  ", default_kv, &tm, daemon_s);
  drm_fdinfo_ops.instance_free(full);
  rss_growth("  ", steady, reads);
  drm_fdinfo_ops.instance_free(steady);
  helpers_stop(&h);
  return 0;
}

/* The same on a synthetic tree where every tenth process holds one DRM fd
 * (an xe render node): the steady state then re-reads those fds only. */
static int synthetic(long n_procs, long n_fds, int runs, long reads) {
  if (!fakeproc_can_mknod()) {
    printf("synthetic tree with DRM clients: skipped (mknod needs root)\n");
    return 0;
  }
  /* On a memory filesystem, like /proc itself; on disk the 60000 links
   * alone take longer to create than the whole measurement. */
  struct stat st;
  if (getenv("TMPDIR") == NULL && stat("/dev/shm", &st) == 0 &&
      S_ISDIR(st.st_mode) && access("/dev/shm", W_OK) == 0)
    setenv("TMPDIR", "/dev/shm", 0);
  struct fakeproc fp;
  double t = now_s();
  if (fakeproc_init(&fp) < 0 ||
      fakeproc_device(&fp, 226, 128, "renderD128", "0000:03:00.0", "xe") < 0) {
    fprintf(stderr, "bench: cannot build the synthetic tree\n");
    return -1;
  }
  /* Other fds are bare links to one regular file: neither the floor nor
   * the plugin reads their fdinfo, and 60000 more files would make the
   * tree take longer to build than the whole measurement. */
  char regular[400];
  snprintf(regular, sizeof(regular), "%s/regular", fp.root);
  if (fakeproc_write(&fp, "regular", "not a device\n") < 0)
    goto fail;
  long clients = 0;
  for (long p = 0; p < n_procs; p++) {
    char comm[32], text[256], path[400];
    pid_t pid = (pid_t)(1000 + p);
    snprintf(comm, sizeof(comm), "app%ld", p);
    if (fakeproc_process(&fp, pid, comm, NULL) < 0)
      goto fail;
    for (long k = 0; k < n_fds; k++) {
      int fd = (int)(3 + k);
      if (k == 0 && p % 10 == 0) {
        snprintf(text, sizeof(text),
                 "drm-driver: xe\ndrm-client-id: %ld\n"
                 "drm-cycles-rcs: 5\ndrm-total-cycles-rcs: 9\n"
                 "drm-total-vram0: 64 MiB\n",
                 p);
        if (fakeproc_fd(&fp, pid, fd, "renderD128", text) < 0)
          goto fail;
        clients++;
        continue;
      }
      snprintf(path, sizeof(path), "%s/%d/fd/%d", fp.proc, (int)pid, fd);
      if (symlink(regular, path) < 0)
        goto fail;
    }
  }
  printf("synthetic tree under %s (tests/lib/fakeproc, built in %.1f s): "
         "%ld processes x %ld fds, every tenth process holds one DRM fd\n",
         fp.root, now_s() - t, n_procs, n_fds);
  const char *const full_kv[] = {
      "ProcRoot",         fp.proc,  "SysfsRoot",  fp.sys,
      "FullScanInterval", "0",      "UseDebugfs", "false",
      "MaxClients",       "100000", NULL};
  const char *const steady_kv[] = {"ProcRoot",
                                   fp.proc,
                                   "SysfsRoot",
                                   fp.sys,
                                   "FullScanInterval",
                                   "3600",
                                   "FdCountInterval",
                                   "0",
                                   "UseDebugfs",
                                   "false",
                                   "MaxClients",
                                   "100000",
                                   NULL};
  const char *const spread_kv[] = {
      "ProcRoot",         fp.proc,  "SysfsRoot",  fp.sys,
      "FullScanInterval", "30",     "UseDebugfs", "false",
      "MaxClients",       "100000", NULL};
  void *full = plugin_start(full_kv);
  void *steady = plugin_start(steady_kv);
  struct timings tm;
  measure(fp.proc, full, steady, runs, &tm);
  spread_window(spread_kv, &tm);
  plugin_read(steady);
  printf("  present in the tree: %ld processes, %ld fds, %ld DRM clients\n",
         tm.procs, tm.fds, clients);
  printf("  the plugin's steady read knows %ld DRM clients (%ld fdinfo "
         "reads per read)\n",
         sink.clients, sink.fdinfo_reads);
  print_timings("  ", &tm, runs);
  drm_fdinfo_ops.instance_free(full);
  rss_growth("  ", steady, reads);
  drm_fdinfo_ops.instance_free(steady);
  fakeproc_fini(&fp);
  return 0;
fail:
  fprintf(stderr, "bench: cannot build the synthetic tree\n");
  fakeproc_fini(&fp);
  return -1;
}

int main(void) {
  long n_procs = env_long("BENCH_PROCS", bench_count(2000, 20), 0);
  long n_fds = env_long("BENCH_FDS", bench_count(30, 4), 0);
  int runs = (int)env_long("BENCH_RUNS", bench_count(5, 1), 1);
  long reads = env_long("BENCH_READS", bench_count(3000, 5), 0);
  long drm_reads = env_long("BENCH_DRM_READS", bench_count(2000, 5), 0);
  bool drm = env_long("BENCH_DRM", 1, 0) != 0;

  log_set_sink(NULL, LOG_LEVEL_WARNING); /* no init chatter */
  {
    /* which new-client detection the real /proc allows (FdCount auto) */
    const char *const kv[] = {"ProcRoot", "/proc", "UseDebugfs", "false", NULL};
    log_set_sink(NULL, LOG_LEVEL_INFO);
    drm_fdinfo_ops.instance_free(plugin_start(kv));
    log_set_sink(NULL, LOG_LEVEL_WARNING);
  }
  printf("drm_fdinfo scan cost, %ld CPUs\n", sysconf(_SC_NPROCESSORS_ONLN));
  long daemon_s = env_long("BENCH_DAEMON_SECONDS", bench_count(3600, 20), 10);
  int rc = real_proc(n_procs, n_fds, runs, reads, daemon_s);
  if (rc == 0 && drm)
    rc = synthetic(n_procs, n_fds, runs, drm_reads);
  return rc == 0 ? 0 : 1;
}
