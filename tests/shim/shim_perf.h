/*
 * shim_perf.h: the perf_event_open driver of the shim (shim_perf.c) and
 * its scripting API for in-process tests.
 *
 * Opens of PMU types >= the type base (SHIM_PERF_TYPE_BASE unless set)
 * are emulated with the kernel's validation for uncore PMUs; other types
 * reach the real syscall. An event counts `rate` per second of its
 * running time, on a clock the test may script, so every count is exact.
 * Running time: with counters scripted for the type
 * (shim_perf_set_counters), groups compete for them and rotate as the
 * kernel's scheduler makes them (shim_perf.c); otherwise every group runs,
 * for num / den of its enabled time when a ratio is scripted. Default rate of
 * (type, config): 1e6 * (1 + (config & 0xffffffff) % 97 + (config >> 32)).
 * Every setter takes effect for later reads and opens (a rate applies to
 * the whole running time: set it before counting); thread-safe.
 */
#ifndef TESTS_SHIM_SHIM_PERF_H
#define TESTS_SHIM_SHIM_PERF_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#define SHIM_PERF_TYPE_BASE 4000
#define SHIM_PERF_ANY_CONFIG UINT64_MAX

struct perf_event_attr;

/* Turn the driver on (shim_kernel.perf_event_open and the preloaded
 * syscall() then emulate claimed types). Idempotent; returns 0. */
int shim_perf_register(void);
/* Turn it on and apply the environment: SHIM_PERF_TYPE_BASE=<n>,
 * SHIM_PERF_EACCES_TYPE=<type>, SHIM_PERF_FAIL=<type>:<errno>[,...],
 * SHIM_PERF_RATE=<type>:<config>:<per_s>[,...] (config "*" = any),
 * SHIM_PERF_RUNNING=<type>:<num>:<den>[,...],
 * SHIM_PERF_COUNTERS=<type>:<general>[:<cycles config>][,...] (with a
 * third number: a dedicated cycle counter for that config),
 * SHIM_PERF_MUX_MS=<ms>. 0, or -1/EINVAL on a
 * malformed value (message on stderr; the valid part applies). */
int shim_perf_load_env(void);

/* Forget every script below (rates, ratios, failures, clock, base);
 * open events keep counting with the defaults. */
void shim_perf_reset(void);
/* Emulate types >= `base` (0: every type). */
void shim_perf_set_type_base(uint32_t base);
/* `per_s` events per second of running time for (type, config);
 * config SHIM_PERF_ANY_CONFIG sets the type's default. 0, or -1/ENOMEM
 * when the table (256 entries) is full. */
int shim_perf_set_rate(uint32_t type, uint64_t config, uint64_t per_s);
/* Events of `type` run num/den of their enabled time (den != 0). */
void shim_perf_set_running_ratio(uint32_t type, uint32_t num, uint32_t den);
/* `type` has `n_general` counters and, when has_cycle, one dedicated
 * cycle counter that only events of config `cycles_config` use (and they
 * use nothing else): groups compete and rotate. */
void shim_perf_set_counters(uint32_t type, uint32_t n_general, bool has_cycle,
                            uint64_t cycles_config);
/* The rotation interval (perf_event_mux_interval_ms; 0: 4 ms). */
void shim_perf_set_mux_interval(uint64_t ns);
/* Opens of `type` fail with `err` (0: succeed again). */
void shim_perf_fail_type(uint32_t type, int err);
/* Read time from now_ns(ctx) (borrowed) instead of CLOCK_MONOTONIC;
 * NULL restores it. */
void shim_perf_set_clock(uint64_t (*now_ns)(void *ctx), void *ctx);

/* Whether the driver emulates opens of `attr` (non-NULL). */
int shim_perf_claims(const struct perf_event_attr *attr);
/* perf_event_open(2) on an emulated type: an fd, or -1 with errno. */
int shim_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu,
                         int group_fd, unsigned long flags);

/* What a test may check about an open event. */
struct shim_perf_info {
  uint32_t type, attr_size;
  uint64_t config, config1, config2;
  uint64_t config3, config4; /* size >= 136, >= 144 */
  uint64_t id, leader_id;    /* leader_id == id: leader */
  int cpu;
};
/* Call fn for every event whose fd is open, oldest first; returns the
 * number visited. fn must not call back into the shim. */
size_t shim_perf_for_each(void (*fn)(const struct shim_perf_info *info,
                                     void *ctx),
                          void *ctx);

#endif
