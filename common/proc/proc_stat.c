/*
 * proc_stat.c: the start time from /proc/<pid>/stat (proc_stat.h).
 */
#include "common/proc/proc_stat.h"

#include <errno.h>
#include <stdbool.h>

/* Field 22 is the 20th field after the ")" that ends field 2. */
#define PROC_STAT_FIELDS_AFTER_COMM 20

int proc_stat_start_time_decode(const char *text, size_t len, uint64_t *out) {
  size_t pos = len;
  while (pos > 0 && text[pos - 1] != ')')
    pos--;
  if (pos == 0)
    return -EINVAL; /* no command name: not a stat line */
  unsigned field = 0;
  bool in_field = false;
  uint64_t value = 0;
  size_t digits = 0;
  for (; pos < len && text[pos] != '\n'; pos++) {
    char ch = text[pos];
    if (ch == ' ') {
      if (in_field && field == PROC_STAT_FIELDS_AFTER_COMM)
        break;
      in_field = false;
      continue;
    }
    if (!in_field) {
      in_field = true;
      field++;
    }
    if (field != PROC_STAT_FIELDS_AFTER_COMM)
      continue;
    if (ch < '0' || ch > '9')
      return -EINVAL;
    unsigned d = (unsigned)(ch - '0');
    if (value > (UINT64_MAX - d) / 10)
      return -EINVAL; /* more than 64 bits */
    value = value * 10 + d;
    digits++;
  }
  if (field < PROC_STAT_FIELDS_AFTER_COMM || digits == 0)
    return -EINVAL;
  *out = value;
  return 0;
}
