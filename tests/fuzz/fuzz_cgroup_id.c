/*
 * fuzz_cgroup_id.c: libFuzzer target for cgroup_id_parse() and
 * cgroup_id_path_parse(): any bytes, no crash, no read past the length,
 * and every success holds what cgroup_id.h promises (an id of 64 hex
 * digits or none, a uid of a uid's shape, a printable name).
 */
#include "common/container/cgroup_id.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(const struct cgroup_id *id) {
  size_t n = strlen(id->id);
  if (n != 0 && !cgroup_id_is_hex64(id->id, n))
    abort();
  n = strlen(id->pod_uid);
  if (n != 0 && !cgroup_id_is_uid(id->pod_uid, n))
    abort();
  for (const char *p = id->name; *p; p++)
    if (*p <= 0x20 || *p >= 0x7f || *p == '/')
      abort();
  if (id->runtime == CGROUP_RUNTIME_NONE && id->pod_uid[0] == '\0')
    abort(); /* a success names something */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  /* a copy of exactly `size` bytes, so ASan sees any over-read */
  char *text = malloc(size ? size : 1);
  if (text == NULL)
    return 0;
  memcpy(text, data, size);
  struct cgroup_id id;
  if (cgroup_id_parse(text, size, &id) == 0)
    check(&id);
  if (cgroup_id_path_parse(text, size, &id) == 0)
    check(&id);
  free(text);
  return 0;
}
