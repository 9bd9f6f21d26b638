/*
 * test_exec_conf.c: gpu-telemetry's --config sources (exec_conf.c), on
 * trees built under mkdtemp: a directory read in strcmp order with hidden
 * names and other file types skipped, a glob, Include with Filter, the
 * depth limit (collectd's 8), an Include loop and a directory symlinked
 * into itself refused, a FIFO refused at once, and the file:line of each
 * item.
 */
#include "common/core/log.h"
#include "common/exec/exec_conf.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

static char root[64];
static char said[4096]; /* the messages logged, one per line */

static void capture(enum log_level level, const char *message) {
  size_t len = strlen(said);
  snprintf(said + len, sizeof(said) - len, "%d %s\n", (int)level, message);
}

static void put(const char *rel, const char *text) {
  char path[256];
  snprintf(path, sizeof(path), "%s/%s", root, rel);
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs(text, f);
  fclose(f);
}

static void dir(const char *rel) {
  char path[256];
  snprintf(path, sizeof(path), "%s/%s", root, rel);
  assert_int_equal(mkdir(path, 0755), 0);
}

/* The items' keys and first string values, "key:value;..." */
static void keys(const struct exec_conf *c, char *out, size_t size) {
  out[0] = '\0';
  for (size_t i = 0; i < c->n_items; i++) {
    size_t len = strlen(out);
    const struct cfg_item *it = &c->items[i];
    snprintf(out + len, size - len, "%s%s:%s", i ? ";" : "", it->key,
             it->n_values && it->values[0].type == CFG_STRING
                 ? it->values[0].string
                 : "-");
  }
}

static int read_one(struct exec_conf *c, const char *rel) {
  char path[256];
  snprintf(path, sizeof(path), "%s/%s", root, rel);
  const char *src[] = {path};
  said[0] = '\0';
  return exec_conf_read(c, "gpu-telemetry", src, 1);
}

static int setup(void **state) {
  (void)state;
  snprintf(root, sizeof(root), "/tmp/test_exec_conf.XXXXXX");
  assert_non_null(mkdtemp(root));
  log_set_sink(capture, LOG_LEVEL_DEBUG);
  return 0;
}

static int teardown(void **state) {
  (void)state;
  char cmd[128];
  snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
  assert_int_equal(system(cmd), 0);
  log_set_sink(NULL, LOG_LEVEL_INFO);
  return 0;
}

/* A directory: sorted, hidden names and a FIFO skipped, subdirectories
 * descended; each item keeps its file and line. */
static void exec_conf_read__directory(void **state) {
  (void)state;
  dir("d");
  dir("d/sub");
  put("d/b.conf", "LoadPlugin b\n");
  put("d/a.conf", "# first\n\nLoadPlugin a\n");
  put("d/.hidden.conf", "LoadPlugin hidden\n");
  put("d/sub/c.conf", "LoadPlugin c\n");
  char fifo[256];
  snprintf(fifo, sizeof(fifo), "%s/d/fifo.conf", root);
  assert_int_equal(mkfifo(fifo, 0600), 0);
  struct exec_conf c;
  assert_int_equal(read_one(&c, "d"), 0);
  char got[512], where[300], want[300];
  keys(&c, got, sizeof(got));
  assert_string_equal(got, "LoadPlugin:a;LoadPlugin:b;LoadPlugin:c");
  snprintf(want, sizeof(want), "%s/d/a.conf:3", root);
  assert_string_equal(exec_conf_where(&c, 0, 0, where, sizeof(where)), want);
  assert_non_null(strstr(said, "fifo.conf: --config: neither a file nor a "
                               "directory: skipped"));
  exec_conf_fini(&c);
}

/* A glob the shell left; Include with a Filter; a missing Include is a
 * warning, as in collectd. */
static void exec_conf_read__glob_and_include(void **state) {
  (void)state;
  dir("g");
  put("g/1.conf", "LoadPlugin one\n");
  put("g/2.txt", "LoadPlugin txt\n");
  put("g/3.conf", "LoadPlugin three\n");
  struct exec_conf c;
  char got[512], text[512];
  assert_int_equal(read_one(&c, "g/*.conf"), 0);
  keys(&c, got, sizeof(got));
  assert_string_equal(got, "LoadPlugin:one;LoadPlugin:three");
  exec_conf_fini(&c);

  snprintf(text, sizeof(text),
           "Interval 5\n<Include \"%s/g\">\n  Filter \"*.conf\"\n</Include>\n"
           "Include \"%s/g/2.txt\"\nInclude \"%s/nowhere\"\nLoadPlugin last\n",
           root, root, root);
  put("main.conf", text);
  assert_int_equal(read_one(&c, "main.conf"), 0);
  keys(&c, got, sizeof(got));
  assert_string_equal(got, "Interval:-;LoadPlugin:one;LoadPlugin:three;"
                           "LoadPlugin:txt;LoadPlugin:last");
  assert_non_null(strstr(said, "nowhere: Include: No such file or directory: "
                               "nothing included"));
  exec_conf_fini(&c);
  assert_int_equal(read_one(&c, "g/*.none"), 2);
  assert_non_null(strstr(said, "matches no file"));
  exec_conf_fini(&c);
}

/* Files each including the next: 8 inside each other are read, 9 are
 * refused (collectd's CF_MAX_DEPTH). */
static void exec_conf_read__depth(void **state) {
  (void)state;
  char text[512];
  for (int k = 0; k <= 9; k++) {
    char rel[32];
    snprintf(rel, sizeof(rel), "n%d.conf", k);
    if (k < 9)
      snprintf(text, sizeof(text), "LoadPlugin p%d\nInclude \"%s/n%d.conf\"\n",
               k, root, k + 1);
    else
      snprintf(text, sizeof(text), "LoadPlugin p%d\n", k);
    put(rel, text);
  }
  struct exec_conf c;
  assert_int_equal(read_one(&c, "n2.conf"), 0); /* n2 .. n9: 8 files */
  assert_int_equal(c.n_items, 8);
  exec_conf_fini(&c);
  assert_int_equal(read_one(&c, "n1.conf"), 2);
  assert_non_null(strstr(said, "more than 8 files included inside each "
                               "other (collectd's limit)"));
  exec_conf_fini(&c);
}

/* A file including itself through another, and a directory symlinked
 * into itself: refused naming the chain, at once. */
static void exec_conf_read__loops(void **state) {
  (void)state;
  char text[256], link[256];
  snprintf(text, sizeof(text), "Include \"%s/y.conf\"\n", root);
  put("x.conf", text);
  snprintf(text, sizeof(text), "Include \"%s/x.conf\"\n", root);
  put("y.conf", text);
  struct exec_conf c;
  assert_int_equal(read_one(&c, "x.conf"), 2);
  assert_non_null(strstr(said, "includes itself: "));
  exec_conf_fini(&c);
  dir("loop");
  put("loop/a.conf", "LoadPlugin a\n");
  snprintf(text, sizeof(text), "%s/loop", root);
  snprintf(link, sizeof(link), "%s/loop/again", root);
  assert_int_equal(symlink(text, link), 0);
  assert_int_equal(read_one(&c, "loop"), 2);
  assert_non_null(strstr(said, "includes itself: "));
  exec_conf_fini(&c);
}

/* A FIFO as --config: refused at once, not waited on. */
static void exec_conf_read__fifo(void **state) {
  (void)state;
  char fifo[256];
  snprintf(fifo, sizeof(fifo), "%s/pipe", root);
  assert_int_equal(mkfifo(fifo, 0600), 0);
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  struct exec_conf c;
  assert_int_equal(read_one(&c, "pipe"), 2);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  assert_true(t1.tv_sec - t0.tv_sec < 1);
  assert_non_null(strstr(said, "not a file or a directory (a FIFO)"));
  exec_conf_fini(&c);
}

/* A syntax error names the file and the line. */
static void exec_conf_read__syntax(void **state) {
  (void)state;
  put("bad.conf", "LoadPlugin a\n<Plugin a>\n");
  struct exec_conf c;
  assert_int_equal(read_one(&c, "bad.conf"), 2);
  assert_non_null(strstr(said, "bad.conf: line 3: <Plugin> is not closed"));
  exec_conf_fini(&c);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(exec_conf_read__directory),
      cmocka_unit_test(exec_conf_read__glob_and_include),
      cmocka_unit_test(exec_conf_read__depth),
      cmocka_unit_test(exec_conf_read__loops),
      cmocka_unit_test(exec_conf_read__fifo),
      cmocka_unit_test(exec_conf_read__syntax),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
