/*
 * container_state.h: container names from the state files Docker and
 * Podman keep on the host, for containers outside Kubernetes. Pure: the
 * JSON is decoded with yajl's parser from bytes, no I/O; fuzzed by
 * tests/fuzz/fuzz_container_state.c.
 *
 *   Docker  <DockerRoot>/containers/<id>/config.v2.json: an object whose
 *           top-level member "Name" is the name with a leading '/'
 *           (moby daemon/container: Container.Name, written by
 *           container.toDisk as config.v2.json)
 *   Podman  <storage>/<driver>-containers/containers.json (containers/
 *           storage containers.go: the container store's JSON file): an
 *           array of objects with "id" (64 hex) and "names" (strings; the
 *           first is the one `podman ps` shows)
 */
#ifndef COMMON_CONTAINER_CONTAINER_STATE_H
#define COMMON_CONTAINER_CONTAINER_STATE_H

#include "common/container/cgroup_id.h"

#include <stddef.h>

#define CONTAINER_NAME_MAX 128 /* a longer name is cut (it is no identity) */

/* The "Name" of a Docker config.v2.json (`len` bytes), without its
 * leading '/', sanitised (text.h) into `name` (CONTAINER_NAME_MAX + 1
 * bytes). 0, -ENOENT (no such member, or empty) or -EINVAL (not JSON, or
 * nested deeper than the decoder follows). */
int container_state_docker_name(const char *json, size_t len,
                                char name[CONTAINER_NAME_MAX + 1]);

/* Called for each container of a Podman containers.json: its id (64 hex)
 * and first name, sanitised. Entries whose id is not 64 hex digits or that
 * have no name are skipped. */
typedef void container_state_each_fn(const char *id, const char *name,
                                     void *arg);

/* Walk a Podman containers.json (`len` bytes). 0 or -EINVAL (not a JSON
 * array of objects; entries before the error were passed to `fn`). */
int container_state_podman_each(const char *json, size_t len,
                                container_state_each_fn *fn, void *arg);

#endif
