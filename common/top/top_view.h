/*
 * top_view.h: the executables' --format=top on a terminal (ncurses) and as
 * one plain-text screen (--once). The layout is top_screen's; this file
 * only draws lines, reads keys and keeps the terminal sane.
 *
 * Keys (h, ? or F1 list them on a help screen): s / S next / previous sort
 * column (busy, memory, pid, name, each engine), / filter (any case; the
 * rows and panels as it is typed, the device headers stay; / again edits
 * it, Enter keeps it, Esc clears it), p c g rows per process / client /
 * cgroup (asking the host for those records: top_view_host.scope), arrows,
 * PgUp, PgDn, Home, End scroll the rows under the pinned headers, t the
 * charts, space pause, r raw counters, q quit (exit 0), also while reads
 * are slow (keys are read between any two reads). The terminal is
 * restored on q, on SIGINT, SIGTERM and SIGHUP (the host's stop flag),
 * and on SIGQUIT, a second stop signal and a fatal signal (SIGSEGV,
 * SIGBUS, SIGFPE, SIGILL, SIGABRT: with tcsetattr and write only, then
 * the default action).
 * Resizes arrive as KEY_RESIZE (ncurses' SIGWINCH handler).
 */
#ifndef COMMON_TOP_TOP_VIEW_H
#define COMMON_TOP_TOP_VIEW_H

#include "common/top/top_screen.h"

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>

/* What the live view asks of its host. */
struct top_view_host {
  /* one batch into the model (begin(), the records of every plugin,
   * end()); < 0 ends the view with status 1 */
  int (*read)(void *ctx);
  /* run what is due between reads; returns the most milliseconds the
   * view may wait before calling it again (-1: no limit) */
  int (*idle)(void *ctx);
  void *ctx;
  volatile sig_atomic_t *stop; /* set by the host's signal handlers */
  /* Seconds from the start to the first read (the host has primed the
   * plugins: the first screen's rates cover this window); 0: one
   * interval. */
  double first_s;
  /* Optional (NULL: the keys only switch the table): make the plugins
   * report rows of `scope` from the next read on, as if started with
   * --ReportBy=Client or Cgroup (drm_fdinfo: ReportBy adds, it never
   * removes). Returns 0, or < 0 when no plugin can (the view then says
   * which option to start with). */
  int (*scope)(void *ctx, enum top_scope scope);
};

/*
 * The notice for a user who is not root: other users' processes cannot be
 * attributed (fs/proc/fd.c: proc_fdinfo_permission needs ptrace read
 * access), or NULL for root.
 */
const char *top_view_notice(void);

/* The USER column's lookup (top_options.user_name): the owner of
 * <proc_root>/<pid> by stat(), named from the password database, else the
 * number; NULL when the pid is gone. Set proc_root (borrowed) and zero the
 * rest before use. */
struct top_view_users {
  const char *proc_root;
  unsigned uids[16];
  char names[16][32];
  int n;
};
const char *top_view_user(void *users, const char *pid);

/*
 * Print one screen of `m` (laid out by `o`) as plain text to `out`: no
 * escape codes. `o->cols` <= 0: the width of `out` when it is a terminal,
 * else $COLUMNS, else 100. Returns 0, or 1 when writing failed.
 */
int top_view_print(const struct top_model *m, const struct top_options *o,
                   FILE *out);

/*
 * While the live view owns the terminal, a message written to stderr would
 * land in the middle of the screen: the host's log sink hands it here
 * instead. Returns true when the view took it (it is shown on the line
 * above the help line, the latest one, and the latest of each run is
 * written to stderr once the terminal is restored); false when no view
 * runs (log as usual).
 */
bool top_view_capture(const char *prefix, const char *message);

/*
 * Run the live view on the terminal of stdin/stdout, reading every
 * `interval_s` seconds through `host` into `m`. Returns the exit status:
 * 0 on q or a stop signal, 1 when stdin or stdout is not a terminal, the
 * terminal cannot be set up or a read failed. `o` holds the starting options.
 */
int top_view_run(struct top_model *m, const struct top_options *o,
                 double interval_s, const struct top_view_host *host);

#endif
