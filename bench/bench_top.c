/*
 * bench_top.c: what the --format=top view adds to one refresh of
 * drm_fdinfo, against the syscall floor of a full /proc walk.
 *
 * A synthetic tree (tests/lib/fakeproc, under /dev/shm unless TMPDIR is
 * set; needs root for mknod) of BENCH_PROCS (2000) processes with
 * BENCH_FDS (30) fds each, every tenth process holding one DRM fd (200
 * clients). drm_fdinfo reports Device, Process and Client. One refresh of
 * the view is the plugin's read into the view's model plus the layout of
 * one screen (top_render, 200 columns, every row, with the USER column's
 * stat of each row's /proc/<pid>); the view's share is the time spent
 * inside the model's sink calls (timed per call) plus the layout, not the
 * plugin's own read. It is set against the floor: opendir
 * the proc root, and for every process open <pid>/fd and fstatat() each
 * entry (what any fdinfo scanner has to do at least; bench_scan.c's
 * floor). Best of BENCH_RUNS (5) rounds, CPU time of this process.
 * Target: view / floor <= 0.05.
 */
#include "bench/bench_util.h"
#include "common/core/log.h"
#include "common/top/top_model.h"
#include "common/top/top_screen.h"
#include "common/top/top_view.h"
#include "plugins/drm_fdinfo/drm_fdinfo.h"
#include "tests/lib/fakeproc.h"
#include "tests/lib/test_host.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static double cpu_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

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

/* The view's model behind a sink that times every call into it. */
struct timed_sink {
  struct metric_sink base;
  struct top_model *model;
  double spent; /* CPU seconds inside the model */
  long records;
};

static int timed_begin(struct metric_sink *s) {
  struct timed_sink *t = (struct timed_sink *)s;
  double c = cpu_s();
  int rc = t->model->base.begin(&t->model->base);
  t->spent += cpu_s() - c;
  return rc;
}

static int timed_write(struct metric_sink *s, const struct metric *m) {
  struct timed_sink *t = (struct timed_sink *)s;
  double c = cpu_s();
  int rc = t->model->base.write(&t->model->base, m);
  t->spent += cpu_s() - c;
  t->records++;
  return rc;
}

/* end() joins the devices and feeds the charts' history: the view's too */
static int timed_end(struct metric_sink *s) {
  struct timed_sink *t = (struct timed_sink *)s;
  double c = cpu_s();
  int rc = t->model->base.end(&t->model->base);
  t->spent += cpu_s() - c;
  return rc;
}

static void *plugin_start(const char *const *kv) {
  void *inst = drm_fdinfo_ops.instance_new("bench");
  if (inst == NULL)
    goto fail;
  for (size_t i = 0; kv[i] != NULL; i += 2) {
    struct cfg_value v = {.type = CFG_STRING, .string = kv[i + 1]};
    struct cfg_item item = {kv[i], &v, 1, NULL, 0, 0};
    if (drm_fdinfo_ops.configure(inst, &item) < 0)
      goto fail;
  }
  if (drm_fdinfo_ops.init(inst, test_host("drm_fdinfo")) < 0)
    goto fail;
  return inst;
fail:
  fprintf(stderr, "bench: cannot start drm_fdinfo\n");
  exit(1);
}

static int build_tree(struct fakeproc *fp, long n_procs, long n_fds,
                      long *clients) {
  if (fakeproc_init(fp) < 0 ||
      fakeproc_device(fp, 226, 128, "renderD128", "0000:03:00.0", "xe") < 0 ||
      fakeproc_write(fp, "regular", "not a device\n") < 0)
    return -1;
  char regular[400];
  snprintf(regular, sizeof(regular), "%s/regular", fp->root);
  *clients = 0;
  for (long p = 0; p < n_procs; p++) {
    char comm[32], text[256], path[400];
    pid_t pid = (pid_t)(1000 + p);
    snprintf(comm, sizeof(comm), "app%ld", p);
    if (fakeproc_process(fp, pid, comm, NULL) < 0)
      return -1;
    for (long k = 0; k < n_fds; k++) {
      int fd = (int)(3 + k);
      if (k == 0 && p % 10 == 0) {
        snprintf(text, sizeof(text),
                 "drm-driver: xe\ndrm-client-id: %ld\n"
                 "drm-cycles-rcs: %ld\ndrm-total-cycles-rcs: 1000\n"
                 "drm-total-vram0: 64 MiB\n",
                 p, p % 1000);
        if (fakeproc_fd(fp, pid, fd, "renderD128", text) < 0)
          return -1;
        (*clients)++;
        continue;
      }
      snprintf(path, sizeof(path), "%s/%d/fd/%d", fp->proc, (int)pid, fd);
      if (symlink(regular, path) < 0)
        return -1;
    }
  }
  return 0;
}

int main(void) {
  long n_procs = env_long("BENCH_PROCS", bench_count(2000, 20), 1);
  long n_fds = env_long("BENCH_FDS", bench_count(30, 4), 1);
  int runs = (int)env_long("BENCH_RUNS", bench_count(5, 1), 1);
  log_set_sink(NULL, LOG_LEVEL_WARNING);
  printf("top view cost per refresh, drm_fdinfo\n");
  if (!fakeproc_can_mknod()) {
    printf("  skipped: the synthetic tree needs root (mknod)\n");
    return 0;
  }
  struct stat st;
  if (getenv("TMPDIR") == NULL && stat("/dev/shm", &st) == 0 &&
      S_ISDIR(st.st_mode) && access("/dev/shm", W_OK) == 0)
    setenv("TMPDIR", "/dev/shm", 0);
  struct fakeproc fp;
  long clients = 0;
  if (build_tree(&fp, n_procs, n_fds, &clients) < 0) {
    fprintf(stderr, "bench: cannot build the synthetic tree\n");
    fakeproc_fini(&fp);
    return 1;
  }
  const char *const kv[] = {"ProcRoot",   fp.proc,  "SysfsRoot",  fp.sys,
                            "ReportBy",   "Device", "ReportBy",   "Process",
                            "ReportBy",   "Client", "UseDebugfs", "false",
                            "MaxClients", "100000", NULL};
  void *inst = plugin_start(kv);
  struct top_model model;
  top_model_init(&model);
  struct timed_sink sink = {
      {timed_begin, timed_write, timed_end}, &model, 0, 0};
  struct top_options o;
  top_options_init(&o);
  o.cols = 200;
  struct top_view_users users = {.proc_root = fp.proc};
  o.user_name = top_view_user; /* a stat per row on the screen */
  o.user_ctx = &users;
  /* each read a batch, begin() to end(), as the hosts make it */
  sink.base.begin(&sink.base);
  drm_fdinfo_ops.read(inst, &sink.base); /* the baseline of every client */
  sink.base.end(&sink.base);
  double best_floor = 1e9, best_view = 1e9, best_read = 1e9;
  long procs = 0, fds = 0;
  size_t lines = 0;
  for (int r = 0; r < runs; r++) {
    double c = cpu_s();
    floor_walk(fp.proc, &procs, &fds);
    double f = cpu_s() - c;
    sink.spent = 0;
    sink.records = 0;
    c = cpu_s();
    sink.base.begin(&sink.base);
    drm_fdinfo_ops.read(inst, &sink.base);
    sink.base.end(&sink.base);
    double read = cpu_s() - c;
    double l = cpu_s();
    struct top_screen screen;
    memset(&screen, 0, sizeof(screen));
    if (top_render(&model, &o, &screen) < 0) {
      fprintf(stderr, "bench: top_render: out of memory\n");
      return 1;
    }
    double view = sink.spent + (cpu_s() - l);
    lines = screen.n;
    top_screen_fini(&screen);
    if (f < best_floor)
      best_floor = f;
    if (view < best_view)
      best_view = view;
    if (read < best_read)
      best_read = read;
  }
  printf("  tree: %ld processes x %ld fds (%ld seen by the floor walk, %ld "
         "fds), %ld DRM clients\n",
         n_procs, n_fds, procs, fds, clients);
  printf("  one refresh: %ld records, %zu screen lines\n", sink.records, lines);
  printf("  syscall floor (fd dirs + fstatat)       %10.3f ms CPU\n",
         best_floor * 1e3);
  printf("  plugin read (its own cost, incl. sink)  %10.3f ms CPU\n",
         best_read * 1e3);
  printf("  view: model sink calls + layout         %10.3f ms CPU\n",
         best_view * 1e3);
  printf("view_ratio %.4f (target <= 0.05: the view adds formatting, not "
         "scans)\n",
         best_view / best_floor);
  drm_fdinfo_ops.instance_free(inst);
  top_model_fini(&model);
  fakeproc_fini(&fp);
  return 0;
}
