/*
 * fuzz_drm_clients_parse.c: libFuzzer target for the debugfs client list
 * decoder (common/drm/drm_clients_parse.h), with no room, a small array (8) and
 * a roomy one (256). Invariants: never more pids than room, -E2BIG exactly
 * when the array is full and rows remain, every pid positive, and the
 * pids kept are a prefix of what a roomier array gets.
 */
#include "common/drm/drm_clients_parse.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
  static const size_t limits[] = {0, 8, 256};
  pid_t pids[3][256];
  size_t got[3];
  int rcs[3];
  for (size_t k = 0; k < 3; k++) {
    size_t n = 12345;
    rcs[k] = drm_clients_parse(data, size, pids[k], limits[k], &n);
    if ((rcs[k] != 0 && rcs[k] != -E2BIG) || n > limits[k] ||
        (rcs[k] == -E2BIG && n != limits[k]))
      abort();
    for (size_t i = 0; i < n; i++)
      if (pids[k][i] <= 0)
        abort();
    got[k] = n;
  }
  for (size_t k = 1; k < 3; k++) {
    /* a roomier array sees at least as many rows, the same ones first */
    if (got[k] < got[k - 1] ||
        memcmp(pids[k], pids[k - 1], got[k - 1] * sizeof(pid_t)) != 0)
      abort();
    /* room to spare means nothing was cut */
    if (rcs[k - 1] == 0 && (got[k] != got[k - 1] || rcs[k] != 0))
      abort();
  }
  return 0;
}
