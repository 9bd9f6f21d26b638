/*
 * test_host_exec.c: the exec host's command line, table-driven.
 */
#include "common/host_exec.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

static int parse(struct host_exec_args *a, const char *const *argv) {
  int argc = 0;
  while (argv[argc])
    argc++;
  return host_exec_parse_args("test", argc, (char **)argv, a);
}

static void host_exec_parse_args__valid(void **state) {
  (void)state;
  struct host_exec_args a;
  const char *const argv[] = {"--format=json",
                              "--execd",
                              "--window=0.5",
                              "--ReportBy=Device",
                              "--reportby=Process",
                              "--Event=a",
                              "--Event.Scale=2",
                              "--log-level=debug",
                              NULL};
  assert_int_equal(parse(&a, argv), 0);
  assert_int_equal(a.format, HOST_EXEC_JSON);
  assert_int_equal(a.mode, HOST_EXEC_EXECD);
  assert_true(a.window_s == 0.5);
  assert_int_equal(a.log_level, LOG_LEVEL_DEBUG);
  assert_int_equal(a.n_items, 3);
  assert_string_equal(a.items[0].key, "ReportBy");
  assert_string_equal(a.items[0].values[0].string, "Device");
  assert_string_equal(a.items[1].key, "reportby");
  assert_string_equal(a.items[2].key, "Event");
  assert_int_equal(a.items[2].n_children, 1);
  assert_string_equal(a.items[2].children[0].key, "Scale");
  assert_string_equal(a.items[2].children[0].values[0].string, "2");
  host_exec_args_fini(&a);

  const char *const defaults[] = {NULL};
  assert_int_equal(parse(&a, defaults), 0);
  assert_int_equal(a.format, HOST_EXEC_INFLUX);
  assert_int_equal(a.mode, HOST_EXEC_ONCE);
  assert_true(a.window_s == 1.0);
  host_exec_args_fini(&a);

  const char *const interval[] = {"--interval=2.5", "--format=table", NULL};
  assert_int_equal(parse(&a, interval), 0);
  assert_int_equal(a.mode, HOST_EXEC_INTERVAL);
  assert_true(a.interval_s == 2.5);
  host_exec_args_fini(&a);
}

static void host_exec_parse_args__errors(void **state) {
  (void)state;
  static const char *const bad[][3] = {
      {"--interval=0", NULL},     {"--interval=0,5", NULL},
      {"--interval", NULL},       {"--window=-1", NULL},
      {"--window=abc", NULL},     {"--format=xml", NULL},
      {"--once", "--execd"},      {"positional", NULL},
      {"--ReportBy", NULL},       {"--=x", NULL},
      {"--log-level=loud", NULL}, {"--help=yes", NULL},
  };
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
    struct host_exec_args a;
    if (parse(&a, bad[i]) != -EINVAL)
      fail_msg("accepted: %s %s", bad[i][0], bad[i][1] ? bad[i][1] : "");
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(host_exec_parse_args__valid),
      cmocka_unit_test(host_exec_parse_args__errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
