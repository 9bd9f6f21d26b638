/*
 * prom_http_auth.c: the password checks' workers, queue, cache and
 * per-address backoff (see prom_http_auth.h).
 */
#include "common/http/prom_http_auth.h"
#include "common/http/prom_http_web.h"

#include <crypt.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* An address with failures, or with checks in flight. */
struct prom_http_addr {
  unsigned char key[16];
  unsigned fails;   /* in a row */
  unsigned flight;  /* checks queued or running */
  double last_fail; /* CLOCK_MONOTONIC seconds */
  double until;     /* no check before this */
  bool used;
};

struct prom_http_auth {
  struct prom_http_users *users; /* owned; read-only after the load */
  void (*done)(void *cls, struct prom_http_auth_job *job);
  void *cls;
  pthread_mutex_t lock; /* guards everything below */
  pthread_cond_t work;
  bool stop;
  struct prom_http_auth_job *head[2], *tail[2]; /* [0]: first, [1]: last */
  unsigned queued;
  unsigned running_low; /* jobs of addresses that have failed, running */
  struct {
    char *user, *password; /* owned, or NULL */
  } cache[PROM_HTTP_AUTH_CACHE];
  unsigned cache_next; /* the slot replaced next */
  struct prom_http_addr addrs[PROM_HTTP_AUTH_ADDRS];
  pthread_t workers[PROM_HTTP_AUTH_WORKERS];
  unsigned n_workers;
};

static double prom_http_auth_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The address key: an IPv4 address as ::ffff:a.b.c.d, an IPv6 address's
 * /64 (what one host is usually given: its addresses are one client). */
static void prom_http_auth_key(const struct sockaddr *sa, unsigned char *key) {
  memset(key, 0, 16);
  if (sa != NULL && sa->sa_family == AF_INET) {
    const struct sockaddr_in *v4 = (const struct sockaddr_in *)sa;
    key[10] = key[11] = 0xff;
    memcpy(key + 12, &v4->sin_addr, 4);
  } else if (sa != NULL && sa->sa_family == AF_INET6) {
    const struct sockaddr_in6 *v6 = (const struct sockaddr_in6 *)sa;
    memcpy(key, &v6->sin6_addr, 8);
  }
}

/* The entry of `key`, or NULL; with `make`, a new one in a free slot, else
 * in place of the one idle longest (none in flight). Lock held. */
static struct prom_http_addr *prom_http_auth_addr(struct prom_http_auth *a,
                                                  const unsigned char *key,
                                                  double now, bool make) {
  struct prom_http_addr *free_slot = NULL, *oldest = NULL;
  for (size_t i = 0; i < PROM_HTTP_AUTH_ADDRS; i++) {
    struct prom_http_addr *e = &a->addrs[i];
    if (e->used && e->flight == 0 && e->fails > 0 &&
        now - e->last_fail > PROM_HTTP_AUTH_FORGET_S)
      e->used = false; /* forgotten */
    if (e->used && memcmp(e->key, key, 16) == 0)
      return e;
    if (!e->used && free_slot == NULL)
      free_slot = e;
    if (e->used && e->flight == 0 &&
        (oldest == NULL || e->last_fail < oldest->last_fail))
      oldest = e;
  }
  if (!make)
    return NULL;
  struct prom_http_addr *e = free_slot ? free_slot : oldest;
  if (e != NULL) {
    memset(e, 0, sizeof(*e));
    memcpy(e->key, key, 16);
    e->used = true;
  }
  return e;
}

/* A check's outcome for its address (lock held). */
static void prom_http_auth_outcome(struct prom_http_addr *e, bool ok,
                                   double now) {
  if (ok) {
    e->fails = 0;
    e->until = 0;
  } else {
    e->fails++;
    e->last_fail = now;
    if (e->fails > PROM_HTTP_AUTH_FREE_FAILS) {
      double wait = PROM_HTTP_AUTH_BACKOFF_S;
      for (unsigned k = PROM_HTTP_AUTH_FREE_FAILS + 1;
           k < e->fails && wait < PROM_HTTP_AUTH_BACKOFF_MAX_S; k++)
        wait *= 2;
      e->until = now + (wait < PROM_HTTP_AUTH_BACKOFF_MAX_S
                            ? wait
                            : PROM_HTTP_AUTH_BACKOFF_MAX_S);
    }
  }
  if (e->fails == 0 && e->flight == 0)
    e->used = false;
}

/* Remember a verified pair (lock held); no memory: not remembered. */
static void prom_http_auth_remember(struct prom_http_auth *a, const char *user,
                                    const char *password) {
  for (size_t k = 0; k < PROM_HTTP_AUTH_CACHE; k++)
    if (a->cache[k].user != NULL && strcmp(a->cache[k].user, user) == 0 &&
        prom_http_same(a->cache[k].password, password))
      return;
  char *u = strdup(user), *p = strdup(password);
  if (u == NULL || p == NULL) {
    free(u);
    free(p);
    return;
  }
  unsigned k = a->cache_next++ % PROM_HTTP_AUTH_CACHE;
  free(a->cache[k].user);
  free(a->cache[k].password);
  a->cache[k].user = u;
  a->cache[k].password = p;
}

/* The next job: an address without failures first; one of an address
 * that has failed only while no other such job runs, so that a worker is
 * always left for the others (`all`: any job, at the stop). */
static struct prom_http_auth_job *prom_http_auth_pop(struct prom_http_auth *a,
                                                     bool all) {
  for (int q = 0; q < 2; q++) {
    struct prom_http_auth_job *j = a->head[q];
    if (q == 1 && a->running_low > 0 && !all)
      break;
    if (j != NULL) {
      a->head[q] = j->next;
      if (a->head[q] == NULL)
        a->tail[q] = NULL;
      j->next = NULL;
      a->queued--;
      return j;
    }
  }
  return NULL;
}

/* The end of a job (lock held): its address told, DONE. */
static void prom_http_auth_finish(struct prom_http_auth *a,
                                  struct prom_http_auth_job *j, bool ok,
                                  bool count) {
  double now = prom_http_auth_now();
  struct prom_http_addr *e = prom_http_auth_addr(a, j->addr, now, false);
  if (e != NULL && e->flight > 0)
    e->flight--;
  if (e != NULL && count)
    prom_http_auth_outcome(e, ok, now);
  else if (e != NULL && e->fails == 0 && e->flight == 0)
    e->used = false;
  if (ok)
    prom_http_auth_remember(a, j->user, j->password);
  prom_http_auth_job_fini(j); /* the password copy goes now */
  j->ok = ok;
  j->state = PROM_HTTP_JOB_DONE;
}

static void *prom_http_auth_run(void *arg) {
  struct prom_http_auth *a = arg;
  struct crypt_data *cd = malloc(sizeof(*cd)); /* about 32 KiB */
  pthread_mutex_lock(&a->lock);
  while (!a->stop) {
    struct prom_http_auth_job *j = prom_http_auth_pop(a, false);
    if (j == NULL) {
      pthread_cond_wait(&a->work, &a->lock);
      continue;
    }
    bool low = j->low;
    a->running_low += low;
    pthread_mutex_unlock(&a->lock);
    bool ok = cd != NULL &&
              prom_http_users_verify(a->users, j->user, j->password, cd);
    pthread_mutex_lock(&a->lock);
    prom_http_auth_finish(a, j, ok, cd != NULL);
    if (low) {
      a->running_low--;
      pthread_cond_signal(&a->work); /* a low job may wait for this */
    }
    pthread_mutex_unlock(&a->lock);
    a->done(a->cls, j); /* the job may be reused from here on */
    pthread_mutex_lock(&a->lock);
  }
  pthread_mutex_unlock(&a->lock);
  free(cd);
  return NULL;
}

struct prom_http_auth *
prom_http_auth_new(struct prom_http_users *users,
                   void (*done)(void *cls, struct prom_http_auth_job *job),
                   void *cls) {
  struct prom_http_auth *a = calloc(1, sizeof(*a));
  if (a == NULL) {
    prom_http_users_free(users);
    return NULL;
  }
  a->users = users;
  a->done = done;
  a->cls = cls;
  pthread_mutex_init(&a->lock, NULL);
  pthread_cond_init(&a->work, NULL);
  for (unsigned i = 0; i < PROM_HTTP_AUTH_WORKERS; i++) {
    int e = pthread_create(&a->workers[i], NULL, prom_http_auth_run, a);
    if (e != 0) {
      prom_http_auth_free(a);
      errno = e;
      return NULL;
    }
    a->n_workers++;
  }
  return a;
}

void prom_http_auth_free(struct prom_http_auth *a) {
  if (a == NULL)
    return;
  pthread_mutex_lock(&a->lock);
  a->stop = true;
  pthread_cond_broadcast(&a->work);
  pthread_mutex_unlock(&a->lock);
  for (unsigned i = 0; i < a->n_workers; i++)
    pthread_join(a->workers[i], NULL);
  struct prom_http_auth_job *j;
  while ((j = prom_http_auth_pop(a, true)) != NULL) {
    prom_http_auth_finish(a, j, false, false);
    a->done(a->cls, j);
  }
  for (size_t k = 0; k < PROM_HTTP_AUTH_CACHE; k++) {
    free(a->cache[k].user);
    free(a->cache[k].password);
  }
  pthread_cond_destroy(&a->work);
  pthread_mutex_destroy(&a->lock);
  prom_http_users_free(a->users);
  free(a);
}

enum prom_http_auth_verdict
prom_http_auth_check(struct prom_http_auth *a, struct prom_http_auth_job *job,
                     const struct sockaddr *from, const char *user,
                     const char *password, double now, double *retry_s) {
  enum prom_http_auth_verdict v = PROM_HTTP_AUTH_PENDING;
  unsigned char key[16];
  prom_http_auth_key(from, key);
  *retry_s = 0;
  pthread_mutex_lock(&a->lock);
  /* a pair already verified: at once, backoff or not (a scraper behind
   * the address of a guesser still scrapes) */
  for (size_t k = 0; k < PROM_HTTP_AUTH_CACHE; k++)
    if (a->cache[k].user != NULL && strcmp(a->cache[k].user, user) == 0 &&
        prom_http_same(a->cache[k].password, password)) {
      pthread_mutex_unlock(&a->lock);
      return PROM_HTTP_AUTH_OK;
    }
  struct prom_http_addr *e = prom_http_auth_addr(a, key, now, false);
  if (e != NULL && now < e->until) {
    v = PROM_HTTP_AUTH_BACKOFF;
    *retry_s = e->until - now;
  } else if (e != NULL && e->flight >= PROM_HTTP_AUTH_PER_IP) {
    v = PROM_HTTP_AUTH_BACKOFF;
    *retry_s = 1;
  } else if (a->queued >= PROM_HTTP_AUTH_QUEUE) {
    v = PROM_HTTP_AUTH_BUSY;
    *retry_s = 1;
  } else if (strlen(password) > PROM_HTTP_AUTH_PASSWORD_MAX) {
    v = PROM_HTTP_AUTH_DENIED; /* whoever the user: no name is told */
    if ((e = prom_http_auth_addr(a, key, now, true)) != NULL)
      prom_http_auth_outcome(e, false, now);
  } else {
    memset(job, 0, sizeof(*job));
    job->user = strdup(user);
    job->password = strdup(password);
    if (job->user == NULL || job->password == NULL) {
      prom_http_auth_job_fini(job);
      v = PROM_HTTP_AUTH_BUSY;
      *retry_s = 1;
    } else {
      memcpy(job->addr, key, 16);
      /* last: an address that has failed, or has a check waiting */
      job->low = e != NULL && (e->fails > 0 || e->flight > 0);
    }
  }
  pthread_mutex_unlock(&a->lock);
  return v;
}

void prom_http_auth_queue(struct prom_http_auth *a,
                          struct prom_http_auth_job *job) {
  pthread_mutex_lock(&a->lock);
  struct prom_http_addr *e =
      prom_http_auth_addr(a, job->addr, prom_http_auth_now(), true);
  if (e != NULL)
    e->flight++;
  int q = job->low ? 1 : 0;
  job->state = PROM_HTTP_JOB_QUEUED;
  job->next = NULL;
  if (a->tail[q] != NULL)
    a->tail[q]->next = job;
  else
    a->head[q] = job;
  a->tail[q] = job;
  a->queued++;
  pthread_cond_signal(&a->work);
  pthread_mutex_unlock(&a->lock);
}

bool prom_http_auth_take(struct prom_http_auth *a,
                         struct prom_http_auth_job *job) {
  pthread_mutex_lock(&a->lock);
  bool ok = job->state == PROM_HTTP_JOB_DONE && job->ok;
  prom_http_auth_job_fini(job);
  pthread_mutex_unlock(&a->lock);
  return ok;
}

void prom_http_auth_job_fini(struct prom_http_auth_job *job) {
  free(job->user);
  free(job->password);
  job->user = job->password = NULL;
  job->state = PROM_HTTP_JOB_IDLE;
  job->ok = false;
}
