/* i915_oa on xe devices, in-process against the shim's xe device: MTL on
 * xe (A24u40_A14u32_B8_C8, 32/40-bit wraps) and BMG (PEC64u64, the
 * 64-bit header), the EIO -> STATUS protocol counted in the stream record,
 * paranoid (EACCES names the sysctl, CAP_PERFMON and the device), a
 * device without OA left alone, and discovery of xe nodes. */
#include "common/core/log.h"
#include "common/xe/xe_uapi.h"
#include "plugins/i915_oa/i915_oa.h"
#include "tests/lib/capture_sink.h"
#include "tests/shim/shim.h"
#include "tests/shim/shim_xe.h"

#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#define S UINT64_C(1000000000)

static char root[64], node[128], devdir[96], sysfs[96];
static char logs[32][640];
static size_t n_logs;
static uint64_t now_ns;
static struct plugin_host host;

static void capture(enum log_level level, const char *message) {
  (void)level;
  if (n_logs < 32)
    snprintf(logs[n_logs++], sizeof logs[0], "%s", message);
}

static size_t logged(const char *text) {
  size_t n = 0;
  for (size_t i = 0; i < n_logs; i++)
    n += strstr(logs[i], text) != NULL;
  return n;
}

static uint64_t clock_now(void *ctx) {
  (void)ctx;
  return now_ns;
}

static void put32(uint8_t *p, uint32_t v) {
  for (int i = 0; i < 4; i++)
    p[i] = (uint8_t)(v >> (8 * i));
}

static void put64(uint8_t *p, uint64_t v) {
  put32(p, (uint32_t)v);
  put32(p + 4, (uint32_t)(v >> 32));
}

static int setup(void **state) {
  (void)state;
  snprintf(root, sizeof root, "/tmp/xe_oa_live.XXXXXX");
  assert_non_null(mkdtemp(root));
  snprintf(devdir, sizeof devdir, "%s/dev", root);
  assert_int_equal(mkdir(devdir, 0755), 0);
  snprintf(node, sizeof node, "%s/renderD128", devdir);
  FILE *f = fopen(node, "w");
  assert_non_null(f);
  fclose(f);
  snprintf(sysfs, sizeof sysfs, "%s/sys", root);
  /* a sysfs with DRM classes (none of this node's: the driver from the
   * ioctl); one without them is warned about (i915_oa.c: oa_init) */
  char classes[160];
  snprintf(classes, sizeof classes, "mkdir -p %s/class/drm", sysfs);
  assert_int_equal(system(classes), 0);
  n_logs = 0;
  log_set_sink(capture, LOG_LEVEL_DEBUG);
  plugin_host_init(&host, "t", S);
  host.kernel = &shim_kernel;
  host.clock = (struct plugin_clock){clock_now, clock_now, NULL};
  now_ns = S;
  return 0;
}

static int teardown(void **state) {
  (void)state;
  shim_xe_remove();
  log_set_sink(NULL, LOG_LEVEL_INFO);
  char cmd[96];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
  assert_int_equal(system(cmd), 0);
  return 0;
}

static int conf(void *p, const char *key, const char *value) {
  struct cfg_value v = {.type = CFG_STRING, .string = value};
  struct cfg_item it = {.key = key, .values = &v, .n_values = 1};
  return i915_oa_ops.configure(p, &it);
}

static void *instance(bool by_path) {
  void *p = i915_oa_ops.instance_new("t");
  assert_non_null(p);
  if (by_path)
    assert_int_equal(conf(p, "Device", node), 0);
  assert_int_equal(conf(p, "DevRoot", devdir), 0);
  assert_int_equal(conf(p, "SysfsRoot", sysfs), 0);
  char proc[96];
  snprintf(proc, sizeof proc, "%s/proc", root);
  assert_int_equal(conf(p, "ProcRoot", proc), 0);
  assert_int_equal(conf(p, "MetricSet", "1"), 0);
  assert_int_equal(conf(p, "Period", "0.001"), 0);
  return p;
}

static const char *line_of(const struct capture_sink *c, const char *prefix) {
  const char *line = capture_sink_find(c, prefix);
  if (line == NULL)
    fail_msg("no line %s", prefix);
  return line;
}

/* The integer field `name` ("name=123i") of the first line `prefix`. */
static long long ifield(const struct capture_sink *c, const char *prefix,
                        const char *name) {
  const char *line = line_of(c, prefix);
  char key[64];
  snprintf(key, sizeof key, "%s=", name);
  const char *at = strstr(line, key);
  while (at != NULL && at[-1] != ' ' && at[-1] != ',')
    at = strstr(at + 1, key);
  if (at == NULL)
    fail_msg("no %s in %s", name, line);
  return strtoll(at + strlen(key), NULL, 10);
}

static void a24_report(uint8_t *r, uint32_t ts, uint32_t clk, uint64_t a4) {
  memset(r, 0, 256);
  put32(r, 1u << 19); /* reason: timer */
  put32(r + 4, ts);
  put32(r + 12, clk);
  put32(r + 16 + 4 * 4, (uint32_t)a4);
  r[160 + 4] = (uint8_t)(a4 >> 32);
}

static void mtl_on_xe_exact_totals_and_statuses(void **state) {
  (void)state;
  struct shim_xe_scenario s;
  shim_xe_scenario_mtl(&s);
  assert_int_equal(shim_xe_add(node, &s), 0);
  void *p = instance(true);
  assert_int_equal(i915_oa_ops.init(p, &host), 0);
  struct shim_xe_open st;
  shim_xe_stats(&st);
  assert_int_equal(st.opens, 1);
  assert_int_equal(st.enables, 1);
  /* OA unit 0, SAMPLE_OA, set 1, A24u40 (OAG, select 5), exponent 14
   * (the smallest period of at least 1 ms at 19.2 MHz: 2^15 ticks, 1.7
   * ms), no engine instance (Engine not given: the kernel's 0), DISABLED */
  const uint64_t want[6][2] = {{1, 0},     {2, 1},  {3, 1},
                               {4, 0x500}, {5, 14}, {6, 1}};
  assert_int_equal(st.n_props, 6);
  for (int i = 0; i < 6; i++) {
    assert_int_equal(st.props[i][0], want[i][0]);
    assert_int_equal(st.props[i][1], want[i][1]);
  }
  uint8_t r[3 * 256];
  a24_report(r, 0xFFFFFF00u, 0xFFFFFFF0u, UINT64_C(0xFFFFFFFFF0));
  a24_report(r + 256, 0x100, 0x10, 0x10);
  a24_report(r + 512, 0x300, 0x20, 0x11);
  assert_int_equal(shim_xe_queue_reports(r, sizeof r), 0);
  struct capture_sink c;
  capture_sink_init(&c);
  now_ns += S;
  assert_int_equal(i915_oa_ops.read(p, &c.base), 0);
  assert_int_equal(ifield(&c, "i915_oa,", "gpu_core_clocks"), 0x30);
  /* 0x400 ticks at 19.2 MHz: 53333.3 ns */
  assert_int_equal(ifield(&c, "i915_oa,", "gpu_time_ns"), 53333);
  assert_int_equal(ifield(&c, "i915_oa,", "a4"), 0x21);
  assert_int_equal(ifield(&c, "i915_oa_stream,", "reports"), 3);
  assert_int_equal(ifield(&c, "i915_oa_stream,", "reason_timer"), 3);
  assert_int_equal(ifield(&c, "i915_oa_stream,", "counter_overflow"), 0);
  /* every status once, then two reports after the overflow's gap */
  assert_int_equal(shim_xe_queue_status(DRM_XE_OASTATUS_REPORT_LOST |
                                        DRM_XE_OASTATUS_BUFFER_OVERFLOW |
                                        DRM_XE_OASTATUS_COUNTER_OVERFLOW |
                                        DRM_XE_OASTATUS_MMIO_TRG_Q_FULL),
                   0);
  a24_report(r, 0x80000000u, 0x1000, 0x100);
  a24_report(r + 256, 0x80000100u, 0x1005, 0x107);
  assert_int_equal(shim_xe_queue_reports(r, 512), 0);
  capture_sink_clear(&c);
  now_ns += S;
  assert_int_equal(i915_oa_ops.read(p, &c.base), 0);
  assert_int_equal(ifield(&c, "i915_oa_stream,", "reports"), 5);
  assert_int_equal(ifield(&c, "i915_oa_stream,", "report_lost"), 1);
  assert_int_equal(ifield(&c, "i915_oa_stream,", "buffer_lost"), 1);
  assert_int_equal(ifield(&c, "i915_oa_stream,", "rebases"), 1);
  assert_int_equal(ifield(&c, "i915_oa_stream,", "counter_overflow"), 1);
  assert_int_equal(ifield(&c, "i915_oa_stream,", "mmio_trigger_queue_full"), 1);
  assert_int_equal(ifield(&c, "i915_oa_stream,", "reopens"), 0);
  assert_int_equal(ifield(&c, "i915_oa,", "gpu_core_clocks"), 0x30 + 5);
  assert_int_equal(ifield(&c, "i915_oa,", "a4"), 0x21 + 7);
  shim_xe_stats(&st);
  assert_int_equal(st.opens, 1); /* read on, never reopened */
  assert_int_equal(st.status_ioctls, 1);
  capture_sink_fini(&c);
  i915_oa_ops.instance_free(p);
}

static void bmg_pec64_across_64_bit_wraps(void **state) {
  (void)state;
  struct shim_xe_scenario s;
  shim_xe_scenario_bmg(&s);
  assert_int_equal(shim_xe_add(node, &s), 0);
  void *p = i915_oa_ops.instance_new("t");
  /* discovery: no Device, the xe node under DevRoot */
  i915_oa_ops.instance_free(p);
  p = instance(false);
  assert_int_equal(i915_oa_ops.init(p, &host), 0);
  struct shim_xe_open st;
  shim_xe_stats(&st);
  assert_int_equal(st.opens, 1);
  assert_int_equal(st.props[3][1], 0x10105); /* PEC, select 1, 64-bit */
  uint8_t r[2 * 576];
  memset(r, 0, sizeof r);
  put64(r + 8, UINT64_C(0x00FFFFFFFFFFFFFF));
  put64(r + 24, UINT64_MAX);
  put64(r + 32 + 8 * 10, UINT64_MAX - 1);
  put64(r + 576 + 8, 191); /* 192 ticks: 10000 ns at 19.2 MHz */
  put64(r + 576 + 24, 99);
  put64(r + 576 + 32 + 8 * 10, 3);
  assert_int_equal(shim_xe_queue_reports(r, sizeof r), 0);
  struct capture_sink c;
  capture_sink_init(&c);
  now_ns += S;
  assert_int_equal(i915_oa_ops.read(p, &c.base), 0);
  assert_int_equal(ifield(&c, "i915_oa,", "gpu_time_ns"), 10000);
  assert_int_equal(ifield(&c, "i915_oa,", "gpu_core_clocks"), 100);
  assert_int_equal(ifield(&c, "i915_oa,", "pec10"), 5);
  assert_int_equal(ifield(&c, "i915_oa,", "pec63"), 0);
  assert_int_equal(ifield(&c, "i915_oa_stream,", "reports"), 2);
  capture_sink_fini(&c);
  i915_oa_ops.instance_free(p);
}

static void paranoid_names_sysctl_perfmon_and_device(void **state) {
  (void)state;
  struct shim_xe_scenario s;
  shim_xe_scenario_mtl(&s);
  s.perfmon = false;
  assert_int_equal(shim_xe_add(node, &s), 0);
  void *p = instance(true);
  assert_int_equal(i915_oa_ops.init(p, &host), 0);
  assert_int_equal(logged("i915_oa: "), 1);
  char want[256];
  snprintf(want, sizeof want, "i915_oa: %s: OBSERVATION STREAM_OPEN: ", node);
  assert_int_equal(logged(want), 1);
  assert_int_equal(logged("dev.xe.observation_paranoid=0 or CAP_PERFMON"), 1);
  i915_oa_ops.instance_free(p);
}

static void no_oa_said_once_and_left_alone(void **state) {
  (void)state;
  struct shim_xe_scenario s;
  shim_xe_scenario_mtl(&s);
  s.has_oa = false;
  assert_int_equal(shim_xe_add(node, &s), 0);
  void *p = instance(true);
  assert_int_equal(i915_oa_ops.init(p, &host), 0);
  struct capture_sink c;
  capture_sink_init(&c);
  for (int i = 0; i < 5; i++) {
    now_ns += 600 * S; /* past every backoff */
    i915_oa_ops.read(p, &c.base);
  }
  assert_int_equal(logged("SR-IOV VF"), 1);
  assert_int_equal(logged("this device is left alone"), 1);
  assert_int_equal(capture_sink_count(&c, "i915_oa"), 0);
  capture_sink_fini(&c);
  i915_oa_ops.instance_free(p);
}

/* A kernel whose xe has no OA_UNITS query (EINVAL for the id): no OA,
 * said once, left alone. */
static void old_kernel_without_oa(void **state) {
  (void)state;
  struct shim_xe_scenario s;
  shim_xe_scenario_mtl(&s);
  s.old_kernel = true;
  assert_int_equal(shim_xe_add(node, &s), 0);
  void *p = instance(true);
  assert_int_equal(i915_oa_ops.init(p, &host), 0);
  for (int i = 0; i < 3; i++) {
    now_ns += 600 * S;
    struct capture_sink c;
    capture_sink_init(&c);
    i915_oa_ops.read(p, &c.base);
    capture_sink_fini(&c);
  }
  assert_int_equal(logged("DEVICE_QUERY OA_UNITS: No such device"), 1);
  assert_int_equal(logged("a kernel without xe OA"), 1);
  i915_oa_ops.instance_free(p);
}

/* FlexEvent on xe: OP_ADD_CONFIG (ids from 1: the scenario's set holds 1,
 * so ours is 2), the stream opened with it, OP_REMOVE_CONFIG of ours only
 * at exit; a second instance meets EADDRINUSE, takes the id from sysfs
 * and leaves the config alone. */
static void flex_add_reuse_remove(void **state) {
  (void)state;
  struct shim_xe_scenario s;
  shim_xe_scenario_mtl(&s);
  snprintf(s.card_dir, sizeof s.card_dir, "%s/class/drm/card0", sysfs);
  char cmd[700];
  snprintf(cmd, sizeof cmd, "mkdir -p '%s'", s.card_dir);
  assert_int_equal(system(cmd), 0);
  assert_int_equal(shim_xe_add(node, &s), 0);
  void *flex[2];
  for (int i = 0; i < 2; i++) {
    flex[i] = i915_oa_ops.instance_new("t");
    assert_int_equal(conf(flex[i], "Device", node), 0);
    assert_int_equal(conf(flex[i], "SysfsRoot", sysfs), 0);
    assert_int_equal(conf(flex[i], "FlexEvent", "eu_active 4"), 0);
  }
  assert_int_equal(i915_oa_ops.init(flex[0], &host), 0);
  struct shim_xe_open st;
  shim_xe_stats(&st);
  assert_int_equal(st.adds, 1);
  assert_int_equal(st.opens, 1);
  assert_int_equal(st.props[2][0], DRM_XE_OA_PROPERTY_OA_METRIC_SET);
  assert_int_equal(st.props[2][1], 2);
  /* the second instance: EADDRINUSE, the id from sysfs; the unit is
   * busy with the first's stream, so its open is retried later */
  assert_int_equal(i915_oa_ops.init(flex[1], &host), 0);
  shim_xe_stats(&st);
  assert_int_equal(st.adds, 1);
  assert_int_equal(st.add_refusals, 1);
  assert_int_equal(st.props[2][1], 2);
  i915_oa_ops.instance_free(flex[1]);
  shim_xe_stats(&st);
  assert_int_equal(st.removes, 0); /* not ours to remove */
  i915_oa_ops.instance_free(flex[0]);
  shim_xe_stats(&st);
  assert_int_equal(st.removes, 1);
  assert_int_equal(st.remove_refusals, 0);
  char idp[320];
  snprintf(idp, sizeof idp, "%s/metrics", s.card_dir);
  snprintf(cmd, sizeof cmd, "test -z \"$(ls '%s')\"", idp);
  assert_int_equal(system(cmd), 0); /* the sysfs entry went with it */
}

static void flex_paranoid(void **state) {
  (void)state;
  struct shim_xe_scenario s;
  shim_xe_scenario_mtl(&s);
  s.perfmon = false;
  assert_int_equal(shim_xe_add(node, &s), 0);
  void *p = i915_oa_ops.instance_new("t");
  assert_int_equal(conf(p, "Device", node), 0);
  assert_int_equal(conf(p, "SysfsRoot", sysfs), 0);
  assert_int_equal(conf(p, "FlexEvent", "eu_stall 5"), 0);
  assert_int_equal(i915_oa_ops.init(p, &host), 0);
  char want[256];
  snprintf(want, sizeof want,
           "i915_oa: %s: OBSERVATION ADD_CONFIG: Permission denied; hint: "
           "system-wide OA needs dev.xe.observation_paranoid=0 or CAP_PERFMON",
           node);
  assert_int_equal(logged(want), 1);
  i915_oa_ops.instance_free(p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(mtl_on_xe_exact_totals_and_statuses,
                                      setup, teardown),
      cmocka_unit_test_setup_teardown(bmg_pec64_across_64_bit_wraps, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(paranoid_names_sysctl_perfmon_and_device,
                                      setup, teardown),
      cmocka_unit_test_setup_teardown(no_oa_said_once_and_left_alone, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(flex_add_reuse_remove, setup, teardown),
      cmocka_unit_test_setup_teardown(old_kernel_without_oa, setup, teardown),
      cmocka_unit_test_setup_teardown(flex_paranoid, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
