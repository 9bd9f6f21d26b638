/*
 * host_exec.c: the executables (see host_exec.h): one plugin's, and
 * gpu-telemetry with every plugin, for Telegraf's inputs.exec (one run:
 * --once) and inputs.execd (signal = "STDIN" is --execd, signal = "none"
 * is --interval), Prometheus (--listen) and people (--format=top).
 * Telegraf's contract, from its execd README and internal/process: stdout
 * is a pipe (so every batch is flushed), each stderr line is logged as an
 * error unless it starts with "E! ", "W! ", "I! " or "D! ", and at stop
 * Telegraf closes stdin, then sends SIGTERM after 5 s.
 *
 * This file: the process (fds 0-2, signals, the log, the outputs); the
 * instances are set up by exec_setup.c and run by exec_loop.c over the
 * runner (runner.h).
 */
#include "common/exec/exec_host.h"
#include "common/sink/sink_influx.h"
#include "common/sink/sink_json.h"
#include "common/top/top_view.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t host_exec_stop;
static bool host_exec_telegraf; /* --execd: Telegraf's level prefixes */
/* Messages come from the workers too: one line at a time. */
static pthread_mutex_t host_exec_log_lock = PTHREAD_MUTEX_INITIALIZER;

static void host_exec_on_signal(int sig) {
  (void)sig;
  host_exec_stop = 1;
}

static void host_exec_signals(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof(sa));
  sigemptyset(&sa.sa_mask);
  /* No SA_RESTART: the host's waits (poll, the view's getch) return
   * EINTR and the loops see the flag. The workers block these signals
   * (runner.h), so the host's thread is the one interrupted. */
  sa.sa_handler = host_exec_on_signal;
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
  sigaction(SIGHUP, &sa, NULL);
  /* A closed stdout must not kill us before instance_free() restores the
   * system: write errors end the run instead. */
  sa.sa_handler = SIG_IGN;
  sigaction(SIGPIPE, &sa, NULL);
}

static void host_exec_log(enum log_level level, const char *message) {
  static const char *const plain[] = {
      "error: ", "warning: ", "notice: ", "info: ", "debug: "};
  static const char *const telegraf[] = {"E! ", "W! ", "I! ", "I! ", "D! "};
  int i = level < LOG_LEVEL_ERROR   ? 0
          : level > LOG_LEVEL_DEBUG ? 4
                                    : (int)level - LOG_LEVEL_ERROR;
  pthread_mutex_lock(&host_exec_log_lock);
  if (top_view_capture(plain[i], message)) {
    pthread_mutex_unlock(&host_exec_log_lock);
    return; /* the terminal belongs to the view (top_view.h) */
  }
  /* One stderr line per message: Telegraf logs an unprefixed line as an
   * error, so newlines inside the message become spaces. */
  char line[1100];
  int n = snprintf(line, sizeof(line), "%s%s\n",
                   host_exec_telegraf ? telegraf[i] : plain[i], message);
  size_t len = n < 0 ? 0 : (size_t)n < sizeof(line) ? (size_t)n : sizeof(line);
  for (size_t k = 0; k + 1 < len; k++)
    if (line[k] == '\n' || line[k] == '\r')
      line[k] = ' ';
  if (len > 0)
    line[len - 1] = '\n';
  fwrite(line, 1, len, stderr);
  pthread_mutex_unlock(&host_exec_log_lock);
}

/* Make sure fds 0, 1 and 2 are open before anything else is: a closed one
 * would be the number the next open() returns (a device node, an eventfd),
 * and stdin reads or metric writes would then go to that file. A closed
 * stdin or stderr is reopened on /dev/null (stdin then reads as EOF: --execd
 * ends at once, as when Telegraf closes it); a closed stdout is refused,
 * since metrics written to /dev/null would be lost without a word. Returns
 * 0, or 1 after saying why on stderr. */
static int host_exec_stdio(const char *program) {
  bool out_closed = false;
  for (int fd = 0; fd <= 2; fd++) {
    if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
      continue;
    out_closed |= fd == STDOUT_FILENO;
    /* the lowest free number: fd itself, the lower ones being open */
    int null = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
    if (null != fd) {
      if (null >= 0)
        close(null);
      return 1; /* nothing sane to say it on */
    }
  }
  if (out_closed) {
    fprintf(stderr,
            "%s: stdout: closed: the metrics would go nowhere (open it on a "
            "pipe or a file)\n",
            program);
    return 1;
  }
  return 0;
}

/* 1 when every instance's last read failed without a record. */
static int host_exec_all_failed(const struct runner *r) {
  for (size_t k = 0; k < r->n; k++)
    if (!r->inst[k]->have_last || r->inst[k]->last_rc >= 0 ||
        snapshot_records(&r->inst[k]->last) > 0)
      return 0;
  return r->n > 0 ? 1 : 0;
}

/* Say where --listen serves, and when that is every address (an empty
 * host, --listen=:PORT or --listen=PORT, as node_exporter's
 * --web.listen-address=:9100), that anyone who reaches the port can read
 * the page. */
static void host_exec_say_listen(const char *program,
                                 const struct prom_http *h) {
  struct sockaddr_storage ss;
  socklen_t len = sizeof(ss);
  char addr[INET6_ADDRSTRLEN] = "?";
  unsigned port = 0;
  bool every = false, dual = false;
  if (getsockname(h->fd, (struct sockaddr *)&ss, &len) < 0)
    return;
  if (ss.ss_family == AF_INET) {
    const struct sockaddr_in *v4 = (const struct sockaddr_in *)&ss;
    inet_ntop(AF_INET, &v4->sin_addr, addr, sizeof(addr));
    port = ntohs(v4->sin_port);
    every = v4->sin_addr.s_addr == htonl(INADDR_ANY);
  } else if (ss.ss_family == AF_INET6) {
    const struct sockaddr_in6 *v6 = (const struct sockaddr_in6 *)&ss;
    inet_ntop(AF_INET6, &v6->sin6_addr, addr, sizeof(addr));
    port = ntohs(v6->sin6_port);
    every = IN6_IS_ADDR_UNSPECIFIED(&v6->sin6_addr);
    int v6only = 1;
    socklen_t n = sizeof(v6only);
    if (every && getsockopt(h->fd, IPPROTO_IPV6, IPV6_V6ONLY, &v6only, &n) == 0)
      dual = v6only == 0;
  }
  log_msg(LOG_LEVEL_NOTICE, program, "listen", NULL,
          "serving http://%s%s%s:%u/metrics%s",
          ss.ss_family == AF_INET6 ? "[" : "", addr,
          ss.ss_family == AF_INET6 ? "]" : "", port,
          !every ? ""
          : dual ? " on every address, IPv4 and IPv6 (anyone who reaches "
                   "the port reads the page; give an address to narrow it)"
          : ss.ss_family == AF_INET6
              ? " on every IPv6 address"
              : " on every IPv4 address (anyone who reaches the port reads "
                "the page; give an address to narrow it)");
}

/* gpu-telemetry --once: when no plugin found a device, say so once (each
 * said where it looked at the start); still exit 0: a machine without a
 * GPU is not an error. */
static void host_exec_say_nothing_found(const char *program,
                                        const struct runner *r) {
  for (size_t k = 0; k < r->n; k++)
    if (r->inst[k]->devices != 0)
      return;
  if (r->n > 0)
    log_msg(LOG_LEVEL_NOTICE, program, "once", NULL,
            "no plugin found a device (each said above where it looked)");
}

/* Parse done: set up the outputs and the instances, run, tear down. */
static int host_exec_run(const char *program,
                         const struct plugin_ops *const *table, size_t n,
                         struct host_exec_args *args, bool multi) {
  /* A person at a terminal who chose neither a format nor a mode gets the
   * live view; pipes (Telegraf, scripts, the tests) keep Influx. */
  if (!args->format_given && !args->mode_given && args->listen == NULL &&
      isatty(STDOUT_FILENO) && isatty(STDIN_FILENO)) {
    args->format = HOST_EXEC_TOP;
    args->mode = HOST_EXEC_INTERVAL;
    args->interval_s = 1.0;
  }
  host_exec_telegraf = args->mode == HOST_EXEC_EXECD;
  log_set_sink(host_exec_log, args->log_level);
  host_exec_signals();

  struct exec_host x;
  memset(&x, 0, sizeof(x));
  x.program = program;
  x.args = args;
  x.multi = multi;
  x.stop = &host_exec_stop;
  int status = runner_init(&x.runner) < 0 ? 1 : 0;
  x.runner.say_found = multi;
  x.shared = calloc(n, sizeof(*x.shared));
  x.n_shared = x.shared ? n : 0;
  for (size_t k = 0; k < x.n_shared; k++)
    plugin_shared_init(&x.shared[k]);
  if (status != 0 || x.shared == NULL) {
    log_errno(LOG_LEVEL_ERROR, program, "setup", "pipe", errno, NULL);
    status = 1;
  }
  struct prom_http http = {0};
  if (status == 0 && args->listen != NULL) {
    char err[256];
    /* the maximum age is set once the intervals are known (below) */
    struct prom_http_config web = {args->web_config, 0};
    int rc = prom_http_start_with(&http, program, args->listen, &web, err,
                                  sizeof(err));
    if (rc < 0) {
      log_msg(LOG_LEVEL_ERROR, program, "listen", NULL, "%s", err);
      status = rc == -EINVAL ? 2 : 1;
    } else {
      x.http = &http;
      host_exec_say_listen(program, &http);
    }
  }
  sink_line_init(&x.lines, stdout,
                 args->format == HOST_EXEC_JSON ? sink_json_format
                                                : sink_influx_format);
  if (args->format == HOST_EXEC_JSON && args->mode != HOST_EXEC_EXECD)
    sink_line_array(&x.lines); /* inputs.exec parses stdout as one document */
  sink_table_init(&x.table, stdout);
  prom_http_sink_init(&x.prom, program, NULL, NULL);
  top_model_init(&x.top);
  if (status == 0)
    status = exec_setup(&x, table, n);
  /* The page is stale, and answered 503, once it is older than 3 of the
   * longest interval: the host's thread itself is stuck (a stuck plugin
   * only loses its own series: runner.h). */
  if (status == 0 && x.http != NULL)
    prom_http_set_max_age(x.http,
                          RUNNER_STALE_INTERVALS *
                              (double)runner_longest_interval(&x.runner) / 1e9);
  if (status == 0 && runner_start(&x.runner) < 0) {
    log_errno(LOG_LEVEL_ERROR, program, "setup", "pthread_create", errno, NULL);
    status = 1;
  }
  if (status == 0) {
    status = exec_loop(&x);
    if (status == 0 && args->mode == HOST_EXEC_ONCE && !host_exec_stop)
      status = host_exec_all_failed(&x.runner);
    if (status == 0 && multi && args->mode == HOST_EXEC_ONCE)
      host_exec_say_nothing_found(program, &x.runner);
  }
  prom_http_stop(&http);
  /* A read left hung may still use its plugin's shared registry. */
  if (runner_fini(&x.runner, EXEC_STOP_WAIT_NS) == 0) {
    for (size_t k = 0; k < x.n_shared; k++)
      plugin_shared_fini(&x.shared[k]);
    free(x.shared);
  }
  free(x.page);
  top_model_fini(&x.top);
  prom_http_sink_fini(&x.prom);
  sink_table_fini(&x.table);
  sink_line_fini(&x.lines);
  log_set_sink(NULL, LOG_LEVEL_INFO);
  return status;
}

int host_exec_main(const struct plugin_ops *ops, int argc, char **argv) {
  if (host_exec_stdio(ops->name) != 0)
    return 1;
  struct host_exec_args args;
  if (host_exec_parse_args_for(ops, argc, argv, &args) < 0) {
    fprintf(stderr, "error: %s: usage: %s (see %s --help)\n", ops->name,
            args.error, ops->name);
    return 2;
  }
  int status = 0;
  if (args.help)
    exec_help(ops);
  else if (args.version)
    printf("%s %s\n", ops->name, HOST_EXEC_VERSION);
  else
    status = host_exec_run(ops->name, &ops, 1, &args, /*multi=*/false);
  if ((args.help || args.version) && fflush(stdout) != 0)
    status = 1;
  host_exec_args_fini(&args);
  return status;
}

int host_exec_main_multi(const char *program,
                         const struct plugin_ops *const *table, size_t n,
                         int argc, char **argv) {
  if (host_exec_stdio(program) != 0)
    return 1;
  struct host_exec_args args;
  if (host_exec_parse_args_multi(argc, argv, table, n, &args) < 0) {
    fprintf(stderr, "error: %s: usage: %s (see %s --help)\n", program,
            args.error, program);
    return 2;
  }
  int status = 0;
  if (args.help)
    exec_help_multi(program, table, n);
  else if (args.version)
    printf("%s %s\n", program, HOST_EXEC_VERSION);
  else
    status = host_exec_run(program, table, n, &args, /*multi=*/true);
  if ((args.help || args.version) && fflush(stdout) != 0)
    status = 1;
  host_exec_args_fini(&args);
  return status;
}
