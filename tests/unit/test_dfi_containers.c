/*
 * test_dfi_containers.c: drm_fdinfo's ReportBy Container on the fixture's
 * synthetic tree: the names each source gives (Docker's config.v2.json,
 * Podman's containers.json, the kubelet's log layout) and how a change of
 * each shows at the next read, machines, LXC and the host's processes,
 * ReportBy Container asked for while running (the live view), a
 * configured source that cannot be read (said once, the ids stand), and
 * the collectd identities of container series.
 */
#include "common/collectd/collectd_map.h"
#include "common/core/cfg.h"
#include "common/core/log.h"
#include "plugins/drm_fdinfo/drm_fdinfo.h"
#include "tests/lib/capture_sink.h"
#include "tests/lib/dfi_fixture.h"
#include "tests/lib/fakeproc.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#define ID "4f8b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b"
#define ID2 "1111111111111111111111111111111111111111111111111111111111111111"
#define UID "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d"
#define UID_ "0a1b2c3d_4e5f_4a6b_8c7d_9e0f1a2b3c4d"

static char root_path[600];
/* A path under the tree's root; "none" is an empty directory. */
static const char *in_root(struct fixture *f, const char *rel) {
  snprintf(root_path, sizeof(root_path), "%s/none", f->fp.root);
  mkdir(root_path, 0755);
  snprintf(root_path, sizeof(root_path), "%s/%s", f->fp.root, rel);
  return root_path;
}

/* Docker: the name from config.v2.json, a rename seen at the next read,
 * the short id once the file is gone. */
static void docker_names(void **state) {
  struct fixture *f = need_root(state);
  i915_device(f);
  fakeproc_process(&f->fp, 100, "app", "/system.slice/docker-" ID ".scope");
  fakeproc_fd(&f->fp, 100, 3, "renderD128", fdinfo_i915(7, 1000, 0));
  fakeproc_write(&f->fp, "docker/containers/" ID "/config.v2.json",
                 "{\"ID\":\"" ID "\",\"Name\":\"/web\"}");
  char docker[600];
  snprintf(docker, sizeof(docker), "%s", in_root(f, "docker"));
  start(f, "ReportBy", "Container", "DockerRoot", docker, NULL);
  read_at(f, 1);
  expect_line(f, "drm_engine,scope=container,driver=i915,device=0000:00:02.0,"
                 "engine=render,container_runtime=docker,container=web,"
                 "container_id=" ID " busy_ns=0i");
  fakeproc_write(&f->fp, "docker/containers/" ID "/config.v2.json",
                 "{\"ID\":\"" ID "\",\"Name\":\"/web-renamed\"}");
  read_at(f, 2);
  expect_line(f,
              "drm_memory,scope=container,driver=i915,device=0000:00:02.0,"
              "region=system0,container_runtime=docker,"
              "container=web-renamed,container_id=" ID " total_bytes=8388608i");
  unlink(in_root(f, "docker/containers/" ID "/config.v2.json"));
  read_at(f, 3);
  expect_line(f,
              "drm_engine,scope=container,driver=i915,device=0000:00:02.0,"
              "engine=render,container_runtime=docker,container=4f8b1c2d3e4f,"
              "container_id=" ID " busy_ns=0i");
}

/* Podman's store; machines, LXC and the host. */
static void podman_machines_host(void **state) {
  struct fixture *f = need_root(state);
  i915_device(f);
  fakeproc_process(&f->fp, 100, "a", "/machine.slice/libpod-" ID ".scope");
  fakeproc_fd(&f->fp, 100, 3, "renderD128", fdinfo_i915(7, 1000, 0));
  fakeproc_process(&f->fp, 101, "b", "/machine.slice/machine-box\\x2d1.scope");
  fakeproc_fd(&f->fp, 101, 3, "renderD128", fdinfo_i915(8, 1000, 0));
  fakeproc_process(&f->fp, 102, "c", "/lxc.payload.web1/init.scope");
  fakeproc_fd(&f->fp, 102, 3, "renderD128", fdinfo_i915(9, 1000, 0));
  fakeproc_process(&f->fp, 103, "d", "/user.slice/user-0.slice/s.scope");
  fakeproc_fd(&f->fp, 103, 3, "renderD128", fdinfo_i915(10, 1000, 0));
  fakeproc_process(&f->fp, 104, "e", "/user.slice/user-1.slice/s.scope");
  fakeproc_fd(&f->fp, 104, 3, "renderD128", fdinfo_i915(11, 1000, 0));
  fakeproc_write(&f->fp, "podman/overlay-containers/containers.json",
                 "[{\"id\":\"" ID "\",\"names\":[\"db\"]}]");
  char podman[600];
  snprintf(podman, sizeof(podman), "%s", in_root(f, "podman"));
  start(f, "ReportBy", "Container", "PodmanRoot", podman, "DockerRoot",
        in_root(f, "none"), NULL);
  read_at(f, 1);
  expect_line(f, "drm_engine,scope=container,driver=i915,device=0000:00:02.0,"
                 "engine=render,container_runtime=podman,container=db,"
                 "container_id=" ID " busy_ns=0i");
  expect_line(f, "drm_engine,scope=container,driver=i915,device=0000:00:02.0,"
                 "engine=render,container_runtime=systemd-nspawn,"
                 "container=box-1 busy_ns=0i");
  expect_line(f, "drm_engine,scope=container,driver=i915,device=0000:00:02.0,"
                 "engine=render,container_runtime=lxc,container=web1 "
                 "busy_ns=0i");
  /* the host's two processes: one series, their memory summed */
  expect_line(f, "drm_memory,scope=container,driver=i915,device=0000:00:02.0,"
                 "region=system0,container_runtime=host "
                 "total_bytes=16777216i");
  /* a new container in the store: named at the next read */
  fakeproc_process(&f->fp, 105, "g", "/machine.slice/libpod-" ID2 ".scope");
  fakeproc_fd(&f->fp, 105, 3, "renderD128", fdinfo_i915(12, 1000, 0));
  fakeproc_write(&f->fp, "podman/overlay-containers/containers.json",
                 "[{\"id\":\"" ID "\",\"names\":[\"db\"]},"
                 "{\"id\":\"" ID2 "\",\"names\":[\"cache\"]}]");
  read_at(f, 2);
  expect_line(f, "drm_engine,scope=container,driver=i915,device=0000:00:02.0,"
                 "engine=render,container_runtime=podman,container=cache,"
                 "container_id=" ID2 " busy_ns=0i");
  /* the container ends: its series with it */
  fakeproc_process_remove(&f->fp, 100);
  read_at(f, 3);
  expect_no_line(f, "drm_engine,scope=container,driver=i915,device=0000:00:"
                    "02.0,engine=render,container_runtime=podman,container=db");
}

/* The kubelet's layout: names, and the uid and short id when none. */
static void kubelet_names(void **state) {
  struct fixture *f = need_root(state);
  i915_device(f);
  fakeproc_process(&f->fp, 100, "py",
                   "/kubepods.slice/kubepods-burstable.slice/"
                   "kubepods-burstable-pod" UID_ ".slice/cri-containerd-" ID
                   ".scope");
  fakeproc_fd(&f->fp, 100, 3, "renderD128", fdinfo_i915(7, 1000, 0));
  fakeproc_write(&f->fp, "pods/ml_trainer-0_" UID "/cuda/0.log", "");
  mkdir(in_root(f, "ctrs"), 0755);
  char pods[600], ctrs[600];
  snprintf(pods, sizeof(pods), "%s", in_root(f, "pods"));
  snprintf(ctrs, sizeof(ctrs), "%s", in_root(f, "ctrs"));
  start(f, "ReportBy", "Container", "PodLogRoot", pods, "ContainerLogRoot",
        ctrs, "DockerRoot", in_root(f, "none"), "PodmanRoot",
        in_root(f, "none"), NULL);
  read_at(f, 1);
  /* the pod's directory names it; no link yet: the short id */
  expect_line(f, "drm_engine,scope=container,driver=i915,device=0000:00:02.0,"
                 "engine=render,container_runtime=containerd,namespace=ml,"
                 "pod=trainer-0,container=4f8b1c2d3e4f,pod_uid=" UID
                 ",container_id=" ID " busy_ns=0i");
  char link[700];
  snprintf(link, sizeof(link), "%s/trainer-0_ml_cuda-" ID ".log", ctrs);
  assert_int_equal(symlink("/dev/null", link), 0);
  read_at(f, 2);
  expect_line(f, "drm_engine,scope=container,driver=i915,device=0000:00:02.0,"
                 "engine=render,container_runtime=containerd,namespace=ml,"
                 "pod=trainer-0,container=cuda,pod_uid=" UID ",container_id=" ID
                 " busy_ns=0i");
  /* the pod directory gone: the link still names pod and namespace */
  char dir[700], dir2[700];
  snprintf(dir, sizeof(dir), "%s/ml_trainer-0_" UID "/cuda/0.log", pods);
  unlink(dir);
  snprintf(dir, sizeof(dir), "%s/ml_trainer-0_" UID "/cuda", pods);
  rmdir(dir);
  snprintf(dir2, sizeof(dir2), "%s/ml_trainer-0_" UID, pods);
  rmdir(dir2);
  unlink(link);
  read_at(f, 3);
  /* nothing names it now: the uid stands for the pod */
  expect_line(f, "drm_engine,scope=container,driver=i915,device=0000:00:02.0,"
                 "engine=render,container_runtime=containerd,pod=" UID
                 ",container=4f8b1c2d3e4f,pod_uid=" UID ",container_id=" ID
                 " busy_ns=0i");
}

/* The live view asks for containers while running: the known clients'
 * cgroups are read then. */
static void container_asked_while_running(void **state) {
  struct fixture *f = need_root(state);
  i915_device(f);
  fakeproc_process(&f->fp, 100, "app", "/docker/" ID);
  fakeproc_fd(&f->fp, 100, 3, "renderD128", fdinfo_i915(7, 1000, 0));
  start(f, "ReportBy", "Device", "DockerRoot", in_root(f, "none"), NULL);
  read_at(f, 1);
  expect_no_line(f, "drm_engine,scope=container");
  struct cfg_value v = {.type = CFG_STRING, .string = "Container"};
  struct cfg_item item = {.key = "ReportBy", .values = &v, .n_values = 1};
  assert_int_equal(drm_fdinfo_ops.configure(f->inst, &item), 0);
  read_at(f, 2);
  expect_line(f,
              "drm_engine,scope=container,driver=i915,device=0000:00:02.0,"
              "engine=render,container_runtime=docker,container=4f8b1c2d3e4f,"
              "container_id=" ID " busy_ns=0i");
}

static int n_warnings;
static char last_warning[512];
static void log_to(enum log_level level, const char *line) {
  if (level == LOG_LEVEL_WARNING && strstr(line, "notadir") != NULL) {
    n_warnings++;
    snprintf(last_warning, sizeof(last_warning), "%s", line);
  }
}

/* A configured source that is not a directory: said once, ids stand. */
static void unreadable_source(void **state) {
  struct fixture *f = need_root(state);
  i915_device(f);
  fakeproc_process(&f->fp, 100, "app", "/kubepods/pod" UID "/" ID);
  fakeproc_fd(&f->fp, 100, 3, "renderD128", fdinfo_i915(7, 1000, 0));
  fakeproc_write(&f->fp, "notadir", "x");
  char bad[600];
  snprintf(bad, sizeof(bad), "%s", in_root(f, "notadir"));
  n_warnings = 0;
  log_set_sink(log_to, LOG_LEVEL_WARNING);
  start(f, "ReportBy", "Container", "PodLogRoot", bad, "ContainerLogRoot",
        in_root(f, "none"), "DockerRoot", in_root(f, "none"), "PodmanRoot",
        in_root(f, "none"), NULL);
  read_at(f, 1);
  read_at(f, 2);
  log_set_sink(NULL, LOG_LEVEL_WARNING);
  assert_int_equal(n_warnings, 1);
  assert_non_null(strstr(last_warning, "notadir: opendir: Not a directory"));
  expect_line(f, "drm_engine,scope=container,driver=i915,device=0000:00:02.0,"
                 "engine=render,container_runtime=cri,pod=" UID
                 ",container=4f8b1c2d3e4f,pod_uid=" UID ",container_id=" ID
                 " busy_ns=0i");
}

/* collectd identities: namespace, pod and container; the host's "host";
 * every container series its own. */
struct ident_sink {
  struct metric_sink base;
  char idents[64][200];
  size_t n;
};

static int ident_write(struct metric_sink *sink, const struct metric *m) {
  struct ident_sink *s = (struct ident_sink *)sink;
  for (size_t i = 0; i < m->n_fields && s->n < 64; i++) {
    struct collectd_ident id;
    collectd_map(drm_fdinfo_ops.collectd_rules, m, i, "drm_fdinfo", "gpu", &id);
    assert_true(strlen(id.plugin_instance) <= 63);
    snprintf(s->idents[s->n++], sizeof(s->idents[0]), "%s/%s-%s",
             id.plugin_instance, id.type, id.type_instance);
  }
  return 0;
}

static bool has_ident(const struct ident_sink *s, const char *want) {
  for (size_t i = 0; i < s->n; i++)
    if (strcmp(s->idents[i], want) == 0)
      return true;
  for (size_t i = 0; i < s->n; i++)
    fprintf(stderr, "# ident: %s\n", s->idents[i]);
  return false;
}

static void collectd_identities(void **state) {
  struct fixture *f = need_root(state);
  i915_device(f);
  fakeproc_process(&f->fp, 100, "py",
                   "/kubepods.slice/kubepods-pod" UID_
                   ".slice/cri-containerd-" ID ".scope");
  fakeproc_fd(&f->fp, 100, 3, "renderD128", fdinfo_i915(7, 1000, 0));
  fakeproc_process(&f->fp, 101, "x", "/user.slice/s.scope");
  fakeproc_fd(&f->fp, 101, 3, "renderD128", fdinfo_i915(8, 1000, 0));
  fakeproc_process(&f->fp, 102, "y", "/docker/" ID2);
  fakeproc_fd(&f->fp, 102, 3, "renderD128", fdinfo_i915(9, 1000, 0));
  fakeproc_write(&f->fp, "pods/ml_trainer-0_" UID "/cuda/0.log", "");
  char pods[600];
  snprintf(pods, sizeof(pods), "%s", in_root(f, "pods"));
  start(f, "ReportBy", "Container", "PodLogRoot", pods, "ContainerLogRoot",
        in_root(f, "none"), "DockerRoot", in_root(f, "none"), "PodmanRoot",
        in_root(f, "none"), NULL);
  struct ident_sink s = {.base = {.write = ident_write}};
  assert_int_equal(drm_fdinfo_ops.read(f->inst, &s.base), 0);
  assert_true(has_ident(&s, "gpu-0000:00:02.0-ml-trainer%2D0-4f8b1c2d3e4f/"
                            "gpu_time-render-busy_ns"));
  assert_true(has_ident(&s, "gpu-0000:00:02.0-host/gpu_time-render-busy_ns"));
  assert_true(
      has_ident(&s, "gpu-0000:00:02.0-111111111111/gpu_time-render-busy_ns"));
  for (size_t i = 0; i < s.n; i++)
    for (size_t k = i + 1; k < s.n; k++)
      assert_string_not_equal(s.idents[i], s.idents[k]);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(docker_names, dfx_setup, dfx_teardown),
      cmocka_unit_test_setup_teardown(podman_machines_host, dfx_setup,
                                      dfx_teardown),
      cmocka_unit_test_setup_teardown(kubelet_names, dfx_setup, dfx_teardown),
      cmocka_unit_test_setup_teardown(container_asked_while_running, dfx_setup,
                                      dfx_teardown),
      cmocka_unit_test_setup_teardown(unreadable_source, dfx_setup,
                                      dfx_teardown),
      cmocka_unit_test_setup_teardown(collectd_identities, dfx_setup,
                                      dfx_teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
