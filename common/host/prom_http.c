/*
 * prom_http.c: /metrics over libmicrohttpd (see prom_http.h).
 *
 * The listening socket is ours (socket, bind, listen), handed to the daemon
 * with MHD_OPTION_LISTEN_SOCKET, so that a bad address or a port in use
 * gives the errno of the call that failed; MHD_stop_daemon closes it.
 */
#include "common/host/prom_http.h"
#include "common/core/log.h"
#include "common/sink/sink_prom.h"

#include <arpa/inet.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <microhttpd.h>

static int prom_http_bad(char *err, size_t size, const char *text,
                         const char *why) {
  snprintf(err, size, "--listen=%.80s: %s", text, why);
  return -EINVAL;
}

int prom_http_parse_addr(const char *text, struct sockaddr_storage *ss,
                         socklen_t *len, char *err, size_t err_size) {
  char host[64];
  const char *port = NULL;
  memset(ss, 0, sizeof(*ss));
  if (text[0] == '[') {
    const char *close = strchr(text, ']');
    if (close == NULL)
      return prom_http_bad(err, err_size, text,
                           "no ']' after the IPv6 "
                           "address");
    if (close[1] != '\0' && close[1] != ':')
      return prom_http_bad(err, err_size, text, "expected ':PORT' after ']'");
    size_t n = (size_t)(close - text - 1);
    if (n >= sizeof(host))
      return prom_http_bad(err, err_size, text, "address too long");
    memcpy(host, text + 1, n);
    host[n] = '\0';
    port = close[1] == ':' ? close + 2 : NULL;
  } else {
    const char *colon = strrchr(text, ':');
    if (colon != NULL && strchr(text, ':') != colon)
      return prom_http_bad(err, err_size, text,
                           "an IPv6 address goes in brackets: [::1]:9470");
    size_t n = colon ? (size_t)(colon - text) : strlen(text);
    if (n >= sizeof(host))
      return prom_http_bad(err, err_size, text, "address too long");
    memcpy(host, text, n);
    host[n] = '\0';
    port = colon ? colon + 1 : NULL;
  }
  unsigned long p = PROM_HTTP_DEFAULT_PORT;
  if (port != NULL) {
    char *end;
    errno = 0;
    p = port[0] >= '0' && port[0] <= '9' ? strtoul(port, &end, 10) : 0;
    if (port[0] < '0' || port[0] > '9' || *end != '\0' || errno != 0 ||
        p == 0 || p > 65535)
      return prom_http_bad(err, err_size, text,
                           "expected a port from 1 to 65535 after ':'");
  }
  struct sockaddr_in *v4 = (struct sockaddr_in *)ss;
  struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)ss;
  if (text[0] == '[') {
    if (inet_pton(AF_INET6, host, &v6->sin6_addr) != 1)
      return prom_http_bad(err, err_size, text, "not a numeric IPv6 address");
    v6->sin6_family = AF_INET6;
    v6->sin6_port = htons((uint16_t)p);
    *len = sizeof(*v6);
    return 0;
  }
  if (host[0] == '\0')
    v4->sin_addr.s_addr = htonl(INADDR_ANY);
  else if (strcmp(host, "localhost") == 0)
    v4->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  else if (inet_pton(AF_INET, host, &v4->sin_addr) != 1)
    return prom_http_bad(err, err_size, text,
                         "not a numeric IPv4 address (no name lookup; "
                         "IPv6 goes in brackets)");
  v4->sin_family = AF_INET;
  v4->sin_port = htons((uint16_t)p);
  *len = sizeof(*v4);
  return 0;
}

/* "127.0.0.1:9470" or "[::1]:9470". */
static void prom_http_addr_text(const struct sockaddr_storage *ss, char *out,
                                size_t size) {
  char a[INET6_ADDRSTRLEN] = "?";
  if (ss->ss_family == AF_INET6) {
    const struct sockaddr_in6 *v6 = (const struct sockaddr_in6 *)ss;
    inet_ntop(AF_INET6, &v6->sin6_addr, a, sizeof(a));
    snprintf(out, size, "[%s]:%u", a, ntohs(v6->sin6_port));
  } else {
    const struct sockaddr_in *v4 = (const struct sockaddr_in *)ss;
    inet_ntop(AF_INET, &v4->sin_addr, a, sizeof(a));
    snprintf(out, size, "%s:%u", a, ntohs(v4->sin_port));
  }
}

static enum MHD_Result prom_http_answer(struct MHD_Connection *c,
                                        unsigned status, const char *body,
                                        size_t len,
                                        enum MHD_ResponseMemoryMode mode,
                                        const char *type) {
  struct MHD_Response *r =
      MHD_create_response_from_buffer(len, (void *)body, mode);
  if (r == NULL)
    return MHD_NO;
  MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
  if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
    MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
  enum MHD_Result rc = MHD_queue_response(c, status, r);
  MHD_destroy_response(r);
  return rc;
}

static enum MHD_Result prom_http_handle(void *cls, struct MHD_Connection *c,
                                        const char *url, const char *method,
                                        const char *version,
                                        const char *upload_data,
                                        size_t *upload_data_size,
                                        void **con_cls) {
  (void)version;
  (void)upload_data;
  (void)con_cls;
  struct prom_http *h = cls;
  static const char plain[] = "text/plain; charset=utf-8";
  if (strcmp(url, "/metrics") != 0) {
    static const char nf[] = "404 not found: the metrics are at /metrics\n";
    return prom_http_answer(c, MHD_HTTP_NOT_FOUND, nf, sizeof(nf) - 1,
                            MHD_RESPMEM_PERSISTENT, plain);
  }
  if (strcmp(method, MHD_HTTP_METHOD_GET) != 0 &&
      strcmp(method, MHD_HTTP_METHOD_HEAD) != 0) {
    static const char na[] = "405 method not allowed: GET or HEAD\n";
    if (*upload_data_size != 0) { /* answer once the body is in */
      *upload_data_size = 0;
      return MHD_YES;
    }
    return prom_http_answer(c, MHD_HTTP_METHOD_NOT_ALLOWED, na, sizeof(na) - 1,
                            MHD_RESPMEM_PERSISTENT, plain);
  }
  pthread_mutex_lock(&h->lock);
  enum MHD_Result rc;
  if (h->text == NULL) {
    static const char wait[] = "503: no read has finished yet\n";
    rc = prom_http_answer(c, MHD_HTTP_SERVICE_UNAVAILABLE, wait,
                          sizeof(wait) - 1, MHD_RESPMEM_PERSISTENT, plain);
  } else {
    h->scrapes++;
    rc = prom_http_answer(c, MHD_HTTP_OK, h->len ? h->text : "", h->len,
                          MHD_RESPMEM_MUST_COPY, SINK_PROM_CONTENT_TYPE);
  }
  pthread_mutex_unlock(&h->lock);
  return rc;
}

int prom_http_start(struct prom_http *h, const char *plugin, const char *addr,
                    char *err, size_t err_size) {
  memset(h, 0, sizeof(*h));
  h->plugin = plugin;
  h->fd = -1;
  struct sockaddr_storage ss;
  socklen_t len;
  int rc = prom_http_parse_addr(addr, &ss, &len, err, err_size);
  if (rc < 0)
    return rc;
  char where[80];
  prom_http_addr_text(&ss, where, sizeof(where));
  const char *step = "socket";
  int fd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
  int one = 1;
  if (fd >= 0) {
    step = "setsockopt SO_REUSEADDR";
    if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) == 0) {
      /* [::] is IPv6 only: 0.0.0.0 is a second --listen away */
      if (ss.ss_family == AF_INET6)
        setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one));
      step = "bind";
      if (bind(fd, (struct sockaddr *)&ss, len) == 0) {
        step = "listen";
        if (listen(fd, 64) == 0)
          step = NULL;
      }
    }
  }
  if (step != NULL) {
    int e = errno;
    if (fd >= 0)
      close(fd);
    snprintf(err, err_size, "%s: %s: %s", where, step, strerror(e));
    return -e;
  }
  pthread_mutex_init(&h->lock, NULL);
  /* The daemon's thread must not take the stop signals: the host thread
   * sleeps until they interrupt it. The thread inherits this mask. */
  sigset_t block, old;
  sigemptyset(&block);
  sigaddset(&block, SIGINT);
  sigaddset(&block, SIGTERM);
  sigaddset(&block, SIGHUP);
  sigaddset(&block, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &block, &old);
  unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL;
  if (ss.ss_family == AF_INET6)
    flags |= MHD_USE_IPv6;
  h->daemon = MHD_start_daemon(
      flags, 0, NULL, NULL, prom_http_handle, h, MHD_OPTION_LISTEN_SOCKET, fd,
      MHD_OPTION_CONNECTION_LIMIT, 64u, MHD_OPTION_CONNECTION_TIMEOUT, 30u,
      MHD_OPTION_END);
  int e = errno;
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  if (h->daemon == NULL) {
    close(fd);
    pthread_mutex_destroy(&h->lock);
    snprintf(err, err_size, "%s: MHD_start_daemon: %s", where,
             strerror(e ? e : EIO));
    return -(e ? e : EIO);
  }
  h->fd = fd;
  return 0;
}

int prom_http_publish(struct prom_http *h, const char *text, size_t len) {
  pthread_mutex_lock(&h->lock);
  int rc = 0;
  if (len + 1 > h->cap || h->text == NULL) {
    size_t cap = len + 1 > 4096 ? len + 1 : 4096;
    char *grown = realloc(h->text, cap);
    if (grown == NULL)
      rc = -ENOMEM;
    else {
      h->text = grown;
      h->cap = cap;
    }
  }
  if (rc == 0) {
    memcpy(h->text, text, len);
    h->text[len] = '\0';
    h->len = len;
  }
  pthread_mutex_unlock(&h->lock);
  return rc;
}

void prom_http_stop(struct prom_http *h) {
  if (h->daemon == NULL)
    return;
  MHD_stop_daemon(h->daemon); /* closes h->fd */
  h->daemon = NULL;
  h->fd = -1;
  pthread_mutex_destroy(&h->lock);
  free(h->text);
  h->text = NULL;
}

/* ---- the sink ---- */

static int prom_http_sink_begin(struct metric_sink *sink) {
  struct prom_http_sink *s = (struct prom_http_sink *)sink;
  return s->prom.base.begin(&s->prom.base);
}

static int prom_http_sink_write(struct metric_sink *sink,
                                const struct metric *m) {
  struct prom_http_sink *s = (struct prom_http_sink *)sink;
  return s->prom.base.write(&s->prom.base, m);
}

static int prom_http_sink_end(struct metric_sink *sink) {
  struct prom_http_sink *s = (struct prom_http_sink *)sink;
  int rc = s->prom.base.end(&s->prom.base);
  if (s->prom.refused > 0 && strcmp(s->said, s->prom.clash) != 0) {
    log_msg(LOG_LEVEL_ERROR, s->plugin, "prometheus", "exposition",
            "%zu field(s) not exposed this pass; first: %s", s->prom.refused,
            s->prom.clash);
    snprintf(s->said, sizeof(s->said), "%s", s->prom.clash);
  }
  if (rc == 0 && s->http != NULL) {
    size_t len;
    const char *text = sink_prom_text(&s->prom, &len);
    rc = prom_http_publish(s->http, text, len);
  }
  return rc;
}

void prom_http_sink_init(struct prom_http_sink *s, const char *plugin,
                         FILE *stream, struct prom_http *http) {
  memset(s, 0, sizeof(*s));
  s->base.begin = prom_http_sink_begin;
  s->base.write = prom_http_sink_write;
  s->base.end = prom_http_sink_end;
  sink_prom_init(&s->prom, stream);
  s->http = http;
  s->plugin = plugin;
}

void prom_http_sink_fini(struct prom_http_sink *s) { sink_prom_fini(&s->prom); }
