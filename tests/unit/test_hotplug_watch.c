/*
 * test_hotplug_watch.c: the two hot-plug layers on their own, on directory
 * trees under mkdtemp through the real kernel seam: what came and what
 * went between two listings, a directory recreated under the same name
 * (another inode) as gone and come, an unlistable directory, and (the PMU
 * watch) listings that reuse their buffers: no allocation once the
 * directory stopped growing.
 */
#include "plugins/panthor_perf/ppf_hotplug.h"
#include "plugins/tegra410_uncore/t410_hotplug.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

static char root[256];

static void mk(const char *rel) {
  char path[512];
  snprintf(path, sizeof(path), "%s/%s", root, rel);
  assert_int_equal(mkdir(path, 0755), 0);
}

static void rm(const char *rel) {
  char path[512];
  snprintf(path, sizeof(path), "%s/%s", root, rel);
  assert_int_equal(rmdir(path), 0);
}

static int setup(void **state) {
  (void)state;
  snprintf(root, sizeof(root), "%s/hotplug-watch.XXXXXX",
           getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
  return mkdtemp(root) == NULL ? -1 : 0;
}

static int teardown(void **state) {
  (void)state;
  char cmd[600];
  snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
  return system(cmd) == 0 ? 0 : -1;
}

static bool has(const struct t410_hotplug_pmu *a, size_t n, const char *name) {
  for (size_t i = 0; i < n; i++)
    if (strcmp(a[i].name, name) == 0)
      return true;
  return false;
}

static void t410_watch__came_went_and_recreated(void **state) {
  (void)state;
  struct t410_hotplug h;
  t410_hotplug_init(&h);
  /* no bus/event_source/devices yet: an error, nothing changed */
  assert_int_equal(t410_hotplug_list(&h, &kernel_real, root), -ENOENT);
  assert_int_equal(h.err, ENOENT);
  assert_int_equal(h.n_came + h.n_went, 0);
  mk("bus");
  mk("bus/event_source");
  mk("bus/event_source/devices");
  mk("bus/event_source/devices/nvidia_ucf_pmu_0");
  mk("bus/event_source/devices/software");
  assert_int_equal(t410_hotplug_list(&h, &kernel_real, root), 0);
  assert_int_equal(h.n_came, 2); /* the first listing: everything came */
  assert_int_equal(h.n_went, 0);
  assert_int_equal(t410_hotplug_count(&h), 2);
  /* unchanged: nothing */
  assert_int_equal(t410_hotplug_list(&h, &kernel_real, root), 0);
  assert_int_equal(h.n_came + h.n_went, 0);
  /* one unregistered, one registered */
  rm("bus/event_source/devices/nvidia_ucf_pmu_0");
  mk("bus/event_source/devices/nvidia_cmem_latency_pmu_0");
  assert_int_equal(t410_hotplug_list(&h, &kernel_real, root), 0);
  assert_int_equal(h.n_went, 1);
  assert_true(has(h.went, h.n_went, "nvidia_ucf_pmu_0"));
  assert_int_equal(h.n_came, 1);
  assert_true(has(h.came, h.n_came, "nvidia_cmem_latency_pmu_0"));
  /* registered again under the same name: another inode, went and came
   * (made beside the old one, so the inodes differ, then renamed) */
  mk("bus/event_source/devices/.software.new");
  rm("bus/event_source/devices/software");
  char from[512], to[512];
  snprintf(from, sizeof(from), "%s/bus/event_source/devices/.software.new",
           root);
  snprintf(to, sizeof(to), "%s/bus/event_source/devices/software", root);
  assert_int_equal(rename(from, to), 0);
  assert_int_equal(t410_hotplug_list(&h, &kernel_real, root), 0);
  assert_true(has(h.went, h.n_went, "software"));
  assert_true(has(h.came, h.n_came, "software"));
  t410_hotplug_fini(&h);
}

static bool ppf_has(const struct ppf_hotplug_node *a, size_t n,
                    const char *name, enum ppf_hotplug_kind kind) {
  for (size_t i = 0; i < n; i++)
    if (strcmp(a[i].name, name) == 0 && a[i].kind == kind)
      return true;
  return false;
}

static void ppf_watch__render_nodes_only(void **state) {
  (void)state;
  struct ppf_hotplug h;
  ppf_hotplug_init(&h, root);
  assert_false(h.sysfs); /* not /dev: sysfs does not describe it */
  ppf_hotplug_list(&h, &kernel_real);
  assert_int_equal(h.err, ENOENT);
  assert_int_equal(h.n_nodes, 0);
  mk("dri");
  mk("dri/renderD128");
  mk("dri/card0");       /* not a render node */
  mk("dri/renderD129x"); /* not one either */
  ppf_hotplug_list(&h, &kernel_real);
  assert_int_equal(h.err, 0);
  assert_int_equal(h.n_listed, 1);
  assert_int_equal(h.n_nodes, 1);
  assert_true(ppf_has(h.nodes, h.n_nodes, "renderD128", PPF_HOTPLUG_NEW));
  /* the plugin says what it was; the watch keeps it */
  h.nodes[0].kind = PPF_HOTPLUG_OURS;
  mk("dri/renderD130");
  ppf_hotplug_list(&h, &kernel_real);
  assert_int_equal(h.n_went, 0);
  assert_true(ppf_has(h.nodes, h.n_nodes, "renderD128", PPF_HOTPLUG_OURS));
  assert_true(ppf_has(h.nodes, h.n_nodes, "renderD130", PPF_HOTPLUG_NEW));
  /* gone: said with the kind it had */
  rm("dri/renderD128");
  ppf_hotplug_list(&h, &kernel_real);
  assert_int_equal(h.n_went, 1);
  assert_true(ppf_has(h.went, h.n_went, "renderD128", PPF_HOTPLUG_OURS));
  assert_int_equal(h.n_nodes, 1);
  /* identify: a directory is no DRM node: the open or the ioctl fails */
  char path[PATH_MAX];
  const char *what = NULL;
  int rc = ppf_hotplug_identify(&h, &kernel_real, "renderD130", path,
                                sizeof(path), &what);
  assert_true(rc < 0);
  assert_non_null(what);
  char want[PATH_MAX];
  snprintf(want, sizeof(want), "%s/dri/renderD130", root);
  assert_string_equal(path, want);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(t410_watch__came_went_and_recreated,
                                      setup, teardown),
      cmocka_unit_test_setup_teardown(ppf_watch__render_nodes_only, setup,
                                      teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
