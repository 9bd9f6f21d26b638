/*
 * fuzz_oa_replay.c: libFuzzer target for the whole i915_oa Replay path:
 * the recorder parser, the correlation timeline, the accumulator, the
 * metrics and the records, as `i915_oa --Replay=FILE` runs them. The
 * first byte picks ReplayInterval and EuMetrics; the rest is the file
 * (a memfd). Invariants: no read outside a buffer (ASan), no undefined
 * arithmetic (UBSan), every record's time within 0..INT64_MAX ns.
 */
#include "plugins/i915_oa/i915_oa.h"

#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static void quiet(enum log_level level, const char *message) {
  (void)level;
  (void)message;
}

static int nop(struct metric_sink *s) {
  (void)s;
  return 0;
}

static int check(struct metric_sink *s, const struct metric *m) {
  (void)s;
  if (m->time_ns > (uint64_t)INT64_MAX)
    abort();
  return 0;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
  static const double intervals[] = {0, 0.001, 0.002, 1};
  if (size < 1)
    return 0;
  log_set_sink(quiet, LOG_LEVEL_ERROR);
  int fd = memfd_create("recording", MFD_CLOEXEC);
  if (fd < 0)
    return 0;
  size_t off = 1;
  while (off < size) {
    ssize_t n = write(fd, data + off, size - off);
    if (n <= 0)
      break;
    off += (size_t)n;
  }
  struct oa_instance inst = {0};
  oa_config_defaults(&inst.cfg);
  inst.cfg.replay_interval = intervals[data[0] & 3];
  inst.cfg.eu_metrics = (data[0] >> 2) & 1;
  struct metric_sink sink = {nop, check, nop};
  oa_replay_fd(&inst, fd, "fuzz", &sink);
  oa_config_fini(&inst.cfg);
  close(fd);
  return 0;
}
