/*
 * i915_oa.h: the i915_oa plugin core: one OA stream per i915 device,
 * drained at every read (and by the host's drain hook between reads),
 * every report accumulated into 64-bit totals (common/i915/oa_accum), and
 * records built from that state (ioa_records.c). plugins/i915_oa/README.md
 * lists the options and records.
 */
#ifndef PLUGINS_I915_OA_I915_OA_H
#define PLUGINS_I915_OA_I915_OA_H

#include "common/core/cfg.h"
#include "common/core/log.h"
#include "common/core/metric.h"
#include "common/core/plugin.h"
#include "common/i915/i915_device.h"
#include "common/i915/i915_flex.h"
#include "common/i915/oa_accum.h"
#include "common/i915/oa_platform.h"

#include <stdbool.h>
#include <stdint.h>

#define OA_PLUGIN "i915_oa"
#define OA_MAX_DEVICES 16
#define OA_DEFAULT_PERIOD_NS UINT64_C(10000000) /* 10 ms: 100 reports/s */

struct oa_flex_cfg {
  char name[32]; /* field name, e.g. "eu_active" */
  struct i915_flex_event event;
};

struct oa_config {
  char *devices[OA_MAX_DEVICES]; /* node paths or PCI addresses */
  size_t n_devices;
  char *metric_set; /* uuid or decimal id; NULL: the FlexEvent config */
  uint32_t format;  /* drm_i915_oa_format; 0: the platform's default */
  uint64_t period_ns;
  int engine_class, engine_instance; /* -1: the kernel's default */
  struct oa_flex_cfg flex[I915_FLEX_COUNTERS];
  size_t n_flex;
  bool eu_metrics;        /* the set is the platform's Render Basic */
  char *replay;           /* a recorder file: replay it instead of devices */
  double replay_interval; /* seconds of recording per batch; 0: per report */
  unsigned duty_cycle;    /* the stream is open one interval in N; 1 always */
  char *sysfs_root, *dev_root, *proc_root;
};

/* One device's stream and what has been accumulated from it. */
struct oa_dev {
  struct i915_device dev;
  struct i915_device_params params; /* per device: format, exponent */
  const struct oa_platform *platform;
  const struct oa_format *fmt;
  struct oa_accum acc;
  bool acc_ready;
  struct oa_totals prev; /* totals at the previous read */
  bool have_prev;
  char device_tag[DRM_NODE_PCI_MAX + 16];
  char metric_set_tag[48];
  uint64_t malformed; /* buffers with a malformed record */
  /* xe: COUNTER_OVERFLOW and MMIO trigger queue full statuses (the lost
   * reports are in acc), bytes after the last whole report of a read */
  struct xe_oa_stream_counts xe_counts;
  uint64_t max_clock_hz; /* RP0 from sysfs, 0 unknown */
  uint64_t window_ns;    /* DutyCycle: time the stream was open in windows */
  uint64_t window_start; /* monotonic ns the open window began; 0 none */
  uint64_t windows;      /* windows opened */
  struct log_complaint malformed_complaint;
  struct log_complaint identity_complaint; /* a device the config cannot use */
  struct oa_instance *inst;                /* back pointer, for on_identity */
};

struct oa_instance {
  struct oa_config cfg;
  const struct plugin_host *host;
  struct oa_dev *devs;
  size_t n_devs;
  uint32_t flex_pairs[2 * I915_FLEX_REGS];
  size_t n_flex_regs;
  unsigned flex_counter[I915_FLEX_COUNTERS]; /* event i -> A counter */
  uint64_t max_rate_hz; /* dev.i915.oa_max_sample_rate; 0 unknown */
  bool privileged;      /* CAP_PERFMON or CAP_SYS_ADMIN */
  uint64_t reads;       /* read() calls (Replay prints from the second) */
  struct oa_replay *replay_state; /* from the second read to the end */
  uint64_t replay_last_ns;        /* monotonic time of its last step */
  /* DutyCycle: read()s since the window closed; start of the first */
  unsigned cycle_pos;
  bool in_window;
  uint64_t init_ns;
  /* Discovery found no device at init: looked for again at reads, on
   * this session's backoff (1 s doubling to 1 min). */
  bool relook;
  struct devsession discovery;
};

extern const struct plugin_ops i915_oa_ops;

/* oa_config.c */
void oa_config_defaults(struct oa_config *cfg);
void oa_config_fini(struct oa_config *cfg);
int oa_config_apply(struct oa_config *cfg, const struct cfg_item *item);
/* The keys oa_config_apply() takes (cfg.h), for --help. */
extern const struct cfg_option oa_options[];

/* ioa_records.c: the records of one device from its state; 0 or the first
 * negative errno of the sink. */
int ioa_records_write(const struct oa_instance *inst, struct oa_dev *d,
                      uint64_t time_ns, struct metric_sink *sink);

/* oa_replay.c: replay cfg.replay into `sink`, one begin/end per batch
 * (the host began the first and ends the last). 0, or a negative errno
 * (-EPROTO for a malformed file, after what came before was written). */
int oa_replay_run(struct oa_instance *inst, struct metric_sink *sink);

/* The same over an open regular file `fd` (read from its start, twice),
 * named `name` in messages. */
int oa_replay_fd(struct oa_instance *inst, int fd, const char *name,
                 struct metric_sink *sink);

/* A replay written in steps: oa_replay_start opens cfg.replay (NULL with
 * *rc a negative errno, said), each oa_replay_step writes at most
 * `max_batches` batches (one begin/end per batch, the host began the
 * first and ends the last; the correlation pass is part of the first
 * step) and keeps its place in the file for the next; after the step that
 * reaches the end (or an error, returned by that step) oa_replay_done is
 * true and further steps write nothing. Memory is bounded: a 1 MiB chunk
 * and the correlation points. */
struct oa_replay;
struct oa_replay *oa_replay_start(struct oa_instance *inst, int *rc);
struct oa_replay *oa_replay_open(struct oa_instance *inst, int fd,
                                 const char *name);
int oa_replay_step(struct oa_replay *rp, struct metric_sink *sink,
                   uint64_t max_batches);
bool oa_replay_done(const struct oa_replay *rp);
void oa_replay_close(struct oa_replay *rp);

/* main.c sets it: the executable writes a whole recording in one read.
 * Otherwise (collectd) a read writes one batch: collectd's write threads
 * may reorder values queued together, never those of reads an interval
 * apart, and its queue holds one batch, not the recording. */
extern bool oa_replay_whole;

/* oa_period.c: the smallest exponent (0..31) whose period
 * ceil(2^(e+1) * 1e9 / hz) is at least `period_ns` (i915_perf.c:
 * oa_exponent_to_ns); 31 when none is, 0 when hz is 0. Pure. */
int oa_exponent_for_period(uint64_t period_ns, uint64_t hz);

/* ceil(2^(e+1) * 1e9 / hz), the period of exponent `e` (0..31); 0 when hz
 * is 0. Pure. */
uint64_t oa_exponent_period_ns(int e, uint64_t hz);

/* The GPU clock assumed when sysfs gives no RP0: above every i915 GPU's
 * highest frequency (DG2's RP0 is 2.4 GHz). */
#define OA_MAX_CLOCK_FALLBACK_HZ UINT64_C(2500000000)

/* The longest period between reports at which a 32-bit report field
 * cannot wrap unseen: the GPU clock ticks and the 32-bit counters (B, C,
 * A32+ and on DG2/MTL A0-A3, GpuBusy's A0 among them) advance at most once
 * per GPU clock, so at `max_clock_hz` (RP0; 0: the fallback) they wrap
 * after 2^32 / max_clock_hz s; half of that leaves one report between
 * wraps whatever the phase. On an idle GPU no context-switch report comes
 * between periodic ones. Pure. */
uint64_t oa_period_cap_ns(uint64_t max_clock_hz);

/* Exponent `e` lowered until its period at `hz` is at most `cap_ns` (0
 * at least). Pure. */
int oa_exponent_cap(int e, uint64_t hz, uint64_t cap_ns);

/* Whether the process holds CAP_PERFMON or CAP_SYS_ADMIN (CapEff of
 * `<proc_root>/self/status`). */
bool oa_privileged(const char *proc_root);

#endif
