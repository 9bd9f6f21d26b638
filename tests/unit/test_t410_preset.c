/*
 * test_t410_preset.c: the Tegra410 preset end to end through the plugin
 * core, on a synthetic sysfs with every Tegra410 PMU kind and the shim's
 * perf_event_open driver in-process (tests/shim), scripted with rates,
 * multiplexing, errors and the test's clock, so every count is exact.
 * Every metric is checked against a value worked out by hand from the
 * kernel documentation's formulas.
 */
#include "common/core/log.h"
#include "plugins/tegra410_uncore/t410.h"
#include "tests/lib/capture_sink.h"
#include "tests/lib/fakeproc.h"
#include "tests/shim/shim.h"
#include "tests/shim/shim_perf.h"

#include <errno.h>
#include <ftw.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

static struct fakeproc fp;

/* ---- the kernel: the shim's perf driver, in-process, scripted ---- */

/* The test's clock, shared by the host and the shim: counts are exact. */
static uint64_t test_monotonic_ns = 5000000000ull;
static const uint64_t test_realtime_ns = 1700000000000000000ull;
static uint64_t test_mono(void *ctx) {
  (void)ctx;
  return test_monotonic_ns;
}
static uint64_t test_real(void *ctx) {
  (void)ctx;
  return test_realtime_ns;
}
static struct plugin_host test_host;

/* Events per second of (type, config) in these tests. */
static void script_rates(void) {
  static const struct {
    uint32_t type;
    uint64_t config, per_s;
  } rates[] = {
      /* PCIE */
      {28, 0x100000000ull, 1000000000}, /* cycles: 1 GHz */
      {28, 0x0, 2000000000},            /* rd_bytes */
      {28, 0x1, 500000000},             /* wr_bytes */
      {28, 0x2, 1000000},               /* rd_req */
      {28, 0x3, 250000},                /* wr_req */
      {28, 0x4, 500000000},             /* rd_cum_outs */
      /* CMEM: cycles 0, rd_req 1, rd_cum_outs 2 */
      {40, 0x0, 2000000000},
      {40, 0x1, 10000000},
      {40, 0x2, 3000000000},
      /* UCF: cycles, every other event */
      {31, 0x100000000ull, 1500000000},
      {31, SHIM_PERF_ANY_CONFIG, 3000000},
      /* CLink */
      {33, SHIM_PERF_ANY_CONFIG, 7},
  };
  for (size_t i = 0; i < sizeof(rates) / sizeof(rates[0]); i++)
    assert_int_equal(
        shim_perf_set_rate(rates[i].type, rates[i].config, rates[i].per_s), 0);
  /* a PMU on CPUs 0 and 2 (50) and one on every online CPU (51):
   * config x 1000 per second */
  for (uint64_t c = 1; c <= 40; c++) {
    assert_int_equal(shim_perf_set_rate(50, c, c * 1000), 0);
    assert_int_equal(shim_perf_set_rate(51, c, c * 1000), 0);
  }
}

/* A fresh kernel: every type emulated, the rates above, the test clock. */
static void kernel_reset(void) {
  shim_perf_register();
  shim_perf_reset();
  shim_perf_set_type_base(0);
  shim_perf_set_clock(test_mono, NULL);
  script_rates();
}

/* One read of `inst` 1 s after the previous one (or the open). */
static int read_after_1s(void *inst, struct capture_sink *cs) {
  test_monotonic_ns += 1000000000ull;
  return tegra410_uncore_ops.read(inst, &cs->base);
}

/* Open events matching (type, and config1 / config3 when non-zero). */
struct open_match {
  uint32_t type;
  uint64_t config, config1, config3;
  bool any_config;
  int per_cpu[4];
  size_t n;
  uint64_t config4; /* out: of the last match */
  uint32_t attr_size;
};
static void open_match_fn(const struct shim_perf_info *info, void *ctx) {
  struct open_match *m = ctx;
  if (info->type != m->type || (!m->any_config && info->config != m->config) ||
      (m->config1 && info->config1 != m->config1) ||
      (m->config3 && info->config3 != m->config3))
    return;
  m->n++;
  m->config4 = info->config4;
  m->attr_size = info->attr_size;
  if (info->cpu >= 0 && info->cpu < 4)
    m->per_cpu[info->cpu]++;
}

/* ---- the synthetic sysfs ---- */
static void pmu_file(const char *pmu, const char *file, const char *text) {
  char rel[512];
  snprintf(rel, sizeof(rel), "sys/bus/event_source/devices/%s/%s", pmu, file);
  assert_int_equal(fakeproc_write(&fp, rel, text), 0);
}

static void pmu(const char *name, const char *type, const char *event_bits,
                const char *const *events) {
  pmu_file(name, "type", type);
  pmu_file(name, "cpumask", "0\n");
  pmu_file(name, "format/event", event_bits);
  for (size_t i = 0; events[i] != NULL; i += 2) {
    char file[128];
    snprintf(file, sizeof(file), "events/%s", events[i]);
    pmu_file(name, file, events[i + 1]);
  }
}

static int setup(void **state) {
  (void)state;
  plugin_host_init(&test_host, "test", 1000000000ull);
  test_host.clock.monotonic_ns = test_mono;
  test_host.clock.realtime_ns = test_real;
  test_host.clock.ctx = NULL;
  test_host.kernel = &shim_kernel;
  assert_int_equal(fakeproc_init(&fp), 0);
  static const char *const pcie[] = {
      "cycles",   "event=0x100000000", "rd_bytes",    "event=0x0",
      "wr_bytes", "event=0x1",         "rd_req",      "event=0x2",
      "wr_req",   "event=0x3",         "rd_cum_outs", "event=0x4",
      NULL};
  pmu("nvidia_pcie_pmu_1_rc_2", "28\n", "config:0-32\n", pcie);
  pmu_file("nvidia_pcie_pmu_1_rc_2", "format/src_rp_mask", "config1:0-7\n");
  pmu_file("nvidia_pcie_pmu_1_rc_2", "format/src_bdf", "config1:8-23\n");
  pmu_file("nvidia_pcie_pmu_1_rc_2", "format/src_bdf_en", "config1:24\n");
  static const char *const cmem[] = {"cycles",    "event=0x0",   "rd_req",
                                     "event=0x1", "rd_cum_outs", "event=0x2",
                                     NULL};
  pmu("nvidia_cmem_latency_pmu_0", "40\n", "config:0-1\n", cmem);
  static const char *const ucf[] = {"cycles",
                                    "event=0x100000000",
                                    "slc_bytes_rd",
                                    "event=0x113",
                                    "slc_bytes_wr",
                                    "event=0x114",
                                    "mem_bytes_rd",
                                    "event=0x123",
                                    "mem_bytes_wr",
                                    "event=0x124",
                                    "slc_access_rd",
                                    "event=0x111",
                                    "slc_access_wr",
                                    "event=0x112",
                                    "mem_access_rd",
                                    "event=0x121",
                                    "mem_access_wr",
                                    "event=0x122",
                                    NULL};
  pmu("nvidia_ucf_pmu_0", "31\n", "config:0-32\n", ucf);
  /* a CPU-peer NV-CLink: read events only */
  static const char *const clink[] = {
      "cycles",          "event=0x0", "in_rd_req",  "event=0x2",
      "in_rd_cum_outs",  "event=0x1", "out_rd_req", "event=0x6",
      "out_rd_cum_outs", "event=0x5", NULL};
  pmu("nvidia_nvclink_pmu_1", "33\n", "config:0-3\n", clink);
  pmu_file("nvidia_nvclink_pmu_1", "peer", "nr_cpu=1\n");
  /* the root port of socket 1, RC 2, on PCI segment 0x0009, with its
   * NVIDIA DVSEC after one other extended capability */
  static unsigned char config[4096];
  config[0x100] = 0x01; /* AER, version 1, next 0x148 */
  config[0x102] = 0x01;
  config[0x103] = 0x148 >> 4 & 0xff;
  config[0x102] |= (0x148 & 0xf) << 4;
  config[0x148] = 0x23; /* DVSEC, version 1, last */
  config[0x14a] = 0x01;
  config[0x14c] = 0xde; /* vendor 0x10de */
  config[0x14d] = 0x10;
  config[0x150] = 0x04; /* DVSEC id 4 */
  config[0x154] = 0x00; /* bus */
  config[0x155] = 0x09; /* segment */
  config[0x156] = 1;    /* root port */
  config[0x157] = 2;    /* RC */
  config[0x158] = 1;    /* socket */
  fakeproc_write(&fp, "sys/bus/pci/devices/0009:00:00.0/vendor", "0x10de\n");
  fakeproc_write(&fp, "sys/bus/pci/devices/0009:00:00.0/class", "0x060400\n");
  char path[512];
  snprintf(path, sizeof(path), "%s/bus/pci/devices/0009:00:00.0/config",
           fp.sys);
  FILE *f = fopen(path, "wb");
  assert_non_null(f);
  assert_int_equal(fwrite(config, 1, sizeof(config), f), sizeof(config));
  fclose(f);
  /* generic PMUs: one per socket on CPUs 0 and 2 (x86 uncore, multi-socket
   * Grace/Vera), and a per-CPU one without cpumask on CPUs 0-3 */
  fakeproc_write(&fp, "sys/devices/system/cpu/online", "0-3\n");
  pmu_file("uncore_x", "type", "50\n");
  pmu_file("uncore_x", "cpumask", "0,2\n");
  pmu_file("uncore_x", "format/event", "config:0-7\n");
  pmu_file("percpu_y", "type", "51\n");
  pmu_file("percpu_y", "format/event", "config:0-7\n");
  /* Grace PCIE: must not be taken for a Tegra410 one */
  static const char *const grace[] = {"rd_bytes_loc", "event=0x0", NULL};
  pmu("nvidia_pcie_pmu_0", "27\n", "config:0-32\n", grace);
  return 0;
}

static int teardown(void **state) {
  (void)state;
  shim_perf_reset();
  fakeproc_fini(&fp);
  return 0;
}

/* Apply <Filter "name"> PMU "pmu"; Terms "terms" </Filter>. */
static int filter(void *inst, const char *name, const char *pmu_kind,
                  const char *terms) {
  struct cfg_value vname = {.type = CFG_STRING, .string = name};
  struct cfg_value vpmu = {.type = CFG_STRING, .string = pmu_kind};
  struct cfg_value vterms = {.type = CFG_STRING, .string = terms};
  struct cfg_item children[] = {{"PMU", &vpmu, 1, NULL, 0, 0},
                                {"Terms", &vterms, 1, NULL, 0, 0}};
  struct cfg_item item = {"Filter", &vname, 1, children, 2, 0};
  return tegra410_uncore_ops.configure(inst, &item);
}

static void *start_with(const char *filter_terms) {
  void *inst = tegra410_uncore_ops.instance_new("test");
  struct cfg_value v = {.type = CFG_STRING, .string = fp.sys};
  struct cfg_item item = {"SysfsRoot", &v, 1, NULL, 0, 0};
  assert_int_equal(tegra410_uncore_ops.configure(inst, &item), 0);
  if (filter_terms != NULL)
    assert_int_equal(filter(inst, "rp01", "pcie", filter_terms), 0);
  assert_int_equal(tegra410_uncore_ops.init(inst, &test_host), 0);
  return inst;
}

static void *start(void) { return start_with(NULL); }

static void expect(struct capture_sink *cs, const char *prefix,
                   const char *fields) {
  const char *line = capture_sink_find(cs, prefix);
  if (line == NULL || strncmp(line + strlen(prefix), fields, strlen(fields)))
    fail_msg("%s%s\n  got: %s", prefix, fields, line ? line : "(none)");
}

static void t410_preset_match__anchored_names(void **state) {
  (void)state;
  static const struct {
    const char *name;
    bool match;
    enum t410_kind kind;
    const char *socket, *rc;
  } cases[] = {
      {"nvidia_ucf_pmu_0", true, T410_UCF, "0", ""},
      {"nvidia_pcie_pmu_1_rc_5", true, T410_PCIE, "1", "5"},
      {"nvidia_pcie_tgt_pmu_0_rc_3", true, T410_PCIE_TGT, "0", "3"},
      {"nvidia_cmem_latency_pmu_1", true, T410_CMEM, "1", ""},
      {"nvidia_nvlink_c2c_pmu_0", true, T410_C2C, "0", ""},
      {"nvidia_nvdlink_pmu_0", true, T410_C2C, "0", ""},
      {"nvidia_pcie_pmu_0", false, 0, "", ""},           /* Grace */
      {"nvidia_nvlink_c2c1_pmu_0", false, 0, "", ""},    /* Grace */
      {"nvidia_pcie_pmu_0_chiplet_1", false, 0, "", ""}, /* pre-mainline */
      {"nvidia_ucf_pmu_0x", false, 0, "", ""},
      {"nvidia_ucf_pmu_", false, 0, "", ""},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    struct t410_preset_tags tags;
    bool match = t410_preset_match(cases[i].name, &tags);
    if (match != cases[i].match ||
        (match && (tags.kind != cases[i].kind ||
                   strcmp(tags.socket, cases[i].socket) != 0 ||
                   strcmp(tags.rc, cases[i].rc) != 0)))
      fail_msg("%s", cases[i].name);
  }
}

static void t410_preset__metrics_from_the_doc_formulas(void **state) {
  (void)state;
  kernel_reset();
  shim_perf_set_running_ratio(31, 1, 2); /* UCF multiplexed */
  void *inst = start();
  struct capture_sink cs;
  capture_sink_init(&cs);
  /* the open is the first baseline (counts start at 0): the first read
   * already covers a window */
  assert_int_equal(read_after_1s(inst, &cs), 0);
  assert_non_null(capture_sink_find(&cs, "tegra410,"));
  capture_sink_clear(&cs);
  assert_int_equal(read_after_1s(inst, &cs), 0);
  /* PCIE over 1 s: 1e9 cycles = 1 GHz; 2e9 rd bytes/s, 5e8 wr bytes/s;
   * request rates 1e6/1e9 and 2.5e5/1e9 per cycle; latency 5e8/1e6 = 500
   * cycles = 500 ns = 5e-7 s at 1 GHz */
  expect(&cs, "tegra410,pmu=nvidia_pcie_pmu_1_rc_2,socket=1,rc=2,segment=0009 ",
         "read_bandwidth=2000000000.0,write_bandwidth=500000000.0,"
         "frequency=1000000000.0,read_request_rate=0.001,"
         "write_request_rate=0.00025,read_latency_cycles=500.0,"
         "read_latency_seconds=5e-07,running_percent=100.0 ");
  /* CMEM: 1e7 requests of 32 bytes per second = 3.2e8 B/s; 2 GHz; latency
   * 3e9/1e7 = 300 cycles = 150 ns = 1.5e-7 s */
  expect(&cs, "tegra410,pmu=nvidia_cmem_latency_pmu_0,socket=0 ",
         "read_bandwidth=320000000.0,frequency=2000000000.0,"
         "read_latency_cycles=300.0,read_latency_seconds=1.5e-07,"
         "running_percent=100.0 ");
  /* UCF ran half the time: counts are scaled back to the full window;
   * its bandwidth group has no cycles (the requests group has the PMU's
   * one cycle counter), so its frequency comes with the request rates */
  expect(&cs, "tegra410,pmu=nvidia_ucf_pmu_0,socket=0 ",
         "read_bandwidth=3000000.0,write_bandwidth=3000000.0,"
         "slc_read_bandwidth=3000000.0,slc_write_bandwidth=3000000.0,"
         "running_percent=50.0 ");
  expect(&cs, "tegra410,pmu=nvidia_ucf_pmu_0,socket=0 frequency=",
         "1500000000.0,read_request_rate=0.002,write_request_rate=0.002,"
         "slc_read_request_rate=0.002,slc_write_request_rate=0.002,"
         "running_percent=50.0 ");
  assert_null(capture_sink_find(
      &cs, "uncore_event,pmu=nvidia_ucf_pmu_0,event=cycles,group=bandwidth "));
  expect(&cs, "uncore_event,pmu=nvidia_ucf_pmu_0,event=cycles,group=requests ",
         "count=3000000000i,rate=1500000000.0,enabled_ns=2000000000i,"
         "running_ns=1000000000i,running_percent=50.0,not_counted=0i ");
  /* CLink with a CPU peer: reads only, in and out; every event counts 7
   * per second here: 7 Hz, 7/7 = 1 cycle = 1/7 s */
  expect(&cs, "tegra410,pmu=nvidia_nvclink_pmu_1,socket=1,direction=in ",
         "frequency=7.0,read_latency_cycles=1.0,"
         "read_latency_seconds=0.14285714285714285,running_percent=100.0 ");
  assert_non_null(capture_sink_find(
      &cs, "tegra410,pmu=nvidia_nvclink_pmu_1,socket=1,direction=out "));
  assert_null(capture_sink_find(&cs, "uncore_event,pmu=nvidia_pcie_pmu_0,"));
  /* 2 UCF + 1 PCIE + 1 CMEM + 2 CLink groups */
  assert_int_equal(capture_sink_count(&cs, "tegra410,"), 6);
  capture_sink_fini(&cs);
  tegra410_uncore_ops.instance_free(inst);
  assert_int_equal(shim_perf_for_each(NULL, NULL), 0); /* every fd closed */
}

static void t410_preset__one_pmu_failing_keeps_the_others(void **state) {
  (void)state;
  kernel_reset();
  shim_perf_fail_type(28, EACCES); /* PCIE: permission denied */
  void *inst = start();
  struct capture_sink cs;
  capture_sink_init(&cs);
  assert_int_equal(read_after_1s(inst, &cs), 0);
  assert_int_equal(read_after_1s(inst, &cs), 0);
  assert_null(capture_sink_find(&cs, "uncore_event,pmu=nvidia_pcie_pmu_1"));
  assert_non_null(
      capture_sink_find(&cs, "tegra410,pmu=nvidia_cmem_latency_pmu_0"));
  capture_sink_fini(&cs);
  tegra410_uncore_ops.instance_free(inst);
  shim_perf_fail_type(28, 0);
}

static void t410_filter__config_rules(void **state) {
  (void)state;
  static const struct {
    const char *pmu, *terms;
  } bad[] = {
      {"pcie", "src_rp_mask=0x3,src_bdf=0x0108,src_bdf_en=1"},
      {"pcie", "src_bdf=0x0108"},
      {"pcie", "src_bdf=0x0108,src_bdf_en=0"},
      {"pcie", "src_rp_mask"},
      {"gpu", "gpu_mask=0x1"},
      {"c2c", ""},
      {"c2c", "gpu_mask=0x1/"},
  };
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
    void *inst = tegra410_uncore_ops.instance_new("cfg");
    if (filter(inst, "f", bad[i].pmu, bad[i].terms) != -EINVAL)
      fail_msg("accepted %s %s", bad[i].pmu, bad[i].terms);
    tegra410_uncore_ops.instance_free(inst);
  }
  /* one BDF per PCIE PMU across filters; 8 PCIE-TGT address slots */
  void *inst = tegra410_uncore_ops.instance_new("cfg");
  assert_int_equal(filter(inst, "a", "pcie", "src_bdf=0x0108,src_bdf_en=1"), 0);
  assert_int_equal(filter(inst, "a", "c2c", "gpu_mask=0x1"), -EINVAL);
  assert_int_equal(filter(inst, "b", "pcie", "src_bdf=0x0200,src_bdf_en=1"),
                   -EINVAL);
  assert_int_equal(filter(inst, "c", "pcie", "src_rp_mask=0x3"), 0);
  for (int i = 0; i < 8; i++) {
    char name[8], terms[96];
    snprintf(name, sizeof(name), "t%d", i);
    snprintf(terms, sizeof(terms),
             "dst_addr_base=0x%x0000,dst_addr_mask=0xffff0000,dst_addr_en=1",
             i);
    assert_int_equal(filter(inst, name, "pcie_tgt", terms), 0);
  }
  assert_int_equal(filter(inst, "t8", "pcie_tgt",
                          "dst_addr_base=0x90000,dst_addr_mask=0xffff0000,"
                          "dst_addr_en=1"),
                   -EINVAL);
  tegra410_uncore_ops.instance_free(inst);
}

static void t410_filter__labelled_series(void **state) {
  (void)state;
  kernel_reset();
  void *inst = start_with("src_rp_mask=0x3");
  struct capture_sink cs;
  capture_sink_init(&cs);
  assert_int_equal(read_after_1s(inst, &cs), 0);
  assert_int_equal(read_after_1s(inst, &cs), 0);
  expect(&cs,
         "tegra410,pmu=nvidia_pcie_pmu_1_rc_2,socket=1,rc=2,segment=0009,"
         "filter=rp01 ",
         "read_bandwidth=2000000000.0");
  expect(&cs,
         "uncore_event,pmu=nvidia_pcie_pmu_1_rc_2,"
         "event=rd_bytes\\,src_rp_mask\\=0x3,filter=rp01 ",
         "count=");
  /* the filter's terms reached the kernel: config1 = RP mask 0x3 */
  struct open_match m = {.type = 28, .any_config = true, .config1 = 0x3};
  shim_perf_for_each(open_match_fn, &m);
  /* the filtered group's 5 events: not cycles, whose one counter the
   * unfiltered group holds */
  assert_int_equal(m.n, 5);
  capture_sink_fini(&cs);
  tegra410_uncore_ops.instance_free(inst);
}

/* A config3 term reaches the kernel at offset 128 with attr.size 136. */
static void t410_event__config3(void **state) {
  (void)state;
  kernel_reset();
  pmu_file("nvidia_ucf_pmu_0", "format/cfg3", "config3:0-7\n");
  void *inst = tegra410_uncore_ops.instance_new("test");
  struct cfg_value v = {.type = CFG_STRING, .string = fp.sys};
  struct cfg_item item = {"SysfsRoot", &v, 1, NULL, 0, 0};
  assert_int_equal(tegra410_uncore_ops.configure(inst, &item), 0);
  struct cfg_value e = {.type = CFG_STRING,
                        .string = "nvidia_ucf_pmu_0/cycles,cfg3=0x5/"};
  struct cfg_item event = {"Event", &e, 1, NULL, 0, 0};
  assert_int_equal(tegra410_uncore_ops.configure(inst, &event), 0);
  assert_int_equal(tegra410_uncore_ops.init(inst, &test_host), 0);
  struct open_match m = {.type = 31, .config = 0x100000000ull, .config3 = 0x5};
  shim_perf_for_each(open_match_fn, &m);
  assert_int_equal(m.n, 1);
  tegra410_uncore_ops.instance_free(inst);
}

/* An instance counting the given Event options. */
static void *start_events(const char *const *events, size_t n) {
  void *inst = tegra410_uncore_ops.instance_new("test");
  struct cfg_value v = {.type = CFG_STRING, .string = fp.sys};
  struct cfg_item item = {"SysfsRoot", &v, 1, NULL, 0, 0};
  assert_int_equal(tegra410_uncore_ops.configure(inst, &item), 0);
  for (size_t i = 0; i < n; i++) {
    struct cfg_value e = {.type = CFG_STRING, .string = events[i]};
    struct cfg_item event = {"Event", &e, 1, NULL, 0, 0};
    assert_int_equal(tegra410_uncore_ops.configure(inst, &event), 0);
  }
  assert_int_equal(tegra410_uncore_ops.init(inst, &test_host), 0);
  return inst;
}

/* Bug: only the first CPU of a cpumask was opened, so every other socket
 * went uncounted. Each cpumask CPU is opened, and counted as its own
 * series tagged with the CPU. */
static void t410_event__cpumask_of_two_cpus_two_series(void **state) {
  (void)state;
  kernel_reset();
  static const char *const events[] = {
      "{uncore_x/event=0x1/,uncore_x/event=0x2/}"};
  void *inst = start_events(events, 1);
  struct open_match m = {.type = 50, .any_config = true};
  shim_perf_for_each(open_match_fn, &m);
  assert_int_equal(m.per_cpu[0], 2);
  assert_int_equal(m.per_cpu[1], 0);
  assert_int_equal(m.per_cpu[2], 2);
  assert_int_equal(m.per_cpu[3], 0);
  struct capture_sink cs;
  capture_sink_init(&cs);
  assert_int_equal(read_after_1s(inst, &cs), 0);
  capture_sink_clear(&cs);
  assert_int_equal(read_after_1s(inst, &cs), 0);
  /* each CPU counts 1000 (event 1) and 2000 (event 2) per second; two
   * reads of 1 s each, one series per CPU */
  static const char *const lines[] = {
      "uncore_event,pmu=uncore_x,cpu=0,event=event\\=0x1 count=2000i,"
      "rate=1000.0,enabled_ns=2000000000i,running_ns=2000000000i,"
      "running_percent=100.0,not_counted=0i 1700000000000000000\n",
      "uncore_event,pmu=uncore_x,cpu=0,event=event\\=0x2 count=4000i,"
      "rate=2000.0,enabled_ns=2000000000i,running_ns=2000000000i,"
      "running_percent=100.0,not_counted=0i 1700000000000000000\n",
      "uncore_event,pmu=uncore_x,cpu=2,event=event\\=0x1 count=2000i,"
      "rate=1000.0,enabled_ns=2000000000i,running_ns=2000000000i,"
      "running_percent=100.0,not_counted=0i 1700000000000000000\n",
      "uncore_event,pmu=uncore_x,cpu=2,event=event\\=0x2 count=4000i,"
      "rate=2000.0,enabled_ns=2000000000i,running_ns=2000000000i,"
      "running_percent=100.0,not_counted=0i 1700000000000000000\n",
  };
  assert_int_equal(cs.n_lines, 4);
  for (size_t i = 0; i < 4; i++)
    assert_string_equal(cs.lines[i], lines[i]);
  capture_sink_fini(&cs);
  tegra410_uncore_ops.instance_free(inst);
  assert_int_equal(shim_perf_for_each(NULL, NULL), 0);
}

/* A PMU without cpumask is opened on every online CPU and summed, with no
 * cpu tag, as perf stat -a does. */
static void t410_event__no_cpumask_sums_online_cpus(void **state) {
  (void)state;
  kernel_reset();
  static const char *const events[] = {"percpu_y/event=0x1/"};
  void *inst = start_events(events, 1);
  struct capture_sink cs;
  capture_sink_init(&cs);
  assert_int_equal(read_after_1s(inst, &cs), 0);
  capture_sink_clear(&cs);
  assert_int_equal(read_after_1s(inst, &cs), 0);
  /* 1000/s on each of 4 CPUs over 2 s; enabled 2 s on each */
  assert_int_equal(cs.n_lines, 1);
  assert_string_equal(cs.lines[0],
                      "uncore_event,pmu=percpu_y,event=event\\=0x1 "
                      "count=8000i,rate=4000.0,enabled_ns=8000000000i,"
                      "running_ns=8000000000i,running_percent=100.0,"
                      "not_counted=0i 1700000000000000000\n");
  capture_sink_fini(&cs);
  tegra410_uncore_ops.instance_free(inst);
}

/* Bug: a read where every group failed said -EIO whatever the cause. It
 * now returns the first group's error; the retry waits for the backoff
 * on the host's clock. */
static void t410_read__every_group_failing_returns_the_error(void **state) {
  (void)state;
  kernel_reset();
  shim_perf_fail_type(50, EACCES);
  static const char *const events[] = {"uncore_x/event=0x1/",
                                       "uncore_x/event=0x2/"};
  void *inst = start_events(events, 2);
  struct capture_sink cs;
  capture_sink_init(&cs);
  assert_int_equal(tegra410_uncore_ops.read(inst, &cs.base), -EAGAIN);
  test_monotonic_ns += 2000000000ull; /* past the 1 s backoff */
  assert_int_equal(tegra410_uncore_ops.read(inst, &cs.base), -EACCES);
  assert_int_equal(cs.n_lines, 0);
  shim_perf_fail_type(50, 0);
  test_monotonic_ns += 3000000000ull; /* past the doubled backoff */
  assert_int_equal(tegra410_uncore_ops.read(inst, &cs.base), 0);
  assert_int_equal(cs.n_lines, 4); /* 2 groups x 2 CPUs */
  capture_sink_fini(&cs);
  tegra410_uncore_ops.instance_free(inst);
}

static int failing_write(struct metric_sink *sink, const struct metric *m) {
  (void)sink;
  (void)m;
  return -ENOSPC;
}

/* Bug: errors of the sink were dropped, so a read whose every record was
 * refused still succeeded. */
static void t410_read__sink_errors_reach_the_host(void **state) {
  (void)state;
  kernel_reset();
  static const char *const events[] = {"uncore_x/event=0x1/"};
  void *inst = start_events(events, 1);
  struct capture_sink cs;
  capture_sink_init(&cs);
  struct metric_sink failing = cs.base;
  failing.write = failing_write;
  test_monotonic_ns += 1000000000ull;
  assert_int_equal(tegra410_uncore_ops.read(inst, &failing), -ENOSPC);
  assert_int_equal(read_after_1s(inst, &cs), 0);
  assert_int_equal(cs.n_lines, 2);
  capture_sink_fini(&cs);
  tegra410_uncore_ops.instance_free(inst);
}

/* Groups are allocated as they are configured: 40 Event options, 40 groups
 * (the array grows past its first 16 slots), each read and reported. */
static void t410_init__groups_grow_with_the_config(void **state) {
  (void)state;
  kernel_reset();
  static char texts[40][32];
  const char *events[40];
  for (int i = 0; i < 40; i++) {
    snprintf(texts[i], sizeof(texts[i]), "uncore_x/event=%d/", i + 1);
    events[i] = texts[i];
  }
  void *inst = start_events(events, 40);
  assert_int_equal(((struct t410 *)inst)->n_groups, 40);
  struct capture_sink cs;
  capture_sink_init(&cs);
  assert_int_equal(read_after_1s(inst, &cs), 0);
  assert_int_equal(capture_sink_count(&cs, "uncore_event,pmu=uncore_x,cpu="),
                   80);
  capture_sink_fini(&cs);
  tegra410_uncore_ops.instance_free(inst);
}

/* Bug: a .unit from sysfs went into the unit tag raw (bytes that are not
 * UTF-8 reached Influx and table output) and one longer than the field
 * was cut inside a UTF-8 sequence. */
static void t410_event__sysfs_unit_is_sanitised(void **state) {
  (void)state;
  kernel_reset();
  pmu_file("unit_pmu", "type", "52\n");
  pmu_file("unit_pmu", "cpumask", "0\n");
  pmu_file("unit_pmu", "format/event", "config:0-7\n");
  pmu_file("unit_pmu", "events/raw", "event=0x1\n");
  pmu_file("unit_pmu", "events/raw.unit", "M B\xff\xfe\n");
  pmu_file("unit_pmu", "events/euro", "event=0x2\n");
  pmu_file("unit_pmu", "events/euro.unit",
           "abcdefghijklmnopqrstuvwxyz0123\xe2\x82\xac\n");
  assert_int_equal(shim_perf_set_rate(52, SHIM_PERF_ANY_CONFIG, 10), 0);
  static const char *const events[] = {"unit_pmu/raw/", "unit_pmu/euro/"};
  void *inst = start_events(events, 2);
  struct capture_sink cs;
  capture_sink_init(&cs);
  assert_int_equal(read_after_1s(inst, &cs), 0);
  assert_int_equal(cs.n_lines, 2);
  assert_string_equal(cs.lines[0],
                      "uncore_event,pmu=unit_pmu,event=raw,unit=M\\ B?? "
                      "count=10i,rate=10.0,enabled_ns=1000000000i,"
                      "running_ns=1000000000i,running_percent=100.0,"
                      "not_counted=0i 1700000000000000000\n");
  assert_string_equal(cs.lines[1],
                      "uncore_event,pmu=unit_pmu,event=euro,"
                      "unit=abcdefghijklmnopqrstuvwxyz0123 "
                      "count=10i,rate=10.0,enabled_ns=1000000000i,"
                      "running_ns=1000000000i,running_percent=100.0,"
                      "not_counted=0i 1700000000000000000\n");
  capture_sink_fini(&cs);
  tegra410_uncore_ops.instance_free(inst);
}

static char logged[8][512];
static size_t n_logged;
static void keep_errors(enum log_level level, const char *message) {
  if (level > LOG_LEVEL_WARNING)
    return;
  if (n_logged < 8)
    snprintf(logged[n_logged], sizeof(logged[0]), "%s", message);
  n_logged++;
}

/* Bug: a cpumask that did not parse ("abc", "0-99999999") counted on every
 * online CPU and summed, 4x the count here, with only an info line. The
 * PMU is now not counted, said once however many groups name it; the
 * other groups count. */
static void t410_event__garbage_cpumask_is_not_counted(void **state) {
  (void)state;
  kernel_reset();
  pmu_file("badmask_a", "type", "53\n");
  pmu_file("badmask_a", "cpumask", "abc\n");
  pmu_file("badmask_a", "format/event", "config:0-7\n");
  pmu_file("badmask_b", "type", "54\n");
  pmu_file("badmask_b", "cpumask", "0-99999999\n");
  pmu_file("badmask_b", "format/event", "config:0-7\n");
  static const char *const events[] = {
      "badmask_a/event=0x1/", "badmask_a/event=0x2/", "badmask_b/event=0x1/",
      "uncore_x/event=0x1/"};
  n_logged = 0;
  log_set_sink(keep_errors, LOG_LEVEL_DEBUG);
  void *inst = start_events(events, 4);
  log_set_sink(NULL, LOG_LEVEL_INFO);
  assert_int_equal(n_logged, 2);
  assert_string_equal(logged[0], "tegra410_uncore: badmask_a: cpumask: "
                                 "\"abc\" not a CPU list (\"0-3,8\"); PMU "
                                 "not counted");
  assert_string_equal(logged[1], "tegra410_uncore: badmask_b: cpumask: "
                                 "\"0-99999999\" not a CPU list "
                                 "(\"0-3,8\"); PMU not counted");
  struct open_match a = {.type = 53, .any_config = true};
  struct open_match b = {.type = 54, .any_config = true};
  shim_perf_for_each(open_match_fn, &a);
  shim_perf_for_each(open_match_fn, &b);
  assert_int_equal(a.n, 0);
  assert_int_equal(b.n, 0);
  struct capture_sink cs;
  capture_sink_init(&cs);
  assert_int_equal(read_after_1s(inst, &cs), 0);
  assert_int_equal(cs.n_lines, 2); /* uncore_x on CPUs 0 and 2 */
  assert_int_equal(capture_sink_count(&cs, "uncore_event,pmu=uncore_x,"), 2);
  capture_sink_fini(&cs);
  tegra410_uncore_ops.instance_free(inst);
}

/* The line of `prefix` in `cs` is exactly `want`. */
static void expect_line(struct capture_sink *cs, const char *prefix,
                        const char *want) {
  const char *line = capture_sink_find(cs, prefix);
  if (line == NULL || strcmp(line, want) != 0)
    fail_msg("want %s     got %s", want, line ? line : "(none)\n");
}

/* Bug: counts were scaled on totals (cumulative value x enabled /
 * running) and the scaled totals differenced, so a change of running
 * fraction biased the interval, an interval in which the group never ran
 * got a phantom share of its history, and a backward step was dropped and
 * counted again later. Counted now as perf stat -I does.
 *
 * Two groups each lead with cycles on a PMU with one dedicated cycle
 * counter, so the kernel rotates them; with a 1.5 s multiplexing interval
 * and a read every second, A runs [0,1.5) and [3,4.5), B [1.5,3):
 *   interval   A running   B running
 *   [0,1)      100%        0 (not counted)
 *   [1,2)      50%         50%
 *   [2,3)      0 (not)     100%
 *   [3,4)      100%        0 (not)
 * A's event counts 100/s until 1 s, 300/s after; B's 50/s. */
static void t410_event__multiplexed_intervals_count_as_perf(void **state) {
  (void)state;
  kernel_reset();
  pmu_file("mux_pmu", "type", "55\n");
  pmu_file("mux_pmu", "cpumask", "0\n");
  pmu_file("mux_pmu", "format/event", "config:0-32\n");
  shim_perf_set_counters(55, 2, /*has_cycle=*/true, 0x100000000ull);
  shim_perf_set_mux_interval(1500000000ull);
  assert_int_equal(shim_perf_set_rate(55, 0x100000000ull, 1000), 0);
  assert_int_equal(shim_perf_set_rate(55, 0x1, 100), 0);
  assert_int_equal(shim_perf_set_rate(55, 0x2, 50), 0);
  static const char *const events[] = {
      "{mux_pmu/event=0x100000000/,mux_pmu/event=0x1/}",
      "{mux_pmu/event=0x100000000/,mux_pmu/event=0x2/}"};
  void *inst = start_events(events, 2);
  static const char a_prefix[] = "uncore_event,pmu=mux_pmu,event=event\\=0x1 ";
  static const char b_prefix[] = "uncore_event,pmu=mux_pmu,event=event\\=0x2 ";
  static const struct {
    const char *a, *b;
  } want[] = {
      {"count=100i,rate=100.0,enabled_ns=1000000000i,running_ns=1000000000i,"
       "running_percent=100.0,not_counted=0i",
       "enabled_ns=1000000000i,running_ns=0i,running_percent=0.0,"
       "not_counted=1i"},
      /* A: 150 in 0.5 s of 1 s -> 300 (scaling the totals: 233) */
      {"count=400i,rate=300.0,enabled_ns=2000000000i,running_ns=1500000000i,"
       "running_percent=50.0,not_counted=0i",
       "count=50i,rate=50.0,enabled_ns=2000000000i,running_ns=500000000i,"
       "running_percent=50.0,not_counted=1i"},
      /* A never ran: no value (scaling the totals: a phantom 167) */
      {"enabled_ns=3000000000i,running_ns=1500000000i,running_percent=0.0,"
       "not_counted=1i",
       "count=100i,rate=50.0,enabled_ns=3000000000i,running_ns=1500000000i,"
       "running_percent=100.0,not_counted=1i"},
      {"count=700i,rate=300.0,enabled_ns=4000000000i,running_ns=2500000000i,"
       "running_percent=100.0,not_counted=1i",
       "enabled_ns=4000000000i,running_ns=1500000000i,running_percent=0.0,"
       "not_counted=2i"},
  };
  struct capture_sink cs;
  capture_sink_init(&cs);
  for (size_t i = 0; i < 4; i++) {
    capture_sink_clear(&cs);
    assert_int_equal(read_after_1s(inst, &cs), 0);
    if (i == 0) /* A's event counts faster from 1 s on */
      assert_int_equal(shim_perf_set_rate(55, 0x1, 300), 0);
    char line[512];
    snprintf(line, sizeof(line), "%s%s 1700000000000000000\n", a_prefix,
             want[i].a);
    expect_line(&cs, a_prefix, line);
    snprintf(line, sizeof(line), "%s%s 1700000000000000000\n", b_prefix,
             want[i].b);
    expect_line(&cs, b_prefix, line);
  }
  capture_sink_fini(&cs);
  tegra410_uncore_ops.instance_free(inst);
}

/* Bug: every preset group led with cycles, so on a PMU with one dedicated
 * cycle counter the two UCF groups, the two C2C-family groups and every
 * Filter copy competed for it and were rotated (each ran half the time or
 * less). The preset's groups now fit together: with enough general
 * counters, every group runs the whole interval. */
static void t410_preset__groups_fit_one_cycle_counter(void **state) {
  (void)state;
  kernel_reset();
  static const struct {
    uint32_t type, general;
    uint64_t cycles;
  } pmus[] = {{28, 10, 0x100000000ull}, /* PCIE: preset + one filter copy */
              {31, 8, 0x100000000ull},  /* UCF */
              {40, 2, 0x0},             /* CMEM */
              {33, 4, 0x0}};            /* NV-CLink, CPU peer */
  for (size_t i = 0; i < sizeof(pmus) / sizeof(pmus[0]); i++)
    shim_perf_set_counters(pmus[i].type, pmus[i].general, /*has_cycle=*/true,
                           pmus[i].cycles);
  void *inst = start_with("src_rp_mask=0x3");
  struct capture_sink cs;
  capture_sink_init(&cs);
  assert_int_equal(read_after_1s(inst, &cs), 0);
  /* 2 UCF + 2 PCIE (unfiltered, filtered) + 1 CMEM + 2 CLink */
  assert_int_equal(capture_sink_count(&cs, "tegra410,"), 7);
  for (size_t i = 0; i < cs.n_lines; i++)
    if (strncmp(cs.lines[i], "tegra410,", 9) == 0 &&
        strstr(cs.lines[i], "running_percent=100.0 ") == NULL)
      fail_msg("not scheduled the whole interval: %s", cs.lines[i]);
  capture_sink_fini(&cs);
  tegra410_uncore_ops.instance_free(inst);
}

/* Bug: the default configuration (no Event: the Tegra410 preset) failed
 * init on a machine without Tegra410 PMUs. It now starts and reports
 * nothing. A configured SysfsRoot that holds no PMU at all (as this empty
 * one) is said once, a warning naming it: it was silent. */
static void t410_init__default_without_tegra410_reports_nothing(void **state) {
  (void)state;
  kernel_reset();
  char root[] = "/tmp/t410-empty.XXXXXX";
  assert_non_null(mkdtemp(root));
  void *inst = tegra410_uncore_ops.instance_new("test");
  struct cfg_value v = {.type = CFG_STRING, .string = root};
  struct cfg_item item = {"SysfsRoot", &v, 1, NULL, 0, 0};
  assert_int_equal(tegra410_uncore_ops.configure(inst, &item), 0);
  n_logged = 0;
  log_set_sink(keep_errors, LOG_LEVEL_DEBUG);
  assert_int_equal(tegra410_uncore_ops.init(inst, &test_host), 0);
  assert_int_equal(n_logged, 1); /* one warning, no error */
  char want[600];
  snprintf(want, sizeof(want),
           "tegra410_uncore: %s: SysfsRoot: No such file or directory: no PMU "
           "under bus/event_source/devices; looking for the Tegra410 PMUs "
           "again at every read",
           root);
  assert_string_equal(logged[0], want);
  struct capture_sink cs;
  capture_sink_init(&cs);
  assert_int_equal(read_after_1s(inst, &cs), 0);
  assert_int_equal(read_after_1s(inst, &cs), 0);
  log_set_sink(NULL, LOG_LEVEL_INFO);
  assert_int_equal(n_logged, 1); /* said once */
  assert_int_equal(cs.n_lines, 0);
  capture_sink_fini(&cs);
  tegra410_uncore_ops.instance_free(inst);
  assert_int_equal(rmdir(root), 0);
}

/* Bug: a PMU format naming config4 was ignored as malformed and its term
 * refused. config4 follows config3 in perf_event_attr (offset 136, attr
 * size 144, PERF_ATTR_SIZE_VER9); a word beyond it cannot be encoded and
 * is said so, naming the file and its text. */
static void t410_event__config4(void **state) {
  (void)state;
  kernel_reset();
  pmu_file("nvidia_ucf_pmu_0", "format/cfg4", "config4:0-7\n");
  pmu_file("nvidia_ucf_pmu_0", "format/cfg5", "config5:0-7\n");
  void *inst = tegra410_uncore_ops.instance_new("test");
  struct cfg_value v = {.type = CFG_STRING, .string = fp.sys};
  struct cfg_item item = {"SysfsRoot", &v, 1, NULL, 0, 0};
  assert_int_equal(tegra410_uncore_ops.configure(inst, &item), 0);
  struct cfg_value e = {.type = CFG_STRING,
                        .string = "nvidia_ucf_pmu_0/cycles,cfg4=0x5/"};
  struct cfg_item event = {"Event", &e, 1, NULL, 0, 0};
  assert_int_equal(tegra410_uncore_ops.configure(inst, &event), 0);
  n_logged = 0;
  log_set_sink(keep_errors, LOG_LEVEL_DEBUG);
  assert_int_equal(tegra410_uncore_ops.init(inst, &test_host), 0);
  log_set_sink(NULL, LOG_LEVEL_INFO);
  assert_int_equal(n_logged, 1);
  assert_string_equal(logged[0],
                      "tegra410_uncore: nvidia_ucf_pmu_0: format: cfg5: "
                      "\"config5:0-7\" names a config word perf_event_attr "
                      "does not have (config to config4), ignored");
  struct open_match m = {.type = 31, .config = 0x100000000ull};
  shim_perf_for_each(open_match_fn, &m);
  assert_int_equal(m.n, 1);
  assert_int_equal(m.config4, 0x5);
  assert_int_equal(m.attr_size, 144);
  tegra410_uncore_ops.instance_free(inst);
}

static char said[8][512];
static enum log_level said_level[8];
static size_t n_said;
static void keep_info(enum log_level level, const char *message) {
  if (level > LOG_LEVEL_INFO)
    return;
  if (n_said < 8) {
    snprintf(said[n_said], sizeof(said[0]), "%s", message);
    said_level[n_said] = level;
  }
  n_said++;
}

/* Bug: the default (the preset, no Event) on a machine without Tegra410
 * PMUs failed init with an error ("no Event given and no Tegra410 PMU
 * found"), so collectd said its init callbacks failed. Nothing found is
 * one info line naming what was looked for (the root holds PMUs, none a
 * Tegra410 one); the PMU directory is listed at every read, and a PMU that
 * appears (its driver loaded) is counted from the next read. */
static void t410_preset__absent_is_info_then_found_at_next_read(void **state) {
  (void)state;
  kernel_reset();
  char root[600];
  snprintf(root, sizeof(root), "%s/later/sys", fp.root);
  assert_int_equal(fakeproc_write(&fp,
                                  "later/sys/bus/event_source/devices/"
                                  "README",
                                  "no PMU yet\n"),
                   0);
  n_said = 0;
  log_set_sink(keep_info, LOG_LEVEL_DEBUG);
  void *inst = tegra410_uncore_ops.instance_new("test");
  struct cfg_value v = {.type = CFG_STRING, .string = root};
  struct cfg_item item = {"SysfsRoot", &v, 1, NULL, 0, 0};
  assert_int_equal(tegra410_uncore_ops.configure(inst, &item), 0);
  uint64_t t0 = test_monotonic_ns;
  assert_int_equal(tegra410_uncore_ops.init(inst, &test_host), 0);
  assert_int_equal(n_said, 1);
  assert_int_equal(said_level[0], LOG_LEVEL_INFO);
  char want[1024];
  snprintf(want, sizeof(want),
           "tegra410_uncore: %s: Preset: no Tegra410 PMU (nvidia_ucf_pmu_*, "
           "nvidia_pcie_pmu_*_rc_*, nvidia_pcie_tgt_pmu_*_rc_*, "
           "nvidia_cmem_latency_pmu_*, nvidia_nvlink_c2c_pmu_*, "
           "nvidia_nvclink_pmu_*, nvidia_nvdlink_pmu_*) under "
           "bus/event_source/devices; looking again at every read",
           root);
  assert_string_equal(said[0], want);
  struct capture_sink cs;
  capture_sink_init(&cs);
  test_monotonic_ns = t0 + 1000000000ull; /* still nothing */
  assert_int_equal(tegra410_uncore_ops.read(inst, &cs.base), 0);
  assert_int_equal(cs.n_lines, 0);
  assert_int_equal(n_said, 1); /* the second miss is not said */
  static const char *const ucf[] = {"cycles", "event=0x100000000",
                                    "mem_bytes_rd", "event=0x123", NULL};
  char rel[256];
  snprintf(rel, sizeof(rel),
           "later/sys/bus/event_source/devices/nvidia_ucf_pmu_0/");
  static const char *const files[][2] = {
      {"type", "31\n"}, {"cpumask", "0\n"}, {"format/event", "config:0-32\n"}};
  for (size_t i = 0; i < 3; i++) {
    char path[512];
    snprintf(path, sizeof(path), "%s%s", rel, files[i][0]);
    assert_int_equal(fakeproc_write(&fp, path, files[i][1]), 0);
  }
  for (size_t i = 0; ucf[i] != NULL; i += 2) {
    char path[512];
    snprintf(path, sizeof(path), "%sevents/%s", rel, ucf[i]);
    assert_int_equal(fakeproc_write(&fp, path, ucf[i + 1]), 0);
  }
  test_monotonic_ns = t0 + 1000000001ull; /* the next read */
  assert_int_equal(tegra410_uncore_ops.read(inst, &cs.base), 0);
  log_set_sink(NULL, LOG_LEVEL_INFO);
  /* the PMU and the preset group it lacks events for; nothing worse */
  for (size_t i = 0; i < n_said && i < 8; i++)
    assert_int_equal(said_level[i], LOG_LEVEL_INFO);
  assert_int_equal(n_said, 3);
  assert_string_equal(said[1], "tegra410_uncore: nvidia_ucf_pmu_0: "
                               "appeared: type 31, 1 CPU(s) (cpumask), 1 "
                               "format terms, 2 events");
  capture_sink_clear(&cs);
  assert_int_equal(read_after_1s(inst, &cs), 0);
  assert_non_null(capture_sink_find(&cs, "uncore_event,pmu=nvidia_ucf_pmu_0,"));
  capture_sink_fini(&cs);
  tegra410_uncore_ops.instance_free(inst);
}

static int rm_entry(const char *path, const struct stat *st, int flag,
                    struct FTW *ftw) {
  (void)st;
  (void)flag;
  (void)ftw;
  return remove(path);
}

/* The CMEM PMU's directory, as the driver (un)registers it. */
static void cmem_pmu(const char *name, const char *type, bool present) {
  char dir[600];
  snprintf(dir, sizeof(dir), "%s/bus/event_source/devices/%s", fp.sys, name);
  if (!present) {
    assert_int_equal(nftw(dir, rm_entry, 8, FTW_DEPTH | FTW_PHYS), 0);
    return;
  }
  static const char *const cmem[] = {"cycles",    "event=0x0",   "rd_req",
                                     "event=0x1", "rd_cum_outs", "event=0x2",
                                     NULL};
  pmu(name, type, "config:0-1\n", cmem);
}

/* Bug: PMUs were looked for at init only (or, with none found, until the
 * first was), so a PMU driver loaded, unloaded or reloaded later was never
 * seen. Each read lists the PMU directory: a PMU that goes ends its series
 * at that read (one INFO line), one that comes back (registered again,
 * here under another type) is counted from a fresh base, one renamed
 * (another socket number) is the old one gone and a new one come. */
static void t410_hotplug__gone_back_renamed(void **state) {
  (void)state;
  kernel_reset();
  for (uint64_t c = 0; c < 3; c++) /* the CMEM rates under type 41 */
    assert_int_equal(shim_perf_set_rate(41, c,
                                        c == 0   ? 2000000000
                                        : c == 1 ? 10000000
                                                 : 3000000000),
                     0);
  void *inst = start();
  struct capture_sink cs;
  capture_sink_init(&cs);
  assert_int_equal(read_after_1s(inst, &cs), 0);
  expect(&cs, "uncore_event,pmu=nvidia_cmem_latency_pmu_0,event=rd_req ",
         "count=10000000i,");
  n_said = 0;
  log_set_sink(keep_info, LOG_LEVEL_INFO);
  cmem_pmu("nvidia_cmem_latency_pmu_0", NULL, false);
  capture_sink_clear(&cs);
  assert_int_equal(read_after_1s(inst, &cs), 0);
  assert_null(capture_sink_find(&cs, "tegra410,pmu=nvidia_cmem_latency_pmu_0"));
  assert_null(
      capture_sink_find(&cs, "uncore_event,pmu=nvidia_cmem_latency_pmu_0"));
  assert_non_null(capture_sink_find(&cs, "tegra410,pmu=nvidia_ucf_pmu_0"));
  assert_int_equal(n_said, 1);
  assert_string_equal(said[0],
                      "tegra410_uncore: nvidia_cmem_latency_pmu_0: gone: "
                      "unregistered; its 1 group(s) closed, their series end "
                      "(if it comes back it is counted afresh)");
  struct open_match m = {.type = 40, .any_config = true};
  shim_perf_for_each(open_match_fn, &m);
  assert_int_equal(m.n, 0); /* its fds closed */

  cmem_pmu("nvidia_cmem_latency_pmu_0", "41\n", true); /* reloaded */
  capture_sink_clear(&cs);
  assert_int_equal(read_after_1s(inst, &cs), 0); /* opened at this read */
  assert_int_equal(n_said, 2);
  assert_string_equal(said[1], "tegra410_uncore: nvidia_cmem_latency_pmu_0: "
                               "appeared: type 41, 1 CPU(s) (cpumask), 1 "
                               "format terms, 3 events");
  capture_sink_clear(&cs);
  assert_int_equal(read_after_1s(inst, &cs), 0);
  /* one second counted since it came back, nothing from before the gap */
  expect(&cs, "uncore_event,pmu=nvidia_cmem_latency_pmu_0,event=rd_req ",
         "count=10000000i,");
  m = (struct open_match){.type = 41, .any_config = true};
  shim_perf_for_each(open_match_fn, &m);
  assert_int_equal(m.n, 3);

  cmem_pmu("nvidia_cmem_latency_pmu_0", NULL, false); /* renumbered */
  cmem_pmu("nvidia_cmem_latency_pmu_1", "41\n", true);
  capture_sink_clear(&cs);
  assert_int_equal(read_after_1s(inst, &cs), 0);
  assert_int_equal(n_said, 4);
  assert_non_null(strstr(said[2], "nvidia_cmem_latency_pmu_0: gone: "));
  assert_non_null(strstr(said[3], "nvidia_cmem_latency_pmu_1: appeared: "));
  capture_sink_clear(&cs);
  assert_int_equal(read_after_1s(inst, &cs), 0);
  assert_null(capture_sink_find(&cs, "tegra410,pmu=nvidia_cmem_latency_pmu_0"));
  assert_non_null(capture_sink_find(
      &cs, "tegra410,pmu=nvidia_cmem_latency_pmu_1,socket=1 "));
  log_set_sink(NULL, LOG_LEVEL_INFO);
  capture_sink_fini(&cs);
  tegra410_uncore_ops.instance_free(inst);
  assert_int_equal(shim_perf_for_each(NULL, NULL), 0); /* every fd closed */
}

/* The kernel of this test: the shim's, with reads failing (ENODEV, as
 * for a PMU gone or its CPU unplugged) while `reads_fail` is set. */
static bool reads_fail;
static ssize_t failing_read(int fd, void *buf, size_t len) {
  if (reads_fail) {
    errno = ENODEV;
    return -1;
  }
  return shim_kernel.read(fd, buf, len);
}

/* Bug: a group whose read failed logged a warning at every attempt. A
 * failing read is said once, the group reopened 1 s, then 2 s later, and
 * the recovery said once at INFO. */
static void t410_read__failure_said_once_reopened_with_backoff(void **state) {
  (void)state;
  kernel_reset();
  struct kernel_ops k = shim_kernel;
  k.read = failing_read;
  const struct kernel_ops *saved = test_host.kernel;
  test_host.kernel = &k;
  static const char *const events[] = {"uncore_x/event=0x1/"};
  void *inst = start_events(events, 1);
  struct capture_sink cs;
  capture_sink_init(&cs);
  assert_int_equal(read_after_1s(inst, &cs), 0);
  n_said = 0;
  log_set_sink(keep_info, LOG_LEVEL_DEBUG);
  reads_fail = true;
  uint64_t t0 = test_monotonic_ns + 1000000000ull;
  test_monotonic_ns = t0;
  assert_int_equal(tegra410_uncore_ops.read(inst, &cs.base), -ENODEV);
  test_monotonic_ns = t0 + 1000000000ull - 1; /* not yet */
  assert_int_equal(tegra410_uncore_ops.read(inst, &cs.base), -EAGAIN);
  test_monotonic_ns = t0 + 1000000000ull; /* reopened, fails again */
  assert_int_equal(tegra410_uncore_ops.read(inst, &cs.base), -ENODEV);
  test_monotonic_ns = t0 + 3000000000ull - 1; /* 2 s later now */
  assert_int_equal(tegra410_uncore_ops.read(inst, &cs.base), -EAGAIN);
  assert_int_equal(n_said, 1);
  assert_int_equal(said_level[0], LOG_LEVEL_WARNING);
  assert_string_equal(said[0], "tegra410_uncore: uncore_x: read: No such "
                               "device; reopening with backoff (1 s doubling "
                               "to 5 min)");
  reads_fail = false;
  test_monotonic_ns = t0 + 3000000000ull;
  capture_sink_clear(&cs);
  assert_int_equal(tegra410_uncore_ops.read(inst, &cs.base), 0);
  assert_int_equal(n_said, 2);
  assert_int_equal(said_level[1], LOG_LEVEL_INFO);
  assert_string_equal(said[1], "tegra410_uncore: uncore_x: read: counting "
                               "again");
  log_set_sink(NULL, LOG_LEVEL_INFO);
  capture_sink_fini(&cs);
  tegra410_uncore_ops.instance_free(inst);
  test_host.kernel = saved;
}

/* perf counts are u64: a cumulative count that steps back is a reset.
 * pmu_counts_delta's u64 difference of such a step is 2^64 - 500; the
 * series drops that interval (no delta, totals kept) and goes on from the
 * new counts, never reporting 1.8e19 events. */
static void t410_series_update__step_back_is_a_reset(void **state) {
  (void)state;
  struct t410_series s;
  t410_series_reset(&s);
  struct pmu_reading r = {.cpu = -1, .n_cpus = 1, .scaled = PMU_EXACT};
  r.d_enabled_ns = r.d_running_ns = 1000000000;
  r.counts[0] = 1000;
  r.delta[0] = 1000;
  t410_series_update(&s, &r, 1);
  assert_true(s.counted);
  assert_int_equal(s.delta[0], 1000);
  r.counts[0] = 500;
  r.delta[0] = UINT64_MAX - 499;
  t410_series_update(&s, &r, 1);
  assert_false(s.counted);
  assert_int_equal(s.delta[0], 0);
  assert_int_equal(s.total[0], 1000);
  assert_int_equal(s.resets, 1);
  assert_int_equal(s.not_counted, 0);
  r.counts[0] = 700;
  r.delta[0] = 200;
  t410_series_update(&s, &r, 1);
  assert_true(s.counted);
  assert_int_equal(s.delta[0], 200);
  assert_int_equal(s.total[0], 1200);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t410_series_update__step_back_is_a_reset),
      cmocka_unit_test(t410_preset_match__anchored_names),
      cmocka_unit_test(t410_preset__metrics_from_the_doc_formulas),
      cmocka_unit_test(t410_preset__one_pmu_failing_keeps_the_others),
      cmocka_unit_test(t410_filter__config_rules),
      cmocka_unit_test(t410_filter__labelled_series),
      cmocka_unit_test(t410_event__config3),
      cmocka_unit_test(t410_event__config4),
      cmocka_unit_test(t410_event__cpumask_of_two_cpus_two_series),
      cmocka_unit_test(t410_event__no_cpumask_sums_online_cpus),
      cmocka_unit_test(t410_read__every_group_failing_returns_the_error),
      cmocka_unit_test(t410_read__sink_errors_reach_the_host),
      cmocka_unit_test(t410_init__groups_grow_with_the_config),
      cmocka_unit_test(t410_event__sysfs_unit_is_sanitised),
      cmocka_unit_test(t410_event__garbage_cpumask_is_not_counted),
      cmocka_unit_test(t410_event__multiplexed_intervals_count_as_perf),
      cmocka_unit_test(t410_preset__groups_fit_one_cycle_counter),
      cmocka_unit_test(t410_init__default_without_tegra410_reports_nothing),
      cmocka_unit_test(t410_preset__absent_is_info_then_found_at_next_read),
      cmocka_unit_test(t410_hotplug__gone_back_renamed),
      cmocka_unit_test(t410_read__failure_said_once_reopened_with_backoff),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
