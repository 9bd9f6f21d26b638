/*
 * prom_http_addr.c: --listen's address (prom_http_parse_addr, prom_http.h)
 * and the listening socket of our own (prom_http_addr.h).
 */
#include "common/http/prom_http_addr.h"
#include "common/http/prom_http.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
void prom_http_addr_text(const struct sockaddr_storage *ss, char *out,
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

bool prom_http_addr_every(const char *text) {
  return text[0] == '\0' || text[0] == ':';
}

/* A socket of `family` bound to `sa` and listening; -errno with `*step`
 * the call that failed. `v6only` sets IPV6_V6ONLY on an IPv6 socket. */
static int prom_http_bind(int family, const struct sockaddr *sa, socklen_t len,
                          int v6only, const char **step) {
  int one = 1;
  *step = "socket";
  int fd = socket(family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd < 0)
    return -errno;
  *step = "setsockopt SO_REUSEADDR";
  if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) == 0) {
    *step = "setsockopt IPV6_V6ONLY";
    if (family != AF_INET6 || setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &v6only,
                                         sizeof(v6only)) == 0) {
      *step = "bind";
      if (bind(fd, sa, len) == 0) {
        *step = "listen";
        if (listen(fd, 128) == 0)
          return fd;
      }
    }
  }
  int e = errno;
  close(fd);
  return -e;
}

int prom_http_listen_fd(const struct sockaddr_storage *ss, socklen_t len,
                        bool every, const char *where, char *err,
                        size_t err_size) {
  const char *step;
  int fd;
  if (every) {
    /* [::] with IPv4 mapped: one socket for every address */
    struct sockaddr_in6 any6;
    memset(&any6, 0, sizeof(any6));
    any6.sin6_family = AF_INET6;
    any6.sin6_addr = in6addr_any;
    any6.sin6_port = ((const struct sockaddr_in *)ss)->sin_port;
    fd = prom_http_bind(AF_INET6, (const struct sockaddr *)&any6, sizeof(any6),
                        0, &step);
    /* no IPv6 in this kernel or namespace: 0.0.0.0 alone */
    if (fd != -EAFNOSUPPORT && fd != -EADDRNOTAVAIL)
      goto done;
  }
  /* [::] is IPv6 only: 0.0.0.0 is a second --listen away */
  fd =
      prom_http_bind(ss->ss_family, (const struct sockaddr *)ss, len, 1, &step);
done:
  if (fd < 0)
    snprintf(err, err_size, "%s: %s: %s", where, step, strerror(-fd));
  return fd;
}
