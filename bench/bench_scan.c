/*
 * bench_scan.c: what a drm_fdinfo read costs on a real /proc, against the
 * cheapest possible walk of the same /proc (the "syscall floor": opendir
 * /proc, and for every process open /proc/<pid>/fd and fstatat() each
 * entry, nothing else).
 *
 * N helper processes holding M fds each are added first (BENCH_PROCS,
 * BENCH_FDS; 2000 x 30 by default). Times are the best of BENCH_RUNS runs
 * (5), measured in one process one after the other, so the ratios compare
 * like with like. This machine has no GPU: the scan finds no DRM clients,
 * which is what is measured (the cost of looking).
 */
#include "plugins/drm_fdinfo/drm_fdinfo.h"
#include "tests/lib/fakeproc.h"

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

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static long env_long(const char *name, long fallback) {
  const char *v = getenv(name);
  return v && *v ? strtol(v, NULL, 10) : fallback;
}

/* The floor: the syscalls any fdinfo scanner has to make. */
static void floor_walk(const char *root, long *procs, long *fds) {
  DIR *proc = opendir(root);
  struct dirent *de;
  *procs = *fds = 0;
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
    struct dirent *fe;
    while ((fe = readdir(fd_dir)) != NULL) {
      struct stat st;
      if (fe->d_name[0] >= '0' && fe->d_name[0] <= '9' &&
          fstatat(dfd, fe->d_name, &st, 0) == 0)
        (*fds)++;
    }
    closedir(fd_dir);
  }
  closedir(proc);
}

static int nop(struct metric_sink *s) {
  (void)s;
  return 0;
}
static int discard(struct metric_sink *s, const struct metric *m) {
  (void)s;
  (void)m;
  return 0;
}
static struct metric_sink sink = {nop, discard, nop};

static void plugin_set(void *inst, const char *key, const char *value) {
  struct cfg_value v = {.type = CFG_STRING, .string = value};
  struct cfg_item item = {key, &v, 1, NULL, 0};
  if (drm_fdinfo_ops.configure(inst, &item) < 0)
    exit(1);
}

static void *plugin_new(const char *full_scan_interval) {
  void *inst = drm_fdinfo_ops.instance_new("bench");
  struct cfg_value v = {.type = CFG_STRING, .string = full_scan_interval};
  struct cfg_item item = {"FullScanInterval", &v, 1, NULL, 0};
  struct cfg_value no = {.type = CFG_STRING, .string = "false"};
  struct cfg_item debugfs = {"UseDebugfs", &no, 1, NULL, 0};
  if (inst == NULL || drm_fdinfo_ops.configure(inst, &item) < 0 ||
      drm_fdinfo_ops.configure(inst, &debugfs) < 0 ||
      drm_fdinfo_ops.init(inst) < 0) {
    fprintf(stderr, "bench: cannot start drm_fdinfo\n");
    exit(1);
  }
  return inst;
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

/*
 * The same comparison on a synthetic tree where every tenth process holds
 * one DRM client: the steady state then re-reads known fds only. Needs
 * root (mknod); skipped otherwise.
 */
static void synthetic(long n_procs, long n_fds, int runs) {
  if (!fakeproc_can_mknod()) {
    printf("synthetic tree with DRM clients: skipped (needs root for "
           "mknod)\n");
    return;
  }
  struct fakeproc fp;
  if (fakeproc_init(&fp) < 0 ||
      fakeproc_device(&fp, 226, 128, "renderD128", "0000:03:00.0", "xe") < 0)
    return;
  char fdinfo[256];
  long clients = 0;
  for (long p = 0; p < n_procs; p++) {
    char comm[32];
    snprintf(comm, sizeof(comm), "app%ld", p);
    fakeproc_process(&fp, (pid_t)(1000 + p), comm, NULL);
    for (long k = 0; k < n_fds; k++) {
      bool drm = k == 0 && p % 10 == 0;
      snprintf(fdinfo, sizeof(fdinfo),
               drm ? "drm-driver: xe\ndrm-client-id: %ld\n"
                     "drm-cycles-rcs: 5\ndrm-total-cycles-rcs: 9\n"
                   : "pos: %ld\n",
               p);
      fakeproc_fd(&fp, (pid_t)(1000 + p), (int)(3 + k),
                  drm ? "renderD128" : NULL, fdinfo);
      clients += drm;
    }
  }
  long procs, fds;
  double floor_best = 1e9, steady_best = 1e9, full_best = 1e9;
  for (int r = 0; r < runs; r++) {
    double t = now_s();
    floor_walk(fp.proc, &procs, &fds);
    t = now_s() - t;
    if (t < floor_best)
      floor_best = t;
  }
  void *inst = drm_fdinfo_ops.instance_new("bench");
  plugin_set(inst, "ProcRoot", fp.proc);
  plugin_set(inst, "SysfsRoot", fp.sys);
  plugin_set(inst, "DebugfsRoot", fp.debug);
  plugin_set(inst, "FullScanInterval", "3600");
  plugin_set(inst, "MaxClients", "100000");
  if (drm_fdinfo_ops.init(inst) < 0)
    exit(1);
  for (int r = 0; r < runs; r++) {
    double t = now_s();
    if (r == 0) {
      drm_fdinfo_ops.read(inst, &sink); /* full scan */
      t = now_s() - t;
      full_best = t;
      continue;
    }
    drm_fdinfo_ops.read(inst, &sink);
    t = now_s() - t;
    if (t < steady_best)
      steady_best = t;
  }
  drm_fdinfo_ops.instance_free(inst);
  fakeproc_fini(&fp);
  printf("synthetic tree: %ld processes, %ld fds, %ld DRM clients\n", procs,
         fds, clients);
  printf("  syscall floor %.3f ms, first full scan %.3f ms, steady-state "
         "read %.3f ms\n",
         floor_best * 1e3, full_best * 1e3, steady_best * 1e3);
  printf("  synthetic full_scan_ratio %.3f, steady_ratio %.4f (target <= "
         "0.10)\n",
         full_best / floor_best, steady_best / floor_best);
}

int main(void) {
  long n_procs = env_long("BENCH_PROCS", 2000);
  long n_fds = env_long("BENCH_FDS", 30);
  int runs = (int)env_long("BENCH_RUNS", 5);
  long reads = env_long("BENCH_READS", 100000);

  /* Helpers: open M fds, say ready, wait for the parent to go away. */
  int ready[2], hold[2];
  if (pipe(ready) < 0 || pipe(hold) < 0)
    return 1;
  pid_t *kids = calloc((size_t)n_procs, sizeof(*kids));
  for (long i = 0; i < n_procs; i++) {
    kids[i] = fork();
    if (kids[i] < 0) {
      perror("bench: fork");
      n_procs = i;
      break;
    }
    if (kids[i] == 0) {
      close(ready[0]);
      close(hold[1]);
      for (long k = 0; k < n_fds; k++)
        if (open("/dev/null", O_RDONLY) < 0)
          break;
      char c = 1;
      if (write(ready[1], &c, 1) != 1)
        _exit(1);
      (void)read(hold[0], &c, 1); /* EOF when the parent closes hold[1] */
      _exit(0);
    }
  }
  close(ready[1]);
  close(hold[0]);
  for (long got = 0; got < n_procs;) {
    char buf[256];
    ssize_t n = read(ready[0], buf, sizeof(buf));
    if (n <= 0)
      break;
    got += n;
  }

  long procs = 0, fds = 0;
  double floor_best = 1e9, full_best = 1e9, steady_best = 1e9;
  for (int r = 0; r < runs; r++) {
    double t = now_s();
    floor_walk("/proc", &procs, &fds);
    t = now_s() - t;
    if (t < floor_best)
      floor_best = t;
  }
  void *full = plugin_new("0");
  for (int r = 0; r < runs; r++) {
    double t = now_s();
    drm_fdinfo_ops.read(full, &sink);
    t = now_s() - t;
    if (t < full_best)
      full_best = t;
  }
  drm_fdinfo_ops.instance_free(full);
  void *steady = plugin_new("3600");
  drm_fdinfo_ops.read(steady, &sink); /* the one full scan */
  for (int r = 0; r < runs; r++) {
    double t = now_s();
    drm_fdinfo_ops.read(steady, &sink);
    t = now_s() - t;
    if (t < steady_best)
      steady_best = t;
  }
  long rss_before = rss_kib();
  for (long i = 0; i < reads; i++)
    drm_fdinfo_ops.read(steady, &sink);
  long rss_after = rss_kib();
  drm_fdinfo_ops.instance_free(steady);

  close(hold[1]);
  for (long i = 0; i < n_procs; i++)
    waitpid(kids[i], NULL, 0);
  free(kids);
  synthetic(n_procs, n_fds, runs);

  printf("processes in /proc during the run: %ld, fds: %ld "
         "(%ld helpers x %ld fds added; no DRM clients on this machine)\n",
         procs, fds, n_procs, n_fds);
  printf("syscall floor (walk fd dirs, fstatat each fd): %9.3f ms\n",
         floor_best * 1e3);
  printf("drm_fdinfo full scan:                          %9.3f ms\n",
         full_best * 1e3);
  printf("drm_fdinfo steady-state read:                  %9.3f ms\n",
         steady_best * 1e3);
  printf("full_scan_ratio %.3f (target <= 1.10)\n", full_best / floor_best);
  printf("steady_ratio %.5f (target <= 0.10)\n", steady_best / floor_best);
  printf("rss before %ld KiB, after %ld steady reads %ld KiB (growth %ld "
         "KiB)\n",
         rss_before, reads, rss_after, rss_after - rss_before);
  return 0;
}
