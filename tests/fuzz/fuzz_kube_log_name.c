/*
 * fuzz_kube_log_name.c: libFuzzer target for kube_pod_dir_parse() and
 * kube_log_link_parse(): any bytes, no crash, no read past the length, and
 * a success only for names of Kubernetes' character sets and lengths.
 */
#include "common/container/kube_log_name.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_name(const char *s, size_t max) {
  size_t n = strlen(s);
  if (n == 0 || n > max)
    abort();
  for (size_t i = 0; i < n; i++)
    if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') ||
          s[i] == '-' || s[i] == '.'))
      abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = malloc(size ? size : 1);
  if (text == NULL)
    return 0;
  memcpy(text, data, size);
  struct kube_pod_dir p;
  if (kube_pod_dir_parse(text, size, &p) == 0) {
    check_name(p.namespace_, KUBE_LABEL_MAX);
    check_name(p.pod, KUBE_SUBDOMAIN_MAX);
    if (!cgroup_id_is_uid(p.uid, strlen(p.uid)))
      abort();
  }
  struct kube_log_link l;
  if (kube_log_link_parse(text, size, &l) == 0) {
    check_name(l.pod, KUBE_SUBDOMAIN_MAX);
    check_name(l.namespace_, KUBE_LABEL_MAX);
    check_name(l.container, KUBE_LABEL_MAX);
    if (!cgroup_id_is_hex64(l.id, strlen(l.id)))
      abort();
  }
  free(text);
  return 0;
}
