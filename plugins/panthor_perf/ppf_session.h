/*
 * ppf_session.h: the kernel side of panthor_perf behind the session hooks
 * of panthor_perf.h. Two files:
 *
 *   ppf_device.c   one device's kernel objects: open and identify the node
 *                 (DRM_IOCTL_VERSION, GPU_INFO, the PERF_INFO size probe
 *                 that picks the layout), the ring and control BOs and
 *                 their mappings, the eventfd, SETUP/START, the bounded
 *                 eventfd wait, STOP/final sample/TEARDOWN, close; errors
 *                 in words.
 *   ppf_session.c  the hooks: sessions shared per node (refcounted, one
 *                 lock, found through the host's plugin_shared), the read
 *                 (SAMPLE, bounded eventfd wait, ring consumption),
 *                 reopen with backoff (common/core/devsession), discovery.
 */
#ifndef PLUGINS_PANTHOR_PERF_PP_SESSION_H
#define PLUGINS_PANTHOR_PERF_PP_SESSION_H

#include "plugins/panthor_perf/panthor_perf.h"

#include <stdbool.h>
#include <stdint.h>

/* One device's kernel objects (ppf_device.c). fd, efd -1 when closed. */
struct ppf_dev {
  char path[256];
  const struct kernel_ops *k;
  enum pp_layout forced; /* UAPI option; PP_LAYOUT_NONE: detect */
  uint8_t counter_set;
  uint32_t slots;
  int fd, efd;
  struct pp_gpu gpu;
  struct pp_info info;
  unsigned long control; /* the PERF_CONTROL number, once PERF_INFO said */
  uint32_t ring_handle, ctrl_handle;
  uint8_t *ring; /* PROT_READ */
  uint64_t ring_size;
  uint8_t *ctrl; /* PROT_READ | PROT_WRITE; indices at offset 0 */
  uint64_t ctrl_size;
  bool have_session, active;
  bool quiet_end; /* the node is gone: STOP and TEARDOWN say nothing */
  uint32_t sid;
  uint32_t wait_ms; /* the longest wait for a sample (Timeout) */
};

/* Open and identify (no PERF_CONTROL). `quiet`: log nothing (reopen
 * attempts). 0, or a negative errno after logging; -EOPNOTSUPP: no perf
 * uAPI (the one message with the drm_fdinfo hint). */
int ppf_dev_open(struct ppf_dev *d, bool quiet);

/* BOs, mappings, eventfd, SETUP with every counter enabled, START. 0, or
 * a negative errno after logging the cause in words (EBUSY, EACCES,
 * ENOMEM...). */
int ppf_dev_start(struct ppf_dev *d, bool quiet);

/* The published insert index and our extract (control BO). */
uint64_t ppf_dev_insert(const struct ppf_dev *d);
uint64_t ppf_dev_extract(const struct ppf_dev *d);
void ppf_dev_set_extract(struct ppf_dev *d, uint64_t extract);

/* PERF_CONTROL `cmd` with a user_data argument (never a NULL pointer).
 * 0, or -1 with errno. */
int ppf_dev_command(struct ppf_dev *d, uint32_t cmd, uint64_t user_data);

/* Wait up to `timeout_ms` for the eventfd: 1 readable, 0 timed out,
 * -EINTR when a signal came (the wait ends there: the sample, when it
 * comes, is read by the next read), -ECANCELED when `stop_fd` (>= 0: the
 * host's plugin_host_stop_fd) turned readable first, or another negative
 * errno. */
int ppf_dev_wait(struct ppf_dev *d, uint32_t timeout_ms, int stop_fd);

/* STOP, wait (bounded by wait_ms) for its final sample and consume it,
 * one TEARDOWN (a refusal, which leaks the session in the v5/v6-era
 * kernel, is said), unmap, GEM_CLOSE, close the eventfd and the node.
 * `dead`: the node failed (ENODEV/EIO): skip the commands. Idempotent. */
void ppf_dev_close(struct ppf_dev *d, bool dead);

/* "primary", "secondary", "tertiary". */
const char *ppf_set_name(uint8_t set);

#endif
