/*
 * devsession.c: the device-session life (devsession.h): a three-state
 * machine, the doubling wait and the once-per-episode messages.
 */
#include "common/core/devsession.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void devsession_init(struct devsession *s, const char *plugin,
                     const char *object) {
  memset(s, 0, sizeof(*s));
  s->plugin = plugin;
  snprintf(s->object, sizeof(s->object), "%s", object);
  s->min_ns = DEVSESSION_BACKOFF_MIN_NS;
  s->max_ns = DEVSESSION_BACKOFF_MAX_NS;
  s->state = DEVSESSION_CLOSED;
}

void devsession_set_backoff(struct devsession *s, uint64_t min_ns,
                            uint64_t max_ns) {
  s->min_ns = min_ns > 0 ? min_ns : 1;
  s->max_ns = max_ns >= s->min_ns ? max_ns : s->min_ns;
}

bool devsession_due(const struct devsession *s, uint64_t now_ns) {
  switch (s->state) {
  case DEVSESSION_CLOSED:
    return true;
  case DEVSESSION_FAILED:
    return now_ns >= s->next_ns;
  default:
    return false;
  }
}

bool devsession_fail(struct devsession *s, uint64_t now_ns, int err) {
  if (s->delay_ns == 0)
    s->delay_ns = s->min_ns;
  else if (s->delay_ns <= s->max_ns / 2)
    s->delay_ns *= 2;
  else
    s->delay_ns = s->max_ns;
  s->next_ns =
      now_ns > UINT64_MAX - s->delay_ns ? UINT64_MAX : now_ns + s->delay_ns;
  s->state = DEVSESSION_FAILED;
  s->failures++;
  s->last_err = err;
  bool first = !s->said;
  s->said = true;
  return first;
}

/* "PLUGIN: OBJECT: WHAT: <detail>" at `level`. */
static void devsession_say(const struct devsession *s, enum log_level level,
                           const char *what, const char *detail_fmt, va_list ap)
    __attribute__((format(printf, 4, 0)));
static void devsession_say(const struct devsession *s, enum log_level level,
                           const char *what, const char *detail_fmt,
                           va_list ap) {
  char detail[768];
  vsnprintf(detail, sizeof(detail), detail_fmt, ap);
  log_msg(level, s->plugin, s->object, what, "%s", detail);
}

void devsession_failf(struct devsession *s, uint64_t now_ns, int err,
                      enum log_level level, const char *what,
                      const char *detail_fmt, ...) {
  if (!devsession_fail(s, now_ns, err))
    return;
  s->logged = true;
  va_list ap;
  va_start(ap, detail_fmt);
  devsession_say(s, level, what, detail_fmt, ap);
  va_end(ap);
}

bool devsession_opened(struct devsession *s) {
  /* after a close on purpose (a pause, a stop) an open is not a reopen */
  bool reopen = s->opens > 0 && s->state != DEVSESSION_CLOSED;
  s->opens++;
  s->reopens += reopen ? 1 : 0;
  s->state = DEVSESSION_OPEN;
  s->next_ns = 0;
  return reopen;
}

void devsession_healthy(struct devsession *s, const char *what,
                        const char *detail_fmt, ...) {
  if (s->delay_ns == 0 && !s->said)
    return;
  s->delay_ns = 0;
  s->failures = 0;
  s->last_err = 0;
  s->said = false;
  if (!s->logged)
    return;
  s->logged = false;
  va_list ap;
  va_start(ap, detail_fmt);
  devsession_say(s, LOG_LEVEL_INFO, what, detail_fmt, ap);
  va_end(ap);
}

void devsession_close(struct devsession *s) {
  s->state = DEVSESSION_CLOSED;
  s->delay_ns = 0;
  s->next_ns = 0;
  s->failures = 0;
  s->said = s->logged = false;
}
