/*
 * dfi_names.c: container, pod and namespace names from the kubelet's log
 * layout and from Docker's and Podman's state files (dfi_names.h). The
 * names themselves are decoded by the pure common/container/ decoders;
 * this file lists, stats and reads, through the kernel seam, with bounds.
 */
#include "plugins/drm_fdinfo/dfi_names.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define DFI_PODMAN_JSON_MAX (16u << 20) /* containers.json read at most */
#define DFI_DOCKER_JSON_MAX (1u << 20)  /* config.v2.json read at most */

/* What a directory or file looked like when it was last read. */
struct dfi_stamp {
  bool have; /* it existed then */
  dev_t dev;
  ino_t ino;
  off_t size;
  struct timespec mtime;
  bool racy; /* read within DFI_NAMES_RACY_NS of its mtime: read again */
};

struct dfi_pod_name {
  char uid[CGROUP_ID_UID_MAX + 1];
  char namespace_[KUBE_LABEL_MAX + 1];
  char pod[KUBE_SUBDOMAIN_MAX + 1];
};

struct dfi_id_name {
  char id[CGROUP_ID_HEX_LEN + 1];
  char name[CONTAINER_NAME_MAX + 1];
  struct dfi_stamp stamp; /* Docker: of its config.v2.json */
  bool seen;              /* Docker: looked up since the last sweep */
};

/* The Podman storage drivers whose container store is read. */
static const char *const dfi_podman_drivers[] = {"overlay", "vfs", "btrfs",
                                                 "zfs"};
#define DFI_N_PODMAN_DRIVERS                                                   \
  (sizeof(dfi_podman_drivers) / sizeof(dfi_podman_drivers[0]))

struct dfi_names {
  struct dfi_stamp pods_stamp, links_stamp;
  struct dfi_stamp podman_stamp[DFI_N_PODMAN_DRIVERS];
  struct dfi_pod_name *pods;
  size_t n_pods, cap_pods;
  struct kube_log_link *links;
  size_t n_links, cap_links;
  struct dfi_id_name *podman;
  size_t n_podman, cap_podman;
  struct dfi_id_name *docker;
  size_t n_docker, cap_docker;
  bool podman_full;
  bool pods_set, links_set, docker_set, podman_set; /* configured */
  struct log_complaint pods_complaint, links_complaint, podman_complaint,
      docker_complaint, full_complaint;
};

static int dfi_pod_cmp(const void *a, const void *b) {
  return strcmp(((const struct dfi_pod_name *)a)->uid,
                ((const struct dfi_pod_name *)b)->uid);
}
static int dfi_link_cmp(const void *a, const void *b) {
  return strcmp(((const struct kube_log_link *)a)->id,
                ((const struct kube_log_link *)b)->id);
}
static int dfi_id_cmp(const void *a, const void *b) {
  return strcmp(((const struct dfi_id_name *)a)->id,
                ((const struct dfi_id_name *)b)->id);
}

/* Whether `path` must be read again; *st is updated to what it is now.
 * *err is the errno of a failed stat (0 otherwise). */
static bool dfi_stamp_check(struct dfi *d, const char *path,
                            struct dfi_stamp *st, int *err) {
  struct stat now;
  *err = 0;
  if (d->host->kernel->fstatat(AT_FDCWD, path, &now, 0) < 0) {
    *err = errno;
    bool had = st->have;
    memset(st, 0, sizeof(*st));
    return had; /* it went: the table empties */
  }
  bool changed = !st->have || st->racy || st->dev != now.st_dev ||
                 st->ino != now.st_ino || st->size != now.st_size ||
                 st->mtime.tv_sec != now.st_mtim.tv_sec ||
                 st->mtime.tv_nsec != now.st_mtim.tv_nsec;
  st->have = true;
  st->dev = now.st_dev;
  st->ino = now.st_ino;
  st->size = now.st_size;
  st->mtime = now.st_mtim;
  uint64_t mtime_ns = (uint64_t)now.st_mtim.tv_sec * 1000000000ULL +
                      (uint64_t)now.st_mtim.tv_nsec;
  st->racy = plugin_host_realtime_ns(d->host) < mtime_ns + DFI_NAMES_RACY_NS;
  return changed;
}

/* A failure to read a name source: said once (until it reads again), at
 * WARNING when the user configured it, else at INFO (the default paths
 * are only there on some hosts). ENOENT of a default path is silent. */
static void dfi_names_complain(struct log_complaint *c, const char *path,
                               const char *what, int err, bool configured) {
  if (err == ENOENT && !configured)
    return;
  if (!log_complaint_raise(c))
    return;
  const char *hint = err == EACCES || err == EPERM
                         ? "names need root or CAP_DAC_READ_SEARCH; the ids "
                           "stand for them"
                         : "the ids stand for the names it would give";
  log_errno(configured ? LOG_LEVEL_WARNING : LOG_LEVEL_INFO, DFI_PLUGIN, path,
            what, err, hint);
}

static void dfi_names_full(struct dfi_names *n, const char *path) {
  if (log_complaint_raise(&n->full_complaint))
    log_msg(LOG_LEVEL_WARNING, DFI_PLUGIN, path, "names",
            "more than %d entries: the rest are left out (their ids stand "
            "for their names)",
            DFI_NAMES_MAX);
}

/* List the entries of directory `path`, calling `take` for each name;
 * 0 or a negative errno. */
static int dfi_list(struct dfi *d, const char *path,
                    void (*take)(struct dfi *, const char *, const char *)) {
  const struct kernel_ops *k = d->host->kernel;
  int fd = k->open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
  if (fd < 0)
    return -errno;
  DIR *dir = k->fdopendir(fd);
  if (dir == NULL) {
    int err = errno;
    k->close(fd);
    return -err;
  }
  struct dirent *de;
  while ((de = k->readdir(dir)) != NULL)
    if (de->d_name[0] != '.')
      take(d, path, de->d_name);
  k->closedir(dir);
  return 0;
}

/* Room for one more entry in *arr (n used of *cap, `size` bytes each),
 * doubling up to DFI_NAMES_MAX; false when full (said once) or ENOMEM. */
static bool dfi_room(struct dfi_names *n, const char *root, void **arr,
                     size_t used, size_t *cap, size_t size) {
  if (used == DFI_NAMES_MAX) {
    dfi_names_full(n, root);
    return false;
  }
  if (used < *cap)
    return true;
  size_t want = *cap ? *cap * 2 : 64;
  if (want > DFI_NAMES_MAX)
    want = DFI_NAMES_MAX;
  void *p = realloc(*arr, want * size);
  if (p == NULL)
    return false;
  *arr = p;
  *cap = want;
  return true;
}

static void dfi_take_pod(struct dfi *d, const char *root, const char *name) {
  struct dfi_names *n = d->names;
  struct kube_pod_dir pd;
  if (kube_pod_dir_parse(name, strlen(name), &pd) < 0)
    return; /* not a pod log directory */
  if (!dfi_room(n, root, (void **)&n->pods, n->n_pods, &n->cap_pods,
                sizeof(*n->pods)))
    return;
  struct dfi_pod_name *e = &n->pods[n->n_pods++];
  memcpy(e->uid, pd.uid, sizeof(e->uid));
  memcpy(e->namespace_, pd.namespace_, sizeof(e->namespace_));
  memcpy(e->pod, pd.pod, sizeof(e->pod));
}

static void dfi_take_link(struct dfi *d, const char *root, const char *name) {
  struct dfi_names *n = d->names;
  struct kube_log_link l;
  if (kube_log_link_parse(name, strlen(name), &l) < 0)
    return; /* not a container log link (or one cut to 255 bytes) */
  if (!dfi_room(n, root, (void **)&n->links, n->n_links, &n->cap_links,
                sizeof(*n->links)))
    return;
  n->links[n->n_links++] = l;
}

static void dfi_refresh_pods(struct dfi *d, bool configured) {
  struct dfi_names *n = d->names;
  const char *root = d->cfg.pod_log_root;
  int err;
  if (!dfi_stamp_check(d, root, &n->pods_stamp, &err)) {
    if (err != 0)
      dfi_names_complain(&n->pods_complaint, root, "stat", err, configured);
    return;
  }
  n->n_pods = 0;
  if (err == 0)
    err = -dfi_list(d, root, dfi_take_pod);
  if (err != 0) {
    n->n_pods = 0;
    n->pods_stamp.have = false; /* tried again next read */
    dfi_names_complain(&n->pods_complaint, root, "opendir", err, configured);
    return;
  }
  log_complaint_release(&n->pods_complaint);
  if (n->n_pods > 1)
    qsort(n->pods, n->n_pods, sizeof(*n->pods), dfi_pod_cmp);
}

static void dfi_refresh_links(struct dfi *d, bool configured) {
  struct dfi_names *n = d->names;
  const char *root = d->cfg.container_log_root;
  int err;
  if (!dfi_stamp_check(d, root, &n->links_stamp, &err)) {
    if (err != 0)
      dfi_names_complain(&n->links_complaint, root, "stat", err, configured);
    return;
  }
  n->n_links = 0;
  if (err == 0)
    err = -dfi_list(d, root, dfi_take_link);
  if (err != 0) {
    n->n_links = 0;
    n->links_stamp.have = false;
    dfi_names_complain(&n->links_complaint, root, "opendir", err, configured);
    return;
  }
  log_complaint_release(&n->links_complaint);
  if (n->n_links > 1)
    qsort(n->links, n->n_links, sizeof(*n->links), dfi_link_cmp);
}

static void dfi_take_podman(const char *id, const char *name, void *arg) {
  struct dfi_names *n = arg;
  if (n->n_podman == DFI_NAMES_MAX) {
    n->podman_full = true;
    return;
  }
  if (n->n_podman == n->cap_podman) {
    size_t cap = n->cap_podman ? n->cap_podman * 2 : 64;
    struct dfi_id_name *p = realloc(n->podman, cap * sizeof(*p));
    if (p == NULL)
      return;
    n->podman = p;
    n->cap_podman = cap;
  }
  struct dfi_id_name *e = &n->podman[n->n_podman++];
  memset(e, 0, sizeof(*e));
  snprintf(e->id, sizeof(e->id), "%s", id);
  snprintf(e->name, sizeof(e->name), "%s", name);
}

static void dfi_refresh_podman(struct dfi *d, bool configured) {
  struct dfi_names *n = d->names;
  char path[PATH_MAX];
  bool changed = false;
  for (size_t i = 0; i < DFI_N_PODMAN_DRIVERS; i++) {
    int err;
    snprintf(path, sizeof(path), "%s/%s-containers/containers.json",
             d->cfg.podman_root, dfi_podman_drivers[i]);
    changed |= dfi_stamp_check(d, path, &n->podman_stamp[i], &err);
  }
  if (!changed)
    return;
  n->n_podman = 0;
  n->podman_full = false;
  bool any = false;
  for (size_t i = 0; i < DFI_N_PODMAN_DRIVERS; i++) {
    if (!n->podman_stamp[i].have)
      continue;
    snprintf(path, sizeof(path), "%s/%s-containers/containers.json",
             d->cfg.podman_root, dfi_podman_drivers[i]);
    int rc = fileio_read_at(AT_FDCWD, path, &d->buf, DFI_PODMAN_JSON_MAX);
    if (rc == 0)
      rc = container_state_podman_each(d->buf.data, d->buf.len, dfi_take_podman,
                                       n);
    if (rc < 0) {
      n->podman_stamp[i].have = false; /* tried again next read */
      dfi_names_complain(&n->podman_complaint, path, "containers.json", -rc,
                         configured);
      continue;
    }
    any = true;
  }
  if (any)
    log_complaint_release(&n->podman_complaint);
  if (n->podman_full)
    dfi_names_full(n, d->cfg.podman_root);
  if (n->n_podman > 1)
    qsort(n->podman, n->n_podman, sizeof(*n->podman), dfi_id_cmp);
}

/* Set a default root once; true when the user had configured it. */
static bool dfi_names_root(char **slot, const char *value) {
  if (*slot != NULL)
    return true;
  *slot = strdup(value);
  return false;
}

void dfi_names_refresh(struct dfi *d) {
  bool first = d->names == NULL;
  if (first) {
    struct dfi_names *n = calloc(1, sizeof(*n));
    if (n == NULL)
      return;
    /* the defaults, set once: the config keeps what the user gave */
    struct dfi_config *c = &d->cfg;
    n->pods_set = dfi_names_root(&c->pod_log_root, "/var/log/pods");
    n->links_set =
        dfi_names_root(&c->container_log_root, "/var/log/containers");
    n->docker_set = dfi_names_root(&c->docker_root, "/var/lib/docker");
    n->podman_set =
        dfi_names_root(&c->podman_root, "/var/lib/containers/storage");
    if (!c->pod_log_root || !c->container_log_root || !c->docker_root ||
        !c->podman_root) {
      free(n);
      return; /* ENOMEM: tried again next read */
    }
    d->names = n;
    /* a configured state root that is not there is said once */
    struct stat st;
    if (n->docker_set &&
        d->host->kernel->fstatat(AT_FDCWD, c->docker_root, &st, 0) < 0)
      dfi_names_complain(&n->docker_complaint, c->docker_root, "stat", errno,
                         /*configured=*/true);
    if (n->podman_set &&
        d->host->kernel->fstatat(AT_FDCWD, c->podman_root, &st, 0) < 0)
      dfi_names_complain(&n->podman_complaint, c->podman_root, "stat", errno,
                         /*configured=*/true);
  }
  struct dfi_names *n = d->names;
  dfi_refresh_pods(d, n->pods_set);
  dfi_refresh_links(d, n->links_set);
  dfi_refresh_podman(d, n->podman_set);
  if (first)
    log_msg(LOG_LEVEL_INFO, DFI_PLUGIN, "containers", "names",
            "%zu pod(s) under %s, %zu container link(s) under %s, %zu "
            "Podman container(s) under %s; Docker names from %s",
            n->n_pods, d->cfg.pod_log_root, n->n_links,
            d->cfg.container_log_root, n->n_podman, d->cfg.podman_root,
            d->cfg.docker_root);
}

/* The Docker name of container `id` from its config.v2.json, read again
 * when the file changed; NULL when there is none. */
static const char *dfi_docker_name(struct dfi *d, const char *id) {
  struct dfi_names *n = d->names;
  struct dfi_id_name key, *e = NULL;
  snprintf(key.id, sizeof(key.id), "%s", id);
  for (size_t i = 0; i < n->n_docker && e == NULL; i++)
    if (strcmp(n->docker[i].id, id) == 0)
      e = &n->docker[i];
  if (e == NULL) {
    if (n->n_docker == DFI_NAMES_MAX)
      return NULL;
    if (n->n_docker == n->cap_docker) {
      size_t cap = n->cap_docker ? n->cap_docker * 2 : 16;
      struct dfi_id_name *p = realloc(n->docker, cap * sizeof(*p));
      if (p == NULL)
        return NULL;
      n->docker = p;
      n->cap_docker = cap;
    }
    e = &n->docker[n->n_docker++];
    memset(e, 0, sizeof(*e));
    memcpy(e->id, key.id, sizeof(e->id));
  }
  e->seen = true;
  char path[PATH_MAX];
  snprintf(path, sizeof(path), "%s/containers/%s/config.v2.json",
           d->cfg.docker_root, id);
  int err;
  if (dfi_stamp_check(d, path, &e->stamp, &err)) {
    e->name[0] = '\0';
    if (err == 0) {
      int rc = fileio_read_at(AT_FDCWD, path, &d->buf, DFI_DOCKER_JSON_MAX);
      if (rc == 0)
        rc = container_state_docker_name(d->buf.data, d->buf.len, e->name);
      if (rc < 0 && rc != -ENOENT) {
        e->stamp.have = false;
        dfi_names_complain(&n->docker_complaint, path, "config.v2.json", -rc,
                           n->docker_set);
      }
    }
  }
  /* ENOENT: not a Docker container (a CRI runtime's id), or gone */
  if (err != 0 && err != ENOENT)
    dfi_names_complain(&n->docker_complaint, path, "stat", err, n->docker_set);
  return e->name[0] ? e->name : NULL;
}

void dfi_names_lookup(struct dfi *d, const struct cgroup_id *id,
                      struct dfi_ctr_names *out) {
  memset(out, 0, sizeof(*out));
  struct dfi_names *n = d->names;
  if (n == NULL)
    return;
  if (id->id[0] && n->n_links > 0) {
    struct kube_log_link key;
    memcpy(key.id, id->id, sizeof(key.id));
    const struct kube_log_link *l =
        bsearch(&key, n->links, n->n_links, sizeof(*n->links), dfi_link_cmp);
    if (l != NULL) {
      memcpy(out->namespace_, l->namespace_, sizeof(out->namespace_));
      memcpy(out->pod, l->pod, sizeof(out->pod));
      snprintf(out->container, sizeof(out->container), "%s", l->container);
    }
  }
  if (id->pod_uid[0] && n->n_pods > 0) {
    struct dfi_pod_name key;
    memcpy(key.uid, id->pod_uid, sizeof(key.uid));
    const struct dfi_pod_name *p =
        bsearch(&key, n->pods, n->n_pods, sizeof(*n->pods), dfi_pod_cmp);
    /* the pod's own directory is the authority on its names (a link may
     * be stale: a pod that went and came back under another name) */
    if (p != NULL) {
      memcpy(out->namespace_, p->namespace_, sizeof(out->namespace_));
      memcpy(out->pod, p->pod, sizeof(out->pod));
    }
  }
  if (out->container[0] || id->id[0] == '\0') {
    if (!out->container[0] && id->name[0])
      snprintf(out->container, sizeof(out->container), "%s", id->name);
    return;
  }
  const char *name = NULL;
  if (id->runtime == CGROUP_RUNTIME_PODMAN && n->n_podman > 0) {
    struct dfi_id_name key;
    memcpy(key.id, id->id, sizeof(key.id));
    const struct dfi_id_name *e =
        bsearch(&key, n->podman, n->n_podman, sizeof(*n->podman), dfi_id_cmp);
    name = e ? e->name : NULL;
  } else if (id->runtime == CGROUP_RUNTIME_DOCKER ||
             id->runtime == CGROUP_RUNTIME_CRI) {
    name = dfi_docker_name(d, id->id);
  }
  if (name != NULL)
    snprintf(out->container, sizeof(out->container), "%s", name);
}

void dfi_names_sweep(struct dfi *d) {
  struct dfi_names *n = d->names;
  if (n == NULL)
    return;
  size_t kept = 0;
  for (size_t i = 0; i < n->n_docker; i++)
    if (n->docker[i].seen) {
      n->docker[i].seen = false;
      n->docker[kept++] = n->docker[i];
    }
  n->n_docker = kept;
}

void dfi_names_free(struct dfi *d) {
  struct dfi_names *n = d->names;
  if (n == NULL)
    return;
  free(n->pods);
  free(n->links);
  free(n->podman);
  free(n->docker);
  free(n);
  d->names = NULL;
}
