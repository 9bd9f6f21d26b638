/*
 * prom_http_addr.h: the listening socket of --listen (prom_http.c): ours,
 * so that a bad address or a port in use gives the errno of the call
 * that failed.
 */
#ifndef COMMON_HTTP_PROM_HTTP_ADDR_H
#define COMMON_HTTP_PROM_HTTP_ADDR_H

#include <stddef.h>
#include <sys/socket.h>

/* "127.0.0.1:9470" or "[::1]:9470" into `out`. */
void prom_http_addr_text(const struct sockaddr_storage *ss, char *out,
                         size_t size);

/* A non-blocking socket bound to `ss` and listening, or -errno with `err`
 * saying "WHERE: STEP: errno text" (`where`: the address as text). */
int prom_http_listen_fd(const struct sockaddr_storage *ss, socklen_t len,
                        const char *where, char *err, size_t err_size);

#endif
