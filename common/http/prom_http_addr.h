/*
 * prom_http_addr.h: the listening socket of --listen (prom_http.c): ours,
 * so that a bad address or a port in use gives the errno of the call
 * that failed.
 */
#ifndef COMMON_HTTP_PROM_HTTP_ADDR_H
#define COMMON_HTTP_PROM_HTTP_ADDR_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>

/* "127.0.0.1:9470" or "[::1]:9470" into `out`. */
void prom_http_addr_text(const struct sockaddr_storage *ss, char *out,
                         size_t size);

/* Whether --listen's `text` names no host (":9470", or "" for the
 * default port): every address, IPv4 and IPv6, as node_exporter's
 * --web.listen-address=:9100 (Go listens on [::] with IPv4 mapped). */
bool prom_http_addr_every(const char *text);

/* A non-blocking socket bound to `ss` and listening, or -errno with `err`
 * saying "WHERE: STEP: errno text" (`where`: the address as text). With
 * `every` (ss is 0.0.0.0): [::] taking IPv4 too (IPV6_V6ONLY 0), or
 * 0.0.0.0 alone where the kernel has no IPv6. */
int prom_http_listen_fd(const struct sockaddr_storage *ss, socklen_t len,
                        bool every, const char *where, char *err,
                        size_t err_size);

#endif
