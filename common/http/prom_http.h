/*
 * prom_http.h: the HTTP side of --listen: a libmicrohttpd daemon serving
 * the last rendered exposition (sink_prom.h) at /metrics.
 *
 * Reads happen on the plugin's interval in the host's thread, never on a
 * scrape: rates and utilisations then cover a fixed interval whatever the
 * number of scrapers, a slow read never holds a scrape, and the plugin
 * instance, which is not thread-safe, stays on one thread. Each published
 * pass becomes one reference-counted libmicrohttpd response that every
 * scrape of that pass sends (no copy per scrape); a gzip copy is made once
 * per pass, on the first scrape that asks for it.
 *
 *   GET or HEAD /metrics  200, Content-Type SINK_PROM_CONTENT_TYPE, the
 *                         last pass (gzip with Accept-Encoding: gzip);
 *                         503 before the first one, and 503 saying its age
 *                         when it is older than the maximum age
 *   any other path        404; another method on /metrics: 405
 *   a request body        405 (not GET or HEAD), else 413, at once, the
 *                         body unread, no "100 Continue"; then closed
 *   without credentials   401 when --web-config lists users; 429 or 503
 *                         with Retry-After while the password checks are
 *                         held off or full (prom_http_auth.h)
 *
 * With --web-config (prom_http_web.h), TLS (GnuTLS, through libmicrohttpd)
 * and basic authentication, as node_exporter's web configuration file.
 *
 * One server thread of ours runs the daemon (libmicrohttpd without its own
 * thread, epoll) and accepts connections itself (MHD_add_connection), so
 * that it can hold what a hostile client cannot take away:
 *  - PROM_HTTP_CONNECTIONS connections, PROM_HTTP_PER_IP from one address;
 *  - a request must be complete PROM_HTTP_REQUEST_S after the connection
 *    opened (a scrape's request is one packet; a byte every few seconds
 *    does not extend it), the next request on a kept-alive connection
 *    PROM_HTTP_IDLE_S after the last answer, an answer must be read
 *    within PROM_HTTP_ANSWER_S; past that the connection is shut down;
 *  - a reader keeps the pass it asked for until it has read it, however
 *    many newer ones are published (the answer deadline bounds it), but
 *    once readers pin more than PROM_HTTP_PASSES_KEPT passes older than the
 *    newest, the readers of the oldest are shut down: stalled readers pin
 *    at most that many passes (and libmicrohttpd's PROM_HTTP_CONN_MEMORY
 *    per connection);
 *  - out of file descriptors (EMFILE, ENFILE), a spare descriptor kept for
 *    the purpose is closed to accept the waiting connection and close it,
 *    and the listener rests PROM_HTTP_BACKOFF_MS: no busy loop;
 *  - a TLS handshake left pending (one byte sent) has libmicrohttpd ask
 *    to run again at once, for ever: past PROM_HTTP_ZERO_RUNS such runs the
 *    loop waits PROM_HTTP_MIN_POLL_MS (or the next socket event).
 */
#ifndef COMMON_HOST_PROM_HTTP_H
#define COMMON_HOST_PROM_HTTP_H

#include <netinet/in.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/socket.h>

/* The port of --listen=ADDR without ":PORT". */
#define PROM_HTTP_DEFAULT_PORT 9470

/* What a hostile client can hold (see the top). */
#define PROM_HTTP_CONNECTIONS 256u
#define PROM_HTTP_PER_IP 16u
#define PROM_HTTP_REQUEST_S 5.0
#define PROM_HTTP_IDLE_S 30.0
#define PROM_HTTP_ANSWER_S 60.0
#define PROM_HTTP_PASSES_KEPT 4u
#define PROM_HTTP_CONN_MEMORY (16u * 1024u)
#define PROM_HTTP_BACKOFF_MS 100
/* libmicrohttpd asking to run again at once more than PROM_HTTP_ZERO_RUNS
 * times in a row (a pending TLS handshake does so for ever) waits
 * PROM_HTTP_MIN_POLL_MS instead: no client state makes the loop spin. */
#define PROM_HTTP_ZERO_RUNS 2u
#define PROM_HTTP_MIN_POLL_MS 10

/*
 * Parse --listen's value into `ss` / `len`: "ADDR:PORT", "ADDR" (default
 * port), ":PORT" or "" (all IPv4 addresses), "[V6ADDR]:PORT", "[V6ADDR]".
 * ADDR is a numeric IPv4 or IPv6 address, or "localhost" (127.0.0.1): no
 * name lookup. Pure. Returns 0, or -EINVAL with `err` (size `err_size`)
 * saying why.
 */
int prom_http_parse_addr(const char *text, struct sockaddr_storage *ss,
                         socklen_t *len, char *err, size_t err_size);

/* Room for the constant answers (prom_http.c). */
#define PROM_HTTP_FIXED_MAX 8

/* What prom_http_start_with takes beyond the address; zero it for plain
 * HTTP without users or maximum age. */
struct prom_http_config {
  const char *web_config; /* --web-config=FILE (prom_http_web.h), or NULL */
  double max_age_s;       /* 0: none (prom_http_set_max_age) */
};

struct MHD_Daemon;
struct MHD_Response;
struct prom_http_pass;
struct prom_http_conn;
struct prom_http_auth;

struct prom_http {
  bool started;       /* by prom_http_start*, until prom_http_stop */
  const char *plugin; /* borrowed, for messages */
  struct MHD_Daemon *daemon;
  int fd;      /* the listening socket, owned */
  int spare;   /* kept open for EMFILE (see the top), or -1 */
  int wake[2]; /* a pipe: prom_http_stop wakes the server thread */
  pthread_t thread;
  bool running;
  atomic_bool stopping;
  pthread_mutex_t lock;         /* guards the fields below it */
  struct prom_http_pass *pass;  /* the newest published pass, or NULL */
  uint64_t generation;          /* of the newest pass, from 1 */
  double max_age_s;             /* 0: none */
  unsigned long scrapes;        /* /metrics answered with a pass */
  unsigned long refused_fds;    /* connections closed at once: EMFILE */
  unsigned long shut_down;      /* connections shut down by a deadline */
  struct prom_http_conn *conns; /* server thread only */
  struct prom_http_auth *auth;  /* the password checks, or NULL: no users */
  struct MHD_Response *fixed[PROM_HTTP_FIXED_MAX]; /* constant answers */
};

/*
 * Bind `addr` (prom_http_parse_addr's syntax) and start serving. Returns 0,
 * -EINVAL for a bad address or configuration (a --web-config, certificate
 * or key file that is missing, unreadable or not a regular file included),
 * or the negative errno of the call that failed; `err` then says which,
 * naming the address or file and the errno text ("127.0.0.1:9470: bind:
 * Address already in use").
 */
int prom_http_start(struct prom_http *h, const char *plugin, const char *addr,
                    char *err, size_t err_size);
int prom_http_start_with(struct prom_http *h, const char *plugin,
                         const char *addr, const struct prom_http_config *cfg,
                         char *err, size_t err_size);

/* The maximum age: once the last publish is older than `seconds`, /metrics
 * answers 503 saying how old it is (the host passes 3 x its longest read
 * interval); 0 turns it off. Thread-safe, any time after start. */
void prom_http_set_max_age(struct prom_http *h, double seconds);

/* Make `text` (`len` bytes) what /metrics answers (copied). Returns 0 or
 * -ENOMEM (the previous pass stays). Thread-safe. */
int prom_http_publish(struct prom_http *h, const char *text, size_t len);

/* Stop the server thread and the daemon, close the sockets, free. Safe on
 * a zeroed or stopped `h`. */
void prom_http_stop(struct prom_http *h);

/*
 * The sink of --format=prometheus and --listen: a sink_prom whose end()
 * writes the pass to `stream` (then flushes) or publishes it to `http`,
 * and says on the log, once per distinct first refusal, which fields a
 * pass refused (sink_prom.h: one type and one unit per name), and each
 * pass that dropped duplicate samples.
 */
#include "common/core/log.h"
#include "common/sink/sink_prom.h"

struct prom_http_sink {
  struct metric_sink base;
  struct sink_prom prom;
  struct prom_http *http; /* borrowed, or NULL */
  const char *plugin;
  char said[512];                /* the refusal last logged */
  struct log_complaint dup_said; /* duplicates said, not yet over */
  char dup_first[512];           /* the duplicate last said */
};

/* Exactly one of `stream` and `http` is non-NULL. */
void prom_http_sink_init(struct prom_http_sink *s, const char *plugin,
                         FILE *stream, struct prom_http *http);
void prom_http_sink_fini(struct prom_http_sink *s);

#endif
