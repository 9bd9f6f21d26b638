/*
 * exec_loop.c: the executables' modes over the runner (see exec_host.h,
 * runner.h). The host's thread owns the clock and the outputs; the reads
 * run on the runner's workers.
 *
 *   --once      prime every instance, read each again --window seconds
 *               after its priming read ended, write one batch of all
 *   --interval  prime, then read each instance on its own interval;
 *               reads due together are written as one batch
 *   --execd     prime, then a round of reads per line on stdin; each
 *               round is one batch (late reads: a batch of their own)
 *   --listen    prime, a first read after --window, then every interval;
 *               each finished round renders the page anew
 *   top         as --listen, the view drawing the last read of each
 */
#include "common/core/log.h"
#include "common/exec/exec_host.h"
#include "common/top/top_view.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

/* The sink of the line formats and the table. */
static struct metric_sink *exec_line_sink(struct exec_host *x) {
  return x->args->format == HOST_EXEC_TABLE ? &x->table.base : &x->lines.base;
}

/* Write the reads that are ready as one batch; -EIO when stdout failed
 * (then nobody reads us any more: the run ends). */
static int exec_write_batch(struct exec_host *x, uint64_t now, bool all) {
  if (x->args->format == HOST_EXEC_PROMETHEUS) {
    long len = exec_prom_page(x, now);
    if (len < 0)
      return 0; /* said; the next pass may have memory */
    if (x->http != NULL)
      return prom_http_publish(x->http, x->page, (size_t)len) < 0 ? 0 : 0;
    if (fwrite(x->page, 1, (size_t)len, stdout) != (size_t)len ||
        fflush(stdout) != 0)
      goto failed;
    return 0;
  }
  struct metric_sink *sink = exec_line_sink(x);
  sink->begin(sink);
  runner_write_fresh(&x->runner, sink, now, all);
  if (sink->end(sink) < 0)
    goto failed;
  return 0;
failed:
  log_errno(LOG_LEVEL_ERROR, x->program, "stdout", "write", errno, NULL);
  *x->stop = 1;
  return -EIO;
}

/* Prime every instance (rates need a previous sample; its records are
 * not written), then read each `delay_ns` after its priming read ends
 * (RUNNER_EACH_INTERVAL: one interval after). Nothing waits for a slow
 * priming read: that instance simply starts later. */
static void exec_prime(struct exec_host *x, uint64_t delay_ns) {
  uint64_t now = runner_now();
  runner_read_all(&x->runner, now, /*discard=*/true);
  runner_schedule_from(&x->runner, now, delay_ns);
}

/* True when every instance has a read not yet written (but one whose
 * late init failed, which is never read: runner.h). */
static bool exec_all_fresh(const struct runner *r) {
  for (size_t k = 0; k < r->n; k++)
    if (!r->inst[k]->fresh && !r->inst[k]->dead)
      return false;
  return true;
}

static int exec_run_once(struct exec_host *x) {
  struct runner *r = &x->runner;
  exec_prime(x, (uint64_t)(x->args->window_s * 1e9));
  uint64_t first_done = 0; /* when the first instance's read was kept */
  for (;;) {
    uint64_t now = runner_now();
    runner_collect(r, now);
    runner_tick(r, now);
    if (*x->stop)
      return 0;
    if (exec_all_fresh(r))
      break;
    if (first_done == 0)
      for (size_t k = 0; k < r->n && first_done == 0; k++)
        if (r->inst[k]->fresh)
          first_done = now;
    int timeout = runner_timeout_ms(r, now, -1);
    /* With several plugins, a slow one delays the batch by at most
     * EXEC_ONCE_GRACE_NS; alone, it is waited for. */
    if (first_done != 0 && r->n > 1) {
      if (now - first_done >= EXEC_ONCE_GRACE_NS) {
        for (size_t k = 0; k < r->n; k++)
          if (!r->inst[k]->fresh)
            log_msg(LOG_LEVEL_WARNING, r->inst[k]->ops->name, r->inst[k]->label,
                    "read",
                    "not finished %.3g s after the first: left out of the "
                    "batch",
                    (double)EXEC_ONCE_GRACE_NS / 1e9);
        break;
      }
      int ms = (int)((EXEC_ONCE_GRACE_NS - (now - first_done)) / 1000000) + 1;
      if (timeout < 0 || ms < timeout)
        timeout = ms;
    }
    runner_wait(r, -1, timeout);
  }
  if (x->args->format == HOST_EXEC_TOP)
    return 0; /* the caller prints the screen */
  return exec_write_batch(x, runner_now(), /*all=*/true) < 0 ? 1 : 0;
}

/* The loop of --interval and --listen: reads on their intervals, a batch
 * (or a page) per finished round. */
static int exec_run_timed(struct exec_host *x, uint64_t first_delay_ns) {
  struct runner *r = &x->runner;
  exec_prime(x, first_delay_ns);
  while (!*x->stop) {
    uint64_t now = runner_now();
    runner_tick(r, now);
    runner_wait(r, -1, runner_timeout_ms(r, now, -1));
    now = runner_now();
    runner_collect(r, now);
    if (runner_batch_ready(r, now) &&
        exec_write_batch(x, now, /*all=*/false) < 0)
      return 1;
  }
  return 0;
}

static int exec_run_execd(struct exec_host *x) {
  struct runner *r = &x->runner;
  char buf[4096];
  bool partial = false; /* bytes of an unfinished line were read */
  bool eof = false;
  size_t asked = 0; /* lines read whose round has not started */
  exec_prime(x, RUNNER_EACH_INTERVAL); /* read on demand: drains only */
  while (!*x->stop) {
    uint64_t now = runner_now();
    /* One round per line, the next once the last one is over (all its
     * reads written, or its grace passed: a hung plugin holds no one). A
     * line counts as answered only when its round started a read: while
     * every instance is still in a read (the start-up read of a slow
     * first scan, past its round's grace), the line waits for a worker to
     * come free and gets its batch late, never none. */
    if (asked > 0 && !r->round_open &&
        runner_read_all(r, now, /*discard=*/false) > 0)
      asked--;
    runner_tick(r, now);
    if (eof && asked == 0 && !runner_reading(r))
      return 0; /* every round asked for is written */
    int ready =
        runner_wait(r, eof ? -1 : STDIN_FILENO, runner_timeout_ms(r, now, -1));
    now = runner_now();
    runner_collect(r, now);
    if (runner_batch_ready(r, now) && exec_write_batch(x, now, /*all=*/eof) < 0)
      return 1;
    if (eof || !ready)
      continue;
    ssize_t n = read(STDIN_FILENO, buf, sizeof(buf));
    if (n < 0 && (errno == EINTR || errno == EAGAIN))
      continue;
    if (n < 0) {
      log_errno(LOG_LEVEL_ERROR, x->program, "stdin", "read", errno, NULL);
      return 1;
    }
    if (n == 0) { /* Telegraf closed stdin: a last unfinished line counts */
      eof = true;
      asked += partial;
      continue;
    }
    /* Lines of any length: only the newlines matter. */
    for (ssize_t i = 0; i < n; i++) {
      partial = buf[i] != '\n';
      asked += !partial;
    }
  }
  return 0;
}

/* ---- the live view ---- */

struct exec_top {
  struct exec_host *x;
};

/* The view's read: the model gets the last read of every instance. The
 * first screen waits (at most a second) for the first reads still
 * running, so it shows them rather than "collecting". */
static int exec_top_read(void *ctx) {
  struct exec_host *x = ((struct exec_top *)ctx)->x;
  struct runner *r = &x->runner;
  bool any = false;
  for (size_t k = 0; k < r->n; k++)
    any |= r->inst[k]->have_last;
  uint64_t until = runner_now() + 1000000000ULL;
  while (!any && !*x->stop) {
    uint64_t now = runner_now();
    runner_tick(r, now);
    int ms = runner_timeout_ms(r, now, -1);
    int left = now < until ? (int)((until - now) / 1000000) + 1 : 0;
    if (left == 0 || (!runner_reading(r) && (ms < 0 || ms > left)))
      break; /* nothing will finish in time */
    runner_wait(r, -1, ms >= 0 && ms < left ? ms : left);
    runner_collect(r, runner_now());
    for (size_t k = 0; k < r->n; k++)
      any |= r->inst[k]->have_last;
  }
  x->top.base.begin(&x->top.base);
  runner_write_current(r, &x->top.base, runner_now());
  x->top.base.end(&x->top.base);
  return 0;
}

/* Between redraws: start what is due, collect what finished. */
static int exec_top_idle(void *ctx) {
  struct exec_host *x = ((struct exec_top *)ctx)->x;
  uint64_t now = runner_now();
  runner_collect(&x->runner, now);
  runner_tick(&x->runner, now);
  /* while reads run, look again soon: the view shows them at its next
   * redraw */
  return runner_timeout_ms(&x->runner, now,
                           runner_reading(&x->runner) ? 50 : -1);
}

/* The view's c, C and g keys: every drm_fdinfo instance adds the scope to
 * its ReportBy (it reads the option at each read), on its own worker. */
static int exec_top_scope(void *ctx, enum top_scope scope) {
  struct exec_host *x = ((struct exec_top *)ctx)->x;
  struct cfg_value v = {.type = CFG_STRING,
                        .string = scope == TOP_SCOPE_CLIENT      ? "Client"
                                  : scope == TOP_SCOPE_CONTAINER ? "Container"
                                                                 : "Cgroup"};
  struct cfg_item item = {.key = "ReportBy", .values = &v, .n_values = 1};
  int rc = -ENOTSUP;
  for (size_t k = 0; k < x->runner.n; k++)
    if (strcmp(x->runner.inst[k]->ops->name, "drm_fdinfo") == 0)
      rc = runner_reconfigure(x->runner.inst[k], &item) < 0 ? -ENOMEM : 0;
  return rc;
}

/* A key of drm_fdinfo's (or the one plugin's) items, or NULL. */
static const char *exec_top_key(const struct host_exec_args *a,
                                const char *key) {
  const struct cfg_item *items = a->items;
  size_t n_items = a->n_items;
  for (size_t p = 0; p < a->n_plugins; p++)
    if (strcmp(a->plugins[p].ops->name, "drm_fdinfo") == 0) {
      items = a->plugins[p].items;
      n_items = a->plugins[p].n_items;
    }
  const char *value = NULL;
  for (size_t i = 0; i < n_items; i++)
    if (strcasecmp(items[i].key, key) == 0 && items[i].n_values == 1)
      value = items[i].values[0].string;
  return value;
}

static int exec_run_top(struct exec_host *x) {
  const struct host_exec_args *a = x->args;
  struct top_options o;
  top_options_init(&o);
  o.notice = top_view_notice();
  /* USER: the owner of <ProcRoot>/<pid>, drm_fdinfo's ProcRoot if given;
   * under "no GPU found": the SysfsRoot (where it looked: its INFO lines) */
  const char *proc = exec_top_key(a, "ProcRoot");
  const char *sysfs = exec_top_key(a, "SysfsRoot");
  struct top_view_users users = {.proc_root = proc ? proc : "/proc"};
  o.user_name = top_view_user;
  o.user_ctx = &users;
  char looked[600];
  snprintf(looked, sizeof(looked), "%s: no device under %s (%s)", x->program,
           sysfs ? sysfs : "/sys",
           x->multi ? "each plugin said at the start where it looked"
                    : "--log-level=info says what it looked at");
  o.looked_at = looked;
  struct exec_top t = {x};
  if (a->mode == HOST_EXEC_ONCE) {
    int status = exec_run_once(x);
    if (status != 0 || *x->stop)
      return status;
    exec_top_read(&t);
    o.cols = 0; /* the terminal's, else $COLUMNS, else 100 */
    o.max_rows = a->rows > 0 ? a->rows : 20;
    return top_view_print(&x->top, &o, stdout);
  }
  exec_prime(x, (uint64_t)(a->window_s * 1e9));
  struct top_view_host host = {exec_top_read, exec_top_idle, &t,
                               x->stop,       a->window_s,   exec_top_scope};
  return top_view_run(&x->top, &o, a->interval_s, &host);
}

int exec_loop(struct exec_host *x) {
  const struct host_exec_args *a = x->args;
  if (a->format == HOST_EXEC_TOP)
    return exec_run_top(x);
  if (a->listen != NULL)
    return exec_run_timed(x, (uint64_t)(a->window_s * 1e9));
  switch (a->mode) {
  case HOST_EXEC_ONCE:
    return exec_run_once(x);
  case HOST_EXEC_EXECD:
    return exec_run_execd(x);
  default:
    return exec_run_timed(x, RUNNER_EACH_INTERVAL);
  }
}
