/*
 * prom_http_web.c: the web configuration file and the basic-auth users,
 * checked with crypt_r (libcrypt: libxcrypt on Debian 12); see
 * prom_http_web.h.
 */
#include "common/http/prom_http_web.h"

#include "common/core/fileio.h"

#include <crypt.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct prom_http_user {
  char name[PROM_HTTP_USER_MAX + 1];
  char hash[PROM_HTTP_HASH_MAX + 1];
};

struct prom_http_users {
  struct prom_http_user *v;
  size_t n, cap;
  struct crypt_data *cd; /* for the checks at load; about 32 KiB */
};

void prom_http_users_free(struct prom_http_users *u) {
  if (u == NULL)
    return;
  free(u->v);
  free(u->cd);
  free(u);
}

void prom_http_web_fini(struct prom_http_web *w) {
  free(w->tls_cert);
  free(w->tls_key);
  prom_http_users_free(w->users);
  memset(w, 0, sizeof(*w));
}

bool prom_http_same(const char *a, const char *b) {
  size_t la = strlen(a), lb = strlen(b);
  unsigned char d = la != lb;
  for (size_t i = 0; i < la && i < lb; i++)
    d |= (unsigned char)(a[i] ^ b[i]);
  return d == 0;
}

/* Bounds on a hash's work factor: each check (and the validation below,
 * at load) computes one hash, so a cost past these makes every scrape,
 * or the start, take seconds to hours (found by fuzz_prom_http_web: a
 * bcrypt "$2y$20$" took minutes). bcrypt: 2^cost rounds, htpasswd's
 * default 5, node_exporter's docs 10; sha256/512-crypt: rounds=N, glibc's
 * default 5000. */
#define PROM_HTTP_BCRYPT_COST_MAX 14
#define PROM_HTTP_SHA_ROUNDS_MAX 1000000UL

/* The decimal number of `n` digits at `s` (no sign, no space), or
 * ULONG_MAX when there is none or it is too long to matter. */
static unsigned long prom_http_digits(const char *s, size_t *n) {
  unsigned long v = 0;
  size_t i = 0;
  while (s[i] >= '0' && s[i] <= '9') {
    if (v > 100000000UL)
      v = 1000000000UL; /* far past any bound: saturate */
    else
      v = v * 10 + (unsigned long)(s[i] - '0');
    i++;
  }
  *n = i;
  return i == 0 ? ULONG_MAX : v;
}

/*
 * NULL when `hash` is a method and work factor this exporter takes, or why
 * not. Only bcrypt ($2a$, $2b$, $2y$: libxcrypt crypt-bcrypt.c) within
 * PROM_HTTP_BCRYPT_COST_MAX, and sha256/sha512-crypt ($5$, $6$:
 * crypt-sha256.c, crypt-sha512.c) within PROM_HTTP_SHA_ROUNDS_MAX: every
 * other method libxcrypt knows ($md5,rounds=N$, $sha1$N$, $y$, $gy$, $7$,
 * $1$, DES ...) has a work factor unchecked here or none worth having.
 */
static const char *prom_http_hash_method(const char *hash) {
  size_t n;
  if (hash[0] == '$' && hash[1] == '2' &&
      (hash[2] == 'a' || hash[2] == 'b' || hash[2] == 'y') && hash[3] == '$') {
    unsigned long cost = prom_http_digits(hash + 4, &n);
    if (n != 2 || hash[6] != '$')
      return "a bcrypt hash takes a two-digit cost ($2y$10$...)";
    if (cost > PROM_HTTP_BCRYPT_COST_MAX)
      return "bcrypt cost above 14: every check would take seconds "
             "(htpasswd -nBC 10 USER makes one)";
    return NULL;
  }
  if (hash[0] == '$' && (hash[1] == '5' || hash[1] == '6') && hash[2] == '$') {
    if (strncmp(hash + 3, "rounds=", 7) != 0)
      return NULL; /* the default, 5000 */
    unsigned long rounds = prom_http_digits(hash + 10, &n);
    if (n == 0 || hash[10 + n] != '$')
      return "sha-crypt rounds=N takes a decimal number";
    if (rounds > PROM_HTTP_SHA_ROUNDS_MAX)
      return "sha-crypt rounds above 1000000: every check would take seconds";
    return NULL;
  }
  return "a hash method not taken here: bcrypt ($2y$, cost up to 14: "
         "htpasswd -nBC 10 USER) or sha-crypt ($6$ or $5$, rounds up to "
         "1000000: mkpasswd -m sha-512)";
}

/* Add a user; NULL or the reason it is refused. */
static const char *prom_http_users_add(struct prom_http_users *u,
                                       const char *name, const char *hash) {
  if (strlen(name) > PROM_HTTP_USER_MAX)
    return "user name longer than 64 bytes";
  if (strlen(hash) > PROM_HTTP_HASH_MAX)
    return "hash longer than 256 bytes";
  if (strchr(name, ':') != NULL)
    return "a user name with ':' can never log in (basic authentication "
           "splits the user from the password at the first ':')";
  if (hash[0] != '$')
    return "not a crypt(3) hash (htpasswd -nBC 10 USER makes one)";
  for (size_t i = 0; i < u->n; i++)
    if (strcmp(u->v[i].name, name) == 0)
      return "user named twice";
  if (u->n == PROM_HTTP_USERS_MAX)
    return "more than 1024 users";
  const char *method = prom_http_hash_method(hash);
  if (method != NULL)
    return method;
  /* a setting libcrypt does not know gives "*0" or NULL */
  memset(u->cd, 0, sizeof(*u->cd));
  const char *r = crypt_r("", hash, u->cd);
  if (r == NULL || r[0] == '*' || strncmp(r, hash, 3) != 0)
    return "a hash method libcrypt does not know";
  if (u->n == u->cap) {
    size_t cap = u->cap ? 2 * u->cap : 8;
    struct prom_http_user *g = realloc(u->v, cap * sizeof(*g));
    if (g == NULL)
      return "out of memory";
    u->v = g;
    u->cap = cap;
  }
  snprintf(u->v[u->n].name, sizeof(u->v[u->n].name), "%s", name);
  snprintf(u->v[u->n].hash, sizeof(u->v[u->n].hash), "%s", hash);
  u->n++;
  return NULL;
}

/* FNV-1a of a name: which user's hash an unknown name is checked
 * against. */
static size_t prom_http_name_hash(const char *name) {
  uint32_t h = 2166136261u;
  for (const unsigned char *p = (const unsigned char *)name; *p; p++)
    h = (h ^ *p) * 16777619u;
  return h;
}

bool prom_http_users_verify(const struct prom_http_users *u, const char *user,
                            const char *password, struct crypt_data *cd) {
  size_t i = 0;
  while (i < u->n && strcmp(u->v[i].name, user) != 0)
    i++;
  bool known = i < u->n;
  /* An unknown name costs what a known one does: the password is hashed
   * with the setting (method, cost, salt) of a user the name picks, so
   * that the time of a 401 does not tell which names exist, even with
   * users of different costs. */
  const char *hash = u->v[known ? i : prom_http_name_hash(user) % u->n].hash;
  memset(cd, 0, sizeof(*cd));
  const char *r = crypt_r(password, hash, cd);
  return r != NULL && prom_http_same(r, hash) && known;
}

/* ---- the file ---- */

/* Trim spaces and tabs at both ends of [*s, *e). */
static void prom_http_trim(const char **s, const char **e) {
  while (*s < *e && (**s == ' ' || **s == '\t'))
    (*s)++;
  while (*e > *s && ((*e)[-1] == ' ' || (*e)[-1] == '\t' || (*e)[-1] == '\r'))
    (*e)--;
}

/* The value of [s, e): quoted ('...' or "...", taken as written, no
 * escapes) or plain (up to a " #" comment). NULL or the reason. */
static const char *prom_http_value(const char *s, const char *e, char *out,
                                   size_t size) {
  prom_http_trim(&s, &e);
  if (s < e && (*s == '\'' || *s == '"')) {
    const char *close = memchr(s + 1, *s, (size_t)(e - s - 1));
    if (close == NULL)
      return "no closing quote";
    const char *rest = close + 1;
    prom_http_trim(&rest, &e);
    if (rest < e && *rest != '#')
      return "text after the closing quote";
    if (*s == '"' && memchr(s + 1, '\\', (size_t)(close - s - 1)) != NULL)
      return "escapes in double quotes are not supported";
    s++;
    e = close;
  } else {
    for (const char *p = s; p < e; p++)
      if (*p == '#' && (p == s || p[-1] == ' ' || p[-1] == '\t')) {
        e = p;
        prom_http_trim(&s, &e);
        break;
      }
  }
  if ((size_t)(e - s) >= size)
    return "value too long";
  if (memchr(s, '\0', (size_t)(e - s)) != NULL)
    return "a NUL byte";
  memcpy(out, s, (size_t)(e - s));
  out[e - s] = '\0';
  return NULL;
}

/* `path` made relative to `dir` when it is relative; owned, or NULL. */
static char *prom_http_path(const char *dir, const char *path) {
  size_t n = strlen(path) + (dir ? strlen(dir) : 0) + 2;
  char *out = malloc(n);
  if (out == NULL)
    return NULL;
  if (dir != NULL && path[0] != '/')
    snprintf(out, n, "%s/%s", dir, path);
  else
    snprintf(out, n, "%s", path);
  return out;
}

int prom_http_web_parse(const char *text, size_t len, const char *dir,
                        struct prom_http_web *out, char *err, size_t err_size) {
  memset(out, 0, sizeof(*out));
  struct prom_http_web w = {NULL, NULL, NULL};
  enum { NONE, TLS, USERS } section = NONE;
  const char *p = text, *end = text + len;
  size_t line = 0;
  const char *why = NULL;
  char key[PROM_HTTP_USER_MAX + 64], value[PROM_HTTP_HASH_MAX + 512];
  while (p < end && why == NULL) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *e = nl ? nl : end, *s = p;
    p = nl ? nl + 1 : end;
    line++;
    bool indented = s < e && (*s == ' ' || *s == '\t');
    prom_http_trim(&s, &e);
    if (s == e || *s == '#')
      continue;
    const char *colon = memchr(s, ':', (size_t)(e - s));
    if (colon == NULL) {
      why = "expected \"key: value\"";
      break;
    }
    /* a quoted key may hold ':' ("'a:b': ..."): its closing quote first */
    if (*s == '\'' || *s == '"') {
      const char *q = memchr(s + 1, *s, (size_t)(e - s - 1));
      colon = q ? memchr(q, ':', (size_t)(e - q)) : NULL;
      if (colon == NULL) {
        why = "expected \"key: value\"";
        break;
      }
    }
    if ((why = prom_http_value(s, colon, key, sizeof(key))) != NULL ||
        (why = prom_http_value(colon + 1, e, value, sizeof(value))) != NULL)
      break;
    if (key[0] == '\0') {
      why = "an empty key";
      break;
    }
    if (!indented) {
      if (value[0] != '\0')
        why = "a section takes its entries on the lines below";
      else if (strcmp(key, "tls_server_config") == 0)
        section = TLS;
      else if (strcmp(key, "basic_auth_users") == 0) {
        section = USERS;
        if (w.users == NULL) {
          w.users = calloc(1, sizeof(*w.users));
          if (w.users != NULL)
            w.users->cd = calloc(1, sizeof(*w.users->cd));
          if (w.users == NULL || w.users->cd == NULL)
            why = "out of memory";
        }
      } else
        why = "unknown section (known: tls_server_config, "
              "basic_auth_users)";
      continue;
    }
    if (section == NONE)
      why = "an indented entry outside a section";
    else if (section == USERS)
      why = prom_http_users_add(w.users, key, value);
    else if (strcmp(key, "cert_file") == 0 || strcmp(key, "key_file") == 0) {
      char **slot = key[0] == 'c' ? &w.tls_cert : &w.tls_key;
      if (*slot != NULL)
        why = "named twice";
      else if (value[0] == '\0')
        why = "an empty path";
      else if ((*slot = prom_http_path(dir, value)) == NULL)
        why = "out of memory";
    } else
      why = "not supported here (tls_server_config takes cert_file and "
            "key_file)";
  }
  if (why == NULL && (w.tls_cert == NULL) != (w.tls_key == NULL)) {
    line = 0;
    why = "tls_server_config needs both cert_file and key_file";
  }
  if (why == NULL && w.users != NULL && w.users->n == 0) {
    line = 0;
    why = "basic_auth_users lists no user";
  }
  if (why != NULL) {
    if (line > 0)
      snprintf(err, err_size, "line %zu: %s", line, why);
    else
      snprintf(err, err_size, "%s", why);
    prom_http_web_fini(&w);
    return strcmp(why, "out of memory") == 0 ? -ENOMEM : -EINVAL;
  }
  *out = w;
  return 0;
}

int prom_http_web_read(const char *path, char **out, size_t *len,
                       const char **why) {
  struct fileio_buf buf;
  fileio_buf_init(&buf);
  /* O_NONBLOCK and regular files only (fileio.h): a FIFO named here would
   * otherwise block the start for ever in open() or read() */
  int rc = fileio_read_at(AT_FDCWD, path, &buf, PROM_HTTP_WEB_FILE_MAX);
  *why = rc == -EINVAL  ? "not a regular file"
         : rc == -E2BIG ? "larger than 1 MiB"
         : rc < 0       ? strerror(-rc)
                        : NULL;
  if (rc < 0) {
    fileio_buf_fini(&buf);
    return rc;
  }
  *out = buf.data; /* taken over */
  *len = buf.len;
  return 0;
}

int prom_http_web_load(const char *path, struct prom_http_web *out, char *err,
                       size_t err_size) {
  memset(out, 0, sizeof(*out));
  char *buf = NULL;
  size_t len = 0;
  const char *fail = NULL;
  int rc = prom_http_web_read(path, &buf, &len, &fail);
  if (rc < 0) {
    snprintf(err, err_size, "--web-config=%.200s: %s", path, fail);
    return rc;
  }
  char dir[4096] = ".", why[200] = "";
  const char *slash = strrchr(path, '/');
  if (slash != NULL)
    snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path + (slash == path)),
             path);
  rc = prom_http_web_parse(buf, len, dir, out, why, sizeof(why));
  free(buf);
  if (rc < 0)
    snprintf(err, err_size, "--web-config=%.200s: %s", path,
             why[0] ? why : strerror(-rc));
  return rc;
}
