/*
 * fuzz_sysfs_value.c: libFuzzer target for the sysfs value decoders
 * (sysfs_value.h): any bytes, no crash, no read past the length, and every
 * success has the shape it claims (digits only, one newline at most, a
 * DPM list with exactly one current level).
 */
#include "common/sysfs/sysfs_value.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static size_t count(const char *s, size_t n, char c) {
  size_t k = 0;
  for (size_t i = 0; i < n; i++)
    k += s[i] == c;
  return k;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  /* a copy of exactly `size` bytes, so ASan sees any over-read */
  char *text = malloc(size ? size : 1);
  if (text == NULL)
    return 0;
  memcpy(text, data, size);
  uint64_t u;
  int64_t s;
  char word[48];
  if (sysfs_value_u64(text, size, &u) == 0) {
    size_t body = size && text[size - 1] == '\n' ? size - 1 : size;
    for (size_t i = 0; i < body; i++)
      if (text[i] < '0' || text[i] > '9')
        abort();
  }
  if (sysfs_value_s64(text, size, &s) == 0 && count(text, size, '\n') > 1)
    abort();
  if (sysfs_value_word(text, size, word, sizeof(word)) == 0 &&
      (strlen(word) >= sizeof(word) || strlen(word) == 0))
    abort();
  if (sysfs_value_dpm_current(text, size, &u) == 0 &&
      (count(text, size, '*') == 0 || u % 1000000 != 0))
    abort();
  free(text);
  return 0;
}
