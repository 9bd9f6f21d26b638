/* i915_oa's live stream in-process against the shim's i915 device: the
 * options (FlexEvent names, MetricSet forms, Engine, EuMetrics, DutyCycle),
 * the platform table (RPL ids, timestamp frequencies, HSW reasons, MTL's
 * OAM unit), the period cap, BUFFER_LOST rebasing and the duty cycle that
 * closes the stream between windows. */
#include "common/core/log.h"
#include "common/i915/oa_accum.h"
#include "common/i915/oa_platform.h"
#include "plugins/i915_oa/i915_oa.h"
#include "tests/lib/capture_sink.h"
#include "tests/shim/shim.h"
#include "tests/shim/shim_i915.h"
#include "tests/shim/shim_panthor.h"

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

#define UUID "01234567-89ab-cdef-0123-456789abcdef"
#define PCI "0000:00:02.0"
#define S UINT64_C(1000000000)

static char root[64], node[128], sysfs[96];
static char logs[32][640];
static size_t n_logs;
static uint64_t now_ns;

static void capture(enum log_level level, const char *message) {
  (void)level;
  if (n_logs < 32)
    snprintf(logs[n_logs++], sizeof logs[0], "%s", message);
}

/* Whether a captured log line contains `text`. */
static bool logged(const char *text) {
  for (size_t i = 0; i < n_logs; i++)
    if (strstr(logs[i], text) != NULL)
      return true;
  return false;
}

static uint64_t clock_now(void *ctx) {
  (void)ctx;
  return now_ns;
}

static struct plugin_host host;

static void mkdirs(const char *path) {
  char buf[PATH_MAX];
  snprintf(buf, sizeof buf, "%s", path);
  for (char *q = buf + 1; *q; q++)
    if (*q == '/') {
      *q = '\0';
      mkdir(buf, 0755);
      *q = '/';
    }
  mkdir(buf, 0755);
}

static void link_to(const char *target, const char *path) {
  assert_int_equal(symlink(target, path), 0);
}

/* <root>/dev/renderD128 and a sysfs tree of one i915 device at PCI with
 * its render and card nodes (as tests/lib/i915_tree.sh builds it). */
static void tree(void) {
  char p[PATH_MAX], dev[256];
  snprintf(p, sizeof p, "%s/dev", root);
  mkdirs(p);
  FILE *f = fopen(node, "w");
  assert_non_null(f);
  fclose(f);
  snprintf(dev, sizeof dev, "%s/devices/" PCI, sysfs);
  for (int i = 0; i < 2; i++) {
    const char *n = i ? "card0" : "renderD128";
    snprintf(p, sizeof p, "%s/drm/%s", dev, n);
    mkdirs(p);
    snprintf(p, sizeof p, "%s/drm/%s/device", dev, n);
    link_to("../../../" PCI, p);
    snprintf(p, sizeof p, "%s/class/drm", sysfs);
    mkdirs(p);
    char target[PATH_MAX];
    snprintf(target, sizeof target, "../../devices/" PCI "/drm/%s", n);
    snprintf(p, sizeof p, "%s/class/drm/%s", sysfs, n);
    link_to(target, p);
  }
  snprintf(p, sizeof p, "%s/bus/pci/drivers/i915", sysfs);
  mkdirs(p);
  snprintf(p, sizeof p, "%s/driver", dev);
  link_to("../../bus/pci/drivers/i915", p);
  snprintf(p, sizeof p, "%s/subsystem", dev);
  link_to("../../bus/pci", p);
}

static void scenario(struct shim_i915_scenario *sc) {
  shim_i915_scenario_default(sc);
  snprintf(sc->sysfs_root, sizeof sc->sysfs_root, "%s", sysfs);
}

static void add_device(const struct shim_i915_scenario *sc) {
  assert_int_equal(shim_i915_add(node, sc), 0);
  assert_int_equal(shim_i915_add_metric(node, UUID, 1), 0);
}

static int setup(void **state) {
  (void)state;
  snprintf(root, sizeof root, "/tmp/i915_oa_live.XXXXXX");
  assert_non_null(mkdtemp(root));
  snprintf(node, sizeof node, "%s/dev/renderD128", root);
  snprintf(sysfs, sizeof sysfs, "%s/sys", root);
  tree();
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
  shim_i915_reset();
  log_set_sink(NULL, LOG_LEVEL_INFO);
  char cmd[96];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
  assert_int_equal(system(cmd), 0);
  return 0;
}

/* ---- configuration ---- */

static int conf(void *p, const char *key, const char *value) {
  struct cfg_value v = {.type = CFG_STRING, .string = value};
  struct cfg_item it = {.key = key, .values = &v, .n_values = 1};
  return i915_oa_ops.configure(p, &it);
}

static int conf_number(void *p, const char *key, double value) {
  struct cfg_value v = {.type = CFG_NUMBER, .number = value};
  struct cfg_item it = {.key = key, .values = &v, .n_values = 1};
  return i915_oa_ops.configure(p, &it);
}

/* A new instance reading the test tree's device by path. */
static void *instance(void) {
  void *p = i915_oa_ops.instance_new("t");
  assert_non_null(p);
  assert_int_equal(conf(p, "Device", node), 0);
  assert_int_equal(conf(p, "SysfsRoot", sysfs), 0);
  char proc[96];
  snprintf(proc, sizeof proc, "%s/proc", root); /* none: privilege unknown */
  assert_int_equal(conf(p, "ProcRoot", proc), 0);
  return p;
}

static void config__flex_names_of_builtin_fields_refused(void **state) {
  (void)state;
  static const char *const taken[] = {
      "a0",
      "a35",
      "b0",
      "c7",
      "mpec3",
      "gpu_time_ns",
      "gpu_busy_percent",
      "name",
      "time",
      "device",
      "engine",
      "metric_set",
      "gpu_core_clocks",
      "avg_gpu_core_frequency_hz",
      "eu_active_percent",
  };
  void *p = i915_oa_ops.instance_new("t");
  for (size_t i = 0; i < sizeof taken / sizeof taken[0]; i++) {
    char v[64];
    snprintf(v, sizeof v, "%s 4", taken[i]);
    n_logs = 0;
    assert_int_equal(conf(p, "FlexEvent", v), -EINVAL);
    assert_true(logged("a field or tag the plugin writes itself"));
  }
  /* near misses are names of their own */
  assert_int_equal(conf(p, "FlexEvent", "a0x 4"), 0);
  assert_int_equal(conf(p, "FlexEvent", "eu_active 4"), 0);
  assert_int_equal(conf(p, "FlexEvent", "names 5"), 0);
  assert_int_equal(((struct oa_instance *)p)->cfg.n_flex, 3);
  i915_oa_ops.instance_free(p);
}

static void config__metric_set_one_canonical_id(void **state) {
  (void)state;
  void *p = i915_oa_ops.instance_new("t");
  struct oa_instance *inst = p;
  static const char *const one[] = {"1", "01", "0x1", "1e0", "001"};
  for (size_t i = 0; i < sizeof one / sizeof one[0]; i++) {
    assert_int_equal(conf(p, "MetricSet", one[i]), 0);
    assert_string_equal(inst->cfg.metric_set, "1");
  }
  /* collectd's unquoted MetricSet 7 */
  assert_int_equal(conf_number(p, "MetricSet", 7), 0);
  assert_string_equal(inst->cfg.metric_set, "7");
  assert_int_equal(conf(p, "MetricSet", UUID), 0);
  assert_string_equal(inst->cfg.metric_set, UUID);
  static const char *const bad[] = {"0",  "abc", "2147483648", "1.5",
                                    "-1", "",    "0x",         "1 2"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    assert_int_equal(conf(p, "MetricSet", bad[i]), -EINVAL);
  assert_int_equal(conf_number(p, "MetricSet", 0), -EINVAL);
  assert_int_equal(conf_number(p, "MetricSet", 2.5), -EINVAL);
  assert_int_equal(conf_number(p, "MetricSet", 4294967297.0), -EINVAL);
  assert_string_equal(inst->cfg.metric_set, UUID);
  i915_oa_ops.instance_free(p);
}

static void config__raw_flex_with_more_words_said_as_such(void **state) {
  (void)state;
  void *p = i915_oa_ops.instance_new("t");
  assert_int_equal(conf(p, "FlexEvent", "r raw:0x5 extra"), -EINVAL);
  assert_true(logged("\"raw:0x5\": a raw register value takes no SHADER or "
                     "ROW after it"));
  assert_false(logged("is not a 32-bit value"));
  n_logs = 0;
  assert_int_equal(conf(p, "FlexEvent", "r raw:0x1ffffffff"), -EINVAL);
  assert_true(logged("\"raw:0x1ffffffff\" is not a 32-bit value"));
  i915_oa_ops.instance_free(p);
}

static void config__engines_without_an_oa_unit_refused(void **state) {
  (void)state;
  void *p = i915_oa_ops.instance_new("t");
  struct oa_instance *inst = p;
  assert_int_equal(conf(p, "Engine", "compute"), -EINVAL);
  assert_true(logged("the compute engines have no OA unit"));
  assert_int_equal(conf(p, "Engine", "copy:0"), -EINVAL);
  assert_int_equal(inst->cfg.engine_class, -1);
  assert_int_equal(conf(p, "Engine", "video-enhance:1"), 0);
  assert_int_equal(inst->cfg.engine_class, 3);
  assert_int_equal(inst->cfg.engine_instance, 1);
  assert_int_equal(conf(p, "Engine", "render"), 0);
  assert_int_equal(inst->cfg.engine_class, 0);
  i915_oa_ops.instance_free(p);
}

static void config__duty_cycle_whole_intervals(void **state) {
  (void)state;
  void *p = i915_oa_ops.instance_new("t");
  struct oa_instance *inst = p;
  assert_int_equal(inst->cfg.duty_cycle, 1);
  assert_int_equal(conf(p, "DutyCycle", "4"), 0);
  assert_int_equal(inst->cfg.duty_cycle, 4);
  assert_int_equal(conf(p, "DutyCycle", "0"), -EINVAL);
  assert_int_equal(conf(p, "DutyCycle", "2.5"), -EINVAL);
  assert_int_equal(inst->cfg.duty_cycle, 4);
  i915_oa_ops.instance_free(p);
}

static void init__flex_with_eu_metrics_refused(void **state) {
  (void)state;
  void *p = instance();
  assert_int_equal(conf(p, "FlexEvent", "eu_active 4"), 0);
  assert_int_equal(conf(p, "EuMetrics", "true"), 0);
  assert_int_equal(i915_oa_ops.init(p, &host), -EINVAL);
  assert_true(logged("i915_oa: config: EuMetrics: EuMetrics needs the Render "
                     "Basic MetricSet"));
  i915_oa_ops.instance_free(p);
}

/* ---- Device entries that are not i915 devices ---- */

static void init__missing_devices_said_in_words(void **state) {
  (void)state;
  char dir[96], other[128];
  snprintf(dir, sizeof dir, "%s/dev", root);
  snprintf(other, sizeof other, "%s/dev/renderD129", root);
  FILE *f = fopen(other, "w");
  assert_non_null(f);
  fclose(f);
  assert_int_equal(shim_panthor_register(other, 129), 0);
  void *p = i915_oa_ops.instance_new("t");
  assert_int_equal(conf(p, "MetricSet", "1"), 0);
  assert_int_equal(conf(p, "SysfsRoot", sysfs), 0);
  assert_int_equal(conf(p, "Device", "/dev/null"), 0);
  assert_int_equal(conf(p, "Device", dir), 0);
  assert_int_equal(conf(p, "Device", other), 0);
  assert_int_equal(i915_oa_ops.init(p, &host), -ENODEV);
  char want[256];
  assert_true(logged("i915_oa: /dev/null: Device: not a DRM device "
                     "(DRM_IOCTL_VERSION: Inappropriate ioctl for device)"));
  snprintf(want, sizeof want, "i915_oa: %s: Device: Is a directory", dir);
  assert_true(logged(want));
  snprintf(want, sizeof want,
           "i915_oa: %s: Device: not an i915 or xe device (another DRM driver)",
           other);
  assert_true(logged(want));
  assert_false(logged("Unknown error"));
  i915_oa_ops.instance_free(p);
  shim_device_remove(other);
}

/* ---- the platform table ---- */

static void platform__rpl_ids_and_kernel_frequencies(void **state) {
  (void)state;
  assert_string_equal(oa_platform_lookup(0xA720)->name, "ADL"); /* RPL-P */
  assert_string_equal(oa_platform_lookup(0xA721)->name, "ADL"); /* RPL-U */
  assert_string_equal(oa_platform_lookup(0xA7A8)->name, "ADL");
  assert_string_equal(oa_platform_lookup(0xA722)->name, "unknown");
  assert_int_equal(oa_platform_lookup(0x0412)->timestamp_hz, 12500000);
  assert_int_equal(oa_platform_lookup(0x1616)->timestamp_hz, 12500000);
  assert_int_equal(oa_platform_lookup(0x1912)->timestamp_hz, 12000000);
  assert_int_equal(oa_platform_lookup(0x5A84)->timestamp_hz, 19200000);
  assert_int_equal(oa_platform_lookup(0x3E92)->timestamp_hz, 12000000);
  assert_int_equal(oa_platform_lookup(0x7D55)->media_format, 13);
  assert_int_equal(oa_platform_lookup(0x9A49)->media_format, 0);
}

#define TGL_RENDER_BASIC "0fc397c0-4833-492c-9ccd-4929d574d5b8"

static void platform__render_basic_known_by_uuid(void **state) {
  (void)state;
  const struct oa_platform *tgl = oa_platform_lookup(0x9A49);
  const struct oa_platform *adl = oa_platform_lookup(0xA720);
  const struct oa_platform *mtl = oa_platform_lookup(0x7D55);
  assert_true(oa_platform_render_basic(tgl, TGL_RENDER_BASIC));
  assert_true(
      oa_platform_render_basic(tgl, "0FC397C0-4833-492C-9CCD-4929D574D5B8"));
  assert_false(oa_platform_render_basic(adl, TGL_RENDER_BASIC));
  assert_true(
      oa_platform_render_basic(adl, "4b886bf3-61ff-4381-9994-ac9b91202fc7"));
  assert_true(oa_platform_render_basic(oa_platform_lookup(0x1616),
                                       "b541bd57-0e0f-4154-b4c0-5858010a2bf7"));
  assert_false(oa_platform_render_basic(tgl, UUID));
  assert_false(oa_platform_render_basic(tgl, "1"));
  assert_true(oa_platform_render_basic(tgl, "RenderBasic"));
  assert_false(
      oa_platform_render_basic(mtl, "RenderBasic")); /* no EU equations */
}

static void put32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }

/* HSW reports have no reason field: its report-id bits count nothing. */
static void accum__hsw_counts_no_reasons(void **state) {
  (void)state;
  const struct oa_format *f = oa_format_get(5); /* A45_B8_C8 */
  struct oa_accum a;
  oa_accum_init(&a, f, oa_platform_lookup(0x0412)->gen12);
  uint8_t raw[256] = {0};
  put32(raw, 0x7Fu << 19 | 0x1234);
  oa_accum_report(&a, raw);
  put32(raw + 4, 1000);
  oa_accum_report(&a, raw);
  assert_int_equal(a.reports, 2);
  for (unsigned b = 0; b < OA_REASONS; b++)
    assert_int_equal(a.reasons[b], 0);
  assert_int_equal(a.totals.ticks, 1000);
  /* Gen8 still counts its 6 bits */
  oa_accum_init(&a, oa_format_get(10), oa_platform_lookup(0x1912)->gen12);
  oa_accum_report(&a, raw);
  assert_int_equal(a.reasons[0], 1);
  assert_int_equal(a.reasons[5], 1);
}

/* ---- the live stream through the plugin ---- */

/* The value of `field` (an integer "...i" or a float) in the first
 * captured line starting with `prefix`. */
static double field(const struct capture_sink *c, const char *prefix,
                    const char *name) {
  const char *line = capture_sink_find(c, prefix);
  assert_non_null(line);
  char key[64];
  snprintf(key, sizeof key, "%s=", name);
  const char *at = strstr(line, key);
  if (at == NULL || (at[-1] != ' ' && at[-1] != ','))
    fail_msg("no %s in %s", name, line);
  return strtod(at + strlen(key), NULL);
}

static void set_mtl(struct shim_i915_scenario *s) {
  s->devid = 0x7D55;
  s->formats = 1u << 12 | 1u << 13 | 1u << 14;
}

static void live__mtl_video_engine_opens_the_oam_format(void **state) {
  (void)state;
  struct shim_i915_scenario sc;
  scenario(&sc);
  set_mtl(&sc);
  add_device(&sc);
  void *p = instance();
  assert_int_equal(conf(p, "MetricSet", "1"), 0);
  assert_int_equal(conf(p, "Engine", "video:1"), 0);
  assert_int_equal(i915_oa_ops.init(p, &host), 0);
  struct shim_i915_stats st;
  assert_int_equal(shim_i915_stats(node, &st), 0);
  assert_int_equal(st.perf_opens, 1);
  assert_int_equal(st.last_format, 13); /* OAM_MPEC8u64_B8_C8 */
  assert_int_equal(st.last_engine_class, 2);
  assert_int_equal(st.last_engine_instance, 1);
  i915_oa_ops.instance_free(p);
  /* render on the same device: the OAG default */
  p = instance();
  assert_int_equal(conf(p, "MetricSet", "1"), 0);
  assert_int_equal(i915_oa_ops.init(p, &host), 0);
  assert_int_equal(shim_i915_stats(node, &st), 0);
  assert_int_equal(st.perf_opens, 2);
  assert_int_equal(st.last_format, 12);
  i915_oa_ops.instance_free(p);
}

static void live__video_engine_before_mtl_said_at_identity(void **state) {
  (void)state;
  struct shim_i915_scenario sc;
  scenario(&sc); /* TGL */
  add_device(&sc);
  void *p = instance();
  assert_int_equal(conf(p, "MetricSet", "1"), 0);
  assert_int_equal(conf(p, "Engine", "video"), 0);
  assert_int_equal(i915_oa_ops.init(p, &host), 0);
  assert_true(logged("i915_oa: " PCI ": Engine: TGL (0x9a49) has no OA unit "
                     "on its video engines"));
  struct shim_i915_stats st;
  assert_int_equal(shim_i915_stats(node, &st), 0);
  assert_int_equal(st.perf_opens + st.perf_open_fails, 0);
  i915_oa_ops.instance_free(p);
}

static void write_rp0(const char *mhz) {
  char path[PATH_MAX];
  snprintf(path, sizeof path, "%s/class/drm/card0/gt_RP0_freq_mhz", sysfs);
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fprintf(f, "%s\n", mhz);
  fclose(f);
}

static int opened_exponent(const char *period) {
  void *p = instance();
  assert_int_equal(conf(p, "MetricSet", "1"), 0);
  assert_int_equal(conf(p, "Period", period), 0);
  assert_int_equal(i915_oa_ops.init(p, &host), 0);
  struct shim_i915_stats st;
  assert_int_equal(shim_i915_stats(node, &st), 0);
  i915_oa_ops.instance_free(p);
  return st.perf_opens ? st.last_exponent : -2;
}

static void period__capped_before_32_bit_fields_wrap(void **state) {
  (void)state;
  /* 2^32 clocks at 1.3 GHz: 3.30 s; half 1.65 s. At 19.2 MHz exponent 23
   * samples every 0.874 s, 24 every 1.748 s. */
  assert_int_equal(oa_period_cap_ns(1300000000u), 1651910498u);
  assert_int_equal(oa_exponent_cap(26, 19200000, 1651910498u), 23);
  assert_int_equal(oa_exponent_cap(20, 19200000, 1651910498u), 20);
  /* no RP0: 2.5 GHz is assumed */
  assert_int_equal(oa_period_cap_ns(0), 858993459u);
  struct shim_i915_scenario sc;
  scenario(&sc);
  add_device(&sc);
  write_rp0("1300");
  assert_int_equal(opened_exponent("5"), 23);
  assert_true(logged("i915_oa: " PCI ": Period: longer than the 3303820996 ns "
                     "in which 32-bit report fields can wrap at RP0 1300 MHz; "
                     "sampling every 873813334 ns instead"));
  assert_int_equal(opened_exponent("0.5"), 23); /* 0.874 s: within the cap */
  write_rp0("garbage");
  assert_int_equal(opened_exponent("5"), 22); /* 0.437 s under 0.859 s */
  assert_true(logged("at an assumed 2500 MHz"));
}

static void no_freq(struct shim_i915_scenario *s, void *ctx) {
  s->devid = *(const uint32_t *)ctx;
  s->oa_freq_hz = 0;
  s->cs_freq_hz = 0;
}

static void identity__old_kernel_frequency_from_the_platform(void **state) {
  (void)state;
  struct shim_i915_scenario sc;
  scenario(&sc);
  add_device(&sc);
  uint32_t skl = 0x1912;
  assert_int_equal(shim_i915_update(node, no_freq, &skl), 0);
  /* 10 ms at SKL's 12 MHz: ceil(2^17 * 1e9 / 12e6) = 10.9 ms, exponent 16 */
  assert_int_equal(opened_exponent("0.01"), 16);
  uint32_t tgl = 0x9A49; /* needs a kernel that answers GETPARAM 51 */
  assert_int_equal(shim_i915_update(node, no_freq, &tgl), 0);
  n_logs = 0;
  assert_int_equal(opened_exponent("0.01"), 16); /* not opened again */
  assert_true(logged("the kernel gives no OA timestamp frequency (GETPARAM 57 "
                     "and 51 fail) and TGL (0x9a49) has none known"));
}

static void live__buffer_lost_starts_a_new_base(void **state) {
  (void)state;
  struct shim_i915_scenario sc;
  scenario(&sc);
  sc.reports = 2;
  sc.buffer_lost_at = 2;
  sc.buffer_lost_gap = 1000; /* A0 moved 5e8 meanwhile: wraps unseen */
  add_device(&sc);
  void *p = instance();
  assert_int_equal(conf(p, "MetricSet", "1"), 0);
  assert_int_equal(i915_oa_ops.init(p, &host), 0);
  struct capture_sink c;
  capture_sink_init(&c);
  for (int i = 0; i < 2; i++) {
    now_ns += S;
    capture_sink_clear(&c);
    assert_int_equal(i915_oa_ops.read(p, &c.base), 0);
  }
  /* reports 0,1 | BUFFER_LOST, 1002,1003: differences 0->1 and
   * 1002->1003, 500000 each on A0, the gap not counted */
  assert_true(field(&c, "i915_oa,", "a0") == 1000000);
  assert_true(field(&c, "i915_oa,", "gpu_core_clocks") == 2000000);
  assert_true(field(&c, "i915_oa_stream,", "buffer_lost") == 1);
  assert_true(field(&c, "i915_oa_stream,", "rebases") == 1);
  assert_true(field(&c, "i915_oa_stream,", "reports") == 4);
  capture_sink_fini(&c);
  i915_oa_ops.instance_free(p);
}

static void live__duty_cycle_closes_the_stream_between_windows(void **state) {
  (void)state;
  struct shim_i915_scenario sc;
  scenario(&sc);
  sc.reports = 2;
  add_device(&sc);
  void *p = instance();
  assert_int_equal(conf(p, "MetricSet", "1"), 0);
  assert_int_equal(conf(p, "DutyCycle", "3"), 0);
  assert_int_equal(i915_oa_ops.init(p, &host), 0);
  struct shim_i915_stats st;
  struct capture_sink c;
  capture_sink_init(&c);
  /* open at init (t = 1 s); reads every second: the 1st closes, the 3rd
   * opens, the 4th closes, the 6th opens */
  static const unsigned opens[] = {1, 1, 2, 2, 2, 3};
  static const unsigned alive[] = {0, 0, 1, 0, 0, 1};
  for (int i = 0; i < 6; i++) {
    now_ns += S;
    capture_sink_clear(&c);
    assert_int_equal(i915_oa_ops.read(p, &c.base), 0);
    assert_int_equal(shim_i915_stats(node, &st), 0);
    assert_int_equal(st.perf_opens, opens[i]);
    assert_int_equal(st.streams_open, alive[i]);
    if (i == 3) {
      /* t = 5 s: windows 1-2 s and 4-5 s, 2 of the 4 s since init */
      assert_true(field(&c, "i915_oa_stream,", "window_ns") == 2e9);
      assert_true(field(&c, "i915_oa_stream,", "coverage_percent") == 50.0);
      assert_true(field(&c, "i915_oa_stream,", "windows") == 2);
      assert_true(field(&c, "i915_oa_stream,", "reopens") == 0);
      /* two windows of one drain each: 2 reports, 1 difference each */
      assert_true(field(&c, "i915_oa,", "gpu_core_clocks") == 2000000);
    }
  }
  capture_sink_fini(&c);
  i915_oa_ops.instance_free(p);
  assert_int_equal(shim_i915_stats(node, &st), 0);
  assert_int_equal(st.streams_open, 0);
}

static void sysfs_id(const char *text) {
  char path[PATH_MAX];
  snprintf(path, sizeof path, "%s/class/drm/card0/metrics/%s/id", sysfs, UUID);
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs(text, f);
  fclose(f);
}

/* Render Basic by its uuid: the EU percentages without EuMetrics. */
static void live__render_basic_set_brings_eu_metrics(void **state) {
  (void)state;
  struct shim_i915_scenario sc;
  scenario(&sc); /* TGL GT2 */
  assert_int_equal(shim_i915_add(node, &sc), 0);
  assert_int_equal(shim_i915_add_metric(node, TGL_RENDER_BASIC, 1), 0);
  assert_int_equal(shim_i915_add_metric(node, UUID, 2), 0);
  for (int set = 0; set < 2; set++) {
    void *p = instance();
    assert_int_equal(conf(p, "MetricSet", set ? UUID : TGL_RENDER_BASIC), 0);
    assert_int_equal(i915_oa_ops.init(p, &host), 0);
    struct capture_sink c;
    capture_sink_init(&c);
    for (int i = 0; i < 2; i++) {
      now_ns += S;
      capture_sink_clear(&c);
      assert_int_equal(i915_oa_ops.read(p, &c.base), 0);
    }
    const char *line = capture_sink_find(&c, "i915_oa,");
    assert_non_null(line);
    if (set == 0)
      /* 100 x ((A7+A8+A9+A10 = 4 x 38000) UDIV 96 EUs) / 4e6 clocks */
      assert_true(field(&c, "i915_oa,", "eu_active_percent") ==
                  100.0 * (4 * 38000 / 96) / 4e6);
    else
      assert_null(strstr(line, "eu_active_percent"));
    capture_sink_fini(&c);
    i915_oa_ops.instance_free(p);
  }
}

static void live__garbage_sysfs_id_names_the_file(void **state) {
  (void)state;
  struct shim_i915_scenario sc;
  scenario(&sc);
  add_device(&sc);
  sysfs_id("bogus\n");
  void *p = instance();
  assert_int_equal(conf(p, "MetricSet", UUID), 0);
  assert_int_equal(i915_oa_ops.init(p, &host), 0);
  char want[512];
  snprintf(want, sizeof want,
           "i915_oa: " PCI ": MetricSet: %s/class/drm/card0/metrics/" UUID
           "/id does not hold a metric set id (a positive decimal number)",
           sysfs);
  assert_true(logged(want));
  assert_false(logged("hint"));
  i915_oa_ops.instance_free(p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(
          config__flex_names_of_builtin_fields_refused, setup, teardown),
      cmocka_unit_test_setup_teardown(config__metric_set_one_canonical_id,
                                      setup, teardown),
      cmocka_unit_test_setup_teardown(
          config__raw_flex_with_more_words_said_as_such, setup, teardown),
      cmocka_unit_test_setup_teardown(
          config__engines_without_an_oa_unit_refused, setup, teardown),
      cmocka_unit_test_setup_teardown(config__duty_cycle_whole_intervals, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(init__flex_with_eu_metrics_refused, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(init__missing_devices_said_in_words,
                                      setup, teardown),
      cmocka_unit_test(platform__rpl_ids_and_kernel_frequencies),
      cmocka_unit_test(accum__hsw_counts_no_reasons),
      cmocka_unit_test(platform__render_basic_known_by_uuid),
      cmocka_unit_test_setup_teardown(live__render_basic_set_brings_eu_metrics,
                                      setup, teardown),
      cmocka_unit_test_setup_teardown(
          live__mtl_video_engine_opens_the_oam_format, setup, teardown),
      cmocka_unit_test_setup_teardown(
          live__video_engine_before_mtl_said_at_identity, setup, teardown),
      cmocka_unit_test_setup_teardown(period__capped_before_32_bit_fields_wrap,
                                      setup, teardown),
      cmocka_unit_test_setup_teardown(
          identity__old_kernel_frequency_from_the_platform, setup, teardown),
      cmocka_unit_test_setup_teardown(live__buffer_lost_starts_a_new_base,
                                      setup, teardown),
      cmocka_unit_test_setup_teardown(
          live__duty_cycle_closes_the_stream_between_windows, setup, teardown),
      cmocka_unit_test_setup_teardown(live__garbage_sysfs_id_names_the_file,
                                      setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
