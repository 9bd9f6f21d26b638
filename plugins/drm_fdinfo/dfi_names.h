/*
 * dfi_names.h: the names of the containers ReportBy Container reports,
 * without an API client (plugins/drm_fdinfo/README.md, "Containers and
 * pods", says what is read and with which rights):
 *
 *   PodLogRoot        <namespace>_<pod>_<uid>/ directories: a pod uid's
 *                     namespace and name
 *   ContainerLogRoot  <pod>_<namespace>_<container>-<id>.log links: a
 *                     container id's container, pod and namespace names
 *   DockerRoot        containers/<id>/config.v2.json: a Docker container's
 *                     name
 *   PodmanRoot        <driver>-containers/containers.json: Podman's names
 *
 * A directory is listed again when its inode or mtime changed (a pod or a
 * container came, went or was renamed), and once more while its mtime is
 * within DFI_NAMES_RACY_NS of the listing (a change in the same clock tick
 * would not move it); a state file is read again when it changed. Each
 * table holds at most DFI_NAMES_MAX entries (more are left out and said
 * once). Names are looked up at every read, so a name that went or
 * changed is gone from the next read's records.
 */
#ifndef PLUGINS_DRM_FDINFO_DFI_NAMES_H
#define PLUGINS_DRM_FDINFO_DFI_NAMES_H

#include "common/container/cgroup_id.h"
#include "common/container/container_state.h"
#include "common/container/kube_log_name.h"
#include "plugins/drm_fdinfo/dfi.h"

#define DFI_NAMES_MAX 16384                      /* entries per table */
#define DFI_NAMES_RACY_NS (2ULL * 1000000000ULL) /* see above */

/* The names of one container, "" where unknown. */
struct dfi_ctr_names {
  char namespace_[KUBE_LABEL_MAX + 1];
  char pod[KUBE_SUBDOMAIN_MAX + 1];
  char container[CONTAINER_NAME_MAX + 1];
};

/* Bring the tables up to date (ReportBy Container only; the first call
 * creates d->names and says at INFO which sources are readable). */
void dfi_names_refresh(struct dfi *d);

/* The names of container `id` as the tables know them now. Kubernetes
 * pods: namespace and pod from the pod log directory of its uid (else
 * from the container's log link), the container from its link. Docker
 * and Podman containers outside Kubernetes: from their state files.
 * Machines and LXC containers: their own names. */
void dfi_names_lookup(struct dfi *d, const struct cgroup_id *id,
                      struct dfi_ctr_names *out);

/* Forget the Docker names of containers not looked up since the last
 * call (called once per read, after the lookups). */
void dfi_names_sweep(struct dfi *d);

/* Free the tables; NULL-safe. */
void dfi_names_free(struct dfi *d);

#endif
