/*
 * oa_replay.c: the `Replay` mode: an igt i915-perf-recorder file (version
 * 1) printed as the records the live plugin would have written.
 *
 * Two passes over the file (a regular file: a pipe cannot be read twice),
 * each in bounded memory (oa_rec_read_fd reads 1 MiB chunks): the first
 * collects the correlation points, keeping at most REPLAY_MAX_POINTS of
 * them (evenly thinned, the last always kept); the second accumulates
 * every report (common/i915/oa_accum, as live) and writes a batch per
 * report interval (ReplayInterval 0) or per window of recording time
 * (windows from the first report's time), stamped with the CPU time of the
 * batch's last report: the line through the two nearest correlation
 * points (extrapolated beyond the first and the last, as igt
 * lib/i915/perf_data_reader.c: correlate_gpu_timestamp does before the
 * first), the CLOCK_MONOTONIC of the recording machine; with one point,
 * that point plus the GPU time from it; without, the GPU time since the
 * first report. Times are kept within 0..INT64_MAX ns.
 *
 * The timeline: the correlation records carry the CS timestamp's 36 bits,
 * so they are chained to each other (modulo 2^36) whatever the reports
 * do; a report's 32-bit timestamp is placed against the correlation
 * record just before it in the file (their low 32 bits, as igt's reader
 * masks both and looks for the chunk the report falls in), else after the
 * previous report. A point before the first report (igt's recorder writes
 * one before it opens the stream) and reports wrapping between two points
 * land where they belong.
 *
 * The second pass goes in steps (oa_replay_step): a record at a time until
 * the step's number of batches is written, its place (file offset, the
 * unparsed rest of its chunk, the accumulator and the interpolation) kept
 * for the next step; the executable takes one unbounded step, collectd a
 * batch per read.
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
#include <sys/stat.h>
#include <unistd.h>

/* Correlation points kept: 24 KiB, whatever the length of the file. */
#define REPLAY_MAX_POINTS 1024

/* RENDER_RING_TIMESTAMP, a correlation's GPU timestamp, has 36 bits (igt
 * tools/i915-perf/i915_perf_recorder.c: get_correlation_timestamps reads
 * it whole; lib/i915/perf_data_reader.c: correlate_gpu_timestamp). */
#define REPLAY_CS_BITS 36
/* A report is placed against a correlation point by their low 32 bits,
 * as igt's reader masks both (correlate_gpu_timestamp). */
#define REPLAY_PLACE_MASK UINT64_C(0xffffffff)

struct corr_point {
  int64_t cs;    /* pass 1: CS ticks from the first correlation record */
  int64_t ticks; /* then: OA ticks on the timeline (cs << shift) */
  uint64_t cpu_ns;
};

/* The correlation chain: each TIMESTAMP_CORRELATION record's CS timestamp
 * unwrapped from the previous record's (modulo 2^36), the first at 0. */
struct corr_chain {
  bool have;
  uint64_t last_raw; /* the previous record's 36 bits */
  int64_t cs;        /* its place on the chain */
};

struct replay {
  struct oa_instance *inst;
  struct oa_dev *d;
  struct metric_sink *sink;
  const char *path;
  const struct oa_rec_parser *parser; /* the pass's, for byte offsets */
  uint64_t ts_mask;                   /* the reports' timestamp width */
  struct corr_chain chain;
  /* pass 1: correlation points, every keep_every-th record kept, the
   * last one beside them */
  struct corr_point points[REPLAY_MAX_POINTS];
  size_t n_points;
  uint64_t keep_every, candidates;
  struct corr_point last_cand;
  uint64_t origin_cs; /* the first correlation record's 36 bits */
  unsigned shift;     /* CS -> OA ticks (cs_to_oa_shift) */
  /* pass 2: the report timeline in OA ticks, 0 at the first correlation
   * record (or the first report without one); a report is placed after
   * the previous report, or against the correlation record that came
   * after it in the file */
  bool have_report, corr_since_report;
  uint64_t last_raw;
  int64_t last_ticks, first_ticks;
  int64_t corr_ticks;
  uint64_t corr_low; /* that record's OA timestamp, low 32 bits */
  bool emit;
  size_t next_point;
  uint64_t window_ns, window_end_ns;
  uint64_t batches;
  uint64_t unwritten;    /* reports accumulated since the last batch */
  uint64_t step_batches; /* written by the current step */
  uint64_t until_ns;     /* the step ends after a batch past this; 0 none */
  int write_rc;
  bool said_cpu_range, said_clamp, said_topology, said_shift;
};

/* A replay in progress: pass 2 goes on from `p.offset` at the next step. */
struct oa_replay {
  struct replay r;
  struct oa_dev d;
  struct oa_rec_parser p;
  int fd;
  bool own_fd, started, done;
  bool eof;
  uint8_t *buf; /* REPLAY_CHUNK bytes; [start, have) not parsed yet */
  size_t start, have;
};

/* A record is at most 65535 bytes: a chunk always holds a whole one. */
#define REPLAY_CHUNK ((size_t)1 << 20)

/* Timeline values stay far from int64's ends whatever a file holds. */
#define REPLAY_TICKS_MAX (INT64_MAX / 4)

static int64_t ticks_add(int64_t t, int64_t d) {
  if (d > 0 && t > REPLAY_TICKS_MAX - d)
    return REPLAY_TICKS_MAX;
  if (d < 0 && t < -REPLAY_TICKS_MAX - d)
    return -REPLAY_TICKS_MAX;
  return t + d;
}

static uint64_t ld_ts(const struct oa_format *f, const uint8_t *report) {
  uint64_t v = 0;
  memcpy(&v, report + (f->header64 ? 8 : 4), f->header64 ? 8 : 4);
  return v;
}

/* A correlation's GPU timestamp is RENDER_RING_TIMESTAMP, in command
 * streamer ticks. On DG2 and graphics 12.70-12.74 the OA unit ignores the
 * CTC shift the CS timestamp is divided by: i915_perf.c:
 * i915_perf_oa_timestamp_frequency returns the CS frequency
 * << (3 - CTC_SHIFT) there (RPM_CONFIG0's CTC_SHIFT_PARAMETER, read at
 * run time; Wa_18013179988), the CS frequency elsewhere. A recording
 * holds the OA frequency only (DEVICE_INFO), so the shift is measured
 * from the correlation points (replay_shift); igt lib/i915/perf.c and
 * Mesa take 1 for every such part, the fallback here when the points
 * cannot tell. Whether the platform's timestamps differ at all. */
static bool cs_differs_from_oa(const struct oa_platform *p) {
  return p != NULL &&
         (p->gfx_ver == 1255 || (p->gfx_ver >= 1270 && p->gfx_ver <= 1274));
}

/* A correlation record on the chain (pass 1 and pass 2 alike). */
static int64_t chain_add(struct corr_chain *c, uint64_t gpu) {
  const uint64_t mask = (UINT64_C(1) << REPLAY_CS_BITS) - 1;
  gpu &= mask;
  if (!c->have) {
    c->have = true;
    c->cs = 0;
  } else {
    /* consecutive records (igt's recorder writes one a second) are taken
     * less than one wrap of the 36 bits apart: an hour at 19.2 MHz */
    c->cs = ticks_add(c->cs, (int64_t)((gpu - c->last_raw) & mask));
  }
  c->last_raw = gpu;
  return c->cs;
}

/* Pass 1: a correlation point (from the record at byte `offset`). */
static void add_point(struct replay *r, int64_t cs, uint64_t cpu_ns,
                      uint64_t offset) {
  if (cpu_ns > (uint64_t)INT64_MAX) {
    if (!r->said_cpu_range)
      log_msg(LOG_LEVEL_WARNING, OA_PLUGIN, r->path, "Replay",
              "byte %llu: TIMESTAMP_CORRELATION: CPU time %llu ns is past "
              "2^63 ns: this point and any such later are left out",
              (unsigned long long)offset, (unsigned long long)cpu_ns);
    r->said_cpu_range = true;
    return;
  }
  if (r->candidates > 0 && cs <= r->last_cand.cs)
    return; /* keep the timeline strictly increasing */
  r->last_cand = (struct corr_point){cs, 0, cpu_ns};
  if (r->candidates++ % r->keep_every != 0)
    return;
  r->points[r->n_points++] = r->last_cand;
  if (r->n_points == REPLAY_MAX_POINTS) { /* thin: every other one */
    for (size_t i = 0; i < REPLAY_MAX_POINTS / 2; i++)
      r->points[i] = r->points[2 * i];
    r->n_points = REPLAY_MAX_POINTS / 2;
    r->keep_every *= 2;
  }
}

/* 3 - CTC_SHIFT measured: the power of two nearest to the OA ticks per
 * CS tick over the points' longest span, when it is within 1/8 of one
 * of 1, 2, 4, 8; else the fallback 1 (said once). */
static unsigned replay_shift(struct replay *r) {
  uint64_t hz = r->d->dev.id.oa_timestamp_hz;
  if (!cs_differs_from_oa(r->d->platform))
    return 0;
  if (r->n_points >= 2 && hz > 0) {
    const struct corr_point *a = &r->points[0],
                            *b = &r->points[r->n_points - 1];
    double oa = (double)(b->cpu_ns - a->cpu_ns) * (double)hz / 1e9;
    double ratio = oa / (double)(b->cs - a->cs);
    for (unsigned s = 0; s <= 3; s++) {
      double want = (double)(1u << s);
      if (ratio > want * 7 / 8 && ratio < want * 9 / 8)
        return s;
    }
  }
  if (!r->said_shift && r->n_points >= 2)
    log_msg(LOG_LEVEL_NOTICE, OA_PLUGIN, r->path, "Replay",
            "the correlation points do not tell the OA/CS timestamp ratio "
            "(a power of two from 1 to 8: 3 - CTC_SHIFT); taking 2, as igt");
  r->said_shift = true;
  return 1;
}

/* After pass 1: the last candidate closes the list; the shift is
 * measured and the points put in OA ticks. */
static void close_points(struct replay *r) {
  if (r->candidates > 0 && r->last_cand.cs > r->points[r->n_points - 1].cs)
    r->points[r->n_points++] = r->last_cand; /* n_points < MAX here */
  r->shift = replay_shift(r);
  for (size_t i = 0; i < r->n_points; i++)
    r->points[i].ticks = r->points[i].cs >= REPLAY_TICKS_MAX >> r->shift
                             ? REPLAY_TICKS_MAX
                             : r->points[i].cs << r->shift;
}

/* The signed difference a - b of two timestamps modulo mask + 1. */
static int64_t ts_diff(uint64_t a, uint64_t b, uint64_t mask) {
  uint64_t d = (a - b) & mask;
  return d > mask / 2 ? -(int64_t)((b - a) & mask) : (int64_t)d;
}

/* Pass 2: the place of a report with timestamp `raw` on the timeline. */
static int64_t place_report(struct replay *r, uint64_t raw) {
  int64_t t;
  if (r->corr_since_report) /* against the correlation record before it */
    t = ticks_add(r->corr_ticks, ts_diff(raw, r->corr_low, REPLAY_PLACE_MASK));
  else if (r->have_report) /* after the previous report: never backwards */
    t = ticks_add(r->last_ticks, (int64_t)((raw - r->last_raw) & r->ts_mask));
  else if (r->n_points > 0 || r->chain.have) /* before any correlation */
    t = ts_diff(raw, (r->origin_cs << r->shift) & REPLAY_PLACE_MASK,
                REPLAY_PLACE_MASK);
  else
    t = 0;
  if (!r->have_report)
    r->first_ticks = t;
  r->have_report = true;
  r->corr_since_report = false;
  r->last_raw = raw;
  r->last_ticks = t;
  return t;
}

static void on_info(void *ctx, const struct oa_rec_device_info *info) {
  struct replay *r = ctx;
  struct oa_dev *d = r->d;
  /* a later DEVICE_INFO changes none of these (oa_rec_parse) */
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
  if (i915_getparam_topology_eus(blob, len, &eus) == 0) {
    r->d->dev.id.eu_total = eus;
    return;
  }
  if (r->emit && !r->said_topology)
    log_msg(LOG_LEVEL_WARNING, OA_PLUGIN, r->path, "Replay",
            "byte %llu: DEVICE_TOPOLOGY: its masks do not fit its %zu bytes "
            "(struct drm_i915_query_topology_info): left out, the EU count "
            "stays unknown",
            (unsigned long long)r->parser->offset, len);
  r->said_topology = r->emit;
}

static void on_correlation(void *ctx, uint64_t cpu_ns, uint64_t gpu) {
  struct replay *r = ctx;
  if (!r->chain.have)
    r->origin_cs = gpu & ((UINT64_C(1) << REPLAY_CS_BITS) - 1);
  int64_t cs = chain_add(&r->chain, gpu);
  if (!r->emit) { /* pass 1: the points */
    add_point(r, cs, cpu_ns, r->parser->offset);
    return;
  }
  r->corr_ticks =
      cs >= REPLAY_TICKS_MAX >> r->shift ? REPLAY_TICKS_MAX : cs << r->shift;
  r->corr_low = (gpu << r->shift) & REPLAY_PLACE_MASK;
  r->corr_since_report = true;
}

static uint64_t clamp_ns(struct replay *r, __int128 ns) {
  if (ns >= 0 && ns <= INT64_MAX)
    return (uint64_t)ns;
  if (!r->said_clamp)
    log_msg(LOG_LEVEL_WARNING, OA_PLUGIN, r->path, "Replay",
            "a batch time falls %s: such times are clamped",
            ns < 0 ? "before 0 ns" : "past 2^63 ns");
  r->said_clamp = true;
  return ns < 0 ? 0 : (uint64_t)INT64_MAX;
}

/* CPU time at `ticks` on the timeline. */
static uint64_t cpu_time(struct replay *r, int64_t ticks) {
  uint64_t hz = r->d->dev.id.oa_timestamp_hz;
  if (r->n_points == 0) {               /* GPU time since the first report */
    int64_t d = ticks - r->first_ticks; /* both within REPLAY_TICKS_MAX */
    return clamp_ns(r, d >= 0 ? (__int128)oa_ticks_to_ns((uint64_t)d, hz)
                              : -(__int128)oa_ticks_to_ns((uint64_t)-d, hz));
  }
  if (r->n_points == 1) {
    const struct corr_point *p = &r->points[0];
    __int128 base = p->cpu_ns;
    return clamp_ns(
        r, ticks >= p->ticks
               ? base + oa_ticks_to_ns((uint64_t)(ticks - p->ticks), hz)
               : base - oa_ticks_to_ns((uint64_t)(p->ticks - ticks), hz));
  }
  /* the two points around `ticks` (the first two or last two beyond the
   * ends); mostly the same as the previous call's */
  while (r->next_point + 2 < r->n_points &&
         r->points[r->next_point + 1].ticks < ticks)
    r->next_point++;
  while (r->next_point > 0 && r->points[r->next_point].ticks > ticks)
    r->next_point--;
  const struct corr_point *a = &r->points[r->next_point], *b = a + 1;
  /* the line through a and b: |dt| < 2^63, |dc| < 2^63, the product fits */
  __int128 dt = (__int128)ticks - (__int128)a->ticks;
  __int128 dc = (__int128)b->cpu_ns - (__int128)a->cpu_ns;
  __int128 span = (__int128)b->ticks - (__int128)a->ticks;
  return clamp_ns(r, (__int128)a->cpu_ns + dt * dc / span);
}

static void emit_batch(struct replay *r, uint64_t time_ns) {
  if (r->step_batches > 0) { /* the host began the step's first batch */
    r->sink->end(r->sink);
    r->sink->begin(r->sink);
  }
  int rc = ioa_records_write(r->inst, r->d, time_ns, r->sink);
  if (r->write_rc == 0 && rc < 0)
    r->write_rc = rc;
  r->batches++;
  r->step_batches++;
  r->unwritten = 0;
}

static void on_sample(void *ctx, const uint8_t *report) {
  struct replay *r = ctx;
  if (!r->emit)
    return; /* pass 1 reads the correlation points only */
  const struct oa_format *f = r->d->fmt;
  int64_t ticks = place_report(r, ld_ts(f, report) & r->ts_mask);
  bool first = r->d->acc.reports == 0;
  oa_accum_report(&r->d->acc, report);
  uint64_t now = cpu_time(r, ticks);
  if (first) { /* a batch spans report i -> i + 1: floats from the first */
    r->d->prev = r->d->acc.totals;
    r->d->have_prev = true;
    /* windows on a grid from the first report's time */
    r->window_end_ns = now + r->window_ns;
    return;
  }
  r->unwritten++;
  if (r->window_ns == 0) {
    emit_batch(r, now);
    return;
  }
  if (now >= r->window_end_ns) {
    emit_batch(r, now);
    uint64_t k = (now - r->window_end_ns) / r->window_ns + 1;
    r->window_end_ns += k * r->window_ns; /* < 2^63 + 86400 s: no wrap */
  }
}

static void on_status(void *ctx, uint32_t type) {
  struct replay *r = ctx;
  if (r->emit && r->d->acc_ready)
    oa_accum_status(&r->d->acc, type);
}

/* Pass 1 over the whole file: the correlation points (nothing written).
 * A read error is said here; a malformed record by pass 2, after what
 * came before it was written. */
static int replay_points(struct replay *r, int fd) {
  static const struct oa_rec_ops ops = {on_info, on_topology, on_correlation,
                                        on_sample, on_status};
  struct oa_rec_parser p;
  oa_rec_parser_init(&p, &ops, r);
  r->parser = &p;
  if (lseek(fd, 0, SEEK_SET) < 0) {
    int err = errno;
    log_errno(LOG_LEVEL_ERROR, OA_PLUGIN, r->path, "lseek", err, NULL);
    r->parser = NULL;
    return -err;
  }
  r->chain = (struct corr_chain){0};
  int rc = oa_rec_read_fd(fd, &p);
  r->parser = NULL;
  if (rc == -1)
    return -EPROTO;
  if (rc < 0)
    log_errno(LOG_LEVEL_ERROR, OA_PLUGIN, r->path, "read", -rc, NULL);
  return rc;
}

struct oa_replay *oa_replay_open(struct oa_instance *inst, int fd,
                                 const char *name) {
  struct oa_replay *rp = calloc(1, sizeof(*rp));
  uint8_t *buf = malloc(REPLAY_CHUNK);
  if (rp == NULL || buf == NULL) {
    free(rp);
    free(buf);
    log_errno(LOG_LEVEL_ERROR, OA_PLUGIN, name, "Replay", ENOMEM, NULL);
    return NULL;
  }
  struct replay *r = &rp->r;
  rp->buf = buf;
  rp->fd = fd;
  rp->d.inst = inst;
  rp->d.dev.started = true;
  r->inst = inst;
  r->d = &rp->d;
  r->path = name;
  r->keep_every = 1;
  double w = inst->cfg.replay_interval * 1e9; /* at most 86400 s */
  r->window_ns = w > 0 ? (uint64_t)w : 0;
  return rp;
}

void oa_replay_close(struct oa_replay *rp) {
  if (rp == NULL)
    return;
  if (rp->own_fd)
    close(rp->fd);
  free(rp->buf);
  free(rp);
}

bool oa_replay_done(const struct oa_replay *rp) { return rp->done; }

/* The end of pass 2 (rc: how it ended): the last window, the checks. */
static int replay_finish(struct oa_replay *rp, int rc) {
  struct replay *r = &rp->r;
  if (rc == -1) {
    log_msg(LOG_LEVEL_ERROR, OA_PLUGIN, r->path, "Replay",
            "byte %llu: %s; everything before it is printed",
            (unsigned long long)rp->p.error_offset, rp->p.error);
    rc = -EPROTO;
  }
  /* the last window, when it holds reports not yet written */
  if (r->window_ns > 0 && r->unwritten > 0)
    emit_batch(r, cpu_time(r, r->last_ticks));
  if (rc == 0 && rp->d.fmt == NULL) {
    log_msg(LOG_LEVEL_ERROR, OA_PLUGIN, r->path, "Replay",
            "no DEVICE_INFO record: nothing to replay");
    rc = -EPROTO;
  }
  if (rc == 0)
    rc = r->write_rc;
  rp->done = true;
  free(rp->buf);
  rp->buf = NULL;
  return rc;
}

/* Pass 2, record by record, until `max_batches` batches are written or
 * the file ends: 0 (more to come, or ended well: see done) or the error
 * that ended it. */
static int replay_emit(struct oa_replay *rp, uint64_t max_batches) {
  struct replay *r = &rp->r;
  r->parser = &rp->p;
  int rc = 0;
  while (r->step_batches < max_batches &&
         !(r->until_ns != 0 && r->step_batches > 0 &&
           plugin_host_monotonic_ns(r->inst->host) >= r->until_ns)) {
    size_t avail = rp->have - rp->start, want = 8;
    if (avail >=
        8) { /* the record's size (struct drm_i915_perf_record_header) */
      size_t size =
          (size_t)rp->buf[rp->start + 6] | (size_t)rp->buf[rp->start + 7] << 8;
      want = size >= 8 ? size : avail; /* a bad size: the parser says it */
    }
    if (avail < want && !rp->eof) { /* more bytes */
      memmove(rp->buf, rp->buf + rp->start, avail);
      rp->start = 0;
      rp->have = avail;
      ssize_t n = read(rp->fd, rp->buf + rp->have, REPLAY_CHUNK - rp->have);
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0) {
        int err = errno;
        log_errno(LOG_LEVEL_ERROR, OA_PLUGIN, r->path, "read", err, NULL);
        rc = -err;
        break;
      }
      rp->have += (size_t)n;
      rp->eof = n == 0;
      continue;
    }
    if (avail == 0) /* the end of the file */
      break;
    long used = oa_rec_parse(&rp->p, rp->buf + rp->start,
                             avail < want ? avail : want, rp->eof);
    if (used < 0) {
      rc = -1;
      break;
    }
    rp->start += (size_t)used;
  }
  r->parser = NULL;
  if (rc != 0 || (rp->eof && rp->start == rp->have))
    return replay_finish(rp, rc);
  return 0;
}

int oa_replay_step(struct oa_replay *rp, struct metric_sink *sink,
                   uint64_t max_batches, uint64_t until_ns) {
  struct replay *r = &rp->r;
  if (rp->done)
    return 0;
  r->sink = sink;
  r->until_ns = until_ns;
  r->step_batches = 0;
  if (!rp->started) {
    rp->started = true;
    int rc = replay_points(r, rp->fd); /* the correlation points */
    if (rc != 0 && rc != -EPROTO) {
      rp->done = true;
      return rc;
    }
    close_points(r);
    memset(&rp->d.acc, 0, sizeof(rp->d.acc));
    rp->d.acc_ready = false;
    r->emit = true;
    r->chain = (struct corr_chain){0}; /* the same chain again */
    if (lseek(rp->fd, 0, SEEK_SET) < 0) {
      int err = errno;
      log_errno(LOG_LEVEL_ERROR, OA_PLUGIN, r->path, "lseek", err, NULL);
      rp->done = true;
      return -err;
    }
    static const struct oa_rec_ops ops = {on_info, on_topology, on_correlation,
                                          on_sample, on_status};
    oa_rec_parser_init(&rp->p, &ops, r);
  }
  return replay_emit(rp, max_batches);
}

int oa_replay_fd(struct oa_instance *inst, int fd, const char *name,
                 struct metric_sink *sink) {
  struct oa_replay *rp = oa_replay_open(inst, fd, name);
  if (rp == NULL)
    return -ENOMEM;
  int rc = 0;
  while (rc == 0 && !rp->done)
    rc = oa_replay_step(rp, sink, UINT64_MAX, /*until_ns=*/0);
  oa_replay_close(rp);
  return rc;
}

struct oa_replay *oa_replay_start(struct oa_instance *inst, int *rc) {
  const char *path = inst->cfg.replay;
  /* O_NONBLOCK: a FIFO without a writer must not block open() */
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    *rc = -errno;
    log_errno(LOG_LEVEL_ERROR, OA_PLUGIN, path, "open", -*rc, NULL);
    return NULL;
  }
  struct stat st;
  if (fstat(fd, &st) < 0) {
    *rc = -errno;
    log_errno(LOG_LEVEL_ERROR, OA_PLUGIN, path, "fstat", -*rc, NULL);
    close(fd);
    return NULL;
  }
  if (!S_ISREG(st.st_mode)) {
    log_msg(LOG_LEVEL_ERROR, OA_PLUGIN, path, "Replay",
            "not a regular file (a pipe, FIFO or device): a recording is "
            "read twice, so save it to a file first");
    close(fd);
    *rc = -ESPIPE;
    return NULL;
  }
  struct oa_replay *rp = oa_replay_open(inst, fd, path);
  if (rp == NULL) {
    close(fd);
    *rc = -ENOMEM;
    return NULL;
  }
  rp->own_fd = true;
  *rc = 0;
  return rp;
}

int oa_replay_run(struct oa_instance *inst, struct metric_sink *sink) {
  int rc;
  struct oa_replay *rp = oa_replay_start(inst, &rc);
  if (rp == NULL)
    return rc;
  while (rc == 0 && !rp->done)
    rc = oa_replay_step(rp, sink, UINT64_MAX, /*until_ns=*/0);
  oa_replay_close(rp);
  return rc;
}
