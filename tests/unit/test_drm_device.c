/*
 * test_drm_device.c: the drm_device core on fixture trees laid out as the
 * kernel lays them out (tests/lib/ddv_tree), with a scripted clock and a
 * kernel seam that records every file opened and can fail chosen ones:
 * exact records per driver, the never-wake rule (what a suspended device
 * has opened), wraps, energy to watts, hostile files said once, filters,
 * devices that come and go. The seam notes every attribute read (read or
 * pread, by the path its fd was opened as).
 */
#include "plugins/drm_device/drm_device.h"

#include "common/collectd/collectd_map.h"
#include "common/core/log.h"
#include "common/core/metric_unit.h"
#include "tests/lib/capture_sink.h"
#include "tests/lib/ddv_tree.h"
#include "tests/lib/gm_build.h"

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#define SEC 1000000000ull
#define T0 1700000000ull

/* ---- the recording seam ---- */

static char opened[512][160]; /* attributes read (read or pread), in order */
static size_t n_opened;
static char fd_path[1024][160]; /* what each fd was opened as */
static const char *fail_path;   /* reads of a path ending so fail */
static int fail_errno;          /* with this (EIO when 0) */
static const char *fail_open;   /* opens of a path ending so fail */
static int fail_open_errno;     /* with this */
static size_t n_live, max_live; /* attribute fds open now, at most */

static bool ends_with(const char *s, const char *tail) {
  size_t ls = strlen(s), lt = strlen(tail);
  return ls >= lt && strcmp(s + ls - lt, tail) == 0;
}

static int rec_openat(int dirfd, const char *path, int flags, mode_t mode) {
  if (fail_open != NULL && ends_with(path, fail_open)) {
    errno = fail_open_errno;
    return -1;
  }
  int fd = kernel_real.openat(dirfd, path, flags, mode);
  if (fd >= 0 && fd < 1024) {
    snprintf(fd_path[fd], sizeof(fd_path[0]), "%s",
             (flags & O_DIRECTORY) ? "" : path);
    if (!(flags & O_DIRECTORY) && ++n_live > max_live)
      max_live = n_live;
  }
  return fd;
}

/* Note the read; true when it must fail with EIO. */
static bool rec_note(int fd) {
  if (fd < 0 || fd >= 1024 || fd_path[fd][0] == '\0')
    return false;
  if (n_opened < 512)
    snprintf(opened[n_opened++], sizeof(opened[0]), "%s", fd_path[fd]);
  if (fail_path == NULL)
    return false;
  size_t lp = strlen(fd_path[fd]), lf = strlen(fail_path);
  return lp >= lf && strcmp(fd_path[fd] + lp - lf, fail_path) == 0;
}

static ssize_t rec_read(int fd, void *buf, size_t len) {
  if (rec_note(fd)) {
    errno = fail_errno ? fail_errno : EIO;
    return -1;
  }
  return kernel_real.read(fd, buf, len);
}

static ssize_t rec_pread(int fd, void *buf, size_t len, off_t off) {
  if (rec_note(fd)) {
    errno = fail_errno ? fail_errno : EIO;
    return -1;
  }
  return kernel_real.pread(fd, buf, len, off);
}

static int rec_close(int fd) {
  if (fd >= 0 && fd < 1024) {
    if (fd_path[fd][0] != '\0')
      n_live--;
    fd_path[fd][0] = '\0';
  }
  return kernel_real.close(fd);
}

/* How many attributes read this time have a path ending in `tail`. */
static size_t read_count(const char *tail) {
  size_t n = 0;
  for (size_t i = 0; i < n_opened; i++)
    n += ends_with(opened[i], tail);
  return n;
}

static struct kernel_ops rec_kernel;

/* ---- logs ---- */

static char logs[64][512];
static enum log_level log_levels[64];
static size_t n_logs;

static void log_capture(enum log_level level, const char *message) {
  if (n_logs < 64) {
    log_levels[n_logs] = level;
    snprintf(logs[n_logs++], sizeof(logs[0]), "%s", message);
  }
}

static size_t logs_with(const char *needle) {
  size_t n = 0;
  for (size_t i = 0; i < n_logs; i++)
    n += strstr(logs[i], needle) != NULL;
  return n;
}

/* ---- the fixture ---- */

struct fixture {
  struct ddv_tree tree;
  struct plugin_host host;
  struct capture_sink sink;
  void *inst;
  uint64_t mono;
};

static uint64_t clock_mono(void *ctx) { return ((struct fixture *)ctx)->mono; }
static uint64_t clock_real(void *ctx) {
  return T0 * SEC + ((struct fixture *)ctx)->mono;
}

static int setup(void **state) {
  struct fixture *f = calloc(1, sizeof(*f));
  assert_non_null(f);
  assert_int_equal(ddv_tree_init(&f->tree, NULL), 0);
  capture_sink_init(&f->sink);
  n_opened = n_logs = 0;
  fail_path = NULL;
  fail_errno = 0;
  fail_open = NULL;
  fail_open_errno = 0;
  n_live = max_live = 0;
  memset(fd_path, 0, sizeof(fd_path));
  log_set_sink(log_capture, LOG_LEVEL_DEBUG);
  *state = f;
  return 0;
}

static int teardown(void **state) {
  struct fixture *f = *state;
  if (f->inst != NULL)
    drm_device_ops.instance_free(f->inst);
  capture_sink_fini(&f->sink);
  ddv_tree_fini(&f->tree);
  log_set_sink(NULL, LOG_LEVEL_INFO);
  free(f);
  return 0;
}

static int configure(struct fixture *f, const char *key, const char *value) {
  struct cfg_value v = {.type = CFG_STRING, .string = value};
  struct cfg_item item = {.key = key, .values = &v, .n_values = 1};
  return drm_device_ops.configure(f->inst, &item);
}

static void start(struct fixture *f, ...) {
  f->inst = drm_device_ops.instance_new("test");
  assert_non_null(f->inst);
  assert_int_equal(configure(f, "SysfsRoot", f->tree.sys), 0);
  va_list ap;
  va_start(ap, f);
  const char *key;
  while ((key = va_arg(ap, const char *)) != NULL)
    assert_int_equal(configure(f, key, va_arg(ap, const char *)), 0);
  va_end(ap);
  plugin_host_init(&f->host, "test", SEC);
  rec_kernel = kernel_real;
  rec_kernel.openat = rec_openat;
  rec_kernel.read = rec_read;
  rec_kernel.pread = rec_pread;
  rec_kernel.close = rec_close;
  f->host.kernel = &rec_kernel;
  f->host.clock = (struct plugin_clock){clock_mono, clock_real, f};
  assert_int_equal(drm_device_ops.init(f->inst, &f->host), 0);
}

/* Every field's type has a row in the unit table (so a collectd type). */
struct check_sink {
  struct metric_sink base;
  struct capture_sink *inner;
};

static int check_write(struct metric_sink *sink, const struct metric *m) {
  struct check_sink *c = (struct check_sink *)sink;
  for (size_t i = 0; i < m->n_fields; i++)
    if (metric_unit_find(m->fields[i].ctype) == NULL)
      fail_msg("%s %s: type %s has no row", m->measurement, m->fields[i].key,
               m->fields[i].ctype);
  return c->inner->base.write(&c->inner->base, m);
}

static void read_at(struct fixture *f, uint64_t sec) {
  f->mono = sec * SEC;
  capture_sink_clear(&f->sink);
  n_opened = 0;
  struct check_sink c = {{NULL, check_write, NULL}, &f->sink};
  assert_int_equal(drm_device_ops.read(f->inst, &c.base), 0);
}

/* Exactly this line (without its timestamp) exists at the current time. */
static void expect_line(struct fixture *f, const char *line) {
  char want[1024];
  snprintf(want, sizeof(want), "%s %llu\n", line,
           (unsigned long long)(T0 * SEC + f->mono));
  for (size_t i = 0; i < f->sink.n_lines; i++)
    if (strcmp(f->sink.lines[i], want) == 0)
      return;
  for (size_t i = 0; i < f->sink.n_lines; i++)
    fprintf(stderr, "# got: %s", f->sink.lines[i]);
  fail_msg("missing line: %s", line);
}

static void expect_no_line(struct fixture *f, const char *prefix) {
  const char *got = capture_sink_find(&f->sink, prefix);
  if (got != NULL)
    fail_msg("unexpected line: %s", got);
}

static void put(struct fixture *f, const char *node, const char *rel,
                const char *text) {
  assert_int_equal(ddv_tree_write(&f->tree, node, rel, text), 0);
}

/* ---- tests ---- */

#define AMD "driver=amdgpu,device=0000:0b:00.0"

static void amdgpu_dgpu__exact_records(void **state) {
  struct fixture *f = *state;
  assert_int_equal(ddv_tree_fixture(&f->tree, "amdgpu_dgpu"), 0);
  start(f, NULL);
  read_at(f, 1);
  expect_line(f, "drm_device," AMD " runtime_suspended=0i,"
                 "runtime_active_ns=1000000000i,runtime_suspended_ns=0i,"
                 "values_age_seconds=0.0");
  expect_line(f, "drm_device_freq," AMD ",domain=sclk "
                 "requested_hz=1850000000i,actual_hz=1850000000i");
  expect_line(f, "drm_device_freq," AMD ",domain=mclk "
                 "requested_hz=1000000000i,actual_hz=1000000000i");
  expect_line(f, "drm_device_memory," AMD ",region=vram "
                 "total_bytes=17163091968i,used_bytes=1073741824i");
  expect_line(f, "drm_device_memory," AMD ",region=vis_vram "
                 "total_bytes=17163091968i,used_bytes=536870912i");
  expect_line(f, "drm_device_memory," AMD ",region=gtt "
                 "total_bytes=33554432000i,used_bytes=20971520i");
  expect_line(f, "drm_device_busy," AMD ",unit=gpu percent=37.0");
  expect_line(f, "drm_device_busy," AMD ",unit=memory percent=12.0");
  expect_line(f, "drm_device_temperature," AMD ",sensor=edge celsius=51.0");
  expect_line(f, "drm_device_temperature," AMD ",sensor=junction celsius=63.0");
  expect_line(f, "drm_device_temperature," AMD ",sensor=mem celsius=70.0");
  expect_line(f, "drm_device_power," AMD ",sensor=PPT "
                 "power_watts=123.0,power_cap_watts=272.0");
  expect_line(f, "drm_device_fan," AMD ",sensor=fan1 rpm=1450.0");
  expect_line(f, "drm_device_voltage," AMD ",sensor=vddgfx volts=0.987");
  /* ddv_info.c */
  expect_line(f, "drm_device," AMD ",pci_vendor=0x1002,pci_device=0x73bf,"
                 "pci_subsystem_vendor=0x1002,pci_subsystem_device=0x0e3a,"
                 "vram_vendor=samsung,unique_id=5c2d4e1f0a3b6978 info=1i");
  /* gpu_metrics v1.3 (tests/lib/gm_build.c): degrees, W, %, MHz, RPM;
   * mm and the VR temperatures are not filled (0xFFFF): absent */
  expect_line(f, "drm_device_gpu_metrics," AMD ",sensor=edge celsius=45.0");
  expect_line(f, "drm_device_gpu_metrics," AMD ",sensor=hotspot celsius=60.0");
  expect_line(f, "drm_device_gpu_metrics," AMD ",sensor=mem celsius=70.0");
  expect_line(f, "drm_device_gpu_metrics," AMD
                 ",sensor=gfx busy_percent=35.0,volts=0.9");
  expect_line(f, "drm_device_gpu_metrics," AMD ",sensor=umc busy_percent=10.0");
  expect_line(f,
              "drm_device_gpu_metrics," AMD ",sensor=socket power_watts=150.0");
  expect_line(f, "drm_device_gpu_metrics," AMD ",sensor=gfxclk "
                 "average_hz=1800000000i,actual_hz=1900000000i");
  expect_line(f, "drm_device_gpu_metrics," AMD ",sensor=fan rpm=1500.0");
  expect_line(f, "drm_device_gpu_metrics," AMD ",sensor=hbm0 celsius=80.0");
  /* indep_throttle_status bit 35 (SMU_THROTTLER_TEMP_EDGE_BIT) */
  expect_line(f, "drm_device_throttle," AMD ",domain=smu throttled=1i,"
                 "reason_power=0i,reason_current=0i,reason_thermal=1i,"
                 "reason_other=0i");
  assert_int_equal(f->sink.n_lines, 25);
  assert_int_equal(n_logs, 1); /* the INFO line of discovery */
}

/* amdgpu_pm.c: hwmon_attributes_visible shows power1_average and
 * power1_input each where the SMU has that sensor, so a part may have both:
 * one power_watts, from the average. */
static void amdgpu_dgpu__average_and_input_one_power(void **state) {
  struct fixture *f = *state;
  assert_int_equal(ddv_tree_fixture(&f->tree, "amdgpu_dgpu"), 0);
  put(f, "card1", "device/hwmon/hwmon4/power1_input", "118000000\n");
  start(f, NULL);
  read_at(f, 1);
  expect_line(f, "drm_device_power," AMD ",sensor=PPT "
                 "power_watts=123.0,power_cap_watts=272.0");
  assert_int_equal(f->sink.n_lines, 25);
  for (size_t i = 0; i < n_opened; i++)
    if (strstr(opened[i], "power1_input") != NULL)
      fail_msg("read %s, whose value is not reported", opened[i]);
}

static void amdgpu_apu__records(void **state) {
  struct fixture *f = *state;
  assert_int_equal(ddv_tree_fixture(&f->tree, "amdgpu_apu"), 0);
  start(f, NULL);
  read_at(f, 1);
  expect_line(f, "drm_device_freq,driver=amdgpu,device=0000:c1:00.0,"
                 "domain=sclk requested_hz=800000000i");
  expect_line(f, "drm_device_memory,driver=amdgpu,device=0000:c1:00.0,"
                 "region=vram total_bytes=536870912i,used_bytes=268435456i");
  expect_line(f, "drm_device_busy,driver=amdgpu,device=0000:c1:00.0,"
                 "unit=gpu percent=3.0");
}

#define XE "driver=xe,device=0000:03:00.0"
#define I915 "driver=i915,device=0000:00:02.0"

static void xe_two_gts__freq_idle_throttle_energy(void **state) {
  struct fixture *f = *state;
  assert_int_equal(ddv_tree_fixture(&f->tree, "xe_bmg"), 0);
  start(f, NULL);
  read_at(f, 1);
  expect_line(f, "drm_device_freq," XE ",domain=gt0 actual_hz=2400000000i,"
                 "requested_hz=2000000000i,min_hz=400000000i,"
                 "max_hz=2850000000i,rp0_hz=2850000000i,rpe_hz=1900000000i,"
                 "rpn_hz=400000000i");
  expect_line(f, "drm_device_freq," XE ",domain=gt1 actual_hz=1200000000i,"
                 "requested_hz=2000000000i,min_hz=400000000i,"
                 "max_hz=2850000000i,rp0_hz=2850000000i,rpe_hz=1900000000i,"
                 "rpn_hz=400000000i");
  /* the first reading: no interval yet */
  expect_line(f, "drm_device_idle," XE ",domain=gt0 residency_ns=1000000000i");
  expect_line(f, "drm_device_power," XE ",sensor=card energy_joules=5.0,"
                 "power_cap_watts=250.0");
  expect_line(f, "drm_device_throttle," XE ",domain=gt1 throttled=1i,"
                 "reason_pl1=0i,reason_pl2=0i,reason_pl4=0i,reason_prochot=0i,"
                 "reason_ratl=0i,reason_thermal=1i,reason_vr_tdc=0i,"
                 "reason_vr_thermalert=0i");
  expect_line(f, "drm_device_temperature," XE ",sensor=vram celsius=52.5");
  /* 2 s later: gt0 idle 1.5 s of 2, card 14 J in 2 s */
  put(f, "card1", "device/tile0/gt0/gtidle/idle_residency_ms", "2500\n");
  put(f, "card1", "device/hwmon/hwmon2/energy1_input", "19000000\n");
  read_at(f, 3);
  expect_line(f, "drm_device_idle," XE ",domain=gt0 "
                 "residency_ns=2500000000i,idle_percent=75.0");
  expect_line(f, "drm_device_idle," XE ",domain=gt1 "
                 "residency_ns=2000000000i,idle_percent=0.0");
  expect_line(f, "drm_device_power," XE ",sensor=card energy_joules=19.0,"
                 "power_watts=7.0,power_cap_watts=250.0");
  expect_line(f, "drm_device_power," XE ",sensor=pkg energy_joules=3.0,"
                 "power_watts=0.0,power_cap_watts=150.0");
}

/* hwmon energy is a 64-bit count (i915_hwmon.c: hwm_energy, xe_hwmon.c:
 * xe_hwmon_energy_get accumulate the 32-bit register into a u64): one that
 * goes down was reset (a driver reload), not wrapped. That interval has no
 * power_watts; energy_joules goes on from the new reading. Before, a step
 * from 4294000000 to 32704 read as a 32-bit wrap and one near 2^64 as a
 * 64-bit wrap. */
static void energy__step_back_is_a_reset(void **state) {
  struct fixture *f = *state;
  assert_int_equal(ddv_tree_fixture(&f->tree, "xe_bmg"), 0);
  put(f, "card1", "device/hwmon/hwmon2/energy1_input", "4294000000\n");
  put(f, "card1", "device/hwmon/hwmon2/energy2_input",
      "18446744073709000000\n");
  start(f, "Report", "power", NULL);
  read_at(f, 1);
  put(f, "card1", "device/hwmon/hwmon2/energy1_input", "32704\n");
  put(f, "card1", "device/hwmon/hwmon2/energy2_input", "448384\n");
  read_at(f, 2);
  expect_line(f, "drm_device_power," XE ",sensor=card energy_joules=4294.0,"
                 "power_cap_watts=250.0");
  expect_line(f, "drm_device_power," XE ",sensor=pkg "
                 "energy_joules=18446744073709.0,power_cap_watts=150.0");
  /* from the new base: 1 J in 1 s */
  put(f, "card1", "device/hwmon/hwmon2/energy1_input", "1032704\n");
  put(f, "card1", "device/hwmon/hwmon2/energy2_input", "1448384\n");
  read_at(f, 3);
  expect_line(f, "drm_device_power," XE ",sensor=card energy_joules=4295.0,"
                 "power_watts=1.0,power_cap_watts=250.0");
  expect_line(f, "drm_device_power," XE ",sensor=pkg "
                 "energy_joules=18446744073710.0,power_watts=1.0,"
                 "power_cap_watts=150.0");
  expect_no_line(f, "drm_device_freq");
  expect_line(f, "drm_device," XE " values_age_seconds=0.0");
  /* said once each, at INFO: a reload resets the driver's count */
  assert_int_equal(logs_with("device/hwmon/hwmon2/energy1_input: read: went "
                             "back from 4294000000 to 32704: reset"),
                   1);
  assert_int_equal(logs_with("went back from"), 2);
}

/* Residency steps back (xe_gt_idle.c: a u64, reset with the driver) or
 * jumps by more than the interval (i915's u32 back near 0 after a reload
 * reads as a 49-day wrap): resets, no idle_percent for that interval.
 * The u32 rc6 still wraps where the step fits the interval. */
static void residency__reset_not_wrap(void **state) {
  struct fixture *f = *state;
  assert_int_equal(ddv_tree_fixture(&f->tree, "xe_bmg"), 0);
  start(f, "Report", "idle", NULL);
  read_at(f, 1);
  put(f, "card1", "device/tile0/gt0/gtidle/idle_residency_ms", "100\n");
  read_at(f, 2);
  expect_line(f, "drm_device_idle," XE ",domain=gt0 residency_ns=1000000000i");
  put(f, "card1", "device/tile0/gt0/gtidle/idle_residency_ms", "600\n");
  read_at(f, 3);
  expect_line(f, "drm_device_idle," XE ",domain=gt0 "
                 "residency_ns=1500000000i,idle_percent=50.0");
  /* 60 s of residency in 1 s: impossible, a reset */
  put(f, "card1", "device/tile0/gt0/gtidle/idle_residency_ms", "60600\n");
  read_at(f, 4);
  expect_line(f, "drm_device_idle," XE ",domain=gt0 residency_ns=1500000000i");
}

static void i915_rc6__reload_is_a_reset(void **state) {
  struct fixture *f = *state;
  assert_int_equal(ddv_tree_fixture(&f->tree, "i915_igpu"), 0);
  put(f, "card0", "power/rc6_residency_ms", "5000\n");
  start(f, "Report", "idle", NULL);
  read_at(f, 1);
  put(f, "card0", "power/rc6_residency_ms", "100\n");
  read_at(f, 2);
  expect_line(f,
              "drm_device_idle," I915 ",domain=gt0 residency_ns=5000000000i");
  put(f, "card0", "power/rc6_residency_ms", "600\n");
  read_at(f, 3);
  expect_line(f, "drm_device_idle," I915 ",domain=gt0 "
                 "residency_ns=5500000000i,idle_percent=50.0");
}

static void i915_igpu__card_level_rc6_wraps(void **state) {
  struct fixture *f = *state;
  assert_int_equal(ddv_tree_fixture(&f->tree, "i915_igpu"), 0);
  start(f, NULL);
  read_at(f, 1);
  expect_line(f, "drm_device_freq," I915 ",domain=gt0 actual_hz=350000000i,"
                 "requested_hz=350000000i,min_hz=100000000i,"
                 "max_hz=1150000000i,boost_hz=1150000000i,rp0_hz=1150000000i,"
                 "rpe_hz=350000000i,rpn_hz=100000000i");
  expect_line(f, "drm_device_idle," I915 ",domain=gt0 "
                 "residency_ns=4294967000000000i");
  /* "%u" ms wrapped: 4294967000 -> 200 is 496 ms in 1 s */
  put(f, "card0", "power/rc6_residency_ms", "200\n");
  read_at(f, 2);
  expect_line(f, "drm_device_idle," I915 ",domain=gt0 "
                 "residency_ns=4294967496000000i,idle_percent=49.6");
}

static void i915_mtl__per_gt(void **state) {
  struct fixture *f = *state;
  assert_int_equal(ddv_tree_fixture(&f->tree, "i915_mtl"), 0);
  start(f, NULL);
  read_at(f, 1);
  expect_line(f, "drm_device_freq," I915 ",domain=gt1 actual_hz=1000000000i,"
                 "requested_hz=1300000000i,min_hz=300000000i,"
                 "max_hz=2250000000i,boost_hz=2250000000i,rp0_hz=2250000000i,"
                 "rpe_hz=700000000i,rpn_hz=300000000i");
  expect_line(f, "drm_device_idle," I915 ",domain=gt1 "
                 "residency_ns=9000000000i");
  expect_line(f, "drm_device_throttle," I915 ",domain=gt0 throttled=1i,"
                 "reason_pl1=1i,reason_pl2=0i,reason_pl4=0i,reason_thermal=0i,"
                 "reason_prochot=0i,reason_ratl=0i,reason_vr_thermalert=0i,"
                 "reason_vr_tdc=0i");
  /* the card-level files are not read when gt/ exists */
  for (size_t i = 0; i < n_opened; i++)
    assert_true(strncmp(opened[i], "gt_", 3) != 0 &&
                strcmp(opened[i], "power/rc6_residency_ms") != 0);
}

static void i915_dgpu__hwmon(void **state) {
  struct fixture *f = *state;
  assert_int_equal(ddv_tree_fixture(&f->tree, "i915_dgpu"), 0);
  start(f, NULL);
  read_at(f, 1);
  expect_line(f, "drm_device_power,driver=i915,device=0000:03:00.0,"
                 "sensor=power1 energy_joules=1.0,power_cap_watts=190.0");
  expect_line(f, "drm_device_voltage,driver=i915,device=0000:03:00.0,"
                 "sensor=in0 volts=1.05");
}

/* i915_hwmon.c: i915_hwmon_register adds, next to the device's "i915"
 * hwmon, one "i915_gt<N>" hwmon per GT with only energy1_input (no label):
 * its energy is the GT's, a sensor of its own, not the card's power1. */
static void i915_dgpu__per_gt_hwmon_is_its_own_sensor(void **state) {
  struct fixture *f = *state;
  assert_int_equal(ddv_tree_fixture(&f->tree, "i915_dgpu"), 0);
  put(f, "card1", "device/hwmon/hwmon4/name", "i915_gt0\n");
  put(f, "card1", "device/hwmon/hwmon4/energy1_input", "2000000\n");
  start(f, NULL);
  read_at(f, 1);
  expect_line(f, "drm_device_power,driver=i915,device=0000:03:00.0,"
                 "sensor=power1 energy_joules=1.0,power_cap_watts=190.0");
  expect_line(f, "drm_device_power,driver=i915,device=0000:03:00.0,"
                 "sensor=gt0 energy_joules=2.0");
}

static void panfrost_devfreq_and_npu(void **state) {
  struct fixture *f = *state;
  assert_int_equal(ddv_tree_fixture(&f->tree, "panfrost"), 0);
  assert_int_equal(ddv_tree_fixture(&f->tree, "ivpu"), 0);
  start(f, NULL);
  read_at(f, 1);
  expect_line(f, "drm_device_freq,driver=panfrost,device=fde60000.gpu,"
                 "domain=devfreq actual_hz=400000000i,min_hz=200000000i,"
                 "max_hz=800000000i");
  expect_line(f, "drm_device,driver=intel_vpu,device=0000:00:0b.0 "
                 "runtime_suspended=0i,runtime_active_ns=1000000000i,"
                 "runtime_suspended_ns=0i");
  /* ivpu_sysfs.c: the first busy reading has no interval yet */
  expect_line(f, "drm_device_busy,driver=intel_vpu,device=0000:00:0b.0,"
                 "unit=npu time_ns=1500000000i");
  expect_line(f, "drm_device_memory,driver=intel_vpu,device=0000:00:0b.0,"
                 "region=npu used_bytes=268435456i");
  expect_line(f, "drm_device,driver=intel_vpu,device=0000:00:0b.0,"
                 "pci_vendor=0x8086,pci_device=0x7d1d,"
                 "pci_subsystem_vendor=0x8086,pci_subsystem_device=0x0000 "
                 "info=1i");
  /* a platform device: no PCI ids */
  expect_line(f, "drm_device,driver=panfrost,device=fde60000.gpu info=1i");
  assert_int_equal(f->sink.n_lines, 7);
  /* 0.75 s of NPU work in the 2 s since */
  put(f, "accel0", "device/npu_busy_time_us", "2250000\n");
  read_at(f, 3);
  expect_line(f, "drm_device_busy,driver=intel_vpu,device=0000:00:0b.0,"
                 "unit=npu time_ns=2250000000i,percent=37.5");
}

/* The never-wake rule: a suspended device has only the attributes read
 * whose kernel code does not resume it (opening a sysfs file runs no
 * show function; reading it does). */
static void suspended__opens_only_safe_attributes(void **state) {
  struct fixture *f = *state;
  assert_int_equal(ddv_tree_fixture(&f->tree, "xe_bmg"), 0);
  assert_int_equal(ddv_tree_fixture(&f->tree, "i915_igpu"), 0);
  start(f, NULL);
  read_at(f, 1);
  size_t awake = n_opened;
  assert_true(awake > 50);
  assert_int_equal(
      ddv_tree_runtime(&f->tree, "card1", "suspended", 1000, 60000), 0);
  assert_int_equal(ddv_tree_runtime(&f->tree, "card0", "suspended", 1000, 5000),
                   0);
  read_at(f, 2);
  /* xe_gt_freq.c: rpn_freq_show prints the cached RPn, no reference */
  static const char *const allowed[] = {"device/power/runtime_status",
                                        "device/power/runtime_active_time",
                                        "device/power/runtime_suspended_time",
                                        "device/tile0/gt0/freq0/rpn_freq",
                                        "device/tile0/gt1/freq0/rpn_freq",
                                        "gt_min_freq_mhz",
                                        "gt_max_freq_mhz",
                                        "gt_boost_freq_mhz",
                                        "gt_RP0_freq_mhz",
                                        "gt_RP1_freq_mhz",
                                        "gt_RPn_freq_mhz"};
  for (size_t i = 0; i < n_opened; i++) {
    bool ok = false;
    for (size_t k = 0; k < sizeof(allowed) / sizeof(allowed[0]); k++)
      ok |= strcmp(opened[i], allowed[k]) == 0;
    if (!ok)
      fail_msg("read %s of a suspended device", opened[i]);
  }
  /* the values that take a reference are not held while it sleeps; their
   * age goes on */
  expect_line(f, "drm_device," XE " runtime_suspended=1i,"
                 "runtime_active_ns=1000000000i,"
                 "runtime_suspended_ns=60000000000i,values_age_seconds=1.0");
  expect_line(f, "drm_device_freq," XE ",domain=gt0 rpn_hz=400000000i");
  expect_no_line(f, "drm_device_idle," XE);
  expect_no_line(f, "drm_device_power," XE);
  expect_no_line(f, "drm_device_temperature," XE);
  /* resumed: read again, the rate spans the time asleep */
  assert_int_equal(ddv_tree_runtime(&f->tree, "card1", "active", 2000, 60000),
                   0);
  put(f, "card1", "device/tile0/gt0/gtidle/idle_residency_ms", "3000\n");
  read_at(f, 3);
  expect_line(f, "drm_device_idle," XE ",domain=gt0 "
                 "residency_ns=3000000000i,idle_percent=100.0");
}

static void suspended__amdgpu_memory_only(void **state) {
  struct fixture *f = *state;
  assert_int_equal(ddv_tree_fixture(&f->tree, "amdgpu_apu"), 0);
  assert_int_equal(ddv_tree_runtime(&f->tree, "card0", "suspended", 1000, 5000),
                   0);
  start(f, NULL);
  read_at(f, 1);
  /* the memory managers' counts (amdgpu_vram_mgr.c, amdgpu_gtt_mgr.c) */
  static const char *const want[] = {"device/power/runtime_status",
                                     "device/power/runtime_active_time",
                                     "device/power/runtime_suspended_time",
                                     "device/mem_info_vram_total",
                                     "device/mem_info_vram_used",
                                     "device/mem_info_gtt_total",
                                     "device/mem_info_gtt_used"};
  assert_int_equal(n_opened, 7);
  for (size_t i = 0; i < 7; i++)
    assert_string_equal(opened[i], want[i]);
  expect_line(f, "drm_device_memory,driver=amdgpu,device=0000:c1:00.0,"
                 "region=gtt total_bytes=16777216000i,used_bytes=104857600i");
  expect_no_line(f, "drm_device_freq");
  expect_no_line(f, "drm_device_busy");
}

/* Suspended from the start: not even the hwmon labels are opened; the
 * channels are found, labelled, at the first active read. */
static int open_count;
static int count_openat(int dirfd, const char *path, int flags, mode_t mode) {
  if (!(flags & O_DIRECTORY) && strstr(path, "hwmon") != NULL)
    open_count++;
  return rec_openat(dirfd, path, flags, mode);
}

static void suspended_at_start__hwmon_found_when_active(void **state) {
  struct fixture *f = *state;
  assert_int_equal(ddv_tree_fixture(&f->tree, "xe_bmg"), 0);
  assert_int_equal(ddv_tree_runtime(&f->tree, "card1", "suspended", 1000, 5000),
                   0);
  open_count = 0;
  f->inst = drm_device_ops.instance_new("test");
  assert_int_equal(configure(f, "SysfsRoot", f->tree.sys), 0);
  plugin_host_init(&f->host, "test", SEC);
  rec_kernel = kernel_real;
  rec_kernel.openat = count_openat;
  rec_kernel.read = rec_read;
  rec_kernel.pread = rec_pread;
  rec_kernel.close = rec_close;
  f->host.kernel = &rec_kernel;
  f->host.clock = (struct plugin_clock){clock_mono, clock_real, f};
  assert_int_equal(drm_device_ops.init(f->inst, &f->host), 0);
  read_at(f, 1);
  read_at(f, 2);
  assert_int_equal(open_count, 0);
  expect_no_line(f, "drm_device_temperature");
  assert_int_equal(ddv_tree_runtime(&f->tree, "card1", "active", 1500, 5000),
                   0);
  read_at(f, 3);
  assert_true(open_count > 0);
  expect_line(f, "drm_device_temperature," XE ",sensor=vram celsius=52.5");
  expect_line(f, "drm_device_power," XE ",sensor=pkg energy_joules=3.0,"
                 "power_cap_watts=150.0");
}

static void suspended__unreadable_status_counts_as_asleep(void **state) {
  struct fixture *f = *state;
  assert_int_equal(ddv_tree_fixture(&f->tree, "xe_bmg"), 0);
  start(f, NULL);
  put(f, "card1", "device/power/runtime_status", "error\n");
  read_at(f, 1);
  for (size_t i = 0; i < n_opened; i++)
    assert_true(strncmp(opened[i], "device/power/", 13) == 0 ||
                ends_with(opened[i], "/freq0/rpn_freq"));
  assert_int_equal(logs_with("device/power/runtime_status: read: not a value"),
                   1);
}

static void hostile_files__said_once_no_value(void **state) {
  struct fixture *f = *state;
  assert_int_equal(ddv_tree_fixture(&f->tree, "amdgpu_dgpu"), 0);
  char big[4097];
  memset(big, '7', 4096);
  big[4096] = '\0';
  put(f, "card1", "device/gpu_busy_percent", "N/A\n");
  put(f, "card1", "device/mem_busy_percent", "");
  put(f, "card1", "device/mem_info_vram_used", big);
  put(f, "card1", "device/hwmon/hwmon4/temp1_input", "nan\n");
  put(f, "card1", "device/pp_dpm_sclk", "0: 500Mhz \n1: 1850Mhz \n");
  fail_path = "temp2_input";
  start(f, NULL);
  read_at(f, 1);
  read_at(f, 2);
  assert_int_equal(logs_with("device/gpu_busy_percent: read: not a value the "
                             "kernel prints here: \"N/A\" (4 bytes)"),
                   1);
  assert_int_equal(logs_with("device/mem_busy_percent: read: not a value"), 1);
  assert_int_equal(
      logs_with("device/mem_info_vram_used: read: not a value the kernel "
                "prints here: \"77777777777777777777777777777777...\" "
                "(4096 bytes)"),
      1);
  assert_int_equal(logs_with("temp1_input: read: not a value"), 1);
  assert_int_equal(logs_with("device/pp_dpm_sclk: read: not a value"), 1);
  assert_int_equal(
      logs_with("drm_device: 0000:0b:00.0: device/hwmon/hwmon4/temp2_input: "
                "read: Input/output error"),
      1);
  expect_no_line(f, "drm_device_busy");
  expect_line(f, "drm_device_memory," AMD ",region=vram "
                 "total_bytes=17163091968i");
  expect_no_line(f, "drm_device_temperature," AMD ",sensor=edge");
  expect_no_line(f, "drm_device_temperature," AMD ",sensor=junction");
  expect_line(f, "drm_device_freq," AMD ",domain=sclk actual_hz=1850000000i");
  /* fixed: read again, said once at INFO */
  fail_path = NULL;
  put(f, "card1", "device/gpu_busy_percent", "40\n");
  read_at(f, 3);
  expect_line(f, "drm_device_busy," AMD ",unit=gpu percent=40.0");
  assert_int_equal(logs_with("device/gpu_busy_percent: readable again"), 1);
}

static void filters_and_report_groups(void **state) {
  struct fixture *f = *state;
  assert_int_equal(ddv_tree_fixture(&f->tree, "amdgpu_apu"), 0);
  assert_int_equal(ddv_tree_fixture(&f->tree, "xe_bmg"), 0);
  start(f, "Driver", "xe", "Report", "temperature", NULL);
  read_at(f, 1);
  expect_line(f, "drm_device_temperature," XE ",sensor=pkg celsius=45.0");
  /* the age of the values that take a reference, without Report runtime */
  expect_line(f, "drm_device," XE " values_age_seconds=0.0");
  assert_int_equal(f->sink.n_lines, 3);
  drm_device_ops.instance_free(f->inst);
  start(f, "Device", "card0", NULL);
  read_at(f, 1);
  expect_no_line(f, "drm_device," XE);
  expect_line(f, "drm_device,driver=amdgpu,device=0000:c1:00.0 "
                 "runtime_suspended=0i,runtime_active_ns=1000000000i,"
                 "runtime_suspended_ns=0i,values_age_seconds=0.0");
  struct cfg_value v = {.type = CFG_STRING, .string = "nope"};
  struct cfg_item item = {.key = "Report", .values = &v, .n_values = 1};
  drm_device_ops.instance_free(f->inst);
  f->inst = drm_device_ops.instance_new("test");
  assert_int_equal(drm_device_ops.configure(f->inst, &item), -EINVAL);
  assert_int_equal(logs_with("drm_device: config: Report: unknown group "
                             "\"nope\""),
                   1);
}

/* The autosuspend rule: control "auto", autosuspend_delay_ms 4000. The
 * attributes that take a PM reference (xe: every freq0 file but rpn_freq,
 * gtidle, throttle and hwmon, xe_pm_runtime_put restarting the timer) are
 * read at the first two reads (the second comes 1 s after the first, well
 * before the 4 s delay runs out), then once 1.25 x 4 s + 100 ms have
 * passed since the last such read ended; the runtime files every read. In
 * between, every value is its last reading, and the drm_device record
 * says how old. */
static const char *const runtime_files[] = {
    "device/power/runtime_status",         "device/power/control",
    "device/power/autosuspend_delay_ms",   "device/power/runtime_active_time",
    "device/power/runtime_suspended_time", "/freq0/rpn_freq"};

static bool only_runtime_files_read(void) {
  for (size_t i = 0; i < n_opened; i++) {
    bool ok = false;
    for (size_t k = 0; k < sizeof(runtime_files) / sizeof(runtime_files[0]);
         k++)
      ok |= ends_with(opened[i], runtime_files[k]);
    if (!ok)
      return false;
  }
  return n_opened > 0;
}

static void autosuspend__pm_attributes_held_between(void **state) {
  struct fixture *f = *state;
  assert_int_equal(ddv_tree_fixture(&f->tree, "xe_bmg"), 0);
  assert_int_equal(ddv_tree_autosuspend(&f->tree, "card1", "auto", 4000), 0);
  start(f, NULL);
  read_at(f, 1);
  assert_int_equal(read_count("gtidle/idle_residency_ms"), 2);
  expect_line(f, "drm_device_temperature," XE ",sensor=pkg celsius=45.0");
  read_at(f, 2); /* the second read, 3 s before the delay runs out */
  assert_int_equal(read_count("gtidle/idle_residency_ms"), 2);
  expect_line(f, "drm_device_idle," XE ",domain=gt0 "
                 "residency_ns=1000000000i,idle_percent=0.0");
  put(f, "card1", "device/hwmon/hwmon2/temp2_input", "80000\n");
  for (uint64_t t = 3; t <= 7; t++) {
    read_at(f, t);
    if (!only_runtime_files_read())
      fail_msg("at %llu s: read %s", (unsigned long long)t,
               opened[n_opened - 1]);
    /* not read: the last readings, and the rate between the last two */
    expect_line(f, "drm_device_idle," XE ",domain=gt0 "
                   "residency_ns=1000000000i,idle_percent=0.0");
    expect_line(f, "drm_device_temperature," XE ",sensor=pkg celsius=45.0");
    expect_line(f, "drm_device_freq," XE ",domain=gt0 actual_hz=2400000000i,"
                   "requested_hz=2000000000i,min_hz=400000000i,"
                   "max_hz=2850000000i,rp0_hz=2850000000i,rpe_hz=1900000000i,"
                   "rpn_hz=400000000i");
    expect_line(f, "drm_device_power," XE ",sensor=card energy_joules=5.0,"
                   "power_watts=0.0,power_cap_watts=250.0");
    expect_line(f, "drm_device_throttle," XE ",domain=gt1 throttled=1i,"
                   "reason_pl1=0i,reason_pl2=0i,reason_pl4=0i,"
                   "reason_prochot=0i,reason_ratl=0i,reason_thermal=1i,"
                   "reason_vr_tdc=0i,reason_vr_thermalert=0i");
    char age[200];
    snprintf(age, sizeof(age),
             "drm_device," XE " runtime_suspended=0i,"
             "runtime_active_ns=1000000000i,runtime_suspended_ns=0i,"
             "values_age_seconds=%llu.0",
             (unsigned long long)(t - 2));
    expect_line(f, age);
  }
  put(f, "card1", "device/tile0/gt0/gtidle/idle_residency_ms", "4000\n");
  read_at(f, 8); /* 6 s after the last: read again, the rate over 6 s */
  expect_line(f, "drm_device_idle," XE ",domain=gt0 "
                 "residency_ns=4000000000i,idle_percent=50.0");
  expect_line(f, "drm_device_temperature," XE ",sensor=pkg celsius=80.0");
  expect_line(f, "drm_device," XE " runtime_suspended=0i,"
                 "runtime_active_ns=1000000000i,runtime_suspended_ns=0i,"
                 "values_age_seconds=0.0");
  /* power/control "on": the device does not autosuspend, every read */
  assert_int_equal(ddv_tree_autosuspend(&f->tree, "card1", "on", 4000), 0);
  read_at(f, 9);
  assert_int_equal(read_count("gtidle/idle_residency_ms"), 2);
  assert_int_equal(n_logs, 1); /* the discovery line only */
}

/* ReadPMAttributes Always: every read, whatever the rule says. */
static void autosuspend__always_reads_every_time(void **state) {
  struct fixture *f = *state;
  assert_int_equal(ddv_tree_fixture(&f->tree, "amdgpu_dgpu"), 0);
  assert_int_equal(ddv_tree_autosuspend(&f->tree, "card1", "auto", 5000), 0);
  start(f, "ReadPMAttributes", "Always", NULL);
  read_at(f, 1);
  read_at(f, 2);
  read_at(f, 3);
  assert_int_equal(read_count("device/pp_dpm_sclk"), 1);
  assert_int_equal(read_count("device/gpu_busy_percent"), 1);
  assert_int_equal(f->sink.n_lines, 25); /* with gpu_metrics and info */
  drm_device_ops.instance_free(f->inst);
  /* the default: amdgpu's pp_dpm, busy and hwmon (amdgpu_pm_put_access)
   * wait (after the second read); mem_info (the memory managers' counts)
   * every read; every value is there, held */
  start(f, NULL);
  read_at(f, 1);
  read_at(f, 2);
  read_at(f, 3);
  assert_int_equal(f->sink.n_lines, 25);
  expect_line(f, "drm_device_busy," AMD ",unit=gpu percent=37.0");
  assert_int_equal(read_count("device/pp_dpm_sclk"), 0);
  assert_int_equal(read_count("device/gpu_busy_percent"), 0);
  assert_int_equal(read_count("temp1_input"), 0);
  assert_int_equal(read_count("device/mem_info_vram_used"), 1);
  expect_line(f, "drm_device_memory," AMD ",region=vram "
                 "total_bytes=17163091968i,used_bytes=1073741824i");
  struct cfg_value v = {.type = CFG_STRING, .string = "Sometimes"};
  struct cfg_item item = {
      .key = "ReadPMAttributes", .values = &v, .n_values = 1};
  assert_int_equal(drm_device_ops.configure(f->inst, &item), -EINVAL);
  assert_int_equal(logs_with("drm_device: config: ReadPMAttributes: expected "
                             "Autosuspend or Always, got \"Sometimes\""),
                   1);
}

/* autosuspend_delay_ms_show is -EIO without autosuspend (the put then
 * suspends at once, rpm_idle): every read, and no warning about it. */
static void autosuspend__no_autosuspend_reads_every_time(void **state) {
  struct fixture *f = *state;
  assert_int_equal(ddv_tree_fixture(&f->tree, "xe_bmg"), 0);
  assert_int_equal(ddv_tree_autosuspend(&f->tree, "card1", "auto", 4000), 0);
  fail_path = "autosuspend_delay_ms";
  fail_errno = EIO;
  start(f, NULL);
  read_at(f, 1);
  read_at(f, 2);
  assert_int_equal(read_count("gtidle/idle_residency_ms"), 2);
  assert_int_equal(logs_with("autosuspend_delay_ms"), 0);
}

/* A GPU that slept 8 s of a 10 s interval, idle 1 s of the 2 s awake:
 * 90 % idle. The residency (xe_gt_idle.c) grew by 1 s only: counted
 * alone it would read 10 % idle, a sleeping GPU as busy. */
static void suspend__time_asleep_is_idle(void **state) {
  struct fixture *f = *state;
  assert_int_equal(ddv_tree_fixture(&f->tree, "xe_bmg"), 0);
  start(f, "Report", "idle", NULL);
  read_at(f, 1);
  assert_int_equal(ddv_tree_runtime(&f->tree, "card1", "active", 3000, 8000),
                   0);
  put(f, "card1", "device/tile0/gt0/gtidle/idle_residency_ms", "2000\n");
  read_at(f, 11);
  expect_line(f, "drm_device_idle," XE ",domain=gt0 "
                 "residency_ns=2000000000i,idle_percent=90.0");
}

/* xe's limits (xe_guc_pc.c: a GuC SLPC query for min and max) are read at
 * the first read, then after DDV_LIMITS_NS, or at once when requested_hz
 * leaves [min_hz, max_hz]; between, their last values are reported. */
static void xe_limits__read_rarely(void **state) {
  struct fixture *f = *state;
  assert_int_equal(ddv_tree_fixture(&f->tree, "xe_bmg"), 0);
  start(f, "Report", "freq", NULL);
  read_at(f, 1);
  assert_int_equal(read_count("freq0/min_freq"), 2);
  assert_int_equal(read_count("freq0/rp0_freq"), 2);
  read_at(f, 2);
  assert_int_equal(read_count("freq0/min_freq"), 0);
  assert_int_equal(read_count("freq0/max_freq"), 0);
  /* runtime values (xe_gt_freq.c DOC: "calculated by PCODE at runtime"),
   * read like cur_freq; rpn_freq the cached fuse, read every time */
  assert_int_equal(read_count("freq0/rpe_freq"), 2);
  assert_int_equal(read_count("freq0/rpn_freq"), 2);
  assert_int_equal(read_count("freq0/rp0_freq"), 0);
  assert_int_equal(read_count("freq0/cur_freq"), 2);
  assert_int_equal(read_count("freq0/act_freq"), 2);
  expect_line(f, "drm_device_freq," XE ",domain=gt0 actual_hz=2400000000i,"
                 "requested_hz=2000000000i,min_hz=400000000i,"
                 "max_hz=2850000000i,rp0_hz=2850000000i,rpe_hz=1900000000i,"
                 "rpn_hz=400000000i");
  /* max raised to 3000 MHz, the GPU asks for it: read at once */
  put(f, "card1", "device/tile0/gt0/freq0/max_freq", "3000\n");
  put(f, "card1", "device/tile0/gt0/freq0/cur_freq", "3000\n");
  read_at(f, 3);
  assert_int_equal(read_count("freq0/max_freq"), 2);
  expect_line(f, "drm_device_freq," XE ",domain=gt0 actual_hz=2400000000i,"
                 "requested_hz=3000000000i,min_hz=400000000i,"
                 "max_hz=3000000000i,rp0_hz=2850000000i,rpe_hz=1900000000i,"
                 "rpn_hz=400000000i");
  read_at(f, 4); /* still at 3000, within the range now */
  assert_int_equal(read_count("freq0/max_freq"), 0);
  read_at(f, 62);
  assert_int_equal(read_count("freq0/max_freq"), 0);
  read_at(f, 63); /* a minute after the last */
  assert_int_equal(read_count("freq0/max_freq"), 2);
}

/* RLIMIT_NOFILE of DDV_FD_RESERVE + 20: at most 10 fds kept open; beyond
 * them attributes are opened, read and closed, and every record is there.
 * Of DDV_FD_RESERVE: none kept, attributes opened by path. */
static void fd_budget__low_rlimit(void **state) {
  struct fixture *f = *state;
  assert_int_equal(ddv_tree_fixture(&f->tree, "xe_bmg"), 0);
  start(f, NULL);
  read_at(f, 1);
  read_at(f, 2);
  size_t lines = f->sink.n_lines;
  assert_true(max_live > 40); /* every attribute kept open */
  drm_device_ops.instance_free(f->inst);
  f->inst = NULL;
  assert_int_equal(n_live, 0);
  struct rlimit old;
  assert_int_equal(getrlimit(RLIMIT_NOFILE, &old), 0);
  struct rlimit low = {256 + 20, old.rlim_max};
  assert_int_equal(setrlimit(RLIMIT_NOFILE, &low), 0);
  max_live = 0;
  start(f, NULL);
  read_at(f, 1);
  read_at(f, 2);
  setrlimit(RLIMIT_NOFILE, &old);
  assert_true(max_live <= 10 + 1); /* the budget, and the one being read */
  assert_int_equal(f->sink.n_lines, lines);
  expect_line(f, "drm_device_idle," XE ",domain=gt1 "
                 "residency_ns=2000000000i,idle_percent=0.0");
  /* no budget at all: not even the node's directory stays open, every
   * attribute is opened by its path, read and closed */
  drm_device_ops.instance_free(f->inst);
  f->inst = NULL;
  low.rlim_cur = 256;
  assert_int_equal(setrlimit(RLIMIT_NOFILE, &low), 0);
  max_live = 0;
  start(f, NULL);
  read_at(f, 1);
  read_at(f, 2);
  setrlimit(RLIMIT_NOFILE, &old);
  assert_int_equal(max_live, 1);
  assert_int_equal(n_live, 0);
  assert_int_equal(f->sink.n_lines, lines);
  char want[600];
  snprintf(want, sizeof(want), "%s/class/drm/card1/device/power/runtime_status",
           f->tree.sys);
  assert_int_equal(read_count(want), 1);
}

/* Eleven hwmon directories: all read (4 were, in readdir order). 300
 * files in one: the first 256 in name order (temp1 and its label,
 * temp2..temp255), the cap
 * said once. An unreadable hwmon directory is said, not dropped quietly. */
static void hwmon__sorted_before_cap_said_once(void **state) {
  struct fixture *f = *state;
  assert_int_equal(ddv_tree_fixture(&f->tree, "panfrost"), 0);
  char rel[128], text[32];
  for (int h = 0; h < 11; h++) {
    snprintf(rel, sizeof(rel), "device/hwmon/hwmon%d/temp1_input", h);
    put(f, "card0", rel, "40000\n");
    snprintf(rel, sizeof(rel), "device/hwmon/hwmon%d/temp1_label", h);
    snprintf(text, sizeof(text), "s%d\n", h);
    put(f, "card0", rel, text);
  }
  for (int c = 2; c <= 301; c++) {
    snprintf(rel, sizeof(rel), "device/hwmon/hwmon3/temp%d_input", c);
    put(f, "card0", rel, "50000\n");
  }
  fail_open = "device/hwmon/hwmon7";
  fail_open_errno = EACCES;
  start(f, "Report", "temperature", NULL);
  read_at(f, 1);
  expect_line(f, "drm_device_temperature,driver=panfrost,device=fde60000.gpu,"
                 "sensor=s10 celsius=40.0");
  expect_line(f, "drm_device_temperature,driver=panfrost,device=fde60000.gpu,"
                 "sensor=temp255 celsius=50.0");
  expect_line(f, "drm_device_temperature,driver=panfrost,device=fde60000.gpu,"
                 "sensor=s3 celsius=40.0");
  expect_no_line(f, "drm_device_temperature,driver=panfrost,"
                    "device=fde60000.gpu,sensor=temp256 ");
  expect_no_line(f, "drm_device_temperature,driver=panfrost,"
                    "device=fde60000.gpu,sensor=s7 ");
  /* 10 readable directories: 10 labelled sensors, and temp2..temp255, and
   * the age of those readings */
  expect_line(f, "drm_device,driver=panfrost,device=fde60000.gpu "
                 "values_age_seconds=0.0");
  assert_int_equal(f->sink.n_lines, 10 + 254 + 1);
  assert_int_equal(logs_with("drm_device: fde60000.gpu: device/hwmon/hwmon3: "
                             "readdir: 302 entries, only the first 256 (in "
                             "name order) are read"),
                   1);
  assert_int_equal(logs_with("drm_device: fde60000.gpu: device/hwmon/hwmon7: "
                             "open: Permission denied"),
                   1);
  read_at(f, 2);
  assert_int_equal(logs_with("entries, only the first"), 1);
}

/* Devices come and go: a device added is found within two reads, however
 * long nothing changed; one unbound ends its series at the next read (its
 * directory is gone, one INFO line); one bound again starts from a fresh
 * base (no rate across the gap); a new minor for the same device is the
 * old one gone and a new one found, in the same read. */
static void devices_come_and_go(void **state) {
  struct fixture *f = *state;
  start(f, "Report", "power", NULL);
  read_at(f, 1);
  assert_int_equal(f->sink.n_lines, 0);
  for (uint64_t t = 10; t <= 200; t += 10)
    read_at(f, t); /* nothing changes: the back-off grows */
  assert_int_equal(ddv_tree_fixture(&f->tree, "xe_bmg"), 0);
  read_at(f, 210);
  uint64_t found = 210;
  if (f->sink.n_lines == 0)
    read_at(f, found = 220);
  expect_line(f, "drm_device_power," XE ",sensor=card energy_joules=5.0,"
                 "power_cap_watts=250.0");
  assert_int_equal(logs_with("card1 (driver xe)"), 1);
  put(f, "card1", "device/hwmon/hwmon2/energy1_input", "7000000\n");
  read_at(f, 230);
  char line[200];
  snprintf(line, sizeof(line),
           "drm_device_power," XE ",sensor=card energy_joules=7.0,"
           "power_watts=%.1f,power_cap_watts=250.0",
           2.0 / (double)(230 - found));
  expect_line(f, line);
  /* unbound: the node's directory goes; kept-open files of a removed
   * kernfs node would say ENODEV, the fixture's stay readable */
  assert_int_equal(ddv_tree_unbind(&f->tree, "card1"), 0);
  read_at(f, 240);
  assert_int_equal(f->sink.n_lines, 0);
  assert_int_equal(logs_with("card1 is gone"), 1);
  /* bound again, same minor: a fresh base */
  assert_int_equal(
      ddv_tree_device(&f->tree, "drm", "card1", "0000:03:00.0", "xe"), 0);
  put(f, "card1", "device/hwmon/hwmon2/energy1_input", "9000000\n");
  read_at(f, 250);
  expect_line(f, "drm_device_power," XE ",sensor=card energy_joules=9.0,"
                 "power_cap_watts=250.0");
  assert_int_equal(logs_with("card1 (driver xe)"), 2);
  /* a driver reload gives another minor */
  assert_int_equal(ddv_tree_unbind(&f->tree, "card1"), 0);
  assert_int_equal(
      ddv_tree_device(&f->tree, "drm", "card2", "0000:03:00.0", "xe"), 0);
  put(f, "card2", "device/hwmon/hwmon2/energy1_input", "12000000\n");
  read_at(f, 260);
  expect_line(f, "drm_device_power," XE ",sensor=card energy_joules=12.0,"
                 "power_cap_watts=250.0");
  assert_int_equal(logs_with("card1 is gone"), 2);
  assert_int_equal(logs_with("card2 (driver xe)"), 1);
  assert_int_equal(logs_with("ENOENT"), 0); /* not a warning */
  /* an empty tree at the start: the WARNING of no_device__said_once */
  assert_int_equal(logs_with("has neither class/drm nor class/accel"), 1);
  for (size_t i = 1; i < n_logs; i++)
    if (log_levels[i] != LOG_LEVEL_INFO)
      fail_msg("not INFO: %s", logs[i]);
}

/* An attribute that says ENODEV (kernfs_fop_read_iter on a removed node)
 * ends the series at once too: nothing of that read is reported. */
static void device_enodev__series_ends(void **state) {
  struct fixture *f = *state;
  assert_int_equal(ddv_tree_fixture(&f->tree, "panfrost"), 0);
  start(f, NULL);
  read_at(f, 1);
  fail_path = "cur_freq";
  fail_errno = ENODEV;
  read_at(f, 2);
  assert_int_equal(f->sink.n_lines, 0);
  fail_path = NULL;
  assert_int_equal(ddv_tree_unbind(&f->tree, "card0"), 0);
  read_at(f, 3);
  assert_int_equal(f->sink.n_lines, 0);
  assert_int_equal(logs_with("card0 is gone"), 1);
  assert_int_equal(logs_with("No such device"), 0);
}

/* No device: said once, at INFO, naming SysfsRoot; a SysfsRoot without
 * either class directory once at WARNING. */
static void no_device__said_once(void **state) {
  struct fixture *f = *state;
  char cls[600];
  snprintf(cls, sizeof(cls), "%s/class/drm", f->tree.sys);
  assert_int_equal(mkdir(f->tree.sys, 0755) == 0 || errno == EEXIST, 1);
  char cdir[600];
  snprintf(cdir, sizeof(cdir), "%s/class", f->tree.sys);
  mkdir(cdir, 0755);
  assert_int_equal(mkdir(cls, 0755), 0);
  start(f, NULL);
  for (uint64_t t = 1; t <= 5; t++)
    read_at(f, t);
  assert_int_equal(n_logs, 1);
  assert_int_equal(log_levels[0], LOG_LEVEL_INFO);
  char want[700];
  snprintf(want, sizeof(want),
           "drm_device: %s: SysfsRoot: no DRM device in class/drm (card<N>) "
           "or class/accel (accel<N>)",
           f->tree.sys);
  assert_int_equal(logs_with(want), 1);
  drm_device_ops.instance_free(f->inst);
  assert_int_equal(rmdir(cls), 0);
  start(f, NULL);
  read_at(f, 1);
  read_at(f, 2);
  snprintf(want, sizeof(want),
           "drm_device: %s: SysfsRoot: has neither class/drm nor class/accel",
           f->tree.sys);
  assert_int_equal(logs_with(want), 1);
  assert_int_equal(log_levels[n_logs - 1], LOG_LEVEL_WARNING);
}

#define MI "driver=amdgpu,device=0000:05:00.0"

/* The NPU's attributes are driver bookkeeping (ivpu_sysfs.c): read while
 * the NPU is suspended too. */
static void npu__read_while_suspended(void **state) {
  struct fixture *f = *state;
  assert_int_equal(ddv_tree_fixture(&f->tree, "ivpu"), 0);
  assert_int_equal(
      ddv_tree_runtime(&f->tree, "accel0", "suspended", 1000, 9000), 0);
  start(f, NULL);
  read_at(f, 1);
  expect_line(f, "drm_device_memory,driver=intel_vpu,device=0000:00:0b.0,"
                 "region=npu used_bytes=268435456i");
  expect_line(f, "drm_device_busy,driver=intel_vpu,device=0000:00:0b.0,"
                 "unit=npu time_ns=1500000000i");
}

/* xe_gt_freq.c: rpa_freq_show, beside the other limits (newer kernels) */
static void xe__rpa_freq(void **state) {
  struct fixture *f = *state;
  assert_int_equal(ddv_tree_fixture(&f->tree, "xe_bmg"), 0);
  put(f, "card1", "device/tile0/gt0/freq0/rpa_freq", "2100\n");
  start(f, "Report", "freq", NULL);
  read_at(f, 1);
  expect_line(f, "drm_device_freq," XE ",domain=gt0 actual_hz=2400000000i,"
                 "requested_hz=2000000000i,min_hz=400000000i,"
                 "max_hz=2850000000i,rp0_hz=2850000000i,rpe_hz=1900000000i,"
                 "rpa_hz=2100000000i,rpn_hz=400000000i");
  /* gt1 has none: no field, not 0 */
  expect_line(f, "drm_device_freq," XE ",domain=gt1 actual_hz=1200000000i,"
                 "requested_hz=2000000000i,min_hz=400000000i,"
                 "max_hz=2850000000i,rp0_hz=2850000000i,rpe_hz=1900000000i,"
                 "rpn_hz=400000000i");
  /* it takes a runtime-PM reference: not read asleep */
  assert_int_equal(ddv_tree_runtime(&f->tree, "card1", "suspended", 1000, 60),
                   0);
  read_at(f, 2);
  for (size_t i = 0; i < n_opened; i++)
    if (strstr(opened[i], "rpa_freq") != NULL)
      fail_msg("read %s while suspended", opened[i]);
}

/* gpu_metrics is read like pp_dpm_* (amdgpu_get_gpu_metrics: runtime-PM
 * access): never while the device may sleep; the info record's ids are
 * read at setup, unique_id only once the device is seen active. */
static void gpu_metrics__not_read_asleep(void **state) {
  struct fixture *f = *state;
  assert_int_equal(ddv_tree_fixture(&f->tree, "amdgpu_dgpu"), 0);
  assert_int_equal(ddv_tree_runtime(&f->tree, "card1", "suspended", 1000, 50),
                   0);
  start(f, NULL);
  read_at(f, 1);
  for (size_t i = 0; i < n_opened; i++)
    if (strstr(opened[i], "gpu_metrics") != NULL ||
        strstr(opened[i], "unique_id") != NULL)
      fail_msg("read %s while suspended", opened[i]);
  expect_no_line(f, "drm_device_gpu_metrics");
  expect_no_line(f, "drm_device_throttle");
  expect_line(f, "drm_device," AMD ",pci_vendor=0x1002,pci_device=0x73bf,"
                 "pci_subsystem_vendor=0x1002,pci_subsystem_device=0x0e3a,"
                 "vram_vendor=samsung info=1i");
  assert_int_equal(ddv_tree_runtime(&f->tree, "card1", "active", 1100, 50), 0);
  read_at(f, 2);
  expect_line(f, "drm_device_gpu_metrics," AMD ",sensor=edge celsius=45.0");
  expect_line(f, "drm_device," AMD ",pci_vendor=0x1002,pci_device=0x73bf,"
                 "pci_subsystem_vendor=0x1002,pci_subsystem_device=0x0e3a,"
                 "vram_vendor=samsung,unique_id=5c2d4e1f0a3b6978 info=1i");
  /* asleep again: the table's values are absent, not the last ones */
  assert_int_equal(ddv_tree_runtime(&f->tree, "card1", "suspended", 1100, 60),
                   0);
  read_at(f, 3);
  expect_no_line(f, "drm_device_gpu_metrics");
}

/* The energy accumulator (v1.8: 2^-16 J) as a counter: it adds up, and a
 * step back (an SMU reset) restarts from the new value, adding nothing. */
static void gpu_metrics__energy_counter_and_reset(void **state) {
  struct fixture *f = *state;
  assert_int_equal(ddv_tree_fixture(&f->tree, "amdgpu_mi300"), 0);
  start(f, "Report", "gpu_metrics", NULL);
  read_at(f, 1);
  expect_line(f, "drm_device_gpu_metrics," MI ",sensor=socket "
                 "current_power_watts=550.0,energy_joules=1000.0");
  static uint8_t b[GM_BUILD_MAX];
  size_t len = gm_build(b, 1, 8, 0);
  gm_put(b, 24, 8, UINT64_C(65536) * 1250); /* +250 J */
  assert_int_equal(
      ddv_tree_write_bin(&f->tree, "card2", "device/gpu_metrics", b, len), 0);
  read_at(f, 2);
  expect_line(f, "drm_device_gpu_metrics," MI ",sensor=socket "
                 "current_power_watts=550.0,energy_joules=1250.0");
  gm_put(b, 24, 8, UINT64_C(65536) * 10); /* reset */
  assert_int_equal(
      ddv_tree_write_bin(&f->tree, "card2", "device/gpu_metrics", b, len), 0);
  read_at(f, 3);
  expect_line(f, "drm_device_gpu_metrics," MI ",sensor=socket "
                 "current_power_watts=550.0,energy_joules=1250.0");
  gm_put(b, 24, 8, UINT64_C(65536) * 15); /* +5 J after it */
  assert_int_equal(
      ddv_tree_write_bin(&f->tree, "card2", "device/gpu_metrics", b, len), 0);
  read_at(f, 4);
  expect_line(f, "drm_device_gpu_metrics," MI ",sensor=socket "
                 "current_power_watts=550.0,energy_joules=1255.0");
  expect_line(f, "drm_device_gpu_metrics," MI
                 ",sensor=gfxclk0 actual_hz=2100000000i");
  expect_no_line(f, "drm_device_throttle"); /* not in v1.8 */
}

/* An unknown revision is said once, naming it; a cut table is said once;
 * the device's other values go on. */
static void gpu_metrics__unknown_and_cut_said_once(void **state) {
  struct fixture *f = *state;
  assert_int_equal(ddv_tree_fixture(&f->tree, "amdgpu_mi300"), 0);
  static uint8_t b[GM_BUILD_MAX];
  size_t len = gm_build(b, 1, 8, 0);
  b[3] = 10; /* v1.10: none yet */
  assert_int_equal(
      ddv_tree_write_bin(&f->tree, "card2", "device/gpu_metrics", b, len), 0);
  start(f, NULL);
  read_at(f, 1);
  read_at(f, 2);
  assert_int_equal(logs_with("drm_device: 0000:05:00.0: device/gpu_metrics: "
                             "gpu_metrics revision 1.10 is not known here: "
                             "skipped"),
                   1);
  expect_no_line(f, "drm_device_gpu_metrics");
  expect_line(f, "drm_device_memory," MI ",region=vram "
                 "total_bytes=206141652992i,used_bytes=2147483648i");
  /* cut: 100 bytes of a 3872-byte table */
  b[3] = 8;
  assert_int_equal(
      ddv_tree_write_bin(&f->tree, "card2", "device/gpu_metrics", b, 100), 0);
  read_at(f, 3);
  read_at(f, 4);
  assert_int_equal(logs_with("device/gpu_metrics: gpu_metrics 1.8: 100 bytes "
                             "read, structure_size 3872"),
                   1);
  expect_no_line(f, "drm_device_gpu_metrics");
  /* whole again */
  assert_int_equal(
      ddv_tree_write_bin(&f->tree, "card2", "device/gpu_metrics", b, len), 0);
  read_at(f, 5);
  expect_line(f, "drm_device_gpu_metrics," MI ",sensor=uclk "
                 "actual_hz=1300000000i");
  assert_int_equal(logs_with("device/gpu_metrics: readable again"), 1);
}

/* Report without gpu_metrics: the table is not read at all; without info:
 * no info record. */
static void gpu_metrics__report_groups(void **state) {
  struct fixture *f = *state;
  assert_int_equal(ddv_tree_fixture(&f->tree, "amdgpu_strix"), 0);
  start(f, "Report", "runtime", NULL);
  read_at(f, 1);
  for (size_t i = 0; i < n_opened; i++)
    if (strstr(opened[i], "gpu_metrics") != NULL)
      fail_msg("read %s, not asked for", opened[i]);
  expect_no_line(f, "drm_device_gpu_metrics");
  expect_no_line(f, "drm_device,driver=amdgpu,device=0000:c5:00.0 info");
  drm_device_ops.instance_free(f->inst);
  f->inst = NULL;
  start(f, "Report", "gpu_metrics", "Report", "info", NULL);
  read_at(f, 1);
  /* v3.0: centi-Celsius and centi-percent, mW */
  expect_line(f, "drm_device_gpu_metrics,driver=amdgpu,device=0000:c5:00.0,"
                 "sensor=gfx celsius=52.0,busy_percent=42.0");
  expect_line(f, "drm_device_gpu_metrics,driver=amdgpu,device=0000:c5:00.0,"
                 "sensor=socket power_watts=25.0,power_cap_watts=30.0");
  expect_line(f, "drm_device,driver=amdgpu,device=0000:c5:00.0 info=1i");
  expect_no_line(f, "drm_device,driver=amdgpu,device=0000:c5:00.0 runtime");
}

/* v1.9 (an MI355X's attribute list): the same sensors and fields as the
 * fixed layouts of the same SMU, the energy counter, nothing said. */
static void gpu_metrics__v1_9_attribute_list(void **state) {
  struct fixture *f = *state;
  assert_int_equal(ddv_tree_fixture(&f->tree, "amdgpu_mi355"), 0);
  start(f, NULL);
  read_at(f, 1);
#define MI355 "driver=amdgpu,device=0000:75:00.0"
  expect_line(f, "drm_device_gpu_metrics," MI355 ",sensor=socket "
                 "current_power_watts=550.0,energy_joules=1000.0");
  expect_line(f, "drm_device_gpu_metrics," MI355 ",sensor=hotspot "
                 "celsius=70.0");
  expect_line(f, "drm_device_gpu_metrics," MI355 ",sensor=gfx "
                 "busy_percent=80.0");
  expect_line(f, "drm_device_gpu_metrics," MI355
                 ",sensor=gfxclk1 actual_hz=2000000000i");
  expect_line(f, "drm_device_gpu_metrics," MI355
                 ",sensor=uclk actual_hz=1300000000i");
  expect_line(f, "drm_device_gpu_metrics," MI355 ",sensor=gfx0 "
                 "busy_percent=81.0");
  expect_line(f, "drm_device_memory," MI355 ",region=vram "
                 "total_bytes=309237645312i,used_bytes=4294967296i");
  assert_int_equal(logs_with("gpu_metrics"), 0);
  /* the energy grows between reads */
  static uint8_t b[GM_BUILD_MAX];
  size_t len = gm_build(b, 1, 9, 0);
  unsigned w = 0;
  size_t at = gm_build_attr(b, 7, 0, &w);
  assert_int_equal(w, 8);
  gm_put(b, at, 8, UINT64_C(65536) * 1100);
  assert_int_equal(
      ddv_tree_write_bin(&f->tree, "card4", "device/gpu_metrics", b, len), 0);
  read_at(f, 2);
  expect_line(f, "drm_device_gpu_metrics," MI355 ",sensor=socket "
                 "current_power_watts=550.0,energy_joules=1100.0");
  /* a hostile list (an attribute's values past its end): said once with
   * the reason, the device's other values go on */
  at = gm_build_attr(b, 0, 0, &w);
  gm_put(b, at - 8, 8, (UINT64_C(2) << 24) | (UINT64_C(2) << 20) | 1023);
  assert_int_equal(
      ddv_tree_write_bin(&f->tree, "card4", "device/gpu_metrics", b, len), 0);
  read_at(f, 3);
  read_at(f, 4);
  assert_int_equal(logs_with("drm_device: 0000:75:00.0: device/gpu_metrics: "
                             "gpu_metrics 1.9: 1150 bytes read, "
                             "structure_size 1150: 1.9: an attribute's "
                             "values are cut: skipped"),
                   1);
  expect_line(f, "drm_device_memory," MI355 ",region=vram "
                 "total_bytes=309237645312i,used_bytes=4294967296i");
#undef MI355
}

/* v3.0's gfx busy takes its unit from the SMC firmware: percent after
 * 0x5d4600 (42 is 42 %, not 0.42); ipu and core C0 are percent as they
 * are; without fw_version/smc_fw_version the gfx busy is left out and
 * that is said once, the other values stay. */
static void gpu_metrics__v3_0_smc_version(void **state) {
  struct fixture *f = *state;
  assert_int_equal(ddv_tree_fixture(&f->tree, "amdgpu_strix"), 0);
  put(f, "card3", "device/fw_version/smc_fw_version", "0x005d5100\n");
  static uint8_t b[GM_BUILD_MAX];
  size_t len = gm_build(b, 3, 0, 0);
  gm_put(b, 42, 2, 42); /* GfxActivity in percent on this firmware */
  assert_int_equal(
      ddv_tree_write_bin(&f->tree, "card3", "device/gpu_metrics", b, len), 0);
  start(f, "Report", "gpu_metrics", NULL);
  read_at(f, 1);
#define STRIX "driver=amdgpu,device=0000:c5:00.0"
  expect_line(f, "drm_device_gpu_metrics," STRIX ",sensor=gfx "
                 "celsius=52.0,busy_percent=42.0");
  expect_line(f, "drm_device_gpu_metrics," STRIX ",sensor=ipu0 "
                 "busy_percent=37.0");
  assert_int_equal(logs_with("gpu_metrics"), 0);
  drm_device_ops.instance_free(f->inst);
  f->inst = NULL;
  assert_int_equal(
      ddv_tree_remove(&f->tree, "card3", "device/fw_version/smc_fw_version"),
      0);
  start(f, "Report", "gpu_metrics", NULL);
  read_at(f, 1);
  read_at(f, 2);
  expect_line(f, "drm_device_gpu_metrics," STRIX ",sensor=gfx celsius=52.0");
  expect_line(f, "drm_device_gpu_metrics," STRIX ",sensor=ipu0 "
                 "busy_percent=37.0");
  assert_int_equal(
      logs_with("drm_device: 0000:c5:00.0: device/gpu_metrics: gpu_metrics "
                "3.0: the unit of average_gfx_activity depends on the SMC "
                "firmware (centi-percent up to 0x5d4600, percent after), and "
                "device/fw_version/smc_fw_version is unreadable (No such file "
                "or directory): the gfx busy is left out"),
      1);
#undef STRIX
}

/* An id not of the shape its show function prints is left out, and said
 * once; the others stay. */
static void info__malformed_id_left_out(void **state) {
  struct fixture *f = *state;
  assert_int_equal(ddv_tree_fixture(&f->tree, "amdgpu_apu"), 0);
  put(f, "card0", "device/device", "0x16365\n");
  put(f, "card0", "device/subsystem_vendor", "17aa\n");
  start(f, "Report", "info", NULL);
  read_at(f, 1);
  expect_line(f, "drm_device,driver=amdgpu,device=0000:c1:00.0,"
                 "pci_vendor=0x1002,pci_subsystem_device=0x3801 info=1i");
  assert_int_equal(logs_with("drm_device: 0000:c1:00.0: device/device: not a "
                             "value the kernel prints here (8 bytes): left "
                             "out"),
                   1);
  assert_int_equal(logs_with("device/subsystem_vendor: not a value"), 1);
  read_at(f, 2);
  assert_int_equal(logs_with("device/device: not a value"), 1);
}

/* The collectd identities of the new records (collectd_map.h), each part
 * within 63 bytes, none twice, on every amdgpu layout family. */
struct ident_sink {
  struct metric_sink base;
  char idents[256][200];
  size_t n;
};

static int ident_write(struct metric_sink *sink, const struct metric *m) {
  struct ident_sink *s = (struct ident_sink *)sink;
  for (size_t i = 0; i < m->n_fields && s->n < 256; i++) {
    struct collectd_ident id;
    collectd_map(drm_device_ops.collectd_rules, m, i, "drm_device", NULL, &id);
    assert_true(strlen(id.plugin_instance) <= 63);
    assert_true(strlen(id.type_instance) <= 63);
    snprintf(s->idents[s->n++], sizeof(s->idents[0]), "%s/%s-%s",
             id.plugin_instance, id.type, id.type_instance);
  }
  return 0;
}

static bool has_ident(const struct ident_sink *s, const char *want) {
  for (size_t i = 0; i < s->n; i++)
    if (strcmp(s->idents[i], want) == 0)
      return true;
  return false;
}

static void collectd__info_and_gpu_metrics_identities(void **state) {
  struct fixture *f = *state;
  assert_int_equal(ddv_tree_fixture(&f->tree, "amdgpu_dgpu"), 0);
  assert_int_equal(ddv_tree_fixture(&f->tree, "panfrost"), 0);
  assert_int_equal(ddv_tree_fixture(&f->tree, "amdgpu_mi300"), 0);
  assert_int_equal(ddv_tree_fixture(&f->tree, "amdgpu_strix"), 0);
  start(f, "Report", "info", "Report", "gpu_metrics", "Report", "temperature",
        "Report", "throttle", NULL);
  static struct ident_sink s;
  memset(&s, 0, sizeof(s));
  s.base.write = ident_write;
  f->mono = SEC;
  assert_int_equal(drm_device_ops.read(f->inst, &s.base), 0);
  const char *want[] = {
      "0000:0b:00.0/gpu_flag-0x1002-0x73bf-0x1002-0x0e3a-info",
      "fde60000.gpu/gpu_flag-info",
      "0000:0b:00.0/gpu_celsius-gpu_metrics-hotspot-celsius",
      "0000:0b:00.0/gpu_hertz-gpu_metrics-gfxclk-average_hz",
      "0000:0b:00.0/percent-gpu_metrics-umc-busy_percent",
      "0000:0b:00.0/gpu_watts-gpu_metrics-socket-power_watts",
      /* hwmon's edge and the SMU's edge: two series, two identities */
      "0000:0b:00.0/gpu_celsius-edge-celsius",
      "0000:0b:00.0/gpu_celsius-gpu_metrics-edge-celsius",
      "0000:0b:00.0/gpu_flag-smu-throttled",
      "0000:05:00.0/gpu_watts-gpu_metrics-socket-current_power_watts",
      "0000:05:00.0/gpu_energy-gpu_metrics-socket-energy_joules",
      "0000:c5:00.0/gpu_hertz-gpu_metrics-gfxclk-max_hz"};
  /* no identity twice */
  for (size_t i = 0; i < s.n; i++)
    for (size_t j = i + 1; j < s.n; j++)
      if (strcmp(s.idents[i], s.idents[j]) == 0)
        fail_msg("two values under %s", s.idents[i]);
  for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
    if (!has_ident(&s, want[i])) {
      for (size_t j = 0; j < s.n; j++)
        fprintf(stderr, "# %s\n", s.idents[j]);
      fail_msg("no identity %s", want[i]);
    }
}

/* A device link of a crafted tree with one "../" more than it is deep
 * leads out of SysfsRoot, to a directory holding a device of its own:
 * that node is skipped, said once, and nothing there is read; the others
 * are reported. */
static void device_link_out_of_root__skipped(void **state) {
  struct fixture *f = *state;
  assert_int_equal(ddv_tree_fixture(&f->tree, "amdgpu_dgpu"), 0);
  char path[512];
  snprintf(path, sizeof(path), "%s/outside", f->tree.root);
  assert_int_equal(mkdir(path, 0755), 0);
  snprintf(path, sizeof(path), "%s/outside/power", f->tree.root);
  assert_int_equal(mkdir(path, 0755), 0);
  snprintf(path, sizeof(path), "%s/outside/driver", f->tree.root);
  assert_int_equal(symlink("../bus/pci/drivers/evil", path), 0);
  snprintf(path, sizeof(path), "%s/class/drm/card9", f->tree.sys);
  assert_int_equal(mkdir(path, 0755), 0);
  snprintf(path, sizeof(path), "%s/class/drm/card9/device", f->tree.sys);
  assert_int_equal(symlink("../../../../outside", path), 0);
  start(f, NULL);
  read_at(f, 1);
  expect_line(f, "drm_device_busy," AMD ",unit=gpu percent=37.0");
  assert_true(logs_with("card9: device: a link that leads out of "
                        "SysfsRoot (Invalid cross-device link): skipped") > 0);
  expect_no_line(f, "drm_device,driver=evil");
  for (size_t i = 0; i < n_opened; i++)
    if (strstr(opened[i], "/outside/") != NULL)
      fail_msg("read %s, out of SysfsRoot", opened[i]);
  for (uint64_t t = 2; t < 5; t++) /* scans find it again: not said again */
    read_at(f, t);
  expect_no_line(f, "drm_device,driver=evil");
  size_t warned = 0;
  for (size_t i = 0; i < n_logs; i++)
    warned += log_levels[i] == LOG_LEVEL_WARNING &&
              strstr(logs[i], "leads out of SysfsRoot") != NULL;
  assert_int_equal(warned, 1);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(amdgpu_dgpu__exact_records, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(amdgpu_dgpu__average_and_input_one_power,
                                      setup, teardown),
      cmocka_unit_test_setup_teardown(amdgpu_apu__records, setup, teardown),
      cmocka_unit_test_setup_teardown(xe_two_gts__freq_idle_throttle_energy,
                                      setup, teardown),
      cmocka_unit_test_setup_teardown(energy__step_back_is_a_reset, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(residency__reset_not_wrap, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(i915_rc6__reload_is_a_reset, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(i915_igpu__card_level_rc6_wraps, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(i915_mtl__per_gt, setup, teardown),
      cmocka_unit_test_setup_teardown(i915_dgpu__hwmon, setup, teardown),
      cmocka_unit_test_setup_teardown(i915_dgpu__per_gt_hwmon_is_its_own_sensor,
                                      setup, teardown),
      cmocka_unit_test_setup_teardown(panfrost_devfreq_and_npu, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(suspended__opens_only_safe_attributes,
                                      setup, teardown),
      cmocka_unit_test_setup_teardown(suspended__amdgpu_memory_only, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(
          suspended_at_start__hwmon_found_when_active, setup, teardown),
      cmocka_unit_test_setup_teardown(
          suspended__unreadable_status_counts_as_asleep, setup, teardown),
      cmocka_unit_test_setup_teardown(hostile_files__said_once_no_value, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(filters_and_report_groups, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(devices_come_and_go, setup, teardown),
      cmocka_unit_test_setup_teardown(npu__read_while_suspended, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(xe__rpa_freq, setup, teardown),
      cmocka_unit_test_setup_teardown(gpu_metrics__not_read_asleep, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(gpu_metrics__energy_counter_and_reset,
                                      setup, teardown),
      cmocka_unit_test_setup_teardown(gpu_metrics__unknown_and_cut_said_once,
                                      setup, teardown),
      cmocka_unit_test_setup_teardown(gpu_metrics__v1_9_attribute_list, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(gpu_metrics__v3_0_smc_version, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(gpu_metrics__report_groups, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(collectd__info_and_gpu_metrics_identities,
                                      setup, teardown),
      cmocka_unit_test_setup_teardown(info__malformed_id_left_out, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(autosuspend__pm_attributes_held_between,
                                      setup, teardown),
      cmocka_unit_test_setup_teardown(autosuspend__always_reads_every_time,
                                      setup, teardown),
      cmocka_unit_test_setup_teardown(
          autosuspend__no_autosuspend_reads_every_time, setup, teardown),
      cmocka_unit_test_setup_teardown(suspend__time_asleep_is_idle, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(xe_limits__read_rarely, setup, teardown),
      cmocka_unit_test_setup_teardown(fd_budget__low_rlimit, setup, teardown),
      cmocka_unit_test_setup_teardown(hwmon__sorted_before_cap_said_once, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(device_enodev__series_ends, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(no_device__said_once, setup, teardown),
      cmocka_unit_test_setup_teardown(device_link_out_of_root__skipped, setup,
                                      teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
