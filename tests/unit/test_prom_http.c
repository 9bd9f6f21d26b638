/*
 * test_prom_http.c: --listen's address syntax (prom_http_parse_addr), the
 * errors of prom_http_start (bad address, port in use: named with the
 * errno text), and a /metrics answer read over a loopback socket.
 */
#include "common/host/prom_http.h"

#include <arpa/inet.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
  /* the port is free again: the listening socket was closed */
  assert_int_equal(prom_http_start(&h, "p", addr, err, sizeof(err)), 0);
  prom_http_stop(&h);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(prom_http_parse_addr__valid),
      cmocka_unit_test(prom_http_parse_addr__errors),
      cmocka_unit_test(prom_http_start__errors),
      cmocka_unit_test(prom_http__serves_metrics),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
