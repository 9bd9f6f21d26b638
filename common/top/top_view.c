/*
 * top_view.c: drawing top_screen's lines with ncurses, the keys, and the
 * one-shot text screen (top_view.h).
 */
#include "common/top/top_view.h"
#include "common/top/top_text.h"

#include <curses.h>
#include <errno.h>
#include <locale.h>
#include <math.h>
#include <pwd.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#define TOP_VIEW_LINE 2048 /* a screen line: 4 bytes per column at most */
#define TOP_VIEW_MIN_INTERVAL_S 0.001

/* Set while curses owns the terminal: the fatal-signal path restores it. */
static volatile sig_atomic_t top_view_active;

/* The latest message logged while the view ran (top_view_capture). */
static char top_view_message[512];

bool top_view_capture(const char *prefix, const char *message) {
  if (!top_view_active)
    return false;
  snprintf(top_view_message, sizeof(top_view_message), "%s%s", prefix, message);
  return true;
}

const char *top_view_notice(void) {
  if (geteuid() == 0)
    return NULL;
  return "not root: other users' processes are not shown (reading their "
         "/proc/<pid>/fdinfo needs ptrace access: run as root or with "
         "CAP_SYS_PTRACE)";
}

const char *top_view_user(void *ctx, const char *pid) {
  struct top_view_users *u = ctx;
  char path[4200];
  struct stat st;
  snprintf(path, sizeof(path), "%s/%s", u->proc_root, pid);
  if (stat(path, &st) != 0)
    return NULL;
  for (int i = 0; i < u->n; i++)
    if (u->uids[i] == st.st_uid)
      return u->names[i];
  struct passwd pw, *found = NULL;
  char buf[1024];
  int k = u->n < 16 ? u->n++ : (int)(st.st_uid % 16);
  u->uids[k] = st.st_uid;
  if (getpwuid_r(st.st_uid, &pw, buf, sizeof(buf), &found) == 0 && found)
    snprintf(u->names[k], sizeof(u->names[k]), "%s", found->pw_name);
  else
    snprintf(u->names[k], sizeof(u->names[k]), "%u", (unsigned)st.st_uid);
  return u->names[k];
}

int top_view_print(const struct top_model *m, const struct top_options *in,
                   FILE *out) {
  struct top_options o = *in;
  setlocale(LC_CTYPE, "");
  o.utf8 = top_text_utf8();
  if (o.cols <= 0) {
    struct winsize ws;
    const char *env = getenv("COLUMNS");
    if (ioctl(fileno(out), TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
      o.cols = ws.ws_col;
    else if (env != NULL && atoi(env) > 0)
      o.cols = atoi(env);
    else
      o.cols = 100;
  }
  struct top_screen s;
  memset(&s, 0, sizeof(s));
  int rc = top_render(m, &o, &s);
  for (size_t i = 0; i < s.n; i++)
    fprintf(out, "%s\n", s.lines[i].text);
  top_screen_fini(&s);
  if (rc < 0)
    fprintf(out, "(out of memory)\n");
  return fflush(out) == 0 && !ferror(out) ? 0 : 1;
}

/* ---- the terminal after a signal ----
 *
 * ncurses restores the terminal in endwin(), which is not async-signal-
 * safe (it writes through stdio and frees). A signal that ends the view
 * restores it with what is: tcsetattr() with the settings saved before
 * ncurses changed them, and write() of the sequences endwin() would send
 * (leave the alternate screen, show the cursor, plain attributes, keypad
 * off), taken from terminfo at the start. Both are on POSIX's list of
 * async-signal-safe functions (signal-safety(7)). */

static struct termios top_view_termios; /* the terminal before ncurses */
static volatile sig_atomic_t top_view_have_termios;
static char top_view_reset[256]; /* the sequences endwin() would send */
static size_t top_view_reset_len;

/* Signals that end the process (their default action), and those the host
 * turns into its stop flag. */
static const int top_view_fatal_signals[] = {SIGQUIT, SIGSEGV, SIGBUS,
                                             SIGFPE,  SIGILL,  SIGABRT};
static const int top_view_stop_signals[] = {SIGINT, SIGTERM, SIGHUP};
#define TOP_VIEW_N_FATAL                                                       \
  (sizeof(top_view_fatal_signals) / sizeof(top_view_fatal_signals[0]))
#define TOP_VIEW_N_STOP                                                        \
  (sizeof(top_view_stop_signals) / sizeof(top_view_stop_signals[0]))
/* What was installed before the view, restored when it ends. */
static struct sigaction top_view_old_fatal[TOP_VIEW_N_FATAL];
static struct sigaction top_view_old_stop[TOP_VIEW_N_STOP];

/* Append terminfo capability `cap` to the reset sequences. */
static void top_view_reset_add(const char *cap) {
  const char *seq = tigetstr(cap);
  if (seq == NULL || seq == (const char *)-1)
    return;
  size_t len = strlen(seq);
  if (top_view_reset_len + len < sizeof(top_view_reset)) {
    memcpy(top_view_reset + top_view_reset_len, seq, len);
    top_view_reset_len += len;
  }
}

/* Async-signal-safe: the terminal as it was before the view. */
static void top_view_restore_tty(void) {
  if (!top_view_active)
    return;
  int saved = errno;
  if (top_view_have_termios)
    (void)tcsetattr(STDIN_FILENO, TCSANOW, &top_view_termios);
  if (top_view_reset_len > 0)
    (void)!write(STDOUT_FILENO, top_view_reset, top_view_reset_len);
  errno = saved;
}

/* SIGQUIT (Ctrl-\) and a crash: restore the terminal, then die of the
 * same signal (its default action: exit status 128 + sig, a core where
 * the limits allow one). */
static void top_view_fatal(int sig) {
  top_view_restore_tty();
  top_view_active = 0;
  signal(sig, SIG_DFL);
  raise(sig); /* blocked in this handler: acted on when it returns */
}

/* SIGINT, SIGTERM, SIGHUP: the host's own handler (its stop flag: the
 * view ends with status 0 and endwin() on its thread, between two screens,
 * so nothing is drawn after the terminal is restored). A second one
 * before the view has ended (a loop that does not come back) restores the
 * terminal here and ends the process by the signal, as a fatal one. */
static volatile sig_atomic_t top_view_stops;

static void top_view_stop(int sig) {
  for (size_t i = 0; i < TOP_VIEW_N_STOP; i++) {
    if (top_view_stop_signals[i] != sig)
      continue;
    const struct sigaction *old = &top_view_old_stop[i];
    if (old->sa_handler == SIG_DFL || top_view_stops++ > 0) {
      top_view_fatal(sig);
      return;
    }
    if (old->sa_flags & SA_SIGINFO)
      old->sa_sigaction(sig, NULL, NULL);
    else
      old->sa_handler(sig);
  }
}

/* Install the view's handlers; a signal the host ignores stays ignored
 * (nohup: a hangup must not restore the terminal under a running view). */
static void top_view_signals_on(void) {
  top_view_stops = 0;
  struct sigaction sa;
  memset(&sa, 0, sizeof(sa));
  sigemptyset(&sa.sa_mask);
  sa.sa_handler = top_view_fatal;
  for (size_t i = 0; i < TOP_VIEW_N_FATAL; i++)
    sigaction(top_view_fatal_signals[i], &sa, &top_view_old_fatal[i]);
  /* No SA_RESTART, as the host's: getch() returns and the loop sees the
   * host's flag. */
  sa.sa_handler = top_view_stop;
  for (size_t i = 0; i < TOP_VIEW_N_STOP; i++) {
    sigaction(top_view_stop_signals[i], NULL, &top_view_old_stop[i]);
    if (top_view_old_stop[i].sa_handler != SIG_IGN)
      sigaction(top_view_stop_signals[i], &sa, NULL);
  }
}

static void top_view_signals_off(void) {
  for (size_t i = 0; i < TOP_VIEW_N_FATAL; i++)
    sigaction(top_view_fatal_signals[i], &top_view_old_fatal[i], NULL);
  for (size_t i = 0; i < TOP_VIEW_N_STOP; i++)
    sigaction(top_view_stop_signals[i], &top_view_old_stop[i], NULL);
}

static double top_view_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* What the keys change between screens. */
struct top_view_state {
  struct top_options o;
  bool fresh;    /* a read has come */
  bool paused;   /* space */
  bool editing;  /* the filter line */
  bool help;     /* the help screen */
  size_t scroll; /* lines scrolled under the pinned ones */
  size_t page;   /* lines a page scrolls (the last screen's) */
  int n_engines; /* engine columns of the last screen (sort keys) */
  double first_s, interval_s;
};

static const char *const top_view_help_text[] = {
    "Keys",
    "  q            quit (also Ctrl-C)",
    "  h ? F1       this help; any key leaves it",
    "  s S          sort by the next / previous column: BUSY, MEMORY, PID,",
    "               NAME, each engine (the sort column is marked *)",
    "  /            filter rows and panels, any case, as you type; Enter",
    "               keeps it, Esc clears it, / again edits it",
    "  p c C g      rows per process, container (namespace/pod/container),",
    "               DRM client, cgroup",
    "  up down      scroll one line; PgUp PgDn a page; Home End",
    "  t            charts on / off",
    "  r            raw counters and diagnostic records",
    "  space        pause / resume",
    "",
    "Per GPU: a header joined from every plugin that names the device,",
    "its engines, then its utilisation and power over the last minutes;",
    "on a short screen one line each, then no charts, to leave rows.",
    "BUSY: a row's busiest engine, in % of that engine (each engine 0-100 %",
    "of its capacity), so never above its device's bar of that engine.",
    "(Ns old): values the plugin held longer than the interval.",
};

/* Draw lines [from, from + count) of `s` at screen row `y`. */
static int top_view_lines(const struct top_screen *s, size_t from, size_t count,
                          int y) {
  for (size_t i = from; i < s->n && i < from + count; i++, y++) {
    int attr = s->lines[i].kind == TOP_LINE_HEADER  ? A_REVERSE
               : s->lines[i].kind == TOP_LINE_TITLE ? A_BOLD
               : s->lines[i].kind == TOP_LINE_DIM   ? A_DIM
                                                    : A_NORMAL;
    attron(attr);
    mvaddstr(y, 0, s->lines[i].text);
    attroff(attr);
  }
  return y;
}

/* A screen with no table (panels only): the lines before s->body stay
 * when they leave room for a few more, the rest scrolls. */
static void top_view_scroll(const struct top_screen *s,
                            struct top_view_state *v, size_t avail, int cols) {
  char line[TOP_VIEW_LINE];
  size_t pinned = s->body;
  if (pinned + 3 > avail)
    pinned = 0;
  size_t room = avail - pinned, body = s->n - pinned;
  bool more = body > room;
  size_t shown = more ? room - 1 : room; /* one line says what is off */
  if (shown == 0)
    shown = 1;
  size_t max_scroll = body > shown ? body - shown : 0;
  if (v->scroll > max_scroll)
    v->scroll = max_scroll;
  v->page = shown;
  int y = top_view_lines(s, 0, pinned, 0);
  y = top_view_lines(s, pinned + v->scroll, shown, y);
  if (more && (size_t)y < avail) {
    size_t below = body - v->scroll - shown;
    snprintf(line, sizeof(line),
             "  (%zu more below, %zu above: up/down, PgUp/PgDn)", below,
             v->scroll);
    attron(A_DIM);
    mvaddnstr(y, 0, line, cols);
    attroff(A_DIM);
  }
}

static void top_view_draw(const struct top_model *m, struct top_view_state *v) {
  int rows, cols;
  getmaxyx(stdscr, rows, cols);
  struct top_options lo = v->o;
  lo.cols = cols;
  lo.rows = 0; /* every line: the view scrolls them */
  lo.max_rows = 0;
  /* the help line, and the latest message above it */
  int avail = rows - 1 - (top_view_message[0] != '\0' && rows > 2);
  if (avail < 1)
    avail = 1;
  struct top_screen s;
  memset(&s, 0, sizeof(s));
  erase();
  char line[TOP_VIEW_LINE];
  if (v->help) {
    for (size_t i = 0;
         i < sizeof(top_view_help_text) / sizeof(char *) && (int)i < avail;
         i++) {
      line[0] = '\0';
      top_text_fit(line, sizeof(line), top_view_help_text[i], cols, 0);
      mvaddstr((int)i, 0, line);
    }
  } else if (!v->fresh) {
    snprintf(line, sizeof(line), "collecting: the first values come after %gs",
             v->first_s);
    mvaddnstr(0, 0, line, cols);
  } else {
    lo.height = avail;
    lo.first_row = v->scroll;
    lo.interval_s = v->interval_s;
    if (top_render(m, &lo, &s) < 0)
      mvaddnstr(0, 0, "(out of memory)", cols);
    v->n_engines = s.n_engines;
    if (s.page > 0) {
      /* the table's rows are a window the layout chose (the device
       * sections folded to leave it room): the screen as laid out */
      v->scroll = s.first_row;
      v->page = s.page;
      top_view_lines(&s, 0, (size_t)avail, 0);
    } else {
      top_view_scroll(&s, v, (size_t)avail, cols);
    }
  }
  char help[256], filt[80] = "";
  if (v->o.filter[0])
    snprintf(filt, sizeof(filt), " [%s]", v->o.filter);
  if (v->editing)
    snprintf(help, sizeof(help), "filter: %s_  (Enter keep, Esc clear)",
             v->o.filter);
  else
    snprintf(help, sizeof(help),
             "q quit  h help  s/S sort  / filter%s  p/c/C/g rows  space %s  "
             "every %gs",
             filt, v->paused ? "resume [paused]" : "pause", v->interval_s);
  if (top_view_message[0] != '\0' && rows > 2) {
    line[0] = '\0';
    top_text_fit(line, sizeof(line), top_view_message, cols - 1, 0);
    move(rows - 2, 0);
    clrtoeol();
    attron(A_BOLD);
    mvaddstr(rows - 2, 0, line);
    attroff(A_BOLD);
  }
  line[0] = '\0';
  top_text_fit(line, sizeof(line), help, cols - 1, 0);
  attron(A_REVERSE);
  mvaddstr(rows - 1, 0, line);
  attroff(A_REVERSE);
  top_screen_fini(&s);
  refresh();
}

/* A key of the filter line. */
static void top_view_edit(int ch, struct top_view_state *v) {
  char *f = v->o.filter;
  size_t len = strlen(f);
  if (ch == '\n' || ch == '\r' || ch == KEY_ENTER) {
    v->editing = false;
  } else if (ch == 27) {
    f[0] = '\0';
    v->editing = false;
  } else if ((ch == KEY_BACKSPACE || ch == 127 || ch == 8) && len > 0) {
    f[len - 1] = '\0';
  } else if (ch == 21) { /* Ctrl-U: the whole line */
    f[0] = '\0';
  } else if (ch >= 0x20 && ch < 0x7f && len + 1 < sizeof(v->o.filter)) {
    f[len] = (char)ch;
    f[len + 1] = '\0';
  }
  v->scroll = 0;
}

/* Switch the table's scope, asking the host for its records. */
static void top_view_scope(struct top_view_state *v, enum top_scope scope,
                           const struct top_view_host *host) {
  v->o.scope = scope;
  v->scroll = 0;
  if (scope != TOP_SCOPE_PROCESS && host->scope != NULL)
    v->o.scope_requested = host->scope(host->ctx, scope) == 0;
  else
    v->o.scope_requested = false;
}

/* One key; returns true when the view should quit. */
static bool top_view_key(int ch, struct top_view_state *v,
                         const struct top_view_host *host) {
  if (v->editing) {
    top_view_edit(ch, v);
    return false;
  }
  if (v->help) { /* any key leaves the help screen; q also quits */
    v->help = false;
    return ch == 'q' || ch == 'Q';
  }
  int n_sort = TOP_SORT_ENGINE + v->n_engines;
  size_t page = v->page > 1 ? v->page - 1 : 1;
  switch (ch) {
  case 'q':
  case 'Q':
    return true;
  case 'h':
  case '?':
  case KEY_F(1):
    v->help = true;
    break;
  case 's':
    v->o.sort = (v->o.sort + 1) % n_sort;
    break;
  case 'S':
    v->o.sort = (v->o.sort + n_sort - 1) % n_sort;
    break;
  case '/':
    v->editing = true; /* the filter as it is: edited, not wiped */
    break;
  case 'p':
    top_view_scope(v, TOP_SCOPE_PROCESS, host);
    break;
  case 'c':
    top_view_scope(v, TOP_SCOPE_CONTAINER, host);
    break;
  case 'C':
    top_view_scope(v, TOP_SCOPE_CLIENT, host);
    break;
  case 'g':
    top_view_scope(v, TOP_SCOPE_CGROUP, host);
    break;
  case 'r':
    v->o.raw = !v->o.raw;
    break;
  case 't':
    v->o.charts = !v->o.charts;
    break;
  case ' ':
    v->paused = !v->paused;
    break;
  case KEY_DOWN:
  case 'j':
    v->scroll++;
    break;
  case KEY_UP:
  case 'k':
    v->scroll = v->scroll > 0 ? v->scroll - 1 : 0;
    break;
  case KEY_NPAGE:
    v->scroll += page;
    break;
  case KEY_PPAGE:
    v->scroll = v->scroll > page ? v->scroll - page : 0;
    break;
  case KEY_HOME:
    v->scroll = 0;
    break;
  case KEY_END:
    v->scroll = (size_t)-1 / 2; /* clamped by the next draw */
    break;
  default:
    break;
  }
  return false;
}

int top_view_run(struct top_model *m, const struct top_options *start,
                 double interval_s, const struct top_view_host *host) {
  if (!isatty(STDOUT_FILENO) || !isatty(STDIN_FILENO)) {
    /* escape codes into a pipe or a file help nobody */
    fprintf(stderr,
            "top: %s: not a terminal: the live view needs one (use "
            "--format=top --once for one plain-text screen)\n",
            isatty(STDOUT_FILENO) ? "stdin" : "stdout");
    return 1;
  }
  /* The host refuses an interval below 1 ms; a deadline grid finer than
   * that would only spin. */
  if (!(interval_s >= TOP_VIEW_MIN_INTERVAL_S))
    interval_s = TOP_VIEW_MIN_INTERVAL_S;
  setlocale(LC_CTYPE, "");
  top_view_have_termios = tcgetattr(STDIN_FILENO, &top_view_termios) == 0;
  SCREEN *scr = newterm(NULL, stdout, stdin);
  if (scr == NULL) {
    const char *term = getenv("TERM");
    fprintf(stderr,
            "top: terminal: newterm: cannot use TERM=%s (use --format=table "
            "or --once)\n",
            term ? term : "(unset)");
    return 1;
  }
  top_view_reset_len = 0;
  top_view_reset_add("rmcup"); /* exit_ca_mode: leave the alternate screen */
  top_view_reset_add("cnorm"); /* cursor_normal */
  top_view_reset_add("sgr0");  /* exit_attribute_mode */
  top_view_reset_add("rmkx");  /* keypad_local */
  top_view_active = 1;
  top_view_signals_on();
  cbreak();
  noecho();
  keypad(stdscr, TRUE);
  /* Home and End as tmux, screen and the Linux console send them (and
   * rxvt), which xterm's terminfo does not list (it has ESC O H, ESC O F) */
  define_key("\033[1~", KEY_HOME);
  define_key("\033[4~", KEY_END);
  define_key("\033[7~", KEY_HOME);
  define_key("\033[8~", KEY_END);
  curs_set(0);
  set_escdelay(25);

  struct top_view_state v;
  memset(&v, 0, sizeof(v));
  v.o = *start;
  v.o.utf8 = top_text_utf8();
  v.interval_s = interval_s;
  v.first_s = host->first_s > 0 && host->first_s < interval_s ? host->first_s
                                                              : interval_s;
  int status = 0;
  double next = top_view_now() + v.first_s;
  top_view_draw(m, &v);
  while (!*host->stop) {
    double left = next - top_view_now();
    int ms = left <= 0 ? 0 : (int)(left * 1000.0) + 1;
    int idle = host->idle ? host->idle(host->ctx) : -1;
    if (idle >= 0 && idle < ms)
      ms = idle;
    timeout(ms);
    int ch = getch();
    if (*host->stop)
      break;
    bool redraw = false;
    if (ch == KEY_RESIZE) {
      redraw = true;
    } else if (ch != ERR) {
      if (top_view_key(ch, &v, host))
        break;
      redraw = true;
    }
    double now = top_view_now();
    if (now >= next) {
      /* one grid of deadlines; missed ones are skipped, not caught up
       * (computed, not counted: no loop however far behind) */
      next += (floor((now - next) / interval_s) + 1.0) * interval_s;
      if (!v.paused) {
        if (host->read(host->ctx) < 0) {
          status = 1;
          break;
        }
        v.fresh = true;
      }
      redraw = true;
    }
    if (redraw && !*host->stop)
      top_view_draw(m, &v);
  }
  endwin();
  top_view_active = 0;
  top_view_signals_off();
  delscreen(scr);
  if (top_view_message[0] != '\0') /* the latest message, not lost */
    fprintf(stderr, "%s\n", top_view_message);
  return status;
}
