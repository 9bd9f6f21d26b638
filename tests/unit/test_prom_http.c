/*
 * test_prom_http.c: --listen's address syntax (prom_http_parse_addr), the
 * errors of prom_http_start (bad address, port in use: named with the
 * errno text), /metrics answers read over loopback sockets, and the server
 * under attack, as a hostile client on loopback would try it (bounded in
 * count and time): slowloris, readers that never read, descriptors run
 * out; and what a scraper needs: kept-alive connections, gzip, a 503 for
 * stale values.
 */
#include "common/core/log.h"
#include "common/http/prom_http.h"
#include "common/http/prom_http_addr.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include <cmocka.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static void prom_http_parse_addr__valid(void **state) {
  (void)state;
  static const struct {
    const char *text;
    int family;
    const char *addr;
    unsigned port;
  } cases[] = {
      {"127.0.0.1:9400", AF_INET, "127.0.0.1", 9400},
      {"127.0.0.1", AF_INET, "127.0.0.1", PROM_HTTP_DEFAULT_PORT},
      {":9401", AF_INET, "0.0.0.0", 9401},
      {"", AF_INET, "0.0.0.0", PROM_HTTP_DEFAULT_PORT},
      {"localhost:1", AF_INET, "127.0.0.1", 1},
      {"[::1]:9400", AF_INET6, "::1", 9400},
      {"[::]", AF_INET6, "::", PROM_HTTP_DEFAULT_PORT},
      {"[fe80::1]:65535", AF_INET6, "fe80::1", 65535},
  };
  for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
    struct sockaddr_storage ss;
    socklen_t len;
    char err[200] = "";
    assert_int_equal(
        prom_http_parse_addr(cases[i].text, &ss, &len, err, sizeof(err)), 0);
    assert_int_equal(ss.ss_family, cases[i].family);
    char a[INET6_ADDRSTRLEN];
    unsigned port;
    if (ss.ss_family == AF_INET) {
      struct sockaddr_in *v4 = (struct sockaddr_in *)&ss;
      inet_ntop(AF_INET, &v4->sin_addr, a, sizeof(a));
      port = ntohs(v4->sin_port);
      assert_int_equal(len, sizeof(*v4));
    } else {
      struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)&ss;
      inet_ntop(AF_INET6, &v6->sin6_addr, a, sizeof(a));
      port = ntohs(v6->sin6_port);
      assert_int_equal(len, sizeof(*v6));
    }
    assert_string_equal(a, cases[i].addr);
    assert_int_equal(port, cases[i].port);
  }
}

static void prom_http_parse_addr__errors(void **state) {
  (void)state;
  static const struct {
    const char *text, *err;
  } cases[] = {
      {"nonsense:80", "--listen=nonsense:80: not a numeric IPv4 address (no "
                      "name lookup; IPv6 goes in brackets)"},
      {"::1:80", "--listen=::1:80: an IPv6 address goes in brackets: "
                 "[::1]:9470"},
      {"[::1", "--listen=[::1: no ']' after the IPv6 address"},
      {"[::1]80", "--listen=[::1]80: expected ':PORT' after ']'"},
      {"[1.2.3.4]:80", "--listen=[1.2.3.4]:80: not a numeric IPv6 address"},
      {"1.2.3.4:0", "--listen=1.2.3.4:0: expected a port from 1 to 65535 "
                    "after ':'"},
      {"1.2.3.4:65536", "--listen=1.2.3.4:65536: expected a port from 1 to "
                        "65535 after ':'"},
      {"1.2.3.4:", "--listen=1.2.3.4:: expected a port from 1 to 65535 after "
                   "':'"},
      {"1.2.3.4:+80", "--listen=1.2.3.4:+80: expected a port from 1 to 65535 "
                      "after ':'"},
      {"1.2.3.4:80x", "--listen=1.2.3.4:80x: expected a port from 1 to 65535 "
                      "after ':'"},
      {"1.2.3.4:99999999999999999999",
       "--listen=1.2.3.4:99999999999999999999: expected a port from 1 to "
       "65535 after ':'"},
  };
  for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
    struct sockaddr_storage ss;
    socklen_t len;
    char err[200] = "";
    assert_int_equal(
        prom_http_parse_addr(cases[i].text, &ss, &len, err, sizeof(err)),
        -EINVAL);
    assert_string_equal(err, cases[i].err);
  }
}

/* A loopback port that is taken while `fd` stays open. */
static int taken_port(int *fd) {
  struct sockaddr_in a = {.sin_family = AF_INET};
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof(a);
  *fd = socket(AF_INET, SOCK_STREAM, 0);
  assert_true(*fd >= 0);
  assert_int_equal(bind(*fd, (struct sockaddr *)&a, len), 0);
  assert_int_equal(listen(*fd, 1), 0);
  assert_int_equal(getsockname(*fd, (struct sockaddr *)&a, &len), 0);
  return ntohs(a.sin_port);
}

static void prom_http_start__errors(void **state) {
  (void)state;
  struct prom_http h;
  char err[200];
  assert_int_equal(prom_http_start(&h, "p", "nope", err, sizeof(err)), -EINVAL);
  int fd;
  int port = taken_port(&fd);
  char addr[64], want[200];
  snprintf(addr, sizeof(addr), "127.0.0.1:%d", port);
  assert_int_equal(prom_http_start(&h, "p", addr, err, sizeof(err)),
                   -EADDRINUSE);
  snprintf(want, sizeof(want), "127.0.0.1:%d: bind: %s", port,
           strerror(EADDRINUSE));
  assert_string_equal(err, want);
  close(fd);
}

/* A request over a socket; the whole answer into `out` (HTTP/1.0
 * requests: the server closes after its answer; it answers as HTTP/1.1). */
static void http_get(int port, const char *request, char *out, size_t size) {
  int s = socket(AF_INET, SOCK_STREAM, 0);
  struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(port)};
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  assert_int_equal(connect(s, (struct sockaddr *)&a, sizeof(a)), 0);
  assert_int_equal(write(s, request, strlen(request)),
                   (ssize_t)strlen(request));
  size_t n = 0;
  ssize_t r;
  while (n + 1 < size && (r = read(s, out + n, size - 1 - n)) > 0)
    n += (size_t)r;
  out[n] = '\0';
  close(s);
}

static void prom_http__serves_metrics(void **state) {
  (void)state;
  int fd;
  int port = taken_port(&fd);
  close(fd); /* free again: ours to take */
  char addr[64], err[200] = "", out[4096];
  snprintf(addr, sizeof(addr), "127.0.0.1:%d", port);
  struct prom_http h;
  assert_int_equal(prom_http_start(&h, "p", addr, err, sizeof(err)), 0);
  http_get(port, "GET /metrics HTTP/1.0\r\n\r\n", out, sizeof(out));
  assert_non_null(strstr(out, "HTTP/1.1 503"));
  static const char text[] = "# HELP m_x m x: a count now\n"
                             "# TYPE m_x gauge\nm_x 1\n";
  assert_int_equal(prom_http_publish(&h, text, sizeof(text) - 1), 0);
  http_get(port, "GET /metrics HTTP/1.0\r\n\r\n", out, sizeof(out));
  assert_non_null(strstr(out, "HTTP/1.1 200"));
  assert_non_null(strstr(out, "Content-Type: " SINK_PROM_CONTENT_TYPE "\r\n"));
  const char *body = strstr(out, "\r\n\r\n");
  assert_non_null(body);
  assert_string_equal(body + 4, text);
  http_get(port, "GET / HTTP/1.0\r\n\r\n", out, sizeof(out));
  assert_non_null(strstr(out, "HTTP/1.1 404"));
  http_get(port, "DELETE /metrics HTTP/1.0\r\n\r\n", out, sizeof(out));
  assert_non_null(strstr(out, "HTTP/1.1 405"));
  assert_non_null(strstr(out, "Allow: GET, HEAD\r\n"));
  assert_int_equal(h.scrapes, 1);
  prom_http_stop(&h);
  prom_http_stop(&h); /* twice is harmless */
  /* a zeroed one (no --listen) closes nothing: its fds 0 are stdin */
  int keep = open("/dev/null", O_RDONLY), in = dup(0);
  assert_true(keep >= 0);
  assert_int_equal(dup2(keep, 0), 0); /* fd 0 surely open */
  struct prom_http zero;
  memset(&zero, 0, sizeof(zero));
  prom_http_stop(&zero);
  assert_true(fcntl(0, F_GETFD) >= 0);
  if (in >= 0) {
    dup2(in, 0);
    close(in);
  }
  close(keep);
  /* the port is free again: the listening socket was closed */
  assert_int_equal(prom_http_start(&h, "p", addr, err, sizeof(err)), 0);
  prom_http_stop(&h);
}

/* ---- hostile clients and real scrapers ---- */

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double cpu_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A server on a free loopback port. */
static int serve(struct prom_http *h) {
  int fd;
  int port = taken_port(&fd);
  close(fd);
  char addr[64], err[200] = "";
  snprintf(addr, sizeof(addr), "127.0.0.1:%d", port);
  assert_int_equal(prom_http_start(h, "p", addr, err, sizeof(err)), 0);
  return port;
}

/* A connection to `port` from the loopback address `from` (127.0.0.x: a
 * client of its own for the per-IP limit), with a receive buffer of
 * `rcvbuf` bytes when not 0. */
static int connect_from(const char *from, int port, int rcvbuf) {
  int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  assert_true(s >= 0);
  if (rcvbuf > 0)
    setsockopt(s, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
  struct sockaddr_in a = {.sin_family = AF_INET};
  assert_int_equal(inet_pton(AF_INET, from, &a.sin_addr), 1);
  assert_int_equal(bind(s, (struct sockaddr *)&a, sizeof(a)), 0);
  a.sin_port = htons(port);
  assert_int_equal(inet_pton(AF_INET, "127.0.0.1", &a.sin_addr), 1);
  assert_int_equal(connect(s, (struct sockaddr *)&a, sizeof(a)), 0);
  return s;
}

/* True once the server has closed or shut down `s` (EOF or reset), within
 * `wait_ms`; data still buffered is read and dropped. */
static bool closed_by_server(int s, int wait_ms) {
  struct pollfd p = {s, POLLIN, 0};
  double end = now_s() + wait_ms / 1000.0;
  for (;;) {
    int left = (int)((end - now_s()) * 1000);
    if (poll(&p, 1, left > 0 ? left : 0) <= 0)
      return false;
    char buf[65536];
    ssize_t n = recv(s, buf, sizeof(buf), MSG_DONTWAIT);
    if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR))
      return true;
  }
}

/* One answer on a connection: the head into `head`, the body (by its
 * Content-Length) into `body`; false on a timeout or a short answer. */
static bool read_answer(int s, char *head, size_t head_size, char *body,
                        size_t body_size, size_t *body_len) {
  size_t n = 0;
  double end = now_s() + 5;
  char *sep = NULL;
  while (sep == NULL) {
    struct pollfd p = {s, POLLIN, 0};
    if (now_s() > end || poll(&p, 1, 1000) <= 0 || n + 1 >= head_size)
      return false;
    ssize_t r = recv(s, head + n, 1, 0); /* byte by byte: no overshoot */
    if (r <= 0)
      return false;
    n += (size_t)r;
    head[n] = '\0';
    sep = strstr(head, "\r\n\r\n");
  }
  const char *cl = strcasestr(head, "\r\nContent-Length: ");
  size_t want = cl ? strtoul(cl + 18, NULL, 10) : 0;
  if (want > body_size)
    return false;
  size_t got = 0;
  while (got < want) {
    struct pollfd p = {s, POLLIN, 0};
    if (now_s() > end || poll(&p, 1, 1000) <= 0)
      return false;
    ssize_t r = recv(s, body + got, want - got, 0);
    if (r <= 0)
      return false;
    got += (size_t)r;
  }
  *body_len = got;
  return true;
}

/* GET /metrics from 127.0.0.1 on a new connection: the status. */
static int scrape_status(int port) {
  int s = connect_from("127.0.0.1", port, 0);
  static const char req[] = "GET /metrics HTTP/1.1\r\nHost: t\r\n\r\n";
  assert_int_equal(send(s, req, sizeof(req) - 1, MSG_NOSIGNAL),
                   (ssize_t)sizeof(req) - 1);
  char head[2048];
  static char body[1 << 16];
  size_t len = 0;
  int status = 0;
  if (read_answer(s, head, sizeof(head), body, sizeof(body), &len))
    sscanf(head, "HTTP/1.1 %d", &status);
  close(s);
  return status;
}

static void prom_http__slowloris(void **state) {
  (void)state;
  struct prom_http h;
  int port = serve(&h);
  assert_int_equal(prom_http_publish(&h, "m 1\n", 4), 0);
  /* 64 connections from one address, each sending a header byte every
   * 1 s: the per-IP limit refuses 48 at once, and the 16 it takes must be
   * complete within PROM_HTTP_REQUEST_S whatever they send */
  enum { N = 64 };
  int att[N];
  bool closed[N] = {false};
  double t0 = now_s(), last = 0;
  for (int i = 0; i < N; i++) {
    att[i] = connect_from("127.0.0.2", port, 0);
    send(att[i], "GET /metrics HTTP/1.1\r\n", 23, MSG_NOSIGNAL);
  }
  /* a scraper from another address is answered meanwhile */
  assert_int_equal(scrape_status(port), 200);
  int n_closed = 0;
  while (n_closed < N && now_s() < t0 + PROM_HTTP_REQUEST_S + 5) {
    for (int i = 0; i < N; i++) {
      if (closed[i])
        continue;
      if (closed_by_server(att[i], 0)) {
        closed[i] = true;
        n_closed++;
        last = now_s() - t0;
        continue;
      }
      send(att[i], "X", 1, MSG_NOSIGNAL);
    }
    struct timespec pause = {0, 200 * 1000 * 1000}; /* the attacker's pace */
    nanosleep(&pause, NULL);
  }
  assert_int_equal(n_closed, N);
  assert_true(last < PROM_HTTP_REQUEST_S + 1.5);
  assert_true(last >= PROM_HTTP_REQUEST_S - 0.5); /* not before its time */
  for (int i = 0; i < N; i++)
    close(att[i]);
  assert_true(h.shut_down >= PROM_HTTP_PER_IP);
  prom_http_stop(&h);
}

/* Requests with a body, and paths libmicrohttpd would decode into ours:
 * each answered at once (well before any deadline), without "100
 * Continue", and the connection closed after the answer. */
static void prom_http__bodies_refused(void **state) {
  (void)state;
  struct prom_http h;
  int port = serve(&h);
  assert_int_equal(prom_http_publish(&h, "m 1\n", 4), 0);
  static const struct {
    const char *req;
    int status;
    bool closes;
  } cases[] = {
      /* a huge body announced, 1 byte sent: the old server waited for the
       * rest until the answer deadline */
      {"POST /metrics HTTP/1.1\r\nHost: t\r\nContent-Length: 100000000\r\n"
       "\r\nx",
       405, true},
      {"POST /metrics HTTP/1.1\r\nHost: t\r\nContent-Length: 1000000000\r\n"
       "Expect: 100-continue\r\n\r\n",
       405, true},
      {"GET /metrics HTTP/1.1\r\nHost: t\r\nContent-Length: 5\r\n\r\n", 413,
       true},
      {"GET /metrics HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n"
       "\r\n1\r\nx\r\n",
       413, true},
      /* a coding libmicrohttpd does not know: it read "the body" until the
       * connection ended */
      {"GET /metrics HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: xchunked\r\n"
       "\r\n",
       413, true},
      {"GET /metrics%00 HTTP/1.1\r\nHost: t\r\n\r\n", 404, false},
      {"GET /metrics%00.txt HTTP/1.1\r\nHost: t\r\n\r\n", 404, false},
      {"GET /%6detrics HTTP/1.1\r\nHost: t\r\n\r\n", 200, false},
      {"GET /metrics HTTP/1.1\r\nHost: t\r\nContent-Length: 0\r\n\r\n", 200,
       false},
  };
  for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
    int s = connect_from("127.0.0.1", port, 0);
    size_t n = strlen(cases[i].req);
    double t0 = now_s();
    assert_int_equal(send(s, cases[i].req, n, MSG_NOSIGNAL), (ssize_t)n);
    char head[2048], body[256];
    size_t len = 0;
    assert_true(read_answer(s, head, sizeof(head), body, sizeof(body), &len));
    double took = now_s() - t0;
    int status = 0;
    assert_int_equal(sscanf(head, "HTTP/1.1 %d", &status), 1);
    if (status != cases[i].status)
      printf("# case %zu: %d\n", i, status);
    assert_int_equal(status, cases[i].status);
    assert_true(took < 2.0);
    if (cases[i].closes)
      assert_true(closed_by_server(s, 2000));
    close(s);
  }
  assert_int_equal(h.scrapes, 2);
  prom_http_stop(&h);
}

/* Resident set of this process, bytes. */
static long rss_bytes(void) {
  FILE *f = fopen("/proc/self/statm", "r");
  long size = 0, resident = 0;
  assert_non_null(f);
  assert_int_equal(fscanf(f, "%ld %ld", &size, &resident), 2);
  fclose(f);
  return resident * sysconf(_SC_PAGESIZE);
}

static void prom_http__stalled_readers(void **state) {
  (void)state;
  struct prom_http h;
  int port = serve(&h);
  /* a 7 MB exposition */
  size_t len = 7u << 20;
  char *text = malloc(len);
  assert_non_null(text);
  for (size_t i = 0; i < len; i++)
    text[i] = i % 64 == 63 ? '\n' : 'a' + (char)(i % 26);
  assert_int_equal(prom_http_publish(&h, text, len), 0);
  long rss0 = rss_bytes();
  /* 64 clients, 16 from each of 4 addresses, that ask and never read */
  enum { N = 64 };
  int s[N];
  static const char req[] = "GET /metrics HTTP/1.1\r\nHost: t\r\n\r\n";
  for (int i = 0; i < N; i++) {
    char from[32];
    snprintf(from, sizeof(from), "127.0.0.%d", 2 + i / 16);
    s[i] = connect_from(from, port, 4096);
    assert_int_equal(send(s[i], req, sizeof(req) - 1, MSG_NOSIGNAL),
                     (ssize_t)sizeof(req) - 1);
  }
  /* every one is being answered: bytes wait in its receive queue */
  int answered = 0;
  double end = now_s() + 10;
  while (answered < N && now_s() < end) {
    answered = 0;
    for (int i = 0; i < N; i++) {
      int q = 0;
      answered += ioctl(s[i], FIONREAD, &q) == 0 && q > 0;
    }
    struct timespec pause = {0, 20 * 1000 * 1000};
    nanosleep(&pause, NULL);
  }
  assert_int_equal(answered, N);
  long grown = rss_bytes() - rss0;
  /* one shared pass: far from 64 copies (448 MB) */
  printf("# 64 stalled readers of a 32 MB pass: RSS +%ld KiB\n", grown / 1024);
  assert_true(grown < (long)(2 * len));
  /* newer passes: a reader keeps the pass it asked for, however many */
  for (unsigned k = 0; k < PROM_HTTP_PASSES_KEPT + 2; k++)
    assert_int_equal(prom_http_publish(&h, text, len), 0);
  double until = now_s() + 1; /* 4 ticks of the server's thread */
  while (now_s() < until) {
    struct timespec tick = {0, 50 * 1000 * 1000};
    nanosleep(&tick, NULL);
  }
  assert_int_equal(__atomic_load_n(&h.shut_down, __ATOMIC_RELAXED), 0);
  /* a stalled reader on each of PROM_HTTP_PASSES_KEPT newer passes: the
   * readers then pin more older passes than kept, and those of the oldest,
   * the first 64, are cut */
  int more[PROM_HTTP_PASSES_KEPT];
  for (unsigned k = 0; k < PROM_HTTP_PASSES_KEPT; k++) {
    more[k] = connect_from("127.0.0.10", port, 4096);
    assert_int_equal(send(more[k], req, sizeof(req) - 1, MSG_NOSIGNAL),
                     (ssize_t)sizeof(req) - 1);
    int q = 0;
    double end2 = now_s() + 10;
    while ((ioctl(more[k], FIONREAD, &q) != 0 || q == 0) && now_s() < end2) {
      struct timespec pause = {0, 20 * 1000 * 1000};
      nanosleep(&pause, NULL);
    }
    assert_true(q > 0); /* being answered the newest pass */
    assert_int_equal(prom_http_publish(&h, text, len), 0);
  }
  /* The server's thread cuts them on its next tick (250 ms). Reading a
   * socket before that would let its answer finish and the connection
   * stay alive, rightly: so first wait (bounded) until the server says it
   * shut down all 64, then see each one end. */
  until = now_s() + 10;
  while (now_s() < until) {
    if (__atomic_load_n(&h.shut_down, __ATOMIC_RELAXED) >= N)
      break;
    struct timespec tick = {0, 20 * 1000 * 1000};
    nanosleep(&tick, NULL);
  }
  int shut = 0;
  for (int i = 0; i < N; i++)
    shut += closed_by_server(s[i], 10000);
  assert_int_equal(shut, N);
  /* the readers of the newer passes stay */
  assert_int_equal(__atomic_load_n(&h.shut_down, __ATOMIC_RELAXED), N);
  for (unsigned k = 0; k < PROM_HTTP_PASSES_KEPT; k++) {
    int q = 0;
    assert_int_equal(ioctl(more[k], FIONREAD, &q), 0);
    assert_true(q > 0);
    close(more[k]);
  }
  for (int i = 0; i < N; i++)
    close(s[i]);
  free(text);
  prom_http_stop(&h);
}

/* A reader slower than the publishes (a scraper on a slow link) reads the
 * whole pass it asked for, byte for byte, while many newer passes are
 * published: the pass lives until it has been sent. */
static void prom_http__slow_reader(void **state) {
  (void)state;
  struct prom_http h;
  int port = serve(&h);
  size_t len = 8u << 20; /* beyond what the socket buffers hold */
  char *text = malloc(len), *got = malloc(len + 1);
  assert_non_null(text);
  assert_non_null(got);
  for (size_t i = 0; i < len; i++)
    text[i] = i % 64 == 63 ? '\n' : 'a' + (char)(i % 26);
  assert_int_equal(prom_http_publish(&h, text, len), 0);
  int s = connect_from("127.0.0.1", port, 65536);
  static const char req[] = "GET /metrics HTTP/1.1\r\nHost: t\r\n\r\n";
  assert_int_equal(send(s, req, sizeof(req) - 1, MSG_NOSIGNAL),
                   (ssize_t)sizeof(req) - 1);
  /* the head, byte by byte */
  char head[2048];
  size_t n = 0;
  while (n + 1 < sizeof(head) && strstr(head, "\r\n\r\n") == NULL) {
    struct pollfd p = {s, POLLIN, 0};
    assert_int_equal(poll(&p, 1, 5000), 1);
    assert_int_equal(recv(s, head + n, 1, 0), 1);
    head[++n] = '\0';
  }
  assert_non_null(strstr(head, "HTTP/1.1 200"));
  /* what the socket holds every 20 ms, a new pass (other text) published
   * each time */
  char *other = malloc(len);
  assert_non_null(other);
  memset(other, 'z', len);
  size_t have = 0;
  int passes = 0;
  double end = now_s() + 30;
  while (have < len && now_s() < end) {
    struct pollfd p = {s, POLLIN, 0};
    if (poll(&p, 1, 1000) == 1) {
      size_t want = len - have;
      ssize_t r = recv(s, got + have, want, MSG_DONTWAIT);
      if (r == 0)
        break; /* cut */
      if (r > 0)
        have += (size_t)r;
    }
    assert_int_equal(prom_http_publish(&h, other, len), 0);
    passes++;
    struct timespec pause = {0, 20 * 1000 * 1000};
    nanosleep(&pause, NULL);
  }
  printf("# a slow reader read %zu of %zu bytes while %d passes were "
         "published\n",
         have, len, passes);
  assert_int_equal(have, len);
  assert_true(passes > (int)PROM_HTTP_PASSES_KEPT);
  assert_memory_equal(got, text, len);
  close(s);
  free(other);
  free(got);
  free(text);
  prom_http_stop(&h);
}

static void prom_http__out_of_descriptors(void **state) {
  (void)state;
  struct rlimit old, low;
  assert_int_equal(getrlimit(RLIMIT_NOFILE, &old), 0);
  low = old;
  low.rlim_cur = 256;
  assert_int_equal(setrlimit(RLIMIT_NOFILE, &low), 0);
  struct prom_http h;
  int port = serve(&h);
  assert_int_equal(prom_http_publish(&h, "m 1\n", 4), 0);
  int fill[256], n_fill = 0;
  while (n_fill < 256 && (fill[n_fill] = open("/dev/null", O_RDONLY)) >= 0)
    n_fill++;
  assert_int_equal(errno, EMFILE);
  /* a client in a child with room for its socket: its connection waits
   * in the backlog of a server that cannot accept */
  pid_t child = fork();
  assert_true(child >= 0);
  if (child == 0) {
    for (int i = 0; i < 8; i++)
      close(fill[i]);
    int c = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(port)};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (c < 0 || connect(c, (struct sockaddr *)&a, sizeof(a)) != 0)
      _exit(1);
    struct pollfd p = {c, POLLIN, 0};
    _exit(poll(&p, 1, 3000) == 1 ? 0 : 2); /* closed unanswered, at once */
  }
  /* CPU of this process over 1 s: the server thread must not spin */
  double c0 = cpu_s(), t0 = now_s();
  while (now_s() < t0 + 1.0) {
    struct timespec pause = {0, 50 * 1000 * 1000};
    nanosleep(&pause, NULL);
  }
  double used = cpu_s() - c0;
  printf("# out of descriptors: %.3f s CPU in 1 s\n", used);
  int status = -1;
  assert_int_equal(waitpid(child, &status, 0), child);
  for (int i = 0; i < n_fill; i++)
    close(fill[i]);
  assert_true(used < 0.1); /* spinning, the old accept loop took 0.33 s here */
  assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  assert_true(h.refused_fds >= 1);
  /* descriptors back: answered again (after the listener's rest) */
  double end = now_s() + 5;
  int st = 0;
  while (st != 200 && now_s() < end)
    st = scrape_status(port);
  assert_int_equal(st, 200);
  prom_http_stop(&h);
  assert_int_equal(setrlimit(RLIMIT_NOFILE, &old), 0);
}

static void prom_http__keep_alive(void **state) {
  (void)state;
  struct prom_http h;
  int port = serve(&h);
  static const char text[] = "m 1\n";
  assert_int_equal(prom_http_publish(&h, text, sizeof(text) - 1), 0);
  int s = connect_from("127.0.0.1", port, 0);
  static const char req[] = "GET /metrics HTTP/1.1\r\nHost: t\r\n\r\n";
  for (int k = 0; k < 3; k++) {
    assert_int_equal(send(s, req, sizeof(req) - 1, MSG_NOSIGNAL),
                     (ssize_t)sizeof(req) - 1);
    char head[2048], body[64];
    size_t len = 0;
    assert_true(read_answer(s, head, sizeof(head), body, sizeof(body), &len));
    assert_non_null(strstr(head, "HTTP/1.1 200"));
    assert_null(strcasestr(head, "Connection: close"));
    assert_int_equal(len, sizeof(text) - 1);
    assert_memory_equal(body, text, len);
  }
  close(s);
  assert_int_equal(h.scrapes, 3);
  prom_http_stop(&h);
}

/* The body of a GET with Accept-Encoding `ae`, inflated when gzip; the
 * head's Content-Encoding into `enc`. */
static size_t get_decoded(int port, const char *ae, char *out, size_t size,
                          char *enc, size_t enc_size) {
  int s = connect_from("127.0.0.1", port, 0);
  char req[256];
  int n = snprintf(req, sizeof(req),
                   "GET /metrics HTTP/1.1\r\nHost: t\r\nAccept-Encoding: "
                   "%s\r\n\r\n",
                   ae);
  assert_int_equal(send(s, req, (size_t)n, MSG_NOSIGNAL), n);
  char head[2048];
  static char body[1 << 20];
  size_t len = 0;
  assert_true(read_answer(s, head, sizeof(head), body, sizeof(body), &len));
  close(s);
  const char *ce = strcasestr(head, "\r\nContent-Encoding: ");
  snprintf(enc, enc_size, "%.*s", ce ? (int)strcspn(ce + 20, "\r") : 0,
           ce ? ce + 20 : "");
  if (ce == NULL) {
    assert_true(len <= size);
    memcpy(out, body, len);
    return len;
  }
  z_stream z;
  memset(&z, 0, sizeof(z));
  assert_int_equal(inflateInit2(&z, 15 + 16), Z_OK);
  z.next_in = (Bytef *)body;
  z.avail_in = (uInt)len;
  z.next_out = (Bytef *)out;
  z.avail_out = (uInt)size;
  assert_int_equal(inflate(&z, Z_FINISH), Z_STREAM_END);
  size_t got = z.total_out;
  inflateEnd(&z);
  return got;
}

static void prom_http__gzip(void **state) {
  (void)state;
  struct prom_http h;
  int port = serve(&h);
  size_t len = 100000;
  char *text = malloc(len);
  assert_non_null(text);
  for (size_t i = 0; i < len; i++)
    text[i] = i % 40 == 39 ? '\n' : 'a' + (char)(i % 7);
  assert_int_equal(prom_http_publish(&h, text, len), 0);
  static char out[1 << 20];
  char enc[32];
  static const struct {
    const char *ae, *enc;
  } cases[] = {
      {"gzip", "gzip"}, {"deflate, gzip;q=0.5", "gzip"},
      {"GZIP", "gzip"}, {"gzip;q=0", ""},
      {"identity", ""}, {"xgzip", ""},
  };
  for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
    size_t n =
        get_decoded(port, cases[i].ae, out, sizeof(out), enc, sizeof(enc));
    assert_string_equal(enc, cases[i].enc);
    assert_int_equal(n, len);
    assert_memory_equal(out, text, len);
  }
  free(text);
  prom_http_stop(&h);
}

static void prom_http__max_age(void **state) {
  (void)state;
  struct prom_http h;
  int port = serve(&h);
  assert_int_equal(prom_http_publish(&h, "m 1\n", 4), 0);
  prom_http_set_max_age(&h, 3600);
  assert_int_equal(scrape_status(port), 200);
  /* older than the maximum age: 503, and it says how old */
  prom_http_set_max_age(&h, 0.2);
  double end = now_s() + 5;
  int st = 200;
  while (st == 200 && now_s() < end)
    st = scrape_status(port);
  assert_int_equal(st, 503);
  char out[4096];
  http_get(port, "GET /metrics HTTP/1.0\r\n\r\n", out, sizeof(out));
  assert_non_null(strstr(out, "more than the maximum age of 0.2 s"));
  /* a new pass is fresh again; 0 turns the limit off */
  assert_int_equal(prom_http_publish(&h, "m 2\n", 4), 0);
  prom_http_set_max_age(&h, 0);
  assert_int_equal(scrape_status(port), 200);
  prom_http_stop(&h);
}

/* ---- TLS ---- */

/* A self-signed P-256 certificate for 127.0.0.1, valid to 2126, and its
 * key: test material only (openssl req -x509 -newkey ec). */
static const char test_cert[] =
    "-----BEGIN CERTIFICATE-----\n"
    "MIIBkTCCATagAwIBAgIUS0jxeBiRsKIB09xcj0h4BwsuwIUwCgYIKoZIzj0EAwIw\n"
    "FDESMBAGA1UEAwwJbG9jYWxob3N0MCAXDTI2MTIwMTIyNTYyNFoYDzIxMjYxMTA3\n"
    "MjI1NjI0WjAUMRIwEAYDVQQDDAlsb2NhbGhvc3QwWTATBgcqhkjOPQIBBggqhkjO\n"
    "PQMBBwNCAATxyqakzzyz7yvCAXNYSLYjdy+ddcDdB4krnrO7sFXwzTIFyQvTX5s5\n"
    "PE/mmSqcb0t1GZSktEkC1NoYAi1sg6nLo2QwYjAdBgNVHQ4EFgQUrNJr9xddqtGu\n"
    "/VoZc1quXMdu4DAwHwYDVR0jBBgwFoAUrNJr9xddqtGu/VoZc1quXMdu4DAwDwYD\n"
    "VR0TAQH/BAUwAwEB/zAPBgNVHREECDAGhwR/AAABMAoGCCqGSM49BAMCA0kAMEYC\n"
    "IQDWJpN9XSplAmhUEaumTGZVJ51Xc2BAVfvSSzbMBek2RAIhAOCT5hX+Ltr/5wbn\n"
    "itqINpTsZSEMkAjVfwVEZ7wc7kfj\n"
    "-----END CERTIFICATE-----\n";
static const char test_key[] =
    "-----BEGIN PRIVATE KEY-----\n"
    "MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg+fz+4d3JVuuB8mJq\n"
    "RmUTztijD/KE93ZlZvQnJQ7H7CWhRANCAATxyqakzzyz7yvCAXNYSLYjdy+ddcDd\n"
    "B4krnrO7sFXwzTIFyQvTX5s5PE/mmSqcb0t1GZSktEkC1NoYAi1sg6nL\n"
    "-----END PRIVATE KEY-----\n";

/* Write `text` to `dir`/`name`. */
static void write_file(const char *dir, const char *name, const char *text) {
  char path[256];
  snprintf(path, sizeof(path), "%s/%s", dir, name);
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  assert_int_equal(fputs(text, f) >= 0, 1);
  assert_int_equal(fclose(f), 0);
}

/* A server on a free loopback port with --web-config `dir`/web.yml. */
static int serve_web(struct prom_http *h, const char *dir) {
  int fd;
  int port = taken_port(&fd);
  close(fd);
  char addr[64], err[300] = "", web[256];
  snprintf(addr, sizeof(addr), "127.0.0.1:%d", port);
  snprintf(web, sizeof(web), "%s/web.yml", dir);
  struct prom_http_config cfg = {web, 0};
  int rc = prom_http_start_with(h, "p", addr, &cfg, err, sizeof(err));
  if (rc != 0)
    printf("# %s\n", err);
  assert_int_equal(rc, 0);
  return port;
}

/* CPU time of the server's thread, seconds. */
static double server_cpu_s(struct prom_http *h) {
  clockid_t id;
  struct timespec ts;
  assert_int_equal(pthread_getcpuclockid(h->thread, &id), 0);
  assert_int_equal(clock_gettime(id, &ts), 0);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Clients that send the first byte of a TLS handshake (a ClientHello's
 * record type, 0x16) and wait: libmicrohttpd's handshake stays pending,
 * its MHD_get_timeout says 0, and a loop that trusts it spins. Over 5 s
 * (each holder is cut at the request deadline and comes back) the server
 * thread must stay far from a core. */
static void prom_http__tls_holders(void **state) {
  (void)state;
  char dir[] = "/tmp/prom_http_tls.XXXXXX";
  assert_non_null(mkdtemp(dir));
  write_file(dir, "c.pem", test_cert);
  write_file(dir, "k.pem", test_key);
  write_file(dir, "web.yml",
             "tls_server_config:\n  cert_file: c.pem\n  key_file: k.pem\n");
  struct prom_http h;
  int port = serve_web(&h, dir);
  assert_int_equal(prom_http_publish(&h, "m 1\n", 4), 0);
  enum { N = 8 };
  int s[N];
  char from[N][32];
  for (int i = 0; i < N; i++) {
    snprintf(from[i], sizeof(from[i]), "127.0.0.%d", 2 + i % 4);
    s[i] = connect_from(from[i], port, 0);
    assert_int_equal(send(s[i], "\x16", 1, MSG_NOSIGNAL), 1);
  }
  double c0 = server_cpu_s(&h), t0 = now_s();
  int again = 0;
  while (now_s() < t0 + 5.0) {
    for (int i = 0; i < N; i++)
      if (closed_by_server(s[i], 0)) { /* the request deadline: back */
        close(s[i]);
        s[i] = connect_from(from[i], port, 0);
        assert_int_equal(send(s[i], "\x16", 1, MSG_NOSIGNAL), 1);
        again++;
      }
    struct timespec pause = {0, 100 * 1000 * 1000};
    nanosleep(&pause, NULL);
  }
  double used = server_cpu_s(&h) - c0;
  printf("# %d TLS holders (%d came back): server thread %.3f s CPU in 5 s\n",
         N, again, used);
  for (int i = 0; i < N; i++)
    close(s[i]);
  prom_http_stop(&h);
  char path[256];
  static const char *const names[] = {"c.pem", "k.pem", "web.yml"};
  for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
    snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
    remove(path);
  }
  rmdir(dir);
  assert_true(used < 0.5);
}

/* ---- the sink: duplicates said ---- */

static char said_lines[8][600];
static int n_said;
static void capture_log(enum log_level level, const char *message) {
  if (n_said < 8)
    snprintf(said_lines[n_said++], sizeof(said_lines[0]), "%d %s", (int)level,
             message);
}

static void pass_of(struct prom_http_sink *s, int copies) {
  struct metric m;
  assert_int_equal(s->base.begin(&s->base), 0);
  for (int i = 0; i < copies; i++) {
    metric_init(&m, "drm_device", 1);
    metric_add_tag(&m, "device", "0000:03:00.0");
    metric_add_int(&m, "clients", "objects", (uint64_t)i);
    assert_int_equal(s->base.write(&s->base, &m), 0);
  }
  assert_int_equal(s->base.end(&s->base), 0);
}

/* A sample twice in a pass (a second card link to the same device) is
 * said on the log once when it starts, not every pass, and once when it
 * stops. */
static void prom_http_sink__duplicates_said(void **state) {
  (void)state;
  char *buf = NULL;
  size_t size = 0;
  FILE *f = open_memstream(&buf, &size);
  assert_non_null(f);
  struct prom_http_sink s;
  prom_http_sink_init(&s, "drm_device", f, NULL);
  n_said = 0;
  log_set_sink(capture_log, LOG_LEVEL_DEBUG);
  pass_of(&s, 2);
  pass_of(&s, 2);
  pass_of(&s, 1);
  pass_of(&s, 1);
  log_set_sink(NULL, LOG_LEVEL_INFO);
  assert_int_equal(n_said, 2);
  assert_string_equal(said_lines[0],
                      "3 drm_device: prometheus: exposition: 1 sample(s) with "
                      "the name and labels of another dropped this pass; "
                      "first: drm_device_clients{device=\"0000:03:00.0\"}");
  assert_string_equal(said_lines[1], "6 drm_device: prometheus: exposition: "
                                     "no duplicate samples any more");
  prom_http_sink_fini(&s);
  fclose(f);
  free(buf);
}

/* --listen with no host is every address: one [::] socket that takes IPv4
 * too where the kernel has IPv6 (a v4 client reaches it), else 0.0.0.0. */
static void prom_http_listen_fd__every_address(void **state) {
  (void)state;
  assert_true(prom_http_addr_every(":9470"));
  assert_true(prom_http_addr_every(""));
  assert_false(prom_http_addr_every("127.0.0.1:9470"));
  assert_false(prom_http_addr_every("0.0.0.0:9470"));
  assert_false(prom_http_addr_every("[::]:9470"));
  struct sockaddr_storage ss;
  socklen_t len;
  char err[200];
  /* a free port: the kernel's pick for a socket closed at once */
  int pick = socket(AF_INET, SOCK_STREAM, 0);
  struct sockaddr_in any = {.sin_family = AF_INET};
  socklen_t pl = sizeof(any);
  assert_int_equal(bind(pick, (struct sockaddr *)&any, sizeof(any)), 0);
  assert_int_equal(getsockname(pick, (struct sockaddr *)&any, &pl), 0);
  close(pick);
  char text[16];
  snprintf(text, sizeof(text), ":%u", ntohs(any.sin_port));
  assert_int_equal(prom_http_parse_addr(text, &ss, &len, err, sizeof(err)), 0);
  int fd = prom_http_listen_fd(&ss, len, true, text, err, sizeof(err));
  assert_true(fd >= 0);
  struct sockaddr_storage got;
  socklen_t n = sizeof(got);
  assert_int_equal(getsockname(fd, (struct sockaddr *)&got, &n), 0);
  int probe = socket(AF_INET6, SOCK_STREAM, 0);
  if (probe >= 0) { /* IPv6 here: [::], IPv4 mapped */
    close(probe);
    assert_int_equal(got.ss_family, AF_INET6);
    int v6only = 1;
    socklen_t o = sizeof(v6only);
    assert_int_equal(getsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &v6only, &o), 0);
    assert_int_equal(v6only, 0);
  } else {
    assert_int_equal(got.ss_family, AF_INET);
  }
  uint16_t port = got.ss_family == AF_INET6
                      ? ((struct sockaddr_in6 *)&got)->sin6_port
                      : ((struct sockaddr_in *)&got)->sin_port;
  struct sockaddr_in v4 = {.sin_family = AF_INET, .sin_port = port};
  v4.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  int c = socket(AF_INET, SOCK_STREAM, 0);
  assert_true(c >= 0);
  assert_int_equal(connect(c, (struct sockaddr *)&v4, sizeof(v4)), 0);
  close(c);
  close(fd);
  /* 0.0.0.0 given: IPv4 alone */
  snprintf(text, sizeof(text), "0.0.0.0:%u", ntohs(any.sin_port));
  assert_int_equal(prom_http_parse_addr(text, &ss, &len, err, sizeof(err)), 0);
  fd = prom_http_listen_fd(&ss, len, false, text, err, sizeof(err));
  assert_true(fd >= 0);
  n = sizeof(got);
  assert_int_equal(getsockname(fd, (struct sockaddr *)&got, &n), 0);
  assert_int_equal(got.ss_family, AF_INET);
  close(fd);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(prom_http_parse_addr__valid),
      cmocka_unit_test(prom_http_parse_addr__errors),
      cmocka_unit_test(prom_http_listen_fd__every_address),
      cmocka_unit_test(prom_http_start__errors),
      cmocka_unit_test(prom_http__serves_metrics),
      cmocka_unit_test(prom_http_sink__duplicates_said),
      cmocka_unit_test(prom_http__keep_alive),
      cmocka_unit_test(prom_http__gzip),
      cmocka_unit_test(prom_http__max_age),
      cmocka_unit_test(prom_http__bodies_refused),
      cmocka_unit_test(prom_http__slowloris),
      cmocka_unit_test(prom_http__stalled_readers),
      cmocka_unit_test(prom_http__slow_reader),
      cmocka_unit_test(prom_http__out_of_descriptors),
      cmocka_unit_test(prom_http__tls_holders),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
