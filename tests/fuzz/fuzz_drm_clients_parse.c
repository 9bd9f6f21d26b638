/*
 * fuzz_drm_clients_parse.c: libFuzzer target for the debugfs client list
 * decoder, with a tight and a roomy output array.
 */
#include "common/drm_clients_parse.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
  pid_t pids[256];
  size_t limits[] = {0, 2, 256};
  for (size_t k = 0; k < 3; k++) {
    size_t n = 12345;
    int rc = drm_clients_parse(data, size, pids, limits[k], &n);
    if ((rc != 0 && rc != -7 /* -E2BIG */) || n > limits[k])
      abort();
    for (size_t i = 0; i < n; i++)
      if (pids[i] <= 0)
        abort();
  }
  return 0;
}
