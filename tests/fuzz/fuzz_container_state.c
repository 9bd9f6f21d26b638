/*
 * fuzz_container_state.c: libFuzzer target for Docker's config.v2.json and
 * Podman's containers.json decoders: any bytes, no crash, no read past the
 * length, names bounded and printable, ids of 64 hex digits.
 */
#include "common/container/container_state.h"
#include "common/core/text.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_name(const char *s) {
  size_t n = strlen(s);
  if (n == 0 || n > CONTAINER_NAME_MAX)
    abort();
  for (size_t i = 0; i < n;) {
    bool printable;
    i += text_char(s + i, n - i, &printable);
    if (!printable)
      abort();
  }
}

static void take(const char *id, const char *name, void *arg) {
  (void)arg;
  if (!cgroup_id_is_hex64(id, strlen(id)))
    abort();
  check_name(name);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = malloc(size ? size : 1);
  if (text == NULL)
    return 0;
  memcpy(text, data, size);
  char name[CONTAINER_NAME_MAX + 1];
  if (container_state_docker_name(text, size, name) == 0)
    check_name(name);
  container_state_podman_each(text, size, take, NULL);
  free(text);
  return 0;
}
