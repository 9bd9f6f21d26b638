/*
 * oa_replay.c: the `Replay` mode: an igt i915-perf-recorder file (version
 * 1) printed as the records the live plugin would have written.
 *
 * Two passes over the file, each in bounded memory (oa_rec_read_fd reads
 * 1 MiB chunks): the first collects the correlation points, placing each
 * GPU timestamp on the unwrapped timeline of the reports; the second
 * accumulates every report (common/i915/oa_accum, as live) and writes a
 * batch per report interval (ReplayInterval 0) or per window of recording
 * time, stamped with the CPU time of the batch's last report, linearly
 * interpolated between the correlation points around it (CLOCK_MONOTONIC
 * of the recording machine); without correlation points the GPU time
 * since the first report.
 */
#include "common/core/text.h"
#include "common/i915/i915_getparam.h"
#include "common/i915/oa_recorder.h"
#include "plugins/i915_oa/i915_oa.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct corr_point {
  uint64_t ticks; /* unwrapped report timeline */
  uint64_t cpu_ns;
};

struct replay {
  struct oa_instance *inst;
  struct oa_dev *d;
  struct metric_sink *sink;
  /* the report timeline: unwrapped ticks of the last report */
  bool have_report;
  uint64_t last_raw, last_ticks;
  uint64_t ts_mask;
  /* pass 1: correlation points (sorted by construction) */
  struct corr_point *points;
  size_t n_points, cap_points;
  uint64_t pending_gpu[4]; /* correlations before the first report */
  uint64_t pending_cpu[4];
  size_t n_pending;
  /* pass 2 */
  bool emit;
  size_t next_point;
  uint64_t window_ns, window_start_ns;
  bool window_open;
  uint64_t batches;
  uint64_t unwritten; /* reports accumulated since the last batch */
  int write_rc;
};

static uint64_t ld_ts(const struct oa_format *f, const uint8_t *report) {
  uint64_t v = 0;
  memcpy(&v, report + (f->header64 ? 8 : 4), f->header64 ? 8 : 4);
  return v;
}

/* Where raw timestamp `raw` lies on the unwrapped timeline, taken as the
 * nearest to the last report (a signed difference within half a wrap). */
static uint64_t unwrap_near(const struct replay *r, uint64_t raw) {
  uint64_t d = (raw - r->last_raw) & r->ts_mask;
  if (d > r->ts_mask / 2)
    return r->last_ticks - ((r->last_raw - raw) & r->ts_mask);
  return r->last_ticks + d;
}

static void add_point(struct replay *r, uint64_t ticks, uint64_t cpu_ns) {
  if (r->n_points == r->cap_points) {
    size_t cap = r->cap_points ? 2 * r->cap_points : 64;
    struct corr_point *p = realloc(r->points, cap * sizeof(*p));
    if (p == NULL)
      return; /* fewer points: coarser interpolation, never wrong order */
    r->points = p;
    r->cap_points = cap;
  }
  if (r->n_points > 0 && ticks <= r->points[r->n_points - 1].ticks)
    return; /* keep the timeline strictly increasing */
  r->points[r->n_points++] = (struct corr_point){ticks, cpu_ns};
}

static void on_info(void *ctx, const struct oa_rec_device_info *info) {
  struct replay *r = ctx;
  struct oa_dev *d = r->d;
  d->fmt = oa_format_get(info->oa_format);
  d->platform = oa_platform_lookup(info->device_id);
  d->dev.id.oa_timestamp_hz = info->timestamp_frequency;
  d->dev.id.devid = info->device_id;
  r->ts_mask = d->fmt->header64 ? (UINT64_C(1) << 56) - 1 : UINT32_MAX;
  snprintf(d->device_tag, sizeof(d->device_tag), "8086:%04x",
           (unsigned)info->device_id);
  /* text from a file: sanitised like every string from outside */
  const char *set =
      info->metric_set_uuid[0] ? info->metric_set_uuid : info->metric_set_name;
  text_sanitize(d->metric_set_tag, sizeof(d->metric_set_tag), set, strlen(set));
  if (!d->acc_ready) {
    oa_accum_init(&d->acc, d->fmt, d->platform->gen12);
    d->acc_ready = true;
  }
}

static void on_topology(void *ctx, const uint8_t *blob, size_t len) {
  struct replay *r = ctx;
  uint32_t eus;
  if (i915_getparam_topology_eus(blob, len, &eus) == 0)
    r->d->dev.id.eu_total = eus;
}

static void on_correlation(void *ctx, uint64_t cpu_ns, uint64_t gpu) {
  struct replay *r = ctx;
  if (r->emit)
    return; /* pass 2 uses the points of pass 1 */
  if (!r->have_report) {
    if (r->n_pending < 4) {
      r->pending_gpu[r->n_pending] = gpu;
      r->pending_cpu[r->n_pending++] = cpu_ns;
    }
    return;
  }
  add_point(r, unwrap_near(r, gpu & r->ts_mask), cpu_ns);
}

/* CPU time at `ticks` on the report timeline. */
static uint64_t cpu_time(struct replay *r, uint64_t ticks) {
  uint64_t hz = r->d->dev.id.oa_timestamp_hz;
  if (r->n_points == 0) /* GPU time since the first report */
    return oa_ticks_to_ns(ticks, hz);
  if (r->n_points == 1)
    return ticks >= r->points[0].ticks
               ? r->points[0].cpu_ns +
                     oa_ticks_to_ns(ticks - r->points[0].ticks, hz)
               : r->points[0].cpu_ns -
                     oa_ticks_to_ns(r->points[0].ticks - ticks, hz);
  while (r->next_point + 2 < r->n_points &&
         r->points[r->next_point + 1].ticks < ticks)
    r->next_point++;
  const struct corr_point *a = &r->points[r->next_point], *b = a + 1;
  /* linear through a and b (extrapolated beyond them) */
  double t = ((double)ticks - (double)a->ticks) /
             ((double)b->ticks - (double)a->ticks);
  double ns = (double)a->cpu_ns + t * ((double)b->cpu_ns - (double)a->cpu_ns);
  return ns < 0 ? 0 : (uint64_t)ns;
}

static void emit_batch(struct replay *r, uint64_t time_ns) {
  if (r->batches > 0) { /* the host began the first batch */
    r->sink->end(r->sink);
    r->sink->begin(r->sink);
  }
  int rc = oa_report_device(r->inst, r->d, time_ns, r->sink);
  if (r->write_rc == 0 && rc < 0)
    r->write_rc = rc;
  r->batches++;
  r->unwritten = 0;
}

static void on_sample(void *ctx, const uint8_t *report) {
  struct replay *r = ctx;
  const struct oa_format *f = r->d->fmt;
  uint64_t raw = ld_ts(f, report) & r->ts_mask;
  if (!r->have_report) {
    r->have_report = true;
    r->last_raw = raw;
    r->last_ticks = 0;
    for (size_t i = 0; i < r->n_pending && !r->emit; i++)
      add_point(r, unwrap_near(r, r->pending_gpu[i] & r->ts_mask),
                r->pending_cpu[i]);
  } else {
    r->last_ticks += (raw - r->last_raw) & r->ts_mask;
    r->last_raw = raw;
  }
  if (!r->emit)
    return;
  bool first = r->d->acc.reports == 0;
  oa_accum_report(&r->d->acc, report);
  r->unwritten++;
  if (first) { /* a batch spans report i -> i + 1: floats from the first */
    r->d->prev = r->d->acc.totals;
    r->d->have_prev = true;
    return;
  }
  uint64_t now = cpu_time(r, r->last_ticks);
  if (r->window_ns == 0) {
    emit_batch(r, now);
    return;
  }
  if (!r->window_open) {
    r->window_open = true;
    r->window_start_ns = now;
  } else if (now - r->window_start_ns >= r->window_ns) {
    emit_batch(r, now);
    r->window_start_ns = now;
  }
}

static void on_status(void *ctx, uint32_t type) {
  struct replay *r = ctx;
  if (r->emit && r->d->acc_ready)
    oa_accum_status(&r->d->acc, type);
}

static int replay_pass(struct replay *r, int fd, const char *path) {
  static const struct oa_rec_ops ops = {on_info, on_topology, on_correlation,
                                        on_sample, on_status};
  struct oa_rec_parser p;
  oa_rec_parser_init(&p, &ops, r);
  if (lseek(fd, 0, SEEK_SET) < 0)
    return -errno;
  r->have_report = false;
  int rc = oa_rec_read_fd(fd, &p);
  if (rc == -1) {
    if (r->emit) /* said once, after what came before was printed */
      log_msg(LOG_LEVEL_ERROR, OA_PLUGIN, path, "Replay",
              "byte %llu: %s; everything before it is printed",
              (unsigned long long)p.error_offset, p.error);
    return -EPROTO;
  }
  if (rc < 0)
    log_errno(LOG_LEVEL_ERROR, OA_PLUGIN, path, "read", -rc, NULL);
  return rc;
}

int oa_replay_run(struct oa_instance *inst, struct metric_sink *sink) {
  const char *path = inst->cfg.replay;
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    int err = errno;
    log_errno(LOG_LEVEL_ERROR, OA_PLUGIN, path, "open", err, NULL);
    return -err;
  }
  struct oa_dev d;
  memset(&d, 0, sizeof(d));
  d.inst = inst;
  d.dev.started = true;
  struct replay r = {.inst = inst,
                     .d = &d,
                     .sink = sink,
                     .window_ns = (uint64_t)(inst->cfg.replay_interval * 1e9)};
  int rc1 = replay_pass(&r, fd, path); /* the correlation points */
  (void)rc1; /* an error is said by the second pass, at the same byte */
  memset(&d.acc, 0, sizeof(d.acc));
  d.acc_ready = false;
  r.emit = true;
  int rc = replay_pass(&r, fd, path);
  /* the last window, when it holds reports not yet written */
  if (r.window_ns > 0 && r.window_open && r.unwritten > 0)
    emit_batch(&r, cpu_time(&r, r.last_ticks));
  close(fd);
  free(r.points);
  if (rc == 0 && d.fmt == NULL) {
    log_msg(LOG_LEVEL_ERROR, OA_PLUGIN, path, "Replay",
            "no DEVICE_INFO record: nothing to replay");
    rc = -EPROTO;
  }
  return rc < 0 ? rc : r.write_rc;
}
