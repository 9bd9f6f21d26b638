/*
 * top_view.c: drawing top_model's lines with ncurses, the keys, and the
 * one-shot text screen (top_view.h).
 */
#include "common/top/top_view.h"
#include "common/top/top_text.h"

#include <curses.h>
#include <errno.h>
#include <locale.h>
#include <pwd.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

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

/* A crash must not leave the terminal in raw mode: restore it, then die
 * of the same signal. endwin() is not async-signal-safe; on this path the
 * process is ending anyway, and a sane terminal is worth the risk. */
static void top_view_fatal(int sig) {
  if (top_view_active)
    endwin();
  signal(sig, SIG_DFL);
  raise(sig);
}

static double top_view_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void top_view_draw(const struct top_model *m,
                          const struct top_options *o, bool fresh, bool paused,
                          bool editing, double interval_s) {
  int rows, cols;
  getmaxyx(stdscr, rows, cols);
  struct top_options lo = *o;
  lo.cols = cols;
  /* the help line, and the latest message above it */
  lo.rows = rows - 1 - (top_view_message[0] != '\0' && rows > 2);
  if (lo.rows < 1)
    lo.rows = 1;
  lo.max_rows = 0;
  struct top_screen s;
  memset(&s, 0, sizeof(s));
  erase();
  if (!fresh) {
    mvaddnstr(0, 0, "collecting: the first values come after one interval",
              cols);
  } else {
    top_render(m, &lo, &s);
    for (size_t i = 0; i < s.n && (int)i < rows - 1; i++) {
      int attr = s.lines[i].kind == TOP_LINE_HEADER  ? A_REVERSE
                 : s.lines[i].kind == TOP_LINE_TITLE ? A_BOLD
                                                     : A_NORMAL;
      attron(attr);
      mvaddstr((int)i, 0, s.lines[i].text);
      attroff(attr);
    }
  }
  char help[256], filt[80] = "";
  if (o->filter[0])
    snprintf(filt, sizeof(filt), " [%s]", o->filter);
  if (editing)
    snprintf(help, sizeof(help), "filter: %s_  (Enter apply, Esc clear)",
             o->filter);
  else
    snprintf(help, sizeof(help),
             "q quit  s/S sort  / filter%s  p/c/g process/client/cgroup  "
             "r raw  space %s  every %gs",
             filt, paused ? "resume [paused]" : "pause", interval_s);
  if (top_view_message[0] != '\0' && rows > 2) {
    char line[2048] = "";
    top_text_fit(line, sizeof(line), top_view_message, cols - 1, 0);
    move(rows - 2, 0);
    clrtoeol();
    attron(A_BOLD);
    mvaddstr(rows - 2, 0, line);
    attroff(A_BOLD);
  }
  attron(A_REVERSE);
  mvaddnstr(rows - 1, 0, help, cols - 1);
  attroff(A_REVERSE);
  top_screen_fini(&s);
  refresh();
}

/* One key; returns true when the view should quit. */
static bool top_view_key(int ch, struct top_options *o, bool *paused,
                         bool *editing, int n_engines) {
  if (*editing) {
    size_t len = strlen(o->filter);
    if (ch == '\n' || ch == '\r' || ch == KEY_ENTER)
      *editing = false;
    else if (ch == 27) {
      o->filter[0] = '\0';
      *editing = false;
    } else if ((ch == KEY_BACKSPACE || ch == 127 || ch == 8) && len > 0)
      o->filter[len - 1] = '\0';
    else if (ch >= 0x20 && ch < 0x7f && len + 1 < sizeof(o->filter)) {
      o->filter[len] = (char)ch;
      o->filter[len + 1] = '\0';
    }
    return false;
  }
  int n_sort = TOP_SORT_ENGINE + n_engines;
  switch (ch) {
  case 'q':
  case 'Q':
    return true;
  case 's':
    o->sort = (o->sort + 1) % n_sort;
    break;
  case 'S':
    o->sort = (o->sort + n_sort - 1) % n_sort;
    break;
  case '/':
    *editing = true;
    o->filter[0] = '\0';
    break;
  case 'p':
    o->scope = TOP_SCOPE_PROCESS;
    break;
  case 'c':
    o->scope = TOP_SCOPE_CLIENT;
    break;
  case 'g':
    o->scope = TOP_SCOPE_CGROUP;
    break;
  case 'r':
    o->raw = !o->raw;
    break;
  case ' ':
    *paused = !*paused;
    break;
  default:
    break;
  }
  return false;
}

int top_view_run(struct top_model *m, const struct top_options *start,
                 double interval_s, const struct top_view_host *host) {
  struct top_options o = *start;
  if (!isatty(STDOUT_FILENO) || !isatty(STDIN_FILENO)) {
    /* escape codes into a pipe or a file help nobody */
    fprintf(stderr,
            "top: %s: not a terminal: the live view needs one (use "
            "--format=top --once for one plain-text screen)\n",
            isatty(STDOUT_FILENO) ? "stdin" : "stdout");
    return 1;
  }
  setlocale(LC_CTYPE, "");
  SCREEN *scr = newterm(NULL, stdout, stdin);
  if (scr == NULL) {
    const char *term = getenv("TERM");
    fprintf(stderr,
            "top: terminal: newterm: cannot use TERM=%s (use --format=table "
            "or --once)\n",
            term ? term : "(unset)");
    return 1;
  }
  top_view_active = 1;
  static const int fatal[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
  for (size_t i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++)
    signal(fatal[i], top_view_fatal);
  cbreak();
  noecho();
  keypad(stdscr, TRUE);
  curs_set(0);
  set_escdelay(25);

  int status = 0;
  bool fresh = false, paused = false, editing = false;
  double next = top_view_now() + interval_s;
  top_view_draw(m, &o, fresh, paused, editing, interval_s);
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
    if (ch == KEY_RESIZE)
      redraw = true;
    else if (ch != ERR) {
      struct top_screen s;
      memset(&s, 0, sizeof(s));
      /* the engine columns the sort key cycles through */
      struct top_options lo = o;
      lo.rows = 1;
      top_render(m, &lo, &s);
      int n_engines = s.n_engines;
      top_screen_fini(&s);
      if (top_view_key(ch, &o, &paused, &editing, n_engines))
        break;
      redraw = true;
    }
    double now = top_view_now();
    if (now >= next) {
      /* one grid of deadlines; missed ones are skipped */
      while (next <= now)
        next += interval_s;
      if (!paused) {
        if (host->read(host->ctx) < 0) {
          status = 1;
          break;
        }
        fresh = true;
      }
      redraw = true;
    }
    if (redraw)
      top_view_draw(m, &o, fresh, paused, editing, interval_s);
  }
  endwin();
  top_view_active = 0;
  delscreen(scr);
  if (top_view_message[0] != '\0') /* the latest message, not lost */
    fprintf(stderr, "%s\n", top_view_message);
  for (size_t i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++)
    signal(fatal[i], SIG_DFL);
  return status;
}
