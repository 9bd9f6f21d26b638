/*
 * fuzz_prom_http_web.c: libFuzzer target for prom_http_web_parse(), the
 * --web-config file: any bytes in; 0 with both TLS paths or neither, or
 * -EINVAL with a NUL-terminated reason and nothing kept.
 */
#include "common/http/prom_http_web.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 4096)
    return 0; /* every line's hash is tried with crypt_r: keep runs short */
  struct prom_http_web w;
  char err[200];
  memset(err, 'x', sizeof(err));
  int rc = prom_http_web_parse((const char *)data, size, "/etc", &w, err,
                               sizeof(err));
  if (rc == 0) {
    if ((w.tls_cert == NULL) != (w.tls_key == NULL))
      abort();
    prom_http_web_fini(&w);
  } else if (rc != -EINVAL && rc != -ENOMEM) {
    abort();
  } else if (memchr(err, '\0', sizeof(err)) == NULL || w.users != NULL ||
             w.tls_cert != NULL || w.tls_key != NULL) {
    abort();
  }
  return 0;
}
