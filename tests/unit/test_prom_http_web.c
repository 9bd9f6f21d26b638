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
#include <unistd.h>

#include <cmocka.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

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
  assert_true(prom_http_users_check(w.users, "alice", "secret"));
  assert_true(prom_http_users_check(w.users, "alice", "secret")); /* cached */
  assert_false(prom_http_users_check(w.users, "alice", "secret "));
  assert_false(prom_http_users_check(w.users, "alice", "secre"));
  assert_false(prom_http_users_check(w.users, "alice", ""));
  assert_true(prom_http_users_check(w.users, "bob", "other pass"));
  assert_false(prom_http_users_check(w.users, "bob", "secret"));
  assert_false(prom_http_users_check(w.users, "carol", "secret"));
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
      {"basic_auth_users:\n  alice: $9$nothing\n",
       "line 2: a hash method libcrypt does not know"},
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
