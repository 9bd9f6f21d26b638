/* Metric-set ids from a synthetic sysfs: the card behind a render node,
 * <card>/metrics/<uuid>/id, numeric MetricSet values. */
#include "common/i915/i915_sysfs.h"

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

#define UUID "db41edd4-d8e7-4730-ad11-b9a2d6833503"

static char root[64];

static void mkdir_p(const char *path) {
  char buf[PATH_MAX];
  snprintf(buf, sizeof buf, "%s", path);
  for (char *p = buf + 1; *p; p++)
    if (*p == '/') {
      *p = '\0';
      mkdir(buf, 0755);
      *p = '/';
    }
  mkdir(buf, 0755);
}

static void put(const char *rel, const char *text) {
  char path[PATH_MAX];
  snprintf(path, sizeof path, "%s/%s", root, rel);
  char dir[PATH_MAX];
  snprintf(dir, sizeof dir, "%s", path);
  *strrchr(dir, '/') = '\0';
  mkdir_p(dir);
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs(text, f);
  fclose(f);
}

static int setup(void **state) {
  (void)state;
  snprintf(root, sizeof root, "/tmp/i915_sysfs.XXXXXX");
  assert_non_null(mkdtemp(root));
  char path[PATH_MAX], link[PATH_MAX];
  /* devices/pci/drm/{card1,renderD128}; class/drm/X -> there */
  snprintf(path, sizeof path, "%s/devices/pci0/drm/card1", root);
  mkdir_p(path);
  snprintf(path, sizeof path, "%s/devices/pci0/drm/renderD128", root);
  mkdir_p(path);
  snprintf(path, sizeof path, "%s/class/drm", root);
  mkdir_p(path);
  const char *nodes[] = {"card1", "renderD128"};
  for (size_t i = 0; i < 2; i++) {
    snprintf(path, sizeof path, "%s/class/drm/%s", root, nodes[i]);
    snprintf(link, sizeof link, "../../devices/pci0/drm/%s", nodes[i]);
    assert_int_equal(symlink(link, path), 0);
    snprintf(path, sizeof path, "%s/devices/pci0/drm/%s/device", root,
             nodes[i]);
    assert_int_equal(symlink("../..", path), 0);
  }
  return 0;
}

static int teardown(void **state) {
  (void)state;
  char cmd[96];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
  assert_int_equal(system(cmd), 0);
  return 0;
}

static void card__behind_the_render_node(void **state) {
  (void)state;
  char card[16] = "x";
  assert_int_equal(i915_sysfs_card(root, "renderD128", card, sizeof card), 0);
  assert_string_equal(card, "card1");
  assert_int_equal(i915_sysfs_card(root, "card1", card, sizeof card), 0);
  assert_string_equal(card, "card1");
  assert_int_equal(i915_sysfs_card(root, "renderD129", card, sizeof card),
                   -ENOENT);
  char tiny[4];
  assert_int_equal(i915_sysfs_card(root, "renderD128", tiny, sizeof tiny),
                   -ENAMETOOLONG);
}

static void metric_id__values(void **state) {
  (void)state;
  uint64_t id = 0;
  assert_int_equal(i915_sysfs_metric_id(root, "card1", UUID, &id), -ENOENT);
  put("devices/pci0/drm/card1/metrics/" UUID "/id", "17\n");
  assert_int_equal(i915_sysfs_metric_id(root, "card1", UUID, &id), 0);
  assert_int_equal(id, 17);
  const char *bad[] = {"0\n", "-3\n",  "x\n",
                       "",    "12 \n", "99999999999999999999999\n"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    put("devices/pci0/drm/card1/metrics/" UUID "/id", bad[i]);
    id = 5;
    assert_int_equal(i915_sysfs_metric_id(root, "card1", UUID, &id), -EINVAL);
    assert_int_equal(id, 5);
  }
  assert_int_equal(i915_sysfs_metric_id(root, "card1", "../../x", &id),
                   -EINVAL);
}

static void resolve__uuid_or_number(void **state) {
  (void)state;
  put("devices/pci0/drm/card1/metrics/" UUID "/id", "4\n");
  uint64_t id = 0;
  assert_int_equal(i915_sysfs_metric_resolve(root, "card1", UUID, &id), 0);
  assert_int_equal(id, 4);
  assert_int_equal(i915_sysfs_metric_resolve(root, "card1", "9", &id), 0);
  assert_int_equal(id, 9);
  id = 1;
  assert_int_equal(i915_sysfs_metric_resolve(root, "card1", "0", &id), -EINVAL);
  assert_int_equal(i915_sysfs_metric_resolve(root, "card1", "RenderBasic", &id),
                   -EINVAL);
  assert_int_equal(id, 1);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(card__behind_the_render_node, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(metric_id__values, setup, teardown),
      cmocka_unit_test_setup_teardown(resolve__uuid_or_number, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
