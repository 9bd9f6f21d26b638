/*
 * bench_prom.c: what a /metrics scrape of drm_fdinfo costs against the
 * plugin's own read, on a synthetic tree (tests/lib/fakeproc, under
 * /dev/shm unless TMPDIR is set) of BENCH_PROCS (2000) processes x
 * BENCH_FDS (30) fds where every tenth process holds one DRM fd (200 DRM
 * clients):
 *
 *  - read: drm_fdinfo's read into a sink that drops every record (the
 *    plugin's own cost, default settings but UseDebugfs false);
 *  - read + exposition: the same read into sink_prom, end() included
 *    (grouping, sorting, rendering the text): what --listen does every
 *    interval and --format=prometheus every batch;
 *  - publish: prom_http_publish (one copy of the text, one shared
 *    libmicrohttpd response): what --listen adds per pass; a scrape then
 *    sends that response without copying it, so nothing is added per
 *    scrape in our code;
 *  - a real scrape over loopback (GET /metrics through the server thread,
 *    every byte read; both ends and the kernel), printed apart: it is the
 *    cost of HTTP, not of the exporter's formatting.
 *
 * CPU time of this process, best of BENCH_RUNS (5) rounds, each round the
 * read and the read + exposition back to back. The verdict line gives
 * (read + exposition + publish + scrape) / read; the bound is "at
 * most the read plus formatting", i.e. a ratio near 1 + the formatting
 * share, never a second read. Needs root (mknod); says so and exits 0
 * otherwise.
 */
#include "bench/bench_util.h"
#include "common/core/log.h"
#include "common/http/prom_http.h"
#include "common/sink/sink_prom.h"
#include "plugins/drm_fdinfo/drm_fdinfo.h"
#include "tests/lib/fakeproc.h"
#include "tests/lib/test_host.h"

#include <arpa/inet.h>
#include <errno.h>
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

static int count_begin(struct metric_sink *s) {
  (void)s;
  return 0;
}
static long records;
static int count_write(struct metric_sink *s, const struct metric *m) {
  (void)s;
  (void)m;
  records++;
  return 0;
}
static struct metric_sink discard = {count_begin, count_write, count_begin};

/* A free loopback port (bound to 0 and released). */
static int free_port(void) {
  struct sockaddr_in a = {.sin_family = AF_INET};
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof(a);
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0 || bind(fd, (struct sockaddr *)&a, len) < 0 ||
      getsockname(fd, (struct sockaddr *)&a, &len) < 0) {
    fprintf(stderr, "bench: no loopback port\n");
    exit(1);
  }
  close(fd);
  return ntohs(a.sin_port);
}

/* One scrape: GET /metrics over loopback, every byte read; the bytes. */
static size_t scrape(int port) {
  int s = socket(AF_INET, SOCK_STREAM, 0);
  struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(port)};
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  static const char req[] = "GET /metrics HTTP/1.0\r\n\r\n";
  size_t total = 0;
  if (s >= 0 && connect(s, (struct sockaddr *)&a, sizeof(a)) == 0 &&
      write(s, req, sizeof(req) - 1) == (ssize_t)sizeof(req) - 1) {
    char buf[65536];
    ssize_t n;
    while ((n = read(s, buf, sizeof(buf))) > 0)
      total += (size_t)n;
  }
  if (s >= 0)
    close(s);
  return total;
}

static void *start(const struct fakeproc *fp) {
  const char *const kv[] = {"ProcRoot",   fp->proc, "SysfsRoot", fp->sys,
                            "UseDebugfs", "false",  NULL};
  void *inst = drm_fdinfo_ops.instance_new("bench");
  for (size_t i = 0; inst != NULL && kv[i] != NULL; i += 2) {
    struct cfg_value v = {.type = CFG_STRING, .string = kv[i + 1]};
    struct cfg_item item = {kv[i], &v, 1, NULL, 0, 0};
    if (drm_fdinfo_ops.configure(inst, &item) < 0)
      inst = NULL;
  }
  if (inst == NULL || drm_fdinfo_ops.init(inst, test_host("drm_fdinfo")) < 0) {
    fprintf(stderr, "bench: cannot start drm_fdinfo\n");
    exit(1);
  }
  return inst;
}

static double timed_read(void *inst, struct metric_sink *sink) {
  double t = cpu_s();
  sink->begin(sink);
  if (drm_fdinfo_ops.read(inst, sink) < 0 || sink->end(sink) < 0) {
    fprintf(stderr, "bench: drm_fdinfo read failed\n");
    exit(1);
  }
  return cpu_s() - t;
}

int main(void) {
  long n_procs = env_long("BENCH_PROCS", bench_count(2000, 20), 1);
  long n_fds = env_long("BENCH_FDS", bench_count(30, 4), 1);
  int runs = (int)env_long("BENCH_RUNS", bench_count(5, 1), 1);
  log_set_sink(NULL, LOG_LEVEL_ERROR);
  if (!fakeproc_can_mknod()) {
    printf("bench_prom: skipped (mknod of the DRM node needs root)\n");
    return 0;
  }
  struct stat st;
  if (getenv("TMPDIR") == NULL && stat("/dev/shm", &st) == 0 &&
      S_ISDIR(st.st_mode) && access("/dev/shm", W_OK) == 0)
    setenv("TMPDIR", "/dev/shm", 0);
  struct fakeproc fp;
  if (fakeproc_init(&fp) < 0 ||
      fakeproc_device(&fp, 226, 128, "renderD128", "0000:03:00.0", "xe") < 0 ||
      fakeproc_write(&fp, "regular", "not a device\n") < 0) {
    fprintf(stderr, "bench: cannot build the synthetic tree\n");
    return 1;
  }
  char regular[400];
  snprintf(regular, sizeof(regular), "%s/regular", fp.root);
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
                 "drm-cycles-rcs: %ld\ndrm-total-cycles-rcs: 9000\n"
                 "drm-cycles-bcs: 3\ndrm-total-cycles-bcs: 9000\n"
                 "drm-total-vram0: 64 MiB\ndrm-resident-vram0: 32 MiB\n",
                 p, p);
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
  printf("synthetic tree: %ld processes x %ld fds, %ld DRM clients\n", n_procs,
         n_fds, clients);

  void *inst = start(&fp);
  struct sink_prom prom;
  sink_prom_init(&prom, NULL);
  struct prom_http http;
  char addr[32], err[200];
  int port = free_port();
  snprintf(addr, sizeof(addr), "127.0.0.1:%d", port);
  if (prom_http_start(&http, "bench", addr, err, sizeof(err)) < 0) {
    fprintf(stderr, "bench: %s\n", err);
    return 1;
  }
  timed_read(inst, &discard); /* prime: rates need a previous read */
  double best_read = 1e9, best_prom = 1e9, best_copy = 1e9, best_get = 1e9;
  for (int r = 0; r < runs; r++) {
    records = 0;
    double a = timed_read(inst, &discard);
    double b = timed_read(inst, &prom.base);
    size_t len;
    const char *text = sink_prom_text(&prom, &len);
    double t = cpu_s();
    prom_http_publish(&http, text, len);
    double c = cpu_s() - t;
    t = cpu_s();
    if (scrape(port) < len) {
      fprintf(stderr, "bench: the scrape came back short\n");
      return 1;
    }
    double g = cpu_s() - t;
    best_get = g < best_get ? g : best_get;
    best_read = a < best_read ? a : best_read;
    best_prom = b < best_prom ? b : best_prom;
    best_copy = c < best_copy ? c : best_copy;
  }
  size_t len;
  sink_prom_text(&prom, &len);
  printf("records per read: %ld; exposition: %zu bytes, %zu samples\n", records,
         len, prom.n_samples);
  printf("read:                     %8.3f ms CPU (best of %d)\n",
         best_read * 1e3, runs);
  printf("read + exposition:        %8.3f ms CPU (formatting %.3f ms)\n",
         best_prom * 1e3, (best_prom - best_read) * 1e3);
  printf("publish:                  %8.3f ms CPU (one copy, one shared "
         "response)\n",
         best_copy * 1e3);
  printf("loopback scrape:          %8.3f ms CPU (one GET, both ends; not in "
         "the ratio)\n",
         best_get * 1e3);
  printf("scrape cost / read:       %8.2f  ((read + exposition + publish) / "
         "read; 1.00 is the read alone)\n",
         (best_prom + best_copy) / best_read);
  prom_http_stop(&http);
  sink_prom_fini(&prom);
  drm_fdinfo_ops.instance_free(inst);
  fakeproc_fini(&fp);
  return 0;
fail:
  fprintf(stderr, "bench: cannot build the synthetic tree\n");
  fakeproc_fini(&fp);
  return 1;
}
