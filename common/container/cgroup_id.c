/*
 * cgroup_id.c: container identity from cgroup paths (cgroup_id.h, which
 * cites the runtimes' naming of each form).
 */
#include "common/container/cgroup_id.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>

static bool cgi_has_prefix(const char *s, size_t len, const char *prefix,
                           size_t *plen) {
  size_t n = strlen(prefix);
  *plen = n;
  return len >= n && memcmp(s, prefix, n) == 0;
}

static bool cgi_has_suffix(const char *s, size_t len, const char *suffix) {
  size_t n = strlen(suffix);
  return len >= n && memcmp(s + len - n, suffix, n) == 0;
}

static bool cgi_is(const char *s, size_t len, const char *word) {
  return strlen(word) == len && memcmp(s, word, len) == 0;
}

static bool cgi_hex(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

bool cgroup_id_is_hex64(const char *s, size_t len) {
  if (len != CGROUP_ID_HEX_LEN)
    return false;
  for (size_t i = 0; i < len; i++)
    if (!cgi_hex(s[i]))
      return false;
  return true;
}

/* A uid whose dashes are written `dash` (the systemd driver writes '_').
 * The API server gives UUIDs and the kubelet a static pod the md5 of its
 * manifest in hex, but a static pod's manifest may set any uid
 * (pkg/kubelet/config/common.go: applyDefaults keeps a given one): any
 * letters, digits, '-' and '.', as the kubelet's cgroup names take them
 * (NewCgroupName refuses '/' and '_'), at most CGROUP_ID_UID_MAX. */
static bool cgi_uid_with(const char *s, size_t len, char dash) {
  if (len == 0 || len > CGROUP_ID_UID_MAX)
    return false;
  for (size_t i = 0; i < len; i++) {
    char c = s[i];
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
          (c >= 'A' && c <= 'Z') || c == '.' || c == dash))
      return false;
  }
  return true;
}

bool cgroup_id_is_uid(const char *s, size_t len) {
  return cgi_uid_with(s, len, '-');
}

static void cgi_set_uid(struct cgroup_id *out, const char *s, size_t len) {
  memcpy(out->pod_uid, s, len);
  out->pod_uid[len] = '\0';
  for (size_t i = 0; i < len; i++)
    if (out->pod_uid[i] == '_')
      out->pod_uid[i] = '-';
}

static void cgi_set_container(struct cgroup_id *out, enum cgroup_runtime rt,
                              const char *id) {
  out->runtime = rt;
  memcpy(out->id, id, CGROUP_ID_HEX_LEN);
  out->id[CGROUP_ID_HEX_LEN] = '\0';
  out->name[0] = '\0';
}

/* A machine or LXC name: printable ASCII but '/', at most
 * CGROUP_ID_NAME_MAX bytes once `\xNN` escapes (unit_name_escape) are
 * undone when `unescape`. false: not a name we report. */
static bool cgi_set_name(struct cgroup_id *out, enum cgroup_runtime rt,
                         const char *s, size_t len, bool unescape) {
  char name[CGROUP_ID_NAME_MAX + 1];
  size_t n = 0;
  for (size_t i = 0; i < len; i++) {
    unsigned char c = (unsigned char)s[i];
    if (unescape && c == '\\') {
      /* systemd's unit_name_escape writes a byte as \xNN */
      if (len - i < 4)
        return false;
      if (s[i + 1] != 'x' || !cgi_hex(s[i + 2]) || !cgi_hex(s[i + 3]))
        return false;
      unsigned hi =
          (unsigned)(s[i + 2] <= '9' ? s[i + 2] - '0' : s[i + 2] - 'a' + 10);
      unsigned lo =
          (unsigned)(s[i + 3] <= '9' ? s[i + 3] - '0' : s[i + 3] - 'a' + 10);
      c = (unsigned char)(hi << 4 | lo);
      i += 3;
    }
    if (c <= 0x20 || c >= 0x7f || c == '/' || n == CGROUP_ID_NAME_MAX)
      return false;
    name[n++] = (char)c;
  }
  if (n == 0)
    return false;
  name[n] = '\0';
  out->runtime = rt;
  out->id[0] = '\0';
  memcpy(out->name, name, n + 1);
  return true;
}

/* "kubepods[-qos]-pod<uid>.slice" (systemd driver, any cgroup root in
 * front: "kubelet-kubepods-..."). */
static bool cgi_kube_slice(struct cgroup_id *out, const char *s, size_t len) {
  if (!cgi_has_suffix(s, len, ".slice"))
    return false;
  len -= strlen(".slice");
  const char *dash = NULL;
  for (size_t i = len; i > 0; i--)
    if (s[i - 1] == '-') {
      dash = s + i - 1;
      break;
    }
  if (dash == NULL)
    return false;
  const char *pod = dash + 1;
  size_t pod_len = len - (size_t)(pod - s), plen;
  if (!cgi_has_prefix(pod, pod_len, "pod", &plen) ||
      !cgi_uid_with(pod + plen, pod_len - plen, '_'))
    return false;
  /* the parts before: ...-kubepods[-burstable|-besteffort] */
  size_t head = (size_t)(dash - s);
  enum cgroup_qos qos = CGROUP_QOS_GUARANTEED;
  if (cgi_has_suffix(s, head, "-burstable") || cgi_is(s, head, "burstable")) {
    qos = CGROUP_QOS_BURSTABLE;
    head -= strlen("burstable");
  } else if (cgi_has_suffix(s, head, "-besteffort") ||
             cgi_is(s, head, "besteffort")) {
    qos = CGROUP_QOS_BESTEFFORT;
    head -= strlen("besteffort");
  }
  if (head > 0 && s[head - 1] == '-')
    head--;
  if (!cgi_is(s, head, "kubepods") && !cgi_has_suffix(s, head, "-kubepods"))
    return false;
  cgi_set_uid(out, pod + plen, pod_len - plen);
  out->qos = qos;
  return true;
}

/* Systemd scope units of the runtimes: "<prefix>-<id>.scope". */
static bool cgi_scope(struct cgroup_id *out, const char *s, size_t len) {
  static const struct {
    const char *prefix;
    enum cgroup_runtime rt; /* NONE: a monitor (conmon), not a container */
  } scopes[] = {
      {"docker-", CGROUP_RUNTIME_DOCKER},
      {"libpod-conmon-", CGROUP_RUNTIME_NONE},
      {"libpod-", CGROUP_RUNTIME_PODMAN},
      {"cri-containerd-", CGROUP_RUNTIME_CONTAINERD},
      {"crio-conmon-", CGROUP_RUNTIME_NONE},
      {"crio-", CGROUP_RUNTIME_CRIO},
  };
  if (!cgi_has_suffix(s, len, ".scope"))
    return false;
  len -= strlen(".scope");
  size_t plen;
  for (size_t i = 0; i < sizeof(scopes) / sizeof(scopes[0]); i++)
    if (cgi_has_prefix(s, len, scopes[i].prefix, &plen)) {
      if (scopes[i].rt == CGROUP_RUNTIME_NONE ||
          !cgroup_id_is_hex64(s + plen, len - plen))
        return false;
      cgi_set_container(out, scopes[i].rt, s + plen);
      return true;
    }
  if (cgi_has_prefix(s, len, "machine-", &plen))
    return cgi_set_name(out, CGROUP_RUNTIME_NSPAWN, s + plen, len - plen,
                        /*unescape=*/true);
  return false;
}

/* The cgroupfs forms: `parent` is the component before (or NULL). */
static bool cgi_cgroupfs(struct cgroup_id *out, const char *s, size_t len,
                         const char *parent, size_t parent_len,
                         bool under_pod) {
  size_t plen;
  if (cgroup_id_is_hex64(s, len)) {
    if (parent != NULL && cgi_is(parent, parent_len, "docker")) {
      cgi_set_container(out, CGROUP_RUNTIME_DOCKER, s);
      return true;
    }
    if (under_pod) {
      cgi_set_container(out, CGROUP_RUNTIME_CRI, s);
      return true;
    }
    return false;
  }
  if (cgi_has_prefix(s, len, "libpod-", &plen) &&
      cgroup_id_is_hex64(s + plen, len - plen)) {
    cgi_set_container(out, CGROUP_RUNTIME_PODMAN, s + plen);
    return true;
  }
  if (cgi_has_prefix(s, len, "crio-", &plen) &&
      cgroup_id_is_hex64(s + plen, len - plen)) {
    cgi_set_container(out, CGROUP_RUNTIME_CRIO, s + plen);
    return true;
  }
  /* containerd's "<slice>:cri-containerd:<id>" left unconverted */
  static const char tag[] = ":cri-containerd:";
  if (len >= sizeof(tag) - 1 + CGROUP_ID_HEX_LEN) {
    const char *id = s + len - CGROUP_ID_HEX_LEN;
    if (memcmp(id - (sizeof(tag) - 1), tag, sizeof(tag) - 1) == 0 &&
        cgroup_id_is_hex64(id, CGROUP_ID_HEX_LEN)) {
      /* the pod's slice is the part before the tag */
      cgi_kube_slice(out, s, len - CGROUP_ID_HEX_LEN - (sizeof(tag) - 1));
      cgi_set_container(out, CGROUP_RUNTIME_CONTAINERD, id);
      return true;
    }
  }
  if (cgi_has_prefix(s, len, "lxc.payload.", &plen))
    return cgi_set_name(out, CGROUP_RUNTIME_LXC, s + plen, len - plen,
                        /*unescape=*/false);
  if (parent != NULL && cgi_is(parent, parent_len, "lxc"))
    return cgi_set_name(out, CGROUP_RUNTIME_LXC, s, len, /*unescape=*/false);
  return false;
}

/* "pod<uid>" under "kubepods[/burstable|/besteffort]" (cgroupfs driver). */
static bool cgi_kube_dir(struct cgroup_id *out, const char *s, size_t len,
                         const char *parent, size_t parent_len,
                         bool kubepods_parent, bool under_kubepods) {
  size_t plen;
  if (!under_kubepods || !cgi_has_prefix(s, len, "pod", &plen) ||
      !cgroup_id_is_uid(s + plen, len - plen))
    return false;
  enum cgroup_qos qos;
  if (kubepods_parent)
    qos = CGROUP_QOS_GUARANTEED;
  else if (cgi_is(parent, parent_len, "burstable"))
    qos = CGROUP_QOS_BURSTABLE;
  else if (cgi_is(parent, parent_len, "besteffort"))
    qos = CGROUP_QOS_BESTEFFORT;
  else
    return false;
  cgi_set_uid(out, s + plen, len - plen);
  out->qos = qos;
  return true;
}

static int cgi_path(const char *path, size_t len, struct cgroup_id *out) {
  if (len > CGROUP_ID_PATH_MAX)
    return -E2BIG;
  if (len == 0 || path[0] != '/')
    return -EINVAL;
  const char *parent = NULL;
  size_t parent_len = 0;
  bool named = false;          /* a component other than a leading ".." */
  bool under_kubepods = false; /* "kubepods" seen (cgroupfs driver) */
  bool kubepods_parent = false;
  bool pod_just_seen = false; /* the previous component was the pod */
  size_t at = 1;
  if (len == 1)
    return -ENOENT; /* "/" */
  while (at <= len) {
    const char *end = memchr(path + at, '/', len - at);
    size_t n = end ? (size_t)(end - (path + at)) : len - at;
    const char *c = path + at;
    if (n == 0 || n > CGROUP_ID_COMPONENT_MAX || memchr(c, '\0', n) != NULL)
      return -EINVAL;
    if (cgi_is(c, n, "..")) {
      if (named)
        return -EINVAL; /* the kernel prints ".." only at the start */
    } else if (cgi_is(c, n, ".")) {
      return -EINVAL;
    } else {
      named = true;
      bool was_pod = pod_just_seen;
      pod_just_seen = false;
      if (cgi_kube_slice(out, c, n) ||
          cgi_kube_dir(out, c, n, parent, parent_len, kubepods_parent,
                       under_kubepods)) {
        pod_just_seen = true;
      } else if (!cgi_scope(out, c, n)) {
        cgi_cgroupfs(out, c, n, parent, parent_len, was_pod);
      }
      kubepods_parent = cgi_is(c, n, "kubepods");
      under_kubepods |= kubepods_parent;
      parent = c;
      parent_len = n;
    }
    at += n + 1;
  }
  return out->runtime != CGROUP_RUNTIME_NONE || out->pod_uid[0] ? 0 : -ENOENT;
}

int cgroup_id_path_parse(const char *path, size_t len, struct cgroup_id *out) {
  memset(out, 0, sizeof(*out));
  int rc = cgi_path(path, len, out);
  if (rc < 0)
    memset(out, 0, sizeof(*out)); /* nothing half-filled on an error */
  return rc;
}

/* The priority of a line's hierarchy (0 first), -1 for a malformed line;
 * *path and *path_len its path. */
static int cgi_line_rank(const char *line, size_t len, const char **path,
                         size_t *path_len) {
  const char *c1 = memchr(line, ':', len);
  if (c1 == NULL || c1 == line)
    return -1;
  for (const char *p = line; p < c1; p++)
    if (*p < '0' || *p > '9')
      return -1;
  const char *ctl = c1 + 1;
  const char *c2 = memchr(ctl, ':', len - (size_t)(ctl - line));
  if (c2 == NULL)
    return -1;
  *path = c2 + 1;
  *path_len = len - (size_t)(*path - line);
  size_t ctl_len = (size_t)(c2 - ctl);
  if (ctl_len == 0 && c1 - line == 1 && line[0] == '0')
    return 0;
  int rank = 3;
  /* a comma-separated controller list: "cpu,cpuacct" */
  for (size_t i = 0; i < ctl_len;) {
    const char *comma = memchr(ctl + i, ',', ctl_len - i);
    size_t n = comma ? (size_t)(comma - (ctl + i)) : ctl_len - i;
    if (cgi_is(ctl + i, n, "name=systemd"))
      rank = 1;
    else if (cgi_is(ctl + i, n, "memory") && rank > 2)
      rank = 2;
    i += n + 1;
  }
  return rank;
}

int cgroup_id_parse(const char *text, size_t len, struct cgroup_id *out) {
  memset(out, 0, sizeof(*out));
  bool any = false;
  for (int want = 0; want <= 3; want++) {
    size_t at = 0;
    while (at < len) {
      const char *nl = memchr(text + at, '\n', len - at);
      size_t n = nl ? (size_t)(nl - (text + at)) : len - at;
      const char *path;
      size_t path_len;
      int rank = cgi_line_rank(text + at, n, &path, &path_len);
      if (rank >= 0)
        any = true;
      if (rank == want) {
        struct cgroup_id id;
        if (cgroup_id_path_parse(path, path_len, &id) == 0) {
          *out = id;
          return 0;
        }
      }
      at += n + 1;
    }
  }
  return any ? -ENOENT : -EINVAL;
}

const char *cgroup_runtime_name(enum cgroup_runtime rt) {
  switch (rt) {
  case CGROUP_RUNTIME_DOCKER:
    return "docker";
  case CGROUP_RUNTIME_PODMAN:
    return "podman";
  case CGROUP_RUNTIME_CONTAINERD:
    return "containerd";
  case CGROUP_RUNTIME_CRIO:
    return "cri-o";
  case CGROUP_RUNTIME_NSPAWN:
    return "systemd-nspawn";
  case CGROUP_RUNTIME_LXC:
    return "lxc";
  case CGROUP_RUNTIME_CRI:
    return "cri";
  default:
    return "";
  }
}

const char *cgroup_qos_name(enum cgroup_qos qos) {
  switch (qos) {
  case CGROUP_QOS_GUARANTEED:
    return "guaranteed";
  case CGROUP_QOS_BURSTABLE:
    return "burstable";
  case CGROUP_QOS_BESTEFFORT:
    return "besteffort";
  default:
    return "";
  }
}
