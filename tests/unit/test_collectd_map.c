/*
 * test_collectd_map.c: the collectd identifier rule (collectd_map.h):
 * KEY=VALUE parts joined by '+', the instance part, percent-escaping,
 * the cut with its FNV-1a hash, and decoding every part back with the
 * documented regex. Expected hashes were computed by an independent
 * implementation and are checked again against ref_fnv1a() below.
 */
#include "common/host/collectd_map.h"

#include <inttypes.h>
#include <regex.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define MAX_PAIRS 6

struct pair {
  const char *key, *value;
};

/* The 64-bit FNV-1a of `s`, written from the published definition. */
static uint64_t ref_fnv1a(const char *s) {
  uint64_t h = 14695981039346656037u;
  for (; *s != '\0'; s++) {
    h ^= (unsigned char)*s;
    h *= 1099511628211u;
  }
  return h;
}

/* A record "m" with the given tags and one derive field "v". */
static void make_record(struct metric *m, const struct pair *tags) {
  metric_init(m, "m", 1);
  for (size_t i = 0; i < MAX_PAIRS && tags[i].key != NULL; i++)
    metric_add_tag(m, tags[i].key, tags[i].value);
  metric_add_int(m, "v", "derive", 1);
}

static void collectd_map__rule(void **state) {
  (void)state;
  struct metric m;
  metric_init(&m, "drm_engine", 1);
  metric_add_tag(&m, "scope", "process");
  metric_add_tag(&m, "device", "0000:00:02.0");
  metric_add_tag(&m, "comm", "a/b c");
  metric_add_float(&m, "utilization", "percent", 1);
  metric_add_int(&m, "busy_ns", "derive", 1);
  struct collectd_ident id;
  collectd_map(&m, 0, "drm_fdinfo", "drm_fdinfo", &id);
  assert_string_equal(id.plugin_instance,
                      "scope=process+device=0000%3A00%3A02%2E0+comm=a%2Fb%20c");
  assert_string_equal(id.type, "percent");
  assert_string_equal(id.type_instance, "drm_engine_utilization");
  collectd_map(&m, 1, "drm_fdinfo", "gpu", &id);
  assert_string_equal(
      id.plugin_instance,
      "instance=gpu+scope=process+device=0000%3A00%3A02%2E0+comm=a%2Fb%20c");
  assert_string_equal(id.type, "derive");
  assert_string_equal(id.type_instance, "drm_engine_busy_ns");
}

static void collectd_map__no_tags_and_slashes_everywhere(void **state) {
  (void)state;
  struct metric m;
  metric_init(&m, "m/x", 1);
  metric_add_int(&m, "a/b", "my/type", 1);
  struct collectd_ident id;
  memset(&id, 'z', sizeof(id)); /* every part is written */
  collectd_map(&m, 0, "p", "p", &id);
  assert_string_equal(id.plugin_instance, "");
  assert_string_equal(id.type, "my_type");
  assert_string_equal(id.type_instance, "m%2Fx_a%2Fb");
}

/* plugin_instance of one record per row: exact strings. */
static void collectd_map__plugin_instance_table(void **state) {
  (void)state;
  static const struct {
    const char *what, *label; /* label NULL: the default instance */
    struct pair tags[MAX_PAIRS];
    const char *expected;
  } cases[] = {
      {"default instance, no tags", NULL, {{NULL, NULL}}, ""},
      {"label equal to the plugin name", "drm_fdinfo", {{NULL, NULL}}, ""},
      /* drm_scan of two <Instance> blocks: one series each */
      {"named instance, no tags", "gpu0", {{NULL, NULL}}, "instance=gpu0"},
      {"other named instance, no tags",
       "gpu1",
       {{NULL, NULL}},
       "instance=gpu1"},
      {"named instance, tags",
       "gpu1",
       {{"driver", "xe"}, {NULL, NULL}},
       "instance=gpu1+driver=xe"},
      {"label escaped", "a.b+c", {{NULL, NULL}}, "instance=a%2Eb%2Bc"},
      /* a first tag keyed "instance" in the default instance must not
       * read as a label */
      {"tag keyed instance, default",
       NULL,
       {{"instance", "gpu0"}, {NULL, NULL}},
       "instance=drm_fdinfo+instance=gpu0"},
      {"tag keyed instance, named",
       "gpu0",
       {{"instance", "gpu0"}, {NULL, NULL}},
       "instance=gpu0+instance=gpu0"},
      /* a missing optional tag shifts nothing */
      {"all tags",
       NULL,
       {{"scope", "client"},
        {"client_id", "5"},
        {"client_name", "x"},
        {NULL, NULL}},
       "scope=client+client_id=5+client_name=x"},
      {"client_id missing",
       NULL,
       {{"scope", "client"}, {"client_name", "5-x"}, {NULL, NULL}},
       "scope=client+client_name=5-x"},
      /* '-' inside values */
      {"engine video-enhance",
       NULL,
       {{"engine", "video-enhance"}, {NULL, NULL}},
       "engine=video-enhance"},
      {"engine video, then a tag enhance",
       NULL,
       {{"engine", "video"}, {"region", "enhance"}, {NULL, NULL}},
       "engine=video+region=enhance"},
      {"systemd user slice",
       NULL,
       {{"cgroup", "/user.slice/user-1000.slice"}, {NULL, NULL}},
       "cgroup=%2Fuser%2Eslice%2Fuser-1000%2Eslice"},
      {"every escaped byte",
       NULL,
       {{"comm", "%+=~/.,;:!\"'\\*?[]{}() \t\n\x01\x1f\x7f"}, {NULL, NULL}},
       "comm=%25%2B%3D%7E%2F%2E%2C%3B%3A%21%22%27%5C%2A%3F%5B%5D%7B%7D%28%29%20"
       "%09%0A%01%1F%7F"},
      {"kept bytes",
       NULL,
       {{"comm", "a-b_c@#$&|<>^`\xc3\x9f\xe6\xb8\xb2\xf0\x9f\x98\x80"},
        {NULL, NULL}},
       "comm=a-b_c@#$&|<>^`\xc3\x9f\xe6\xb8\xb2\xf0\x9f\x98\x80"},
      {"invalid UTF-8 escaped byte by byte",
       NULL,
       {{"comm", "\xff\xc3(\xc0\xaf\xed\xa0\x80\xf4\x90\x80\x80\xe6\xb8"},
        {NULL, NULL}},
       "comm=%FF%C3%28%C0%AF%ED%A0%80%F4%90%80%80%E6%B8"},
  };
  for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
    struct metric m;
    make_record(&m, cases[i].tags);
    struct collectd_ident id;
    collectd_map(&m, 0, "drm_fdinfo",
                 cases[i].label ? cases[i].label : "drm_fdinfo", &id);
    if (strcmp(id.plugin_instance, cases[i].expected) != 0)
      fail_msg("%s: got \"%s\"", cases[i].what, id.plugin_instance);
  }
  /* NULL label: the default instance */
  struct metric m;
  make_record(&m, (struct pair[]){{"a", "b"}, {NULL, NULL}});
  struct collectd_ident id;
  collectd_map(&m, 0, "drm_fdinfo", NULL, &id);
  assert_string_equal(id.plugin_instance, "a=b");
}

#define K8S_POD                                                                \
  "/kubepods.slice/kubepods-burstable.slice/"                                  \
  "kubepods-burstable-pod0f3c2a9e_5b1d_4c7e_8a6f_2d9b3e1c4a5f.slice/"          \
  "cri-containerd-"                                                            \
  "3f9a1c7e5b2d4f6a8c0e1b3d5f7a9c2e4b6d8f0a1c3e5b7d9f2a4c6e8b0d1f3a.scope/"    \
  "kubepods-workload-inference-server.slice/"
#define K8S_POD_ENC                                                            \
  "%2Fkubepods%2Eslice%2Fkubepods-burstable%2Eslice%2F"                        \
  "kubepods-burstable-pod0f3c2a9e_5b1d_4c7e_8a6f_2d9b3e1c4a5f%2Eslice%2F"      \
  "cri-containerd-"                                                            \
  "3f9a1c7e5b2d4f6a8c0e1b3d5f7a9c2e4b6d8f0a1c3e5b7d9f2a4c6e8b0d1f3a%2Escope%"  \
  "2Fkubepods-workload-inference-server%2Eslice%2F"
#define K8S_HEAD "scope=cgroup+driver=i915+device=0000%3A03%3A00%2E0+cgroup="
/* the first 110 bytes of every full name below */
#define K8S_CUT                                                                \
  "scope=cgroup+driver=i915+device=0000%3A03%3A00%2E0+cgroup=%2Fkubepods%"     \
  "2Eslice%2F"                                                                 \
  "kubepods-burstable%2Eslice%2Fk"

/* Two 244-byte cgroup paths equal in their first 233 bytes, times two
 * engines after them: four identifiers, each cut, told apart by the hash
 * (the old rule gave all four the same name). */
static void collectd_map__kubernetes_cgroups(void **state) {
  (void)state;
  static const struct {
    const char *cgroup, *engine, *full, *expected;
  } cases[] = {
      {K8S_POD "alpha.scope", "render",
       K8S_HEAD K8S_POD_ENC "alpha%2Escope+engine=render",
       K8S_CUT "~5a04d8c0e3dac25b"},
      {K8S_POD "alpha.scope", "video-enhance",
       K8S_HEAD K8S_POD_ENC "alpha%2Escope+engine=video-enhance",
       K8S_CUT "~2269515584aefe89"},
      {K8S_POD "omega.scope", "render",
       K8S_HEAD K8S_POD_ENC "omega%2Escope+engine=render",
       K8S_CUT "~e2eb9006c9be1eb0"},
      {K8S_POD "omega.scope", "video-enhance",
       K8S_HEAD K8S_POD_ENC "omega%2Escope+engine=video-enhance",
       K8S_CUT "~157b93d243f675bc"},
  };
  assert_int_equal(strlen(K8S_POD "alpha.scope"), 244);
  assert_int_equal(strlen(K8S_CUT), 110);
  char seen[ARRAY_SIZE(cases)][COLLECTD_MAP_NAME_MAX];
  for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
    struct metric m;
    make_record(&m, (struct pair[]){{"scope", "cgroup"},
                                    {"driver", "i915"},
                                    {"device", "0000:03:00.0"},
                                    {"cgroup", cases[i].cgroup},
                                    {"engine", cases[i].engine},
                                    {NULL, NULL}});
    struct collectd_ident id;
    collectd_map(&m, 0, "drm_fdinfo", "drm_fdinfo", &id);
    assert_string_equal(id.plugin_instance, cases[i].expected);
    assert_int_equal(strlen(id.plugin_instance), 127);
    char hash[17];
    snprintf(hash, sizeof(hash), "%016" PRIx64, ref_fnv1a(cases[i].full));
    assert_string_equal(id.plugin_instance + 111, hash);
    strcpy(seen[i], id.plugin_instance);
    for (size_t j = 0; j < i; j++)
      assert_string_not_equal(seen[j], seen[i]);
  }
}

/* The cut never ends inside a UTF-8 sequence or a %XX escape: value =
 * `before` 'a's, `mid`, 30 'b's under key "t" ("t=" is 2 bytes). */
static void collectd_map__cut_boundaries(void **state) {
  (void)state;
  static const struct {
    size_t before;
    const char *mid;
    const char *kept_mid; /* of `mid`, what stays before the '~' */
    const char *hash;     /* of the full encoded name */
  } cases[] = {
      {107, "\xc3\x9f", "", "5aff21812ff38895"}, /* bytes 109-110 */
      {106, "\xc3\x9f", "\xc3\x9f", "95dace86e0778dd6"},
      {107, ".", "", "1a1876374355d047"}, /* %2E at bytes 109-111 */
      {105, ".", "%2E", "6da595883b520a85"},
  };
  for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
    char value[200], expected[200];
    memset(value, 'a', cases[i].before);
    snprintf(value + cases[i].before, sizeof(value) - cases[i].before, "%s%s",
             cases[i].mid, "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbb");
    strcpy(expected, "t=");
    memset(expected + 2, 'a', cases[i].before);
    snprintf(expected + 2 + cases[i].before,
             sizeof(expected) - 2 - cases[i].before, "%s~%s", cases[i].kept_mid,
             cases[i].hash);
    struct metric m;
    make_record(&m, (struct pair[]){{"t", value}, {NULL, NULL}});
    struct collectd_ident id;
    collectd_map(&m, 0, "p", "p", &id);
    if (strcmp(id.plugin_instance, expected) != 0)
      fail_msg("case %zu: got \"%s\"", i, id.plugin_instance);
  }
}

/* 127 bytes fit as they are; 128 are cut (hash of "t=" and 126 'a's). */
static void collectd_map__cut_threshold(void **state) {
  (void)state;
  char value[200], expected[200];
  memset(value, 'a', 125);
  value[125] = '\0';
  struct metric m;
  make_record(&m, (struct pair[]){{"t", value}, {NULL, NULL}});
  struct collectd_ident id;
  collectd_map(&m, 0, "p", "p", &id);
  assert_int_equal(strlen(id.plugin_instance), 127);
  assert_memory_equal(id.plugin_instance, "t=aaa", 5);
  strcpy(value + 125, "a");
  make_record(&m, (struct pair[]){{"t", value}, {NULL, NULL}});
  collectd_map(&m, 0, "p", "p", &id);
  strcpy(expected, "t=");
  memset(expected + 2, 'a', 108);
  strcpy(expected + 110, "~05ede58349c0d364");
  assert_string_equal(id.plugin_instance, expected);
}

/* type_instance is cut the same way; type is only cut at 127 bytes. */
static void collectd_map__type_instance_cut(void **state) {
  (void)state;
  char measurement[200], key[200], ctype[200], expected[200];
  memset(measurement, 'm', 126);
  measurement[126] = '\0';
  memset(key, 'k', 10);
  key[10] = '\0';
  memset(ctype, 't', 150);
  ctype[150] = '\0';
  struct metric m;
  metric_init(&m, measurement, 1);
  metric_add_int(&m, key, ctype, 1);
  struct collectd_ident id;
  collectd_map(&m, 0, "p", "p", &id);
  memset(expected, 'm', 110);
  strcpy(expected + 110, "~b7d97a80e10296ca");
  assert_string_equal(id.type_instance, expected);
  assert_int_equal(strlen(id.type), 127);
  assert_memory_equal(id.type, ctype, 127);
}

/* Decode part `key` of `name` with the documented regex (POSIX ERE form)
 * and percent-decoding; false when there is no such part. */
static bool decode_part(const char *name, const char *key, char *out,
                        size_t out_size) {
  char pattern[64];
  snprintf(pattern, sizeof(pattern), "(^|\\+)%s=([^+~]*)", key);
  regex_t re;
  assert_int_equal(regcomp(&re, pattern, REG_EXTENDED), 0);
  regmatch_t mt[3];
  int rc = regexec(&re, name, 3, mt, 0);
  regfree(&re);
  if (rc != 0)
    return false;
  size_t o = 0;
  for (regoff_t i = mt[2].rm_so; i < mt[2].rm_eo && o + 1 < out_size; i++) {
    unsigned int byte;
    if (name[i] == '%' && sscanf(name + i + 1, "%2X", &byte) == 1) {
      out[o++] = (char)byte;
      i += 2;
    } else
      out[o++] = name[i];
  }
  out[o] = '\0';
  return true;
}

/* Every part decodes back to the tag (and the label) it came from. */
static void collectd_map__regex_round_trip(void **state) {
  (void)state;
  static const struct {
    const char *label;
    struct pair tags[MAX_PAIRS];
  } cases[] = {
      {"gpu.0 +x", {{"scope", "process"}, {"comm", "a+b=c~d%e"}, {NULL, NULL}}},
      {NULL,
       {{"scope", "cgroup"},
        {"cgroup", "/user.slice/user-1000.slice"},
        {"engine", "video-enhance"},
        {NULL, NULL}}},
      {NULL,
       {{"comm", "%+=~/.,;\"'\\*?[]{}() \t\x01\x7f\xc3\x9f\xff"},
        {"pid", "1"},
        {NULL, NULL}}},
      {"vera", {{"scope", "client"}, {"client_name", "5-x"}, {NULL, NULL}}},
      {NULL, {{"device", "0000:00:02.0"}, {"cgroup", K8S_POD}, {NULL, NULL}}},
  };
  for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
    struct metric m;
    make_record(&m, cases[i].tags);
    struct collectd_ident id;
    collectd_map(&m, 0, "drm_fdinfo",
                 cases[i].label ? cases[i].label : "drm_fdinfo", &id);
    char got[256];
    bool cut = strchr(id.plugin_instance, '~') != NULL;
    if (cases[i].label != NULL) {
      assert_true(
          decode_part(id.plugin_instance, "instance", got, sizeof(got)));
      assert_string_equal(got, cases[i].label);
    } else
      assert_false(
          decode_part(id.plugin_instance, "instance", got, sizeof(got)));
    for (size_t t = 0; t < m.n_tags; t++) {
      assert_true(
          decode_part(id.plugin_instance, m.tags[t].key, got, sizeof(got)));
      if (cut && t + 1 == m.n_tags) { /* the cut part: a prefix */
        assert_true(strlen(got) > 0);
        assert_memory_equal(got, m.tags[t].value, strlen(got));
      } else
        assert_string_equal(got, m.tags[t].value);
    }
    /* a cut name and only a cut name ends in ~ and 16 hex digits */
    regex_t re;
    assert_int_equal(regcomp(&re, "~([0-9a-f]{16})$", REG_EXTENDED), 0);
    assert_int_equal(regexec(&re, id.plugin_instance, 0, NULL, 0) == 0, cut);
    regfree(&re);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(collectd_map__rule),
      cmocka_unit_test(collectd_map__no_tags_and_slashes_everywhere),
      cmocka_unit_test(collectd_map__plugin_instance_table),
      cmocka_unit_test(collectd_map__kubernetes_cgroups),
      cmocka_unit_test(collectd_map__cut_boundaries),
      cmocka_unit_test(collectd_map__cut_threshold),
      cmocka_unit_test(collectd_map__type_instance_cut),
      cmocka_unit_test(collectd_map__regex_round_trip),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
