/*
 * test_drm_device_hold.c: drm_device against a model of the PM core's
 * autosuspend timer (drivers/base/power/runtime.c), on an xe tree with
 * control "auto": the kernel seam advances the plugin's clock by a fixed
 * cost per attribute read and notes the end of each read that takes a
 * runtime-PM reference (the put that sets last_busy). Over runs of reads
 * at several delays and intervals it checks that no such read lands where
 * the timer may be firing (between last_busy + delay and last_busy + 1.25 x
 * delay, rpm_suspend's hrtimer_start_range_ns with slack delay / 4), that
 * they come as soon as the rule allows, that every read between carries
 * the same series (the last readings, held) with their age, and what a
 * suspended device reads. Also: energy that jumps is a reset, and values
 * no kernel prints are refused, each said once.
 */
#include "plugins/drm_device/drm_device.h"

#include "common/core/log.h"
#include "tests/lib/capture_sink.h"
#include "tests/lib/ddv_tree.h"

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#define SEC 1000000000ull
#define MS 1000000ull
#define T0 1700000000ull
#define MARGIN (100 * MS) /* ddv.h: DDV_PM_MARGIN_NS */
#define XE "driver=xe,device=0000:03:00.0"

/* ---- the seam: a clock that moves with each read, and last_busy ---- */

static struct {
  uint64_t mono;      /* the plugin's monotonic clock */
  uint64_t cost_ns;   /* each attribute read advances it by this */
  bool suspended;     /* the model's device is runtime-suspended */
  bool have_busy;     /* a reference was taken and put */
  uint64_t last_busy; /* when the last one was put */
  bool pm_this;       /* this read took a reference */
  uint64_t gap_ns;    /* from last_busy to the first reference this read */
  unsigned pm_reads;  /* attribute reads that took a reference */
  unsigned wakes;     /* of them, reads of a suspended device */
} m;

static char fd_path[1024][160];

/* The attributes of the xe tree whose show takes no reference: the PM
 * core's files, rpn_freq (xe_gt_freq.c: rpn_freq_show) and hwmon's name
 * and labels (hwmon.c: static strings). */
static const char *const no_ref[] = {"device/power/runtime_status",
                                     "device/power/control",
                                     "device/power/autosuspend_delay_ms",
                                     "device/power/runtime_active_time",
                                     "device/power/runtime_suspended_time",
                                     "/freq0/rpn_freq",
                                     "_label",
                                     "/name"};

static bool ends_with(const char *s, const char *tail) {
  size_t ls = strlen(s), lt = strlen(tail);
  return ls >= lt && strcmp(s + ls - lt, tail) == 0;
}

static bool takes_ref(const char *path) {
  for (size_t i = 0; i < sizeof(no_ref) / sizeof(no_ref[0]); i++)
    if (ends_with(path, no_ref[i]))
      return false;
  return true;
}

static int seam_openat(int dirfd, const char *path, int flags, mode_t mode) {
  int fd = kernel_real.openat(dirfd, path, flags, mode);
  if (fd >= 0 && fd < 1024)
    snprintf(fd_path[fd], sizeof(fd_path[0]), "%s",
             (flags & O_DIRECTORY) ? "" : path);
  return fd;
}

/* One attribute read: the show function runs, the clock moves; one that
 * takes a reference puts it at its end (last_busy). */
static void seam_note(int fd) {
  if (fd < 0 || fd >= 1024 || fd_path[fd][0] == '\0')
    return;
  m.mono += m.cost_ns;
  if (!takes_ref(fd_path[fd]))
    return;
  if (!m.pm_this) {
    m.pm_this = true;
    m.gap_ns = m.have_busy ? m.mono - m.cost_ns - m.last_busy : UINT64_MAX;
  }
  m.pm_reads++;
  m.wakes += m.suspended;
  m.last_busy = m.mono;
  m.have_busy = true;
}

static ssize_t seam_read(int fd, void *buf, size_t len) {
  seam_note(fd);
  return kernel_real.read(fd, buf, len);
}

static ssize_t seam_pread(int fd, void *buf, size_t len, off_t off) {
  seam_note(fd);
  return kernel_real.pread(fd, buf, len, off);
}

static int seam_close(int fd) {
  if (fd >= 0 && fd < 1024)
    fd_path[fd][0] = '\0';
  return kernel_real.close(fd);
}

static struct kernel_ops seam_kernel;

static uint64_t clock_mono(void *ctx) {
  (void)ctx;
  return m.mono;
}
static uint64_t clock_real(void *ctx) {
  (void)ctx;
  return T0 * SEC + m.mono;
}

/* ---- logs ---- */

static char logs[64][512];
static size_t n_logs;

static void log_capture(enum log_level level, const char *message) {
  (void)level;
  if (n_logs < 64)
    snprintf(logs[n_logs++], sizeof(logs[0]), "%s", message);
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
};

static int setup(void **state) {
  struct fixture *f = calloc(1, sizeof(*f));
  assert_non_null(f);
  assert_int_equal(ddv_tree_init(&f->tree, NULL), 0);
  assert_int_equal(ddv_tree_fixture(&f->tree, "xe_bmg"), 0);
  capture_sink_init(&f->sink);
  memset(&m, 0, sizeof(m));
  memset(fd_path, 0, sizeof(fd_path));
  n_logs = 0;
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

static void start(struct fixture *f, const char *report) {
  if (f->inst != NULL)
    drm_device_ops.instance_free(f->inst);
  f->inst = drm_device_ops.instance_new("test");
  assert_non_null(f->inst);
  struct cfg_value v = {.type = CFG_STRING, .string = f->tree.sys};
  struct cfg_item item = {.key = "SysfsRoot", .values = &v, .n_values = 1};
  assert_int_equal(drm_device_ops.configure(f->inst, &item), 0);
  if (report != NULL) {
    struct cfg_value r = {.type = CFG_STRING, .string = report};
    struct cfg_item ri = {.key = "Report", .values = &r, .n_values = 1};
    assert_int_equal(drm_device_ops.configure(f->inst, &ri), 0);
  }
  plugin_host_init(&f->host, "test", SEC);
  seam_kernel = kernel_real;
  seam_kernel.openat = seam_openat;
  seam_kernel.read = seam_read;
  seam_kernel.pread = seam_pread;
  seam_kernel.close = seam_close;
  f->host.kernel = &seam_kernel;
  f->host.clock = (struct plugin_clock){clock_mono, clock_real, NULL};
  assert_int_equal(drm_device_ops.init(f->inst, &f->host), 0);
}

/* One read at `t_ns` (the clock then moves with its attribute reads). */
static void read_at_ns(struct fixture *f, uint64_t t_ns) {
  m.mono = t_ns;
  m.pm_this = false;
  capture_sink_clear(&f->sink);
  assert_int_equal(drm_device_ops.read(f->inst, &f->sink.base), 0);
}

/* This read's series: "measurement,tags field" of every field, sorted,
 * one per line, into out. */
static int key_cmp(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void series_of(const struct fixture *f, char *out, size_t size) {
  static char keys[512][200];
  static const char *sorted[512];
  size_t n = 0;
  for (size_t i = 0; i < f->sink.n_lines && n < 512; i++) {
    const char *line = f->sink.lines[i];
    const char *sp = strchr(line, ' ');
    if (sp == NULL)
      continue;
    const char *fields = sp + 1, *end = strrchr(line, ' ');
    while (fields < end && n < 512) {
      const char *eq = strchr(fields, '='), *comma = strchr(fields, ',');
      if (eq == NULL || eq > end)
        break;
      snprintf(keys[n], sizeof(keys[0]), "%.*s %.*s", (int)(sp - line), line,
               (int)(eq - fields), fields);
      sorted[n] = keys[n];
      n++;
      fields = comma != NULL && comma < end ? comma + 1 : end;
    }
  }
  qsort(sorted, n, sizeof(sorted[0]), key_cmp);
  size_t used = 0;
  out[0] = '\0';
  for (size_t i = 0; i < n && used < size; i++)
    used += (size_t)snprintf(out + used, size - used, "%s\n", sorted[i]);
}

/* The device's values_age_seconds this read, or -1. */
static double age_of(const struct fixture *f) {
  const char *line = capture_sink_find(&f->sink, "drm_device," XE " ");
  const char *a = line != NULL ? strstr(line, "values_age_seconds=") : NULL;
  return a != NULL ? strtod(a + 19, NULL) : -1.0;
}

/* How long a run lasts: four holds and 5 s, and six reads at least. */
static uint64_t span_of(long long delay_ms, uint64_t interval_ns) {
  uint64_t d = (uint64_t)delay_ms * MS;
  uint64_t span = 4 * (d + d / 4) + 5 * SEC;
  return span > 6 * interval_ns ? span : 6 * interval_ns;
}

/*
 * One run: delay `delay_ms`, reads every `interval_ns` for span_of(). With
 * control "auto", each read that takes references must find last_busy less than
 * the delay minus the margin ago (the second read only) or at least 1.25 x the
 * delay plus the margin ago, and come no later than one interval after the rule
 * allows it; from the second real reading on, every read carries the same
 * series, each with its age. Returns how many reads took references.
 */
static unsigned run(struct fixture *f, long long delay_ms, uint64_t interval_ns,
                    const char *control) {
  assert_int_equal(ddv_tree_autosuspend(&f->tree, "card1", control, delay_ms),
                   0);
  memset(&m, 0, sizeof(m));
  m.cost_ns = 200000; /* 0.2 ms a file: about 15 ms a read */
  start(f, NULL);
  uint64_t delay = (uint64_t)delay_ms * MS, t = 10 * SEC;
  uint64_t stop = t + span_of(delay_ms, interval_ns);
  bool autos = strcmp(control, "auto") == 0;
  static char base[65536], now[65536];
  base[0] = '\0';
  unsigned rounds = 0, pm_rounds = 0;
  uint64_t pm_start = 0, pm_took = 0;
  for (; t < stop; t += interval_ns, rounds++) {
    read_at_ns(f, t);
    uint64_t took = m.mono - t;
    if (!autos) {
      if (!m.pm_this)
        fail_msg("control on, delay %lld ms, every %llu ms: read at %llu ms "
                 "took no reading",
                 delay_ms, (unsigned long long)(interval_ns / MS),
                 (unsigned long long)(t / MS));
    } else if (m.pm_this && pm_rounds > 0) {
      bool early = rounds == 1 && m.gap_ns + MARGIN <= delay;
      if (!early && m.gap_ns < delay + delay / 4 + MARGIN)
        fail_msg("delay %lld ms, every %llu ms: at %llu ms, %llu ms after "
                 "last_busy: where the timer may fire",
                 delay_ms, (unsigned long long)(interval_ns / MS),
                 (unsigned long long)(t / MS),
                 (unsigned long long)(m.gap_ns / MS));
    } else if (!m.pm_this && pm_rounds > 0 &&
               t - (pm_start + pm_took) >=
                   delay + delay / 4 + MARGIN + pm_took + interval_ns) {
      fail_msg("delay %lld ms, every %llu ms: no reading by %llu ms", delay_ms,
               (unsigned long long)(interval_ns / MS),
               (unsigned long long)(t / MS));
    }
    double age = age_of(f);
    double want = m.pm_this ? 0.0 : (double)(t - pm_start) * 1e-9;
    if (age < want - 1e-6 || age > want + 1e-6)
      fail_msg("at %llu ms: values_age_seconds %g, not %g",
               (unsigned long long)(t / MS), age, want);
    if (m.pm_this) {
      pm_rounds++;
      pm_start = t;
      pm_took = took;
    }
    series_of(f, now, sizeof(now));
    if (pm_rounds >= 2 && base[0] == '\0')
      memcpy(base, now, sizeof(base));
    else if (base[0] != '\0' && strcmp(base, now) != 0)
      fail_msg("delay %lld ms, every %llu ms: at %llu ms the series "
               "changed:\n%s-- from --\n%s",
               delay_ms, (unsigned long long)(interval_ns / MS),
               (unsigned long long)(t / MS), now, base);
  }
  assert_int_equal(m.wakes, 0);
  return pm_rounds;
}

/* Delays of 1, 5 and 10 s (xe_pm.c, amdgpu, i915 set these), intervals
 * that divide 1.25 x the delay (0.25, 1.25, 2.5 s), 0.5 s and collectd's
 * 10 s, control "auto" and "on". With "on" every read takes every
 * reading. */
static void timer__never_on_its_latest_firing(void **state) {
  struct fixture *f = *state;
  static const long long delays[] = {1000, 5000, 10000};
  static const uint64_t intervals[] = {250 * MS, 500 * MS, 1250 * MS, 2500 * MS,
                                       10 * SEC};
  for (size_t d = 0; d < 3; d++)
    for (size_t i = 0; i < 5; i++) {
      unsigned n = run(f, delays[d], intervals[i], "auto");
      /* at most one reading per hold, and the second read where it came
       * early */
      uint64_t hold = (uint64_t)delays[d] * MS * 5 / 4 + MARGIN;
      uint64_t span = span_of(delays[d], intervals[i]);
      unsigned most = (unsigned)(span / hold) + 2;
      if (n < 3 || n > most)
        fail_msg("delay %lld ms, every %llu ms: %u readings, not 3..%u",
                 delays[d], (unsigned long long)(intervals[i] / MS), n, most);
      unsigned reads = (unsigned)((span + intervals[i] - 1) / intervals[i]);
      assert_int_equal(run(f, delays[d], intervals[i], "on"), reads);
    }
}

/* The device suspends (the timer at its latest) and is resumed by a
 * client: nothing that takes a reference is read while it sleeps, its
 * values are absent then (not held: a sleeping GPU's last clock and power
 * are not what it is now), the age goes on; once resumed, everything is
 * read at the next read. */
static void suspend_and_resume_between_reads(void **state) {
  struct fixture *f = *state;
  assert_int_equal(ddv_tree_autosuspend(&f->tree, "card1", "auto", 1000), 0);
  m.cost_ns = 200000;
  start(f, NULL);
  read_at_ns(f, 10 * SEC);
  assert_true(m.pm_this);
  read_at_ns(f, 10 * SEC + 500 * MS);
  assert_true(m.pm_this); /* the second read, before the delay ran out */
  uint64_t busy = m.last_busy;
  /* pm_suspend_timer_fn by last_busy + 1.25 s: suspended */
  assert_int_equal(ddv_tree_runtime(&f->tree, "card1", "suspended", 10600, 50),
                   0);
  m.suspended = true;
  unsigned before = m.pm_reads;
  for (uint64_t t = 11 * SEC; t <= 20 * SEC; t += 500 * MS) {
    read_at_ns(f, t);
    assert_false(m.pm_this);
    assert_null(capture_sink_find(&f->sink, "drm_device_temperature"));
    assert_null(capture_sink_find(&f->sink, "drm_device_idle"));
    assert_null(capture_sink_find(&f->sink, "drm_device_power"));
    /* the fused rpn_freq only: no reference (xe_gt_freq.c) */
    assert_non_null(capture_sink_find(
        &f->sink, "drm_device_freq," XE ",domain=gt0 rpn_hz=400000000i "));
    double age = age_of(f);
    assert_true(age > (double)(t - 10 * SEC - 500 * MS) * 1e-9 - 1e-6 &&
                age < (double)(t - 10 * SEC - 500 * MS) * 1e-9 + 1e-6);
  }
  assert_int_equal(m.pm_reads, before);
  assert_int_equal(m.wakes, 0);
  assert_true(busy < 12 * SEC);
  /* a client resumes it (rpm_resume marks last_busy) */
  assert_int_equal(ddv_tree_runtime(&f->tree, "card1", "active", 10700, 9000),
                   0);
  m.suspended = false;
  m.last_busy = 20 * SEC + 100 * MS;
  read_at_ns(f, 20 * SEC + 500 * MS);
  assert_true(m.pm_this);
  assert_non_null(capture_sink_find(&f->sink, "drm_device_temperature," XE
                                              ",sensor=pkg celsius=45.0 "));
  assert_true(age_of(f) == 0.0);
  /* the idle rate spans the sleep: runtime_suspended_time grew by 9 s */
  assert_non_null(capture_sink_find(&f->sink, "drm_device_idle," XE
                                              ",domain=gt0 residency_ns="));
}

/* i915_hwmon.c: hwm_energy and xe_hwmon.c: xe_hwmon_energy_get count any
 * fall of the 32-bit register as a wrap, so a hardware reset of it reads
 * as up to 2^32 >> 14 J at once: above twice the sensor's power cap x the
 * interval (+1 s), a reset, said once; the total goes on from the new
 * reading. Without a cap (power2 here has none), 3 kW. */
static void energy__jump_forward_is_a_reset(void **state) {
  struct fixture *f = *state;
  assert_int_equal(
      ddv_tree_remove(&f->tree, "card1", "device/hwmon/hwmon2/power2_max"), 0);
  start(f, "power");
  read_at_ns(f, 10 * SEC);
  /* card (cap 250 W): 400 J in 1 s is within 2 x 250 W x 2 s */
  ddv_tree_write(&f->tree, "card1", "device/hwmon/hwmon2/energy1_input",
                 "405000000\n");
  /* pkg (no cap): 5000 J in 1 s is within 3 kW x 2 s */
  ddv_tree_write(&f->tree, "card1", "device/hwmon/hwmon2/energy2_input",
                 "5003000000\n");
  read_at_ns(f, 11 * SEC);
  assert_non_null(capture_sink_find(
      &f->sink, "drm_device_power," XE ",sensor=card energy_joules=405.0,"
                "power_watts=400.0,power_cap_watts=250.0 "));
  assert_non_null(capture_sink_find(
      &f->sink, "drm_device_power," XE ",sensor=pkg energy_joules=5003.0,"
                "power_watts=5000.0 "));
  /* 2^32 >> 14 J = 262144 J more in 1 s: resets */
  ddv_tree_write(&f->tree, "card1", "device/hwmon/hwmon2/energy1_input",
                 "262549000000\n");
  ddv_tree_write(&f->tree, "card1", "device/hwmon/hwmon2/energy2_input",
                 "267147000000\n");
  read_at_ns(f, 12 * SEC);
  assert_non_null(capture_sink_find(
      &f->sink, "drm_device_power," XE ",sensor=card energy_joules=405.0,"
                "power_cap_watts=250.0 "));
  assert_non_null(capture_sink_find(
      &f->sink, "drm_device_power," XE ",sensor=pkg energy_joules=5003.0 "));
  assert_int_equal(logs_with("energy1_input: read: grew by 262144000000 in "
                             "1.000 s, more than the 1000000000 the device "
                             "can reach: a reset"),
                   1);
  assert_int_equal(logs_with("energy2_input: read: grew by 262144000000 in "
                             "1.000 s, more than the 6000000000 the device "
                             "can reach"),
                   1);
  /* on from the new reading: 10 J in 1 s */
  ddv_tree_write(&f->tree, "card1", "device/hwmon/hwmon2/energy1_input",
                 "262559000000\n");
  read_at_ns(f, 13 * SEC);
  assert_non_null(capture_sink_find(
      &f->sink, "drm_device_power," XE ",sensor=card energy_joules=415.0,"
                "power_watts=10.0,power_cap_watts=250.0 "));
  /* again: not said again */
  ddv_tree_write(&f->tree, "card1", "device/hwmon/hwmon2/energy1_input",
                 "999999000000\n");
  read_at_ns(f, 14 * SEC);
  assert_int_equal(logs_with("grew by"), 2);
}

/* Values outside what the attribute's type and the kernel's range allow
 * are refused, said once per device and attribute, and taken again once
 * they are back in range (said at INFO). */
static void range__values_no_kernel_prints(void **state) {
  struct fixture *f = *state;
  static const struct {
    const char *rel, *text, *log;
  } bad[] = {
      /* hwmon: power1_max INT64_MIN µW, a negative cap */
      {"device/hwmon/hwmon2/power1_max", "-9223372036854775808\n",
       "power1_max: read: \"-9223372036854775808\" is -9.22337e+12 "
       "power_cap_watts, outside what the kernel gives there (0 to 100000)"},
      {"device/hwmon/hwmon2/power2_max", "-1000000\n",
       "power2_max: read: \"-1000000\" is -1 power_cap_watts"},
      /* 2^31 m°C */
      {"device/hwmon/hwmon2/temp2_input", "2147483648\n",
       "temp2_input: read: \"2147483648\" is 2.14748e+06 celsius, outside "
       "what the kernel gives there (-273.15 to 1000)"},
      /* 2^31 MHz: no u32 MHz the kernel decodes comes near */
      {"device/tile0/gt0/freq0/cur_freq", "2147483648\n",
       "cur_freq: read: \"2147483648\" is 2.14748e+15 requested_hz"},
      {"device/hwmon/hwmon2/fan1_input", "4294967295\n",
       "fan1_input: read: \"4294967295\" is 4.29497e+09 rpm"},
      {"device/hwmon/hwmon2/in1_input", "-5\n",
       "in1_input: read: \"-5\" is -0.005 volts"},
  };
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
    assert_int_equal(ddv_tree_write(&f->tree, "card1", bad[i].rel, bad[i].text),
                     0);
  start(f, NULL);
  read_at_ns(f, 10 * SEC);
  read_at_ns(f, 11 * SEC);
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
    if (logs_with(bad[i].log) != 1)
      fail_msg("said %zu times: %s", logs_with(bad[i].log), bad[i].log);
  assert_non_null(capture_sink_find(&f->sink, "drm_device_power," XE
                                              ",sensor=card energy_joules=5.0,"
                                              "power_watts=0.0 "));
  assert_null(
      capture_sink_find(&f->sink, "drm_device_temperature," XE ",sensor=pkg"));
  assert_null(capture_sink_find(&f->sink, "drm_device_fan"));
  assert_non_null(capture_sink_find(
      &f->sink, "drm_device_freq," XE ",domain=gt0 actual_hz=2400000000i,"
                "min_hz="));
  /* back in range */
  ddv_tree_write(&f->tree, "card1", "device/hwmon/hwmon2/temp2_input",
                 "47000\n");
  ddv_tree_write(&f->tree, "card1", "device/tile0/gt0/freq0/cur_freq",
                 "2100\n");
  read_at_ns(f, 12 * SEC);
  assert_non_null(capture_sink_find(&f->sink, "drm_device_temperature," XE
                                              ",sensor=pkg celsius=47.0 "));
  assert_non_null(capture_sink_find(
      &f->sink, "drm_device_freq," XE ",domain=gt0 actual_hz=2400000000i,"
                "requested_hz=2100000000i,"));
  assert_int_equal(logs_with("temp2_input: readable again"), 1);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(timer__never_on_its_latest_firing, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(suspend_and_resume_between_reads, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(energy__jump_forward_is_a_reset, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(range__values_no_kernel_prints, setup,
                                      teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
