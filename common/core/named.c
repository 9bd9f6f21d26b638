/*
 * named.c: find-or-append by name in a fixed array (named.h).
 */
#include "common/core/named.h"

#include <string.h>

void *named_find_or_add(void *base, size_t *n, size_t max, size_t elem_size,
                        size_t name_off, size_t name_max, const char *name,
                        size_t name_len, bool *added) {
  char *bytes = base;
  if (added != NULL)
    *added = false;
  for (size_t i = 0; i < *n; i++) {
    const char *have = bytes + i * elem_size + name_off;
    if (strncmp(have, name, name_len) == 0 && have[name_len] == '\0')
      return bytes + i * elem_size;
  }
  if (*n >= max || name_len >= name_max)
    return NULL;
  char *elem = bytes + (*n)++ * elem_size;
  memset(elem, 0, elem_size);
  memcpy(elem + name_off, name, name_len);
  if (added != NULL)
    *added = true;
  return elem;
}
