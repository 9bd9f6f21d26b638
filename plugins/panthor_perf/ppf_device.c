/*
 * ppf_device.c: one panthor node's kernel objects (ppf_session.h), through
 * the kernel seam only: open, ioctl, mmap of the DRM fd, eventfd, poll,
 * close. The layout is picked by DEV_QUERY PERF_INFO with a NULL pointer
 * (a size probe) before any PERF_CONTROL number is issued: on mainline,
 * id 13 is BO_SET_LABEL (panthor_drv.c: panthor_drm_driver_ioctls).
 */
#include "plugins/panthor_perf/ppf_session.h"

#include "common/drm/drm_node.h"
#include "common/panthor/pp_ring.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <unistd.h>

#define PPF_CTRL_SIZE 4096u

/* DEV_QUERY `type`: its size (panthor_ioctl_dev_query answers a NULL
 * pointer with the kernel object's size), then, with `buf`, up to *len
 * bytes of it. PANTHOR_UOBJ_SET (panthor_set_uobj) copies min(user,
 * kernel) bytes and zeroes the rest without writing `size` back, so the
 * bytes that came from the kernel are min(*len, probed size): *len is set
 * to that, never to a size read back. */
static int ppf_query(struct ppf_dev *d, uint32_t type, void *buf,
                     uint32_t *len) {
  struct pp_dev_query q = {.type = type, .size = 0, .pointer = 0};
  if (kernel_ioctl_retry(d->k, d->fd, PP_IOCTL_DEV_QUERY, &q) < 0)
    return -errno;
  uint32_t kernel_size = q.size;
  if (buf == NULL) {
    *len = kernel_size; /* the size probe */
    return 0;
  }
  q.size = *len;
  q.pointer = (uint64_t)(uintptr_t)buf;
  if (kernel_ioctl_retry(d->k, d->fd, PP_IOCTL_DEV_QUERY, &q) < 0)
    return -errno;
  *len = kernel_size < *len ? kernel_size : *len;
  return 0;
}

/* The layout from PERF_INFO: probe its size, then read it. */
static int ppf_dev_perf_info(struct ppf_dev *d, bool quiet) {
  uint32_t size = 0;
  int rc = ppf_query(d, PP_QUERY_PERF_INFO, NULL, &size);
  if (rc == -EINVAL) {
    if (!quiet)
      log_msg(LOG_LEVEL_ERROR, PPF_PLUGIN, d->path, "uAPI",
              "this kernel's panthor driver has no performance counter uAPI "
              "(DEV_QUERY PERF_INFO: unknown query): it is not in mainline, "
              "only in the RFC v2 and v6 patch series; nothing to collect "
              "here (drm_fdinfo still reports panthor engine time)");
    return -EOPNOTSUPP;
  }
  if (rc < 0) {
    if (!quiet)
      log_errno(LOG_LEVEL_ERROR, PPF_PLUGIN, d->path, "DEV_QUERY PERF_INFO",
                -rc, NULL);
    return rc;
  }
  uint8_t buf[PP_PERF_INFO_SIZE_RFC_V2];
  uint32_t want = size;
  if (d->forced == PP_LAYOUT_RFC_V2)
    want = PP_PERF_INFO_SIZE_RFC_V2;
  else if (d->forced == PP_LAYOUT_V6)
    want = PP_PERF_INFO_SIZE_V6;
  if (d->forced != PP_LAYOUT_NONE && size < want) {
    if (!quiet)
      log_msg(LOG_LEVEL_ERROR, PPF_PLUGIN, d->path, "uAPI",
              "UAPI %s asks for a %u-byte perf_info but the kernel has %u "
              "bytes",
              pp_layout_name(d->forced), want, size);
    return -EPROTO;
  }
  uint32_t len = want < sizeof(buf) ? want : (uint32_t)sizeof(buf);
  memset(buf, 0, sizeof(buf));
  if ((rc = ppf_query(d, PP_QUERY_PERF_INFO, buf, &len)) < 0) {
    if (!quiet)
      log_errno(LOG_LEVEL_ERROR, PPF_PLUGIN, d->path, "DEV_QUERY PERF_INFO",
                -rc, NULL);
    return rc;
  }
  if (d->forced == PP_LAYOUT_NONE && size > len)
    len = size; /* no known layout: pp_info_decode names the size */
  struct pp_error err;
  if ((rc = pp_info_decode(buf, len, &d->info, &err)) < 0) {
    if (!quiet)
      log_msg(LOG_LEVEL_ERROR, PPF_PLUGIN, d->path, "perf_info", "%s",
              err.message);
    return rc;
  }
  d->control = pp_info_control_ioctl(d->info.layout);
  return 0;
}

int ppf_dev_open(struct ppf_dev *d, bool quiet) {
  d->fd = d->k->open(d->path, O_RDWR | O_CLOEXEC, 0);
  if (d->fd < 0) {
    int err = errno;
    if (!quiet)
      log_errno(LOG_LEVEL_ERROR, PPF_PLUGIN, d->path, "open", err,
                "the render node needs read-write access (group render)");
    return -err;
  }
  char driver[DRM_NODE_NAME_MAX];
  int rc = drm_node_driver(d->k, d->fd, driver, sizeof(driver));
  if (rc < 0 || strcmp(driver, "panthor") != 0) {
    if (!quiet && rc < 0)
      log_errno(LOG_LEVEL_ERROR, PPF_PLUGIN, d->path, "DRM_IOCTL_VERSION", -rc,
                NULL);
    else if (!quiet)
      log_msg(LOG_LEVEL_ERROR, PPF_PLUGIN, d->path, "driver",
              "the node's driver is \"%s\", not panthor", driver);
    ppf_dev_close(d, true);
    return rc < 0 ? rc : -ENODEV;
  }
  uint8_t gi[sizeof(struct pp_gpu_info)];
  uint32_t len = sizeof(gi);
  memset(gi, 0, sizeof(gi));
  /* a shorter kernel object leaves the tail zero and len its size */
  if ((rc = ppf_query(d, PP_QUERY_GPU_INFO, gi, &len)) < 0 ||
      (rc = pp_gpu_decode(gi, len, &d->gpu)) < 0) {
    if (!quiet)
      log_errno(LOG_LEVEL_ERROR, PPF_PLUGIN, d->path, "DEV_QUERY GPU_INFO", -rc,
                NULL);
    ppf_dev_close(d, true);
    return rc;
  }
  if ((rc = ppf_dev_perf_info(d, quiet)) < 0) {
    ppf_dev_close(d, true);
    return rc;
  }
  return 0;
}

/* A BO of `size` bytes mapped with `prot`; 0 or a negative errno. */
static int ppf_dev_bo(struct ppf_dev *d, uint64_t size, int prot,
                      uint32_t *handle, uint8_t **map, const char *what,
                      bool quiet) {
  struct pp_bo_create c = {.size = size};
  if (kernel_ioctl_retry(d->k, d->fd, PP_IOCTL_BO_CREATE, &c) < 0) {
    int err = errno;
    if (!quiet)
      log_errno(LOG_LEVEL_ERROR, PPF_PLUGIN, d->path, what, err, NULL);
    return -err;
  }
  *handle = c.handle;
  struct pp_bo_mmap_offset m = {.handle = c.handle};
  if (kernel_ioctl_retry(d->k, d->fd, PP_IOCTL_BO_MMAP_OFFSET, &m) < 0) {
    int err = errno;
    if (!quiet)
      log_errno(LOG_LEVEL_ERROR, PPF_PLUGIN, d->path, what, err, NULL);
    return -err;
  }
  void *p = d->k->mmap(NULL, size, prot, MAP_SHARED, d->fd, (off_t)m.offset);
  if (p == MAP_FAILED) {
    int err = errno;
    if (!quiet)
      log_errno(LOG_LEVEL_ERROR, PPF_PLUGIN, d->path, what, err, NULL);
    return -err;
  }
  *map = p;
  return 0;
}

const char *ppf_set_name(uint8_t set) {
  return set == PP_SET_PRIMARY     ? "primary"
         : set == PP_SET_SECONDARY ? "secondary"
                                   : "tertiary";
}

/* SETUP's errno in words: "SETUP: <strerror>: <cause>". */
static void ppf_dev_setup_error(const struct ppf_dev *d, int err) {
  char why[200];
  switch (err) {
  case EBUSY:
    snprintf(why, sizeof(why),
             "two perf sessions are already open (the kernel allows two "
             "system-wide), or another counter set than %s is in use, e.g. "
             "by a profiler",
             ppf_set_name(d->counter_set));
    break;
  case EACCES:
  case EPERM: /* log_errno's "; hint:" names the capability */
    snprintf(why, sizeof(why),
             "counter set %s needs CAP_PERFMON (or use CounterSet primary)",
             ppf_set_name(d->counter_set));
    log_errno(LOG_LEVEL_ERROR, PPF_PLUGIN, d->path, "SETUP", err, why);
    return;
  case ENOMEM:
    snprintf(why, sizeof(why),
             "the kernel refused the %" PRIu64 "-byte ring (%u slots of %u "
             "bytes): ring sizing mismatch or out of memory",
             d->ring_size, d->slots, d->info.sample_size);
    break;
  case EOPNOTSUPP:
    snprintf(why, sizeof(why), "the kernel refused manual sampling");
    break;
  default:
    log_errno(LOG_LEVEL_ERROR, PPF_PLUGIN, d->path, "SETUP", err, NULL);
    return;
  }
  log_msg(LOG_LEVEL_ERROR, PPF_PLUGIN, d->path, "SETUP", "%s: %s",
          strerror(err), why);
}

int ppf_dev_command(struct ppf_dev *d, uint32_t cmd, uint64_t user_data) {
  struct pp_cmd_user u = {.user_data = user_data};
  struct pp_perf_control c = {.cmd = cmd,
                              .handle = d->sid,
                              .size = sizeof(u),
                              .pointer = (uint64_t)(uintptr_t)&u};
  if (cmd == PP_CMD_TEARDOWN)
    c.size = 0; /* no argument, but never a NULL pointer: a size probe */
  return kernel_ioctl_retry(d->k, d->fd, d->control, &c);
}

int ppf_dev_start(struct ppf_dev *d, bool quiet) {
  uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
  d->ring_size = pp_info_ring_size(&d->info, d->slots, page);
  if (d->ring_size == 0) {
    log_msg(LOG_LEVEL_ERROR, PPF_PLUGIN, d->path, "ring",
            "%u slots of %u bytes do not fit", d->slots, d->info.sample_size);
    return -EOVERFLOW;
  }
  d->ctrl_size = PPF_CTRL_SIZE;
  int rc;
  if ((rc = ppf_dev_bo(d, d->ring_size, PROT_READ, &d->ring_handle, &d->ring,
                       "ring BO", quiet)) < 0 ||
      (rc = ppf_dev_bo(d, d->ctrl_size, PROT_READ | PROT_WRITE, &d->ctrl_handle,
                       &d->ctrl, "control BO", quiet)) < 0)
    return rc;
  d->efd = d->k->eventfd(0, EFD_SEMAPHORE | EFD_CLOEXEC | EFD_NONBLOCK);
  if (d->efd < 0) {
    int err = errno;
    if (!quiet)
      log_errno(LOG_LEVEL_ERROR, PPF_PLUGIN, d->path, "eventfd", err, NULL);
    return -err;
  }
  struct pp_setup_request req = {
      .block_set = d->counter_set,
      .eventfd = d->efd,
      .ringbuf_handle = d->ring_handle,
      .control_handle = d->ctrl_handle,
      .sample_slots = d->slots,
      .control_offset = 0,
      .sample_freq_ns = 0,
  };
  /* Every counter of every block: a session's masks are fixed at SETUP
   * (panthor_perf_create_em), so enabling all of them lets any instance
   * join later without a new session (whose TEARDOWN may leak, see
   * ppf_dev_close); the kernel copies whole blocks either way. */
  uint32_t n = d->info.counters_per_block;
  for (int t = 0; t < PP_BLOCK_COUNT; t++) {
    req.enable[t][0] = n >= 64 ? ~0ull : (1ull << n) - 1;
    req.enable[t][1] = n >= 128 ? ~0ull : n > 64 ? (1ull << (n - 64)) - 1 : 0;
  }
  if (d->info.layout == PP_LAYOUT_V6)
    req.enable[PP_BLOCK_CSG][0] = req.enable[PP_BLOCK_CSG][1] = 0;
  uint8_t arg[PP_SETUP_MAX];
  size_t len = 0;
  if ((rc = pp_info_setup_format(d->info.layout, &req, arg, &len)) < 0) {
    log_msg(LOG_LEVEL_ERROR, PPF_PLUGIN, d->path, "SETUP",
            "cannot encode the request (RingSlots %u)", d->slots);
    return rc;
  }
  struct pp_perf_control c = {
      .cmd = PP_CMD_SETUP, .size = len, .pointer = (uint64_t)(uintptr_t)arg};
  int id = kernel_ioctl_retry(d->k, d->fd, d->control, &c);
  if (id < 0) {
    int err = errno;
    if (!quiet)
      ppf_dev_setup_error(d, err);
    return -err;
  }
  d->sid = (uint32_t)id;
  d->have_session = true;
  if (ppf_dev_command(d, PP_CMD_START, 0) < 0) {
    int err = errno;
    if (!quiet)
      log_errno(LOG_LEVEL_ERROR, PPF_PLUGIN, d->path, "START", err, NULL);
    return -err;
  }
  d->active = true;
  return 0;
}

uint64_t ppf_dev_insert(const struct ppf_dev *d) {
  return __atomic_load_n((const uint64_t *)(d->ctrl + 8), __ATOMIC_ACQUIRE);
}

uint64_t ppf_dev_extract(const struct ppf_dev *d) {
  return __atomic_load_n((const uint64_t *)d->ctrl, __ATOMIC_RELAXED);
}

void ppf_dev_set_extract(struct ppf_dev *d, uint64_t extract) {
  __atomic_store_n((uint64_t *)d->ctrl, extract, __ATOMIC_RELEASE);
}

int ppf_dev_wait(struct ppf_dev *d, uint32_t timeout_ms, int stop_fd) {
  /* the host's stop fd (plugin_host_stop_fd) beside the eventfd: a host
   * that stops ends the wait at once, whatever the Timeout */
  struct pollfd pfd[2] = {{.fd = d->efd, .events = POLLIN},
                          {.fd = stop_fd, .events = POLLIN}};
  int rc = d->k->poll(pfd, stop_fd >= 0 ? 2 : 1, (int)timeout_ms);
  if (rc < 0 && errno == EINTR)
    return -EINTR; /* a signal ends the wait: the host decides */
  if (rc < 0)
    return -errno;
  if (rc > 0 && (pfd[0].revents & POLLIN))
    return 1;
  if (rc > 0 && stop_fd >= 0 && pfd[1].revents != 0)
    return -ECANCELED;
  return 0;
}

/* Consume (and discard) what the ring holds: nothing is left to fold it
 * into once the last instance is gone. */
static void ppf_dev_drain(struct ppf_dev *d) {
  struct pp_ring_plan plan;
  if (pp_ring_plan(ppf_dev_extract(d), ppf_dev_insert(d), d->slots, &plan) < 0)
    return;
  ppf_dev_set_extract(d, plan.next_extract);
  uint64_t one;
  for (uint32_t i = 0; i < plan.count; i++)
    if (kernel_read_retry(d->k, d->efd, &one, sizeof(one)) < 0)
      break;
}

/* STOP's final sample: wait (bounded) until the ring holds it, then
 * consume it. */
static void ppf_dev_wait_final(struct ppf_dev *d) {
  if (ppf_dev_insert(d) == ppf_dev_extract(d))
    ppf_dev_wait(d, d->wait_ms, /*stop_fd=*/-1);
  ppf_dev_drain(d);
}

/*
 * The end of a session, as the v5/v6-era panthor_perf.c runs it:
 * session_stop requests one last sample (EBUSY while an earlier SAMPLE is
 * still pending: wait for that one and try once more); session_teardown
 * destroys a stopped session "where the last sample has been explicitly
 * consumed", so its sample is waited for and consumed first. TEARDOWN is
 * issued once: panthor_perf_session_teardown clears the id before it
 * checks anything, so a second TEARDOWN of the id dereferences NULL in
 * that kernel. When it refuses (EBUSY, EINVAL), the session stays with
 * the kernel's sampler, and panthor_postclose does not destroy perf
 * sessions either: said, with what it costs, since only a reboot ends it.
 */
static void ppf_dev_end_session(struct ppf_dev *d) {
  if (d->active) {
    ppf_dev_drain(d); /* what earlier requests left: the ring is then empty
                       * until the next sample arrives */
    int rc = ppf_dev_command(d, PP_CMD_STOP, 0);
    if (rc < 0 && errno == EBUSY) { /* our last SAMPLE is still pending */
      ppf_dev_wait_final(d);
      rc = ppf_dev_command(d, PP_CMD_STOP, 0);
    }
    if (rc < 0 && d->quiet_end)
      return;
    if (rc < 0) {
      log_errno(LOG_LEVEL_WARNING, PPF_PLUGIN, d->path, "STOP", errno,
                "the perf session stays in the kernel (no TEARDOWN of an "
                "active session)");
      return;
    }
    d->active = false;
    ppf_dev_wait_final(d);
  }
  if (ppf_dev_command(d, PP_CMD_TEARDOWN, 0) == 0 || d->quiet_end)
    return;
  int err = errno;
  if (err == EBUSY || err == EINVAL)
    log_msg(LOG_LEVEL_WARNING, PPF_PLUGIN, d->path, "TEARDOWN",
            "%s: this kernel kept the perf session (its TEARDOWN refuses a "
            "stopped session whose final sample was delivered, and closing "
            "the node does not free it): until reboot the GPU does not "
            "runtime-suspend, the firmware keeps sampling and counter set %s "
            "stays taken (other sets: EBUSY)",
            strerror(err), ppf_set_name(d->counter_set));
  else
    log_errno(LOG_LEVEL_WARNING, PPF_PLUGIN, d->path, "TEARDOWN", err, NULL);
}

void ppf_dev_close(struct ppf_dev *d, bool dead) {
  if (d->have_session && !dead && d->fd >= 0)
    ppf_dev_end_session(d);
  d->have_session = d->active = false;
  if (d->ring != NULL)
    d->k->munmap(d->ring, d->ring_size);
  if (d->ctrl != NULL)
    d->k->munmap(d->ctrl, d->ctrl_size);
  d->ring = d->ctrl = NULL;
  uint32_t handles[2] = {d->ring_handle, d->ctrl_handle};
  for (int i = 0; i < 2; i++) {
    struct pp_gem_close g = {.handle = handles[i]};
    if (handles[i] != 0 && d->fd >= 0 && !dead)
      kernel_ioctl_retry(d->k, d->fd, PP_IOCTL_GEM_CLOSE, &g);
  }
  d->ring_handle = d->ctrl_handle = 0;
  if (d->efd >= 0)
    d->k->close(d->efd);
  if (d->fd >= 0)
    d->k->close(d->fd);
  d->efd = d->fd = -1;
}
