/*
 * test_host_exec.c: the exec host's command line (host_exec_parse_args),
 * table-driven: every flag, defaults, bad numbers (comma decimals in a
 * comma locale too), unknown bare flags, positional arguments, dotted keys
 * building children, repeated keys in order, and the exact error texts.
 */
#include "common/exec/host_exec.h"
#include "tests/lib/comma_locale.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#define MAX_ARGS 8

static int parse(const char *const *args, struct host_exec_args *a) {
  char *argv[MAX_ARGS + 2] = {(char *)"fake_plugin"};
  int argc = 1;
  while (argc <= MAX_ARGS && args[argc - 1] != NULL) {
    argv[argc] = (char *)args[argc - 1];
    argc++;
  }
  return host_exec_parse_args(argc, argv, a);
}

/* The item tree as text: key=v1,v2{child;child};key... ('-' for no value). */
static void dump(const struct cfg_item *items, size_t n, char *out,
                 size_t size) {
  size_t len = strlen(out);
  for (size_t i = 0; i < n; i++) {
    const struct cfg_item *it = &items[i];
    len +=
        (size_t)snprintf(out + len, size - len, "%s%s=", i ? ";" : "", it->key);
    if (it->n_values == 0)
      len += (size_t)snprintf(out + len, size - len, "-");
    for (size_t v = 0; v < it->n_values; v++) {
      assert_int_equal(it->values[v].type, CFG_STRING);
      len += (size_t)snprintf(out + len, size - len, "%s%s", v ? "," : "",
                              it->values[v].string);
    }
    if (it->n_children > 0) {
      len += (size_t)snprintf(out + len, size - len, "{");
      dump(it->children, it->n_children, out, size);
      len = strlen(out);
      len += (size_t)snprintf(out + len, size - len, "}");
    }
    assert_true(len < size);
  }
}

struct valid_case {
  const char *name;
  const char *args[MAX_ARGS + 1];
  enum host_exec_format format;
  enum host_exec_mode mode;
  double interval_s, window_s;
  enum log_level log_level;
  bool help;
  const char *items;
};

static const struct valid_case valid_cases[] = {
    {"defaults",
     {NULL},
     HOST_EXEC_INFLUX,
     HOST_EXEC_ONCE,
     0,
     1,
     LOG_LEVEL_WARNING,
     false,
     ""},
    {"help",
     {"--help"},
     HOST_EXEC_INFLUX,
     HOST_EXEC_ONCE,
     0,
     1,
     LOG_LEVEL_WARNING,
     true,
     ""},
    {"format json",
     {"--format=json"},
     HOST_EXEC_JSON,
     HOST_EXEC_ONCE,
     0,
     1,
     LOG_LEVEL_WARNING,
     false,
     ""},
    {"format table",
     {"--format=table"},
     HOST_EXEC_TABLE,
     HOST_EXEC_ONCE,
     0,
     1,
     LOG_LEVEL_WARNING,
     false,
     ""},
    {"format top: the live view, every second",
     {"--format=top"},
     HOST_EXEC_TOP,
     HOST_EXEC_INTERVAL,
     1,
     1,
     LOG_LEVEL_WARNING,
     false,
     ""},
    {"format top at an interval",
     {"--format=top", "--interval=0.5"},
     HOST_EXEC_TOP,
     HOST_EXEC_INTERVAL,
     0.5,
     1,
     LOG_LEVEL_WARNING,
     false,
     ""},
    {"format top once: one screen",
     {"--format=top", "--once", "--rows=7"},
     HOST_EXEC_TOP,
     HOST_EXEC_ONCE,
     0,
     1,
     LOG_LEVEL_WARNING,
     false,
     ""},
    {"format influx, last wins",
     {"--format=json", "--format=influx"},
     HOST_EXEC_INFLUX,
     HOST_EXEC_ONCE,
     0,
     1,
     LOG_LEVEL_WARNING,
     false,
     ""},
    {"once",
     {"--once"},
     HOST_EXEC_INFLUX,
     HOST_EXEC_ONCE,
     0,
     1,
     LOG_LEVEL_WARNING,
     false,
     ""},
    {"execd",
     {"--execd"},
     HOST_EXEC_INFLUX,
     HOST_EXEC_EXECD,
     0,
     1,
     LOG_LEVEL_WARNING,
     false,
     ""},
    {"-h is --help",
     {"-h"},
     HOST_EXEC_INFLUX,
     HOST_EXEC_ONCE,
     0,
     1,
     LOG_LEVEL_WARNING,
     true,
     ""},
    {"the collectd key Interval is --interval, any case",
     {"--Interval=5"},
     HOST_EXEC_INFLUX,
     HOST_EXEC_INTERVAL,
     5,
     1,
     LOG_LEVEL_WARNING,
     false,
     ""},
    {"INTERVAL",
     {"--INTERVAL=0.5", "--Step=1"},
     HOST_EXEC_INFLUX,
     HOST_EXEC_INTERVAL,
     0.5,
     1,
     LOG_LEVEL_WARNING,
     false,
     "Step=1"},
    {"interval fractional",
     {"--interval=0.2"},
     HOST_EXEC_INFLUX,
     HOST_EXEC_INTERVAL,
     0.2,
     1,
     LOG_LEVEL_WARNING,
     false,
     ""},
    {"interval at the maximum",
     {"--interval=1e6"},
     HOST_EXEC_INFLUX,
     HOST_EXEC_INTERVAL,
     1e6,
     1,
     LOG_LEVEL_WARNING,
     false,
     ""},
    {"window 0",
     {"--window=0"},
     HOST_EXEC_INFLUX,
     HOST_EXEC_ONCE,
     0,
     0,
     LOG_LEVEL_WARNING,
     false,
     ""},
    {"window .5",
     {"--window=.5"},
     HOST_EXEC_INFLUX,
     HOST_EXEC_ONCE,
     0,
     0.5,
     LOG_LEVEL_WARNING,
     false,
     ""},
    {"log levels",
     {"--log-level=error"},
     HOST_EXEC_INFLUX,
     HOST_EXEC_ONCE,
     0,
     1,
     LOG_LEVEL_ERROR,
     false,
     ""},
    {"log level info",
     {"--log-level=info"},
     HOST_EXEC_INFLUX,
     HOST_EXEC_ONCE,
     0,
     1,
     LOG_LEVEL_INFO,
     false,
     ""},
    {"log level debug",
     {"--log-level=warning", "--log-level=debug"},
     HOST_EXEC_INFLUX,
     HOST_EXEC_ONCE,
     0,
     1,
     LOG_LEVEL_DEBUG,
     false,
     ""},
    {"repeated keys keep order and spelling",
     {"--ReportBy=Device", "--Driver=i915", "--reportby=Process"},
     HOST_EXEC_INFLUX,
     HOST_EXEC_ONCE,
     0,
     1,
     LOG_LEVEL_WARNING,
     false,
     "ReportBy=Device;Driver=i915;reportby=Process"},
    {"values keep '=', spaces, empty and leading dashes",
     {"--Terms=a=b,c", "--Name=x y", "--Empty=", "--Dash=--once"},
     HOST_EXEC_INFLUX,
     HOST_EXEC_ONCE,
     0,
     1,
     LOG_LEVEL_WARNING,
     false,
     "Terms=a=b,c;Name=x y;Empty=;Dash=--once"},
    {"dotted keys go to the latest block of that name, any case",
     {"--Event=a", "--Event.Scale=2", "--Event=b", "--event.Scale=3",
      "--EVENT.Unit=x"},
     HOST_EXEC_INFLUX,
     HOST_EXEC_ONCE,
     0,
     1,
     LOG_LEVEL_WARNING,
     false,
     "Event=a{Scale=2};Event=b{Scale=3;Unit=x}"},
    {"a dotted key without its block creates a value-less one",
     {"--Field.Value=7", "--Field.Type=count", "--Step=2"},
     HOST_EXEC_INFLUX,
     HOST_EXEC_ONCE,
     0,
     1,
     LOG_LEVEL_WARNING,
     false,
     "Field=-{Value=7;Type=count};Step=2"},
    {"two dots nest two levels",
     {"--A=1", "--A.B=2", "--A.B.C=3", "--a.b.D=4"},
     HOST_EXEC_INFLUX,
     HOST_EXEC_ONCE,
     0,
     1,
     LOG_LEVEL_WARNING,
     false,
     "A=1{B=2{C=3;D=4}}"},
    {"--listen: prometheus, read every 10 s",
     {"--listen=[::1]:9400"},
     HOST_EXEC_PROMETHEUS,
     HOST_EXEC_INTERVAL,
     HOST_EXEC_LISTEN_INTERVAL,
     1,
     LOG_LEVEL_WARNING,
     false,
     ""},
    {"--listen keeps --interval and an explicit --format=prometheus",
     {"--interval=2", "--listen=:9470", "--format=prometheus"},
     HOST_EXEC_PROMETHEUS,
     HOST_EXEC_INTERVAL,
     2,
     1,
     LOG_LEVEL_WARNING,
     false,
     ""},
    {"--format=prometheus prints",
     {"--format=prometheus"},
     HOST_EXEC_PROMETHEUS,
     HOST_EXEC_ONCE,
     0,
     1,
     LOG_LEVEL_WARNING,
     false,
     ""},
    {"everything",
     {"--format=table", "--execd", "--window=2.5", "--log-level=info",
      "--Tag=x", "--Step=5"},
     HOST_EXEC_TABLE,
     HOST_EXEC_EXECD,
     0,
     2.5,
     LOG_LEVEL_INFO,
     false,
     "Tag=x;Step=5"},
};

static void check_valid(void) {
  for (size_t i = 0; i < sizeof(valid_cases) / sizeof(valid_cases[0]); i++) {
    const struct valid_case *c = &valid_cases[i];
    struct host_exec_args a;
    int rc = parse(c->args, &a);
    if (rc != 0)
      fail_msg("%s: rc %d, error \"%s\"", c->name, rc, a.error);
    char items[512] = "";
    dump(a.items, a.n_items, items, sizeof(items));
    if (a.format != c->format || a.mode != c->mode ||
        a.interval_s != c->interval_s || a.window_s != c->window_s ||
        a.log_level != c->log_level || a.help != c->help || a.version ||
        strcmp(items, c->items) != 0)
      fail_msg("%s: format %d mode %d interval %g window %g level %d help "
               "%d version %d items \"%s\"",
               c->name, a.format, a.mode, a.interval_s, a.window_s, a.log_level,
               a.help, a.version, items);
    host_exec_args_fini(&a);
    host_exec_args_fini(&a); /* twice is harmless */
    assert_null(a.items);
  }
}

static void host_exec_parse_args__valid(void **state) {
  (void)state;
  check_valid();
}

static void host_exec_parse_args__version(void **state) {
  (void)state;
  struct host_exec_args a;
  const char *args[MAX_ARGS + 1] = {"--version", "--Step=1"};
  assert_int_equal(parse(args, &a), 0);
  assert_true(a.version);
  assert_false(a.help);
  host_exec_args_fini(&a);
}

/* Numbers are parsed in the C locale whatever LC_NUMERIC says. */
static void host_exec_parse_args__valid_in_comma_locale(void **state) {
  (void)state;
  if (comma_locale_set() == NULL)
    skip();
  check_valid();
  comma_locale_reset();
}

struct error_case {
  const char *args[MAX_ARGS + 1];
  const char *error;
};

static const struct error_case error_cases[] = {
    {{"positional"}, "unexpected argument \"positional\""},
    {{"--Step=1", "-x"}, "unexpected argument \"-x\""},
    {{"--"}, "unexpected argument \"--\""},
    {{"--=x"}, "unexpected argument \"--=x\""},
    {{"--Step"},
     "\"--Step\": plugin options need a value: --Key=<value> or --Key "
     "<value>"},
    {{"--Step", "--once"},
     "\"--Step\": plugin options need a value: --Key=<value> or --Key "
     "<value>"},
    {{"--verbose"},
     "\"--verbose\": plugin options need a value: --Key=<value> or --Key "
     "<value>"},
    {{"--.x=1"}, "empty option name in \"--.x=1\""},
    {{"--Block.=1"}, "empty option name in \"--Block.=1\""},
    {{"--Block..Key=1"}, "empty option name in \"--Block..Key=1\""},
    {{"--interval"},
     "--interval needs a value: --interval=<value> or --interval <value>"},
    {{"--interval", "--once"},
     "--interval needs a value: --interval=<value> or --interval <value>"},
    {{"--window"},
     "--window needs a value: --window=<value> or --window <value>"},
    {{"--format"},
     "--format needs a value: --format=<value> or --format <value>"},
    {{"--log-level"},
     "--log-level needs a value: --log-level=<value> or --log-level "
     "<value>"},
    {{"--once=1"}, "\"--once=1\": this flag takes no value"},
    {{"--execd=yes"}, "\"--execd=yes\": this flag takes no value"},
    {{"--help=yes"}, "\"--help=yes\": this flag takes no value"},
    {{"--version=1"}, "\"--version=1\": this flag takes no value"},
    {{"--Interval"},
     "--Interval needs a value: --interval=<value> or --interval <value>"},
    {{"--once", "--Interval=5"},
     "\"--Interval=5\": choose one of --once, --execd and --interval"},
    {{"-x", "-h"}, "unexpected argument \"-x\""},
    {{"--once", "--execd"},
     "\"--execd\": choose one of --once, --execd and --interval"},
    {{"--interval=1", "--once"},
     "\"--once\": choose one of --once, --execd and --interval"},
    {{"--execd", "--execd"},
     "\"--execd\": choose one of --once, --execd and --interval"},
    {{"--interval=0"},
     "--interval: expected a number of seconds from 0.001 to 1e+06, got "
     "\"0\""},
    {{"--interval=-1"},
     "--interval: expected a number of seconds from 0.001 to 1e+06, got "
     "\"-1\""},
    {{"--interval=0,5"},
     "--interval: expected a number of seconds from 0.001 to 1e+06, got "
     "\"0,5\""},
    {{"--interval=abc"},
     "--interval: expected a number of seconds from 0.001 to 1e+06, got "
     "\"abc\""},
    {{"--interval="},
     "--interval: expected a number of seconds from 0.001 to 1e+06, got "
     "\"\""},
    {{"--interval=inf"},
     "--interval: expected a number of seconds from 0.001 to 1e+06, got "
     "\"inf\""},
    {{"--interval=nan"},
     "--interval: expected a number of seconds from 0.001 to 1e+06, got "
     "\"nan\""},
    {{"--interval=1e400"},
     "--interval: expected a number of seconds from 0.001 to 1e+06, got "
     "\"1e400\""},
    {{"--interval=1000001"},
     "--interval: expected a number of seconds from 0.001 to 1e+06, got "
     "\"1000001\""},
    {{"--interval=0x10"},
     "--interval: expected a number of seconds from 0.001 to 1e+06, got "
     "\"0x10\""},
    {{"--interval= 1"},
     "--interval: expected a number of seconds from 0.001 to 1e+06, got "
     "\" 1\""},
    {{"--window=-1"},
     "--window: expected a number of seconds >= 0 and at most 1e+06, got "
     "\"-1\""},
    {{"--window=0,5"},
     "--window: expected a number of seconds >= 0 and at most 1e+06, got "
     "\"0,5\""},
    {{"--window=1s"},
     "--window: expected a number of seconds >= 0 and at most 1e+06, got "
     "\"1s\""},
    {{"--format=xml"},
     "--format: expected json, influx, table, prometheus or top, got \"xml\""},
    {{"--format=JSON"},
     "--format: expected json, influx, table, prometheus or top, got \"JSON\""},
    {{"--listen"},
     "--listen needs a value: --listen=<value> or --listen <value>"},
    {{"--listen=:1", "--once"},
     "--listen reads every --interval: not with --once or --execd"},
    {{"--execd", "--listen=:1"},
     "--listen reads every --interval: not with --once or --execd"},
    {{"--listen=:1", "--format=json"},
     "--listen serves --format=prometheus only"},
    {{"--format=influx", "--listen=:1"},
     "--listen serves --format=prometheus only"},
    {{"--format=top", "--execd"},
     "--format=top: a view for people, not for --execd (choose --once or "
     "--interval)"},
    {{"--rows=5"}, "--rows: only with --format=top"},
    {{"--format=top", "--rows=0"},
     "--rows: expected a number of rows from 1 to 100000, got \"0\""},
    {{"--format=top", "--rows=2x"},
     "--rows: expected a number of rows from 1 to 100000, got \"2x\""},
    {{"--format=top", "--rows"},
     "--rows needs a value: --rows=<value> or --rows <value>"},
    {{"--log-level=loud"},
     "--log-level: expected error, warning, notice, info or debug, got "
     "\"loud\""},
};

static void check_errors(void) {
  for (size_t i = 0; i < sizeof(error_cases) / sizeof(error_cases[0]); i++) {
    const struct error_case *c = &error_cases[i];
    struct host_exec_args a;
    int rc = parse(c->args, &a);
    if (rc != -EINVAL || strcmp(a.error, c->error) != 0)
      fail_msg("%s %s: rc %d, error \"%s\", expected \"%s\"", c->args[0],
               c->args[1] ? c->args[1] : "", rc, a.error, c->error);
    assert_null(a.items); /* nothing left to free */
    assert_int_equal(a.n_items, 0);
  }
}

static void host_exec_parse_args__errors(void **state) {
  (void)state;
  check_errors();
}

static void host_exec_parse_args__errors_in_comma_locale(void **state) {
  (void)state;
  if (comma_locale_set() == NULL)
    skip();
  check_errors();
  comma_locale_reset();
}

/* Items parsed before the error are freed too (checked under ASan). */
static void host_exec_parse_args__error_after_items(void **state) {
  (void)state;
  struct host_exec_args a;
  const char *args[] = {"--Event=a", "--Event.Scale=2", "--Step=1", "oops",
                        NULL};
  assert_int_equal(parse(args, &a), -EINVAL);
  assert_string_equal(a.error, "unexpected argument \"oops\"");
  assert_null(a.items);
}

/* A value longer than the error buffer is cut, not overflowed. */
static void host_exec_parse_args__long_values(void **state) {
  (void)state;
  char big[5000];
  memset(big, 'x', sizeof(big) - 1);
  big[sizeof(big) - 1] = '\0';
  char flag[5100];
  snprintf(flag, sizeof(flag), "--window=%s", big);
  struct host_exec_args a;
  const char *bad[] = {flag, NULL};
  assert_int_equal(parse(bad, &a), -EINVAL);
  assert_true(strlen(a.error) < sizeof(a.error));
  assert_true(strncmp(a.error, "--window: expected", 18) == 0);

  snprintf(flag, sizeof(flag), "--Key=%s", big);
  const char *good[] = {flag, NULL};
  assert_int_equal(parse(good, &a), 0);
  assert_int_equal(a.n_items, 1);
  assert_string_equal(a.items[0].values[0].string, big);
  host_exec_args_fini(&a);
}

/* An escape sequence in an argument never reaches the terminal through a
 * usage error. */
static void host_exec_parse_args__error_text_sanitised(void **state) {
  (void)state;
  struct host_exec_args a;
  const char *bad[] = {"--format=\x1b[2J\x07", NULL};
  assert_int_equal(parse(bad, &a), -EINVAL);
  assert_null(strchr(a.error, '\x1b'));
  assert_null(strchr(a.error, '\x07'));
  const char *pos[] = {"\x1b]0;title\x07", NULL};
  assert_int_equal(parse(pos, &a), -EINVAL);
  assert_null(strchr(a.error, '\x1b'));
}

/* gpu-telemetry's command line: --NAME.Key per plugin of the table. */
static const struct plugin_ops multi_a = {.name = "alpha"};
static const struct plugin_ops multi_b = {.name = "beta_x"};
static const struct plugin_ops *const multi_table[] = {&multi_a, &multi_b};

static int parse_multi(const char *const *args, struct host_exec_args *a) {
  char *argv[MAX_ARGS + 2] = {(char *)"gpu-telemetry"};
  int argc = 1;
  while (argc <= MAX_ARGS && args[argc - 1] != NULL) {
    argv[argc] = (char *)args[argc - 1];
    argc++;
  }
  return host_exec_parse_args_multi(argc, argv, multi_table, 2, a);
}

static void host_exec_parse_args_multi__valid(void **state) {
  (void)state;
  struct host_exec_args a;
  const char *args[] = {"--plugin=beta_x",    "--BETA_X.Step=1",
                        "--beta_x.Filter=f",  "--beta_x.Filter.PMU=p",
                        "--alpha.Interval=2", "--config=c.conf",
                        "--interval=5",       NULL};
  assert_int_equal(parse_multi(args, &a), 0);
  assert_true(a.plugins_chosen);
  assert_false(a.plugins[0].chosen);
  assert_true(a.plugins[1].chosen);
  assert_true(a.plugins[0].keyed);
  assert_int_equal(a.n_configs, 1);
  assert_string_equal(a.configs[0], "c.conf");
  char got[512] = "";
  dump(a.plugins[1].items, a.plugins[1].n_items, got, sizeof(got));
  assert_string_equal(got, "Step=1;Filter=f{PMU=p}");
  got[0] = '\0';
  dump(a.plugins[0].items, a.plugins[0].n_items, got, sizeof(got));
  assert_string_equal(got, "Interval=2");
  assert_true(a.mode == HOST_EXEC_INTERVAL && a.interval_s == 5);
  host_exec_args_fini(&a);
  host_exec_args_fini(&a);
}

static const struct error_case multi_errors[] = {
    {{"--Step=1"},
     "unknown flag \"--Step\"; a plugin's option is "
     "--<plugin>.<Key>=<value>, <plugin> one of alpha or beta_x"},
    {{"--gamma.Step=1"},
     "unknown flag \"--gamma.Step\"; a plugin's option is "
     "--<plugin>.<Key>=<value>, <plugin> one of alpha or beta_x"},
    {{"--alpha.Step"},
     "\"--alpha.Step\": plugin options need a value: "
     "--<plugin>.<Key>=<value> or --<plugin>.<Key> <value>"},
    {{"--lisen=:1"}, "unknown flag \"--lisen\"; did you mean --listen?"},
    {{"--plugins=alpha"}, "unknown flag \"--plugins\"; did you mean --plugin?"},
    {{"--plugin=alpha,gamma"},
     "--plugin: expected alpha or beta_x, got \"gamma\""},
    {{"--plugin=alpha,"}, "--plugin: expected alpha or beta_x, got \"alpha,\""},
    {{"--plugin=alpha", "--no-plugin=alpha"},
     "alpha: both in --plugin and --no-plugin"},
    {{"--no-plugin=gamma"},
     "--no-plugin: expected alpha or beta_x, got \"gamma\""},
    {{"--execd", "--config", "-"},
     "--config=-: standard input is --execd's (one line per batch): give the "
     "configuration as a file"},
    {{"--alpha.=1"}, "empty option name in \"--alpha.=1\""},
    {{"--plugin=gamma"}, "--plugin: expected alpha or beta_x, got \"gamma\""},
    {{"--plugin"},
     "--plugin needs a value: --plugin=<value> or --plugin <value>"},
    {{"--config"},
     "--config needs a value: --config=<value> or --config <value>"},
    {{"--interval=0.0009"},
     "--interval: expected a number of seconds from 0.001 to 1e+06, got "
     "\"0.0009\""},
};

static void host_exec_parse_args_multi__errors(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof(multi_errors) / sizeof(multi_errors[0]); i++) {
    const struct error_case *c = &multi_errors[i];
    struct host_exec_args a;
    int rc = parse_multi(c->args, &a);
    if (rc != -EINVAL || strcmp(a.error, c->error) != 0)
      fail_msg("%s: rc %d, error \"%s\", expected \"%s\"", c->args[0], rc,
               a.error, c->error);
    assert_null(a.plugins);
  }
  /* one plugin's executable has no --plugin or --config: they are keys */
  struct host_exec_args a;
  const char *keys[] = {"--plugin=x", "--config=y", NULL};
  assert_int_equal(parse(keys, &a), 0);
  assert_int_equal(a.n_items, 2);
  host_exec_args_fini(&a);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(host_exec_parse_args__error_text_sanitised),
      cmocka_unit_test(host_exec_parse_args_multi__valid),
      cmocka_unit_test(host_exec_parse_args_multi__errors),
      cmocka_unit_test(host_exec_parse_args__valid),
      cmocka_unit_test(host_exec_parse_args__version),
      cmocka_unit_test(host_exec_parse_args__valid_in_comma_locale),
      cmocka_unit_test(host_exec_parse_args__errors),
      cmocka_unit_test(host_exec_parse_args__errors_in_comma_locale),
      cmocka_unit_test(host_exec_parse_args__error_after_items),
      cmocka_unit_test(host_exec_parse_args__long_values),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
