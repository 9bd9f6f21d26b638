/*
 * test_devsession.c: the device-session life every device plugin runs
 * (common/core/devsession): the backoff sequence at exact times, the
 * failure said once per episode and the recovery once at INFO, reopen
 * counting, close, the reset on the first good use (not at open), the
 * re-look cap.
 */
#include "common/core/devsession.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#define S UINT64_C(1000000000)

static char logged[4096];
static int n_logged;

static void capture(enum log_level level, const char *message) {
  size_t n = strlen(logged);
  snprintf(logged + n, sizeof(logged) - n, "%d %s\n", (int)level, message);
  n_logged++;
}

static int setup(void **state) {
  (void)state;
  logged[0] = '\0';
  n_logged = 0;
  log_set_sink(capture, LOG_LEVEL_DEBUG);
  return 0;
}

static int teardown(void **state) {
  (void)state;
  log_set_sink(NULL, LOG_LEVEL_INFO);
  return 0;
}

/* 1 s, doubling, capped at 5 min: each attempt fails the moment it is
 * due, so the attempts fall at these exact times. */
static void devsession_fail__backoff_doubles_to_five_minutes(void **state) {
  (void)state;
  static const uint64_t delays[] = {1,  2,   4,   8,   16,  32,
                                    64, 128, 256, 300, 300, 300};
  struct devsession s;
  devsession_init(&s, "p", "dev");
  assert_true(devsession_due(&s, 0)); /* never opened: try now */
  uint64_t now = 10 * S;
  for (size_t i = 0; i < sizeof(delays) / sizeof(delays[0]); i++) {
    devsession_fail(&s, now, EIO);
    assert_int_equal(s.delay_ns, delays[i] * S);
    assert_int_equal(s.next_ns, now + delays[i] * S);
    assert_false(devsession_due(&s, now));
    assert_false(devsession_due(&s, now + delays[i] * S - 1));
    assert_true(devsession_due(&s, now + delays[i] * S));
    now += delays[i] * S;
  }
  assert_int_equal(s.failures, 12);
  assert_int_equal(s.last_err, EIO);
  /* 10 + 1+2+...+256 + 3*300 s */
  assert_int_equal(now, (10 + 511 + 900) * S);
}

/* The re-look of an empty discovery: 1 s doubling to 1 min. */
static void devsession_set_backoff__relook_capped_at_one_minute(void **state) {
  (void)state;
  static const uint64_t delays[] = {1, 2, 4, 8, 16, 32, 60, 60};
  struct devsession s;
  devsession_init(&s, "p", "/dev/dri");
  devsession_set_backoff(&s, DEVSESSION_BACKOFF_MIN_NS,
                         DEVSESSION_RELOOK_MAX_NS);
  for (size_t i = 0; i < sizeof(delays) / sizeof(delays[0]); i++) {
    devsession_fail(&s, 0, 0);
    assert_int_equal(s.delay_ns, delays[i] * S);
  }
  /* bounds that make no sense are made to */
  devsession_set_backoff(&s, 0, 0);
  assert_int_equal(s.min_ns, 1);
  assert_int_equal(s.max_ns, 1);
}

/* Said once per episode at the caller's level; the end once at INFO; a
 * new episode is said again. */
static void devsession_failf__said_once_recovery_once(void **state) {
  (void)state;
  struct devsession s;
  devsession_init(&s, "i915_oa", "0000:00:02.0");
  assert_false(devsession_quiet(&s));
  for (int i = 0; i < 5; i++)
    devsession_failf(&s, (uint64_t)i * 1000 * S, EBUSY, LOG_LEVEL_WARNING,
                     "DRM_IOCTL_I915_PERF_OPEN", "busy (%d)", i);
  assert_true(devsession_quiet(&s));
  assert_int_equal(n_logged, 1);
  assert_string_equal(logged,
                      "4 i915_oa: 0000:00:02.0: DRM_IOCTL_I915_PERF_OPEN: "
                      "busy (0)\n");
  logged[0] = '\0';
  devsession_opened(&s);
  assert_int_equal(n_logged, 1); /* open is not yet healthy */
  devsession_healthy(&s, "stream", "open again");
  devsession_healthy(&s, "stream", "open again");
  assert_int_equal(n_logged, 2);
  assert_string_equal(logged, "6 i915_oa: 0000:00:02.0: stream: open again\n");
  assert_false(devsession_quiet(&s));
  logged[0] = '\0';
  devsession_failf(&s, 0, EIO, LOG_LEVEL_ERROR, "read", "gone");
  assert_int_equal(n_logged, 3);
  assert_string_equal(logged, "3 i915_oa: 0000:00:02.0: read: gone\n");
}

/* devsession_fail says whether the caller should speak; a first open that
 * never failed says nothing. */
static void devsession_fail__first_of_episode_only(void **state) {
  (void)state;
  struct devsession s;
  devsession_init(&s, "p", "o");
  assert_false(devsession_opened(&s));
  devsession_healthy(&s, "w", "never said");
  assert_int_equal(n_logged, 0);
  assert_true(devsession_fail(&s, 0, ENODEV));
  assert_false(devsession_fail(&s, S, ENODEV));
  assert_false(devsession_fail(&s, 3 * S, ENODEV));
  assert_true(devsession_quiet(&s));
  /* the plain form logs nothing itself, nor the end of what it did not
   * say (the caller that said the failure says the recovery) */
  devsession_opened(&s);
  devsession_healthy(&s, "w", "open again");
  assert_int_equal(n_logged, 0);
  assert_false(devsession_quiet(&s));
}

/* Reopen: an open after an earlier one that was lost, not closed on
 * purpose. */
static void devsession_opened__counts_reopens(void **state) {
  (void)state;
  struct devsession s;
  devsession_init(&s, "p", "o");
  devsession_fail(&s, 0, ENOENT); /* failing from the start */
  assert_false(devsession_opened(&s));
  assert_int_equal(s.opens, 1);
  assert_int_equal(s.reopens, 0);
  assert_true(devsession_is_open(&s));
  assert_false(devsession_due(&s, UINT64_MAX)); /* open: nothing to try */
  devsession_fail(&s, 5 * S, EIO);              /* lost */
  assert_false(devsession_is_open(&s));
  assert_true(devsession_opened(&s));
  assert_int_equal(s.opens, 2);
  assert_int_equal(s.reopens, 1);
  devsession_close(&s); /* closed on purpose: the next open is no reopen */
  assert_false(devsession_opened(&s));
  assert_int_equal(s.opens, 3);
  assert_int_equal(s.reopens, 1);
}

/* A success resets the wait: the next failure waits 1 s again. */
static void devsession_opened__resets_backoff(void **state) {
  (void)state;
  struct devsession s;
  devsession_init(&s, "p", "o");
  for (int i = 0; i < 6; i++)
    devsession_fail(&s, 0, EIO);
  assert_int_equal(s.delay_ns, 32 * S);
  devsession_opened(&s);
  assert_int_equal(s.delay_ns, 32 * S); /* opened, not yet used */
  devsession_healthy(&s, "w", "x");
  assert_int_equal(s.delay_ns, 0);
  assert_int_equal(s.failures, 0);
  assert_int_equal(s.last_err, 0);
  devsession_fail(&s, 100 * S, EIO);
  assert_int_equal(s.next_ns, 101 * S);
}

/* A device that opens but fails at its first use is not healthy: the
 * wait keeps doubling and nothing is said again. */
static void devsession_opened__not_healthy_until_used(void **state) {
  (void)state;
  struct devsession s;
  devsession_init(&s, "p", "o");
  devsession_failf(&s, 0, EIO, LOG_LEVEL_WARNING, "read", "gone");
  uint64_t now = 0;
  for (int i = 0; i < 4; i++) {
    now = s.next_ns;
    assert_true(devsession_due(&s, now));
    devsession_opened(&s);                       /* opens... */
    assert_false(devsession_fail(&s, now, EIO)); /* ...fails at once */
  }
  assert_int_equal(s.delay_ns, 16 * S); /* 1, 2, 4, 8, 16 */
  assert_int_equal(s.next_ns, (1 + 2 + 4 + 8 + 16) * S);
  assert_int_equal(n_logged, 1);
  devsession_opened(&s);
  devsession_healthy(&s, "read", "back");
  assert_int_equal(n_logged, 2);
  assert_non_null(strstr(logged, "6 p: o: read: back\n"));
}

/* Close on purpose: due at once, no wait, nothing said, and a later
 * failure is a new episode. */
static void devsession_close__healthy_and_silent(void **state) {
  (void)state;
  struct devsession s;
  devsession_init(&s, "p", "o");
  devsession_failf(&s, 0, EIO, LOG_LEVEL_WARNING, "w", "down");
  devsession_fail(&s, S, EIO);
  devsession_close(&s);
  assert_int_equal(s.state, DEVSESSION_CLOSED);
  assert_true(devsession_due(&s, 0));
  assert_int_equal(s.delay_ns, 0);
  assert_false(devsession_quiet(&s));
  devsession_failf(&s, 7 * S, EIO, LOG_LEVEL_WARNING, "w", "down again");
  assert_int_equal(s.next_ns, 8 * S);
  assert_int_equal(n_logged, 2);
  assert_non_null(strstr(logged, "p: o: w: down again"));
}

/* The wait never wraps past the end of time. */
static void devsession_fail__saturates(void **state) {
  (void)state;
  struct devsession s;
  devsession_init(&s, "p", "o");
  devsession_fail(&s, UINT64_MAX - 5, EIO);
  assert_int_equal(s.next_ns, UINT64_MAX);
  assert_false(devsession_due(&s, UINT64_MAX - 1));
}

/* An object longer than the buffer is cut, not overrun. */
static void devsession_init__long_object_cut(void **state) {
  (void)state;
  char longname[400];
  memset(longname, 'x', sizeof(longname) - 1);
  longname[sizeof(longname) - 1] = '\0';
  struct devsession s;
  devsession_init(&s, "p", longname);
  assert_int_equal(strlen(s.object), DEVSESSION_OBJECT_MAX - 1);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void) {
  const struct CMUnitTest tests[] = {
      T(devsession_fail__backoff_doubles_to_five_minutes),
      T(devsession_set_backoff__relook_capped_at_one_minute),
      T(devsession_failf__said_once_recovery_once),
      T(devsession_fail__first_of_episode_only),
      T(devsession_opened__counts_reopens),
      T(devsession_opened__resets_backoff),
      T(devsession_opened__not_healthy_until_used),
      T(devsession_close__healthy_and_silent),
      T(devsession_fail__saturates),
      T(devsession_init__long_object_cut),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
