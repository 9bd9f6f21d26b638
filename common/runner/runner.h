/*
 * runner.h: the executables' scheduler, one for every plugin in the
 * process (a single plugin's executable and gpu-telemetry alike).
 *
 * Each plugin instance is read on its own worker thread, one job at a time
 * (a read or a drain: plugin.h's contract that no instance is entered from
 * two threads at once), on its own interval; its init runs first on that
 * thread too (runner_init_start), so an init that hangs holds only its
 * instance. The host's thread keeps the clock: it starts jobs when they
 * are due, collects finished reads and writes the outputs; it never runs
 * plugin code before free. So
 * a plugin that is slow, or whose read blocks on a hung device, delays no
 * other plugin's records and never holds a scrape or the live view: its
 * next reads are skipped while it is busy (said once), and after
 * RUNNER_STALE_INTERVALS intervals without a finished read its values are
 * no longer served as current (runner_current).
 *
 * Every finished read is kept as a snapshot (snapshot.h) of its records;
 * the outputs consume those:
 *  - line formats write each read once, in batches (runner_write_fresh):
 *    reads started together (one "round") are written together once all
 *    of them finished, or RUNNER_ROUND_GRACE_NS after they started, the
 *    late ones then in a batch of their own when they finish;
 *  - the Prometheus page and the live view are redrawn from the last read
 *    of every instance (runner_write_current).
 *
 * Signals (SIGINT, SIGTERM, SIGHUP, SIGWINCH) are blocked in the workers,
 * so their handlers run on the host's thread and end its waits.
 */
#ifndef COMMON_HOST_RUNNER_H
#define COMMON_HOST_RUNNER_H

#include "common/core/log.h"
#include "common/core/plugin.h"
#include "common/core/record_check.h"
#include "common/runner/snapshot.h"

#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* An instance whose last finished read is older than this many of its
 * intervals is stale: not served, its success gauge 0. */
#define RUNNER_STALE_INTERVALS 3

/* The most instances one runner takes: each has a thread of its own. */
#define RUNNER_MAX_INSTANCES 1024

/* How long a round's batch waits for its slowest read (at most half the
 * shortest interval of the round). */
#define RUNNER_ROUND_GRACE_NS 1000000000ULL /* 1 s */

enum runner_job { RUNNER_IDLE, RUNNER_READ, RUNNER_DRAIN, RUNNER_QUIT };

struct runner_instance {
  /* Set by runner_add. */
  const struct plugin_ops *ops;
  void *inst;  /* initialised; freed by runner_fini when its worker ended */
  char *label; /* owned: the instance name (collectd's plugin_instance) */
  uint64_t interval_ns;
  uint64_t drain_ns;       /* 0: no drain between reads */
  bool no_window;          /* read right after its priming read (a replay read
                            * whole: plugin_ops.replays), whatever the delay */
  struct plugin_host host; /* handed to init; valid until the free */
  struct record_check check;

  /* Init on the worker (runner_init_start), under `lock`. */
  bool init_pending; /* init is running */
  bool init_done;    /* init returned; init_rc is its value */
  int init_rc;
  uint64_t init_start_ns; /* when it was started (set before the thread) */
  uint64_t init_end_ns;   /* when it returned */
  /* The host thread's: whether it is read. */
  bool ready; /* committed: read from now on */
  bool late;  /* init had not returned when the others started */
  bool dead;  /* its init failed after the start: never read */

  /* Shared with the worker, under `lock`. */
  pthread_t thread;
  bool thread_started;
  pthread_mutex_t lock;
  pthread_cond_t cond;
  enum runner_job job;  /* asked; RUNNER_IDLE when none is pending */
  bool busy;            /* a job is running */
  bool finished;        /* a read finished and was not collected */
  bool discard;         /* the running read primes: its records are dropped */
  struct snapshot work; /* the read in progress (the worker's) */
  struct cfg_item *reconfigure; /* items to configure before the next read */
  size_t n_reconfigure;
  int work_rc;
  uint64_t work_start_ns, work_end_ns, work_unix_ns;
  int work_devices;     /* plugin.h: found, after the read; -1: no op */
  char work_found[256]; /* its line */

  /* The host thread's. */
  struct snapshot last; /* the last collected read */
  bool have_last;
  int last_rc;                /* its return value */
  uint64_t last_duration_ns;  /* how long it took */
  uint64_t last_unix_ns;      /* when it finished, Unix time */
  uint64_t last_end_ns;       /* when it finished, monotonic */
  uint64_t started_ns;        /* when the running job started */
  uint64_t next_read_ns;      /* 0: no read scheduled */
  uint64_t next_drain_ns;     /* 0: none */
  unsigned round;             /* the round its last read belonged to */
  bool in_round;              /* its read of the open round is running */
  bool fresh;                 /* collected, not yet written by a batch */
  bool read_pending;          /* a read was started and is not collected */
  uint64_t delay_ns;          /* runner_schedule_from's, while pending */
  uint64_t anchor_ns;         /* when runner_schedule_from was called */
  bool schedule_at_end;       /* schedule when the pending read ends */
  uint64_t skipped;           /* due reads skipped while busy */
  struct log_complaint slow;  /* said: a read is still running when due */
  struct log_complaint stuck; /* said: no read finished for long */
  int devices;                /* found at the last read (or init); -1: the
                               * plugin does not say (no found op) */
  char found[256];            /* what it found, or why nothing */
};

struct runner {
  struct runner_instance **inst;
  size_t n;
  int wake[2]; /* a worker writes a byte when it finishes a job */
  /* written once by runner_fini: ends the plugins' waits in the kernel
   * (plugin_host.h: plugin_stop), handed to every instance's host by
   * runner_start */
  struct plugin_stop stop;
  unsigned round;          /* the open round's number (0: none yet) */
  uint64_t round_deadline; /* when the open round's batch is written */
  bool round_open;
  bool say_found; /* say what an instance found when it changes */
  bool scheduled; /* runner_schedule_from was called: a late init primes */
};

/* 0 or -errno (pipe). */
int runner_init(struct runner *r);

/*
 * Add a slot for an instance of `ops` named `label`, read every
 * `interval_ns` (>= PLUGIN_MIN_INTERVAL_NS, or 0 for reads only on
 * demand), and return it, or NULL on ENOMEM. Its `host` is what the
 * caller hands to ops->init (fill it with plugin_host_init); then either
 * runner_commit with the initialised instance or runner_drop.
 */
struct runner_instance *runner_add(struct runner *r,
                                   const struct plugin_ops *ops,
                                   const char *label, uint64_t interval_ns);
/* `inst` (ops->init returned 0) is read from runner_start on. Asks it
 * what it found (plugin.h: found) into i->devices and i->found. */
void runner_commit(struct runner_instance *i, void *inst);

/* Say at NOTICE what instance `i` found ("found: 2 devices: i915 card0,
 * ..." or "found: no device: <why>"); nothing when its plugin has no
 * found op. runner_collect says it again when the count changes, if
 * r->say_found (gpu-telemetry's). */
void runner_say_found(const struct runner_instance *i);
/*
 * Run ops->init(inst, &i->host) on the instance's own worker thread,
 * started now (signals blocked in it, as runner_start does), so that an
 * init that hangs holds only its instance. The instance is `i->inst`
 * from now on (runner_fini frees it). Then runner_await_inits. 0, or
 * -errno of pthread_create (nothing started: `inst` is the caller's
 * again and the slot is to be dropped).
 */
int runner_init_start(struct runner *r, struct runner_instance *i, void *inst);

/*
 * Wait until every init started by runner_init_start returned, at most
 * `wait_ns`, or `*stop` is set (a signal). Then each instance whose init
 * returned 0 is committed (runner_commit); one still in init is marked
 * late and said once at WARNING: it is committed, primed and scheduled by
 * runner_collect when its init returns, and stays out of every read until
 * then (its success gauge 0). Returns how many are still in init.
 */
size_t runner_await_inits(struct runner *r, uint64_t wait_ns,
                          volatile sig_atomic_t *stop);

/* The init result of `i` after runner_await_inits: 1 while it runs
 * (late), else its return value. */
int runner_init_result(struct runner_instance *i);

/* Remove `i` (its init failed) from the runner: its thread, which ended,
 * joined, its instance freed (ops->instance_free), the slot freed. */
void runner_remove(struct runner *r, struct runner_instance *i);
/* Forget the slot runner_add returned last (its instance is the
 * caller's). */
void runner_drop(struct runner *r);

/* Start the workers. 0 or -errno (nothing started). */
int runner_start(struct runner *r);

/*
 * Hand `item` (copied) to instance `i`'s configure() on its worker, just
 * before its next read: a key changed while running (the live view's c
 * and g keys) without entering the plugin from a second thread. 0 or
 * -ENOMEM.
 */
int runner_reconfigure(struct runner_instance *i, const struct cfg_item *item);

/* CLOCK_MONOTONIC now, nanoseconds. */
uint64_t runner_now(void);

/* Ask every instance whose worker is free for a read now, as one round;
 * `discard`: a priming read (rates need a previous sample), whose records
 * are never written. Returns how many were started. */
size_t runner_read_all(struct runner *r, uint64_t now, bool discard);

/* runner_schedule_from's delay: one interval of each instance (none for
 * an instance read on demand). */
#define RUNNER_EACH_INTERVAL UINT64_MAX

/* Schedule every instance's next read `delay_ns` after its last read
 * ended (when that read is still running: after it ends), and every
 * `interval_ns` after that; and its drains from now on. */
void runner_schedule_from(struct runner *r, uint64_t now, uint64_t delay_ns);

/* Start the reads and drains that are due (reads due together form one
 * round). Missed deadlines are skipped, not caught up. */
void runner_tick(struct runner *r, uint64_t now);

/* Milliseconds until the next due read, drain or round deadline (0: now,
 * -1: nothing scheduled), capped at `cap_ms` when >= 0. */
int runner_timeout_ms(const struct runner *r, uint64_t now, int cap_ms);

/* Wait until a worker finishes a job, `fd` (>= 0) is readable, a signal
 * arrives or `timeout_ms` passes. Returns 1 when `fd` is readable (or
 * hung up), else 0. */
int runner_wait(struct runner *r, int fd, int timeout_ms);

/* Collect the finished jobs. Returns how many reads were collected. */
size_t runner_collect(struct runner *r, uint64_t now);

/* True while a read started by runner_read_all or runner_tick has not
 * been collected. */
bool runner_reading(const struct runner *r);

/* True when a batch is due: a finished read whose round is over (all of
 * its reads finished, or its grace passed). */
bool runner_batch_ready(const struct runner *r, uint64_t now);

/* Replay into `sink` the reads that are fresh and whose round is over
 * (all when `all_fresh`), in instance order, and mark them written. The
 * caller frames the batch (begin, end). Returns how many reads. */
size_t runner_write_fresh(struct runner *r, struct metric_sink *sink,
                          uint64_t now, bool all_fresh);

/* Replay into `sink` the last read of every instance that is not stale.
 * Returns how many reads. */
size_t runner_write_current(struct runner *r, struct metric_sink *sink,
                            uint64_t now);

/* True when instance `i`'s last read is current: collected, and finished
 * within RUNNER_STALE_INTERVALS intervals (always, with no interval). */
bool runner_current(const struct runner_instance *i, uint64_t now);

/* The longest read interval (0 when none). */
uint64_t runner_longest_interval(const struct runner *r);

/*
 * Stop the workers: the stop fd is written (a plugin blocked in poll()
 * for its device returns at once), each worker is asked to quit and
 * joined, waiting at most `wait_ns` in all for the jobs still running. An
 * instance whose worker ended is freed (ops->instance_free restores what init
 * changed); one still in a read is left to the process's exit, said at WARNING.
 * Returns how many were left so (then nothing they may use, such as the
 * plugin_shared of their plugin, may be freed either).
 */
size_t runner_fini(struct runner *r, uint64_t wait_ns);

#endif
