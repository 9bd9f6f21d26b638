/*
 * bench_t410.c: tegra410_uncore's costs.
 *
 *  - read path: pmu_group_read() of a real group (two software counters,
 *    opened on every CPU, since this machine has no uncore PMU) against a
 *    bare read() of the same group fds, best of 5 runs of 100k reads;
 *  - allocations on the read path: malloc/calloc/realloc calls counted
 *    during 100k full plugin reads (records go to a discarding sink): 0,
 *    or the program fails;
 *  - setup: init() of the Tegra410 preset on a synthetic sysfs with
 *    12 PCIE + 12 PCIE-TGT + UCF + CMEM + 3 C2C PMUs, against a stand-in
 *    kernel that accepts every open (discovery, parsing, encoding, opens).
 */
#include "bench/bench_util.h"
#include "plugins/tegra410_uncore/t410.h"
#include "tests/lib/fakeproc.h"
#include "tests/lib/test_host.h"

#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void set(void *inst, const char *key, const char *value) {
  struct cfg_value v = {.type = CFG_STRING, .string = value};
  struct cfg_item item = {key, &v, 1, NULL, 0, 0};
  if (tegra410_uncore_ops.configure(inst, &item) < 0)
    exit(1);
}

/* A kernel that opens anything and never reads: setup cost only. */
static int next_fd = 100000;
static int accept_open(struct perf_event_attr *a, pid_t p, int c, int g,
                       unsigned long f) {
  (void)a, (void)p, (void)c, (void)g, (void)f;
  return next_fd++;
}
static ssize_t accept_read(int fd, void *buf, size_t len) {
  (void)fd, (void)buf, (void)len;
  return -1;
}
static int accept_ioctl(int fd, unsigned long r, void *arg) {
  if (r == PERF_EVENT_IOC_ID)
    *(uint64_t *)arg = (uint64_t)fd;
  return 0;
}
static int accept_close(int fd) {
  (void)fd;
  return 0;
}
/* The real system for the synthetic sysfs (init lists and reads it
 * through the seam: open, fdopendir, readdir ...), the stand-in for the
 * perf calls and the fds they return. Every entry the plugin may call is
 * set: a table with only the perf calls crashed init on its first listing
 * of bus/event_source/devices. */
static struct kernel_ops accepting;
static void accepting_init(void) {
  accepting = kernel_real;
  accepting.perf_event_open = accept_open;
  accepting.read = accept_read;
  accepting.ioctl = accept_ioctl;
  accepting.close = accept_close;
}

static void pmu(struct fakeproc *fp, const char *name, const char *events) {
  char rel[256], text[64];
  snprintf(rel, sizeof(rel), "sys/bus/event_source/devices/%s/type", name);
  fakeproc_write(fp, rel, "4000\n");
  snprintf(rel, sizeof(rel), "sys/bus/event_source/devices/%s/cpumask", name);
  fakeproc_write(fp, rel, "0\n");
  snprintf(rel, sizeof(rel), "sys/bus/event_source/devices/%s/format/event",
           name);
  fakeproc_write(fp, rel, "config:0-32\n");
  char list[512];
  snprintf(list, sizeof(list), "%s", events);
  int code = 0;
  for (char *e = strtok(list, " "); e; e = strtok(NULL, " ")) {
    snprintf(rel, sizeof(rel), "sys/bus/event_source/devices/%s/events/%s",
             name, e);
    snprintf(text, sizeof(text), "event=0x%x\n", code++);
    fakeproc_write(fp, rel, text);
  }
}

static void setup_bench(void) {
  struct fakeproc fp;
  if (fakeproc_init(&fp) < 0)
    return;
  char name[64];
  for (int s = 0; s < 2; s++)
    for (int rc = 0; rc < 6; rc++) {
      snprintf(name, sizeof(name), "nvidia_pcie_pmu_%d_rc_%d", s, rc);
      pmu(&fp, name, "cycles rd_bytes wr_bytes rd_req wr_req rd_cum_outs");
      snprintf(name, sizeof(name), "nvidia_pcie_tgt_pmu_%d_rc_%d", s, rc);
      pmu(&fp, name, "cycles rd_bytes wr_bytes rd_req wr_req");
    }
  pmu(&fp, "nvidia_ucf_pmu_0",
      "cycles slc_bytes_rd slc_bytes_wr mem_bytes_rd mem_bytes_wr "
      "slc_access_rd slc_access_wr mem_access_rd mem_access_wr");
  pmu(&fp, "nvidia_cmem_latency_pmu_0", "cycles rd_req rd_cum_outs");
  static const char *const links[] = {"nvidia_nvlink_c2c_pmu_0",
                                      "nvidia_nvclink_pmu_0",
                                      "nvidia_nvdlink_pmu_0"};
  for (int i = 0; i < 3; i++)
    pmu(&fp, links[i],
        "cycles in_rd_req in_rd_cum_outs in_wr_req in_wr_cum_outs "
        "out_rd_req out_rd_cum_outs out_wr_req out_wr_cum_outs");
  double best = 1e9;
  size_t groups = 0;
  struct plugin_host host = *test_host("tegra410_uncore");
  accepting_init();
  host.kernel = &accepting;
  for (int r = 0; r < 5; r++) {
    void *inst = tegra410_uncore_ops.instance_new("bench");
    set(inst, "SysfsRoot", fp.sys);
    long before = allocations;
    double t = bench_now_s();
    if (tegra410_uncore_ops.init(inst, &host) < 0)
      exit(1);
    t = bench_now_s() - t;
    if (r == 0) /* shows the counter works: setup does allocate */
      printf("allocations during one preset setup: %ld\n",
             allocations - before);
    groups = ((struct t410 *)inst)->n_groups;
    if (t < best)
      best = t;
    tegra410_uncore_ops.instance_free(inst);
  }
  printf("preset setup, 29 PMUs (12 PCIE, 12 PCIE-TGT, UCF, CMEM, 3 C2C), "
         "%zu groups: %.3f ms\n",
         groups, best * 1e3);
  fakeproc_fini(&fp);
}

int main(void) {
  long read_allocs = 0;
  log_set_sink(NULL, LOG_LEVEL_WARNING); /* no per-PMU info lines */
  void *inst = tegra410_uncore_ops.instance_new("bench");
  set(inst, "Event", "{software/config=0x0/,software/config=0x1/}");
  if (tegra410_uncore_ops.init(inst, test_host("tegra410_uncore")) < 0) {
    printf("read path: skipped (perf_event_open not permitted here)\n");
  } else {
    struct pmu_group *g = &((struct t410 *)inst)->groups[0].pg;
    const long reads = bench_count(100000, 20);
    double engine = 1e9, bare = 1e9;
    uint64_t buf[3 + 2 * PMU_MAX_GROUP];
    size_t words = 3 + 2 * g->n_events;
    for (int r = 0; r < 5; r++) {
      double t = bench_now_s();
      for (long i = 0; i < reads; i++)
        pmu_group_read(g);
      t = bench_now_s() - t;
      if (t < engine)
        engine = t;
      t = bench_now_s();
      for (long i = 0; i < reads; i++)
        for (size_t c = 0; c < g->n_cpus; c++)
          if (read(g->fds[c * g->n_events], buf, words * 8) < 0)
            exit(1);
      t = bench_now_s() - t;
      if (t < bare)
        bare = t;
    }
    printf("read path, group of %zu on %zu CPU(s): engine %.3f us, bare "
           "read() %.3f us per group read; ratio %.3f\n",
           g->n_events, g->n_cpus, engine / reads * 1e6, bare / reads * 1e6,
           engine / bare);
    tegra410_uncore_ops.read(
        inst, bench_discard_sink()); /* first read: sets baselines */
    allocations = 0;
    for (long i = 0; i < reads; i++)
      tegra410_uncore_ops.read(inst, bench_discard_sink());
    printf("allocations during %ld plugin reads: %ld\n", reads, allocations);
    read_allocs = allocations;
  }
  tegra410_uncore_ops.instance_free(inst);
  setup_bench();
  /* the read path allocates nothing (the PMU directory's listing keeps
   * its buffers: t410_hotplug.h) */
  return read_allocs == 0 ? 0 : 1;
}
