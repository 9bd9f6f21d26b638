/*
 * fuzz_proc_stat.c: libFuzzer target for proc_stat_start_time_decode():
 * any bytes, no crash, no read past the length, and a success only when
 * the field really is a decimal number.
 */
#include "common/proc/proc_stat.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  /* a copy of exactly `size` bytes, so ASan sees any over-read */
  char *text = malloc(size ? size : 1);
  if (text == NULL)
    return 0;
  memcpy(text, data, size);
  uint64_t start = 0;
  if (proc_stat_start_time_decode(text, size, &start) == 0 &&
      memchr(text, ')', size) == NULL)
    abort(); /* success needs the command name's ')' */
  free(text);
  return 0;
}
