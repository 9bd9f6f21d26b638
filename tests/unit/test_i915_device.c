/* A device's stream life through the shim: metric set from sysfs, flex
 * configs (added, reused on EADDRINUSE, removed only when ours), refusals
 * said once, EIO and a vanished device reopened with backoff. */
#include "common/core/log.h"
#include "common/i915/i915_device.h"
#include "tests/shim/shim.h"
#include "tests/shim/shim_i915.h"

#include <errno.h>
#include <fcntl.h>
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

#define DEV "/shim-test/dri/renderD128"
#define UUID "01234567-89ab-cdef-0123-456789abcdef"
#define S UINT64_C(1000000000)

static char root[64];
static char logs[16][512];
static size_t n_logs;

static void capture(enum log_level level, const char *message) {
  if (n_logs < 16)
    snprintf(logs[n_logs++], sizeof logs[0], "%d %s", (int)level, message);
}

static int setup(void **state) {
  (void)state;
  snprintf(root, sizeof root, "/tmp/i915_device.XXXXXX");
  assert_non_null(mkdtemp(root));
  struct shim_i915_scenario sc;
  shim_i915_scenario_default(&sc);
  snprintf(sc.sysfs_root, sizeof sc.sysfs_root, "%s", root);
  sc.reports = 2;
  assert_int_equal(shim_i915_add(DEV, &sc), 0);
  assert_int_equal(shim_i915_add_metric(DEV, UUID, 1), 0);
  n_logs = 0;
  log_set_sink(capture, LOG_LEVEL_DEBUG);
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

static void node_of(struct drm_node *n) {
  memset(n, 0, sizeof *n);
  snprintf(n->path, sizeof n->path, "%s", DEV);
  snprintf(n->name, sizeof n->name, "renderD128");
  n->minor = 128;
  snprintf(n->pci, sizeof n->pci, "0000:00:02.0");
}

static struct i915_device_params params(void) {
  struct i915_device_params p = {
      .plugin = "i915_oa",
      .sysfs_root = root,
      .metric_set = UUID,
      .format = 10,
      .exponent = 16,
      .engine_class = -1,
      .engine_instance = -1,
  };
  return p;
}

static size_t records;
static void count(void *ctx, const uint8_t *data, size_t len) {
  (void)ctx;
  (void)data;
  records += len / 264;
}

static void fix(struct shim_i915_scenario *s, void *ctx) {
  const int *v = ctx;
  if (v[0] == 0)
    s->busy = v[1];
  else if (v[0] == 1)
    s->eio_at = (unsigned)v[1];
  else if (v[0] == 2) {
    s->open_errno = v[1];
    s->open_fails = 2;
  }
}

static void other_devid(struct shim_i915_scenario *s, void *ctx) {
  (void)ctx;
  s->devid = 0x1234;
}

static void set(int what, int value) {
  int v[2] = {what, value};
  assert_int_equal(shim_i915_update(DEV, fix, v), 0);
}

static void open__metric_set_from_sysfs(void **state) {
  (void)state;
  struct drm_node n;
  node_of(&n);
  struct i915_device d;
  i915_device_init(&d, &n);
  struct i915_device_params p = params();
  assert_int_equal(i915_device_open(&shim_kernel, &d, &p, 0), 0);
  assert_string_equal(d.card, "card0");
  assert_int_equal(d.metric_id, 1);
  assert_false(d.config_added);
  assert_int_equal(d.id.devid, 0x9A49);
  records = 0;
  assert_int_equal(i915_device_drain(&shim_kernel, &d, &p, 0, count, NULL),
                   528);
  assert_int_equal(records, 2);
  i915_device_stop(&shim_kernel, &d, &p);
  i915_device_stop(&shim_kernel, &d, &p); /* idempotent */
  assert_int_equal(d.fd, -1);
  assert_int_equal(n_logs, 0);
}

static void open__unknown_metric_set_is_said_once(void **state) {
  (void)state;
  struct drm_node n;
  node_of(&n);
  struct i915_device d;
  i915_device_init(&d, &n);
  struct i915_device_params p = params();
  p.metric_set = "aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee";
  assert_int_equal(i915_device_open(&shim_kernel, &d, &p, 0), -ENOENT);
  assert_int_equal(i915_device_drain(&shim_kernel, &d, &p, S - 1, count, NULL),
                   0);
  assert_int_equal(i915_device_drain(&shim_kernel, &d, &p, S, count, NULL),
                   -ENOENT);
  assert_int_equal(n_logs, 1);
  char want[512];
  snprintf(want, sizeof want,
           "4 i915_oa: 0000:00:02.0: MetricSet: No such file or directory; "
           "hint: not registered on this device (see %s/class/drm/card0/"
           "metrics)",
           root);
  assert_string_equal(logs[0], want);
  i915_device_stop(&shim_kernel, &d, &p);
}

static void flex__added_reused_removed(void **state) {
  (void)state;
  struct drm_node n;
  node_of(&n);
  struct i915_device a, b;
  i915_device_init(&a, &n);
  i915_device_init(&b, &n);
  const uint32_t flex[] = {0xE458, 0x005};
  struct i915_device_params p = params();
  p.metric_set = NULL;
  p.flex = flex;
  p.n_flex = 1;
  assert_int_equal(i915_device_open(&shim_kernel, &a, &p, 0), 0);
  assert_true(a.config_added);
  assert_int_equal(a.metric_id, 2);
  i915_stream_close(&shim_kernel, &a.stream); /* the OA unit is exclusive */
  /* the same registers again: EADDRINUSE, the id from sysfs, not ours */
  assert_int_equal(i915_device_open(&shim_kernel, &b, &p, 0), 0);
  assert_false(b.config_added);
  assert_int_equal(b.metric_id, 2);
  assert_string_equal(a.flex_uuid, b.flex_uuid);
  struct shim_i915_stats st;
  i915_device_stop(&shim_kernel, &b, &p);
  shim_i915_stats(DEV, &st);
  assert_int_equal(st.configs_removed, 0);
  i915_device_stop(&shim_kernel, &a, &p);
  shim_i915_stats(DEV, &st);
  assert_int_equal(st.configs_added, 1);
  assert_int_equal(st.configs_removed, 1);
  char path[PATH_MAX];
  snprintf(path, sizeof path, "%s/class/drm/card0/metrics/%s", root,
           a.flex_uuid);
  assert_int_equal(access(path, F_OK), -1);
  assert_int_equal(n_logs, 0);
}

static void busy_at_start_is_retried(void **state) {
  (void)state;
  struct drm_node n;
  node_of(&n);
  struct i915_device d;
  i915_device_init(&d, &n);
  struct i915_device_params p = params();
  set(0, 1);
  assert_int_equal(i915_device_open(&shim_kernel, &d, &p, 0), -EBUSY);
  assert_int_equal(d.fd, -1); /* nothing half-open is kept */
  assert_int_equal(n_logs, 1);
  assert_non_null(strstr(logs[0], "4 i915_oa: 0000:00:02.0: "
                                  "DRM_IOCTL_I915_PERF_OPEN: Device or "
                                  "resource busy; hint: another OA stream"));
  assert_int_equal(i915_device_drain(&shim_kernel, &d, &p, S, count, NULL),
                   -EBUSY); /* still busy after 1 s; backoff now 2 s */
  assert_int_equal(n_logs, 1);
  set(0, 0);
  assert_int_equal(
      i915_device_drain(&shim_kernel, &d, &p, 3 * S - 1, count, NULL), 0);
  assert_int_equal(i915_device_drain(&shim_kernel, &d, &p, 3 * S, count, NULL),
                   528);
  assert_int_equal(d.session.opens, 1);
  assert_int_equal(d.session.reopens, 0); /* never open before */
  assert_int_equal(n_logs, 2);
  assert_string_equal(logs[1], "6 i915_oa: 0000:00:02.0: stream: open again");
  i915_device_stop(&shim_kernel, &d, &p);
}

static void eio_then_vanished_reopens_with_backoff(void **state) {
  (void)state;
  struct drm_node n;
  node_of(&n);
  struct i915_device d;
  i915_device_init(&d, &n);
  struct i915_device_params p = params();
  set(1, 2); /* the second batch's read fails with EIO */
  assert_int_equal(i915_device_open(&shim_kernel, &d, &p, 0), 0);
  assert_int_equal(i915_device_drain(&shim_kernel, &d, &p, 0, count, NULL),
                   528);
  assert_int_equal(i915_device_drain(&shim_kernel, &d, &p, 10, count, NULL),
                   -EIO);
  assert_int_equal(d.fd, -1);
  assert_int_equal(d.stream.fd, -1);
  set(2, ENODEV); /* the next two opens: the device is gone */
  assert_int_equal(i915_device_drain(&shim_kernel, &d, &p, 10 + S, count, NULL),
                   -ENODEV);
  assert_int_equal(
      i915_device_drain(&shim_kernel, &d, &p, 10 + 3 * S, count, NULL),
      -ENODEV);
  assert_int_equal(
      i915_device_drain(&shim_kernel, &d, &p, 10 + 7 * S - 1, count, NULL), 0);
  assert_int_equal(
      i915_device_drain(&shim_kernel, &d, &p, 10 + 7 * S, count, NULL), 528);
  assert_int_equal(d.session.reopens, 1);
  assert_int_equal(d.session.opens, 2);
  assert_int_equal(n_logs, 2); /* the EIO once, the recovery once */
  assert_string_equal(logs[0],
                      "4 i915_oa: 0000:00:02.0: read: Input/output error");
  assert_string_equal(logs[1], "6 i915_oa: 0000:00:02.0: stream: open again");
  i915_device_stop(&shim_kernel, &d, &p);
}

static int pick_format(void *ctx, const struct i915_device *dev,
                       struct i915_device_params *p) {
  int *calls = ctx;
  (*calls)++;
  if (dev->id.devid == 0x9A49) { /* TGL: the usual Gen12 format */
    p->format = 10;
    p->exponent = 14;
    return 0;
  }
  return -EINVAL;
}

static void on_identity__picks_or_refuses(void **state) {
  (void)state;
  struct drm_node n;
  node_of(&n);
  struct i915_device d;
  i915_device_init(&d, &n);
  int calls = 0;
  struct i915_device_params p = params();
  p.format = 0; /* PERF_OPEN would refuse it */
  p.on_identity = pick_format;
  p.ctx = &calls;
  assert_int_equal(i915_device_open(&shim_kernel, &d, &p, 0), 0);
  assert_int_equal(calls, 1);
  assert_int_equal(p.format, 10);
  i915_device_stop(&shim_kernel, &d, &p);
  struct i915_device e;
  i915_device_init(&e, &n);
  e.id.devid = 0;
  assert_int_equal(shim_i915_update(DEV, other_devid, NULL), 0);
  assert_int_equal(i915_device_open(&shim_kernel, &e, &p, 0), -EINVAL);
  assert_int_equal(e.fd, -1);
  assert_int_equal(calls, 2);
  assert_int_equal(n_logs, 1);
  assert_string_equal(logs[0], "4 i915_oa: 0000:00:02.0: setup: Invalid "
                               "argument; hint: the kernel refused the OA "
                               "format, metric set, engine or a property on "
                               "this platform (check Format, MetricSet and "
                               "Engine)");
  i915_device_stop(&shim_kernel, &e, &p);
}

/* ---- discovery ---- */

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

/* symlink <root>/sys/<dir>/<name> -> target */
static void link_at(const char *target, const char *dir, const char *name) {
  char path[PATH_MAX];
  assert_true(snprintf(path, sizeof path, "%s/sys/%s/%s", root, dir, name) <
              (int)sizeof path);
  assert_int_equal(symlink(target, path), 0);
}

/* <root>/dev/<name> (a file for readdir, a shim i915 device for opens)
 * and its sysfs: class/drm/<name> -> devices/<pci>/drm/<name>, with the
 * device's driver and subsystem links. */
static void i915_node(const char *name, const char *pci, bool add) {
  char path[PATH_MAX], target[PATH_MAX];
  snprintf(path, sizeof path, "%s/dev/%s", root, name);
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fclose(f);
  if (add) {
    struct shim_i915_scenario sc;
    shim_i915_scenario_default(&sc);
    assert_int_equal(shim_i915_add(path, &sc), 0);
  }
  snprintf(path, sizeof path, "%s/sys/devices/%s/drm/%s", root, pci, name);
  mkdirs(path);
  snprintf(path, sizeof path, "%s/sys/bus/pci/drivers/i915", root);
  mkdirs(path);
  snprintf(path, sizeof path, "%s/sys/class/drm", root);
  mkdirs(path);
  char dir[256];
  snprintf(target, sizeof target, "../../devices/%s/drm/%s", pci, name);
  link_at(target, "class/drm", name);
  snprintf(dir, sizeof dir, "devices/%s/drm/%s", pci, name);
  snprintf(target, sizeof target, "../../../%s", pci); /* named as sysfs */
  link_at(target, dir, "device");
  snprintf(dir, sizeof dir, "devices/%s", pci);
  link_at("../../bus/pci/drivers/i915", dir, "driver");
  link_at("../../bus/pci", dir, "subsystem");
}

struct missing {
  char entries[4][64];
  int errs[4];
  size_t n;
};

static void on_missing(void *ctx, const char *entry, int err) {
  struct missing *m = ctx;
  if (m->n < 4) {
    snprintf(m->entries[m->n], sizeof m->entries[0], "%s", entry);
    m->errs[m->n++] = err;
  }
}

static void find__all_by_path_and_by_pci(void **state) {
  (void)state;
  char dev[96], sys[96], p130[128];
  snprintf(dev, sizeof dev, "%s/dev", root);
  snprintf(sys, sizeof sys, "%s/sys", root);
  mkdirs(dev);
  i915_node("renderD129", "0000:00:02.0", true);
  i915_node("renderD130", "0000:03:00.0", true);
  snprintf(p130, sizeof p130, "%s/renderD130", dev);
  struct drm_node nodes[4];
  struct missing m = {0};
  assert_int_equal(i915_device_find(&shim_kernel, dev, sys, NULL, 0, nodes, 4,
                                    on_missing, &m),
                   2);
  assert_string_equal(nodes[0].pci, "0000:00:02.0");
  assert_string_equal(nodes[1].pci, "0000:03:00.0");
  const char *wanted[] = {"0000:03:00.0", p130, "0000:09:00.0", "/dev/null"};
  assert_int_equal(i915_device_find(&shim_kernel, dev, sys, wanted, 4, nodes, 4,
                                    on_missing, &m),
                   1); /* the same node twice counts once */
  assert_string_equal(nodes[0].path, p130);
  assert_int_equal(m.n, 2);
  assert_string_equal(m.entries[0], "0000:09:00.0");
  assert_int_equal(m.errs[0], -ENOENT);
  assert_string_equal(m.entries[1], "/dev/null");
  assert_int_equal(m.errs[1], -ENOTTY); /* no DRM_IOCTL_VERSION */
  struct i915_device d;
  i915_device_init(&d, &nodes[0]);
  assert_string_equal(d.object, "0000:03:00.0");
  char missing_dev[128];
  snprintf(missing_dev, sizeof missing_dev, "%s/nope", root);
  assert_true(i915_device_find(&shim_kernel, missing_dev, sys, NULL, 0, nodes,
                               4, NULL, NULL) < 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(open__metric_set_from_sysfs, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(open__unknown_metric_set_is_said_once,
                                      setup, teardown),
      cmocka_unit_test_setup_teardown(flex__added_reused_removed, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(busy_at_start_is_retried, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(eio_then_vanished_reopens_with_backoff,
                                      setup, teardown),
      cmocka_unit_test_setup_teardown(on_identity__picks_or_refuses, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(find__all_by_path_and_by_pci, setup,
                                      teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
