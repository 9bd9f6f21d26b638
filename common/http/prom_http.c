/*
 * prom_http.c: /metrics over libmicrohttpd (see prom_http.h).
 *
 * The listening socket is ours (socket, bind, listen), so that a bad
 * address or a port in use gives the errno of the call that failed, and so
 * is accepting: libmicrohttpd 0.9.75 retries a failing accept() at once when
 * it has no connection to close (daemon.c, MHD_accept_connection: "busy
 * waiting for system resources"), which spins a core when descriptors run
 * out. Accepted sockets go to the daemon with MHD_add_connection, which
 * applies the connection and per-IP limits and closes what it refuses.
 *
 * The access handler answers on its second call for a request: a response
 * queued on the first call (headers just parsed) makes libmicrohttpd
 * discard the rest of the request and close the connection after the
 * answer (connection.c, MHD_queue_response: "response was queued early").
 */
#include "common/http/prom_http.h"
#include "common/core/log.h"
#include "common/http/prom_http_addr.h"
#include "common/http/prom_http_auth.h"
#include "common/http/prom_http_web.h"
#include "common/sink/sink_prom.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <microhttpd.h>
#include <zlib.h>

static double prom_http_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ---- passes: one response per published text, shared by every scrape
 * ---- */

struct prom_http_pass {
  unsigned refs;    /* h->pass holds one; a compression in progress one; each
                       connection sending it one */
  uint64_t gen;     /* h->generation when published */
  double when;      /* CLOCK_MONOTONIC seconds of the publish */
  const char *text; /* owned by `plain` (freed with its last reference) */
  size_t len;
  struct MHD_Response *plain; /* one MHD reference of ours */
  struct MHD_Response *gzip;  /* NULL until a scrape asks for it */
  bool gzip_failed;           /* deflate failed: plain from now on */
};

/* Drop one reference (h->lock held); the last one drops ours on the MHD
 * responses, which live on while connections still send them. */
static void prom_http_pass_put(struct prom_http_pass *p) {
  if (p == NULL || --p->refs > 0)
    return;
  MHD_destroy_response(p->plain);
  if (p->gzip != NULL)
    MHD_destroy_response(p->gzip);
  free(p);
}

static struct MHD_Response *prom_http_response(size_t len, void *buf,
                                               const char *encoding) {
  struct MHD_Response *r =
      MHD_create_response_from_buffer_with_free_callback(len, buf, free);
  if (r == NULL)
    return NULL;
  MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE,
                          SINK_PROM_CONTENT_TYPE);
  MHD_add_response_header(r, MHD_HTTP_HEADER_VARY, "Accept-Encoding");
  if (encoding != NULL)
    MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_ENCODING, encoding);
  return r;
}

int prom_http_publish(struct prom_http *h, const char *text, size_t len) {
  struct prom_http_pass *p = calloc(1, sizeof(*p));
  char *copy = malloc(len ? len : 1);
  if (p == NULL || copy == NULL) {
    free(p);
    free(copy);
    return -ENOMEM;
  }
  memcpy(copy, text, len);
  p->plain = prom_http_response(len, copy, NULL);
  if (p->plain == NULL) {
    free(copy);
    free(p);
    return -ENOMEM;
  }
  p->refs = 1;
  p->text = copy;
  p->len = len;
  p->when = prom_http_now();
  pthread_mutex_lock(&h->lock);
  struct prom_http_pass *old = h->pass;
  p->gen = ++h->generation;
  h->pass = p;
  prom_http_pass_put(old);
  pthread_mutex_unlock(&h->lock);
  return 0;
}

void prom_http_set_max_age(struct prom_http *h, double seconds) {
  pthread_mutex_lock(&h->lock);
  h->max_age_s = seconds > 0 ? seconds : 0;
  pthread_mutex_unlock(&h->lock);
}

/* Give `p` its gzip copy, made on the first scrape that asks (the server
 * thread; h->lock held on entry and exit, released while compressing so
 * that a publish never waits for it). A failure leaves p->gzip NULL and is
 * not tried again for this pass: plain text is still an answer. */
static void prom_http_gzip(struct prom_http *h, struct prom_http_pass *p) {
  if (p->gzip != NULL || p->gzip_failed)
    return;
  p->refs++;
  pthread_mutex_unlock(&h->lock);
  struct MHD_Response *r = NULL;
  z_stream z;
  memset(&z, 0, sizeof(z));
  /* windowBits 15 + 16: a gzip wrapper, not zlib's */
  if (p->len <= UINT32_MAX &&
      deflateInit2(&z, Z_BEST_SPEED, Z_DEFLATED, 15 + 16, 8,
                   Z_DEFAULT_STRATEGY) == Z_OK) {
    uLong cap = deflateBound(&z, (uLong)p->len);
    unsigned char *out = malloc(cap);
    z.next_in = (Bytef *)(uintptr_t)p->text;
    z.avail_in = (uInt)p->len;
    z.next_out = out;
    z.avail_out = (uInt)cap;
    if (out != NULL && deflate(&z, Z_FINISH) == Z_STREAM_END) {
      r = prom_http_response(z.total_out, out, "gzip");
      out = r != NULL ? NULL : out; /* r owns it */
    }
    free(out);
    deflateEnd(&z);
  }
  pthread_mutex_lock(&h->lock);
  p->gzip = r;
  p->gzip_failed = r == NULL;
  prom_http_pass_put(p); /* the last reference when replaced meanwhile */
}

/* True when the Accept-Encoding value lists gzip without q=0. */
static bool prom_http_wants_gzip(const char *v) {
  while (v != NULL && *v != '\0') {
    while (*v == ' ' || *v == '\t' || *v == ',')
      v++;
    size_t n = strcspn(v, ",;");
    size_t word = n;
    while (word > 0 && (v[word - 1] == ' ' || v[word - 1] == '\t'))
      word--;
    bool gzip = word == 4 && strncasecmp(v, "gzip", 4) == 0;
    const char *end = v + strcspn(v, ",");
    if (gzip) {
      const char *q = v[n] == ';' ? strstr(v + n, "q=") : NULL;
      if (q == NULL || q > end)
        return true;
      return strtod(q + 2, NULL) > 0;
    }
    v = *end ? end + 1 : end;
  }
  return false;
}

/* ---- connections ---- */

struct prom_http_conn {
  struct prom_http_conn *next, *prev;
  int fd;
  double deadline;             /* CLOCK_MONOTONIC; shut down past it */
  struct prom_http_pass *pass; /* a reference (h->lock) on the pass being
                                  sent, or NULL */
  bool shut;
  struct prom_http_auth_job job; /* its password check */
};

static void prom_http_conn_notify(void *cls, struct MHD_Connection *c,
                                  void **ctx,
                                  enum MHD_ConnectionNotificationCode toe) {
  struct prom_http *h = cls;
  if (toe == MHD_CONNECTION_NOTIFY_STARTED) {
    struct prom_http_conn *k = calloc(1, sizeof(*k));
    if (k == NULL)
      return; /* then it has no deadline of ours: MHD's timeout holds */
    const union MHD_ConnectionInfo *i =
        MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
    k->fd = i != NULL ? i->connect_fd : -1;
    k->deadline = prom_http_now() + PROM_HTTP_REQUEST_S;
    k->next = h->conns;
    if (h->conns != NULL)
      h->conns->prev = k;
    h->conns = k;
    *ctx = k;
  } else if (toe == MHD_CONNECTION_NOTIFY_CLOSED && *ctx != NULL) {
    /* called before libmicrohttpd closes the socket: k->fd is still ours
     * to shut down until here */
    struct prom_http_conn *k = *ctx;
    pthread_mutex_lock(&h->lock);
    prom_http_pass_put(k->pass);
    pthread_mutex_unlock(&h->lock);
    /* never queued here: a connection waiting for its check is suspended,
     * and prom_http_stop completes the queued ones first */
    prom_http_auth_job_fini(&k->job);
    if (k->prev != NULL)
      k->prev->next = k->next;
    else
      h->conns = k->next;
    if (k->next != NULL)
      k->next->prev = k->prev;
    free(k);
    *ctx = NULL;
  }
}

static struct prom_http_conn *prom_http_conn_of(struct MHD_Connection *c) {
  const union MHD_ConnectionInfo *i =
      MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
  return i != NULL ? i->socket_context : NULL;
}

/* A request is over (answered or aborted): the next one has until the
 * idle deadline. */
static void prom_http_completed(void *cls, struct MHD_Connection *c, void **req,
                                enum MHD_RequestTerminationCode t) {
  struct prom_http *h = cls;
  (void)t;
  *req = NULL;
  struct prom_http_conn *k = prom_http_conn_of(c);
  if (k != NULL) {
    k->deadline = prom_http_now() + PROM_HTTP_IDLE_S;
    pthread_mutex_lock(&h->lock);
    prom_http_pass_put(k->pass); /* sent: the pass may go */
    k->pass = NULL;
    pthread_mutex_unlock(&h->lock);
  }
}

static int prom_http_gen_cmp(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? 1 : x > y ? -1 : 0; /* newest first */
}

/* The oldest pass a connection may still be sending: a reader keeps the
 * pass it asked for until it has read it (a slow reader is not cut for
 * newer passes), but once readers pin more than PROM_HTTP_PASSES_KEPT
 * older passes, the readers of the oldest ones are cut, so that stalled
 * readers pin at most that many passes. 0: none is cut. h->lock held. */
static uint64_t prom_http_oldest_kept(struct prom_http *h) {
  uint64_t gens[PROM_HTTP_CONNECTIONS];
  size_t n = 0;
  for (struct prom_http_conn *k = h->conns; k != NULL; k = k->next) {
    if (k->pass == NULL || k->pass == h->pass || k->shut)
      continue;
    size_t i = 0;
    while (i < n && gens[i] != k->pass->gen)
      i++;
    if (i == n && n < PROM_HTTP_CONNECTIONS)
      gens[n++] = k->pass->gen;
  }
  if (n <= PROM_HTTP_PASSES_KEPT)
    return 0;
  qsort(gens, n, sizeof(gens[0]), prom_http_gen_cmp);
  return gens[PROM_HTTP_PASSES_KEPT - 1];
}

/* Shut down every connection past its deadline or still sending a pass
 * older than the ones kept (prom_http_oldest_kept); libmicrohttpd then
 * sees the socket end and closes it. */
static void prom_http_reap(struct prom_http *h) {
  double now = prom_http_now();
  pthread_mutex_lock(&h->lock);
  uint64_t oldest = prom_http_oldest_kept(h);
  for (struct prom_http_conn *k = h->conns; k != NULL; k = k->next) {
    bool old = k->pass != NULL && k->pass->gen < oldest;
    if (k->shut || k->fd < 0 || (now < k->deadline && !old))
      continue;
    shutdown(k->fd, SHUT_RDWR);
    k->shut = true;
    __atomic_fetch_add(&h->shut_down, 1, __ATOMIC_RELAXED); /* read by tests */
  }
  pthread_mutex_unlock(&h->lock);
}

/* ---- answers ---- */

enum {
  PROM_HTTP_NOT_FOUND,
  PROM_HTTP_NOT_ALLOWED,
  PROM_HTTP_NO_PASS,
  PROM_HTTP_UNAUTHORIZED,
  PROM_HTTP_TOO_LARGE,
  PROM_HTTP_N_FIXED,
};
_Static_assert(PROM_HTTP_N_FIXED <= PROM_HTTP_FIXED_MAX, "h->fixed too small");

static const struct {
  unsigned status;
  const char *body;
} prom_http_fixed[PROM_HTTP_N_FIXED] = {
    {MHD_HTTP_NOT_FOUND, "404 not found: the metrics are at /metrics\n"},
    {MHD_HTTP_METHOD_NOT_ALLOWED, "405 method not allowed: GET or HEAD\n"},
    {MHD_HTTP_SERVICE_UNAVAILABLE, "503: no read has finished yet\n"},
    {MHD_HTTP_UNAUTHORIZED, "401 unauthorized: a user and password\n"},
    {MHD_HTTP_CONTENT_TOO_LARGE, "413 content too large: no request takes "
                                 "a body\n"},
};

static int prom_http_fixed_make(struct prom_http *h) {
  for (size_t i = 0; i < PROM_HTTP_N_FIXED; i++) {
    const char *body = prom_http_fixed[i].body;
    h->fixed[i] = MHD_create_response_from_buffer(strlen(body), (void *)body,
                                                  MHD_RESPMEM_PERSISTENT);
    if (h->fixed[i] == NULL)
      return -ENOMEM;
    MHD_add_response_header(h->fixed[i], MHD_HTTP_HEADER_CONTENT_TYPE,
                            "text/plain; charset=utf-8");
  }
  MHD_add_response_header(h->fixed[PROM_HTTP_NOT_ALLOWED],
                          MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
  return 0;
}

static enum MHD_Result prom_http_fixed_answer(struct prom_http *h,
                                              struct MHD_Connection *c,
                                              int which) {
  if (which == PROM_HTTP_UNAUTHORIZED) {
    /* the realm header is added to the response: one of its own */
    const char *body = prom_http_fixed[which].body;
    struct MHD_Response *r = MHD_create_response_from_buffer(
        strlen(body), (void *)body, MHD_RESPMEM_PERSISTENT);
    if (r == NULL)
      return MHD_NO;
    enum MHD_Result rc = MHD_queue_basic_auth_fail_response(c, h->plugin, r);
    MHD_destroy_response(r);
    return rc;
  }
  return MHD_queue_response(c, prom_http_fixed[which].status, h->fixed[which]);
}

/* 503 for a pass older than the maximum age, saying how old. */
static enum MHD_Result prom_http_stale(struct MHD_Connection *c, double age,
                                       double max_age) {
  char body[200];
  int n = snprintf(body, sizeof(body),
                   "503: the last read finished %.1f s ago, more than the "
                   "maximum age of %g s: the values would be stale\n",
                   age, max_age);
  struct MHD_Response *r =
      MHD_create_response_from_buffer((size_t)n, body, MHD_RESPMEM_MUST_COPY);
  if (r == NULL)
    return MHD_NO;
  MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE,
                          "text/plain; charset=utf-8");
  enum MHD_Result rc = MHD_queue_response(c, MHD_HTTP_SERVICE_UNAVAILABLE, r);
  MHD_destroy_response(r);
  return rc;
}

/* A worker has checked the password of a suspended connection: the
 * handler is called again (a worker's thread: MHD_resume_connection is
 * thread-safe, daemon.c). */
static void prom_http_auth_done(void *cls, struct prom_http_auth_job *job) {
  struct prom_http *h = cls;
  MHD_resume_connection(job->ctx);
  /* Without a thread of its own, libmicrohttpd has no channel to wake its
   * loop (daemon.c, MHD_start_daemon_va drops MHD_USE_ITC): ours does,
   * and its next MHD_run resumes the connection */
  ssize_t w = write(h->wake[1], "r", 1);
  (void)w; /* a full pipe wakes it as well */
}

/* The basic-auth verdict on the request of `c`: OK, DENIED, BUSY or
 * BACKOFF (with `*retry_s`), or PENDING: the connection is suspended
 * until a worker has hashed the password, then the handler is called
 * again and this returns the worker's verdict. */
static enum prom_http_auth_verdict prom_http_authorize(struct prom_http *h,
                                                       struct MHD_Connection *c,
                                                       double *retry_s) {
  struct prom_http_conn *k = prom_http_conn_of(c);
  *retry_s = 1;
  if (k == NULL)
    return PROM_HTTP_AUTH_BUSY; /* out of memory when it connected */
  if (k->job.state == PROM_HTTP_JOB_DONE)
    return prom_http_auth_take(h->auth, &k->job) ? PROM_HTTP_AUTH_OK
                                                 : PROM_HTTP_AUTH_DENIED;
  char *password = NULL;
  char *user = MHD_basic_auth_get_username_password(c, &password);
  enum prom_http_auth_verdict v = PROM_HTTP_AUTH_DENIED;
  if (user != NULL && password != NULL) {
    const union MHD_ConnectionInfo *ci =
        MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    v = prom_http_auth_check(h->auth, &k->job, ci ? ci->client_addr : NULL,
                             user, password, prom_http_now(), retry_s);
  }
  MHD_free(user);
  MHD_free(password);
  if (v == PROM_HTTP_AUTH_PENDING) {
    /* suspended before it is queued: a worker may resume it at once */
    k->job.ctx = c;
    MHD_suspend_connection(c);
    prom_http_auth_queue(h->auth, &k->job);
  }
  return v;
}

/* 429 or 503 with Retry-After, saying why. */
static enum MHD_Result prom_http_retry(struct MHD_Connection *c,
                                       enum prom_http_auth_verdict v,
                                       double retry_s) {
  unsigned secs =
      retry_s < 1 ? 1u : (unsigned)retry_s + (retry_s > (unsigned)retry_s);
  char body[160], after[16];
  int n = snprintf(body, sizeof(body),
                   v == PROM_HTTP_AUTH_BUSY
                       ? "503: too many password checks waiting; try again "
                         "in %u s\n"
                       : "429: too many failed or waiting password checks "
                         "from this address; try again in %u s\n",
                   secs);
  snprintf(after, sizeof(after), "%u", secs);
  struct MHD_Response *r =
      MHD_create_response_from_buffer((size_t)n, body, MHD_RESPMEM_MUST_COPY);
  if (r == NULL)
    return MHD_NO;
  MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE,
                          "text/plain; charset=utf-8");
  MHD_add_response_header(r, MHD_HTTP_HEADER_RETRY_AFTER, after);
  enum MHD_Result rc =
      MHD_queue_response(c,
                         v == PROM_HTTP_AUTH_BUSY ? MHD_HTTP_SERVICE_UNAVAILABLE
                                                  : MHD_HTTP_TOO_MANY_REQUESTS,
                         r);
  MHD_destroy_response(r);
  return rc;
}

/* The pass answer: the newest pass (gzip when asked), or 503. */
static enum MHD_Result prom_http_metrics(struct prom_http *h,
                                         struct MHD_Connection *c) {
  const char *ae = MHD_lookup_connection_value(c, MHD_HEADER_KIND,
                                               MHD_HTTP_HEADER_ACCEPT_ENCODING);
  bool gzip = prom_http_wants_gzip(ae);
  struct prom_http_conn *k = prom_http_conn_of(c);
  pthread_mutex_lock(&h->lock);
  struct prom_http_pass *p = h->pass;
  /* a publish during the compression replaces the pass: compress that */
  for (int tries = 0; p != NULL && gzip && tries < 3; tries++) {
    uint64_t gen = p->gen;
    prom_http_gzip(h, p);
    p = h->pass;
    if (p->gen == gen)
      break;
  }
  struct MHD_Response *r = p != NULL && gzip ? p->gzip : NULL;
  enum MHD_Result rc;
  double age = p != NULL ? prom_http_now() - p->when : 0;
  if (p == NULL)
    rc = prom_http_fixed_answer(h, c, PROM_HTTP_NO_PASS);
  else if (h->max_age_s > 0 && age > h->max_age_s)
    rc = prom_http_stale(c, age, h->max_age_s);
  else {
    rc = MHD_queue_response(c, MHD_HTTP_OK, r != NULL ? r : p->plain);
    h->scrapes++;
    if (k != NULL && k->pass == NULL) { /* see prom_http_oldest_kept */
      k->pass = p;
      p->refs++;
    }
  }
  pthread_mutex_unlock(&h->lock);
  return rc;
}

/* True when the request announces a body: any Transfer-Encoding (chunked,
 * or one libmicrohttpd does not know, which it reads until the connection
 * ends: connection.c, parse_connection_headers), or a Content-Length
 * above 0 (libmicrohttpd has answered 400 for one that is not a number). */
static bool prom_http_has_body(struct MHD_Connection *c) {
  if (MHD_lookup_connection_value(c, MHD_HEADER_KIND,
                                  MHD_HTTP_HEADER_TRANSFER_ENCODING) != NULL)
    return true;
  const char *cl = MHD_lookup_connection_value(c, MHD_HEADER_KIND,
                                               MHD_HTTP_HEADER_CONTENT_LENGTH);
  return cl != NULL && cl[strspn(cl, "0")] != '\0';
}

/* libmicrohttpd's unescaping of the path, except that "%00" is left as it
 * is: decoded, "/metrics%00" would compare equal to "/metrics" (a C
 * string ends at the NUL) and answer 200 on a path that is not ours. */
static size_t prom_http_unescape(void *cls, struct MHD_Connection *c, char *s) {
  (void)cls;
  (void)c;
  if (strstr(s, "%00") != NULL)
    return strlen(s);
  return MHD_http_unescape(s);
}

static enum MHD_Result prom_http_handle(void *cls, struct MHD_Connection *c,
                                        const char *url, const char *method,
                                        const char *version,
                                        const char *upload_data,
                                        size_t *upload_data_size, void **req) {
  (void)version;
  (void)upload_data;
  struct prom_http *h = cls;
  bool get = strcmp(method, MHD_HTTP_METHOD_GET) == 0 ||
             strcmp(method, MHD_HTTP_METHOD_HEAD) == 0;
  if (*req == NULL) { /* the headers are in */
    *req = h;
    struct prom_http_conn *k = prom_http_conn_of(c);
    /* no request has a body here: the request is complete now, and its
     * answer due within PROM_HTTP_ANSWER_S */
    if (k != NULL)
      k->deadline = prom_http_now() + PROM_HTTP_ANSWER_S;
    /* A body is refused at once: answered now, libmicrohttpd reads none
     * of it, sends no "100 Continue" and closes after the answer (see the
     * top), so a body sent a byte a second holds nothing */
    if (prom_http_has_body(c))
      return prom_http_fixed_answer(
          h, c, get ? PROM_HTTP_TOO_LARGE : PROM_HTTP_NOT_ALLOWED);
    return MHD_YES; /* answered on the next call (see the top) */
  }
  if (*upload_data_size != 0) /* none announced, none read: not reached */
    return MHD_NO;
  if (h->auth != NULL) {
    double retry_s = 0;
    enum prom_http_auth_verdict v = prom_http_authorize(h, c, &retry_s);
    if (v == PROM_HTTP_AUTH_PENDING)
      return MHD_YES; /* suspended: called again once checked */
    if (v == PROM_HTTP_AUTH_DENIED)
      return prom_http_fixed_answer(h, c, PROM_HTTP_UNAUTHORIZED);
    if (v != PROM_HTTP_AUTH_OK)
      return prom_http_retry(c, v, retry_s);
  }
  if (strcmp(url, "/metrics") != 0)
    return prom_http_fixed_answer(h, c, PROM_HTTP_NOT_FOUND);
  if (!get)
    return prom_http_fixed_answer(h, c, PROM_HTTP_NOT_ALLOWED);
  return prom_http_metrics(h, c);
}

/* ---- the server thread ---- */

/* Take the waiting connections; out of descriptors, take one with the
 * spare and close it, and rest the listener. Returns the CLOCK_MONOTONIC
 * time until which the listener rests, or 0. */
static double prom_http_accept(struct prom_http *h) {
  for (int i = 0; i < 64; i++) {
    struct sockaddr_storage a;
    socklen_t alen = sizeof(a);
    int s = accept4(h->fd, (struct sockaddr *)&a, &alen,
                    SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (s >= 0) {
      MHD_add_connection(h->daemon, s, (struct sockaddr *)&a, alen);
      continue; /* a refused one is closed by libmicrohttpd */
    }
    int err = errno;
    if (err == EINTR || err == ECONNABORTED)
      continue;
    if (err != EMFILE && err != ENFILE && err != ENOBUFS && err != ENOMEM)
      return 0; /* EAGAIN: all taken */
    if (h->spare >= 0) {
      close(h->spare);
      int s2 = accept4(h->fd, NULL, NULL, SOCK_CLOEXEC);
      if (s2 >= 0)
        close(s2);
      h->spare = open("/dev/null", O_RDONLY | O_CLOEXEC);
    }
    if (h->refused_fds++ == 0 || (h->refused_fds & (h->refused_fds - 1)) == 0)
      log_msg(LOG_LEVEL_ERROR, h->plugin, "listen", "accept",
              "%s: connection closed unanswered (%lu so far); raise the "
              "descriptor limit (ulimit -n)",
              strerror(err), h->refused_fds);
    return prom_http_now() + PROM_HTTP_BACKOFF_MS / 1000.0;
  }
  return 0;
}

static void *prom_http_run(void *arg) {
  struct prom_http *h = arg;
  const union MHD_DaemonInfo *di =
      MHD_get_daemon_info(h->daemon, MHD_DAEMON_INFO_EPOLL_FD);
  int epfd = di != NULL ? di->epoll_fd : -1;
  double rest = 0;
  unsigned zeros = 0; /* runs in a row that libmicrohttpd asked at once */
  while (!h->stopping) {
    double now = prom_http_now();
    int timeout = 250; /* the deadlines' granularity */
    MHD_UNSIGNED_LONG_LONG mt;
    if (MHD_get_timeout(h->daemon, &mt) == MHD_YES && mt < (unsigned)timeout)
      timeout = (int)mt;
    /* MHD_get_timeout says 0 while data waits inside libmicrohttpd (a TLS
     * record GnuTLS holds) but also for as long as a TLS handshake is
     * pending (daemon.c, MHD_get_timeout: a connection in its "eready"
     * list), which one client holds by sending one byte: after
     * PROM_HTTP_ZERO_RUNS such runs, wait at least PROM_HTTP_MIN_POLL_MS
     * (a socket event still wakes the poll at once) */
    zeros = timeout == 0 ? zeros + 1 : 0;
    if (zeros > PROM_HTTP_ZERO_RUNS)
      timeout = PROM_HTTP_MIN_POLL_MS;
    bool resting = rest > now;
    if (resting && (rest - now) * 1000 < timeout)
      timeout = (int)((rest - now) * 1000) + 1;
    struct pollfd p[3] = {{h->wake[0], POLLIN, 0},
                          {epfd, POLLIN, 0},
                          {resting ? -1 : h->fd, POLLIN, 0}};
    int n = poll(p, 3, timeout);
    if (n < 0 && errno != EINTR)
      break;
    if (n > 0 && (p[0].revents & POLLIN)) { /* a stop, or a check done */
      char drain[64];
      while (read(h->wake[0], drain, sizeof(drain)) > 0)
        ;
    }
    if (n > 0 && (p[2].revents & POLLIN))
      rest = prom_http_accept(h);
    MHD_run(h->daemon);
    prom_http_reap(h);
  }
  return NULL;
}

/* ---- start and stop ---- */

/* A whole PEM file as a string, or NULL with `err` set. */
static char *prom_http_pem(const char *path, const char *what, char *err,
                           size_t err_size) {
  char *buf = NULL;
  size_t len = 0;
  const char *why = NULL;
  if (prom_http_web_read(path, &buf, &len, &why) == 0 && len == 0) {
    free(buf);
    why = strerror(ENODATA);
  } else if (why == NULL)
    return buf;
  snprintf(err, err_size, "%s %.200s: %s", what, path, why);
  return NULL;
}

int prom_http_start(struct prom_http *h, const char *plugin, const char *addr,
                    char *err, size_t err_size) {
  struct prom_http_config cfg;
  memset(&cfg, 0, sizeof(cfg));
  return prom_http_start_with(h, plugin, addr, &cfg, err, err_size);
}

int prom_http_start_with(struct prom_http *h, const char *plugin,
                         const char *addr, const struct prom_http_config *cfg,
                         char *err, size_t err_size) {
  memset(h, 0, sizeof(*h));
  h->started = true; /* prom_http_stop has something to undo */
  h->plugin = plugin;
  h->fd = h->spare = -1;
  h->wake[0] = h->wake[1] = -1;
  h->max_age_s = cfg->max_age_s > 0 ? cfg->max_age_s : 0;
  struct sockaddr_storage ss;
  socklen_t len;
  int rc = prom_http_parse_addr(addr, &ss, &len, err, err_size);
  if (rc < 0)
    return rc;
  struct prom_http_web web = {NULL, NULL, NULL};
  /* Any fault of the configuration, a file that cannot be read included,
   * is -EINVAL: the host exits 2 for it, as for --config */
  if (cfg->web_config != NULL &&
      (rc = prom_http_web_load(cfg->web_config, &web, err, err_size)) < 0)
    return rc == -ENOMEM ? rc : -EINVAL;
  char *cert = NULL, *key = NULL;
  if (web.tls_cert != NULL) {
    cert = prom_http_pem(web.tls_cert, "TLS certificate", err, err_size);
    key = cert ? prom_http_pem(web.tls_key, "TLS key", err, err_size) : NULL;
    if (key == NULL) {
      free(cert);
      prom_http_web_fini(&web);
      return -EINVAL;
    }
  }
  struct prom_http_users *users = web.users; /* taken over */
  web.users = NULL;
  prom_http_web_fini(&web);
  char where[80];
  prom_http_addr_text(&ss, where, sizeof(where));
  int fd = prom_http_listen_fd(&ss, len, prom_http_addr_every(addr), where, err,
                               err_size);
  if (fd < 0) {
    free(cert);
    free(key);
    prom_http_users_free(users);
    h->fd = -1;
    prom_http_stop(h);
    return fd;
  }
  pthread_mutex_init(&h->lock, NULL);
  /* suspend and resume: a connection waits for its password check */
  unsigned flags =
      MHD_USE_EPOLL | MHD_USE_NO_LISTEN_SOCKET | MHD_ALLOW_SUSPEND_RESUME;
  if (ss.ss_family == AF_INET6)
    flags |= MHD_USE_IPv6;
  if (cert != NULL)
    flags |= MHD_USE_TLS;
  struct MHD_OptionItem tls[] = {
      {cert ? MHD_OPTION_HTTPS_MEM_CERT : MHD_OPTION_END, 0, cert},
      {MHD_OPTION_HTTPS_MEM_KEY, 0, key},
      {MHD_OPTION_END, 0, NULL},
  };
  errno = 0;
  h->daemon = MHD_start_daemon(
      flags, 0, NULL, NULL, prom_http_handle, h, MHD_OPTION_CONNECTION_LIMIT,
      PROM_HTTP_CONNECTIONS, MHD_OPTION_PER_IP_CONNECTION_LIMIT,
      PROM_HTTP_PER_IP, MHD_OPTION_CONNECTION_MEMORY_LIMIT,
      (size_t)PROM_HTTP_CONN_MEMORY, MHD_OPTION_CONNECTION_TIMEOUT,
      (unsigned)PROM_HTTP_IDLE_S, MHD_OPTION_NOTIFY_CONNECTION,
      prom_http_conn_notify, h, MHD_OPTION_NOTIFY_COMPLETED,
      prom_http_completed, h, MHD_OPTION_UNESCAPE_CALLBACK, prom_http_unescape,
      h, MHD_OPTION_ARRAY, tls, MHD_OPTION_END);
  int e = errno ? errno : EIO;
  free(cert);
  free(key);
  const char *step = "MHD_start_daemon";
  if (h->daemon != NULL) {
    e = prom_http_fixed_make(h) < 0 ? ENOMEM : 0;
    step = "responses";
  }
  if (e == 0 && pipe2(h->wake, O_CLOEXEC | O_NONBLOCK) != 0) {
    e = errno;
    step = "pipe2";
  }
  if (e == 0) {
    h->fd = fd;
    h->spare = open("/dev/null", O_RDONLY | O_CLOEXEC);
    /* The server thread must not take the stop signals: the host thread
     * sleeps until they interrupt it. The thread inherits this mask. */
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    sigaddset(&block, SIGHUP);
    sigaddset(&block, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &block, &old);
    step = "pthread_create";
    if (users != NULL) { /* the password checks' workers */
      errno = 0;
      h->auth = prom_http_auth_new(users, prom_http_auth_done, h);
      users = NULL; /* taken over, freed on failure */
      e = h->auth == NULL ? (errno ? errno : ENOMEM) : 0;
    }
    if (e == 0)
      e = pthread_create(&h->thread, NULL, prom_http_run, h);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    h->running = e == 0;
  }
  prom_http_users_free(users); /* not taken: a failure before */
  if (e != 0) {
    snprintf(err, err_size, "%s: %s: %s", where, step, strerror(e));
    h->fd = fd;
    prom_http_stop(h);
    return -e;
  }
  return 0;
}

void prom_http_stop(struct prom_http *h) {
  if (!h->started)
    return; /* zeroed, or stopped: its fds are not ours (0 is stdin) */
  if (h->running) {
    h->stopping = true;
    ssize_t w = write(h->wake[1], "x", 1);
    (void)w; /* a full pipe wakes it as well */
    pthread_join(h->thread, NULL);
    h->running = false;
  }
  /* Before the daemon: the checks still queued are completed and their
   * connections resumed (libmicrohttpd panics if one is left suspended:
   * daemon.c, close_all_connections). */
  prom_http_auth_free(h->auth);
  h->auth = NULL;
  if (h->daemon != NULL) {
    MHD_stop_daemon(h->daemon); /* closes the connections, not h->fd */
    h->daemon = NULL;
    for (size_t i = 0; i < PROM_HTTP_N_FIXED; i++)
      if (h->fixed[i] != NULL)
        MHD_destroy_response(h->fixed[i]);
    memset(h->fixed, 0, sizeof(h->fixed));
    prom_http_pass_put(h->pass);
    h->pass = NULL;
    pthread_mutex_destroy(&h->lock);
  }
  int *fds[] = {&h->fd, &h->spare, &h->wake[0], &h->wake[1]};
  for (size_t i = 0; i < sizeof(fds) / sizeof(fds[0]); i++) {
    if (*fds[i] >= 0)
      close(*fds[i]);
    *fds[i] = -1;
  }
  h->started = false;
}
