/*
 * test_sink_prom.c: exact bytes of the Prometheus text exposition: names in
 * base units, scaling, grouping of a pass into families, label escaping,
 * hostile names, clashes and duplicates, and the stream variant.
 */
#include "common/sink/sink_prom.h"

#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* A row the table does not have, to test clashes of scale. */
static const struct metric_unit test_ms_row = {
    "test_ms", METRIC_DS_DERIVE, "ms", "seconds", 1e-3, "test milliseconds"};

static void sink_prom_name__table(void **state) {
  (void)state;
  static const struct {
    const char *measurement, *key, *ctype, *expected;
  } cases[] = {
      {"drm_engine", "busy_ns", "gpu_time", "drm_engine_busy_seconds_total"},
      {"i915_oa", "avg_gpu_core_frequency_hz", "gpu_hertz",
       "i915_oa_avg_gpu_core_frequency_hertz"},
      {"i915_oa", "AvgGpuCoreFrequency", "gpu_hertz",
       "i915_oa_avg_gpu_core_frequency_hertz"},
      {"drm_engine", "utilization", "percent", "drm_engine_utilization_ratio"},
      /* a field named after its unit is not doubled */
      {"gpu", "percent", "percent", "gpu_ratio"},
      {"panthor_perf", "cycles", "gpu_cycles", "panthor_perf_cycles_total"},
      {"ppf", "running_percent", "percent", "ppf_running_ratio"},
      {"m", "read_bytes", "gpu_bytes", "m_read_bytes_total"},
      {"m", "resident", "bytes", "m_resident_bytes"},
      {"drm_scan", "clients", "objects", "drm_scan_clients"},
      {"drm_scan", "errors", "gpu_events", "drm_scan_errors_total"},
      {"t410", "latency_seconds", "uncore_latency_seconds",
       "t410_latency_seconds"},
      {"t410", "read_bandwidth", "uncore_bytes_per_second",
       "t410_read_bandwidth_bytes_per_second"},
      {"m", "weird-key.x", "objects", "m_weird_key_x"},
      {"9m", "a", "objects", "_9m_a"},
      /* a count's key is its name, whatever its last word */
      {"m", "window_ns", "gpu_events", "m_window_ns_total"},
      {"m", "spans", "gpu_events", "m_spans_total"},
      /* no word twice: the measurement's, the unit's */
      {"drm_device_power", "power", "gpu_watts", "drm_device_power_watts"},
      {"drm_device_idle", "idle", "percent", "drm_device_idle_ratio"},
      {"drm_device_power", "power_average", "gpu_watts",
       "drm_device_power_average_watts"},
      /* a counter's _total is the format's suffix, not a field word */
      {"drm_engine", "total_cycles", "gpu_cycles",
       "drm_engine_total_cycles_total"},
      {"m", "bytes_read", "gpu_bytes", "m_read_bytes_total"},
      {"drm_engine", "engine_busy_ns", "gpu_time",
       "drm_engine_busy_seconds_total"},
      {"", "100", "objects", "_100"}, /* never a leading digit */
  };
  for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
    char out[SINK_PROM_NAME_MAX + 1];
    const struct metric_unit *u = metric_unit_find(cases[i].ctype);
    assert_non_null(u);
    int n =
        sink_prom_name(cases[i].measurement, cases[i].key, u, out, sizeof(out));
    assert_int_equal(n, (int)strlen(cases[i].expected));
    assert_string_equal(out, cases[i].expected);
  }
  char small[8];
  assert_int_equal(sink_prom_name("drm_engine", "busy_ns",
                                  metric_unit_find("gpu_time"), small,
                                  sizeof(small)),
                   -E2BIG);
}

/* Every row of the table gives a name promtool accepts: [a-z0-9_], no
 * abbreviation of a unit at the end, counters ending in _total. */
static void sink_prom_name__every_row(void **state) {
  (void)state;
  for (size_t i = 0; i < metric_units_count; i++) {
    char out[SINK_PROM_NAME_MAX + 1];
    int n = sink_prom_name("m", "value", &metric_units[i], out, sizeof(out));
    assert_true(n > 0);
    for (int k = 0; k < n; k++)
      assert_non_null(strchr("abcdefghijklmnopqrstuvwxyz0123456789_", out[k]));
    bool total = n > 6 && strcmp(out + n - 6, "_total") == 0;
    assert_int_equal(total, metric_unit_is_counter(&metric_units[i]));
  }
}

static const char *render(struct sink_prom *s, const struct metric *ms,
                          size_t n) {
  assert_int_equal(s->base.begin(&s->base), 0);
  for (size_t i = 0; i < n; i++)
    assert_int_equal(s->base.write(&s->base, &ms[i]), 0);
  assert_int_equal(s->base.end(&s->base), 0);
  size_t len;
  const char *t = sink_prom_text(s, &len);
  assert_int_equal(len, strlen(t) <= len ? len : 0);
  return t;
}

static void sink_prom__families_grouped(void **state) {
  (void)state;
  struct metric ms[3];
  metric_init(&ms[0], "drm_engine", 5);
  metric_add_tag(&ms[0], "pid", "200");
  metric_add_tag(&ms[0], "engine", "render");
  metric_add_int(&ms[0], "busy_ns", "gpu_time", 1500);
  metric_add_float(&ms[0], "utilization", "percent", 50.0);
  metric_init(&ms[1], "drm_scan", 5);
  metric_add_int(&ms[1], "clients", "objects", 3);
  metric_init(&ms[2], "drm_engine", 5);
  metric_add_tag(&ms[2], "pid", "100");
  metric_add_tag(&ms[2], "engine", "render");
  metric_add_int(&ms[2], "busy_ns", "gpu_time", 2000000000);
  metric_add_float(&ms[2], "utilization", "percent", 12.5);
  struct sink_prom s;
  sink_prom_init(&s, NULL);
  const char *t = render(&s, ms, 3);
  assert_string_equal(
      t, "# HELP drm_engine_busy_seconds_total drm_engine busy_ns: time, "
         "cumulative nanoseconds, in seconds\n"
         "# TYPE drm_engine_busy_seconds_total counter\n"
         "drm_engine_busy_seconds_total{pid=\"100\",engine=\"render\"} 2.0\n"
         "drm_engine_busy_seconds_total{pid=\"200\",engine=\"render\"} "
         "1.5e-06\n"
         "# HELP drm_engine_utilization_ratio drm_engine utilization: "
         "percent over the interval, as a ratio (1 is 100 %)\n"
         "# TYPE drm_engine_utilization_ratio gauge\n"
         "drm_engine_utilization_ratio{pid=\"100\",engine=\"render\"} "
         "0.125\n"
         "drm_engine_utilization_ratio{pid=\"200\",engine=\"render\"} 0.5\n"
         "# HELP drm_scan_clients drm_scan clients: a count now\n"
         "# TYPE drm_scan_clients gauge\n"
         "drm_scan_clients 3\n");
  /* the next pass starts empty */
  t = render(&s, &ms[1], 1);
  assert_string_equal(t, "# HELP drm_scan_clients drm_scan clients: a count "
                         "now\n# TYPE drm_scan_clients gauge\n"
                         "drm_scan_clients 3\n");
  t = render(&s, NULL, 0);
  assert_string_equal(t, "");
  sink_prom_fini(&s);
}

static void sink_prom__label_escaping(void **state) {
  (void)state;
  static const struct {
    const char *value, *expected;
  } cases[] = {
      {"glxgears", "glxgears"},
      {"a\"b", "a\\\"b"},
      {"back\\slash\\", "back\\\\slash\\\\"},
      {"new\nline", "new\\nline"},
      {"tab\there\r\x7f", "tab?here??"},
      {"} x{y=\"1\"", "} x{y=\\\"1\\\""},
      {"\xc3\x9f\xe6\xb8\xb2\xf0\x9f\x98\x80",
       "\xc3\x9f\xe6\xb8\xb2\xf0\x9f\x98\x80"},
      /* not UTF-8: a lone continuation byte, a cut sequence, an overlong
       * '/', a surrogate, past U+10FFFF */
      {"\x80x\xe6\xb8", "?x??"},
      {"\xc0\xaf", "??"},
      {"\xed\xa0\x80", "???"},
      {"\xf4\x90\x80\x80", "????"},
      /* C1 controls (U+009B: a one-character CSI): one '?' each */
      {"a\xc2\x9b"
       "2Jb\xc2\x85",
       "a?2Jb?"},
  };
  for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
    struct metric m;
    metric_init(&m, "m", 1);
    metric_add_tag(&m, "comm", cases[i].value);
    metric_add_int(&m, "fds", "objects", 1);
    struct sink_prom s;
    sink_prom_init(&s, NULL);
    const char *t = render(&s, &m, 1);
    char want[512];
    snprintf(want, sizeof(want),
             "# HELP m_fds m fds: a count now\n# TYPE m_fds gauge\n"
             "m_fds{comm=\"%s\"} 1\n",
             cases[i].expected);
    assert_string_equal(t, want);
    sink_prom_fini(&s);
  }
}

static void sink_prom__label_names(void **state) {
  (void)state;
  struct metric m;
  metric_init(&m, "m", 1);
  metric_add_tag(&m, "pci-slot", "a");
  metric_add_tag(&m, "0x", "b");
  metric_add_tag(&m, "__name__", "c");
  metric_add_tag(&m, "pci_slot", "d"); /* the same name: the first stands */
  metric_add_tag(&m, "_-x", "e");      /* "__x" once made valid */
  metric_add_int(&m, "fds", "objects", 1);
  struct sink_prom s;
  sink_prom_init(&s, NULL);
  const char *t = render(&s, &m, 1);
  assert_non_null(
      strstr(t, "m_fds{pci_slot=\"a\",_0x=\"b\",x__name__=\"c\",x__x=\"e\"} "
                "1\n"));
  /* nothing to name: refused */
  struct metric e;
  metric_init(&e, "", 1);
  metric_add_int(&e, "", "objects", 1);
  t = render(&s, &e, 1);
  assert_string_equal(t, "");
  assert_int_equal(s.refused, 1);
  assert_non_null(strstr(s.clash, "the metric name is empty"));
  sink_prom_fini(&s);
}

static void sink_prom__numbers(void **state) {
  (void)state;
  struct metric m;
  metric_init(&m, "m", 1);
  metric_add_int(&m, "big", "gpu_events", UINT64_MAX); /* clamped */
  metric_add_int(&m, "neg", "objects", 0);
  metric_add_float(&m, "f", "objects", 0.1);
  metric_add_float(&m, "tiny_ns", "gpu_time", 1.0);
  metric_add_int(&m, "busy_ns", "gpu_time", 123456789012345678);
  struct sink_prom s;
  sink_prom_init(&s, NULL);
  const char *t = render(&s, &m, 1);
  assert_non_null(strstr(t, "\nm_big_total 9223372036854775807\n"));
  assert_non_null(strstr(t, "\nm_neg 0\n"));
  assert_non_null(strstr(t, "\nm_f 0.1\n"));
  assert_non_null(strstr(t, "\nm_tiny_seconds_total 1e-09\n"));
  assert_non_null(strstr(t, "\nm_busy_seconds_total 123456789.01234569\n"));
  sink_prom_fini(&s);
}

/* One name, one type and one unit: a field that would mix them is
 * refused and said; the rest of the pass stays. */
static void sink_prom__clash_refused(void **state) {
  (void)state;
  struct metric m, g, l;
  metric_init(&m, "m", 1);
  metric_add_int(&m, "busy_ns", "gpu_time", 1000);
  /* a gauge without unit named like the counter */
  metric_init(&g, "m", 1);
  metric_add_tag(&g, "pid", "3");
  metric_add_float(&g, "busy_seconds_total", "objects", 2.0);
  /* another row of the same unit and type is no clash */
  metric_init(&l, "m", 1);
  metric_add_tag(&l, "pid", "4");
  metric_add_float(&l, "rate", "uncore_rate", 2.0);
  metric_add_float(&l, "bw", "uncore_bytes_per_second", 2.0);
  struct metric l2;
  metric_init(&l2, "m", 1);
  metric_add_float(&l2, "bw", "gpu_bytes_per_second", 3.0);
  struct sink_prom s;
  sink_prom_init(&s, NULL);
  struct metric all[] = {m, g, l, l2};
  const char *t = render(&s, all, 4);
  assert_int_equal(s.refused, 1);
  assert_string_equal(s.clash,
                      "m field \"busy_seconds_total\" (objects): "
                      "m_busy_seconds_total is already a counter in "
                      "\"seconds\" (scale 1e-09), this one a gauge in \"\" "
                      "(scale 1): refused");
  assert_null(strstr(t, "pid=\"3\""));
  assert_non_null(strstr(t, "\nm_busy_seconds_total 1e-06\n"));
  assert_non_null(strstr(t, "\nm_bw_bytes_per_second 3.0\n"));
  assert_non_null(strstr(t, "\nm_bw_bytes_per_second{pid=\"4\"} 2.0\n"));
  /* the next pass forgets the refusal */
  render(&s, &m, 1);
  assert_int_equal(s.refused, 0);
  assert_string_equal(s.clash, "");
  sink_prom_fini(&s);
  /* a unit of another scale is another unit */
  struct sink_prom_unit pu = sink_prom_unit_of("busy_ms", &test_ms_row);
  assert_string_equal(pu.base, "seconds");
  assert_true(pu.scale == 1e-3);
  assert_int_equal(pu.strip, 3);
}

/* Same name and labels twice in a pass: the first stands. */
static void sink_prom__duplicates_dropped(void **state) {
  (void)state;
  struct metric m[2];
  for (int i = 0; i < 2; i++) {
    metric_init(&m[i], "m", 1);
    metric_add_tag(&m[i], "pid", "1");
    metric_add_int(&m[i], "fds", "objects", (uint64_t)(10 + i));
  }
  struct sink_prom s;
  sink_prom_init(&s, NULL);
  const char *t = render(&s, m, 2);
  assert_string_equal(t, "# HELP m_fds m fds: a count now\n"
                         "# TYPE m_fds gauge\nm_fds{pid=\"1\"} 10\n");
  assert_int_equal(s.duplicates, 1);
  assert_string_equal(s.duplicate, "m_fds{pid=\"1\"}");
  /* the next pass without one forgets it */
  render(&s, m, 1);
  assert_int_equal(s.duplicates, 0);
  assert_string_equal(s.duplicate, "");
  sink_prom_fini(&s);
}

/* Two keys that mangle to one name are not merged: the second is refused
 * and said, naming the first. */
static void sink_prom__mangled_names_not_merged(void **state) {
  (void)state;
  struct metric m;
  metric_init(&m, "drm_device_throttle", 1);
  metric_add_int(&m, "reason_PL1", "gpu_flag", 1);
  metric_add_int(&m, "reason_pl1", "gpu_flag", 0);
  metric_add_int(&m, "reason-pl1", "gpu_flag", 0);
  struct sink_prom s;
  sink_prom_init(&s, NULL);
  const char *t = render(&s, &m, 1);
  assert_string_equal(t, "# HELP drm_device_throttle_reason_pl1 "
                         "drm_device_throttle reason_PL1: a state: 1 yes, 0 "
                         "no\n"
                         "# TYPE drm_device_throttle_reason_pl1 gauge\n"
                         "drm_device_throttle_reason_pl1 1\n");
  assert_int_equal(s.refused, 2);
  assert_string_equal(s.clash,
                      "drm_device_throttle field \"reason_pl1\" (gpu_flag): "
                      "drm_device_throttle_reason_pl1 is already the name of "
                      "drm_device_throttle field \"reason_PL1\": two fields "
                      "are not merged into one name: refused");
  sink_prom_fini(&s);
}

/* A field type of the plugin's own (plugin_ops.units) is exposed with its
 * unit; without the plugin's rows it is refused (-EINVAL). */
static void sink_prom__plugin_units(void **state) {
  (void)state;
  static const struct metric_unit own[] = {
      {"example_value", METRIC_DS_GAUGE, "", "", 1.0, "the configured value"},
      {"example_mv", METRIC_DS_GAUGE, "mV", "volts", 1e-3, "voltage"},
      {NULL, METRIC_DS_GAUGE, NULL, NULL, 0, NULL},
  };
  struct metric m;
  metric_init(&m, "example", 1);
  metric_add_float(&m, "value", "example_value", 42);
  metric_add_int(&m, "vdd_mv", "example_mv", 950);
  struct sink_prom s;
  sink_prom_init(&s, NULL);
  assert_int_equal(s.base.begin(&s.base), 0);
  assert_int_equal(s.base.write(&s.base, &m), -EINVAL);
  assert_int_equal(s.base.end(&s.base), 0);
  size_t len;
  assert_string_equal(sink_prom_text(&s, &len), "");
  assert_int_equal(s.base.begin(&s.base), 0);
  assert_int_equal(sink_prom_write_units(&s, &m, own), 0);
  assert_int_equal(s.base.end(&s.base), 0);
  /* 950 mV is 0.95 V, not 0.9500000000000001; HELP says the unit once */
  assert_string_equal(sink_prom_text(&s, &len),
                      "# HELP example_value example value: the configured "
                      "value\n"
                      "# TYPE example_value gauge\n"
                      "example_value 42.0\n"
                      "# HELP example_vdd_volts example vdd_mv: voltage, in "
                      "volts\n"
                      "# TYPE example_vdd_volts gauge\n"
                      "example_vdd_volts 0.95\n");
  sink_prom_set_units(&s, own);
  render(&s, &m, 1);
  assert_non_null(strstr(sink_prom_text(&s, &len), "example_value 42.0\n"));
  sink_prom_fini(&s);
}

/* The unit is said once in a HELP text. */
static void sink_prom__help_unit_once(void **state) {
  (void)state;
  struct metric m;
  metric_init(&m, "drm_device_power", 1);
  metric_add_float(&m, "power", "gpu_watts", 12.5);
  metric_add_int(&m, "busy_ns", "gpu_time", 5);
  struct sink_prom s;
  sink_prom_init(&s, NULL);
  const char *t = render(&s, &m, 1);
  assert_non_null(strstr(t, "# HELP drm_device_power_watts drm_device_power "
                            "power: power in watts\n"));
  assert_non_null(strstr(t, "# HELP drm_device_power_busy_seconds_total "
                            "drm_device_power busy_ns: time, cumulative "
                            "nanoseconds, in seconds\n"));
  sink_prom_fini(&s);
}

static void sink_prom__bad_records(void **state) {
  (void)state;
  struct sink_prom fresh; /* an empty pass before any sample */
  sink_prom_init(&fresh, NULL);
  assert_string_equal(render(&fresh, NULL, 0), "");
  sink_prom_fini(&fresh);
  struct metric m;
  metric_init(&m, "m", 1);
  metric_add_int(&m, "a", "no_such_ctype", 1);
  metric_add_int(&m, "b", "objects", 2);
  struct sink_prom s;
  sink_prom_init(&s, NULL);
  assert_int_equal(s.base.begin(&s.base), 0);
  assert_int_equal(s.base.write(&s.base, &m), -EINVAL);
  assert_int_equal(s.base.end(&s.base), 0);
  size_t len;
  const char *t = sink_prom_text(&s, &len);
  assert_string_equal(t, "# HELP m_b m b: a count now\n# TYPE m_b gauge\n"
                         "m_b 2\n"); /* the valid field stays */
  sink_prom_fini(&s);
}

static void sink_prom__stream(void **state) {
  (void)state;
  char *buf = NULL;
  size_t size = 0;
  FILE *f = open_memstream(&buf, &size);
  assert_non_null(f);
  struct sink_prom s;
  sink_prom_init(&s, f);
  struct metric m;
  metric_init(&m, "m", 1);
  metric_add_int(&m, "fds", "objects", 4);
  render(&s, &m, 1);
  assert_int_equal(size, strlen("# HELP m_fds m fds: a count now\n"
                                "# TYPE m_fds gauge\nm_fds 4\n"));
  fclose(f);
  free(buf);
  sink_prom_fini(&s);
  /* a failing stream is -EIO */
  f = fopen("/dev/full", "w");
  assert_non_null(f);
  sink_prom_init(&s, f);
  assert_int_equal(s.base.begin(&s.base), 0);
  assert_int_equal(s.base.write(&s.base, &m), 0);
  assert_int_equal(s.base.end(&s.base), -EIO);
  fclose(f);
  sink_prom_fini(&s);
}

/* A long name is refused, not cut (two fields could merge). */
static void sink_prom__long_name_refused(void **state) {
  (void)state;
  char key[SINK_PROM_NAME_MAX + 2];
  memset(key, 'k', sizeof(key) - 1);
  key[sizeof(key) - 1] = '\0';
  struct metric m;
  metric_init(&m, "m", 1);
  metric_add_int(&m, key, "objects", 1);
  struct sink_prom s;
  sink_prom_init(&s, NULL);
  const char *t = render(&s, &m, 1);
  assert_string_equal(t, "");
  assert_int_equal(s.refused, 1);
  assert_non_null(strstr(s.clash, "the metric name is too long"));
  sink_prom_fini(&s);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(sink_prom_name__table),
      cmocka_unit_test(sink_prom_name__every_row),
      cmocka_unit_test(sink_prom__families_grouped),
      cmocka_unit_test(sink_prom__label_escaping),
      cmocka_unit_test(sink_prom__label_names),
      cmocka_unit_test(sink_prom__numbers),
      cmocka_unit_test(sink_prom__clash_refused),
      cmocka_unit_test(sink_prom__duplicates_dropped),
      cmocka_unit_test(sink_prom__mangled_names_not_merged),
      cmocka_unit_test(sink_prom__plugin_units),
      cmocka_unit_test(sink_prom__help_unit_once),
      cmocka_unit_test(sink_prom__bad_records),
      cmocka_unit_test(sink_prom__stream),
      cmocka_unit_test(sink_prom__long_name_refused),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
