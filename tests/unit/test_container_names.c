/*
 * test_container_names.c: the kubelet's log directory and link names
 * (pkg/kubelet/kuberuntime: BuildPodLogsDirectory, logSymlink), Docker's
 * config.v2.json "Name" and Podman's containers.json, with hostile names:
 * '_' too many or too few, upper case, names past Kubernetes' lengths,
 * links cut to 255 bytes, ids cut short, JSON of the wrong shape, nested
 * too deep, cut off.
 */
#include "common/container/container_state.h"
#include "common/container/kube_log_name.h"

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

static int pod_dir(const char *s, struct kube_pod_dir *out) {
  return kube_pod_dir_parse(s, strlen(s), out);
}

static int link_name(const char *s, struct kube_log_link *out) {
  return kube_log_link_parse(s, strlen(s), out);
}

static void kube_pod_dir_parse__names(void **state) {
  (void)state;
  struct kube_pod_dir p;
  assert_int_equal(pod_dir("kube-system_coredns-5d78c9869d-x7k2p_" UID, &p), 0);
  assert_string_equal(p.namespace_, "kube-system");
  assert_string_equal(p.pod, "coredns-5d78c9869d-x7k2p");
  assert_string_equal(p.uid, UID);
  /* a static pod: 32 hex digits, a dotted pod name */
  assert_int_equal(
      pod_dir("kube-system_etcd-node1.example_33d556edd3ae8ef21980288cef77ae8b",
              &p),
      0);
  assert_string_equal(p.pod, "etcd-node1.example");
  /* refused: too few or too many '_', upper case, a bad uid, empty parts,
   * names starting or ending with '-', a namespace with a dot */
  const char *bad[] = {
      "default_web_",
      "default_web",
      "default_web_x_" UID,
      "Default_web_" UID,
      "default_web_" UID "!",
      "default_web_0123456789012345678901234567890123456789012345678901234567"
      "890123x",
      "_web_" UID,
      "default__" UID,
      "-default_web_" UID,
      "default_web-_" UID,
      "kube.system_web_" UID,
      "default_w\nb_" UID,
  };
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
    if (pod_dir(bad[i], &p) != -EINVAL)
      fail_msg("accepted \"%s\"", bad[i]);
  assert_string_equal(p.pod, ""); /* zeroed on failure */
  /* the longest names Kubernetes allows, and one byte more */
  char name[600];
  char ns[70], pod[260];
  memset(ns, 'n', 63);
  ns[63] = '\0';
  memset(pod, 'p', 253);
  pod[253] = '\0';
  snprintf(name, sizeof(name), "%s_%s_%s", ns, pod, UID);
  assert_int_equal(pod_dir(name, &p), 0);
  assert_int_equal(strlen(p.pod), 253);
  snprintf(name, sizeof(name), "%sn_%s_%s", ns, pod, UID);
  assert_int_equal(pod_dir(name, &p), -EINVAL);
  snprintf(name, sizeof(name), "%s_%sp_%s", ns, pod, UID);
  assert_int_equal(pod_dir(name, &p), -EINVAL);
}

static void kube_log_link_parse__names(void **state) {
  (void)state;
  struct kube_log_link l;
  assert_int_equal(
      link_name("coredns-5d78c9869d-x7k2p_kube-system_coredns-" ID ".log", &l),
      0);
  assert_string_equal(l.pod, "coredns-5d78c9869d-x7k2p");
  assert_string_equal(l.namespace_, "kube-system");
  assert_string_equal(l.container, "coredns");
  assert_string_equal(l.id, ID);
  /* a container name with '-': the id is after the last one */
  assert_int_equal(link_name("web-0_shop_nginx-proxy-" ID ".log", &l), 0);
  assert_string_equal(l.container, "nginx-proxy");
  const char *bad[] = {
      "web-0_shop_nginx-" ID ".txt",       /* not .log */
      "web-0_shop_nginx-" ID,              /* no suffix */
      "web-0_shop_nginx-4f8b1c2d3e4f.log", /* id cut short */
      "web-0_shop_nginx" ID ".log",        /* no '-' before the id */
      "web-0_shop-nginx-" ID ".log",       /* one '_' */
      "web-0_shop_x_nginx-" ID ".log",     /* three '_' */
      "web-0_shop_Nginx-" ID ".log",       /* upper case */
      "web-0_shop_-" ID ".log",            /* no container */
      "web-0_shop_nginx-" ID "x.log",      /* past the id */
      ".log",
      "",
  };
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
    if (link_name(bad[i], &l) != -EINVAL)
      fail_msg("accepted \"%s\"", bad[i]);
  /* logSymlink cuts names past 255 bytes: the id is lost, refused */
  char name[300], pod[260];
  memset(pod, 'p', 200);
  pod[200] = '\0';
  int n = snprintf(name, sizeof(name), "%s_ns_c-%s", pod, ID);
  name[251] = '\0';
  strcat(name, ".log");
  assert_true(n > 251);
  assert_int_equal(link_name(name, &l), -EINVAL);
}

static void container_state_docker_name__json(void **state) {
  (void)state;
  char name[CONTAINER_NAME_MAX + 1];
  const char *cfg =
      "{\"StreamConfig\":{},\"State\":{\"Running\":true,\"Pid\":42,"
      "\"Name\":\"/inner\"},\"ID\":\"" ID "\",\"Config\":{\"Labels\":{}},"
      "\"Name\":\"/web\",\"RestartCount\":0}";
  assert_int_equal(container_state_docker_name(cfg, strlen(cfg), name), 0);
  assert_string_equal(name, "web");
  /* a control byte is made printable */
  const char *ctl = "{\"Name\":\"/a\\u001bb\"}";
  assert_int_equal(container_state_docker_name(ctl, strlen(ctl), name), 0);
  assert_string_equal(name, "a?b");
  /* no Name, an empty one, a number */
  const char *none = "{\"ID\":\"x\",\"State\":{\"Name\":\"/x\"}}";
  assert_int_equal(container_state_docker_name(none, strlen(none), name),
                   -ENOENT);
  const char *num = "{\"Name\":5}";
  assert_int_equal(container_state_docker_name(num, strlen(num), name),
                   -ENOENT);
  /* not JSON, an array, cut off, nested too deep */
  assert_int_equal(container_state_docker_name("{\"Name\":", 8, name), -EINVAL);
  assert_int_equal(container_state_docker_name("[]", 2, name), -EINVAL);
  assert_int_equal(container_state_docker_name("nope", 4, name), -EINVAL);
  char deep[400];
  size_t k = 0;
  deep[k++] = '{';
  memcpy(deep + k, "\"a\":", 4), k += 4;
  for (int i = 0; i < 100; i++)
    deep[k++] = '[';
  for (int i = 0; i < 100; i++)
    deep[k++] = ']';
  deep[k++] = '}';
  assert_int_equal(container_state_docker_name(deep, k, name), -EINVAL);
  /* a long name is cut, not overrun */
  char big[600] = "{\"Name\":\"/";
  size_t b = strlen(big);
  memset(big + b, 'x', 400);
  b += 400;
  memcpy(big + b, "\"}", 3);
  assert_int_equal(container_state_docker_name(big, strlen(big), name), 0);
  assert_int_equal(strlen(name), CONTAINER_NAME_MAX);
}

struct seen {
  int n;
  char ids[4][CGROUP_ID_HEX_LEN + 1];
  char names[4][CONTAINER_NAME_MAX + 1];
};

static void take(const char *id, const char *name, void *arg) {
  struct seen *s = arg;
  if (s->n < 4) {
    snprintf(s->ids[s->n], sizeof(s->ids[0]), "%s", id);
    snprintf(s->names[s->n], sizeof(s->names[0]), "%s", name);
  }
  s->n++;
}

static void container_state_podman_each__json(void **state) {
  (void)state;
  const char *json =
      "[{\"id\":\"" ID "\",\"names\":[\"db\",\"alias\"],\"image\":\"i\","
      "\"metadata\":\"{\\\"names\\\":[\\\"x\\\"]}\",\"flags\":{\"names\":"
      "[\"no\"]},\"created\":\"2024-01-01T00:00:00Z\"},"
      "{\"names\":[\"noid\"]},"
      "{\"id\":\"short\",\"names\":[\"bad\"]},"
      "{\"id\":\"1111111111111111111111111111111111111111111111111111111111111"
      "111\",\"names\":[]},"
      "{\"names\":[\"second\"],\"id\":\"2222222222222222222222222222222222222"
      "222222222222222222222222222\"}]";
  struct seen s = {0};
  assert_int_equal(container_state_podman_each(json, strlen(json), take, &s),
                   0);
  assert_int_equal(s.n, 2);
  assert_string_equal(s.ids[0], ID);
  assert_string_equal(s.names[0], "db");
  assert_string_equal(s.names[1], "second");
  /* the wrong shapes */
  struct seen t = {0};
  assert_int_equal(container_state_podman_each("{}", 2, take, &t), -EINVAL);
  assert_int_equal(container_state_podman_each("[[]]", 4, take, &t), -EINVAL);
  assert_int_equal(container_state_podman_each("[{\"id\":", 7, take, &t),
                   -EINVAL);
  assert_int_equal(container_state_podman_each("[]", 2, take, &t), 0);
  assert_int_equal(t.n, 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(kube_pod_dir_parse__names),
      cmocka_unit_test(kube_log_link_parse__names),
      cmocka_unit_test(container_state_docker_name__json),
      cmocka_unit_test(container_state_podman_each__json),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
