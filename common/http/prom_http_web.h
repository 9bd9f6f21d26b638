/*
 * prom_http_web.h: --web-config=FILE, TLS and basic authentication for
 * --listen, in the layout of node_exporter's web configuration file (the
 * part of it this exporter implements; anything else is refused by name):
 *
 *   tls_server_config:
 *     cert_file: server.crt      # PEM, relative to the file's directory
 *     key_file: server.key
 *   basic_auth_users:
 *     alice: $2y$10$...          # a crypt(3) hash: htpasswd -nBC 10 alice
 *
 * Keys at the left margin, their entries indented, "key: value" with the
 * value plain or in quotes, '#' comments. Hashes are bcrypt ($2y$, $2b$,
 * $2a$, cost up to 14) or sha-crypt ($6$, $5$, rounds up to 1000000):
 * methods whose work factor is checked here, so that no hash makes a check
 * take seconds; each is tried once when the file is read, so a bad one
 * stops the start. A user name may not hold ':' (basic authentication
 * splits there).
 */
#ifndef COMMON_HOST_PROM_HTTP_WEB_H
#define COMMON_HOST_PROM_HTTP_WEB_H

#include <stdbool.h>
#include <stddef.h>

/* Longest user name and hash taken; the most users. */
#define PROM_HTTP_USER_MAX 64
#define PROM_HTTP_HASH_MAX 256
#define PROM_HTTP_USERS_MAX 1024

struct prom_http_users;

struct prom_http_web {
  char *tls_cert;                /* owned path, or NULL */
  char *tls_key;                 /* owned path, or NULL; both or neither */
  struct prom_http_users *users; /* owned, or NULL: no authentication */
};

/*
 * Parse `len` bytes of `text` into `out` (zeroed first; on error left
 * empty). Relative paths are taken relative to `dir` (NULL: as they are).
 * Returns 0, -ENOMEM, or -EINVAL with `err` naming the line and what is
 * wrong ("line 3: basic_auth_users: bob: not a crypt(3) hash").
 */
int prom_http_web_parse(const char *text, size_t len, const char *dir,
                        struct prom_http_web *out, char *err, size_t err_size);

/* The most read of a --web-config file, a certificate or a key. */
#define PROM_HTTP_WEB_FILE_MAX (1u << 20)

/*
 * Read the whole regular file `path` (at most PROM_HTTP_WEB_FILE_MAX)
 * into `*out`
 * (returned owned, NUL-terminated) and `*len`, opened O_NONBLOCK: a FIFO
 * or a device fails at once instead of blocking the start. Returns 0, or a
 * negative errno (-EINVAL: not a regular file, -E2BIG: too large) with
 * `*why` saying it in words.
 */
int prom_http_web_read(const char *path, char **out, size_t *len,
                       const char **why);

/* Read `path` (prom_http_web_read) and parse it; `err` names the path. */
int prom_http_web_load(const char *path, struct prom_http_web *out, char *err,
                       size_t err_size);

void prom_http_web_fini(struct prom_http_web *w);

/*
 * True when `user` is one of `u` and `password` matches its hash (crypt_r
 * into the caller's `cd`: thread-safe, `u` is not changed after the
 * load). An unknown user costs the same work as a known one (a hash of
 * the same method and cost), so that the time of a refusal does not tell
 * which names exist.
 */
struct crypt_data;
bool prom_http_users_verify(const struct prom_http_users *u, const char *user,
                            const char *password, struct crypt_data *cd);

/* a equals b, compared without stopping at the first difference. */
bool prom_http_same(const char *a, const char *b);

/* Free users taken from a prom_http_web; NULL is a no-op. */
void prom_http_users_free(struct prom_http_users *u);

#endif
