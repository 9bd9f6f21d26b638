/* oa_period.c: sampling period to OA exponent, and the privilege test. */
#include "common/core/fileio.h"
#include "plugins/i915_oa/i915_oa.h"

#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* ceil(2^(e+1) * 1e9 / hz), as the kernel computes the period
 * (i915_perf.c: oa_exponent_to_ns). */
static unsigned __int128 period_of(int e, uint64_t hz) {
  unsigned __int128 num = ((unsigned __int128)1 << (e + 1)) * 1000000000u;
  return (num + hz - 1) / hz;
}

uint64_t oa_exponent_period_ns(int e, uint64_t hz) {
  return hz == 0 ? 0 : (uint64_t)period_of(e, hz);
}

int oa_exponent_for_period(uint64_t period_ns, uint64_t hz) {
  if (hz == 0)
    return 0;
  for (int e = 0; e <= 31; e++)
    if (period_of(e, hz) >= period_ns)
      return e;
  return 31;
}

uint64_t oa_period_cap_ns(uint64_t max_clock_hz) {
  if (max_clock_hz == 0)
    max_clock_hz = OA_MAX_CLOCK_FALLBACK_HZ;
  unsigned __int128 wrap = ((unsigned __int128)1 << 32) * 1000000000u;
  return (uint64_t)(wrap / max_clock_hz / 2);
}

int oa_exponent_cap(int e, uint64_t hz, uint64_t cap_ns) {
  while (e > 0 && hz != 0 && period_of(e, hz) > cap_ns)
    e--;
  return e;
}

bool oa_privileged(const char *proc_root) {
  char path[512], text[4096];
  snprintf(path, sizeof(path), "%s/self/status", proc_root);
  if (fileio_read_text_at(AT_FDCWD, path, text, sizeof(text)) < 0)
    return false;
  const char *cap = strstr(text, "\nCapEff:");
  uint64_t eff;
  if (cap == NULL || sscanf(cap + 8, "%" SCNx64, &eff) != 1)
    return false;
  /* CAP_SYS_ADMIN is 21, CAP_PERFMON 38 (linux/capability.h) */
  return (eff >> 21 & 1) || (eff >> 38 & 1);
}
