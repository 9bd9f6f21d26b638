/*
 * test_prom_http_web.c: --web-config (prom_http_web.h): the file's layout
 * (sections, entries, quotes, comments, relative paths), every refusal
 * named by its line, and the users' passwords checked with crypt_r.
 */
#include "common/http/prom_http_web.h"

#include <crypt.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define NOT_TAKEN                                                              \
  "a hash method not taken here: bcrypt ($2y$, cost up to 14: htpasswd "       \
  "-nBC 10 USER) or sha-crypt ($6$ or $5$, rounds up to 1000000: mkpasswd -m " \
  "sha-512)"

/* SHA-512 crypt of `password` with a fixed salt. */
static const char *hash_of(const char *password, char *out, size_t size) {
  struct crypt_data cd;
  memset(&cd, 0, sizeof(cd));
  const char *h = crypt_r(password, "$6$testsalt$", &cd);
  assert_non_null(h);
  snprintf(out, size, "%s", h);
  return out;
}

static void prom_http_web_parse__valid(void **state) {
  (void)state;
  char h1[200], h2[200], text[1024];
  hash_of("secret", h1, sizeof(h1));
  hash_of("other pass", h2, sizeof(h2));
  snprintf(text, sizeof(text),
           "# node_exporter's layout\n"
           "tls_server_config:\n"
           "  cert_file: server.crt   # relative to the file\n"
           "  key_file: \"/etc/x/server.key\"\n"
           "\n"
           "basic_auth_users:\n"
           "  alice: %s\n"
           "  'bob': '%s'\r\n",
           h1, h2);
  struct prom_http_web w;
  char err[200] = "";
  assert_int_equal(
      prom_http_web_parse(text, strlen(text), "/etc/gpu", &w, err, sizeof(err)),
      0);
  assert_string_equal(w.tls_cert, "/etc/gpu/server.crt");
  assert_string_equal(w.tls_key, "/etc/x/server.key");
  assert_non_null(w.users);
  struct crypt_data cd;
  assert_true(prom_http_users_verify(w.users, "alice", "secret", &cd));
  assert_true(prom_http_users_verify(w.users, "alice", "secret", &cd));
  assert_false(prom_http_users_verify(w.users, "alice", "secret ", &cd));
  assert_false(prom_http_users_verify(w.users, "alice", "secre", &cd));
  assert_false(prom_http_users_verify(w.users, "alice", "", &cd));
  assert_true(prom_http_users_verify(w.users, "bob", "other pass", &cd));
  assert_false(prom_http_users_verify(w.users, "bob", "secret", &cd));
  /* an unknown user, even with a password that is some user's */
  assert_false(prom_http_users_verify(w.users, "carol", "secret", &cd));
  assert_false(prom_http_users_verify(w.users, "carol", "other pass", &cd));
  assert_false(prom_http_users_verify(w.users, "", "secret", &cd));
  prom_http_web_fini(&w);
  /* users only: no TLS */
  snprintf(text, sizeof(text), "basic_auth_users:\n  alice: %s\n", h1);
  assert_int_equal(
      prom_http_web_parse(text, strlen(text), NULL, &w, err, sizeof(err)), 0);
  assert_null(w.tls_cert);
  assert_null(w.tls_key);
  prom_http_web_fini(&w);
  /* an empty file: nothing asked */
  assert_int_equal(prom_http_web_parse("", 0, NULL, &w, err, sizeof(err)), 0);
  assert_null(w.users);
  prom_http_web_fini(&w);
}

static void prom_http_web_parse__errors(void **state) {
  (void)state;
  char h1[200];
  hash_of("secret", h1, sizeof(h1));
  char twice[600];
  snprintf(twice, sizeof(twice), "basic_auth_users:\n  a: %s\n  a: %s\n", h1,
           h1);
  static const struct {
    const char *text, *err;
  } fixed[] = {
      {"http_server_config:\n  http2: false\n",
       "line 1: unknown section (known: tls_server_config, basic_auth_users)"},
      {"tls_server_config:\n  cert_file: a\n",
       "tls_server_config needs both cert_file and key_file"},
      {"tls_server_config:\n  cert_file: a\n  key_file: b\n  min_version: "
       "TLS13\n",
       "line 4: not supported here (tls_server_config takes cert_file and "
       "key_file)"},
      {"tls_server_config:\n  cert_file: a\n  cert_file: b\n",
       "line 3: named twice"},
      {"basic_auth_users:\n  alice: secret\n",
       "line 2: not a crypt(3) hash (htpasswd -nBC 10 USER makes one)"},
      {"basic_auth_users:\n  alice: $2y$10$!!!!!!!!!!!!!!!!!!!!!!\n",
       "line 2: a hash method libcrypt does not know"},
      /* methods libxcrypt takes at any cost: refused, whatever the cost */
      {"basic_auth_users:\n  alice: $9$nothing\n", "line 2: " NOT_TAKEN},
      {"basic_auth_users:\n  alice: $md5,rounds=4000000$salt$x\n",
       "line 2: " NOT_TAKEN},
      {"basic_auth_users:\n  alice: $sha1$4294967295$salt$x\n",
       "line 2: " NOT_TAKEN},
      {"basic_auth_users:\n  alice: $y$j9T$salt$x\n", "line 2: " NOT_TAKEN},
      {"basic_auth_users:\n  alice: $gy$j9T$salt$x\n", "line 2: " NOT_TAKEN},
      {"basic_auth_users:\n  alice: $7$CU..../....salt$x\n",
       "line 2: " NOT_TAKEN},
      {"basic_auth_users:\n  alice: $1$salt$x\n", "line 2: " NOT_TAKEN},
      {"basic_auth_users:\n  alice: $2x$10$abcdefghijklmnopqrstuu\n",
       "line 2: " NOT_TAKEN},
      {"basic_auth_users:\n  alice: $2y$1$abcdefghijklmnopqrstuu\n",
       "line 2: a bcrypt hash takes a two-digit cost ($2y$10$...)"},
      {"basic_auth_users:\n  alice: $6$rounds=+5000$salt$x\n",
       "line 2: sha-crypt rounds=N takes a decimal number"},
      {"basic_auth_users:\n  alice: $6$rounds=99999999999999999999999$s$x\n",
       "line 2: sha-crypt rounds above 1000000: every check would take "
       "seconds"},
      /* basic auth splits user and password at the first ':' */
      {"basic_auth_users:\n  'a:b': $6$salt$x\n",
       "line 2: a user name with ':' can never log in (basic authentication "
       "splits the user from the password at the first ':')"},
      /* a work factor that would take minutes per check (and at load) */
      {"basic_auth_users:\n  alice: $2y$20$abcdefghijklmnopqrstuu\n",
       "line 2: bcrypt cost above 14: every check would take seconds "
       "(htpasswd -nBC 10 USER makes one)"},
      {"basic_auth_users:\n  alice: $6$rounds=999999999$salt$x\n",
       "line 2: sha-crypt rounds above 1000000: every check would take "
       "seconds"},
      {"basic_auth_users:\n", "basic_auth_users lists no user"},
      {"  alice: x\n", "line 1: an indented entry outside a section"},
      {"tls_server_config: x\n",
       "line 1: a section takes its entries on the lines below"},
      {"tls_server_config\n", "line 1: expected \"key: value\""},
      {"tls_server_config:\n  cert_file: 'a\n", "line 2: no closing quote"},
      {"tls_server_config:\n  cert_file: \"a\\b\"\n",
       "line 2: escapes in double quotes are not supported"},
      {"tls_server_config:\n  : a\n", "line 2: an empty key"},
  };
  struct prom_http_web w;
  char err[300];
  for (size_t i = 0; i < ARRAY_SIZE(fixed); i++) {
    err[0] = '\0';
    assert_int_equal(prom_http_web_parse(fixed[i].text, strlen(fixed[i].text),
                                         NULL, &w, err, sizeof(err)),
                     -EINVAL);
    assert_string_equal(err, fixed[i].err);
    assert_null(w.users);
    assert_null(w.tls_cert);
  }
  assert_int_equal(
      prom_http_web_parse(twice, strlen(twice), NULL, &w, err, sizeof(err)),
      -EINVAL);
  assert_string_equal(err, "line 3: user named twice");
  /* a NUL byte inside a value */
  static const char nul[] = "tls_server_config:\n  cert_file: a\0b\n";
  assert_int_equal(
      prom_http_web_parse(nul, sizeof(nul) - 1, NULL, &w, err, sizeof(err)),
      -EINVAL);
  assert_string_equal(err, "line 2: a NUL byte");
}

static void prom_http_web_load__errors(void **state) {
  (void)state;
  struct prom_http_web w;
  char err[300];
  assert_int_equal(
      prom_http_web_load("/nonexistent/web.yml", &w, err, sizeof(err)),
      -ENOENT);
  assert_string_equal(err, "--web-config=/nonexistent/web.yml: No such file or "
                           "directory");
  char dir[] = "/tmp/prom_http_web.XXXXXX";
  assert_non_null(mkdtemp(dir));
  char path[128];
  snprintf(path, sizeof(path), "%s/web.yml", dir);
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs("tls_server_config:\n  cert_file: c.pem\n  key_file: k.pem\n", f);
  fclose(f);
  assert_int_equal(prom_http_web_load(path, &w, err, sizeof(err)), 0);
  char want[200];
  snprintf(want, sizeof(want), "%s/c.pem", dir);
  assert_string_equal(w.tls_cert, want);
  prom_http_web_fini(&w);
  f = fopen(path, "w");
  assert_non_null(f);
  fputs("nonsense\n", f);
  fclose(f);
  assert_int_equal(prom_http_web_load(path, &w, err, sizeof(err)), -EINVAL);
  snprintf(want, sizeof(want),
           "--web-config=%s: line 1: expected \"key: "
           "value\"",
           path);
  assert_string_equal(err, want);
  /* a FIFO fails at once instead of blocking the start (nobody writes) */
  char fifo[160];
  snprintf(fifo, sizeof(fifo), "%s/fifo.yml", dir);
  assert_int_equal(mkfifo(fifo, 0600), 0);
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  assert_int_equal(prom_http_web_load(fifo, &w, err, sizeof(err)), -EINVAL);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  assert_true((double)(t1.tv_sec - t0.tv_sec) +
                  (double)(t1.tv_nsec - t0.tv_nsec) / 1e9 <
              1.0);
  snprintf(want, sizeof(want), "--web-config=%s: not a regular file", fifo);
  assert_string_equal(err, want);
  /* a directory; an empty file asks for nothing */
  assert_int_equal(prom_http_web_load(dir, &w, err, sizeof(err)), -EINVAL);
  snprintf(want, sizeof(want), "--web-config=%s: not a regular file", dir);
  assert_string_equal(err, want);
  fclose(fopen(path, "w"));
  assert_int_equal(prom_http_web_load(path, &w, err, sizeof(err)), 0);
  assert_null(w.users);
  assert_null(w.tls_cert);
  remove(fifo);
  remove(path);
  rmdir(dir);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(prom_http_web_parse__valid),
      cmocka_unit_test(prom_http_web_parse__errors),
      cmocka_unit_test(prom_http_web_load__errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
