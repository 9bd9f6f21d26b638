/*
 * t410_metrics.c: the metrics of Documentation/admin-guide/perf/
 * nvidia-tegra410-pmu.rst from one group's deltas over one window
 * (ELAPSED_TIME_IN_NS: the group's enabled time over the window).
 * Units are base units: bytes per second (the doc's GB/s is bytes/ns),
 * requests per cycle, Hz, cycles and seconds.
 *
 *   bandwidth     = bytes / elapsed              (UCF: SLC and memory)
 *   request rate  = requests / cycles
 *   frequency     = cycles / elapsed
 *   latency       = cum_outs / requests  cycles; / (cycles / elapsed) s
 *   CMEM read bandwidth = rd_req * 32 / elapsed  (32-byte requests; from an
 *                         earlier revision of the doc)
 */
#include "plugins/tegra410_uncore/t410_preset.h"

#define T410_CMEM_REQUEST_BYTES 32.0

static bool t410_has(const struct t410_sample *s, enum t410_role r) {
  return s->have[r];
}

/* Keep the first error of a sequence of metric_add_float calls. */
static void t410_keep(int *rc, int r) {
  if (*rc == 0 && r < 0)
    *rc = r;
}

static void t410_latency(const struct t410_sample *s, enum t410_role cum,
                         enum t410_role req, const char *cycles_field,
                         const char *seconds_field, struct metric *m, int *rc) {
  if (!t410_has(s, cum) || !t410_has(s, req) || s->delta[req] <= 0)
    return;
  double cycles = s->delta[cum] / s->delta[req];
  t410_keep(rc,
            metric_add_float(m, cycles_field, "uncore_latency_cycles", cycles));
  if (t410_has(s, T410_CYCLES) && s->delta[T410_CYCLES] > 0)
    t410_keep(rc, metric_add_float(m, seconds_field, "uncore_latency_seconds",
                                   cycles * ((double)s->elapsed_ns / 1e9) /
                                       s->delta[T410_CYCLES]));
}

int t410_metrics_add(enum t410_kind kind, const struct t410_sample *s,
                     struct metric *m) {
  double per_s = s->elapsed_ns > 0 ? 1e9 / s->elapsed_ns : 0;
  int rc = 0;
  if (per_s == 0)
    return 0;
  static const struct {
    enum t410_role role;
    const char *field;
  } bandwidths[] = {
      {T410_RD_BYTES, "read_bandwidth"},
      {T410_WR_BYTES, "write_bandwidth"},
      {T410_SLC_BYTES_RD, "slc_read_bandwidth"},
      {T410_SLC_BYTES_WR, "slc_write_bandwidth"},
  };
  for (size_t i = 0; i < sizeof(bandwidths) / sizeof(bandwidths[0]); i++)
    if (t410_has(s, bandwidths[i].role))
      t410_keep(&rc, metric_add_float(m, bandwidths[i].field,
                                      "uncore_bytes_per_second",
                                      s->delta[bandwidths[i].role] * per_s));
  if (kind == T410_CMEM && t410_has(s, T410_RD_REQ))
    t410_keep(&rc,
              metric_add_float(m, "read_bandwidth", "uncore_bytes_per_second",
                               s->delta[T410_RD_REQ] * T410_CMEM_REQUEST_BYTES *
                                   per_s));

  bool cycles = t410_has(s, T410_CYCLES) && s->delta[T410_CYCLES] > 0;
  if (t410_has(s, T410_CYCLES))
    t410_keep(&rc, metric_add_float(m, "frequency", "gpu_hertz",
                                    s->delta[T410_CYCLES] * per_s));
  if (cycles &&
      (kind == T410_UCF || kind == T410_PCIE || kind == T410_PCIE_TGT)) {
    static const struct {
      enum t410_role role;
      const char *field;
    } rates[] = {
        {T410_RD_REQ, "read_request_rate"},
        {T410_WR_REQ, "write_request_rate"},
        {T410_SLC_ACCESS_RD, "slc_read_request_rate"},
        {T410_SLC_ACCESS_WR, "slc_write_request_rate"},
    };
    for (size_t i = 0; i < sizeof(rates) / sizeof(rates[0]); i++)
      if (t410_has(s, rates[i].role))
        t410_keep(&rc, metric_add_float(
                           m, rates[i].field, "uncore_requests_per_cycle",
                           s->delta[rates[i].role] / s->delta[T410_CYCLES]));
  }
  t410_latency(s, T410_RD_CUM_OUTS, T410_RD_REQ, "read_latency_cycles",
               "read_latency_seconds", m, &rc);
  t410_latency(s, T410_WR_CUM_OUTS, T410_WR_REQ, "write_latency_cycles",
               "write_latency_seconds", m, &rc);
  return rc;
}
