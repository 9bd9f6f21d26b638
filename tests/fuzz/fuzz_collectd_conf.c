/*
 * fuzz_collectd_conf.c: libFuzzer target for collectd_conf_parse(): any
 * bytes, no crash, no read past the length, no leak; an error always says
 * where ("line N: ..."), and a parsed tree has non-empty keys and string
 * values that are NUL-terminated copies.
 */
#include "common/exec/collectd_conf.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(const struct cfg_item *items, size_t n) {
  for (size_t i = 0; i < n; i++) {
    if (items[i].key == NULL || items[i].key[0] == '\0')
      abort();
    for (size_t v = 0; v < items[i].n_values; v++)
      if (items[i].values[v].type == CFG_STRING &&
          items[i].values[v].string == NULL)
        abort();
    check(items[i].children, items[i].n_children);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  /* a copy of exactly `size` bytes, so ASan sees any over-read */
  char *text = malloc(size ? size : 1);
  if (text == NULL)
    return 0;
  memcpy(text, data, size);
  struct cfg_item *items;
  size_t n;
  char err[256];
  int rc = collectd_conf_parse(text, size, &items, &n, err, sizeof(err));
  if (rc == 0)
    check(items, n);
  else if (rc == -EINVAL && strncmp(err, "line ", 5) != 0)
    abort(); /* -EINVAL always names the line */
  cfg_items_free(items, n);
  free(text);
  return 0;
}
