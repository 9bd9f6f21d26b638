/*
 * cgroup_id.h: which container a process runs in, read from its cgroup
 * path the way the runtimes name their cgroups. Pure: no I/O, no
 * allocation; the libFuzzer target is tests/fuzz/fuzz_cgroup_id.c.
 *
 * /proc/<pid>/cgroup (kernel/cgroup/cgroup.c: proc_cgroup_show) has one
 * line per hierarchy, "hierarchy-ID:controller-list:path": "0::path" for
 * the unified (v2) hierarchy, "4:memory:path" or "9:name=systemd:path"
 * for v1 ones. The path is relative to the reader's cgroup namespace
 * root: a cgroup above it is printed with one "/.." per level
 * (fs/kernfs/dir.c: kernfs_path_from_node_locked), which a monitor in a
 * container with its own cgroup namespace sees for every other pod.
 *
 * The scope and slice names, each from the runtime's own source:
 *   docker        systemd driver "docker-<id>.scope" (moby
 *                 daemon/oci_linux.go, cgroupsPath "system.slice:docker:<id>",
 *                 which runc's libcontainer/cgroups/systemd turns into
 *                 "<prefix>-<name>.scope"); cgroupfs "/docker/<id>" (the
 *                 default cgroup parent "/docker")
 *   podman        "libpod-<id>.scope" (systemd), "/libpod_parent/libpod-<id>"
 *                 (cgroupfs: libpod/define CgroupfsDefaultCgroupParent);
 *                 "libpod-conmon-<id>.scope" is its monitor, not the
 *                 container
 *   containerd    "cri-containerd-<id>.scope" (CRI plugin, systemd driver:
 *                 cgroupsPath "<slice>:cri-containerd:<id>"); with cgroupfs
 *                 the bare id under the pod's cgroup; the unconverted form
 *                 "...slice:cri-containerd:<id>" some setups leave
 *   cri-o         "crio-<id>.scope" (internal/config/cgmgr: CrioPrefix
 *                 "crio"), "crio-<id>" under cgroupfs; "crio-conmon-<id>"
 *                 is its monitor
 *   systemd-nspawn (any machined machine) "machine-<name>.scope" under
 *                 machine.slice, the name escaped as a unit name
 *                 (src/machine/machine.c: "machine-" + unit_name_escape)
 *   lxc           "lxc.payload.<name>" (src/lxc/cgroups/cgroup.h:
 *                 DEFAULT_PAYLOAD_CGROUP_PREFIX), before LXC 4 "lxc/<name>"
 *   Kubernetes    the pod's cgroup "pod<uid>" under "kubepods" (guaranteed
 *                 pods) or "kubepods/burstable", "kubepods/besteffort"
 *                 (cgroupfs driver), or with the systemd driver the slice
 *                 "kubepods-burstable-pod<uid>.slice" with every '-' of
 *                 the uid written '_' (kubelet pkg/kubelet/cm:
 *                 podCgroupNamePrefix "pod", cgroup_manager_linux.go:
 *                 escapeSystemdCgroupName, CgroupName.ToSystemd)
 * Container ids are 64 lowercase hex digits; a pod uid is a UUID
 * (8-4-4-4-12 hex), for a static pod 32 hex digits (the kubelet's md5 of
 * the manifest) or the uid its manifest sets: letters, digits, '-', '.'.
 */
#ifndef COMMON_CONTAINER_CGROUP_ID_H
#define COMMON_CONTAINER_CGROUP_ID_H

#include <stdbool.h>
#include <stddef.h>

#define CGROUP_ID_HEX_LEN 64        /* a container id */
#define CGROUP_ID_SHORT_LEN 12      /* the short form `docker ps` shows */
#define CGROUP_ID_UID_MAX 64        /* a pod uid (a UUID is 36) */
#define CGROUP_ID_NAME_MAX 64       /* a machine or LXC name, unescaped */
#define CGROUP_ID_PATH_MAX 4096     /* PATH_MAX: proc_cgroup_show's buffer */
#define CGROUP_ID_COMPONENT_MAX 255 /* NAME_MAX of a kernfs node */

enum cgroup_runtime {
  CGROUP_RUNTIME_NONE = 0, /* no container in the path */
  CGROUP_RUNTIME_DOCKER,
  CGROUP_RUNTIME_PODMAN,
  CGROUP_RUNTIME_CONTAINERD,
  CGROUP_RUNTIME_CRIO,
  CGROUP_RUNTIME_NSPAWN,
  CGROUP_RUNTIME_LXC,
  CGROUP_RUNTIME_CRI, /* a bare id under a kubelet pod: a CRI runtime the
                         path does not name (cgroupfs driver) */
};

enum cgroup_qos {
  CGROUP_QOS_NONE = 0, /* not a pod */
  CGROUP_QOS_GUARANTEED,
  CGROUP_QOS_BURSTABLE,
  CGROUP_QOS_BESTEFFORT,
};

struct cgroup_id {
  enum cgroup_runtime runtime;
  char id[CGROUP_ID_HEX_LEN + 1];      /* 64 hex digits, or "" (nspawn,
                                          lxc: the name is the identity) */
  char name[CGROUP_ID_NAME_MAX + 1];   /* machine or LXC name, or "" */
  char pod_uid[CGROUP_ID_UID_MAX + 1]; /* with '-', or "" */
  enum cgroup_qos qos;
};

/* Parse one cgroup path (`len` bytes, need not be NUL-terminated) into
 * `out` (zeroed first). The innermost container scope wins (a container
 * inside a container is the inner one); the pod is the pod cgroup above
 * it. Leading "/.." components (above our cgroup namespace) are skipped.
 * 0: a container or a pod was found; -ENOENT: neither (a service, a user
 * session, "/"); -EINVAL: not a path the kernel prints ("." or ".." past
 * the start, an empty or over-long component, no leading '/'); -E2BIG:
 * longer than CGROUP_ID_PATH_MAX. Ids cut short, ids with a non-hex
 * digit, uids of the wrong shape are not ids: that component names no
 * container. */
int cgroup_id_path_parse(const char *path, size_t len, struct cgroup_id *out);

/* Parse a whole /proc/<pid>/cgroup text: the unified "0::" line first,
 * then "name=systemd", then "memory", then the other v1 lines in order;
 * the first path that names a container or a pod is used (on a hybrid
 * host the unified line may be "/" while a v1 line carries the runtime's
 * path). 0, -ENOENT (no line names one) or -EINVAL (no line of the
 * format at all). */
int cgroup_id_parse(const char *text, size_t len, struct cgroup_id *out);

/* "docker", "podman", "containerd", "cri-o", "systemd-nspawn", "lxc",
 * "cri"; "" for CGROUP_RUNTIME_NONE. */
const char *cgroup_runtime_name(enum cgroup_runtime rt);

/* "guaranteed", "burstable", "besteffort"; "" for CGROUP_QOS_NONE. */
const char *cgroup_qos_name(enum cgroup_qos qos);

/* True when `s` (len bytes) may be a pod uid: 1 to CGROUP_ID_UID_MAX
 * letters, digits, '-' and '.' (cgroup_id.c, cgi_uid_with, says why). */
bool cgroup_id_is_uid(const char *s, size_t len);

/* True when `s` (len bytes) is 64 lowercase hex digits. */
bool cgroup_id_is_hex64(const char *s, size_t len);

#endif
