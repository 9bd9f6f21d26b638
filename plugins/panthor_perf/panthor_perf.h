/*
 * panthor_perf.h: the panthor_perf plugin core (Arm Mali CSF performance
 * counters through the panthor perf uAPI, not in mainline: RFC v2 and v6
 * layouts). The pure parts live in common/panthor (pp_uapi.h structs,
 * pp_info/pp_gpu/pp_sample decoders, pp_ring, pp_counters, pp_accum);
 * here:
 *
 *   ppf_config.c      options
 *   ppf_session.c     the kernel side: device probe, session, ring reads
 *   ppf_hotplug.c     the render node watch under DevRoot (ppf_hotplug.h):
 *                     a layer under the plugin that says which nodes came
 *                     and went, and which driver a node is
 *   ppf_report.c      state -> records (const)
 *   panthor_perf.c   plugin_ops: devices, the read loop, discovery (what a
 *                     node that came or went means to the devices)
 */
#ifndef PLUGINS_PANTHOR_PERF_PANTHOR_PERF_H
#define PLUGINS_PANTHOR_PERF_PANTHOR_PERF_H

#include "common/core/cfg.h"
#include "common/core/devsession.h"
#include "common/core/kernel.h"
#include "common/core/log.h"
#include "common/core/metric.h"
#include "common/core/plugin.h"
#include "common/panthor/pp_accum.h"
#include "common/panthor/pp_gpu.h"
#include "common/panthor/pp_info.h"
#include "plugins/panthor_perf/ppf_hotplug.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define PPF_PLUGIN "panthor_perf"
#define PPF_MAX_DEVICES 16
#define PPF_DEFAULT_SLOTS 32
#define PPF_DEFAULT_TIMEOUT_MS 100

extern const struct plugin_ops panthor_perf_ops;

struct ppf_config {
  char *devices[PPF_MAX_DEVICES]; /* Device: node paths (owned) */
  size_t n_devices;
  char *dev_root;        /* DevRoot: discovery under <root>/dri (owned) */
  enum pp_layout layout; /* UAPI: PP_LAYOUT_NONE = auto */
  uint8_t counter_set;   /* CounterSet: PP_SET_* */
  uint32_t ring_slots;   /* RingSlots: power of two */
  uint32_t timeout_ms;   /* Timeout: eventfd wait per read */
  struct pp_counter_spec counters[PP_ACCUM_MAX_RAW]; /* Counter */
  size_t n_counters;
  bool per_core; /* PerCore */
};

/* ---- the session hooks (ppf_session.c) ---------------------------------
 * One session per device node, shared by every instance that reads it (the
 * kernel allows two sessions system-wide). */
struct ppf_session;

struct ppf_session_params {
  const char *path;                /* borrowed: the render node */
  const struct kernel_ops *kernel; /* borrowed: the host's seam */
  struct plugin_shared *shared;    /* borrowed: the host's; NULL: unshared */
  enum pp_layout layout;           /* forced, or PP_LAYOUT_NONE: detect */
  uint8_t counter_set;
  uint32_t ring_slots;
  uint32_t timeout_ms;
  bool quiet; /* a re-probe: failures were said at the first attempt */
};

/* Delivered once per consumed sample, in ring order; `sample` is borrowed
 * (the ring slot, len = info.sample_size) for the duration of the call. */
typedef void (*ppf_sample_fn)(void *ctx, const uint8_t *sample, size_t len);

/*
 * Open the node (or join the session already open on it), check it is
 * panthor, decode GPU_INFO into *gpu and detect the layout by DEV_QUERY
 * PERF_INFO into *info. No PERF_CONTROL is issued. 0, or a negative errno
 * after logging "panthor_perf: <path>: ..." (-EOPNOTSUPP: a kernel without
 * the perf uAPI, said once with the drm_fdinfo hint).
 */
int ppf_session_init(const struct ppf_session_params *p,
                     struct ppf_session **out, struct pp_gpu *gpu,
                     struct pp_info *info);

/* SETUP (every counter of every block enabled, so that an instance joining
 * a running session never needs another) + START, unless started. 0 or a
 * negative errno after logging (nothing logged when `quiet`). */
int ppf_session_start(struct ppf_session *s, bool quiet);

/*
 * One read at monotonic time `now_ns` (the host's clock; it paces the
 * reopen of a failed node): SAMPLE with the next sequence number as
 * user_data (numbered 1, 2, 3... per session, advanced only when SAMPLE
 * succeeded), wait on the eventfd (up to Timeout; at once no longer when
 * `stop_fd`, the host's plugin_host_stop_fd or -1, turns readable: the
 * host is stopping), consume every ready sample through `fn`,
 * write back the wrapped extract. Counts EBUSY skips in stream->busy_skips and
 * reopens in stream->reopens (calling `restart(ctx)` after one). 0 or a
 * negative errno after logging (the device failed this read). Shared session:
 * each sample's counters are deltas since the previous sample, so every
 * instance on the device must see every sample: a read by one instance delivers
 * to its own `fn` at once and queues the samples for every other handle, which
 * receives them, in order, at its own next read (so one instance's totals are
 * never touched from another thread; sequence numbers are the session's, so no
 * instance sees false gaps).
 */
int ppf_session_read(struct ppf_session *s, uint64_t now_ns, int stop_fd,
                     ppf_sample_fn fn, void (*restart)(void *ctx), void *ctx,
                     struct pp_stream *stream);

/* STOP, its final sample, TEARDOWN, unmap, close (the last user of a
 * shared session). NULL is a no-op. */
void ppf_session_free(struct ppf_session *s);

/* The node was removed: the session leaves the registry at once (a node
 * that comes back is a new session), and the last user's STOP and
 * TEARDOWN are tried without a word (an unplugged device answers every
 * ioctl ENODEV: drm_ioctl's drm_dev_is_unplugged check). Then as
 * ppf_session_free. NULL is a no-op. */
void ppf_session_free_gone(struct ppf_session *s);

/* ---- the core ---------------------------------------------------------- */
struct ppf_device {
  char *path;     /* owned */
  ino_t ino;      /* discovery: the node's inode (a recreated node is new) */
  char name[256]; /* `device` tag: platform/PCI name, renderD<minor>, or
                   * the path (ppf_device_name in panthor_perf.c) */
  struct ppf_session *session;
  struct pp_gpu gpu;
  struct pp_info info;
  struct pp_accum acc;
  struct pp_counter_loc counters[PP_ACCUM_MAX_RAW]; /* resolved Counter */
  bool started;
  struct log_complaint sample_complaint; /* malformed samples */
};

struct pp {
  struct ppf_config cfg;
  const struct plugin_host *host; /* borrowed, from init */
  struct ppf_device *devs;        /* owned, n_devs (cap_devs) */
  size_t n_devs, cap_devs;
  /* No Device option: <DevRoot>/dri is listed at every read (names and
   * inodes only, no node is opened: ppf_hotplug.h) and the nodes that came
   * or went are taken or dropped; nodes whose probe failed are probed
   * again on this session's backoff (1 s doubling to 1 min). */
  bool discovering;
  struct ppf_hotplug watch;
  struct devsession discovery;
};

/* ppf_config.c: defaults (Device none, UAPI auto, CounterSet primary,
 * RingSlots 32, Timeout 100 ms), one option, release. */
void ppf_config_defaults(struct ppf_config *cfg);
int ppf_config_apply(struct ppf_config *cfg, const struct cfg_item *item);
/* The keys ppf_config_apply() takes (cfg.h), for --help. */
extern const struct cfg_option ppf_options[];
void ppf_config_fini(struct ppf_config *cfg);

/* ppf_report.c: the records of one device at Unix time `time_ns`; `m` are
 * its metrics of this interval (pp_accum_metrics). 0 or the first error. */
int ppf_report(const struct pp *p, const struct ppf_device *d,
               const struct pp_metrics *m, struct metric_sink *sink,
               uint64_t time_ns);

#endif
