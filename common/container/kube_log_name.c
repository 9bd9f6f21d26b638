/*
 * kube_log_name.c: the kubelet's log directory and link names
 * (kube_log_name.h).
 */
#include "common/container/kube_log_name.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>

static bool kln_alnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

/* An RFC 1123 label (dots = false) or subdomain (dots = true) of at most
 * `max` bytes (k8s.io/apimachinery validation: IsDNS1123Label,
 * IsDNS1123Subdomain). */
static bool kln_name_ok(const char *s, size_t len, size_t max, bool dots) {
  if (len == 0 || len > max || !kln_alnum(s[0]) || !kln_alnum(s[len - 1]))
    return false;
  for (size_t i = 0; i < len; i++)
    if (!kln_alnum(s[i]) && s[i] != '-' && !(dots && s[i] == '.'))
      return false;
  return true;
}

static void kln_copy(char *out, const char *s, size_t len) {
  memcpy(out, s, len);
  out[len] = '\0';
}

/* Split `s` at its two '_' into three non-empty parts; false unless there
 * are exactly two. */
static bool kln_split3(const char *s, size_t len, const char *part[3],
                       size_t part_len[3]) {
  size_t k = 0, start = 0;
  for (size_t i = 0; i <= len; i++) {
    if (i < len && s[i] != '_')
      continue;
    if (k == 3)
      return false;
    part[k] = s + start;
    part_len[k] = i - start;
    k++;
    start = i + 1;
  }
  return k == 3;
}

int kube_pod_dir_parse(const char *name, size_t len, struct kube_pod_dir *out) {
  memset(out, 0, sizeof(*out));
  const char *p[3];
  size_t n[3];
  if (!kln_split3(name, len, p, n) ||
      !kln_name_ok(p[0], n[0], KUBE_LABEL_MAX, /*dots=*/false) ||
      !kln_name_ok(p[1], n[1], KUBE_SUBDOMAIN_MAX, /*dots=*/true) ||
      !cgroup_id_is_uid(p[2], n[2]))
    return -EINVAL;
  kln_copy(out->namespace_, p[0], n[0]);
  kln_copy(out->pod, p[1], n[1]);
  kln_copy(out->uid, p[2], n[2]);
  return 0;
}

int kube_log_link_parse(const char *name, size_t len,
                        struct kube_log_link *out) {
  memset(out, 0, sizeof(*out));
  static const char suffix[] = ".log";
  size_t slen = sizeof(suffix) - 1;
  /* at least "a_b_c-<id>.log" */
  if (len < 6 + CGROUP_ID_HEX_LEN + slen ||
      memcmp(name + len - slen, suffix, slen) != 0)
    return -EINVAL;
  len -= slen;
  const char *id = name + len - CGROUP_ID_HEX_LEN;
  if (!cgroup_id_is_hex64(id, CGROUP_ID_HEX_LEN) || id[-1] != '-')
    return -EINVAL;
  len -= CGROUP_ID_HEX_LEN + 1;
  const char *p[3];
  size_t n[3];
  if (!kln_split3(name, len, p, n) ||
      !kln_name_ok(p[0], n[0], KUBE_SUBDOMAIN_MAX, /*dots=*/true) ||
      !kln_name_ok(p[1], n[1], KUBE_LABEL_MAX, /*dots=*/false) ||
      !kln_name_ok(p[2], n[2], KUBE_LABEL_MAX, /*dots=*/false))
    return -EINVAL;
  kln_copy(out->pod, p[0], n[0]);
  kln_copy(out->namespace_, p[1], n[1]);
  kln_copy(out->container, p[2], n[2]);
  kln_copy(out->id, id, CGROUP_ID_HEX_LEN);
  return 0;
}
