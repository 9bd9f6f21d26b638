/*
 * test_top_model.c: the top view's model without a terminal: values with
 * the unit of their type, hostile names fitted by display width and cut
 * with a marker (paths in the middle), the device header joined from
 * several plugins' records by typed values, the table's columns fitted to
 * 80 and 100 columns, rows sorted, filtered (any case, headers kept), per
 * scope, the not-root line said once when true, "no GPU found", the
 * panels of other measurements (raw counters behind a key), and chart
 * cells in braille and ASCII: each as exact screen lines.
 */
#include "common/top/top_device.h"
#include "common/top/top_history.h"
#include "common/top/top_model.h"
#include "common/top/top_screen.h"
#include "common/top/top_text.h"

#include <locale.h>
#include <math.h>
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
    const char *ctype;
    int is_int;
    double v;
    const char *out;
  } cases[] = {
      {"percent", 0, 45.04, "45.0%"},
      {"percent", 0, 100, "100.0%"},
      {"bytes", 1, 16777216, "16.0 MiB"},
      {"bytes", 1, 512, "512 B"},
      {"bytes", 1, 3.5 * 1073741824.0, "3.50 GiB"},
      {"uncore_bytes_per_second", 0, 999997.16, "976.6 KiB/s"},
      {"gpu_bytes_per_second", 0, 1048576 * 1.5, "1.50 MiB/s"},
      {"gpu_hertz", 0, 1999999.3, "2.00 MHz"},
      {"gpu_hertz", 0, 999998.03, "1.00 MHz"},
      {"gpu_hertz", 1, 1.2e9, "1.20 GHz"},
      {"uncore_latency_seconds", 0, 8.333e-7, "833.3 ns"},
      {"gpu_time", 1, 1500000, "1.50 ms"},
      {"gpu_watts", 0, 12.5, "12.5 W"},
      {"gpu_celsius", 0, 54, "54.0 C"},
      {"gpu_rpm", 0, 1450.4, "1450 rpm"},
      {"gpu_volts", 0, 0.987, "0.99 V"},
      {"gpu_energy", 0, 1234.5, "1.23 kJ"},
      {"objects", 1, 2, "2"},
      {"gpu_events", 1, 12345678, "12.3 M"},
      {"uncore_rate", 0, 1.5, "1.50/s"},
      {"uncore_requests_per_cycle", 0, 0.25, "0.25 req/cycle"},
      {"uncore_latency_cycles", 0, 310.5, "310.50 cycles"},
      {"gpu_cycles", 1, 42, "42 cycles"},
      /* the unit is the type's, never the name's: a field called
       * "power" or "temperature" of a plain type is a plain number */
      {"uncore_value", 0, 7.25, "7.25"},
      {"no_such_type", 0, 7.25, "7.25"},
      {NULL, 1, 3, "3"},
  };
  for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
    char buf[48];
    size_t n = top_format_value(buf, sizeof(buf), cases[i].ctype,
                                cases[i].is_int, cases[i].v);
    if (strcmp(buf, cases[i].out) != 0 || n != strlen(buf))
      fail_msg("case %zu (%s): \"%s\", want \"%s\"", i,
               cases[i].ctype ? cases[i].ctype : "NULL", buf, cases[i].out);
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
      /* bidi controls (width 0 in glibc): RLO, PDI, RLM, ALM, one '?' */
      {"a\xe2\x80\xae"
       "b\xe2\x81\xa9\xe2\x80\x8f\xd8\x9c",
       10, 0, "a?b???", 6},
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

/* A cut name ends in the marker; a path keeps its last component. */
static void top_text_fit__cut_marker_and_middle(void **state) {
  (void)state;
  static const struct {
    int middle;
    const char *in;
    int width;
    const char *out;
  } cases[] = {
      {0, "glxgears", 8, "glxgears"},
      {0, "blender-with-a-long-name", 10, "blender-w\xe2\x80\xa6"},
      {0, "\xe6\xb8\xb2\xe6\x9f\x93\xe5\x99\xa8", 4,
       "\xe6\xb8\xb2\xe2\x80\xa6"},
      {1, "/user.slice", 30, "/user.slice"},
      {1, "/user.slice/user-1000.slice/app-firefox.scope", 30,
       "/user.slice\xe2\x80\xa6/app-firefox.scope"},
      /* the last component alone is too wide: its end */
      {1, "/system.slice/a-very-long-service-name.service", 16,
       "\xe2\x80\xa6"
       "ce-name.service"},
      {1, "no-slash-at-all-in-this-name", 10,
       "\xe2\x80\xa6"
       "this-name"},
  };
  for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
    char out[128] = "";
    int used = cases[i].middle
                   ? top_text_fit_middle(out, sizeof(out), cases[i].in,
                                         cases[i].width, 0)
                   : top_text_fit_end(out, sizeof(out), cases[i].in,
                                      cases[i].width, 0);
    if (strcmp(out, cases[i].out) != 0 || used > cases[i].width ||
        top_text_width(out) != used)
      fail_msg("case %zu: \"%s\" (%d)", i, out, used);
  }
  /* padded to the column */
  char out[64] = "";
  assert_int_equal(top_text_fit_middle(out, sizeof(out), "/a/b", 6, 1), 6);
  assert_string_equal(out, "/a/b  ");
}

/* ---- records as the plugins write them ---- */

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
  metric_add_int(&r, "busy_ns", "gpu_time", 1000);
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

/* drm_fdinfo's per-device summary (drm_clients, formerly drm_device) and
 * its drm_scan. */
static void add_summary(struct top_model *m, const char *measurement,
                        const char *dev, uint64_t unreadable) {
  struct metric r;
  metric_init(&r, measurement, 1);
  metric_add_tag(&r, "driver", "i915");
  metric_add_tag(&r, "device", dev);
  metric_add_int(&r, "clients", "objects", 2);
  metric_add_int(&r, "processes", "objects", 2);
  metric_add_int(&r, "unreadable", "objects", unreadable);
  assert_int_equal(m->base.write(&m->base, &r), 0);
  metric_init(&r, "drm_scan", 1);
  metric_add_int(&r, "processes", "objects", 40);
  metric_add_int(&r, "unreadable", "objects", unreadable);
  assert_int_equal(m->base.write(&m->base, &r), 0);
}

/* One drm_device record of one field, as that plugin writes it. */
static void add_ddv(struct top_model *m, const char *measurement,
                    const char *driver, const char *dev, const char *tag,
                    const char *tag_value, const char *field, const char *ctype,
                    double v) {
  struct metric r;
  metric_init(&r, measurement, 1);
  metric_add_tag(&r, "driver", driver);
  metric_add_tag(&r, "device", dev);
  metric_add_tag(&r, tag, tag_value);
  metric_add_float(&r, field, ctype, v);
  assert_int_equal(m->base.write(&m->base, &r), 0);
}

static void build_drm(struct top_model *m) {
  top_model_init(m);
  m->base.begin(&m->base);
  add_summary(m, "drm_clients", "0000:00:02.0", 0);
  add_engine(m, "device", "0000:00:02.0", "render", NULL, NULL, 55);
  add_engine(m, "device", "0000:00:02.0", "video", NULL, NULL, 5);
  add_memory(m, "device", "0000:00:02.0", NULL, NULL, 3 << 20, 1 << 20);
  add_engine(m, "process", "0000:00:02.0", "render", "100", "glxgears", 10);
  add_engine(m, "process", "0000:00:02.0", "video", "100", "glxgears", 5);
  add_engine(m, "process", "0000:00:02.0", "render", "200", "blender", 45);
  add_memory(m, "process", "0000:00:02.0", "100", "glxgears", 2 << 20, 1 << 20);
  add_memory(m, "process", "0000:00:02.0", "200", "blender", 1 << 20, 0);
  /* drm_device's records of the same device: joined into its header */
  add_ddv(m, "drm_device_freq", "i915", "0000:00:02.0", "domain", "gt0",
          "actual_hz", "gpu_hertz", 1.2e9);
  add_ddv(m, "drm_device_power", "i915", "0000:00:02.0", "sensor", "gt0",
          "power_watts", "gpu_watts", 7.25);
  m->base.end(&m->base);
}

static void expect_lines(const struct top_model *m, const struct top_options *o,
                         const char *const *want, size_t n) {
  struct top_screen s;
  memset(&s, 0, sizeof(s));
  assert_int_equal(top_render(m, o, &s), 0);
  for (size_t i = 0; i < n && i < s.n; i++)
    if (strcmp(s.lines[i].text, want[i]) != 0) {
      for (size_t k = 0; k < s.n; k++)
        fprintf(stderr, "# %s|\n", s.lines[k].text);
      fail_msg("line %zu:\n got \"%s\"\nwant \"%s\"", i, s.lines[i].text,
               want[i]);
    }
  if (s.n != n)
    fail_msg("%zu lines, want %zu (last: \"%s\")", s.n, n,
             s.n ? s.lines[s.n - 1].text : "");
  top_screen_fini(&s);
}

/* ---- the device header ---- */

static void top_render__drm_sorted_by_busy(void **state) {
  (void)state;
  struct top_model m;
  build_drm(&m);
  struct top_options o;
  top_options_init(&o);
  o.cols = 100;
  static const char *const want[] = {
      ("i915 0000:00:02.0  mem 1.00 MiB resident / 3.00 MiB total  gt0 1.20 "
       "GHz  7.25 W"),
      "  render [||||||    ]  55.0%  video [|         ]   5.0%",
      "",
      /* one device: DEVICE only because there is room */
      ("     PID NAME                           DEVICE         render    "
       "video   BUSY*   RESIDENT     MEMORY"),
      ("     200 blender                        0000:00:02.0    45.0%        "
       "-   45.0%          -   1.00 MiB"),
      ("     100 glxgears                       0000:00:02.0    10.0%     "
       "5.0%   10.0%   1.00 MiB   2.00 MiB"),
  };
  expect_lines(&m, &o, want, ARRAY_SIZE(want));
  top_model_fini(&m);
}

/* Every typed value of drm_device's records, by the unit of its type; the
 * drivers of the two plugins disagree: both are named. A field whose type
 * is not in the unit its value is kept in is refused, not shown. */
static void top_render__joined_header_typed(void **state) {
  (void)state;
  struct top_model m;
  top_model_init(&m);
  m.base.begin(&m.base);
  const char *dev = "0000:0b:00.0";
  add_summary(&m, "drm_device", dev, 0); /* the older name */
  add_engine(&m, "device", dev, "gfx", NULL, NULL, 37);
  add_ddv(&m, "drm_device_freq", "amdgpu_pci", dev, "domain", "sclk",
          "requested_hz", "gpu_hertz", 1.85e9);
  add_ddv(&m, "drm_device_freq", "amdgpu_pci", dev, "domain", "mclk",
          "actual_hz", "gpu_hertz", 1e9);
  add_ddv(&m, "drm_device_memory", "amdgpu_pci", dev, "region", "vram",
          "used_bytes", "bytes", 1073741824.0);
  add_ddv(&m, "drm_device_memory", "amdgpu_pci", dev, "region", "vram",
          "total_bytes", "bytes", 17163091968.0);
  add_ddv(&m, "drm_device_memory", "amdgpu_pci", dev, "region", "gtt",
          "total_bytes", "bytes", 33554432000.0);
  add_ddv(&m, "drm_device_temperature", "amdgpu_pci", dev, "sensor", "edge",
          "celsius", "gpu_celsius", 51);
  add_ddv(&m, "drm_device_temperature", "amdgpu_pci", dev, "sensor", "junction",
          "celsius", "gpu_celsius", 63);
  add_ddv(&m, "drm_device_power", "amdgpu_pci", dev, "sensor", "PPT",
          "power_watts", "gpu_watts", 123);
  add_ddv(&m, "drm_device_power", "amdgpu_pci", dev, "sensor", "PPT",
          "power_cap_watts", "gpu_watts", 272);
  add_ddv(&m, "drm_device_fan", "amdgpu_pci", dev, "sensor", "fan1", "rpm",
          "gpu_rpm", 1450);
  /* a power in percent: not a power */
  add_ddv(&m, "drm_device_power", "amdgpu_pci", dev, "sensor", "bogus",
          "power_watts", "percent", 999);
  m.base.end(&m.base);

  struct top_devices devs;
  memset(&devs, 0, sizeof(devs));
  assert_int_equal(top_devices_collect(&m.batch, &devs), 0);
  assert_int_equal(devs.n, 1);
  const struct top_device *d = &devs.dev[0];
  assert_string_equal(d->driver, "i915");
  assert_string_equal(d->driver_other, "amdgpu_pci");
  /* the first domain, sclk: its requested clock, not mclk's actual one */
  assert_false(d->v[TOP_DV_FREQ].has);
  assert_string_equal(d->freq_domain, "sclk");
  assert_true(d->v[TOP_DV_FREQ_REQ].v == 1.85e9);
  assert_true(d->v[TOP_DV_TEMP].v == 63);                  /* the hottest */
  assert_true(d->v[TOP_DV_POWER].v == 123);                /* not the 999 % */
  assert_true(d->v[TOP_DV_VRAM_TOTAL].v == 17163091968.0); /* vram, first */
  assert_true(d->v[TOP_DV_CLIENTS].v == 2);
  assert_false(d->v[TOP_DV_BUSY].has);
  assert_int_equal(d->refused, 1);
  top_devices_fini(&devs);

  struct top_options o;
  top_options_init(&o);
  o.cols = 80;
  static const char *const want[] = {
      ("i915/amdgpu_pci 0000:0b:00.0  vram 1.00 GiB / 16.0 GiB  sclk 1.85 GHz"
       "  63.0 C"),
      "  123 W / 272 W  fan 1450 rpm",
      "  gfx [||||      ]  37.0%",
      "",
      /* no rows: no engine columns; DEVICE in the room left */
      ("     PID NAME                         DEVICE         BUSY*   "
       "RESIDENT     MEMORY"),
      "  (no process rows)",
  };
  expect_lines(&m, &o, want, ARRAY_SIZE(want));
  top_model_fini(&m);
}

/* ---- the table's columns ---- */

static const char *fake_user(void *ctx, const char *pid) {
  int *calls = ctx;
  (*calls)++;
  return strcmp(pid, "100") == 0 ? "alice\x1b[7m" : NULL;
}

/* Four engines, a USER column: what fits at 80 and at 100 columns, the
 * most useful first; BUSY, RESIDENT and MEMORY never fall off. */
static void build_four_engines(struct top_model *m) {
  static const char *const engines[] = {"render", "copy", "video",
                                        "video-enhance"};
  top_model_init(m);
  m->base.begin(&m->base);
  add_summary(m, "drm_clients", "0000:00:02.0", 0);
  for (size_t e = 0; e < 4; e++) {
    add_engine(m, "device", "0000:00:02.0", engines[e], NULL, NULL, 10);
    add_engine(m, "process", "0000:00:02.0", engines[e], "100", "glxgears",
               1.0 + (double)e);
  }
  add_memory(m, "process", "0000:00:02.0", "100", "glxgears", 2 << 20, 1 << 20);
  m->base.end(&m->base);
}

static void table_lines(const struct top_model *m, const struct top_options *o,
                        const char *head, const char *row) {
  struct top_screen s;
  memset(&s, 0, sizeof(s));
  assert_int_equal(top_render(m, o, &s), 0);
  assert_true(s.body >= 1 && s.body < s.n);
  assert_int_equal(s.n_rows, 1);
  if (strcmp(s.lines[s.body - 1].text, head) != 0 ||
      strcmp(s.lines[s.body].text, row) != 0)
    fail_msg("\n got \"%s\"\n     \"%s\"\nwant \"%s\"\n     \"%s\"",
             s.lines[s.body - 1].text, s.lines[s.body].text, head, row);
  assert_int_equal(s.lines[s.body - 1].kind, TOP_LINE_HEADER);
  for (size_t i = 0; i < s.n; i++)
    assert_true(top_text_width(s.lines[i].text) <= o->cols);
  top_screen_fini(&s);
}

static void top_render__columns_fit_80_and_100(void **state) {
  (void)state;
  struct top_model m;
  build_four_engines(&m);
  int calls = 0;
  struct top_options o;
  top_options_init(&o);
  o.user_name = fake_user;
  o.user_ctx = &calls;
  o.cols = 80;
  table_lines(
      &m, &o,
      /* one engine column: the row's busiest, the one BUSY is */
      ("     PID USER     NAME                     video-e   BUSY*   "
       "RESIDENT     MEMORY"),
      ("     100 alice?[\xe2\x80\xa6 glxgears                    4.0%   "
       " 4.0%   1.00 MiB   2.00 MiB"));
  o.cols = 100;
  table_lines(&m, &o,
              ("     PID USER     NAME               render     copy    video  "
               "video-e   BUSY*   RESIDENT     MEMORY"),
              ("     100 alice?[\xe2\x80\xa6 glxgears             1.0%     2.0%"
               "     3.0%     4.0%    4.0%   1.00 MiB   2.00 MiB"));
  /* sorted by a column that did not fit: it is shown, another is not */
  o.cols = 80;
  o.sort = TOP_SORT_ENGINE + 3;
  table_lines(
      &m, &o,
      ("     PID USER     NAME                    video-e*    BUSY   "
       "RESIDENT     MEMORY"),
      ("     100 alice?[\xe2\x80\xa6 glxgears                    4.0%   "
       " 4.0%   1.00 MiB   2.00 MiB"));
  top_model_fini(&m);
}

/* The sort keys cycle through the columns; a filter matches any case,
 * keeps the device headers and applies to the rows; "(N more)" counts the
 * rows past max_rows. */
static void top_render__sort_filter_more(void **state) {
  (void)state;
  struct top_model m;
  build_drm(&m);
  struct top_options o;
  top_options_init(&o);
  o.cols = 80;
  o.sort = TOP_SORT_MEMORY;
  o.max_rows = 1;
  static const char *const by_memory[] = {
      ("i915 0000:00:02.0  mem 1.00 MiB resident / 3.00 MiB total  gt0 1.20 "
       "GHz  7.25 W"),
      "  render [||||||    ]  55.0%  video [|         ]   5.0%",
      "",
      ("     PID NAME                      render    video    BUSY   RESIDENT "
       "   MEMORY*"),
      ("     100 glxgears                   10.0%     5.0%   10.0%   1.00 MiB "
       "  2.00 MiB"),
      "  (1 more)",
  };
  expect_lines(&m, &o, by_memory, ARRAY_SIZE(by_memory));
  o.max_rows = 0;
  o.sort = TOP_SORT_BUSY;
  snprintf(o.filter, sizeof(o.filter), "BLEND");
  static const char *const filtered[] = {
      ("i915 0000:00:02.0  mem 1.00 MiB resident / 3.00 MiB total  gt0 1.20 "
       "GHz  7.25 W"),
      "  render [||||||    ]  55.0%  video [|         ]   5.0%",
      "",
      ("     PID NAME                DEVICE         render   BUSY*   RESIDENT  "
       "   MEMORY"),
      ("     200 blender             0000:00:02.0    45.0%   45.0%          -  "
       " 1.00 MiB"),
  };
  expect_lines(&m, &o, filtered, ARRAY_SIZE(filtered));
  snprintf(o.filter, sizeof(o.filter), "nothing");
  struct top_screen s;
  memset(&s, 0, sizeof(s));
  assert_int_equal(top_render(&m, &o, &s), 0);
  assert_string_equal(s.lines[s.n - 1].text,
                      "  (no process rows match the filter)");
  top_screen_fini(&s);
  top_model_fini(&m);
}

/* Client and cgroup scopes: without their records the table says which
 * option, or, when the host was asked for them, that none came yet; a
 * cgroup path is cut in the middle. */
static void top_render__scopes_and_cgroup_paths(void **state) {
  (void)state;
  struct top_model m;
  build_drm(&m);
  struct top_options o;
  top_options_init(&o);
  o.cols = 80;
  o.scope = TOP_SCOPE_CLIENT;
  struct top_screen s;
  memset(&s, 0, sizeof(s));
  assert_int_equal(top_render(&m, &o, &s), 0);
  assert_string_equal(s.lines[s.n - 1].text,
                      "  (no client records: add --ReportBy=Client)");
  top_screen_fini(&s);
  o.scope_requested = true;
  assert_int_equal(top_render(&m, &o, &s), 0);
  assert_string_equal(s.lines[s.n - 1].text, "  (no client rows)");
  top_screen_fini(&s);
  top_model_fini(&m);

  top_model_init(&m);
  m.base.begin(&m.base);
  struct metric r;
  metric_init(&r, "drm_engine", 1);
  metric_add_tag(&r, "scope", "cgroup");
  metric_add_tag(&r, "driver", "i915");
  metric_add_tag(&r, "device", "0000:00:02.0");
  metric_add_tag(&r, "engine", "render");
  metric_add_tag(&r, "cgroup",
                 "/user.slice/user-1000.slice/app-org.gnome."
                 "Terminal.slice/vte-spawn-1.scope");
  metric_add_float(&r, "utilization", "percent", 12);
  assert_int_equal(m.base.write(&m.base, &r), 0);
  m.base.end(&m.base);
  o.scope = TOP_SCOPE_CGROUP;
  o.cols = 60;
  static const char *const want[] = {
      "i915 0000:00:02.0",
      "",
      " CGROUP                           render*    BUSY     MEMORY",
      " /user.slice/\xe2\x80\xa6/vte-spawn-1.scope    12.0%   12.0%          -",
  };
  o.sort = TOP_SORT_ENGINE;
  expect_lines(&m, &o, want, ARRAY_SIZE(want));
  top_model_fini(&m);
}

/* Not root: one line, with drm_fdinfo's count, only when it counted
 * unreadable processes; never in a device header. */
static void top_render__notice_once_when_true(void **state) {
  (void)state;
  struct top_model m;
  top_model_init(&m);
  m.base.begin(&m.base);
  add_summary(&m, "drm_clients", "0000:00:02.0", 3);
  add_summary(&m, "drm_clients", "0000:03:00.0", 3);
  m.base.end(&m.base);
  struct top_options o;
  top_options_init(&o);
  o.cols = 100;
  o.notice = "not root: other users' processes are not shown";
  static const char *const want[] = {
      "i915 0000:00:02.0",
      "i915 0000:03:00.0",
      "",
      "not root: other users' processes are not shown; 3 processes could not "
      "be read",
      "",
      ("     PID NAME                                     DEVICE         "
       "BUSY*   RESIDENT     MEMORY"),
      "  (no process rows)",
  };
  expect_lines(&m, &o, want, ARRAY_SIZE(want));
  top_model_fini(&m);
  /* nothing hidden: nothing said */
  top_model_init(&m);
  m.base.begin(&m.base);
  add_summary(&m, "drm_clients", "0000:00:02.0", 0);
  m.base.end(&m.base);
  static const char *const quiet[] = {
      "i915 0000:00:02.0",
      "",
      ("     PID NAME                                     DEVICE         "
       "BUSY*   RESIDENT     MEMORY"),
      "  (no process rows)",
  };
  expect_lines(&m, &o, quiet, ARRAY_SIZE(quiet));
  top_model_fini(&m);
}

/* No device and no panel: say so, and what the host looked at. */
static void top_render__no_gpu_found(void **state) {
  (void)state;
  struct top_model m;
  top_model_init(&m);
  m.base.begin(&m.base);
  struct metric r;
  metric_init(&r, "drm_scan", 1);
  metric_add_int(&r, "processes", "objects", 40);
  metric_add_int(&r, "unreadable", "objects", 0);
  assert_int_equal(m.base.write(&m.base, &r), 0);
  m.base.end(&m.base);
  struct top_options o;
  top_options_init(&o);
  o.looked_at = "drm_fdinfo: no device under /sys";
  static const char *const want[] = {
      "no GPU found",
      "drm_fdinfo: no device under /sys",
  };
  expect_lines(&m, &o, want, ARRAY_SIZE(want));
  top_model_fini(&m);
  /* an empty batch too (--once of a plugin that found nothing) */
  top_model_init(&m);
  expect_lines(&m, &o, want, ARRAY_SIZE(want));
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
  m.base.end(&m.base);
  struct top_options o;
  top_options_init(&o);
  o.cols = 50;
  static const char *const want[] = {
      "i915 d",
      "",
      "     PID NAME                      render*    BUSY",
      "       1 ?]0;pwn?\xe6\xb8\xb2                   3.0%    3.0%",
      "       2 AAAAAAAAAAAAAAAAAAAAAAA\xe2\x80\xa6     2.0%    2.0%",
  };
  o.sort = TOP_SORT_ENGINE;
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
  metric_add_int(&r, "gpu_active_cycles", "gpu_cycles", 8);
  metric_add_float(&r, "tiler_utilization_percent", "percent", 100);
  metric_add_float(&r, "ext_read_bandwidth", "gpu_bytes_per_second", 3072);
  assert_int_equal(m.base.write(&m.base, &r), 0);
  metric_init(&r, "panthor_perf_stream", 1);
  metric_add_tag(&r, "device", "renderD128");
  metric_add_int(&r, "samples", "gpu_events", 2);
  assert_int_equal(m.base.write(&m.base, &r), 0);
  m.base.end(&m.base);
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

/* A panel tagged with a device goes under that device's header, one of no
 * device after the headers, both above the table; drm_device alone (its
 * own executable) makes headers too. */
static void top_render__panels_under_their_device(void **state) {
  (void)state;
  struct top_model m;
  build_drm(&m);
  m.base.begin(&m.base);
  add_summary(&m, "drm_clients", "0000:00:02.0", 0);
  add_engine(&m, "process", "0000:00:02.0", "render", "100", "glxgears", 10);
  struct metric r;
  metric_init(&r, "i915_oa", 1);
  metric_add_tag(&r, "device", "0000:00:02.0");
  metric_add_tag(&r, "metric_set", "render-basic");
  metric_add_float(&r, "gpu_busy_percent", "percent", 50);
  metric_add_float(&r, "avg_gpu_core_frequency_hz", "gpu_hertz", 1e9);
  assert_int_equal(m.base.write(&m.base, &r), 0);
  metric_init(&r, "tegra410", 1);
  metric_add_tag(&r, "pmu", "nvidia_cmem_latency_pmu_0");
  metric_add_float(&r, "read_latency_seconds", "uncore_latency_seconds",
                   1.5e-6);
  assert_int_equal(m.base.write(&m.base, &r), 0);
  m.base.end(&m.base);
  struct top_options o;
  top_options_init(&o);
  o.cols = 100;
  o.charts = false;
  static const char *const want[] = {
      "i915 0000:00:02.0",
      "i915_oa device=0000:00:02.0 metric_set=render-basic",
      ("  gpu_busy_percent                         50.0%  "
       "avg_gpu_core_frequency_hz             1.00 GHz"),
      /* a record of no device: after the headers, above the table */
      "tegra410 pmu=nvidia_cmem_latency_pmu_0",
      "  read_latency_seconds                   1.50 us",
      "",
      ("     PID NAME                                    DEVICE         "
       "render   BUSY*   RESIDENT     MEMORY"),
      ("     100 glxgears                                0000:00:02.0    "
       "10.0%   10.0%          -          -"),
  };
  expect_lines(&m, &o, want, ARRAY_SIZE(want));
  top_model_fini(&m);

  top_model_init(&m);
  m.base.begin(&m.base);
  add_ddv(&m, "drm_device_freq", "xe", "0000:03:00.0", "domain", "gt0",
          "actual_hz", "gpu_hertz", 2.1e9);
  add_ddv(&m, "drm_device_idle", "xe", "0000:03:00.0", "domain", "gt0",
          "idle_percent", "percent", 87.5);
  m.base.end(&m.base);
  static const char *const alone[] = {"xe 0000:03:00.0  gt0 2.10 GHz"};
  expect_lines(&m, &o, alone, ARRAY_SIZE(alone));
  /* the rest of drm_device's records with raw */
  o.raw = true;
  static const char *const raw[] = {
      "xe 0000:03:00.0  gt0 2.10 GHz",
      "drm_device_freq driver=xe device=0000:03:00.0 domain=gt0",
      "  actual_hz                             2.10 GHz",
      "drm_device_idle driver=xe device=0000:03:00.0 domain=gt0",
      "  idle_percent                             87.5%",
  };
  expect_lines(&m, &o, raw, ARRAY_SIZE(raw));
  top_model_fini(&m);
}

/* USER comes from the callback, only for the rows on the screen. */
static void top_render__user_column(void **state) {
  (void)state;
  struct top_model m;
  build_drm(&m);
  int calls = 0;
  struct top_options o;
  top_options_init(&o);
  o.cols = 80;
  o.sort = TOP_SORT_PID;
  o.user_name = fake_user;
  o.user_ctx = &calls;
  o.rows = 5;
  static const char *const want[] = {
      ("i915 0000:00:02.0  mem 1.00 MiB resident / 3.00 MiB total  gt0 1.20 "
       "GHz  7.25 W"),
      "  render [||||||    ]  55.0%  video [|         ]   5.0%",
      "",
      ("    PID* USER     NAME                      render    BUSY   RESIDENT  "
       "   MEMORY"),
      ("     100 alice?[\xe2\x80\xa6 glxgears                   10.0%   10.0%  "
       " "
       "1.00 MiB   2.00 MiB"),
  };
  expect_lines(&m, &o, want, ARRAY_SIZE(want));
  assert_int_equal(calls, 1); /* pid 200 is below the screen */
  top_model_fini(&m);
}

/* ---- charts ---- */

/* Samples 0, 25, 50, 100 % on a chart two rows high (8 dots): braille,
 * two samples a cell, the newest on the right; ASCII one a cell. */
static void top_chart_row__braille_and_ascii(void **state) {
  (void)state;
  static struct top_history h; /* 80 KiB: not on the stack */
  memset(&h, 0, sizeof(h));
  static const double util[] = {0, 25, 50, 100};
  for (size_t i = 0; i < ARRAY_SIZE(util); i++) {
    top_history_begin(&h, (uint64_t)(i + 1) * 1000000000ull);
    top_history_put(&h, "0000:00:02.0", util[i], NAN);
  }
  const struct top_history_dev *d = top_history_find(&h, "0000:00:02.0");
  assert_non_null(d);
  assert_false(d->has_power);
  assert_true(top_history_span(&h, 10) == 3.0);
  char out[64];
  /* top row: 50 % lights nothing above the bottom row, 100 % all four;
   * bottom row: 25 % two dots, 50 % and 100 % four, 0 % none */
  assert_int_equal(
      top_chart_row(&h, &d->util, 100, 3, 2, 0, true, out, sizeof(out)), 4);
  assert_string_equal(out, "  \xe2\xa2\xb8"); /* blank, blank, right column */
  top_chart_row(&h, &d->util, 100, 3, 2, 1, true, out, sizeof(out));
  /* cell 1: 0 % (left, none), 25 % (right, two dots: 6 and 8);
   * cell 2: 50 % and 100 % (all eight) */
  assert_string_equal(out, " \xe2\xa2\xa0\xe2\xa3\xbf");
  top_chart_row(&h, &d->util, 100, 5, 2, 1, false, out, sizeof(out));
  assert_string_equal(out, "  :##"); /* no sample, no sample, 0, 25, 50... */
  top_chart_row(&h, &d->util, 100, 4, 2, 0, false, out, sizeof(out));
  assert_string_equal(out, "   #");
  /* a narrow budget is never overrun */
  char small[5];
  top_chart_row(&h, &d->util, 100, 4, 2, 1, true, small, sizeof(small));
  assert_true(strlen(small) < sizeof(small));
}

/* After two batches a device's header carries its utilisation chart, and
 * its power chart when it has a power value. */
static void top_render__charts_after_two_batches(void **state) {
  (void)state;
  struct top_model m;
  top_model_init(&m);
  for (int b = 0; b < 2; b++) {
    m.base.begin(&m.base);
    struct metric r;
    metric_init(&r, "drm_engine", (uint64_t)(b + 1) * 1000000000ull);
    metric_add_tag(&r, "scope", "device");
    metric_add_tag(&r, "driver", "xe");
    metric_add_tag(&r, "device", "0000:03:00.0");
    metric_add_tag(&r, "engine", "rcs");
    metric_add_float(&r, "utilization", "percent", b ? 100 : 50);
    assert_int_equal(m.base.write(&m.base, &r), 0);
    add_ddv(&m, "drm_device_power", "xe", "0000:03:00.0", "sensor", "card",
            "power_watts", "gpu_watts", b ? 20 : 10);
    m.base.end(&m.base);
  }
  struct top_options o;
  top_options_init(&o);
  o.cols = 26; /* a chart of 9 cells */
  o.utf8 = false;
  static const char *const want[] = {
      "xe 0000:03:00.0  20 W",      "  rcs [||||||||||] 100.0%",
      "  util          # 100%",     "               :#",
      "  -1s          ## 0",        "  power         # 20 W",
      "  -1s          ## 0",        "",
      "     PID NAME        BUSY*", "  (no process rows)",
  };
  expect_lines(&m, &o, want, ARRAY_SIZE(want));
  o.charts = false;
  static const char *const no_charts[] = {
      "xe 0000:03:00.0  20 W",      "  rcs [||||||||||] 100.0%", "",
      "     PID NAME        BUSY*", "  (no process rows)",
  };
  expect_lines(&m, &o, no_charts, ARRAY_SIZE(no_charts));
  top_model_fini(&m);
}

/* An empty batch (the view's first read, before any plugin has read) has
 * no time: it takes no place on the charts' time axis, whose label then
 * spans the two real batches (-1s), not the epoch. */
static void top_model__empty_batch_not_on_the_chart(void **state) {
  (void)state;
  struct top_model m;
  top_model_init(&m);
  m.base.begin(&m.base);
  m.base.end(&m.base);
  assert_null(m.history); /* nothing recorded */
  for (int b = 0; b < 2; b++) {
    m.base.begin(&m.base);
    struct metric r;
    metric_init(&r, "drm_engine",
                1000000000000ull + (uint64_t)b * 1000000000ull);
    metric_add_tag(&r, "scope", "device");
    metric_add_tag(&r, "driver", "xe");
    metric_add_tag(&r, "device", "0000:03:00.0");
    metric_add_tag(&r, "engine", "rcs");
    metric_add_float(&r, "utilization", "percent", 50);
    assert_int_equal(m.base.write(&m.base, &r), 0);
    m.base.end(&m.base);
    /* and an empty one between them */
    m.base.begin(&m.base);
    m.base.end(&m.base);
  }
  assert_non_null(m.history);
  assert_int_equal(m.history->n, 2);
  assert_true(top_history_span(m.history, 10) == 1.0);
  top_model_fini(&m);
}

/* The screen of a batch not ended (or written to after its end()) joins
 * its devices itself: a record is never drawn as if its device were
 * unknown. */
static void top_render__batch_not_ended_still_joined(void **state) {
  (void)state;
  struct top_model m;
  top_model_init(&m);
  m.base.begin(&m.base);
  add_summary(&m, "drm_clients", "0000:00:02.0", 0);
  add_engine(&m, "process", "0000:00:02.0", "render", "1", "glxgears", 3);
  struct top_options o;
  top_options_init(&o);
  o.cols = 50;
  static const char *const want[] = {
      "i915 0000:00:02.0",
      "",
      "     PID NAME                     BUSY*     MEMORY",
      "       1 glxgears                  3.0%          -",
  };
  expect_lines(&m, &o, want, ARRAY_SIZE(want));
  assert_int_equal(m.devs.n, 0); /* the model as its sink left it */
  m.base.end(&m.base);
  add_summary(&m, "drm_clients", "0000:03:00.0", 0);
  struct top_screen s;
  memset(&s, 0, sizeof(s));
  assert_int_equal(top_render(&m, &o, &s), 0);
  assert_string_equal(s.lines[1].text, "i915 0000:03:00.0");
  top_screen_fini(&s);
  top_model_fini(&m);
}

/* ---- a short screen ---- */

static const char *const six_drivers[] = {"i915",     "amdgpu", "xe",
                                          "panfrost", "msm",    "v3d"};
static const char *const six_engines[] = {"render",   "gfx", "ccs",
                                          "fragment", "gpu", "bin"};

/* Six devices of six drivers, two batches (charts), 12 process rows, two
 * per device; drm_device's clock, temperature and power on each. */
static void build_six(struct top_model *m) {
  top_model_init(m);
  for (int b = 0; b < 2; b++) {
    m->base.begin(&m->base);
    for (int k = 0; k < 6; k++) {
      char dev[32], pid[16], comm[16];
      snprintf(dev, sizeof(dev), "0000:0%d:00.0", k + 1);
      struct metric r;
      metric_init(&r, "drm_engine", (uint64_t)(b + 1) * 1000000000ull);
      metric_add_tag(&r, "scope", "device");
      metric_add_tag(&r, "driver", six_drivers[k]);
      metric_add_tag(&r, "device", dev);
      metric_add_tag(&r, "engine", six_engines[k]);
      metric_add_float(&r, "utilization", "percent", 10.0 * (k + 1));
      assert_int_equal(m->base.write(&m->base, &r), 0);
      for (int p = 0; p < 2; p++) {
        snprintf(pid, sizeof(pid), "%d", 100 + 10 * k + p);
        snprintf(comm, sizeof(comm), "%s-%d", six_drivers[k], p);
        metric_init(&r, "drm_engine", (uint64_t)(b + 1) * 1000000000ull);
        metric_add_tag(&r, "scope", "process");
        metric_add_tag(&r, "driver", six_drivers[k]);
        metric_add_tag(&r, "device", dev);
        metric_add_tag(&r, "engine", six_engines[k]);
        metric_add_tag(&r, "pid", pid);
        metric_add_tag(&r, "comm", comm);
        metric_add_float(&r, "utilization", "percent", 5.0 * (k + 1) + p);
        assert_int_equal(m->base.write(&m->base, &r), 0);
      }
      add_ddv(m, "drm_device_freq", six_drivers[k], dev, "domain", "gt0",
              "actual_hz", "gpu_hertz", 1.5e9);
      add_ddv(m, "drm_device_temperature", six_drivers[k], dev, "sensor",
              "edge", "celsius", "gpu_celsius", 60 + k);
      add_ddv(m, "drm_device_power", six_drivers[k], dev, "sensor", "card",
              "power_watts", "gpu_watts", 100 + k);
    }
    add_summary(m, "drm_clients", "0000:01:00.0", 0);
    m->base.end(&m->base);
  }
}

static size_t count_matching(const struct top_screen *s, const char *needle) {
  size_t n = 0;
  for (size_t i = 0; i < s->n; i++)
    n += strstr(s->lines[i].text, needle) != NULL;
  return n;
}

static void dump(const struct top_screen *s) {
  for (size_t k = 0; k < s->n; k++)
    fprintf(stderr, "# %s|\n", s->lines[k].text);
}

/* 80x24 (22 lines above the help and message lines), 100x30, 200x60:
 * the device sections fold (one line each, then no charts) until five
 * rows fit; every device stays named; nothing is wider or taller. */
static void top_render__short_screen_folds_for_rows(void **state) {
  (void)state;
  struct top_model m;
  build_six(&m);
  static const struct {
    int cols, height;
    int fold;
  } cases[] = {
      {80, 22, TOP_FOLD_NO_CHARTS}, {100, 28, TOP_FOLD_NO_CHARTS},
      {200, 58, TOP_FOLD_FULL},     {200, 200, TOP_FOLD_FULL},
      {80, 12, TOP_FOLD_COUNT},
  };
  for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
    struct top_options o;
    top_options_init(&o);
    o.cols = cases[i].cols;
    o.height = cases[i].height;
    struct top_screen s;
    memset(&s, 0, sizeof(s));
    assert_int_equal(top_render(&m, &o, &s), 0);
    size_t rows = s.page;
    if (s.fold != cases[i].fold || s.n > (size_t)o.height ||
        rows < TOP_MIN_ROWS) {
      dump(&s);
      fail_msg("case %zu: fold %d (want %d), %zu lines, %zu rows", i, s.fold,
               cases[i].fold, s.n, rows);
    }
    for (size_t k = 0; k < s.n; k++)
      assert_true(top_text_width(s.lines[k].text) <= o.cols);
    /* every device named, once, or counted */
    size_t named = 0;
    for (int k = 0; k < 6; k++) {
      char dev[32];
      snprintf(dev, sizeof(dev), "%s 0000:0%d:00.0", six_drivers[k], k + 1);
      named += count_matching(&s, dev);
    }
    if (cases[i].fold == TOP_FOLD_COUNT)
      assert_int_equal(count_matching(&s, "devices: a taller terminal"), 1);
    else
      assert_int_equal(named, 6);
    /* the row count line: twelve rows, five or more shown */
    if (rows < 12)
      assert_int_equal(count_matching(&s, "more below, 0 above"), 1);
    top_screen_fini(&s);
  }
  /* at 100x28 every row fits: the lines left unfold the first device
   * (its whole header and charts), not the others */
  {
    struct top_options o;
    top_options_init(&o);
    o.cols = 100;
    o.height = 28;
    struct top_screen s;
    memset(&s, 0, sizeof(s));
    assert_int_equal(top_render(&m, &o, &s), 0);
    assert_int_equal(s.n_rows, 12);
    assert_int_equal(s.page, 12);
    assert_int_equal(count_matching(&s, "  util "), 1);
    assert_int_equal(count_matching(&s, "  render ["), 1);
    assert_string_equal(s.lines[7].text, "amdgpu 0000:02:00.0  busy 20.0%  gt0 "
                                         "1.50 GHz  61.0 C  101 W");
    top_screen_fini(&s);
  }
  /* one line per device: busy, clock, temperature and power at 80 */
  struct top_options o;
  top_options_init(&o);
  o.cols = 80;
  o.height = 22;
  struct top_screen s;
  memset(&s, 0, sizeof(s));
  assert_int_equal(top_render(&m, &o, &s), 0);
  assert_string_equal(s.lines[1].text, "amdgpu 0000:02:00.0  busy 20.0%  gt0 "
                                       "1.50 GHz  61.0 C  101 W");
  top_screen_fini(&s);
  top_model_fini(&m);
}

/* Scrolled to the end (End: a first row past the last): the last rows,
 * the device lines and the column header still above them; the engine
 * columns are those of the rows shown, not every driver's. */
static void top_render__scrolled_keeps_headers_engines_follow(void **state) {
  (void)state;
  struct top_model m;
  build_six(&m);
  struct top_options o;
  top_options_init(&o);
  o.cols = 100;  /* three engine columns */
  o.height = 14; /* six device lines, 2, five rows and 1 */
  o.first_row = (size_t)-1 / 2;
  struct top_screen s;
  memset(&s, 0, sizeof(s));
  assert_int_equal(top_render(&m, &o, &s), 0);
  assert_int_equal(s.first_row, 12 - s.page);
  assert_int_equal(count_matching(&s, "i915 0000:01:00.0"), 1);
  assert_int_equal(s.lines[s.body - 1].kind, TOP_LINE_HEADER);
  /* the least busy rows are i915's (render) and amdgpu's (gfx) */
  const char *head = s.lines[s.body - 1].text;
  if (strstr(head, "render") == NULL || strstr(head, "bin") != NULL) {
    dump(&s);
    fail_msg("engine columns: \"%s\"", head);
  }
  if (strcmp(s.lines[s.n - 1].text,
             "  (0 more below, 7 above: up/down, PgUp/PgDn)") != 0) {
    dump(&s);
    fail_msg("the last line");
  }
  assert_int_equal(s.lines[s.n - 1].kind, TOP_LINE_DIM);
  top_screen_fini(&s);
  /* at the top: the busiest (v3d: bin), no i915 render column */
  o.first_row = 0;
  memset(&s, 0, sizeof(s));
  assert_int_equal(top_render(&m, &o, &s), 0);
  head = s.lines[s.body - 1].text;
  if (strstr(head, "bin") == NULL || strstr(head, "render") != NULL) {
    dump(&s);
    fail_msg("engine columns: \"%s\"", head);
  }
  top_screen_fini(&s);
  top_model_fini(&m);
}

/* BUSY is the busiest engine's %, as the device's bars: a row on two
 * engines at 60 % and 70 % is 70 %, not 130 %. */
static void top_render__busy_is_the_busiest_engine(void **state) {
  (void)state;
  struct top_model m;
  top_model_init(&m);
  m.base.begin(&m.base);
  add_summary(&m, "drm_clients", "0000:00:02.0", 0);
  add_engine(&m, "device", "0000:00:02.0", "render", NULL, NULL, 60);
  add_engine(&m, "device", "0000:00:02.0", "video", NULL, NULL, 70);
  add_engine(&m, "process", "0000:00:02.0", "render", "100", "ffmpeg", 60);
  add_engine(&m, "process", "0000:00:02.0", "video", "100", "ffmpeg", 70);
  m.base.end(&m.base);
  struct top_options o;
  top_options_init(&o);
  o.cols = 80;
  static const char *const want[] = {
      "i915 0000:00:02.0",
      "  render [||||||    ]  60.0%  video [|||||||   ]  70.0%",
      "",
      ("     PID NAME                      render    video   BUSY*   RESIDENT  "
       "   MEMORY"),
      ("     100 ffmpeg                     60.0%    70.0%   70.0%          -  "
       "        -"),
  };
  expect_lines(&m, &o, want, ARRAY_SIZE(want));
  top_model_fini(&m);
}

/* Held values: drm_device's values_age_seconds past the interval is shown
 * with the values; within it nothing is said. */
static void top_render__held_values_say_their_age(void **state) {
  (void)state;
  struct top_model m;
  top_model_init(&m);
  m.base.begin(&m.base);
  const char *dev = "0000:0b:00.0";
  add_ddv(&m, "drm_device_freq", "amdgpu", dev, "domain", "sclk", "actual_hz",
          "gpu_hertz", 1.85e9);
  add_ddv(&m, "drm_device_temperature", "amdgpu", dev, "sensor", "edge",
          "celsius", "gpu_celsius", 70);
  add_ddv(&m, "drm_device_power", "amdgpu", dev, "sensor", "PPT", "power_watts",
          "gpu_watts", 110);
  add_ddv(&m, "drm_device", "amdgpu", dev, "pm", "auto", "values_age_seconds",
          "gpu_seconds", 4);
  m.base.end(&m.base);
  struct top_options o;
  top_options_init(&o);
  o.cols = 80;
  o.interval_s = 0.5;
  static const char *const held[] = {
      "amdgpu 0000:0b:00.0  sclk 1.85 GHz  70.0 C  110 W  (4.0s old)"};
  expect_lines(&m, &o, held, ARRAY_SIZE(held));
  o.interval_s = 5;
  static const char *const fresh[] = {
      "amdgpu 0000:0b:00.0  sclk 1.85 GHz  70.0 C  110 W"};
  expect_lines(&m, &o, fresh, ARRAY_SIZE(fresh));
  top_model_fini(&m);
}

/* Folded to one line on a short screen, the device keeps its clock,
 * temperature, power and the age of held values (the power cap goes
 * first). */
static void top_render__one_line_keeps_the_age(void **state) {
  (void)state;
  struct top_model m;
  top_model_init(&m);
  m.base.begin(&m.base);
  const char *dev = "0000:0b:00.0";
  struct metric r;
  metric_init(&r, "drm_clients", 1);
  metric_add_tag(&r, "driver", "amdgpu");
  metric_add_tag(&r, "device", dev);
  metric_add_int(&r, "clients", "objects", 6);
  assert_int_equal(m.base.write(&m.base, &r), 0);
  for (int p = 0; p < 6; p++) {
    char pid[16];
    snprintf(pid, sizeof(pid), "%d", 100 + p);
    metric_init(&r, "drm_engine", 1);
    metric_add_tag(&r, "scope", p == 0 ? "device" : "process");
    metric_add_tag(&r, "driver", "amdgpu");
    metric_add_tag(&r, "device", dev);
    metric_add_tag(&r, "engine", "gfx");
    metric_add_tag(&r, "pid", pid);
    metric_add_tag(&r, "comm", "game");
    metric_add_float(&r, "utilization", "percent", p == 0 ? 60 : 10);
    assert_int_equal(m.base.write(&m.base, &r), 0);
  }
  add_ddv(&m, "drm_device_freq", "amdgpu", dev, "domain", "sclk", "actual_hz",
          "gpu_hertz", 1.85e9);
  add_ddv(&m, "drm_device_temperature", "amdgpu", dev, "sensor", "edge",
          "celsius", "gpu_celsius", 70);
  add_ddv(&m, "drm_device_power", "amdgpu", dev, "sensor", "PPT", "power_watts",
          "gpu_watts", 110);
  add_ddv(&m, "drm_device_power", "amdgpu", dev, "sensor", "PPT",
          "power_cap_watts", "gpu_watts", 272);
  add_ddv(&m, "drm_device", "amdgpu", dev, "pm", "auto", "values_age_seconds",
          "gpu_seconds", 4);
  m.base.end(&m.base);
  struct top_options o;
  top_options_init(&o);
  o.cols = 80;
  o.height = 8; /* five rows, their header and blank: one line left */
  o.interval_s = 1;
  struct top_screen s;
  memset(&s, 0, sizeof(s));
  assert_int_equal(top_render(&m, &o, &s), 0);
  assert_int_equal(s.fold, TOP_FOLD_LINE);
  assert_string_equal(s.lines[0].text, "amdgpu 0000:0b:00.0  busy 60.0%  sclk "
                                       "1.85 GHz  70.0 C  110 W  (4.0s old)");
  assert_int_equal(s.page, 5);
  top_screen_fini(&s);
  top_model_fini(&m);
}

/* One container record as drm_fdinfo's ReportBy Container writes it. */
static void add_container(struct top_model *m, const char *runtime,
                          const char *ns, const char *pod, const char *ctr,
                          const char *uid, const char *id, const char *cgroup,
                          double util) {
  struct metric r;
  metric_init(&r, "drm_engine", 1);
  metric_add_tag(&r, "scope", "container");
  metric_add_tag(&r, "driver", "i915");
  metric_add_tag(&r, "device", "0000:00:02.0");
  metric_add_tag(&r, "engine", "render");
  if (cgroup)
    metric_add_tag(&r, "cgroup", cgroup);
  metric_add_tag(&r, "container_runtime", runtime);
  if (ns)
    metric_add_tag(&r, "namespace", ns);
  if (pod)
    metric_add_tag(&r, "pod", pod);
  if (ctr)
    metric_add_tag(&r, "container", ctr);
  if (uid)
    metric_add_tag(&r, "pod_uid", uid);
  if (id)
    metric_add_tag(&r, "container_id", id);
  metric_add_float(&r, "utilization", "percent", util);
  assert_int_equal(m->base.write(&m->base, &r), 0);
}

/* c: containers by namespace/pod/container when the names are known, else
 * runtime:id (12 hex digits), else the cgroup path. */
static void top_render__containers_by_name(void **state) {
  (void)state;
  static const char id1[] =
      "4f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a";
  static const char id2[] =
      "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
  struct top_model m;
  top_model_init(&m);
  m.base.begin(&m.base);
  add_summary(&m, "drm_clients", "0000:00:02.0", 0);
  add_container(&m, "containerd", "ml", "trainer-7d9f", "worker",
                "1a2b3c4d-0000-1111-2222-333344445555", id1,
                "/kubepods.slice/kubepods-pod1a2b.slice/cri-containerd-"
                "4f7a.scope",
                50);
  /* names unknown: the plugin writes the uid and the short id */
  add_container(&m, "docker", NULL, NULL, "0123456789ab", NULL, id2,
                "/system.slice/docker-0123456789ab.scope", 30);
  add_container(&m, "host", NULL, NULL, NULL, NULL, NULL,
                "/user.slice/user-1000.slice/session-2.scope", 20);
  /* the processes in no container, as drm_fdinfo groups them: one row */
  add_container(&m, "host", NULL, NULL, NULL, NULL, NULL, NULL, 5);
  m.base.end(&m.base);
  struct top_options o;
  top_options_init(&o);
  o.cols = 80;
  o.scope = TOP_SCOPE_CONTAINER;
  o.charts = false;
  static const char *const want[] = {
      "i915 0000:00:02.0",
      "",
      (" CONTAINER                                  render   BUSY*   RESIDENT  "
       "   MEMORY"),
      (" ml/trainer-7d9f/worker                      50.0%   50.0%          -  "
       "        -"),
      (" docker:0123456789ab                         30.0%   30.0%          -  "
       "        -"),
      (" /user.slice/user-1000.s\xe2\x80\xa6/session-2.scope    20.0%   20.0%  "
       "        -          -"),
      (" host                                         5.0%    5.0%          -  "
       "        -"),
  };
  expect_lines(&m, &o, want, ARRAY_SIZE(want));
  /* the filter finds a pod by its name */
  snprintf(o.filter, sizeof(o.filter), "TRAINER");
  struct top_screen s;
  memset(&s, 0, sizeof(s));
  assert_int_equal(top_render(&m, &o, &s), 0);
  assert_int_equal(s.n_rows, 1);
  top_screen_fini(&s);
  /* no container records: which option */
  o.filter[0] = '\0';
  top_model_fini(&m);
  build_drm(&m);
  memset(&s, 0, sizeof(s));
  assert_int_equal(top_render(&m, &o, &s), 0);
  assert_string_equal(s.lines[s.n - 1].text,
                      "  (no container records: add --ReportBy=Container)");
  top_screen_fini(&s);
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
      cmocka_unit_test(top_text_fit__cut_marker_and_middle),
      cmocka_unit_test(top_render__drm_sorted_by_busy),
      cmocka_unit_test(top_render__joined_header_typed),
      cmocka_unit_test(top_render__columns_fit_80_and_100),
      cmocka_unit_test(top_render__sort_filter_more),
      cmocka_unit_test(top_render__scopes_and_cgroup_paths),
      cmocka_unit_test(top_render__notice_once_when_true),
      cmocka_unit_test(top_render__no_gpu_found),
      cmocka_unit_test(top_render__hostile_comm_stays_in_its_column),
      cmocka_unit_test(top_render__panels_hide_raw_counters),
      cmocka_unit_test(top_render__panels_under_their_device),
      cmocka_unit_test(top_render__user_column),
      cmocka_unit_test(top_chart_row__braille_and_ascii),
      cmocka_unit_test(top_render__charts_after_two_batches),
      cmocka_unit_test(top_model__empty_batch_not_on_the_chart),
      cmocka_unit_test(top_render__batch_not_ended_still_joined),
      cmocka_unit_test(top_render__short_screen_folds_for_rows),
      cmocka_unit_test(top_render__scrolled_keeps_headers_engines_follow),
      cmocka_unit_test(top_render__busy_is_the_busiest_engine),
      cmocka_unit_test(top_render__held_values_say_their_age),
      cmocka_unit_test(top_render__one_line_keeps_the_age),
      cmocka_unit_test(top_render__containers_by_name),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
