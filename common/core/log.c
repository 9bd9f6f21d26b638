/*
 * log.c: message formatting and the host's log function (see log.h).
 */
#include "common/core/log.h"
#include "common/core/text.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static log_fn log_current_fn;
static enum log_level log_max_level = LOG_LEVEL_INFO;

static void log_default(enum log_level level, const char *message) {
  static const char *const names[] = {[LOG_LEVEL_ERROR] = "error",
                                      [LOG_LEVEL_WARNING] = "warning",
                                      [LOG_LEVEL_NOTICE] = "notice",
                                      [LOG_LEVEL_INFO] = "info",
                                      [LOG_LEVEL_DEBUG] = "debug"};
  const char *name = level >= LOG_LEVEL_ERROR && level <= LOG_LEVEL_DEBUG
                         ? names[level]
                         : "log";
  fprintf(stderr, "%s: %s\n", name, message);
}

void log_set_sink(log_fn fn, enum log_level max_level) {
  log_current_fn = fn;
  log_max_level = max_level;
}

static void log_emit(enum log_level level, const char *plugin,
                     const char *object, const char *what, const char *detail) {
  char message[1024];
  char raw[1024];
  int n =
      snprintf(raw, sizeof(raw), "%s: %s%s%s%s%s", plugin, object ? object : "",
               object ? ": " : "", what ? what : "", what ? ": " : "", detail);
  /* Objects are device and process names and paths: no ESC, BEL or C1
   * reaches a terminal or a log through here (text.h's rule) */
  size_t len = n < 0                     ? 0
               : (size_t)n < sizeof(raw) ? (size_t)n
                                         : sizeof(raw) - 1;
  text_sanitize(message, sizeof(message), raw, len);
  (log_current_fn ? log_current_fn : log_default)(level, message);
}

void log_msg(enum log_level level, const char *plugin, const char *object,
             const char *what, const char *detail_fmt, ...) {
  if (level > log_max_level)
    return;
  char detail[768];
  va_list ap;
  va_start(ap, detail_fmt);
  vsnprintf(detail, sizeof(detail), detail_fmt, ap);
  va_end(ap);
  log_emit(level, plugin, object, what, detail);
}

void log_errno(enum log_level level, const char *plugin, const char *object,
               const char *what, int err, const char *hint) {
  if (level > log_max_level)
    return;
  char buf[128];
  char detail[768];
  /* GNU strerror_r may return a static string instead of filling buf. */
  const char *text = strerror_r(err, buf, sizeof(buf));
  if (hint != NULL && (err == EACCES || err == EPERM))
    snprintf(detail, sizeof(detail), "%s; hint: %s", text, hint);
  else
    snprintf(detail, sizeof(detail), "%s", text);
  log_emit(level, plugin, object, what, detail);
}

bool log_complaint_raise(struct log_complaint *c) {
  if (c->raised)
    return false;
  c->raised = true;
  return true;
}

bool log_complaint_release(struct log_complaint *c) {
  if (!c->raised)
    return false;
  c->raised = false;
  return true;
}
