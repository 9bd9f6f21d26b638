/*
 * plugin_host.h: what a host hands each plugin instance at init.
 *
 * The instance name, its read interval, the clocks, the kernel seam
 * (kernel.h) and what the instances of one plugin share (plugin_shared).
 * Tests replace the clocks with scripted ones, so that no test needs real
 * time to check a value, and the kernel with tests/shim. Hosts own the
 * struct and keep it valid until instance_free().
 */
#ifndef COMMON_CORE_PLUGIN_HOST_H
#define COMMON_CORE_PLUGIN_HOST_H

#include "common/core/kernel.h"

#include <pthread.h>
#include <stdint.h>

/* The shortest read interval any host hands a plugin (both hosts refuse a
 * shorter Interval at start): below it a grid of deadlines stops
 * advancing and a read that never sleeps starves its host. */
#define PLUGIN_MIN_INTERVAL_NS 1000000ULL /* 1 ms */

struct plugin_clock {
  uint64_t (*monotonic_ns)(void *ctx); /* CLOCK_MONOTONIC: intervals */
  uint64_t (*realtime_ns)(void *ctx);  /* Unix time: record timestamps */
  void *ctx;                           /* passed back to both */
};

/*
 * What the instances of one plugin in one process share, so that no
 * plugin keeps state of its own outside its instances: objects found by
 * key under one lock (panthor_perf: one kernel session per device node,
 * read by every instance on that node). The host owns one per loaded
 * plugin (the collectd host: one for the .so; the executable: one for
 * its instance) and hands the same pointer to every instance's init. An
 * object is the plugin's (it counts its users and removes it); the
 * registry only finds it. Every call below but init/fini is made under
 * plugin_shared_lock.
 */
struct plugin_shared_entry;
struct plugin_shared {
  pthread_mutex_t lock;
  struct plugin_shared_entry *head; /* owned entries; objects borrowed */
};

void plugin_shared_init(struct plugin_shared *s);
/* Frees the entries left (their objects are not the registry's). */
void plugin_shared_fini(struct plugin_shared *s);
void plugin_shared_lock(struct plugin_shared *s);
void plugin_shared_unlock(struct plugin_shared *s);
/* The object registered under `key`, or NULL. */
void *plugin_shared_find(struct plugin_shared *s, const char *key);
/* Register `obj` under `key` (copied): 0 or -ENOMEM. */
int plugin_shared_add(struct plugin_shared *s, const char *key, void *obj);
/* Forget `obj` (no-op when absent). */
void plugin_shared_remove(struct plugin_shared *s, const void *obj);

/*
 * How a host tells an instance blocked in the kernel that it is being
 * stopped: `fd` turns readable (an eventfd written once when the stop
 * begins, never read back, so it stays readable). A plugin whose read
 * waits in poll() for its device polls this fd beside its own and returns
 * at once when it is readable: the stop waits for no Timeout. The runner
 * owns it (runner_fini writes it before it joins the workers).
 */
struct plugin_stop {
  int fd;
};

struct plugin_host {
  const char *instance;            /* borrowed: <Instance> label or plugin */
  uint64_t interval_ns;            /* this instance's read interval */
  struct plugin_clock clock;       /* see plugin_clock_system */
  const struct kernel_ops *kernel; /* borrowed: &kernel_real by default */
  struct plugin_shared *shared;    /* borrowed; NULL: nothing is shared */
  const struct plugin_stop *stop;  /* borrowed; NULL: never stopped so */
};

/* The fd to poll for a stop, or -1 (no stop signal from this host). Read
 * at each wait: a host may set `stop` after init. */
static inline int plugin_host_stop_fd(const struct plugin_host *h) {
  return h != NULL && h->stop != NULL ? h->stop->fd : -1;
}

/* CLOCK_MONOTONIC and CLOCK_REALTIME of the system. */
extern const struct plugin_clock plugin_clock_system;

/* Fill `host` with the system clocks and kernel_real, sharing nothing. */
void plugin_host_init(struct plugin_host *host, const char *instance,
                      uint64_t interval_ns);

static inline uint64_t plugin_host_monotonic_ns(const struct plugin_host *h) {
  return h->clock.monotonic_ns(h->clock.ctx);
}

static inline uint64_t plugin_host_realtime_ns(const struct plugin_host *h) {
  return h->clock.realtime_ns(h->clock.ctx);
}

#endif
