/*
 * test_prom_http_auth.c: --listen's basic authentication under attack, on
 * loopback (bounded in count and time): a storm of wrong passwords
 * against a bcrypt user while a scraper scrapes, the time of a refusal for
 * a known and an unknown user, the per-address backoff, a full queue, and
 * a stop while checks wait.
 */
#include "common/http/prom_http.h"
#include "common/http/prom_http_auth.h"

#include <arpa/inet.h>
#include <crypt.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A bcrypt hash of `password` at `cost`, a fresh salt. */
static void bcrypt_of(const char *password, int cost, char *out, size_t size) {
  char setting[CRYPT_GENSALT_OUTPUT_SIZE];
  assert_non_null(crypt_gensalt_rn("$2b$", (unsigned long)cost, NULL, 0,
                                   setting, sizeof(setting)));
  struct crypt_data cd;
  memset(&cd, 0, sizeof(cd));
  const char *h = crypt_r(password, setting, &cd);
  assert_non_null(h);
  assert_true(h[0] == '$');
  snprintf(out, size, "%s", h);
}

/* A server on a free loopback port whose users are `yml` (the file's
 * text), in the temp dir `dir`. */
static int serve_users(struct prom_http *h, char *dir, const char *yml) {
  assert_non_null(mkdtemp(dir));
  char path[256];
  snprintf(path, sizeof(path), "%s/web.yml", dir);
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs(yml, f);
  assert_int_equal(fclose(f), 0);
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  struct sockaddr_in a = {.sin_family = AF_INET};
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof(a);
  assert_int_equal(bind(fd, (struct sockaddr *)&a, len), 0);
  assert_int_equal(getsockname(fd, (struct sockaddr *)&a, &len), 0);
  close(fd);
  int port = ntohs(a.sin_port);
  char addr[64], err[300] = "";
  snprintf(addr, sizeof(addr), "127.0.0.1:%d", port);
  struct prom_http_config cfg = {path, 0};
  int rc = prom_http_start_with(h, "p", addr, &cfg, err, sizeof(err));
  if (rc != 0)
    printf("# %s\n", err);
  assert_int_equal(rc, 0);
  assert_int_equal(prom_http_publish(h, "m 1\n", 4), 0);
  return port;
}

static void unserve(struct prom_http *h, const char *dir) {
  prom_http_stop(h);
  char path[256];
  snprintf(path, sizeof(path), "%s/web.yml", dir);
  remove(path);
  rmdir(dir);
}

static void base64(const char *in, char *out) {
  static const char t[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  size_t n = strlen(in), o = 0;
  for (size_t i = 0; i < n; i += 3) {
    unsigned v = (unsigned char)in[i] << 16;
    if (i + 1 < n)
      v |= (unsigned char)in[i + 1] << 8;
    if (i + 2 < n)
      v |= (unsigned char)in[i + 2];
    out[o++] = t[(v >> 18) & 63];
    out[o++] = t[(v >> 12) & 63];
    out[o++] = i + 1 < n ? t[(v >> 6) & 63] : '=';
    out[o++] = i + 2 < n ? t[v & 63] : '=';
  }
  out[o] = '\0';
}

/* A connection from the loopback address `from` with a GET /metrics for
 * `user`:`password` sent; the socket. */
static int ask(const char *from, int port, const char *user,
               const char *password) {
  int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  assert_true(s >= 0);
  struct sockaddr_in a = {.sin_family = AF_INET};
  assert_int_equal(inet_pton(AF_INET, from, &a.sin_addr), 1);
  assert_int_equal(bind(s, (struct sockaddr *)&a, sizeof(a)), 0);
  a.sin_port = htons(port);
  assert_int_equal(inet_pton(AF_INET, "127.0.0.1", &a.sin_addr), 1);
  assert_int_equal(connect(s, (struct sockaddr *)&a, sizeof(a)), 0);
  char cred[300], b64[420], req[600];
  snprintf(cred, sizeof(cred), "%s:%s", user, password);
  base64(cred, b64);
  int n = snprintf(req, sizeof(req),
                   "GET /metrics HTTP/1.1\r\nHost: t\r\nAuthorization: Basic "
                   "%s\r\n\r\n",
                   b64);
  assert_int_equal(send(s, req, (size_t)n, MSG_NOSIGNAL), n);
  return s;
}

/* The status of the answer on `s` (0: none within `wait_s`), its
 * Retry-After into `retry` when not NULL; closes `s`. */
static int answer(int s, double wait_s, int *retry) {
  char head[4096];
  size_t n = 0;
  double end = now_s() + wait_s;
  head[0] = '\0';
  while (strstr(head, "\r\n\r\n") == NULL && n + 1 < sizeof(head)) {
    int left = (int)((end - now_s()) * 1000);
    struct pollfd p = {s, POLLIN, 0};
    if (left <= 0 || poll(&p, 1, left) <= 0)
      break;
    ssize_t r = recv(s, head + n, sizeof(head) - 1 - n, 0);
    if (r <= 0)
      break;
    n += (size_t)r;
    head[n] = '\0';
  }
  close(s);
  int status = 0;
  if (sscanf(head, "HTTP/1.1 %d", &status) != 1)
    return 0;
  if (retry != NULL) {
    const char *ra = strcasestr(head, "\r\nRetry-After: ");
    *retry = ra ? atoi(ra + 15) : -1;
  }
  return status;
}

static int get_as(const char *from, int port, const char *user,
                  const char *password, double *took) {
  double t0 = now_s();
  int st = answer(ask(from, port, user, password), 10, NULL);
  if (took != NULL)
    *took = now_s() - t0;
  return st;
}

/* ---- a storm of wrong passwords ---- */

struct storm {
  int port;
  char from[32];
  volatile bool stop;
  int n, n401, n429, n503, other;
};

static void *storm_run(void *arg) {
  struct storm *s = arg;
  while (!s->stop) {
    char pw[32];
    snprintf(pw, sizeof(pw), "guess%d", s->n);
    int st = answer(ask(s->from, s->port, "alice", pw), 10, NULL);
    s->n++;
    if (st == 401)
      s->n401++;
    else if (st == 429)
      s->n429++;
    else if (st == 503)
      s->n503++;
    else
      s->other++;
  }
  return NULL;
}

/* 8 clients from 8 addresses sending wrong passwords for a bcrypt-10
 * user as fast as they are answered: the scraper's every scrape (its
 * password verified once before) is answered within 200 ms, and a second
 * user's first scrape, whose password has to be hashed, within a few
 * checks' time. On the server's thread the old checks queued the scrape
 * behind the guesses (2.4 s). */
static void prom_http_auth__password_storm(void **state) {
  (void)state;
  char h1[200], h2[200], yml[600];
  bcrypt_of("right", 10, h1, sizeof(h1));
  bcrypt_of("bob's", 10, h2, sizeof(h2));
  snprintf(yml, sizeof(yml), "basic_auth_users:\n  alice: %s\n  bob: %s\n", h1,
           h2);
  char dir[] = "/tmp/prom_http_auth.XXXXXX";
  struct prom_http h;
  int port = serve_users(&h, dir, yml);
  assert_int_equal(get_as("127.0.0.1", port, "alice", "right", NULL), 200);
  /* one check's time on this machine, as loaded as it is */
  double one = 0;
  assert_int_equal(get_as("127.0.0.30", port, "alice", "wrong", &one), 401);
  enum { N = 8 };
  static struct storm st[N];
  pthread_t t[N];
  for (int i = 0; i < N; i++) {
    memset(&st[i], 0, sizeof(st[i]));
    st[i].port = port;
    snprintf(st[i].from, sizeof(st[i].from), "127.0.4.%d", 1 + i);
    assert_int_equal(pthread_create(&t[i], NULL, storm_run, &st[i]), 0);
  }
  /* until every guesser has had its free failures hashed, then on */
  struct timespec pause = {0, 100 * 1000 * 1000};
  nanosleep(&pause, NULL);
  double worst = 0, bob = 0;
  int scrapes = 0, bad = 0;
  double end = now_s() + 4;
  while (now_s() < end) {
    double took;
    int code = get_as("127.0.0.1", port, "alice", "right", &took);
    bad += code != 200;
    worst = took > worst ? took : worst;
    scrapes++;
    if (scrapes == 20) /* a first scrape: its password hashed */
      assert_int_equal(get_as("127.0.0.20", port, "bob", "bob's", &bob), 200);
    nanosleep(&pause, NULL);
  }
  int guesses = 0, n401 = 0, n429 = 0, n503 = 0, other = 0;
  for (int i = 0; i < N; i++) {
    st[i].stop = true;
    pthread_join(t[i], NULL);
    guesses += st[i].n;
    n401 += st[i].n401;
    n429 += st[i].n429;
    n503 += st[i].n503;
    other += st[i].other;
  }
  printf("# storm: %d guesses (401 %d, 429 %d, 503 %d); %d scrapes, the "
         "slowest %.0f ms; a first scrape %.0f ms, one check alone %.0f ms\n",
         guesses, n401, n429, n503, scrapes, worst * 1000, bob * 1000,
         one * 1000);
  unserve(&h, dir);
  assert_int_equal(bad, 0);
  assert_int_equal(other, 0);
  assert_true(n401 >= N); /* each was checked */
  assert_true(worst < 0.2);
  /* a first scrape's check goes before the guessers' (their addresses
   * have failed, and have one worker between them): it waits for no other
   * check, and its own takes about one check's time */
  assert_true(bob < 6 * one + 0.2);
}

/* ---- what a refusal's time tells ---- */

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* A wrong password for a known user and for an unknown one take the same
 * time (one hash of the same cost), each from an address of its own so
 * that no backoff comes in: within 20 %. The old checks answered an
 * unknown user at once (0.3 ms against 96 ms). */
static void prom_http_auth__unknown_user_timing(void **state) {
  (void)state;
  char h1[200], yml[400];
  bcrypt_of("right", 10, h1, sizeof(h1));
  snprintf(yml, sizeof(yml), "basic_auth_users:\n  alice: %s\n", h1);
  char dir[] = "/tmp/prom_http_auth.XXXXXX";
  struct prom_http h;
  int port = serve_users(&h, dir, yml);
  enum { N = 15 };
  double known[N], unknown[N];
  for (int i = 0; i < N; i++) {
    char from[32];
    /* known, unknown, unknown, known, ...: neither always meets the same
     * worker */
    for (int k = 0; k < 2; k++) {
      bool kn = (k == 0) == (i % 2 == 0);
      snprintf(from, sizeof(from), "127.0.%d.%d", kn ? 5 : 6, 1 + i);
      assert_int_equal(get_as(from, port, kn ? "alice" : "mallory", "wrong",
                              kn ? &known[i] : &unknown[i]),
                       401);
    }
  }
  unserve(&h, dir);
  qsort(known, N, sizeof(double), cmp_double);
  qsort(unknown, N, sizeof(double), cmp_double);
  /* the lower quartiles: the machine's other load only adds time */
  double a = known[N / 4], b = unknown[N / 4];
  printf("# a wrong password: known user %.1f ms, unknown user %.1f ms "
         "(lower quartiles of %d; medians %.1f, %.1f ms)\n",
         a * 1000, b * 1000, N, known[N / 2] * 1000, unknown[N / 2] * 1000);
  double hi = a > b ? a : b, lo = a > b ? b : a;
  assert_true(lo > 0.8 * hi);
}

/* ---- backoff ---- */

/* An address that keeps failing waits before its next check (429 with
 * Retry-After), told before any user is looked at; a password verified
 * before is still taken from it; the wait ends. */
static void prom_http_auth__backoff(void **state) {
  (void)state;
  char yml[400];
  struct crypt_data cd;
  memset(&cd, 0, sizeof(cd));
  snprintf(yml, sizeof(yml), "basic_auth_users:\n  alice: %s\n",
           crypt_r("right", "$6$backoffsalt$", &cd));
  char dir[] = "/tmp/prom_http_auth.XXXXXX";
  struct prom_http h;
  int port = serve_users(&h, dir, yml);
  const char *bad = "127.0.7.1";
  assert_int_equal(get_as("127.0.0.1", port, "alice", "right", NULL), 200);
  for (unsigned i = 0; i <= PROM_HTTP_AUTH_FREE_FAILS; i++)
    assert_int_equal(get_as(bad, port, "alice", "wrong", NULL), 401);
  int retry = 0;
  assert_int_equal(answer(ask(bad, port, "alice", "wrong"), 10, &retry), 429);
  assert_int_equal(retry, 1); /* 0.5 s, rounded up */
  assert_int_equal(answer(ask(bad, port, "nobody", "x"), 10, NULL), 429);
  /* a pair verified before: taken at once even from there */
  assert_int_equal(get_as(bad, port, "alice", "right", NULL), 200);
  /* other addresses are not held */
  assert_int_equal(get_as("127.0.7.2", port, "alice", "wrong", NULL), 401);
  /* the wait ends (bounded poll) */
  double end = now_s() + 5;
  int st = 429;
  while (st == 429 && now_s() < end) {
    struct timespec pause = {0, 100 * 1000 * 1000};
    nanosleep(&pause, NULL);
    st = get_as(bad, port, "alice", "wrong", NULL);
  }
  assert_int_equal(st, 401);
  /* and the next failure waits longer: twice the first wait */
  assert_int_equal(answer(ask(bad, port, "alice", "wrong"), 10, &retry), 429);
  assert_int_equal(retry, 1);
  unserve(&h, dir);
}

/* ---- a full queue, and a stop with checks waiting ---- */

/* 40 checks at once from 20 addresses (2 each, the most one address may
 * have) against bcrypt-11: the workers take 2, the queue 32, the rest are
 * told 503 with Retry-After at once; every other one is answered 401. */
static void prom_http_auth__queue_full(void **state) {
  (void)state;
  char h1[200], yml[400];
  bcrypt_of("right", 11, h1, sizeof(h1));
  snprintf(yml, sizeof(yml), "basic_auth_users:\n  alice: %s\n", h1);
  char dir[] = "/tmp/prom_http_auth.XXXXXX";
  struct prom_http h;
  int port = serve_users(&h, dir, yml);
  enum { N = 40 };
  int s[N];
  for (int i = 0; i < N; i++) {
    char from[32];
    snprintf(from, sizeof(from), "127.0.8.%d", 1 + i / 2);
    s[i] = ask(from, port, "alice", "wrong");
  }
  int n401 = 0, n503 = 0, other = 0;
  for (int i = 0; i < N; i++) {
    int st = answer(s[i], 60, NULL);
    n401 += st == 401;
    n503 += st == 503;
    other += st != 401 && st != 503;
  }
  printf("# 40 checks at once: 401 %d, 503 %d\n", n401, n503);
  assert_int_equal(other, 0);
  assert_true(n503 >= N - (int)(PROM_HTTP_AUTH_QUEUE + PROM_HTTP_AUTH_WORKERS));
  assert_true(n401 >= (int)PROM_HTTP_AUTH_QUEUE);
  /* checks waiting when the server stops: their connections are closed,
   * nothing left suspended (libmicrohttpd would abort) */
  for (int i = 0; i < 10; i++) {
    char from[32];
    snprintf(from, sizeof(from), "127.0.9.%d", 1 + i);
    s[i] = ask(from, port, "alice", "wrong");
  }
  struct timespec pause = {0, 100 * 1000 * 1000};
  nanosleep(&pause, NULL);
  double t0 = now_s();
  unserve(&h, dir);
  double took = now_s() - t0;
  printf("# stopped with checks waiting in %.2f s\n", took);
  assert_true(took < 10);
  for (int i = 0; i < 10; i++)
    close(s[i]);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(prom_http_auth__backoff),
      cmocka_unit_test(prom_http_auth__unknown_user_timing),
      cmocka_unit_test(prom_http_auth__password_storm),
      cmocka_unit_test(prom_http_auth__queue_full),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
