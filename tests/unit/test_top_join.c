/*
 * test_top_join.c: the live view's device header fed by two plugins in one
 * batch, as the one-process host feeds it: the real drm_device plugin
 * reading synthetic sysfs trees (tests/lib/ddv_tree: amdgpu on PCI,
 * panfrost on a platform bus) and drm_fdinfo's records of the same
 * devices. This checks top_device.c's table against what drm_device
 * really writes (measurements, fields and their types), and that the join
 * is by the device's name alone.
 */
#include "common/core/log.h"
#include "common/top/top_device.h"
#include "common/top/top_model.h"
#include "common/top/top_screen.h"
#include "plugins/drm_device/drm_device.h"
#include "tests/lib/ddv_tree.h"
#include "tests/lib/test_host.h"

#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

struct fixture {
  struct ddv_tree tree;
  void *inst;
  struct top_model model;
};

static int setup(void **state) {
  static struct fixture f;
  memset(&f, 0, sizeof(f));
  assert_int_equal(ddv_tree_init(&f.tree, NULL), 0);
  top_model_init(&f.model);
  log_set_sink(NULL, LOG_LEVEL_WARNING);
  *state = &f;
  return 0;
}

static int teardown(void **state) {
  struct fixture *f = *state;
  if (f->inst != NULL)
    drm_device_ops.instance_free(f->inst);
  top_model_fini(&f->model);
  ddv_tree_fini(&f->tree);
  log_set_sink(NULL, LOG_LEVEL_INFO);
  return 0;
}

static void start_drm_device(struct fixture *f) {
  f->inst = drm_device_ops.instance_new("test");
  assert_non_null(f->inst);
  struct cfg_value v = {.type = CFG_STRING, .string = f->tree.sys};
  struct cfg_item item = {.key = "SysfsRoot", .values = &v, .n_values = 1};
  assert_int_equal(drm_device_ops.configure(f->inst, &item), 0);
  assert_int_equal(drm_device_ops.init(f->inst, test_host("drm_device")), 0);
}

/* drm_fdinfo's records of one device: its summary, one engine. */
static void fdinfo_records(struct top_model *m, const char *driver,
                           const char *device, const char *engine,
                           double util) {
  struct metric r;
  metric_init(&r, "drm_clients", 1);
  metric_add_tag(&r, "driver", driver);
  metric_add_tag(&r, "device", device);
  metric_add_int(&r, "clients", "objects", 1);
  metric_add_int(&r, "processes", "objects", 1);
  assert_int_equal(m->base.write(&m->base, &r), 0);
  metric_init(&r, "drm_engine", 1);
  metric_add_tag(&r, "scope", "device");
  metric_add_tag(&r, "driver", driver);
  metric_add_tag(&r, "device", device);
  metric_add_tag(&r, "engine", engine);
  metric_add_float(&r, "utilization", "percent", util);
  assert_int_equal(m->base.write(&m->base, &r), 0);
}

/* One batch: drm_device's read and drm_fdinfo's records together. */
static void batch(struct fixture *f, const char *driver, const char *device,
                  const char *engine) {
  struct top_model *m = &f->model;
  assert_int_equal(m->base.begin(&m->base), 0);
  assert_int_equal(drm_device_ops.read(f->inst, &m->base), 0);
  fdinfo_records(m, driver, device, engine, 40);
  assert_int_equal(m->base.end(&m->base), 0);
}

static void expect_header(const struct top_model *m, int cols,
                          const char *title, const char *second) {
  struct top_options o;
  top_options_init(&o);
  o.cols = cols;
  o.charts = false;
  struct top_screen s;
  memset(&s, 0, sizeof(s));
  assert_int_equal(top_render(m, &o, &s), 0);
  assert_true(s.n >= 2);
  if (strcmp(s.lines[0].text, title) != 0 ||
      strcmp(s.lines[1].text, second) != 0) {
    for (size_t i = 0; i < s.n; i++)
      fprintf(stderr, "# %s|\n", s.lines[i].text);
    fail_msg("header:\n got \"%s\"\n     \"%s\"\nwant \"%s\"\n     \"%s\"",
             s.lines[0].text, s.lines[1].text, title, second);
  }
  /* one device, one header: drm_device's records are not panels */
  for (size_t i = 2; i < s.n; i++)
    assert_null(strstr(s.lines[i].text, "drm_device"));
  top_screen_fini(&s);
}

/* amdgpu on PCI: drm_device's clock (the first domain, sclk), VRAM (the
 * first region), the hottest sensor, power and its cap, the fan, joined
 * with drm_fdinfo's engine under one header. */
static void top_join__amdgpu_two_plugins(void **state) {
  struct fixture *f = *state;
  assert_int_equal(ddv_tree_fixture(&f->tree, "amdgpu_dgpu"), 0);
  start_drm_device(f);
  batch(f, "amdgpu", "0000:0b:00.0", "gfx");
  struct top_devices devs;
  memset(&devs, 0, sizeof(devs));
  assert_int_equal(top_devices_collect(&f->model.batch, &devs), 0);
  assert_int_equal(devs.n, 1);
  assert_int_equal(devs.dev[0].refused, 0); /* every unit as expected */
  assert_true(devs.dev[0].v[TOP_DV_CLIENTS].has);
  top_devices_fini(&devs);
  expect_header(&f->model, 100,
                ("amdgpu 0000:0b:00.0  vram 1.00 GiB / 16.0 GiB  sclk 1.85 GHz"
                 "  70.0 C  123 W / 272 W  fan 1450 rpm"),
                "  gfx [||||      ]  40.0%");
}

/* A platform device (panfrost, devfreq): the same name from both plugins,
 * its clock with the limit. */
static void top_join__platform_device(void **state) {
  struct fixture *f = *state;
  assert_int_equal(ddv_tree_fixture(&f->tree, "panfrost"), 0);
  start_drm_device(f);
  batch(f, "panfrost", "fde60000.gpu", "fragment");
  expect_header(&f->model, 80,
                "panfrost fde60000.gpu  devfreq 400.0 MHz (max 800.0 MHz)",
                "  fragment [||||      ]  40.0%");
}

/* drm_fdinfo names the driver from fdinfo, drm_device from sysfs: when
 * they differ, one header names both. */
static void top_join__drivers_disagree(void **state) {
  struct fixture *f = *state;
  assert_int_equal(ddv_tree_fixture(&f->tree, "panfrost"), 0);
  start_drm_device(f);
  batch(f, "panfrost_fdinfo", "fde60000.gpu", "fragment");
  expect_header(&f->model, 80,
                "panfrost_fdinfo/panfrost fde60000.gpu  devfreq 400.0 MHz (max "
                "800.0 MHz)",
                "  fragment [||||      ]  40.0%");
}

int main(void) {
  if (setlocale(LC_CTYPE, "C.UTF-8") == NULL) {
    printf("1..0 # SKIP C.UTF-8 locale missing\n");
    return 0;
  }
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(top_join__amdgpu_two_plugins, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(top_join__platform_device, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(top_join__drivers_disagree, setup,
                                      teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
