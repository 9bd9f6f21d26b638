/* DRM node discovery: driver names from DRM_IOCTL_VERSION through the
 * shim, PCI addresses and driver links from a synthetic sysfs. */
#include "common/drm/drm_node.h"
#include "tests/shim/shim.h"

#include <drm.h>
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

/* A fake DRM device answering DRM_IOCTL_VERSION with its ctx as name. */
static int version_opens;

static int fake_open(struct shim_file *f, void *ctx, int flags) {
  (void)flags;
  f->data = ctx;
  version_opens++;
  return 0;
}

static int fake_ioctl(struct shim_file *f, unsigned long request, void *arg) {
  if (request != DRM_IOCTL_VERSION) {
    errno = ENOTTY;
    return -1;
  }
  const char *name = f->data;
  struct drm_version *v = arg;
  size_t len = strlen(name);
  memcpy(v->name, name, len < v->name_len ? len : v->name_len);
  v->name_len = len;
  v->version_major = 1;
  return 0;
}

static void fake_release(struct shim_file *f) { (void)f; }

static const struct shim_file_ops fake_ops = {
    .name = "fake-drm",
    .open = fake_open,
    .ioctl = fake_ioctl,
    .release = fake_release,
};

struct tree {
  char root[64], dev[96], sys[96];
};

static void write_file(const char *path) {
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fclose(f);
}

static void mkdir_p(const char *path) {
  char buf[PATH_MAX];
  snprintf(buf, sizeof buf, "%s", path);
  for (char *p = buf + 1; *p; p++) {
    if (*p == '/') {
      *p = '\0';
      mkdir(buf, 0755);
      *p = '/';
    }
  }
  mkdir(buf, 0755);
}

/* A render node `name` of `driver` on bus `bus` (pci, platform) named
 * `dev`; `sysfs` false: no sysfs entry (a container). */
static void add_node(struct tree *t, const char *name, const char *driver,
                     const char *bus, const char *dev, bool sysfs) {
  char path[PATH_MAX], target[PATH_MAX];
  snprintf(path, sizeof path, "%s/%s", t->dev, name);
  write_file(path); /* listed by readdir; opens go to the shim */
  assert_int_equal(shim_device_add(path, 0, &fake_ops, (void *)driver), 0);
  if (!sysfs)
    return;
  snprintf(path, sizeof path, "%s/devices/%s/drm/%s", t->sys, dev, name);
  mkdir_p(path);
  snprintf(path, sizeof path, "%s/bus/%s/drivers/%s", t->sys, bus, driver);
  mkdir_p(path);
  snprintf(path, sizeof path, "%s/devices/%s/driver", t->sys, dev);
  snprintf(target, sizeof target, "../../bus/%s/drivers/%s", bus, driver);
  assert_int_equal(symlink(target, path), 0);
  snprintf(path, sizeof path, "%s/devices/%s/subsystem", t->sys, dev);
  snprintf(target, sizeof target, "../../bus/%s", bus);
  assert_int_equal(symlink(target, path), 0);
  snprintf(path, sizeof path, "%s/class/drm", t->sys);
  mkdir_p(path);
  snprintf(path, sizeof path, "%s/class/drm/%s", t->sys, name);
  snprintf(target, sizeof target, "../../devices/%s/drm/%s", dev, name);
  assert_int_equal(symlink(target, path), 0);
  snprintf(path, sizeof path, "%s/devices/%s/drm/%s/device", t->sys, dev, name);
  snprintf(target, sizeof target, "../../../%s", dev);
  assert_int_equal(symlink(target, path), 0);
}

static int tree_setup(void **state) {
  struct tree *t = calloc(1, sizeof *t);
  snprintf(t->root, sizeof t->root, "/tmp/drm_node.XXXXXX");
  assert_non_null(mkdtemp(t->root));
  snprintf(t->dev, sizeof t->dev, "%s/dev", t->root);
  snprintf(t->sys, sizeof t->sys, "%s/sys", t->root);
  mkdir_p(t->dev);
  mkdir_p(t->sys);
  version_opens = 0;
  *state = t;
  return 0;
}

static int tree_teardown(void **state) {
  struct tree *t = *state;
  char cmd[128];
  for (unsigned m = 128; m < 136; m++) {
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/renderD%u", t->dev, m);
    shim_device_remove(path);
  }
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", t->root);
  assert_int_equal(system(cmd), 0);
  free(t);
  return 0;
}

static void finds_one_driver_in_minor_order(void **state) {
  struct tree *t = *state;
  add_node(t, "renderD130", "i915", "pci", "0000:03:00.0", true);
  add_node(t, "renderD128", "i915", "pci", "0000:00:02.0", true);
  add_node(t, "renderD129", "amdgpu", "pci", "0000:01:00.0", true);
  char card[PATH_MAX];
  snprintf(card, sizeof card, "%s/card0", t->dev);
  write_file(card); /* primary nodes are not render nodes */

  struct drm_node nodes[4];
  int n =
      drm_node_find(&shim_kernel, t->dev, t->sys, "i915", nodes, 4, NULL, NULL);
  assert_int_equal(n, 2);
  assert_string_equal(nodes[0].name, "renderD128");
  assert_int_equal(nodes[0].minor, 128);
  assert_string_equal(nodes[0].driver, "i915");
  assert_string_equal(nodes[0].pci, "0000:00:02.0");
  assert_string_equal(nodes[1].name, "renderD130");
  assert_string_equal(nodes[1].pci, "0000:03:00.0");
  /* the amdgpu node was never opened: sysfs said it is another driver */
  assert_int_equal(version_opens, 2);
}

static void without_sysfs_every_node_is_asked(void **state) {
  struct tree *t = *state;
  add_node(t, "renderD128", "panthor", "platform", "fb000000.gpu", false);
  add_node(t, "renderD129", "rockchip", "platform", "display", false);
  struct drm_node nodes[4];
  int n = drm_node_find(&shim_kernel, t->dev, t->sys, "panthor", nodes, 4, NULL,
                        NULL);
  assert_int_equal(n, 1);
  assert_string_equal(nodes[0].driver, "panthor");
  assert_string_equal(nodes[0].pci, "");
  assert_int_equal(version_opens, 2);
}

static void platform_device_has_no_pci_address(void **state) {
  struct tree *t = *state;
  /* a platform device whose name happens to look like a PCI address */
  add_node(t, "renderD128", "panthor", "platform", "0000:00:02.0", true);
  char out[DRM_NODE_PCI_MAX] = "x";
  assert_int_equal(drm_node_pci_address(t->sys, "renderD128", out, sizeof out),
                   -ENOENT);
  char driver[DRM_NODE_NAME_MAX];
  assert_int_equal(
      drm_node_sysfs_driver(t->sys, "renderD128", driver, sizeof driver), 0);
  assert_string_equal(driver, "panthor");
}

/* A device link with one "../" more than it is deep leads out of the
 * SysfsRoot, to a PCI device with a driver of its own: neither its
 * address nor its driver is taken from there. */
static void device_link_out_of_root_is_not_followed(void **state) {
  struct tree *t = *state;
  add_node(t, "renderD128", "i915", "pci", "0000:00:02.0", true);
  char path[PATH_MAX];
  snprintf(path, sizeof path, "%s/0000:66:00.0", t->root);
  mkdir_p(path);
  snprintf(path, sizeof path, "%s/0000:66:00.0/driver", t->root);
  assert_int_equal(symlink("../sys/bus/pci/drivers/evil", path), 0);
  snprintf(path, sizeof path, "%s/0000:66:00.0/subsystem", t->root);
  assert_int_equal(symlink("../sys/bus/pci", path), 0);
  /* devices/0000:00:02.0/drm/renderD128 is 4 deep: 5 "../" leave sys */
  snprintf(path, sizeof path, "%s/devices/0000:00:02.0/drm/renderD128/device",
           t->sys);
  assert_int_equal(unlink(path), 0);
  assert_int_equal(symlink("../../../../../0000:66:00.0", path), 0);
  char out[DRM_NODE_PCI_MAX] = "x";
  assert_int_equal(drm_node_pci_address(t->sys, "renderD128", out, sizeof out),
                   -ENOENT);
  assert_string_equal(out, "x");
  char driver[DRM_NODE_NAME_MAX] = "x";
  assert_int_equal(
      drm_node_sysfs_driver(t->sys, "renderD128", driver, sizeof driver),
      -EXDEV);
  assert_string_equal(driver, "x");
}

struct errors {
  int count, last_err;
  char last_path[PATH_MAX];
  char last_what[32];
};

static void record_error(void *ctx, const char *path, const char *what,
                         int err) {
  struct errors *e = ctx;
  e->count++;
  e->last_err = err;
  snprintf(e->last_what, sizeof e->last_what, "%s", what);
  snprintf(e->last_path, sizeof e->last_path, "%s", path);
}

static void unopenable_node_is_reported_and_skipped(void **state) {
  struct tree *t = *state;
  add_node(t, "renderD129", "i915", "pci", "0000:00:02.0", false);
  char path[PATH_MAX];
  snprintf(path, sizeof path, "%s/renderD128", t->dev);
  /* a plain file the shim does not own: the real open works but the
   * version ioctl is refused (ENOTTY) */
  write_file(path);
  struct errors e = {0};
  struct drm_node nodes[4];
  int n = drm_node_find(&shim_kernel, t->dev, NULL, "i915", nodes, 4,
                        record_error, &e);
  assert_int_equal(n, 1);
  assert_int_equal(e.count, 1);
  assert_int_equal(e.last_err, ENOTTY);
  assert_string_equal(e.last_what, "DRM_IOCTL_VERSION"); /* not "open" */
  assert_string_equal(e.last_path, path);
}

static void hostile_driver_name_is_sanitised(void **state) {
  struct tree *t = *state;
  add_node(t, "renderD128", "i9\n15\xff", "pci", "0000:00:02.0", false);
  struct drm_node node;
  char path[PATH_MAX];
  snprintf(path, sizeof path, "%s/renderD128", t->dev);
  assert_int_equal(drm_node_describe(&shim_kernel, path, NULL, &node), 0);
  assert_null(strchr(node.driver, '\n'));
  assert_string_equal(node.driver, "i9?15?");
}

static void missing_dev_root_is_an_error(void **state) {
  (void)state;
  struct drm_node nodes[1];
  assert_int_equal(drm_node_find(&shim_kernel, "/nonexistent/dri", NULL, "i915",
                                 nodes, 1, NULL, NULL),
                   -ENOENT);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(finds_one_driver_in_minor_order,
                                      tree_setup, tree_teardown),
      cmocka_unit_test_setup_teardown(without_sysfs_every_node_is_asked,
                                      tree_setup, tree_teardown),
      cmocka_unit_test_setup_teardown(device_link_out_of_root_is_not_followed,
                                      tree_setup, tree_teardown),
      cmocka_unit_test_setup_teardown(platform_device_has_no_pci_address,
                                      tree_setup, tree_teardown),
      cmocka_unit_test_setup_teardown(unopenable_node_is_reported_and_skipped,
                                      tree_setup, tree_teardown),
      cmocka_unit_test_setup_teardown(hostile_driver_name_is_sanitised,
                                      tree_setup, tree_teardown),
      cmocka_unit_test_setup_teardown(missing_dev_root_is_an_error, tree_setup,
                                      tree_teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
