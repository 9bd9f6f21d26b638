/*
 * pmu_format.c: sysfs PMU format parsing and encoding (see pmu_format.h).
 */
#include "common/pmu/pmu_format.h"

#include <errno.h>
#include <string.h>

static int pmu_format_number(const char **p, const char *end, unsigned *out) {
  unsigned v = 0, digits = 0;
  while (*p < end && **p >= '0' && **p <= '9' && digits < 3) {
    v = v * 10 + (unsigned)(**p - '0');
    (*p)++;
    digits++;
  }
  if (digits == 0 || (*p < end && **p >= '0' && **p <= '9'))
    return -EINVAL;
  *out = v;
  return 0;
}

int pmu_format_parse(const char *text, size_t len, struct pmu_format *out) {
  const char *p = text, *end = text + len;
  while (end > p && (end[-1] == '\n' || end[-1] == ' '))
    end--;
  if ((size_t)(end - p) < 8 || memcmp(p, "config", 6) != 0)
    return -EINVAL;
  p += 6;
  unsigned word = 0;
  if (*p >= '1' && *p <= '9') {
    word = (unsigned)(*p++ - '0');
    if (p < end && *p >= '0' && *p <= '9')
      return -EINVAL;
    if (word >= PMU_CONFIG_WORDS)
      return -ERANGE; /* perf_event_attr ends at config4 */
  }
  if (p >= end || *p++ != ':')
    return -EINVAL;
  uint64_t mask = 0;
  for (;;) {
    unsigned lo, hi;
    if (pmu_format_number(&p, end, &lo) < 0)
      return -EINVAL;
    hi = lo;
    if (p < end && *p == '-') {
      p++;
      if (pmu_format_number(&p, end, &hi) < 0)
        return -EINVAL;
    }
    if (lo > hi || hi > 63)
      return -EINVAL;
    for (unsigned b = lo; b <= hi; b++)
      mask |= 1ull << b;
    if (p == end)
      break;
    if (*p++ != ',')
      return -EINVAL;
  }
  out->word = word;
  out->mask = mask;
  return 0;
}

unsigned pmu_format_width(const struct pmu_format *f) {
  return (unsigned)__builtin_popcountll(f->mask);
}

uint64_t pmu_format_max(const struct pmu_format *f) {
  unsigned w = pmu_format_width(f);
  return w >= 64 ? UINT64_MAX : (1ull << w) - 1;
}

int pmu_format_encode(const struct pmu_format *f, uint64_t value,
                      uint64_t config[PMU_CONFIG_WORDS]) {
  if (f->word >= PMU_CONFIG_WORDS || value > pmu_format_max(f))
    return -ERANGE;
  uint64_t word = config[f->word];
  unsigned next = 0;
  for (unsigned b = 0; b < 64; b++) {
    if (!(f->mask & (1ull << b)))
      continue;
    if (value & (1ull << next))
      word |= 1ull << b;
    else
      word &= ~(1ull << b);
    next++;
  }
  config[f->word] = word;
  return 0;
}
