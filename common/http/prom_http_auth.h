/*
 * prom_http_auth.h: the basic-auth password checks of --listen, off the
 * server's thread (prom_http.h).
 *
 * A check costs a bcrypt or sha-crypt hash (tens of milliseconds by
 * design), so it never runs on the server's thread, where it would hold
 * every other client:
 *  - a verified (user, password) pair is remembered (the last
 *    PROM_HTTP_AUTH_CACHE, exact bytes, compared in constant time): a
 *    scraper's every request after its first is answered at once, as
 *    Prometheus' exporter-toolkit does;
 *  - any other check goes to a queue of at most PROM_HTTP_AUTH_QUEUE jobs
 *    that PROM_HTTP_AUTH_WORKERS threads take, those of addresses without
 *    failures and with no other check waiting first, the others one at a
 *    time (a worker is left for the first ones); a full queue is "busy"
 *    (503);
 *  - an address (an IPv4 address, an IPv6 /64) may have
 *    PROM_HTTP_AUTH_PER_IP checks waiting or running; after
 *    PROM_HTTP_AUTH_FREE_FAILS failures in a row it waits
 *    PROM_HTTP_AUTH_BACKOFF_S, doubling with each further failure up to
 *    PROM_HTTP_AUTH_BACKOFF_MAX_S, before its next check: either is
 *    "backoff" (429), said before any user is looked at; a success, or
 *    PROM_HTTP_AUTH_FORGET_S without a failure, clears it;
 *  - an unknown user costs the same hash as a known one
 *    (prom_http_users_verify), and a password longer than
 *    PROM_HTTP_AUTH_PASSWORD_MAX is refused unhashed whoever the user.
 */
#ifndef COMMON_HTTP_PROM_HTTP_AUTH_H
#define COMMON_HTTP_PROM_HTTP_AUTH_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>

#define PROM_HTTP_AUTH_WORKERS 2u
#define PROM_HTTP_AUTH_QUEUE 32u
#define PROM_HTTP_AUTH_PER_IP 2u
#define PROM_HTTP_AUTH_CACHE 16u
#define PROM_HTTP_AUTH_ADDRS 256u /* addresses with failures remembered */
/* Failures an address has for free: a person mistyping, a test timing a
 * few refusals; a storm is held by the queue's order before this. */
#define PROM_HTTP_AUTH_FREE_FAILS 10u
#define PROM_HTTP_AUTH_BACKOFF_S 0.5
#define PROM_HTTP_AUTH_BACKOFF_MAX_S 30.0
#define PROM_HTTP_AUTH_FORGET_S 60.0
#define PROM_HTTP_AUTH_PASSWORD_MAX 256u

enum prom_http_auth_verdict {
  PROM_HTTP_AUTH_OK,      /* the user and password match */
  PROM_HTTP_AUTH_DENIED,  /* they do not: 401 */
  PROM_HTTP_AUTH_PENDING, /* a hash is needed: prom_http_auth_queue it */
  PROM_HTTP_AUTH_BUSY,    /* the queue is full: 503 */
  PROM_HTTP_AUTH_BACKOFF, /* the address must wait: 429 */
};

/* One check; the caller's storage (one per connection), zeroed before
 * its first use. */
struct prom_http_auth_job {
  struct prom_http_auth_job *next; /* in the queue */
  char *user, *password;           /* owned while queued or running */
  unsigned char addr[16];          /* the address key (see the top) */
  bool low;                        /* its address has failed: queued last */
  enum { PROM_HTTP_JOB_IDLE, PROM_HTTP_JOB_QUEUED, PROM_HTTP_JOB_DONE } state;
  bool ok;   /* when DONE */
  void *ctx; /* the caller's, for `done` */
};

struct prom_http_users;
struct prom_http_auth;

/*
 * Start the workers; takes ownership of `users` (freed here on failure
 * too). `done(cls, job)` is called from a worker once a queued job is
 * DONE (and from prom_http_auth_free for the jobs still queued, not ok),
 * after which the worker does not touch the job. NULL with errno set on
 * failure.
 */
struct prom_http_auth *
prom_http_auth_new(struct prom_http_users *users,
                   void (*done)(void *cls, struct prom_http_auth_job *job),
                   void *cls);

/* Stop and join the workers (a running hash is finished), complete every
 * job still queued as not ok through `done`, free. NULL is a no-op. */
void prom_http_auth_free(struct prom_http_auth *a);

/*
 * The check of `user`/`password` from `from` at `now` (CLOCK_MONOTONIC
 * seconds): OK or DENIED when known at once, BUSY or BACKOFF
 * with `*retry_s` (when to try again), or PENDING with `job` filled in:
 * the caller then sets job->ctx, makes itself ready for `done` and calls
 * prom_http_auth_queue. Only one thread (the server's) calls this and
 * prom_http_auth_queue, so that room checked here is still there.
 */
enum prom_http_auth_verdict
prom_http_auth_check(struct prom_http_auth *a, struct prom_http_auth_job *job,
                     const struct sockaddr *from, const char *user,
                     const char *password, double now, double *retry_s);

/* Queue a job prom_http_auth_check said PENDING for. */
void prom_http_auth_queue(struct prom_http_auth *a,
                          struct prom_http_auth_job *job);

/* A DONE job's result; the job is IDLE again. */
bool prom_http_auth_take(struct prom_http_auth *a,
                         struct prom_http_auth_job *job);

/* Free what an IDLE or DONE job holds (a connection closing). */
void prom_http_auth_job_fini(struct prom_http_auth_job *job);

#endif
