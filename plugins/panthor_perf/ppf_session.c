/*
 * ppf_session.c: the session hooks of panthor_perf.h. One kernel session
 * per node (struct ppf_core), shared by every instance that reads the node
 * (the kernel allows two sessions system-wide), refcounted, found by node
 * path in the registry the host hands every instance (plugin_host.h:
 * plugin_shared; none: the instance's own core) and serialised by the
 * core's lock. Its reopen after a GPU reset or a vanished node runs on
 * common/core/devsession with the reading instance's host clock. Each
 * instance holds a struct
 * ppf_session handle; a sample consumed by one handle's read is delivered to
 * it at once and copied into the other handles' queues (allocated when they
 * join), which they deliver at their own next read: an instance's state is
 * only touched from its own read, and reads in other threads never race on
 * it. A queue doubles while its instance reads less often than the others
 * (up to PPF_QUEUE_MAX_BYTES); in the steady state no read allocates.
 */
#include "plugins/panthor_perf/ppf_session.h"

#include "common/core/devsession.h"
#include "common/panthor/pp_ring.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PPF_MAX_HANDLES 8
/* A handle's queue grows (doubling) while other instances read more often
 * than it does, up to this; the steady state allocates nothing. */
#define PPF_QUEUE_MAX_BYTES (16u << 20)

struct ppf_core {
  struct plugin_shared *shared; /* borrowed: where it is registered, or NULL */
  int refs;
  pthread_mutex_t lock;
  struct ppf_dev dev;
  uint32_t timeout_ms;
  uint64_t seq; /* user_data of the last successful SAMPLE */
  /* FAILED: the node failed (ENODEV/EIO), reopen pending */
  struct devsession session;
  struct log_complaint ring_complaint;
  bool said_timeout;
  bool gone; /* the node was removed (ppf_session_free_gone) */
  struct ppf_session *handles[PPF_MAX_HANDLES];
};

struct ppf_session {
  struct ppf_core *core;
  bool restart_due; /* a new kernel session since this handle's read */
  bool reopened;    /* ... because the node was reopened */
  uint8_t *queue;   /* samples consumed by others' reads, owned */
  uint32_t q_cap, q_head, q_len; /* grows to PPF_QUEUE_MAX_BYTES, then
                                  * the oldest goes (a gap: dropped) */
};

static bool ppf_core_broken_p(const struct ppf_core *c) {
  return c->session.state == DEVSESSION_FAILED;
}

static void ppf_core_free(struct ppf_core *c) {
  c->dev.quiet_end = c->gone;
  ppf_dev_close(&c->dev, ppf_core_broken_p(c));
  pthread_mutex_destroy(&c->lock);
  free(c);
}

/* A handle on `c` with a queue when others share it (under both locks). */
static int ppf_core_attach(struct ppf_core *c, struct ppf_session **out) {
  struct ppf_session *s = calloc(1, sizeof(*s));
  if (s == NULL)
    return -ENOMEM;
  s->core = c;
  size_t i = 0;
  while (i < PPF_MAX_HANDLES && c->handles[i] != NULL)
    i++;
  if (i == PPF_MAX_HANDLES) {
    free(s);
    return -EMFILE;
  }
  /* every handle gets a queue once two share the core */
  for (size_t j = 0; j <= i; j++) {
    struct ppf_session *h = j == i ? s : c->handles[j];
    if (i > 0 && h->queue == NULL) {
      h->q_cap = c->dev.slots;
      h->queue = calloc(h->q_cap, c->dev.info.sample_size);
      if (h->queue == NULL) {
        free(s);
        return -ENOMEM;
      }
    }
  }
  c->handles[i] = s;
  *out = s;
  return 0;
}

static void ppf_shared_lock(struct plugin_shared *r) {
  if (r != NULL)
    plugin_shared_lock(r);
}

static void ppf_shared_unlock(struct plugin_shared *r) {
  if (r != NULL)
    plugin_shared_unlock(r);
}

int ppf_session_init(const struct ppf_session_params *p,
                     struct ppf_session **out, struct pp_gpu *gpu,
                     struct pp_info *info) {
  *out = NULL;
  struct plugin_shared *r = p->shared;
  ppf_shared_lock(r);
  struct ppf_core *c = r != NULL ? plugin_shared_find(r, p->path) : NULL;
  int rc = 0;
  if (c == NULL) {
    if ((c = calloc(1, sizeof(*c))) == NULL) {
      ppf_shared_unlock(r);
      return -ENOMEM;
    }
    pthread_mutex_init(&c->lock, NULL);
    snprintf(c->dev.path, sizeof(c->dev.path), "%s", p->path);
    c->dev.k = p->kernel;
    c->dev.forced = p->layout;
    c->dev.counter_set = p->counter_set;
    c->dev.slots = p->ring_slots ? p->ring_slots : PPF_DEFAULT_SLOTS;
    c->dev.fd = c->dev.efd = -1;
    c->timeout_ms = p->timeout_ms;
    c->dev.wait_ms = p->timeout_ms;
    devsession_init(&c->session, PPF_PLUGIN, p->path);
    if ((rc = ppf_dev_open(&c->dev, p->quiet)) < 0 ||
        (r != NULL && (rc = plugin_shared_add(r, p->path, c)) < 0)) {
      ppf_core_free(c);
      ppf_shared_unlock(r);
      return rc;
    }
    c->shared = r;
  }
  pthread_mutex_lock(&c->lock);
  uint32_t slots = p->ring_slots ? p->ring_slots : PPF_DEFAULT_SLOTS;
  if (c->refs > 0 &&
      (p->counter_set != c->dev.counter_set || slots != c->dev.slots ||
       (p->layout != PP_LAYOUT_NONE && p->layout != c->dev.info.layout)))
    log_msg(LOG_LEVEL_WARNING, PPF_PLUGIN, c->dev.path, "session",
            "another instance already reads this node: sharing its session "
            "(UAPI %s, CounterSet %s, RingSlots %u); this instance's "
            "differing options are not used",
            pp_layout_name(c->dev.info.layout),
            ppf_set_name(c->dev.counter_set), c->dev.slots);
  if ((rc = ppf_core_attach(c, out)) == 0) {
    c->refs++;
    *gpu = c->dev.gpu;
    *info = c->dev.info;
  }
  pthread_mutex_unlock(&c->lock);
  if (c->refs == 0) { /* a new core nobody holds */
    if (r != NULL)
      plugin_shared_remove(r, c);
    ppf_core_free(c);
  }
  ppf_shared_unlock(r);
  return rc;
}

/* SETUP + START (every counter enabled: ppf_dev_start). Under c->lock. */
static int ppf_core_setup(struct ppf_core *c, bool quiet) {
  if (c->dev.fd < 0 && (ppf_dev_open(&c->dev, quiet)) < 0)
    return -ENODEV;
  return ppf_dev_start(&c->dev, quiet);
}

/* The session has every counter enabled, so an instance joining a running
 * session never needs a new SETUP (nor the TEARDOWN of the old one). */
int ppf_session_start(struct ppf_session *s, bool quiet) {
  struct ppf_core *c = s->core;
  pthread_mutex_lock(&c->lock);
  int rc = 0;
  if (!c->dev.have_session) {
    rc = ppf_core_setup(c, quiet);
    if (rc < 0)
      ppf_dev_close(&c->dev, false);
    else
      devsession_opened(&c->session);
  }
  pthread_mutex_unlock(&c->lock);
  return rc;
}

/* Double a full queue (its samples in order at the start); false when at
 * PPF_QUEUE_MAX_BYTES or out of memory. */
static bool ppf_queue_grow(struct ppf_session *h, size_t len) {
  size_t cap = (size_t)h->q_cap * 2;
  if (cap * len > PPF_QUEUE_MAX_BYTES)
    return false;
  uint8_t *q = malloc(cap * len);
  if (q == NULL)
    return false;
  for (uint32_t k = 0; k < h->q_len; k++)
    memcpy(q + (size_t)k * len,
           h->queue + (size_t)((h->q_head + k) % h->q_cap) * len, len);
  free(h->queue);
  h->queue = q;
  h->q_cap = (uint32_t)cap;
  h->q_head = 0;
  return true;
}

/* Deliver the sample at `buf` to `self` now and queue it for the others. */
static void ppf_core_deliver(struct ppf_core *c, struct ppf_session *self,
                             const uint8_t *buf, ppf_sample_fn fn, void *ctx) {
  size_t len = c->dev.info.sample_size;
  fn(ctx, buf, len);
  for (size_t i = 0; i < PPF_MAX_HANDLES; i++) {
    struct ppf_session *h = c->handles[i];
    if (h == NULL || h == self || h->queue == NULL)
      continue;
    if (h->q_len == h->q_cap && !ppf_queue_grow(h, len)) {
      h->q_head = (h->q_head + 1) % h->q_cap; /* full: the oldest goes */
      h->q_len--;
    }
    memcpy(h->queue + (size_t)((h->q_head + h->q_len) % h->q_cap) * len, buf,
           len);
    h->q_len++;
  }
}

/* The node failed at `now_ns`: close what is left, retry after the
 * backoff (said once per episode). */
static void ppf_core_broken(struct ppf_core *c, uint64_t now_ns, int err,
                            const char *what) {
  devsession_failf(&c->session, now_ns, err, LOG_LEVEL_ERROR, what,
                   "%s: GPU reset or device gone; reopening with backoff "
                   "(1 s doubling to 5 min)",
                   strerror(err));
  ppf_dev_close(&c->dev, true);
}

/* Reopen when due: 0 when the session runs again. */
static int ppf_core_reopen(struct ppf_core *c, uint64_t now_ns) {
  if (!devsession_due(&c->session, now_ns))
    return -ENODEV;
  int rc = ppf_core_setup(c, true);
  if (rc < 0) {
    ppf_dev_close(&c->dev, true);
    devsession_fail(&c->session, now_ns, -rc);
    return rc;
  }
  devsession_opened(&c->session);
  c->seq = 0;
  for (size_t i = 0; i < PPF_MAX_HANDLES; i++)
    if (c->handles[i] != NULL)
      c->handles[i]->restart_due = c->handles[i]->reopened = true;
  return 0;
}

/* Consume every ready sample. 0, or -EPROTO (logged once) on a corrupt
 * insert index: nothing is read then. */
static int ppf_core_consume(struct ppf_core *c, struct ppf_session *self,
                            ppf_sample_fn fn, void *ctx) {
  struct ppf_dev *d = &c->dev;
  uint64_t insert = ppf_dev_insert(d);
  struct pp_ring_plan plan;
  if (pp_ring_plan(ppf_dev_extract(d), insert, d->slots, &plan) < 0) {
    if (log_complaint_raise(&c->ring_complaint))
      log_msg(LOG_LEVEL_ERROR, PPF_PLUGIN, d->path, "ring",
              "the kernel published insert index %" PRIu64
              ", out of range for %u slots: samples not read",
              insert, d->slots);
    return -EPROTO;
  }
  if (log_complaint_release(&c->ring_complaint))
    log_msg(LOG_LEVEL_INFO, PPF_PLUGIN, d->path, "ring", "indices sane again");
  for (uint32_t k = 0; k < plan.count; k++) {
    uint32_t slot = pp_ring_slot(&plan, k);
    ppf_core_deliver(c, self, d->ring + (size_t)slot * d->info.sample_size, fn,
                     ctx);
  }
  ppf_dev_set_extract(d, plan.next_extract); /* wrapped, as the kernel's */
  uint64_t one;
  for (uint32_t k = 0; k < plan.count; k++)
    if (kernel_read_retry(d->k, d->efd, &one, sizeof(one)) < 0)
      break; /* EAGAIN: fewer signals than samples, nothing to wait for */
  return 0;
}

int ppf_session_read(struct ppf_session *s, uint64_t now_ns, int stop_fd,
                     ppf_sample_fn fn, void (*restart)(void *ctx), void *ctx,
                     struct pp_stream *stream) {
  struct ppf_core *c = s->core;
  pthread_mutex_lock(&c->lock);
  size_t len = c->dev.info.sample_size;
  for (; s->q_len > 0; s->q_len--, s->q_head = (s->q_head + 1) % s->q_cap)
    fn(ctx, s->queue + (size_t)s->q_head * len, len);
  int rc = 0;
  if (ppf_core_broken_p(c) && (rc = ppf_core_reopen(c, now_ns)) < 0)
    goto out;
  if (s->restart_due) {
    s->restart_due = false;
    stream->reopens += s->reopened ? 1 : 0;
    s->reopened = false;
    restart(ctx);
  }
  if (!c->dev.active) {
    rc = -ENODEV;
    goto out;
  }
  bool requested = false;
  if (ppf_dev_command(&c->dev, PP_CMD_SAMPLE, c->seq + 1) == 0) {
    c->seq++;
    requested = true;
  } else if (errno == EBUSY) {
    stream->busy_skips++; /* a request pending or the ring nearly full */
  } else if (errno == ENODEV || errno == EIO || errno == EBADF) {
    /* EBADF: the kernel no longer knows the session (a reset lost it) */
    ppf_core_broken(c, now_ns, errno, "SAMPLE");
    rc = -ENODEV;
    goto out;
  } else {
    rc = -errno;
    log_errno(LOG_LEVEL_ERROR, PPF_PLUGIN, c->dev.path, "SAMPLE", -rc, NULL);
    goto out;
  }
  /* the kernel took the request (or is busy with one): the session works */
  devsession_healthy(&c->session, "reopen", "the perf session runs again");
  if (requested && ppf_dev_insert(&c->dev) == ppf_dev_extract(&c->dev) &&
      ppf_dev_wait(&c->dev, c->timeout_ms, stop_fd) == 0 && !c->said_timeout) {
    /* a sample the kernel dropped (its ring was full) never comes: the
     * gap shows in the next one's sequence number; said once */
    c->said_timeout = true;
    log_msg(LOG_LEVEL_WARNING, PPF_PLUGIN, c->dev.path, "SAMPLE",
            "no sample within %u ms (Timeout); a sample that never comes "
            "is counted as dropped when the next one arrives",
            c->timeout_ms);
  }
  rc = ppf_core_consume(c, s, fn, ctx);
out:
  pthread_mutex_unlock(&c->lock);
  return rc;
}

void ppf_session_free(struct ppf_session *s) {
  if (s == NULL)
    return;
  struct ppf_core *c = s->core;
  struct plugin_shared *r = c->shared;
  ppf_shared_lock(r);
  pthread_mutex_lock(&c->lock);
  for (size_t i = 0; i < PPF_MAX_HANDLES; i++)
    if (c->handles[i] == s)
      c->handles[i] = NULL;
  bool last = --c->refs == 0;
  pthread_mutex_unlock(&c->lock);
  if (last) {
    if (r != NULL)
      plugin_shared_remove(r, c);
    ppf_core_free(c);
  }
  ppf_shared_unlock(r);
  free(s->queue);
  free(s);
}

void ppf_session_free_gone(struct ppf_session *s) {
  if (s == NULL)
    return;
  struct ppf_core *c = s->core;
  struct plugin_shared *r = c->shared;
  ppf_shared_lock(r);
  pthread_mutex_lock(&c->lock);
  c->gone = true;
  c->shared = NULL; /* out of the registry now: the others free it alone */
  pthread_mutex_unlock(&c->lock);
  if (r != NULL)
    plugin_shared_remove(r, c);
  ppf_shared_unlock(r);
  ppf_session_free(s);
}
