/*
 * kube_log_name.h: pod and container names from the kubelet's log layout,
 * which names every pod and container on the node without an API client.
 * Pure: no I/O, no allocation; fuzzed by tests/fuzz/fuzz_kube_log_name.c.
 *
 * The kubelet (pkg/kubelet/kuberuntime/helpers.go: BuildPodLogsDirectory,
 * BuildContainerLogsDirectory) writes a container's log under
 *   <pod log root>/<namespace>_<pod>_<pod uid>/<container>/<restart>.log
 * (root /var/log/pods), and links it for the legacy log collectors
 * (kuberuntime_container.go: legacyLogSymlink, logSymlink) as
 *   /var/log/containers/<pod>_<namespace>_<container>-<container id>.log
 * cut to 255 bytes (ext4's NAME_MAX) when longer: a cut name has no whole
 * id and is refused here. Kubernetes names never hold '_': a namespace and
 * a container are RFC 1123 labels (a-z, 0-9, '-', at most 63 bytes), a pod
 * an RFC 1123 subdomain (also '.', at most 253), so the separators are
 * unambiguous; names that break these rules are refused, not guessed.
 */
#ifndef COMMON_CONTAINER_KUBE_LOG_NAME_H
#define COMMON_CONTAINER_KUBE_LOG_NAME_H

#include "common/container/cgroup_id.h"

#include <stddef.h>

#define KUBE_LABEL_MAX 63      /* namespace, container */
#define KUBE_SUBDOMAIN_MAX 253 /* pod */

/* "<namespace>_<pod>_<uid>", a directory of the pod log root. */
struct kube_pod_dir {
  char namespace_[KUBE_LABEL_MAX + 1];
  char pod[KUBE_SUBDOMAIN_MAX + 1];
  char uid[CGROUP_ID_UID_MAX + 1];
};

/* "<pod>_<namespace>_<container>-<id>.log", a link of the container log
 * directory. */
struct kube_log_link {
  char pod[KUBE_SUBDOMAIN_MAX + 1];
  char namespace_[KUBE_LABEL_MAX + 1];
  char container[KUBE_LABEL_MAX + 1];
  char id[CGROUP_ID_HEX_LEN + 1];
};

/* Parse a directory name (`len` bytes). 0 or -EINVAL; `out` is zeroed
 * first. */
int kube_pod_dir_parse(const char *name, size_t len, struct kube_pod_dir *out);

/* Parse a link name (`len` bytes). 0 or -EINVAL; `out` is zeroed first. */
int kube_log_link_parse(const char *name, size_t len,
                        struct kube_log_link *out);

#endif
