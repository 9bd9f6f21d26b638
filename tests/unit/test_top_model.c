/*
 * test_top_model.c: the top view's model without a terminal: values with
 * units, hostile names fitted by display width, the drm_fdinfo layout
 * (device headers with any drm_device field, rows sorted, filtered, per
 * scope) and the panels of other measurements (raw counters behind a key),
 * each as exact screen lines.
 */
#include "common/top/top_model.h"
#include "common/top/top_text.h"

#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static void top_format_value__units(void **state) {
  (void)state;
  static const struct {
    const char *key, *ctype;
    int is_int;
    double v;
    const char *out;
  } cases[] = {
      {"utilization", "percent", 0, 45.04, "45.0%"},
      {"running_percent", "percent", 0, 100, "100.0%"},
      {"total_bytes", "bytes", 1, 16777216, "16.0 MiB"},
      {"total_bytes", "bytes", 1, 512, "512 B"},
      {"resident_bytes", "bytes", 1, 3.5 * 1073741824.0, "3.50 GiB"},
      {"read_bandwidth", "uncore_bytes_per_second", 0, 999997.16,
       "976.6 KiB/s"},
      {"ext_write_bandwidth", "gpu_bytes_per_second", 0, 1048576 * 1.5,
       "1.50 MiB/s"},
      {"frequency", "frequency", 0, 1999999.3, "2.00 MHz"},
      {"frequency", "frequency", 0, 999998.03, "1.00 MHz"},
      {"cur_freq_hz", "gpu_hertz", 0, 1.2e9, "1.20 GHz"},
      {"read_latency_seconds", "uncore_seconds", 0, 8.333e-7, "833.3 ns"},
      {"busy_ns", "gpu_time", 1, 1500000, "1.50 ms"},
      {"power_watts", "power", 0, 12.5, "12.5 W"},
      {"temperature", "temperature", 0, 54, "54.0 C"},
      {"clients", "objects", 1, 2, "2"},
      {"count", "derive", 1, 12345678, "12.3 M"},
      {"read_request_rate", "uncore_rate", 0, 1.5, "1.50"},
  };
  for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
    char buf[48];
    size_t n = top_format_value(buf, sizeof(buf), cases[i].key, cases[i].ctype,
                                cases[i].is_int, cases[i].v);
    if (strcmp(buf, cases[i].out) != 0 || n != strlen(buf))
      fail_msg("case %zu (%s): \"%s\", want \"%s\"", i, cases[i].key, buf,
               cases[i].out);
  }
}

static void top_text_fit__hostile_names(void **state) {
  (void)state;
  static const struct {
    const char *in;
    int width, pad;
    const char *out;
    int used;
  } cases[] = {
      {"glxgears", 10, 1, "glxgears  ", 10},
      {"glxgears", 4, 0, "glxg", 4},
      {"\x1b[2J\x1b[Hpwn", 12, 0, "?[2J?[Hpwn", 10}, /* ESC */
      {"a\xc2\x9b"
       "31mb",
       10, 0, "a?31mb", 6}, /* C1 CSI */
      {"tab\there\n", 20, 0, "tab?here?", 9},
      {"\xe6\xb8\xb2\xe6\x9f\x93", 3, 1, "\xe6\xb8\xb2 ", 3}, /* never half */
      {"\xf0\x9f\x98\x80x", 3, 0, "\xf0\x9f\x98\x80x", 3},    /* emoji: 2 */
      {"bad\xff\xfe", 10, 0, "bad??", 5},
      {"", 3, 1, "   ", 3},
  };
  for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
    char out[64] = "";
    int used = top_text_fit(out, sizeof(out), cases[i].in, cases[i].width,
                            cases[i].pad);
    if (strcmp(out, cases[i].out) != 0 || used != cases[i].used)
      fail_msg("case %zu: \"%s\" (%d)", i, out, used);
  }
  /* 200 characters into 16 columns, and into a small buffer */
  char name[201], out[64] = "";
  memset(name, 'x', 200);
  name[200] = '\0';
  assert_int_equal(top_text_fit(out, sizeof(out), name, 16, 0), 16);
  assert_int_equal(strlen(out), 16);
  char small[8] = "";
  assert_int_equal(top_text_fit(small, sizeof(small), name, 16, 0), 7);
  assert_string_equal(small, "xxxxxxx");
  assert_int_equal(top_text_width("\xe6\xb8\xb2\x1b"), 3);
}

/* ---- the drm layout ---- */

static void add_engine(struct top_model *m, const char *scope, const char *dev,
                       const char *engine, const char *pid, const char *comm,
                       double util) {
  struct metric r;
  metric_init(&r, "drm_engine", 1);
  metric_add_tag(&r, "scope", scope);
  metric_add_tag(&r, "driver", "i915");
  metric_add_tag(&r, "device", dev);
  metric_add_tag(&r, "engine", engine);
  metric_add_tag(&r, "pid", pid);
  metric_add_tag(&r, "comm", comm);
  metric_add_int(&r, "busy_ns", "derive", 1000);
  metric_add_float(&r, "utilization", "percent", util);
  assert_int_equal(m->base.write(&m->base, &r), 0);
}

static void add_memory(struct top_model *m, const char *scope, const char *dev,
                       const char *pid, const char *comm, uint64_t total,
                       uint64_t resident) {
  struct metric r;
  metric_init(&r, "drm_memory", 1);
  metric_add_tag(&r, "scope", scope);
  metric_add_tag(&r, "driver", "i915");
  metric_add_tag(&r, "device", dev);
  metric_add_tag(&r, "region", "system0");
  metric_add_tag(&r, "pid", pid);
  metric_add_tag(&r, "comm", comm);
  metric_add_int(&r, "total_bytes", "bytes", total);
  if (resident)
    metric_add_int(&r, "resident_bytes", "bytes", resident);
  assert_int_equal(m->base.write(&m->base, &r), 0);
}

static void build_drm(struct top_model *m) {
  top_model_init(m);
  m->base.begin(&m->base);
  add_engine(m, "device", "0000:00:02.0", "render", NULL, NULL, 55);
  add_engine(m, "device", "0000:00:02.0", "video", NULL, NULL, 5);
  add_memory(m, "device", "0000:00:02.0", NULL, NULL, 3 << 20, 1 << 20);
  add_engine(m, "process", "0000:00:02.0", "render", "100", "glxgears", 10);
  add_engine(m, "process", "0000:00:02.0", "video", "100", "glxgears", 5);
  add_engine(m, "process", "0000:00:02.0", "render", "200", "blender", 45);
  add_memory(m, "process", "0000:00:02.0", "100", "glxgears", 2 << 20, 1 << 20);
  add_memory(m, "process", "0000:00:02.0", "200", "blender", 1 << 20, 0);
  /* a drm_device record from another plugin: its fields light up */
  struct metric r;
  metric_init(&r, "drm_device", 1);
  metric_add_tag(&r, "driver", "i915");
  metric_add_tag(&r, "device", "0000:00:02.0");
  metric_add_float(&r, "frequency", "gpu_hertz", 1.2e9);
  metric_add_float(&r, "power_watts", "power", 7.25);
  assert_int_equal(m->base.write(&m->base, &r), 0);
  m->base.end(&m->base);
}

static void expect_lines(const struct top_model *m, const struct top_options *o,
                         const char *const *want, size_t n) {
  struct top_screen s;
  memset(&s, 0, sizeof(s));
  assert_int_equal(top_render(m, o, &s), 0);
  for (size_t i = 0; i < n && i < s.n; i++)
    if (strcmp(s.lines[i].text, want[i]) != 0)
      fail_msg("line %zu:\n got \"%s\"\nwant \"%s\"", i, s.lines[i].text,
               want[i]);
  if (s.n != n)
    fail_msg("%zu lines, want %zu (last: \"%s\")", s.n, n,
             s.n ? s.lines[s.n - 1].text : "");
  top_screen_fini(&s);
}

static void top_render__drm_sorted_by_busy(void **state) {
  (void)state;
  struct top_model m;
  build_drm(&m);
  struct top_options o;
  top_options_init(&o);
  o.cols = 100;
  static const char *const want[] = {
      ("i915 0000:00:02.0  mem 1.00 MiB resident / 3.00 MiB total  frequency "
       "1.20 GHz  power_watts 7.25 W"),
      "  render [||||||    ]  55.0%  video [|         ]   5.0%",
      "",
      ("     PID NAME             DEVICE         render    video   BUSY*   "
       "RESIDENT     MEMORY"),
      ("     200 blender          0000:00:02.0    45.0%        -   45.0%      "
       "    -   1.00 MiB"),
      ("     100 glxgears         0000:00:02.0    10.0%     5.0%   15.0%   "
       "1.00 "
       "MiB   2.00 MiB"),
  };
  expect_lines(&m, &o, want, ARRAY_SIZE(want));
  top_model_fini(&m);
}

static void top_render__drm_sort_keys_filter_and_scope(void **state) {
  (void)state;
  struct top_model m;
  build_drm(&m);
  struct top_options o;
  top_options_init(&o);
  o.cols = 60;
  o.sort = TOP_SORT_MEMORY;
  o.notice = "not root: ...";
  static const char *const by_memory[] = {
      "i915 0000:00:02.0  mem 1.00 MiB resident / 3.00 MiB total",
      "  render [||||||    ]  55.0%  video [|         ]   5.0%",
      "",
      "not root: ...",
      "",
      "     PID NAME             DEVICE         render    video",
      "     100 glxgears         0000:00:02.0    10.0%     5.0%",
      "     200 blender          0000:00:02.0    45.0%        -",
  };
  expect_lines(&m, &o, by_memory, ARRAY_SIZE(by_memory));
  /* the second engine column, then a filter on the name */
  o.sort = TOP_SORT_ENGINE + 1;
  o.notice = NULL;
  o.max_rows = 1;
  static const char *const by_video[] = {
      "i915 0000:00:02.0  mem 1.00 MiB resident / 3.00 MiB total",
      "  render [||||||    ]  55.0%  video [|         ]   5.0%",
      "",
      "     PID NAME             DEVICE         render   video*",
      "     100 glxgears         0000:00:02.0    10.0%     5.0%",
      "  (1 more)",
  };
  expect_lines(&m, &o, by_video, ARRAY_SIZE(by_video));
  o.max_rows = 0;
  o.sort = TOP_SORT_BUSY;
  snprintf(o.filter, sizeof(o.filter), "blend");
  static const char *const filtered[] = {
      "",
      "     PID NAME             DEVICE         render   BUSY*   RESIDENT",
      "     200 blender          0000:00:02.0    45.0%   45.0%          -",
  };
  o.cols = 67;
  expect_lines(&m, &o, filtered, ARRAY_SIZE(filtered));
  o.filter[0] = '\0';
  o.scope = TOP_SCOPE_CGROUP;
  o.rows = 4; /* the screen's height cuts the lines */
  static const char *const cgroup[] = {
      "i915 0000:00:02.0  mem 1.00 MiB resident / 3.00 MiB total",
      "  render [||||||    ]  55.0%  video [|         ]   5.0%",
      "",
      " CGROUP                         DEVICE         BUSY*   RESIDENT",
  };
  expect_lines(&m, &o, cgroup, ARRAY_SIZE(cgroup));
  o.rows = 0;
  o.cols = 80;
  o.scope = TOP_SCOPE_CLIENT;
  struct top_screen s;
  memset(&s, 0, sizeof(s));
  assert_int_equal(top_render(&m, &o, &s), 0);
  assert_string_equal(s.lines[s.n - 1].text,
                      "  (no client records: add --ReportBy=Client)");
  top_screen_fini(&s);
  top_model_fini(&m);
}

static void top_render__hostile_comm_stays_in_its_column(void **state) {
  (void)state;
  char long_name[201];
  memset(long_name, 'A', 200);
  long_name[200] = '\0';
  struct top_model m;
  top_model_init(&m);
  m.base.begin(&m.base);
  add_engine(&m, "process", "d", "render", "1", "\x1b]0;pwn\x07\xe6\xb8\xb2",
             3);
  add_engine(&m, "process", "d", "render", "2", long_name, 2);
  struct top_options o;
  top_options_init(&o);
  o.cols = 50;
  static const char *const want[] = {
      "",
      "     PID NAME             DEVICE         render",
      "       1 ?]0;pwn?\xe6\xb8\xb2       d                3.0%",
      "       2 AAAAAAAAAAAAAAAA d                2.0%",
  };
  expect_lines(&m, &o, want, ARRAY_SIZE(want));
  top_model_fini(&m);
}

static void top_render__panels_hide_raw_counters(void **state) {
  (void)state;
  struct top_model m;
  top_model_init(&m);
  m.base.begin(&m.base);
  struct metric r;
  metric_init(&r, "panthor_perf", 1);
  metric_add_tag(&r, "device", "renderD128");
  metric_add_int(&r, "gpu_active_cycles", "derive", 8);
  metric_add_float(&r, "tiler_utilization_percent", "percent", 100);
  metric_add_float(&r, "ext_read_bandwidth", "gpu_bytes_per_second", 3072);
  assert_int_equal(m.base.write(&m.base, &r), 0);
  metric_init(&r, "panthor_perf_stream", 1);
  metric_add_tag(&r, "device", "renderD128");
  metric_add_int(&r, "samples", "derive", 2);
  assert_int_equal(m.base.write(&m.base, &r), 0);
  struct top_options o;
  top_options_init(&o);
  o.cols = 96;
  static const char *const derived[] = {
      "panthor_perf device=renderD128  (+1 raw counters: r)",
      ("  tiler_utilization_percent               100.0%  ext_read_bandwidth"
       "                  3.00 KiB/s"),
  };
  expect_lines(&m, &o, derived, ARRAY_SIZE(derived));
  o.raw = true;
  static const char *const raw[] = {
      "panthor_perf device=renderD128",
      ("  gpu_active_cycles                            8  "
       "tiler_utilization_percent               100.0%"),
      "  ext_read_bandwidth                  3.00 KiB/s",
      "panthor_perf_stream device=renderD128",
      "  samples                                      2",
  };
  expect_lines(&m, &o, raw, ARRAY_SIZE(raw));
  top_model_fini(&m);
}

static const char *fake_user(void *ctx, const char *pid) {
  int *calls = ctx;
  (*calls)++;
  return strcmp(pid, "100") == 0 ? "alice\x1b[7m" : NULL;
}

/* USER comes from the callback, only for the rows on the screen, and is
 * fitted like any name. */
static void top_render__user_column(void **state) {
  (void)state;
  struct top_model m;
  build_drm(&m);
  int calls = 0;
  struct top_options o;
  top_options_init(&o);
  o.cols = 66;
  o.sort = TOP_SORT_PID;
  o.user_name = fake_user;
  o.user_ctx = &calls;
  o.rows = 5;
  static const char *const want[] = {
      "i915 0000:00:02.0  mem 1.00 MiB resident / 3.00 MiB total",
      "  render [||||||    ]  55.0%  video [|         ]   5.0%",
      "",
      "    PID* USER     NAME             DEVICE         render    video",
      "     100 alice?[7 glxgears         0000:00:02.0    10.0%     5.0%",
  };
  expect_lines(&m, &o, want, ARRAY_SIZE(want));
  assert_int_equal(calls, 1); /* pid 200 is below the screen */
  o.rows = 0;
  static const char *const both[] = {
      "i915 0000:00:02.0  mem 1.00 MiB resident / 3.00 MiB total",
      "  render [||||||    ]  55.0%  video [|         ]   5.0%",
      "",
      "    PID* USER     NAME             DEVICE         render    video",
      "     100 alice?[7 glxgears         0000:00:02.0    10.0%     5.0%",
      "     200 -        blender          0000:00:02.0    45.0%        -",
  };
  expect_lines(&m, &o, both, ARRAY_SIZE(both));
  top_model_fini(&m);
}

/* Without drm_fdinfo's records (another plugin's executable), a
 * drm_device record is a panel of its own. */
static void top_render__drm_device_alone_is_a_panel(void **state) {
  (void)state;
  struct top_model m;
  top_model_init(&m);
  m.base.begin(&m.base);
  struct metric r;
  metric_init(&r, "drm_device", 1);
  metric_add_tag(&r, "device", "0000:03:00.0");
  metric_add_float(&r, "frequency", "gpu_hertz", 2.1e9);
  metric_add_float(&r, "idle_percent", "percent", 87.5);
  assert_int_equal(m.base.write(&m.base, &r), 0);
  struct top_options o;
  top_options_init(&o);
  o.cols = 100;
  static const char *const want[] = {
      "drm_device device=0000:03:00.0",
      ("  frequency                             2.10 GHz  idle_percent"
       "                             87.5%"),
  };
  expect_lines(&m, &o, want, ARRAY_SIZE(want));
  top_model_fini(&m);
}

int main(void) {
  /* the view runs under the user's UTF-8 locale */
  if (setlocale(LC_CTYPE, "C.UTF-8") == NULL) {
    printf("1..0 # SKIP C.UTF-8 locale missing\n");
    return 0;
  }
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(top_format_value__units),
      cmocka_unit_test(top_text_fit__hostile_names),
      cmocka_unit_test(top_render__drm_sorted_by_busy),
      cmocka_unit_test(top_render__drm_sort_keys_filter_and_scope),
      cmocka_unit_test(top_render__hostile_comm_stays_in_its_column),
      cmocka_unit_test(top_render__panels_hide_raw_counters),
      cmocka_unit_test(top_render__drm_device_alone_is_a_panel),
      cmocka_unit_test(top_render__user_column),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
