/*
 * test_collectd_map.c: the collectd identifier rule (collectd_map.h) over
 * a table of rules (collectd_rule.h): parts joined by '-', the instance
 * label, escaping ('/' -> '+', '-' kept only in the free part), rules
 * chosen by measurement and tag, optional parts, the generic identity
 * without a table, and the cut (head, tail, whole name) with its hash,
 * checked against ref_fnv1a() written here from the published definition.
 * Every name is at most 63 bytes of the allowed characters, and hostile
 * values that differ map to different names.
 */
#include "common/collectd/collectd_map.h"

#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* The 64-bit FNV-1a of `s`, folded to 32 bits, as 8 hex digits. */
static void ref_hash(const char *s, char out[9]) {
  uint64_t h = 14695981039346656037u;
  for (; *s != '\0'; s++) {
    h ^= (unsigned char)*s;
    h *= 1099511628211u;
  }
  snprintf(out, 9, "%08" PRIx32, (uint32_t)(h ^ (h >> 32)));
}

/* A table shaped like drm_fdinfo's. */
static const struct collectd_rule rules[] = {
    {"dev", NULL, NULL, {{"device", NULL, 0}}, {{0}}},
    {"scan", NULL, NULL, {{0}}, {{NULL, "scan", 0}}},
    {"eng",
     "scope",
     "process",
     {{"device", NULL, 0}, {"pid", NULL, 0}, {"comm", NULL, CM_FREE}},
     {{"engine", NULL, CM_FREE}}},
    {"eng",
     "scope",
     "client",
     {{"device", NULL, 0}, {"id", "client", 0}, {"comm", NULL, CM_FREE}},
     {{"engine", NULL, CM_FREE}}},
    {"eng",
     "scope",
     "cgroup",
     {{"device", NULL, 0}, {"cgroup", NULL, CM_FREE | CM_TAIL}},
     {{"engine", NULL, CM_FREE}}},
    {"eng",
     "core",
     NULL,
     {{"device", NULL, 0}, {"core", "core", 0}},
     {{"engine", NULL, CM_FREE}}},
    {"eng",
     NULL,
     NULL,
     {{"device", NULL, 0}, {"core", "core", CM_OPTIONAL}},
     {{"engine", NULL, CM_FREE}}},
    {0},
};

/* A record of `measurement` with tags given as "key", "value", ... NULL
 * and one field "busy_ns" of type gpu_time; mapped with `label`. */
static struct collectd_ident map(const char *measurement, const char *label,
                                 ...) {
  struct metric m;
  metric_init(&m, measurement, 1);
  va_list ap;
  va_start(ap, label);
  const char *k;
  while ((k = va_arg(ap, const char *)) != NULL)
    metric_add_tag(&m, k, va_arg(ap, const char *));
  va_end(ap);
  metric_add_int(&m, "busy_ns", "gpu_time", 1);
  struct collectd_ident id;
  memset(&id, 'X', sizeof(id));
  collectd_map(rules, &m, 0, "plug", label, &id);
  return id;
}

static void check_name(const char *name) {
  size_t n = strlen(name);
  assert_true(n <= 63);
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)name[i];
    if (c >= 0x80 || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
        (c >= '0' && c <= '9'))
      continue;
    if (strchr("_.:@+%~-", c) == NULL)
      fail_msg("%s: byte 0x%02x not allowed", name, c);
  }
}

#define ID_IS(id, pi, t, ti)                                                   \
  do {                                                                         \
    assert_string_equal((id).plugin_instance, pi);                             \
    assert_string_equal((id).type, t);                                         \
    assert_string_equal((id).type_instance, ti);                               \
  } while (0)

static void collectd_map__rules_by_measurement_and_tag(void **state) {
  (void)state;
  struct collectd_ident id;
  id = map("dev", "plug", "device", "0000:00:02.0", NULL);
  ID_IS(id, "0000:00:02.0", "gpu_time", "busy_ns");
  id = map("scan", NULL, NULL);
  ID_IS(id, "", "gpu_time", "scan-busy_ns");
  id =
      map("eng", "plug", "scope", "process", "device", "0000:00:02.0", "engine",
          "video-enhance", "pid", "1234", "comm", "gnome-shell", NULL);
  ID_IS(id, "0000:00:02.0-1234-gnome-shell", "gpu_time",
        "video-enhance-busy_ns");
  id = map("eng", "plug", "scope", "client", "device", "0000:00:02.0", "id",
           "7", "comm", "glxgears", "engine", "render", NULL);
  ID_IS(id, "0000:00:02.0-client7-glxgears", "gpu_time", "render-busy_ns");
  /* when_tag without a value: the tag is present */
  id = map("eng", "plug", "device", "renderD128", "core", "3", "engine", "x",
           NULL);
  ID_IS(id, "renderD128-core3", "gpu_time", "x-busy_ns");
  /* an optional part left out */
  id = map("eng", "plug", "device", "renderD128", "engine", "x", NULL);
  ID_IS(id, "renderD128", "gpu_time", "x-busy_ns");
}

static void collectd_map__label_first(void **state) {
  (void)state;
  struct collectd_ident id = map("dev", "gpu", "device", "card0", NULL);
  ID_IS(id, "gpu-card0", "gpu_time", "busy_ns");
  id = map("scan", "gpu", NULL);
  ID_IS(id, "gpu", "gpu_time", "scan-busy_ns");
  /* a label is escaped like a part that is not free */
  id = map("dev", "a-b/c d:e", "device", "card0", NULL);
  ID_IS(id, "a%2Db+c%20d%3Ae-card0", "gpu_time", "busy_ns");
}

static void collectd_map__escaping(void **state) {
  (void)state;
  static const struct {
    const char *in, *out;
  } cases[] = {
      {"/user.slice/app-x.scope", "+user.slice+app-x.scope"},
      {"a.b", "a.b"},
      {"a_b", "a_b"},
      {"a:b", "a%3Ab"}, /* free text: ':' escaped, '-' kept */
      {"a@b", "a@b"},
      {"a!b", "a%21b"},
      {"a b", "a%20b"},
      {"a%2Eb", "a%252Eb"},
      {"a+b", "a%2Bb"},
      {"a~b", "a%7Eb"},
      {"a=b", "a%3Db"},
      {"a\"b'c\\d", "a%22b%27c%5Cd"},
      {"*?[]{}(),;", "%2A%3F%5B%5D%7B%7D%28%29%2C%3B"},
      {"tab\tnl\ndel\x7f", "tab%09nl%0Adel%7F"},
      {"caf\xc3\xa9", "caf\xc3\xa9"},      /* valid UTF-8 stays */
      {"bad\xc3(", "bad%C3%28"},           /* a broken sequence */
      {"\xed\xa0\x80", "%ED%A0%80"},       /* a surrogate */
      {"\xc0\xaf", "%C0%AF"},              /* an overlong '/' */
      {"\xf4\x90\x80\x80", "%F4%90%80%80"} /* above U+10FFFF */
  };
  for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
    /* comm is the free part: '-' stays */
    struct collectd_ident id =
        map("eng", NULL, "scope", "process", "device", "d", "pid", "1", "comm",
            cases[i].in, "engine", "e", NULL);
    char want[128];
    snprintf(want, sizeof(want), "d-1-%s", cases[i].out);
    assert_string_equal(id.plugin_instance, want);
    check_name(id.plugin_instance);
  }
  /* '-' in a part that is not free becomes %2D */
  struct collectd_ident id =
      map("eng", NULL, "scope", "process", "device", "fb00-gpu", "pid", "1",
          "comm", "a-b", "engine", "e", NULL);
  ID_IS(id, "fb00%2Dgpu-1-a-b", "gpu_time", "e-busy_ns");
}

static void collectd_map__no_rule(void **state) {
  (void)state;
  struct metric m;
  metric_init(&m, "fake", 1);
  metric_add_tag(&m, "instance", "fast");
  metric_add_tag(&m, "tag", "a-b.c");
  metric_add_int(&m, "counter", "derive", 1);
  struct collectd_ident id;
  collectd_map(NULL, &m, 0, "fake_plugin", "fast", &id);
  ID_IS(id, "fast-fast-a%2Db.c", "derive", "fake-counter");
  collectd_map(rules, &m, 0, "fake_plugin", "fake_plugin", &id);
  ID_IS(id, "fast-a%2Db.c", "derive", "fake-counter");
}

/* A cgroup path too long for 63 bytes keeps its end: HASH~TAIL. */
static void collectd_map__cut_keeps_cgroup_tail(void **state) {
  (void)state;
  const char *esc = "+kubepods.slice+kubepods-burstable.slice+"
                    "kubepods-burstable-pod0f3c2a.slice+"
                    "cri-containerd-3f2a9b7c1d.scope";
  char path[256];
  snprintf(path, sizeof(path), "%s", esc);
  for (char *c = path; *c; c++)
    if (*c == '+')
      *c = '/';
  struct collectd_ident id =
      map("eng", "gpu", "scope", "cgroup", "device", "0000:00:02.0", "cgroup",
          path, "engine", "render", NULL);
  char full[256], hash[9], want[128];
  snprintf(full, sizeof(full), "gpu-0000:00:02.0-%s", esc);
  ref_hash(full, hash);
  /* 63 - "gpu-0000:00:02.0-" (17) - "HASH~" (9) = 37 bytes of the end,
   * from the start of a path component */
  snprintf(want, sizeof(want), "gpu-0000:00:02.0-%s~%s", hash,
           "+cri-containerd-3f2a9b7c1d.scope");
  assert_string_equal(id.plugin_instance, want);
  /* a last component longer than that keeps its start (the container
   * id's first digits), then ~HASH */
  const char *ctr =
      "cri-containerd-3f2a9b7c1d0e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2"
      "f3a4b5c6d7e8f9a0b.scope";
  snprintf(path, sizeof(path), "/kubepods.slice/%s", ctr);
  id = map("eng", "gpu", "scope", "cgroup", "device", "0000:00:02.0", "cgroup",
           path, "engine", "render", NULL);
  snprintf(full, sizeof(full), "gpu-0000:00:02.0-+kubepods.slice+%s", ctr);
  ref_hash(full, hash);
  snprintf(want, sizeof(want), "gpu-0000:00:02.0-%.37s~%s", ctr, hash);
  assert_string_equal(id.plugin_instance, want);
  assert_int_equal(strlen(want), 63);
  check_name(id.plugin_instance);
}

/* A long free part keeps its start (HEAD~HASH), never half an escape or
 * half a UTF-8 sequence; 63 bytes exactly are not cut. */
static void collectd_map__cut_keeps_head_on_units(void **state) {
  (void)state;
  char comm[64];
  memset(comm, 'c', sizeof(comm));
  /* "d-1-" is 4 bytes: 59 bytes of comm make 63 */
  comm[59] = '\0';
  struct collectd_ident id = map("eng", NULL, "scope", "process", "device", "d",
                                 "pid", "1", "comm", comm, "engine", "e", NULL);
  assert_int_equal(strlen(id.plugin_instance), 63);
  assert_null(strchr(id.plugin_instance, '~'));
  comm[59] = 'c';
  comm[60] = '\0';
  id = map("eng", NULL, "scope", "process", "device", "d", "pid", "1", "comm",
           comm, "engine", "e", NULL);
  char full[128], hash[9], want[128];
  snprintf(full, sizeof(full), "d-1-%s", comm);
  ref_hash(full, hash);
  snprintf(want, sizeof(want), "d-1-%.50s~%s", comm, hash);
  assert_string_equal(id.plugin_instance, want);
  /* 48 plain bytes, then an escape that would straddle byte 50 */
  char v[80];
  snprintf(v, sizeof(v), "%.48s %s", comm, "tail-that-is-long-enough");
  id = map("eng", NULL, "scope", "process", "device", "d", "pid", "1", "comm",
           v, "engine", "e", NULL);
  snprintf(full, sizeof(full), "d-1-%.48s%%20%s", comm,
           "tail-that-is-long-enough");
  ref_hash(full, hash);
  snprintf(want, sizeof(want), "d-1-%.48s~%s", comm, hash);
  assert_string_equal(id.plugin_instance, want);
  /* a UTF-8 sequence (3 bytes) straddling byte 50 */
  snprintf(v, sizeof(v), "%.48s\xe2\x82\xac%s", comm, "-and-more-text");
  id = map("eng", NULL, "scope", "process", "device", "d", "pid", "1", "comm",
           v, "engine", "e", NULL);
  snprintf(full, sizeof(full), "d-1-%s", v);
  ref_hash(full, hash);
  snprintf(want, sizeof(want), "d-1-%.48s~%s", comm, hash);
  assert_string_equal(id.plugin_instance, want);
}

/* A label so long that nothing is left for the part: the name's first 54
 * bytes and ~HASH. A type_instance is cut the same way. */
static void collectd_map__cut_whole_name(void **state) {
  (void)state;
  char label[100];
  memset(label, 'l', 70);
  label[70] = '\0';
  struct collectd_ident id = map("dev", label, "device", "card0", NULL);
  char full[128], hash[9], want[128];
  snprintf(full, sizeof(full), "%s-card0", label);
  ref_hash(full, hash);
  snprintf(want, sizeof(want), "%.54s~%s", label, hash);
  assert_string_equal(id.plugin_instance, want);
  char engine[100];
  memset(engine, 'e', 70);
  engine[70] = '\0';
  id = map("eng", NULL, "device", "d", "engine", engine, NULL);
  snprintf(full, sizeof(full), "%s-busy_ns", engine);
  ref_hash(full, hash);
  /* the engine gives way: 63 - "-busy_ns" (8) - 9 = 46 */
  snprintf(want, sizeof(want), "%.46s~%s-busy_ns", engine, hash);
  assert_string_equal(id.type_instance, want);
}

/* Values that differ only in characters collectd, unixsock or Graphite
 * treat specially, and long values that differ only past the cut, never
 * meet; every name fits and uses only the allowed characters. */
static void collectd_map__hostile_values_stay_apart(void **state) {
  (void)state;
  static const char *const v[] = {
      "a.b",
      "a_b",
      "a:b",
      "a!b",
      "a b",
      "a%2Eb",
      "a/b",
      "a+b",
      "a-b",
      "a~b",
      "a=b",
      "a\nb",
      "a?b",
      "a\"b",
      "a'b",
      "a\\b",
      "a\xc3\xa9",
      "a\xc3",
      "a%C3",
      "a%2Bb",
      "",
      "/kubepods/burstable/pod0123456789abcdef0123456789abcdef/ctr-aaaa",
      "/kubepods/burstable/pod0123456789abcdef0123456789abcdef/ctr-aaab",
      "/x/pod0123456789abcdef0123456789abcdef0123456789abcdef/ctr-aaaa"};
  char seen[ARRAY_SIZE(v) * 2][64];
  size_t n = 0;
  for (size_t i = 0; i < ARRAY_SIZE(v); i++) {
    struct collectd_ident a =
        map("eng", "gpu", "scope", "cgroup", "device", "0000:00:02.0", "cgroup",
            v[i], "engine", "render", NULL);
    struct collectd_ident b =
        map("eng", "gpu", "scope", "process", "device", "0000:00:02.0", "pid",
            "1", "comm", v[i], "engine", "render", NULL);
    check_name(a.plugin_instance);
    check_name(b.plugin_instance);
    memcpy(seen[n++], a.plugin_instance, 64);
    memcpy(seen[n++], b.plugin_instance, 64);
  }
  for (size_t i = 0; i < n; i++)
    for (size_t k = i + 1; k < n; k++)
      if (strcmp(seen[i], seen[k]) == 0)
        fail_msg("%zu and %zu meet: %s", i, k, seen[i]);
  /* write_graphite 5.12 with EscapeCharacter "=": what it rewrites (its
   * GRAPHITE_FORBIDDEN and '.') becomes '=', and they stay apart */
  for (size_t i = 0; i < n; i++)
    for (char *c = seen[i]; *c; c++)
      if (strchr(". \t\"\\:!,/()\n\r", *c) != NULL)
        *c = '=';
  for (size_t i = 0; i < n; i++)
    for (size_t k = i + 1; k < n; k++)
      assert_string_not_equal(seen[i], seen[k]);
}

/* Random bytes of every length: always a name of at most 63 allowed
 * bytes, and the type copied. */
static void collectd_map__random_values_fit(void **state) {
  (void)state;
  srand(7);
  char v[300];
  for (int round = 0; round < 3000; round++) {
    size_t len = (size_t)rand() % sizeof(v);
    for (size_t i = 0; i < len; i++)
      v[i] = (char)(1 + rand() % 255);
    v[len] = '\0';
    struct collectd_ident id = map(
        "eng", round % 2 ? v : "gpu", "scope", round % 3 ? "cgroup" : "process",
        "device", v, "pid", "1", "comm", v, "cgroup", v, "engine", v, NULL);
    check_name(id.plugin_instance);
    check_name(id.type_instance);
    assert_string_equal(id.type, "gpu_time");
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(collectd_map__rules_by_measurement_and_tag),
      cmocka_unit_test(collectd_map__label_first),
      cmocka_unit_test(collectd_map__escaping),
      cmocka_unit_test(collectd_map__no_rule),
      cmocka_unit_test(collectd_map__cut_keeps_cgroup_tail),
      cmocka_unit_test(collectd_map__cut_keeps_head_on_units),
      cmocka_unit_test(collectd_map__cut_whole_name),
      cmocka_unit_test(collectd_map__hostile_values_stay_apart),
      cmocka_unit_test(collectd_map__random_values_fit),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
