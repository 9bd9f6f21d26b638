/*
 * test_collectd_conf.c: collectd's configuration syntax read without
 * collectd (common/exec/collectd_conf.c), table-driven: each text against
 * its tree, each error against its message (line numbers included), and
 * the shipped collectd snippets (conf.d/) read whole.
 */
#include "common/core/numfmt.h"
#include "common/exec/collectd_conf.h"
#include "common/exec/host_exec.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

/* The tree as text: key(v1,v2){children}; strings quoted, numbers as
 * numfmt prints them, booleans as true/false. */
static void dump(const struct cfg_item *items, size_t n, char *out,
                 size_t size) {
  for (size_t i = 0; i < n; i++) {
    const struct cfg_item *it = &items[i];
    size_t len = strlen(out);
    snprintf(out + len, size - len, "%s%s(", i ? ";" : "", it->key);
    for (size_t v = 0; v < it->n_values; v++) {
      const struct cfg_value *val = &it->values[v];
      char num[64];
      len = strlen(out);
      if (val->type == CFG_STRING)
        snprintf(out + len, size - len, "%s\"%s\"", v ? "," : "", val->string);
      else if (val->type == CFG_BOOLEAN)
        snprintf(out + len, size - len, "%s%s", v ? "," : "",
                 val->boolean ? "true" : "false");
      else {
        numfmt_double(val->number, num, sizeof(num));
        snprintf(out + len, size - len, "%s%s", v ? "," : "", num);
      }
    }
    len = strlen(out);
    snprintf(out + len, size - len, ")");
    if (it->n_children > 0) {
      len = strlen(out);
      snprintf(out + len, size - len, "{");
      dump(it->children, it->n_children, out, size);
      len = strlen(out);
      snprintf(out + len, size - len, "}");
    }
  }
}

struct tree_case {
  const char *text;
  const char *tree;
};

static const struct tree_case tree_cases[] = {
    {"", ""},
    {"# only a comment\n\n   \n", ""},
    {"LoadPlugin drm_fdinfo", "LoadPlugin(\"drm_fdinfo\")"},
    {"LoadPlugin drm_fdinfo\r\nInterval 10\r\n",
     "LoadPlugin(\"drm_fdinfo\");Interval(10.0)"},
    {"Key \"a \\\"quoted\\\" \\\\ string\"", "Key(\"a \"quoted\" \\ string\")"},
    {"Key 1 -2 +3 0.5 -.25 1e3 0x10 010 -0x10",
     "Key(1.0,-2.0,3.0,0.5,-0.25,1000.0,16.0,8.0,-16.0)"},
    {"Key true yes on false no off TRUE Off",
     "Key(true,true,true,false,false,false,true,false)"},
    {"Key 0000:03:00.0 renderD128 /dev/dri a-b_c@d+e",
     "Key(\"0000:03:00.0\",\"renderD128\",\"/dev/dri\",\"a-b_c@d+e\")"},
    {"Key 1 # the rest is a comment \"quoted\"", "Key(1.0)"},
    {"Key \"a # not a comment\"", "Key(\"a # not a comment\")"},
    {"Key 1 \\\n  2", "Key(1.0,2.0)"},
    {"<Plugin drm_fdinfo>\n  ReportBy Device Process\n</Plugin>",
     "Plugin(\"drm_fdinfo\"){ReportBy(\"Device\",\"Process\")}"},
    {"<Plugin x>\n<Instance \"gpu\">\nInterval 10\n</Instance>\n</plugin>\n",
     "Plugin(\"x\"){Instance(\"gpu\"){Interval(10.0)}}"},
    {"<LoadPlugin i915_oa>\n  Interval 2\n</LoadPlugin>",
     "LoadPlugin(\"i915_oa\"){Interval(2.0)}"},
    {"<Block>\n</Block>", "Block()"},
    {"<Plugin a>\n</Plugin>\n<Plugin b>\nK v\n</Plugin>",
     "Plugin(\"a\");Plugin(\"b\"){K(\"v\")}"},
};

static void collectd_conf_parse__trees(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof(tree_cases) / sizeof(tree_cases[0]); i++) {
    const struct tree_case *c = &tree_cases[i];
    struct cfg_item *items;
    size_t n;
    char err[256], got[2048] = "";
    int rc = collectd_conf_parse(c->text, strlen(c->text), &items, &n, err,
                                 sizeof(err));
    if (rc != 0)
      fail_msg("\"%s\": rc %d: %s", c->text, rc, err);
    dump(items, n, got, sizeof(got));
    if (strcmp(got, c->tree) != 0)
      fail_msg("\"%s\": got %s, expected %s", c->text, got, c->tree);
    cfg_items_free(items, n);
  }
}

struct error_case {
  const char *text;
  const char *error;
};

static const struct error_case error_cases[] = {
    {"Key \"open", "line 1: unterminated string"},
    {"\n\n<Plugin x>\nK 1\n", "line 5: <Plugin> is not closed"},
    {"</Plugin>", "line 1: </Plugin> closes no open block"},
    {"<A>\n</B>", "line 2: </B> closes no open block: expected </A"},
    {"<A x\n</A>", "line 1: expected '>' to end <A"},
    {"<A> trailing\n</A>", "line 1: text after <A ...>"},
    {"<A>\n</A> x", "line 2: text after </A>"},
    {"1Key v", "line 1: expected a key"},
    {"Key a=b", "line 1: unexpected character '=' in the values of Key"},
    {"Key \x01", "line 1: unexpected character '\\?' in the values of Key"},
    {"Key a\0b", "line 1: a NUL byte in the file"},
};

static void collectd_conf_parse__errors(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof(error_cases) / sizeof(error_cases[0]); i++) {
    const struct error_case *c = &error_cases[i];
    size_t len = strlen(c->text);
    if (strcmp(c->text, "Key a") == 0)
      len = 7; /* the NUL case: the bytes after it count */
    struct cfg_item *items = (struct cfg_item *)1;
    size_t n = 99;
    char err[256];
    int rc = collectd_conf_parse(c->text, len, &items, &n, err, sizeof(err));
    if (rc != -EINVAL || strcmp(err, c->error) != 0)
      fail_msg("\"%s\": rc %d, \"%s\", expected \"%s\"", c->text, rc, err,
               c->error);
    assert_null(items);
    assert_int_equal(n, 0);
  }
}

static void collectd_conf_parse__depth(void **state) {
  (void)state;
  char text[4096] = "";
  for (int i = 0; i < COLLECTD_CONF_MAX_DEPTH + 1; i++)
    strcat(text, "<B>\n");
  struct cfg_item *items;
  size_t n;
  char err[256];
  assert_int_equal(
      collectd_conf_parse(text, strlen(text), &items, &n, err, sizeof(err)),
      -EINVAL);
  assert_non_null(strstr(err, "nested deeper than"));
}

/* Every shipped collectd snippet reads, with its LoadPlugin line. */
static void collectd_conf_parse__shipped_snippets(void **state) {
  (void)state;
  static const char *const names[] = {"drm_fdinfo", "tegra410_uncore",
                                      "panthor_perf", "i915_oa", "drm_device"};
  for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
    char path[128], buf[65536];
    snprintf(path, sizeof(path), "conf.d/%s.conf", names[k]);
    FILE *f = fopen(path, "r");
    if (f == NULL)
      fail_msg("%s: cannot open (run from the source root)", path);
    size_t len = fread(buf, 1, sizeof(buf), f);
    fclose(f);
    struct cfg_item *items;
    size_t n;
    char err[256];
    if (collectd_conf_parse(buf, len, &items, &n, err, sizeof(err)) != 0)
      fail_msg("%s: %s", path, err);
    bool load = false;
    for (size_t i = 0; i < n; i++)
      load |= strcmp(items[i].key, "LoadPlugin") == 0 &&
              items[i].n_values == 1 &&
              strcmp(items[i].values[0].string, names[k]) == 0;
    assert_true(load);
    cfg_items_free(items, n);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(collectd_conf_parse__trees),
      cmocka_unit_test(collectd_conf_parse__errors),
      cmocka_unit_test(collectd_conf_parse__depth),
      cmocka_unit_test(collectd_conf_parse__shipped_snippets),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
