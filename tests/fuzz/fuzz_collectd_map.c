/*
 * fuzz_collectd_map.c: libFuzzer target for collectd_map() (the collectd
 * identifier rule, collectd_map.h): any tag values, label and rule shape
 * in, and out always names of at most 63 bytes made only of the characters
 * the rule allows ('~' only in a cut name), a type copied.
 */
#include "common/collectd/collectd_map.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const struct collectd_rule fz_rules[] = {
    {"m",
     "scope",
     "c",
     {{"a", NULL, 0}, {"b", "p", CM_OPTIONAL}, {"c", NULL, CM_FREE | CM_TAIL}},
     {{"d", NULL, CM_FREE}}},
    {"m",
     NULL,
     NULL,
     {{"a", NULL, 0}, {"b", NULL, 0}, {"c", NULL, CM_FREE}},
     {{"d", NULL, 0}, {NULL, "x", 0}}},
    {0},
};

static void fz_check(const char *name) {
  size_t n = strlen(name);
  if (n > 63)
    abort();
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)name[i];
    if (c >= 0x80 || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
        (c >= '0' && c <= '9') || strchr("_.:@+%~-", c) != NULL)
      continue;
    abort();
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  /* five NUL-separated strings: label, a, b, c, d (tag values) */
  char buf[2048];
  if (size >= sizeof(buf))
    size = sizeof(buf) - 1;
  memcpy(buf, data, size);
  buf[size] = '\0';
  const char *s[5] = {"", "", "", "", ""};
  size_t at = 0;
  for (int i = 0; i < 5 && at <= size; i++) {
    s[i] = buf + at;
    at += strlen(buf + at) + 1;
  }
  struct metric m;
  metric_init(&m, "m", 1);
  if (size > 0 && (data[0] & 1))
    metric_add_tag(&m, "scope", "c");
  metric_add_tag(&m, "a", s[1]);
  if (size > 0 && (data[0] & 2))
    metric_add_tag(&m, "b", s[2]);
  metric_add_tag(&m, "c", s[3]);
  metric_add_tag(&m, "d", s[4]);
  metric_add_int(&m, "f", "gpu_time", 1);
  struct collectd_ident id;
  const struct collectd_rule *rules =
      size > 0 && (data[0] & 4) ? NULL : fz_rules;
  collectd_map(rules, &m, 0, "plug", s[0][0] ? s[0] : NULL, &id);
  fz_check(id.plugin_instance);
  fz_check(id.type_instance);
  if (strcmp(id.type, "gpu_time") != 0)
    abort();
  return 0;
}
