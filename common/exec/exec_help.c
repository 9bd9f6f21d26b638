/*
 * exec_help.c: --help of the executables (see exec_host.h). The flags are
 * documented here once for every executable; each plugin's keys come from
 * its option table (plugin_ops.options).
 */
#include "common/exec/exec_host.h"

#include <stdio.h>
#include <string.h>

/* The flags every executable shares, after the usage lines. */
static void exec_help_flags(const char *key_form, const char *level) {
  printf(
      "  --format=F       influx (default; line protocol), json (one array "
      "per batch;\n"
      "                   one object per line with --execd), table, "
      "prometheus (the\n"
      "                   text exposition format, names in base units), or "
      "top (a live\n"
      "                   view redrawn every --interval, default 1 s; keys: "
      "q quit,\n"
      "                   s/S sort, / filter, p/c/g process/client/cgroup, "
      "r raw\n"
      "                   counters, space pause). Without --format and a "
      "mode, on a\n"
      "                   terminal, top is the default\n"
      "  --rows=N         --format=top --once: one plain-text screen with "
      "the top N\n"
      "                   rows (default 20), no escape codes\n"
      "  --once           read, read again after --window seconds, print the "
      "second\n"
      "                   read, exit (default; Telegraf inputs.exec). Counters "
      "start\n"
      "                   at the first read: they cover the window only\n"
      "  --execd          read once at start, then print one batch per line "
      "read on\n"
      "                   stdin; exit 0 on EOF (inputs.execd, signal = "
      "\"STDIN\")\n"
      "  --interval=N     print a batch every N seconds (0.001 to 1e6) until "
      "SIGTERM or\n"
      "                   SIGINT (inputs.execd, signal = \"none\"); also "
      "spelled\n"
      "                   --Interval=N, as the collectd key\n"
      "  --listen=A:P     serve http://A:P/metrics (Prometheus text format) "
      "instead of\n"
      "                   printing; reads every --interval seconds (default "
      "10), the\n"
      "                   first after --window; A: an IPv4 address, [IPv6] or "
      "empty\n"
      "                   (every IPv4 address: anyone who reaches the port "
      "sees every\n"
      "                   GPU process's name, pid and cgroup), P default "
      "9470;\n"
      "                   --listen=P is --listen=:P; SIGTERM or SIGINT stops "
      "it\n"
      "  --web-config=F   with --listen: TLS and basic auth from F, "
      "node_exporter's\n"
      "                   web config layout (tls_server_config, "
      "basic_auth_users)\n"
      "  --window=S       seconds between the two reads of --once (default "
      "1; 0 reads\n"
      "                   twice back to back; rates need two reads)\n"
      "  --log-level=L    error, warning, notice, info or debug; messages go "
      "to stderr\n"
      "                   as \"error: ...\", or \"E! \", \"W! \", \"I! \", "
      "\"D! \" with --execd;\n"
      "                   default %s\n"
      "  --help, -h       this text; --version: the version\n"
      "  --FLAG VALUE     is --FLAG=VALUE, for every flag and key that takes "
      "a value\n"
      "                   (when VALUE does not start with --)\n"
      "  %s\n"
      "                   a collectd option of the plugin (below): "
      "case-insensitive,\n"
      "                   repeatable, applied in order. A key inside a "
      "nested collectd\n"
      "                   block is <Block>.<Key>: added to the most "
      "recent\n"
      "                   <Block>=<value> (or to a new value-less Block)\n",
      level, key_form);
}

static void exec_help_exit(void) {
  printf("\n"
         "Exit status: 0 ok (also when stopped by SIGTERM, SIGINT or SIGHUP), "
         "1 init\n"
         "or read failure (or stdout closed), 2 usage or configuration error "
         "(one wrong\n"
         "Key or Event is enough, whatever else is valid: nothing is "
         "collected).\n");
}

/* The plugin's nested-block example (plugin_ops.help_example), each
 * --Key behind `prefix`; nothing when it has none. */
static void exec_help_example(const struct plugin_ops *ops,
                              const char *prefix) {
  if (ops->help_example == NULL)
    return;
  printf("  for example (a nested block):\n   ");
  for (const char *p = ops->help_example; *p != '\0'; p++) {
    if (p[0] == '-' && p[1] == '-' &&
        (p == ops->help_example || p[-1] == ' ')) {
      printf("--%s", prefix);
      p++;
      continue;
    }
    putchar(*p);
  }
  putchar('\n');
}

/* The option table of `ops`, each key behind `prefix`, in a column
 * `width` wide. */
static void exec_help_keys(const struct plugin_ops *ops, const char *prefix,
                           int width) {
  char key[128];
  snprintf(key, sizeof(key), "%sInterval", prefix);
  printf("  --%-*s %s; default: %s\n", width, key,
         *prefix ? "this plugin's read interval, seconds"
                 : "same as --interval=N (the host's key)",
         *prefix ? "--interval" : "none, --once");
  if (ops->options == NULL)
    return;
  for (const struct cfg_option *o = ops->options; o->key != NULL; o++) {
    snprintf(key, sizeof(key), "%s%s", prefix, o->key);
    printf("  --%-*s %s; default: %s\n", width, key, o->help, o->def);
  }
}

void exec_help(const struct plugin_ops *ops) {
  const char *name = ops->name;
  int w = (int)strlen(name);
  printf("usage: %s [--format=json|influx|table|prometheus|top]\n"
         "       %*s [--once | --execd | --interval=SECONDS | "
         "--listen=ADDR:PORT]\n"
         "       %*s [--window=SECONDS] [--rows=N] [--log-level=LEVEL]\n"
         "       %*s [--web-config=FILE] [--<Key>=<value> ...]\n"
         "       %s --help | -h | --version\n"
         "\n"
         "Collects like the collectd plugin %s and prints the records on "
         "stdout.\n"
         "\n",
         name, w, "", w, "", w, "", name, name);
  exec_help_flags("--<Key>=<value>", "warning");
  printf("\nOptions of %s, as --Key=<value> (the keys of its collectd "
         "block):\n",
         name);
  exec_help_keys(ops, "", 18);
  exec_help_example(ops, "");
  exec_help_exit();
}

void exec_help_multi(const char *program, const struct plugin_ops *const *table,
                     size_t n) {
  int w = (int)strlen(program);
  printf("usage: %s [--plugin=NAME[,NAME...]] [--no-plugin=NAME[,NAME...]]\n"
         "       %*s [--config=FILE|DIR|GLOB|- ...]\n"
         "       %*s [--format=json|influx|table|prometheus|top]\n"
         "       %*s [--once | --execd | --interval=SECONDS | "
         "--listen=ADDR:PORT]\n"
         "       %*s [--window=SECONDS] [--rows=N] [--log-level=LEVEL]\n"
         "       %*s [--web-config=FILE] [--<plugin>.<Key>=<value> ...]\n"
         "       %s --help | -h | --version\n"
         "\n"
         "Runs the plugins in one process: one batch, one Prometheus page, "
         "one screen\nfor the whole machine. Each plugin reads on its own "
         "interval and thread.\n"
         "\n"
         "  --plugin=NAME    run this plugin (repeatable, or NAME,NAME); "
         "none: every\n"
         "                   plugin (each says what it found), or those a "
         "--config loads\n"
         "  --no-plugin=NAME leave this plugin out (repeatable, or "
         "NAME,NAME)\n"
         "  --config=PATH    a collectd configuration (repeatable, read in "
         "order): a file,\n"
         "                   a directory (its files in name order, as "
         "collectd's Include),\n"
         "                   a glob, or - and /dev/fd/N (a pipe); Include is "
         "followed. Its\n"
         "                   LoadPlugin lines choose the plugins (the others "
         "are skipped,\n"
         "                   said once), its <Plugin NAME> blocks (with "
         "<Instance> blocks)\n"
         "                   configure them, its Interval is the default "
         "interval; a\n"
         "                   whole collectd.conf and the shipped snippets "
         "work as they are;\n"
         "                   --<plugin>.<Key> keys are added to every block "
         "of their plugin\n",
         program, w, "", w, "", w, "", w, "", w, "", program);
  exec_help_flags("--<plugin>.<Key>=<value>",
                  "notice (a line per plugin instance says what it "
                  "found)");
  for (size_t k = 0; k < n; k++) {
    char prefix[64];
    snprintf(prefix, sizeof(prefix), "%s.", table[k]->name);
    printf("\nOptions of %s, as --%s.<Key>=<value>:\n", table[k]->name,
           table[k]->name);
    exec_help_keys(table[k], prefix, 32);
    exec_help_example(table[k], prefix);
  }
  exec_help_exit();
}
