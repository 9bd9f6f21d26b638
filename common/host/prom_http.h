/*
 * prom_http.h: the HTTP side of --listen: a libmicrohttpd daemon serving
 * the last rendered exposition (sink_prom.h) at /metrics.
 *
 * Reads happen on the plugin's interval in the host's thread, never on a
 * scrape: rates and utilisations then cover a fixed interval whatever the
 * number of scrapers, a slow read never holds a scrape (a scrape copies the
 * last published text under a mutex held only for that copy), and the
 * plugin instance, which is not thread-safe, stays on one thread. Scrapes
 * are served by the daemon's own thread; any number may run at once.
 *
 *   GET or HEAD /metrics  200, Content-Type SINK_PROM_CONTENT_TYPE, the
 *                         last pass (503 before the first one)
 *   any other path        404; another method on /metrics: 405
 */
#ifndef COMMON_HOST_PROM_HTTP_H
#define COMMON_HOST_PROM_HTTP_H

#include <netinet/in.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>

/* The port of --listen=ADDR without ":PORT". */
#define PROM_HTTP_DEFAULT_PORT 9470

/*
 * Parse --listen's value into `ss` / `len`: "ADDR:PORT", "ADDR" (default
 * port), ":PORT" or "" (all IPv4 addresses), "[V6ADDR]:PORT", "[V6ADDR]".
 * ADDR is a numeric IPv4 or IPv6 address, or "localhost" (127.0.0.1): no
 * name lookup. Pure. Returns 0, or -EINVAL with `err` (size `err_size`)
 * saying why.
 */
int prom_http_parse_addr(const char *text, struct sockaddr_storage *ss,
                         socklen_t *len, char *err, size_t err_size);

struct MHD_Daemon;

struct prom_http {
  const char *plugin; /* borrowed, for messages */
  struct MHD_Daemon *daemon;
  int fd; /* the listening socket, owned */
  pthread_mutex_t lock;
  char *text; /* the published pass, owned; NULL before the first */
  size_t len, cap;
  unsigned long scrapes; /* answered /metrics requests */
};

/*
 * Bind `addr` (prom_http_parse_addr's syntax) and start serving. Returns 0,
 * -EINVAL for a bad address, or the negative errno of socket, bind or
 * listen; `err` then says which, naming the address and the errno text
 * ("127.0.0.1:9470: bind: Address already in use").
 */
int prom_http_start(struct prom_http *h, const char *plugin, const char *addr,
                    char *err, size_t err_size);

/* Make `text` (`len` bytes) what /metrics answers. Returns 0 or -ENOMEM
 * (the previous text stays). */
int prom_http_publish(struct prom_http *h, const char *text, size_t len);

/* Stop the daemon (answers in flight finish), close the socket, free. */
void prom_http_stop(struct prom_http *h);

/*
 * The sink of --format=prometheus and --listen: a sink_prom whose end()
 * writes the pass to `stream` (then flushes) or publishes it to `http`,
 * and says on the log, once per distinct first refusal, which fields a
 * pass refused (sink_prom.h: one type and one unit per name).
 */
#include "common/sink/sink_prom.h"

struct prom_http_sink {
  struct metric_sink base;
  struct sink_prom prom;
  struct prom_http *http; /* borrowed, or NULL */
  const char *plugin;
  char said[512]; /* the refusal last logged */
};

/* Exactly one of `stream` and `http` is non-NULL. */
void prom_http_sink_init(struct prom_http_sink *s, const char *plugin,
                         FILE *stream, struct prom_http *http);
void prom_http_sink_fini(struct prom_http_sink *s);

#endif
