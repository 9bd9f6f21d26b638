/*
 * test_cgroup_id.c: container identity from cgroup paths and whole
 * /proc/<pid>/cgroup texts, one case per runtime and cgroup driver, each
 * shaped as the runtime's own source names it (cited per case; the rules
 * themselves are cited in common/container/cgroup_id.h), and hostile
 * lines: ids cut short, non-hex, upper case, 10 kB paths, "." and "..",
 * NUL bytes, lines without their colons.
 */
#include "common/container/cgroup_id.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#define ID "4f8b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b"
#define UID "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d"
#define UID_ "0a1b2c3d_4e5f_4a6b_8c7d_9e0f1a2b3c4d"
#define STATIC_UID "33d556edd3ae8ef21980288cef77ae8b" /* md5 hex */

static const struct {
  const char *path;
  int rc;
  enum cgroup_runtime runtime;
  const char *id, *name, *uid;
  enum cgroup_qos qos;
} cases[] = {
    /* Docker, systemd driver (moby daemon/oci_linux.go: "system.slice:
     * docker:<id>" -> runc libcontainer/cgroups/systemd "docker-<id>.scope") */
    {"/system.slice/docker-" ID ".scope", 0, CGROUP_RUNTIME_DOCKER, ID, "", "",
     0},
    /* Docker, cgroupfs driver: default cgroup parent "/docker" */
    {"/docker/" ID, 0, CGROUP_RUNTIME_DOCKER, ID, "", "", 0},
    /* Docker in Docker: the inner container is the one */
    {"/docker/" ID "/docker/"
     "1111111111111111111111111111111111111111111111111111111111111111",
     0, CGROUP_RUNTIME_DOCKER,
     "1111111111111111111111111111111111111111111111111111111111111111", "", "",
     0},
    /* Podman, systemd (libpod: "libpod-<id>.scope" under machine.slice) */
    {"/machine.slice/libpod-" ID ".scope", 0, CGROUP_RUNTIME_PODMAN, ID, "", "",
     0},
    /* Podman's payload sub-cgroup of the scope (cgroup v2, --cgroups=split
     * and systemd containers) */
    {"/machine.slice/libpod-" ID ".scope/container", 0, CGROUP_RUNTIME_PODMAN,
     ID, "", "", 0},
    /* rootless Podman under the user's systemd */
    {"/user.slice/user-1000.slice/user@1000.service/user.slice/libpod-" ID
     ".scope",
     0, CGROUP_RUNTIME_PODMAN, ID, "", "", 0},
    /* Podman, cgroupfs (libpod/define: CgroupfsDefaultCgroupParent) */
    {"/libpod_parent/libpod-" ID, 0, CGROUP_RUNTIME_PODMAN, ID, "", "", 0},
    /* conmon, Podman's monitor: not the container */
    {"/machine.slice/libpod-conmon-" ID ".scope", -ENOENT, 0, "", "", "", 0},
    /* containerd CRI, systemd driver, burstable pod (kubelet
     * cgroup_manager_linux.go: ToSystemd, escapeSystemdCgroupName) */
    {"/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod" UID_
     ".slice/cri-containerd-" ID ".scope",
     0, CGROUP_RUNTIME_CONTAINERD, ID, "", UID, CGROUP_QOS_BURSTABLE},
    /* guaranteed pods sit directly under kubepods */
    {"/kubepods.slice/kubepods-pod" UID_ ".slice/cri-containerd-" ID ".scope",
     0, CGROUP_RUNTIME_CONTAINERD, ID, "", UID, CGROUP_QOS_GUARANTEED},
    /* containerd's unconverted systemd path */
    {"/kubepods-besteffort-pod" UID_ ".slice:cri-containerd:" ID, 0,
     CGROUP_RUNTIME_CONTAINERD, ID, "", UID, CGROUP_QOS_BESTEFFORT},
    /* CRI-O, systemd (internal/config/cgmgr: CrioPrefix "crio") */
    {"/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod" UID_
     ".slice/crio-" ID ".scope",
     0, CGROUP_RUNTIME_CRIO, ID, "", UID, CGROUP_QOS_BESTEFFORT},
    /* CRI-O's conmon scope: the pod, no container */
    {"/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod" UID_
     ".slice/crio-conmon-" ID ".scope",
     0, CGROUP_RUNTIME_NONE, "", "", UID, CGROUP_QOS_BESTEFFORT},
    /* CRI-O, cgroupfs */
    {"/kubepods/burstable/pod" UID "/crio-" ID, 0, CGROUP_RUNTIME_CRIO, ID, "",
     UID, CGROUP_QOS_BURSTABLE},
    /* kubelet cgroupfs driver: the bare id, runtime not named */
    {"/kubepods/burstable/pod" UID "/" ID, 0, CGROUP_RUNTIME_CRI, ID, "", UID,
     CGROUP_QOS_BURSTABLE},
    {"/kubepods/besteffort/pod" UID "/" ID, 0, CGROUP_RUNTIME_CRI, ID, "", UID,
     CGROUP_QOS_BESTEFFORT},
    {"/kubepods/pod" UID "/" ID, 0, CGROUP_RUNTIME_CRI, ID, "", UID,
     CGROUP_QOS_GUARANTEED},
    /* a static pod: its uid is 32 hex digits (the kubelet's md5) */
    {"/kubepods/burstable/pod" STATIC_UID "/" ID, 0, CGROUP_RUNTIME_CRI, ID, "",
     STATIC_UID, CGROUP_QOS_BURSTABLE},
    /* --cgroup-root=/kubelet with the systemd driver */
    {"/kubelet.slice/kubelet-kubepods.slice/kubelet-kubepods-burstable.slice/"
     "kubelet-kubepods-burstable-pod" UID_ ".slice/cri-containerd-" ID ".scope",
     0, CGROUP_RUNTIME_CONTAINERD, ID, "", UID, CGROUP_QOS_BURSTABLE},
    /* a process in the pod's cgroup itself (no container) */
    {"/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod" UID_
     ".slice",
     0, CGROUP_RUNTIME_NONE, "", "", UID, CGROUP_QOS_BURSTABLE},
    /* systemd-nspawn (src/machine/machine.c: "machine-" + unit_name_escape) */
    {"/machine.slice/machine-fedora.scope", 0, CGROUP_RUNTIME_NSPAWN, "",
     "fedora", "", 0},
    {"/machine.slice/machine-test\\x2dvm.scope/payload", 0,
     CGROUP_RUNTIME_NSPAWN, "", "test-vm", "", 0},
    /* LXC 4+ (cgroup.h: DEFAULT_PAYLOAD_CGROUP_PREFIX), its inner systemd */
    {"/lxc.payload.web1/system.slice/nginx.service", 0, CGROUP_RUNTIME_LXC, "",
     "web1", "", 0},
    /* LXC before 4: "lxc/<name>" */
    {"/lxc/web1", 0, CGROUP_RUNTIME_LXC, "", "web1", "", 0},
    /* a private cgroup namespace: the runtime's path after "/.." levels
     * (fs/kernfs/dir.c: kernfs_path_from_node_locked) */
    {"/../../kubepods-burstable.slice/kubepods-burstable-pod" UID_
     ".slice/cri-containerd-" ID ".scope",
     0, CGROUP_RUNTIME_CONTAINERD, ID, "", UID, CGROUP_QOS_BURSTABLE},
    /* no container: services, sessions, the root */
    {"/system.slice/docker.service", -ENOENT, 0, "", "", "", 0},
    {"/user.slice/user-1000.slice/session-3.scope", -ENOENT, 0, "", "", "", 0},
    {"/", -ENOENT, 0, "", "", "", 0},
    {"/init.scope", -ENOENT, 0, "", "", "", 0},
    /* hostile: ids cut short, one digit too many, non-hex, upper case */
    {"/system.slice/docker-4f8b1c2d3e4f.scope", -ENOENT, 0, "", "", "", 0},
    {"/system.slice/docker-" ID "0.scope", -ENOENT, 0, "", "", "", 0},
    {"/docker/4f8b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0g",
     -ENOENT, 0, "", "", "", 0},
    {"/docker/4F8B1C2D3E4F5A6B7C8D9E0F1A2B3C4D5E6F7A8B9C0D1E2F3A4B5C6D7E8F9A0B",
     -ENOENT, 0, "", "", "", 0},
    /* a static pod's manifest may set any uid (config/common.go) */
    {"/kubepods/burstable/podweb-1.a/" ID, 0, CGROUP_RUNTIME_CRI, ID, "",
     "web-1.a", CGROUP_QOS_BURSTABLE},
    {"/kubepods.slice/kubepods-podweb_1.slice/cri-containerd-" ID ".scope", 0,
     CGROUP_RUNTIME_CONTAINERD, ID, "", "web-1", CGROUP_QOS_GUARANTEED},
    /* a uid no kubelet writes is no pod; the bare id under it no CRI id:
     * empty, '_' in the cgroupfs form, a space, 65 bytes */
    {"/kubepods/burstable/pod/" ID, -ENOENT, 0, "", "", "", 0},
    {"/kubepods/burstable/pod0a1b_2c3d/" ID, -ENOENT, 0, "", "", "", 0},
    {"/kubepods/burstable/pod0a1b 2c3d/" ID, -ENOENT, 0, "", "", "", 0},
    {"/kubepods/burstable/pod"
     "0123456789012345678901234567890123456789012345678901234567890123"
     "4/" ID,
     -ENOENT, 0, "", "", "", 0},
    /* a pod directory outside kubepods is nothing */
    {"/burstable/pod" UID "/" ID, -ENOENT, 0, "", "", "", 0},
    /* ".." past the start, ".", empty components, no leading '/' */
    {"/docker/../docker/" ID, -EINVAL, 0, "", "", "", 0},
    {"/docker/./" ID, -EINVAL, 0, "", "", "", 0},
    {"/docker//" ID, -EINVAL, 0, "", "", "", 0},
    {"/docker/" ID "/", -EINVAL, 0, "", "", "", 0},
    {"docker/" ID, -EINVAL, 0, "", "", "", 0},
    {"", -EINVAL, 0, "", "", "", 0},
    /* a machine name with a control byte or an escape cut short */
    {"/machine.slice/machine-a\\x0ab.scope", -ENOENT, 0, "", "", "", 0},
    {"/machine.slice/machine-ab\\x2.scope", -ENOENT, 0, "", "", "", 0},
};

static void cgroup_id_path_parse__runtimes(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    struct cgroup_id id;
    int rc = cgroup_id_path_parse(cases[i].path, strlen(cases[i].path), &id);
    if (rc != cases[i].rc)
      fail_msg("%s: rc %d, want %d", cases[i].path, rc, cases[i].rc);
    if (id.runtime != cases[i].runtime || strcmp(id.id, cases[i].id) != 0 ||
        strcmp(id.name, cases[i].name) != 0 ||
        strcmp(id.pod_uid, cases[i].uid) != 0 || id.qos != cases[i].qos)
      fail_msg("%s: runtime %d id \"%s\" name \"%s\" uid \"%s\" qos %d",
               cases[i].path, (int)id.runtime, id.id, id.name, id.pod_uid,
               (int)id.qos);
  }
}

/* 10 kB paths: refused past PATH_MAX; a 255-byte component is the most a
 * kernfs name holds. */
static void cgroup_id_path_parse__long(void **state) {
  (void)state;
  size_t len = 10 * 1024;
  char *p = malloc(len);
  assert_non_null(p);
  for (size_t i = 0; i < len; i++)
    p[i] = i % 100 == 0 ? '/' : 'a';
  struct cgroup_id id;
  assert_int_equal(cgroup_id_path_parse(p, len, &id), -E2BIG);
  free(p);
  /* long but legal, the container at its end */
  char q[CGROUP_ID_PATH_MAX + 1];
  size_t n = 0;
  while (n + 100 < CGROUP_ID_PATH_MAX - 80) {
    q[n++] = '/';
    memset(q + n, 'b', 99);
    n += 99;
  }
  n += (size_t)sprintf(q + n, "/docker/%s", ID);
  assert_int_equal(cgroup_id_path_parse(q, n, &id), 0);
  assert_string_equal(id.id, ID);
  /* one component of 256 bytes */
  char r[300] = "/";
  memset(r + 1, 'c', 256);
  assert_int_equal(cgroup_id_path_parse(r, 257, &id), -EINVAL);
  /* a NUL inside the length */
  char s[] = "/docker/\0" ID;
  assert_int_equal(cgroup_id_path_parse(s, sizeof(s) - 1, &id), -EINVAL);
}

/* The length bounds the scan: the same bytes cut before the id's end. */
static void cgroup_id_path_parse__length_bounds(void **state) {
  (void)state;
  const char *p = "/docker/" ID;
  struct cgroup_id id;
  assert_int_equal(cgroup_id_path_parse(p, strlen(p) - 1, &id), -ENOENT);
}

/* Whole files: v2, v1, hybrid (systemd's unified hierarchy beside the v1
 * controllers, kernel/cgroup/cgroup.c: proc_cgroup_show prints each). */
static void cgroup_id_parse__files(void **state) {
  (void)state;
  struct cgroup_id id;
  /* cgroup v2 */
  const char *v2 = "0::/system.slice/docker-" ID ".scope\n";
  assert_int_equal(cgroup_id_parse(v2, strlen(v2), &id), 0);
  assert_int_equal(id.runtime, CGROUP_RUNTIME_DOCKER);
  /* v1 only, cgroupfs docker */
  const char *v1 = "12:memory:/docker/" ID "\n"
                   "11:cpu,cpuacct:/docker/" ID "\n"
                   "1:name=systemd:/docker/" ID "\n";
  assert_int_equal(cgroup_id_parse(v1, strlen(v1), &id), 0);
  assert_string_equal(id.id, ID);
  /* hybrid: the unified line is "/", name=systemd carries the path */
  const char *hy = "9:name=systemd:/kubepods/burstable/pod" UID "/" ID "\n"
                   "4:memory:/\n"
                   "0::/\n";
  assert_int_equal(cgroup_id_parse(hy, strlen(hy), &id), 0);
  assert_int_equal(id.runtime, CGROUP_RUNTIME_CRI);
  assert_string_equal(id.pod_uid, UID);
  /* hybrid: only memory carries it (this test machine's own shape) */
  const char *mem = "9:name=systemd:/\n"
                    "4:memory:/libpod_parent/libpod-" ID "\n"
                    "1:cpu:/\n"
                    "0::/\n";
  assert_int_equal(cgroup_id_parse(mem, strlen(mem), &id), 0);
  assert_int_equal(id.runtime, CGROUP_RUNTIME_PODMAN);
  /* the unified line wins over v1 lines naming something else */
  const char *both = "4:memory:/docker/" ID "\n"
                     "0::/machine.slice/machine-box.scope\n";
  assert_int_equal(cgroup_id_parse(both, strlen(both), &id), 0);
  assert_int_equal(id.runtime, CGROUP_RUNTIME_NSPAWN);
  /* name=systemd before memory */
  const char *order = "4:memory:/lxc.payload.m\n"
                      "1:name=systemd:/lxc.payload.s\n";
  assert_int_equal(cgroup_id_parse(order, strlen(order), &id), 0);
  assert_string_equal(id.name, "s");
  /* a path holding ':' (containerd's unconverted form) keeps it */
  const char *colon = "0::/kubepods-pod" UID_ ".slice:cri-containerd:" ID;
  assert_int_equal(cgroup_id_parse(colon, strlen(colon), &id), 0);
  assert_int_equal(id.runtime, CGROUP_RUNTIME_CONTAINERD);
  /* nothing: a host process */
  const char *host = "0::/user.slice/user-0.slice/session-1.scope\n";
  assert_int_equal(cgroup_id_parse(host, strlen(host), &id), -ENOENT);
  assert_int_equal(id.runtime, CGROUP_RUNTIME_NONE);
  /* not the format: no colons, a non-numeric hierarchy id, empty */
  const char *junk = "hello\nx:memory:/docker/" ID "\n";
  assert_int_equal(cgroup_id_parse(junk, strlen(junk), &id), -EINVAL);
  assert_int_equal(cgroup_id_parse("", 0, &id), -EINVAL);
  /* a line cut before its path's end: the length bounds it */
  const char *cut = "0::/docker/" ID;
  assert_int_equal(cgroup_id_parse(cut, strlen(cut) - 10, &id), -ENOENT);
}

static void cgroup_id__names(void **state) {
  (void)state;
  assert_string_equal(cgroup_runtime_name(CGROUP_RUNTIME_CRIO), "cri-o");
  assert_string_equal(cgroup_runtime_name(CGROUP_RUNTIME_NSPAWN),
                      "systemd-nspawn");
  assert_string_equal(cgroup_runtime_name(CGROUP_RUNTIME_NONE), "");
  assert_string_equal(cgroup_qos_name(CGROUP_QOS_BESTEFFORT), "besteffort");
  assert_true(cgroup_id_is_uid(UID, strlen(UID)));
  assert_true(cgroup_id_is_uid(STATIC_UID, strlen(STATIC_UID)));
  assert_false(cgroup_id_is_uid(UID_, strlen(UID_)));
  assert_false(cgroup_id_is_uid("", 0));
  assert_false(cgroup_id_is_hex64(ID, 63));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(cgroup_id_path_parse__runtimes),
      cmocka_unit_test(cgroup_id_path_parse__long),
      cmocka_unit_test(cgroup_id_path_parse__length_bounds),
      cmocka_unit_test(cgroup_id_parse__files),
      cmocka_unit_test(cgroup_id__names),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
