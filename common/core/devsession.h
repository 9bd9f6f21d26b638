/*
 * devsession.h: the life of one device session, the same in every device
 * plugin: open, fail, back off, reopen, close, and what is said about it.
 *
 * A session is CLOSED (never opened, or closed on purpose), OPEN, or
 * FAILED (an open attempt failed, or the open session was lost). After a
 * failure the next attempt waits 1 s, then 2 s, 4 s ... doubling up to
 * 5 min; the first successful use after a (re)open resets the wait. The
 * failure of an episode is said once (the first one), its end once at
 * INFO. The same machine paces the
 * re-look of auto-discovery that found nothing (devsession_set_backoff
 * with a lower cap), so a device that appears later is picked up.
 *
 * Time is the caller's: pass plugin_host_monotonic_ns() of the instance's
 * host (tests script it). Pure state and log_msg(); no I/O, no clock, no
 * lock (the caller serialises, as it does its device).
 */
#ifndef COMMON_CORE_DEVSESSION_H
#define COMMON_CORE_DEVSESSION_H

#include "common/core/log.h"

#include <stdbool.h>
#include <stdint.h>

#define DEVSESSION_BACKOFF_MIN_NS UINT64_C(1000000000)   /* 1 s */
#define DEVSESSION_BACKOFF_MAX_NS UINT64_C(300000000000) /* 5 min */
/* Auto-discovery that found nothing looks again 1 s doubling to 1 min. */
#define DEVSESSION_RELOOK_MAX_NS UINT64_C(60000000000)
#define DEVSESSION_OBJECT_MAX 256

enum devsession_state {
  DEVSESSION_CLOSED,
  DEVSESSION_OPEN,
  DEVSESSION_FAILED,
};

struct devsession {
  const char *plugin;                 /* borrowed: LoadPlugin name */
  char object[DEVSESSION_OBJECT_MAX]; /* how messages name the device */
  uint64_t min_ns, max_ns;            /* first wait, cap */
  enum devsession_state state;
  uint64_t next_ns;  /* FAILED: no attempt before this monotonic time */
  uint64_t delay_ns; /* the wait armed by the last failure; 0 if none */
  unsigned failures; /* failed attempts since the last success */
  uint64_t opens;    /* successful opens */
  uint64_t reopens;  /* of which not the first */
  int last_err;      /* errno of the last failure; 0 after a success */
  bool said;         /* this episode's failure has been said */
  bool logged;       /* ... by devsession_failf: it says the end too */
};

/* CLOSED, with the default backoff (1 s doubling to 5 min). `plugin` is
 * borrowed (a string literal in practice), `object` copied (cut to fit). */
void devsession_init(struct devsession *s, const char *plugin,
                     const char *object);

/* Other bounds: the first wait `min_ns` (> 0), doubling up to `max_ns`. */
void devsession_set_backoff(struct devsession *s, uint64_t min_ns,
                            uint64_t max_ns);

/* Whether an open attempt may be made at `now_ns`: CLOSED, or FAILED and
 * the wait is over. Never while OPEN. */
bool devsession_due(const struct devsession *s, uint64_t now_ns);

static inline bool devsession_is_open(const struct devsession *s) {
  return s->state == DEVSESSION_OPEN;
}

/* Whether this episode's failure was already said: a caller that logs
 * details on its own (open steps, hints) stays quiet while this holds. */
static inline bool devsession_quiet(const struct devsession *s) {
  return s->said;
}

/* An open attempt failed, or the open session was lost, at `now_ns` with
 * errno `err`: FAILED, the next attempt after the wait. Returns true for
 * the first failure of an episode: the caller says why, once (and, as it
 * said the failure, says the recovery too if it wants one). */
bool devsession_fail(struct devsession *s, uint64_t now_ns, int err);

/* devsession_fail, and on the episode's first failure log
 * "PLUGIN: OBJECT: WHAT: <detail>" at `level`; devsession_opened then
 * says the recovery. */
void devsession_failf(struct devsession *s, uint64_t now_ns, int err,
                      enum log_level level, const char *what,
                      const char *detail_fmt, ...)
    __attribute__((format(printf, 6, 7)));

/* Opened: OPEN. The failure episode is not over yet: a device that
 * opens but fails at its first use keeps backing off, quietly, until
 * devsession_healthy. Returns true for a reopen: the session was open
 * before and was lost, not closed on purpose (devsession_close). */
bool devsession_opened(struct devsession *s);

/* A successful use (a read) of the session ends a failure episode: the
 * wait is reset and, when devsession_failf said the failure, logs
 * "PLUGIN: OBJECT: WHAT: <detail>" once at INFO. Nothing to do (and
 * nothing formatted) while healthy: call it after every good read. */
void devsession_healthy(struct devsession *s, const char *what,
                        const char *detail_fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Closed on purpose (instance stop): CLOSED and healthy, nothing said. */
void devsession_close(struct devsession *s);

#endif
