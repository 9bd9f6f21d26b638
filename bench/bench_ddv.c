/*
 * bench_ddv.c: drm_device's read of one device.
 *
 *  - CPU time per plugin read of one device on a fixture tree in /tmp,
 *    best of 5 runs of 2000 reads, records to a discarding sink: an xe
 *    device with two GTs and hwmon (the most attributes: 50), and an
 *    amdgpu dGPU with hwmon and a gpu_metrics table to decode (the most
 *    records);
 *  - read()/pread() calls per attribute and read, and opens after the
 *    first read (attributes stay open), through a counting kernel seam;
 *  - allocations during those reads, after the first.
 * The plugin's clock is the bench's: it stands still during those reads,
 * so they are the read path alone (no look at the class directories, the
 * frequency limits not due); then 200 reads 1 s apart, as a 1 s interval
 * gives them, report what the looks (at most every second read) and the
 * limits (once a minute) add, and the allocations of a look (its DIR).
 * The xe device once more with power/control "auto" and a 10 s delay: after
 * its first two reads every read reports the values it holds (ddv_read.c),
 * reading only what takes no runtime-PM reference.
 * Targets: <= 50 us of CPU per device read, 1 read() per attribute, 0
 * allocations on the read path. Exits 1 when a target is missed.
 */
#include "bench/bench_util.h"
#include "plugins/drm_device/drm_device.h"
#include "tests/lib/ddv_tree.h"

#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static long opens, reads;
static bool read_fd[4096]; /* fds read from: the attributes */

static int count_openat(int dirfd, const char *path, int flags, mode_t mode) {
  if (!(flags & O_DIRECTORY))
    opens++;
  return kernel_real.openat(dirfd, path, flags, mode);
}
static ssize_t count_read(int fd, void *buf, size_t len) {
  reads++;
  if (fd >= 0 && fd < 4096)
    read_fd[fd] = true;
  return kernel_real.read(fd, buf, len);
}
static ssize_t count_pread(int fd, void *buf, size_t len, off_t off) {
  reads++;
  if (fd >= 0 && fd < 4096)
    read_fd[fd] = true;
  return kernel_real.pread(fd, buf, len, off);
}

static uint64_t bench_mono_ns = 1000000000ull;
static uint64_t bench_mono(void *ctx) {
  (void)ctx;
  return bench_mono_ns;
}
static uint64_t bench_real(void *ctx) {
  (void)ctx;
  return 1700000000ull * 1000000000ull + bench_mono_ns;
}

static double cpu_now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int bench_fixture(const char *fixture, const char *what,
                         const char *auto_node) {
  struct ddv_tree t;
  opens = reads = 0;
  if (ddv_tree_init(&t, NULL) < 0 || ddv_tree_fixture(&t, fixture) < 0 ||
      (auto_node != NULL &&
       ddv_tree_autosuspend(&t, auto_node, "auto", 10000) < 0)) {
    fprintf(stderr, "bench_ddv: cannot build the fixture tree\n");
    return 1;
  }
  struct kernel_ops k = kernel_real;
  k.openat = count_openat;
  k.read = count_read;
  k.pread = count_pread;
  struct plugin_host host;
  plugin_host_init(&host, "bench", 1000000000ull);
  host.kernel = &k;
  host.clock = (struct plugin_clock){bench_mono, bench_real, NULL};
  void *inst = drm_device_ops.instance_new("bench");
  struct cfg_value v = {.type = CFG_STRING, .string = t.sys};
  struct cfg_item item = {"SysfsRoot", &v, 1, NULL, 0, 0};
  if (inst == NULL || drm_device_ops.configure(inst, &item) < 0 ||
      drm_device_ops.init(inst, &host) < 0) {
    fprintf(stderr, "bench_ddv: init failed\n");
    return 1;
  }
  struct metric_sink *sink = bench_discard_sink();
  drm_device_ops.read(inst, sink); /* the first read opens every attribute */
  drm_device_ops.read(inst, sink); /* the second reads them again */
  memset(read_fd, 0, sizeof(read_fd));
  long opened = opens;
  const long n = bench_count(2000, 3);
  double best = 1e9;
  long allocs = 0;
  reads = 0;
  for (int run = 0; run < 5; run++) {
    allocations = 0;
    double t0 = cpu_now_s();
    for (long i = 0; i < n; i++)
      drm_device_ops.read(inst, sink);
    double us = (cpu_now_s() - t0) / (double)n * 1e6;
    if (us < best)
      best = us;
    allocs += allocations;
  }
  long attrs = 0;
  for (size_t i = 0; i < sizeof(read_fd); i++)
    attrs += read_fd[i];
  double per_attr = (double)reads / (double)(attrs * 5 * n);
  printf("one device read (%s: %ld attributes): %.1f us CPU "
         "(best of 5 x %ld)\n",
         what, attrs, best, n);
  printf("read() calls per attribute and read: %.2f; files opened after the "
         "first read: %ld\n",
         per_attr, opens - opened);
  printf("allocations during %ld reads after the first: %ld\n", 5 * n, allocs);
  /* a 1 s interval: looks and limits on their schedule */
  const long n_timed = bench_count(200, 3);
  allocations = 0;
  double t0 = cpu_now_s();
  for (long i = 0; i < n_timed; i++) {
    bench_mono_ns += 1000000000ull;
    drm_device_ops.read(inst, sink);
  }
  double us_timed = (cpu_now_s() - t0) / (double)n_timed * 1e6;
  printf("reads 1 s apart (looks at the class directories, limits once a "
         "minute): %.1f us CPU per read, %.1f allocations per read\n",
         us_timed, (double)allocations / (double)n_timed);
  drm_device_ops.instance_free(inst);
  ddv_tree_fini(&t);
  /* the CPU target is a time: judged by make bench, not in the quick mode
   * (the counts are exact and hold in both) */
  bool cpu_ok = bench_quick() || best <= 50.0;
  return cpu_ok && per_attr <= 1.0 && allocs == 0 ? 0 : 1;
}

int main(void) {
  int rc = bench_fixture("xe_bmg", "xe, 2 GTs, hwmon", NULL);
  if (bench_fixture("amdgpu_dgpu", "amdgpu, hwmon, gpu_metrics v1.3", NULL) !=
      0)
    rc = 1;
  if (bench_fixture("xe_bmg", "xe, control auto, values held", "card1") != 0)
    rc = 1;
  return rc;
}
