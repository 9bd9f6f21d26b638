/*
 * runner.c: worker threads, deadlines and snapshots (see runner.h).
 */
#include "common/runner/runner.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

uint64_t runner_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000ULL + (uint64_t)t.tv_nsec;
}

static uint64_t runner_unix_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_REALTIME, &t);
  return (uint64_t)t.tv_sec * 1000000000ULL + (uint64_t)t.tv_nsec;
}

int runner_init(struct runner *r) {
  memset(r, 0, sizeof(*r));
  r->stop.fd = -1;
  if (pipe2(r->wake, O_CLOEXEC | O_NONBLOCK) < 0) {
    r->wake[0] = r->wake[1] = -1;
    return -errno;
  }
  if ((r->stop.fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) < 0) {
    int err = errno;
    close(r->wake[0]);
    close(r->wake[1]);
    r->wake[0] = r->wake[1] = -1;
    return -err;
  }
  return 0;
}

struct runner_instance *runner_add(struct runner *r,
                                   const struct plugin_ops *ops,
                                   const char *label, uint64_t interval_ns) {
  struct runner_instance *i = calloc(1, sizeof(*i));
  struct runner_instance **grown =
      i ? realloc(r->inst, (r->n + 1) * sizeof(*grown)) : NULL;
  if (grown != NULL)
    r->inst = grown;
  if (grown == NULL || (i->label = strdup(label)) == NULL) {
    if (i != NULL)
      free(i->label);
    free(i);
    return NULL;
  }
  i->ops = ops;
  i->interval_ns = interval_ns;
  record_check_init(&i->check, ops->name, ops->units);
  pthread_mutex_init(&i->lock, NULL);
  pthread_cond_init(&i->cond, NULL);
  snapshot_init(&i->work);
  snapshot_init(&i->last);
  r->inst[r->n++] = i;
  return i;
}

void runner_commit(struct runner_instance *i, void *inst) {
  i->inst = inst;
  i->ready = true;
  /* Drain between reads only when reads come too seldom for the kernel
   * buffer (plugin.h); with reads on demand, always. */
  const struct plugin_ops *ops = i->ops;
  uint64_t drain = ops->drain != NULL && ops->drain_interval_ns != NULL
                       ? ops->drain_interval_ns(inst)
                       : 0;
  if (drain > 0 && (i->interval_ns == 0 || drain < i->interval_ns))
    i->drain_ns = drain;
  i->devices =
      ops->found != NULL ? ops->found(inst, i->found, sizeof(i->found)) : -1;
  i->work_devices = i->devices;
}

void runner_say_found(const struct runner_instance *i) {
  if (i->devices < 0)
    return;
  /* the instance named only when it has a name of its own */
  const char *label = strcmp(i->label, i->ops->name) != 0 ? i->label : NULL;
  if (i->devices == 0)
    log_msg(LOG_LEVEL_NOTICE, i->ops->name, label, "found", "no device: %s",
            i->found);
  else
    log_msg(LOG_LEVEL_NOTICE, i->ops->name, label, "found", "%d device%s: %s",
            i->devices, i->devices == 1 ? "" : "s", i->found);
}

static void runner_instance_free(struct runner_instance *i);

void runner_drop(struct runner *r) {
  if (r->n > 0)
    runner_instance_free(r->inst[--r->n]);
}

/* ---- the worker ---- */

struct runner_sink {
  struct metric_sink base;
  struct runner_instance *i;
};

static int runner_sink_begin(struct metric_sink *sink) {
  (void)sink;
  return 0;
}

/* A plugin that ends batches itself (a replay): kept as marks. */
static int runner_sink_end(struct metric_sink *sink) {
  struct runner_instance *i = ((struct runner_sink *)sink)->i;
  if (!i->discard)
    snapshot_mark(&i->work);
  return 0;
}

static int runner_sink_write(struct metric_sink *sink, const struct metric *m) {
  struct runner_instance *i = ((struct runner_sink *)sink)->i;
  static _Thread_local struct metric kept; /* 4.4 KiB: off the stack */
  const struct metric *ok = record_check(&i->check, m, &kept);
  if (ok == NULL || i->discard)
    return 0;
  bool said = i->work.nomem; /* once per read */
  if (snapshot_add(&i->work, ok) < 0 && !said)
    log_errno(LOG_LEVEL_ERROR, i->ops->name, i->label,
              "snapshot: records of this read lost", ENOMEM, NULL);
  return 0;
}

int runner_reconfigure(struct runner_instance *i, const struct cfg_item *item) {
  pthread_mutex_lock(&i->lock);
  struct cfg_item *grown =
      realloc(i->reconfigure, (i->n_reconfigure + 1) * sizeof(*grown));
  int rc = grown != NULL ? 0 : -ENOMEM;
  if (grown != NULL) {
    i->reconfigure = grown;
    rc = cfg_item_copy(&grown[i->n_reconfigure], item);
    i->n_reconfigure += rc == 0;
  }
  pthread_mutex_unlock(&i->lock);
  return rc;
}

/* On the worker, before a read: the items runner_reconfigure queued. */
static void runner_apply_reconfigure(struct runner_instance *i) {
  pthread_mutex_lock(&i->lock);
  struct cfg_item *items = i->reconfigure;
  size_t n = i->n_reconfigure;
  i->reconfigure = NULL;
  i->n_reconfigure = 0;
  pthread_mutex_unlock(&i->lock);
  for (size_t k = 0; k < n; k++)
    if (i->ops->configure(i->inst, &items[k]) < 0)
      log_msg(LOG_LEVEL_WARNING, i->ops->name, i->label, "reconfigure",
              "%s: refused while running", items[k].key);
  cfg_items_free(items, n);
}

struct runner_worker_arg {
  struct runner_instance *i;
  int wake;
};

/* On the worker: the init runner_init_start asked for. False when it
 * failed (the worker then ends). */
static bool runner_worker_init(struct runner_instance *i, int wake) {
  int rc = i->ops->init(i->inst, &i->host);
  pthread_mutex_lock(&i->lock);
  i->init_pending = false;
  i->init_done = true;
  i->init_rc = rc;
  i->init_end_ns = runner_now();
  pthread_mutex_unlock(&i->lock);
  ssize_t w = write(wake, "", 1); /* full pipe: the host is woken already */
  (void)w;
  return rc >= 0;
}

static void *runner_worker(void *arg) {
  struct runner_instance *i = ((struct runner_worker_arg *)arg)->i;
  int wake = ((struct runner_worker_arg *)arg)->wake;
  free(arg);
  struct runner_sink sink = {
      {runner_sink_begin, runner_sink_write, runner_sink_end}, i};
  pthread_mutex_lock(&i->lock);
  bool init = i->init_pending;
  pthread_mutex_unlock(&i->lock);
  if (init && !runner_worker_init(i, wake))
    return NULL;
  pthread_mutex_lock(&i->lock);
  for (;;) {
    while (i->job == RUNNER_IDLE)
      pthread_cond_wait(&i->cond, &i->lock);
    enum runner_job job = i->job;
    if (job == RUNNER_QUIT)
      break;
    i->job = RUNNER_IDLE;
    i->busy = true;
    pthread_mutex_unlock(&i->lock);
    int rc = 0;
    if (job == RUNNER_READ)
      runner_apply_reconfigure(i);
    uint64_t start = runner_now(), end;
    int devices = -1;
    char found[sizeof(i->work_found)];
    if (job == RUNNER_READ) {
      snapshot_clear(&i->work);
      rc = i->ops->read(i->inst, &sink.base);
      if (i->ops->found != NULL)
        devices = i->ops->found(i->inst, found, sizeof(found));
    } else {
      i->ops->drain(i->inst);
    }
    end = runner_now();
    pthread_mutex_lock(&i->lock);
    if (devices >= 0) {
      i->work_devices = devices;
      memcpy(i->work_found, found, sizeof(found));
    }
    i->busy = false;
    if (job == RUNNER_READ) {
      i->finished = true;
      i->work_rc = rc;
      i->work_start_ns = start;
      i->work_end_ns = end;
      i->work_unix_ns = runner_unix_ns();
    }
    /* Full pipe: the host is woken already. */
    ssize_t w = write(wake, "", 1);
    (void)w;
  }
  pthread_mutex_unlock(&i->lock);
  return NULL;
}

/* Start `i`'s worker; 0 or -errno. The worker inherits the signal mask
 * set here: signals go to the host's thread. */
static int runner_spawn(struct runner *r, struct runner_instance *i, int wake) {
  sigset_t block, old;
  sigemptyset(&block);
  sigaddset(&block, SIGINT);
  sigaddset(&block, SIGTERM);
  sigaddset(&block, SIGHUP);
  sigaddset(&block, SIGWINCH);
  sigaddset(&block, SIGPIPE);
  struct runner_worker_arg *arg = malloc(sizeof(*arg));
  if (arg == NULL)
    return -ENOMEM;
  arg->i = i;
  arg->wake = wake;
  pthread_sigmask(SIG_BLOCK, &block, &old);
  i->host.stop = &r->stop; /* read by the plugin at each wait */
  int err = pthread_create(&i->thread, NULL, runner_worker, arg);
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  if (err != 0) {
    free(arg);
    return -err;
  }
  i->thread_started = true;
  return 0;
}

int runner_start(struct runner *r) {
  int rc = 0;
  for (size_t k = 0; k < r->n && rc == 0; k++)
    if (!r->inst[k]->thread_started) /* else started by runner_init_start */
      rc = runner_spawn(r, r->inst[k], r->wake[1]);
  return rc;
}

/* Post `job` to `i`'s worker. */
static void runner_post(struct runner_instance *i, enum runner_job job,
                        bool discard) {
  pthread_mutex_lock(&i->lock);
  i->job = job;
  if (job == RUNNER_READ)
    i->discard = discard;
  pthread_cond_signal(&i->cond);
  pthread_mutex_unlock(&i->lock);
}

/* ---- scheduling ---- */

static void runner_open_round(struct runner *r, uint64_t now,
                              uint64_t shortest) {
  uint64_t grace = RUNNER_ROUND_GRACE_NS;
  if (shortest > 0 && shortest / 2 < grace)
    grace = shortest / 2;
  r->round_deadline = now + grace;
  r->round_open = true;
}

/* Start a read of `i` in round `round`. */
static void runner_start_read(struct runner *r, struct runner_instance *i,
                              uint64_t now, bool discard) {
  i->read_pending = true;
  i->started_ns = now;
  i->round = r->round;
  i->in_round = !discard;
  runner_post(i, RUNNER_READ, discard);
}

size_t runner_read_all(struct runner *r, uint64_t now, bool discard) {
  size_t started = 0;
  uint64_t shortest = 0;
  r->round++;
  for (size_t k = 0; k < r->n; k++) {
    struct runner_instance *i = r->inst[k];
    if (i->read_pending || !i->ready)
      continue;
    runner_start_read(r, i, now, discard);
    if (i->interval_ns > 0 && (shortest == 0 || i->interval_ns < shortest))
      shortest = i->interval_ns;
    started++;
  }
  if (started > 0)
    runner_open_round(r, now, shortest);
  return started;
}

/* The first deadline of `period` after `now` on the grid through `next`. */
static uint64_t runner_grid_next(uint64_t next, uint64_t period, uint64_t now) {
  if (next > now)
    return next;
  /* Skipped, not caught up: one step to the first deadline after now
   * (a loop would spin for a tiny period after a long stall). */
  return next + ((now - next) / period + 1) * period;
}

/* The first read `delay` after `end` (CLOCK_MONOTONIC, never 0). With
 * RUNNER_EACH_INTERVAL the reads fall on one grid of the interval from
 * the schedule's anchor, whenever each priming read ended: instances of
 * one interval are then read together, one round, one batch. */
static void runner_schedule(struct runner_instance *i, uint64_t end,
                            uint64_t delay) {
  if (delay != RUNNER_EACH_INTERVAL)
    i->next_read_ns = end + (i->no_window ? 0 : delay);
  else if (i->interval_ns == 0)
    i->next_read_ns = 0; /* read on demand only */
  else
    i->next_read_ns =
        runner_grid_next(i->anchor_ns + i->interval_ns, i->interval_ns, end);
}

void runner_schedule_from(struct runner *r, uint64_t now, uint64_t delay_ns) {
  r->scheduled = true;
  for (size_t k = 0; k < r->n; k++) {
    struct runner_instance *i = r->inst[k];
    i->delay_ns = delay_ns;
    i->anchor_ns = now;
    if (!i->ready) /* in init: scheduled when it returns (runner_late_init) */
      continue;
    i->schedule_at_end = i->read_pending;
    if (i->read_pending)
      i->next_read_ns = 0;
    else
      runner_schedule(i, i->last_end_ns > 0 ? i->last_end_ns : now, delay_ns);
    if (i->drain_ns > 0)
      i->next_drain_ns = now + i->drain_ns;
  }
}

/* Say once that `i`'s read runs longer than its interval, and once that
 * it ran for RUNNER_STALE_INTERVALS of them (its values are then no
 * longer served); runner_collect says when it returns. */
static void runner_complain(struct runner_instance *i, uint64_t now) {
  if (!i->read_pending || i->interval_ns == 0)
    return;
  uint64_t running = now - i->started_ns;
  if (running > i->interval_ns && log_complaint_raise(&i->slow))
    log_msg(LOG_LEVEL_WARNING, i->ops->name, i->label, "read",
            "still running after %.3g s, longer than its interval: the "
            "reads due meanwhile are skipped",
            (double)running / 1e9);
  if (running > RUNNER_STALE_INTERVALS * i->interval_ns &&
      log_complaint_raise(&i->stuck))
    log_msg(LOG_LEVEL_WARNING, i->ops->name, i->label, "read",
            "not finished after %.3g s (%d intervals): its values are no "
            "longer served",
            (double)running / 1e9, RUNNER_STALE_INTERVALS);
}

void runner_tick(struct runner *r, uint64_t now) {
  uint64_t shortest = 0;
  bool opened = false;
  for (size_t k = 0; k < r->n; k++) {
    struct runner_instance *i = r->inst[k];
    runner_complain(i, now);
    if (i->next_read_ns != 0 && now >= i->next_read_ns) {
      i->next_read_ns =
          i->interval_ns > 0
              ? runner_grid_next(i->next_read_ns, i->interval_ns, now)
              : 0;
      if (i->read_pending) {
        i->skipped++;
        continue;
      }
      if (!opened) {
        r->round++;
        opened = true;
      }
      runner_start_read(r, i, now, /*discard=*/false);
      if (i->interval_ns > 0 && (shortest == 0 || i->interval_ns < shortest))
        shortest = i->interval_ns;
    }
    if (i->next_drain_ns != 0 && now >= i->next_drain_ns) {
      i->next_drain_ns = runner_grid_next(i->next_drain_ns, i->drain_ns, now);
      if (!i->read_pending) /* a read empties the buffer too */
        runner_post(i, RUNNER_DRAIN, false);
    }
  }
  if (opened)
    runner_open_round(r, now, shortest);
}

/* True when `i`'s round is over: its grace passed, or every read of it
 * was collected. */
static bool runner_round_over(const struct runner *r,
                              const struct runner_instance *i, uint64_t now) {
  if (i->round == r->round && r->round_open && now < r->round_deadline)
    for (size_t k = 0; k < r->n; k++)
      if (r->inst[k]->in_round && r->inst[k]->round == i->round &&
          r->inst[k]->read_pending)
        return false;
  return true;
}

int runner_timeout_ms(const struct runner *r, uint64_t now, int cap_ms) {
  uint64_t soonest = UINT64_MAX;
  for (size_t k = 0; k < r->n; k++) {
    const struct runner_instance *i = r->inst[k];
    if (i->next_read_ns != 0 && i->next_read_ns < soonest)
      soonest = i->next_read_ns;
    if (i->next_drain_ns != 0 && i->next_drain_ns < soonest)
      soonest = i->next_drain_ns;
  }
  if (r->round_open && runner_reading(r) && r->round_deadline < soonest)
    soonest = r->round_deadline;
  int ms;
  if (soonest == UINT64_MAX)
    ms = -1;
  else if (soonest <= now)
    ms = 0;
  else {
    uint64_t left = (soonest - now + 999999) / 1000000;
    ms = left > 3600000 ? 3600000 : (int)left;
  }
  if (cap_ms >= 0 && (ms < 0 || ms > cap_ms))
    ms = cap_ms;
  return ms;
}

int runner_wait(struct runner *r, int fd, int timeout_ms) {
  struct pollfd p[2] = {{.fd = r->wake[0], .events = POLLIN},
                        {.fd = fd, .events = POLLIN}};
  int n = poll(p, fd >= 0 ? 2 : 1, timeout_ms);
  if (n <= 0)
    return 0;
  if (p[0].revents & POLLIN) {
    char buf[64];
    while (read(r->wake[0], buf, sizeof(buf)) > 0)
      ;
  }
  return fd >= 0 && (p[1].revents & (POLLIN | POLLHUP | POLLERR)) ? 1 : 0;
}

static void runner_collect_inits(struct runner *r, uint64_t now);

size_t runner_collect(struct runner *r, uint64_t now) {
  runner_collect_inits(r, now);
  size_t got = 0;
  for (size_t k = 0; k < r->n; k++) {
    struct runner_instance *i = r->inst[k];
    pthread_mutex_lock(&i->lock);
    bool finished = i->finished;
    i->finished = false;
    pthread_mutex_unlock(&i->lock);
    if (!finished)
      continue;
    /* The worker is done with `work` until the next read is posted. */
    i->read_pending = false;
    i->last_end_ns = i->work_end_ns;
    if (i->schedule_at_end) {
      i->schedule_at_end = false;
      runner_schedule(i, i->work_end_ns, i->delay_ns);
    }
    if (log_complaint_release(&i->stuck))
      log_msg(LOG_LEVEL_INFO, i->ops->name, i->label, "read",
              "finished again after %.3g s",
              (double)(i->work_end_ns - i->work_start_ns) / 1e9);
    log_complaint_release(&i->slow);
    if (i->work_devices != i->devices) { /* a device came or went */
      i->devices = i->work_devices;
      memcpy(i->found, i->work_found, sizeof(i->found));
      if (r->say_found)
        runner_say_found(i);
    }
    if (i->discard)
      continue;
    struct snapshot swap = i->last;
    i->last = i->work;
    i->work = swap;
    i->have_last = true;
    i->last_rc = i->work_rc;
    i->last_duration_ns = i->work_end_ns - i->work_start_ns;
    i->last_unix_ns = i->work_unix_ns;
    i->fresh = true;
    got++;
  }
  if (r->round_open && (now >= r->round_deadline || !runner_reading(r)))
    r->round_open = false;
  return got;
}

bool runner_reading(const struct runner *r) {
  for (size_t k = 0; k < r->n; k++)
    if (r->inst[k]->read_pending)
      return true;
  return false;
}

bool runner_batch_ready(const struct runner *r, uint64_t now) {
  for (size_t k = 0; k < r->n; k++)
    if (r->inst[k]->fresh && runner_round_over(r, r->inst[k], now))
      return true;
  return false;
}

size_t runner_write_fresh(struct runner *r, struct metric_sink *sink,
                          uint64_t now, bool all_fresh) {
  size_t n = 0;
  for (size_t k = 0; k < r->n; k++) {
    struct runner_instance *i = r->inst[k];
    if (!i->fresh || !(all_fresh || runner_round_over(r, i, now)))
      continue;
    snapshot_replay(&i->last, sink, /*split=*/true);
    i->fresh = false;
    n++;
  }
  return n;
}

bool runner_current(const struct runner_instance *i, uint64_t now) {
  if (!i->have_last)
    return false;
  return i->interval_ns == 0 ||
         now - i->last_end_ns <= RUNNER_STALE_INTERVALS * i->interval_ns;
}

size_t runner_write_current(struct runner *r, struct metric_sink *sink,
                            uint64_t now) {
  size_t n = 0;
  for (size_t k = 0; k < r->n; k++)
    if (runner_current(r->inst[k], now)) {
      snapshot_replay(&r->inst[k]->last, sink, /*split=*/false);
      r->inst[k]->fresh = false;
      n++;
    }
  return n;
}

uint64_t runner_longest_interval(const struct runner *r) {
  uint64_t longest = 0;
  for (size_t k = 0; k < r->n; k++)
    if (r->inst[k]->interval_ns > longest)
      longest = r->inst[k]->interval_ns;
  return longest;
}

/* ---- init on the worker ---- */

int runner_init_start(struct runner *r, struct runner_instance *i, void *inst) {
  i->inst = inst;
  i->init_pending = true;
  i->init_start_ns = runner_now();
  int rc = runner_spawn(r, i, r->wake[1]);
  if (rc < 0) {
    i->inst = NULL;
    i->init_pending = false;
  }
  return rc;
}

int runner_init_result(struct runner_instance *i) {
  pthread_mutex_lock(&i->lock);
  int rc = i->init_pending ? 1 : i->init_rc;
  pthread_mutex_unlock(&i->lock);
  return rc;
}

/* How many inits started by runner_init_start are still running. */
static size_t runner_inits_running(struct runner *r) {
  size_t n = 0;
  for (size_t k = 0; k < r->n; k++)
    n += runner_init_result(r->inst[k]) == 1;
  return n;
}

size_t runner_await_inits(struct runner *r, uint64_t wait_ns,
                          volatile sig_atomic_t *stop) {
  uint64_t start = runner_now(), now = start;
  size_t running;
  while ((running = runner_inits_running(r)) > 0 && !*stop &&
         now - start < wait_ns) {
    uint64_t left_ms = (wait_ns - (now - start) + 999999) / 1000000;
    runner_wait(r, -1, left_ms > 1000 ? 1000 : (int)left_ms);
    now = runner_now();
  }
  for (size_t k = 0; k < r->n; k++) {
    struct runner_instance *i = r->inst[k];
    if (i->ready || !i->thread_started)
      continue;
    int rc = runner_init_result(i);
    if (rc == 0)
      runner_commit(i, i->inst); /* said found by the caller */
    else if (rc == 1 && !*stop) {
      i->late = true;
      log_msg(LOG_LEVEL_WARNING, i->ops->name, i->label, "init",
              "has not returned after %.3g s: the other instances start; "
              "this one starts when it returns (its success gauge is 0 "
              "until then)",
              (double)(now - i->init_start_ns) / 1e9);
    }
  }
  return running;
}

/* An init said late returned: a failure is said and the instance is
 * never read; a success starts it as runner_read_all and
 * runner_schedule_from would have (a priming read, then its schedule). */
static void runner_late_init(struct runner *r, struct runner_instance *i,
                             uint64_t now) {
  int rc = runner_init_result(i);
  if (rc == 1)
    return;
  i->late = false;
  double took = (double)(i->init_end_ns - i->init_start_ns) / 1e9;
  if (rc < 0) {
    i->dead = true;
    log_msg(LOG_LEVEL_ERROR, i->ops->name, i->label, "init",
            "failed after %.3g s (%s): this instance is not run", took,
            strerror(-rc));
    return;
  }
  runner_commit(i, i->inst);
  log_msg(LOG_LEVEL_INFO, i->ops->name, i->label, "init",
          "returned after %.3g s: started", took);
  if (r->say_found)
    runner_say_found(i);
  if (!r->scheduled)
    return; /* runner_read_all primes it with the others */
  runner_start_read(r, i, now, /*discard=*/true);
  i->schedule_at_end = true; /* with the delay and anchor of the others */
  i->next_read_ns = 0;
  if (i->drain_ns > 0)
    i->next_drain_ns = now + i->drain_ns;
}

static void runner_collect_inits(struct runner *r, uint64_t now) {
  for (size_t k = 0; k < r->n; k++)
    if (r->inst[k]->late)
      runner_late_init(r, r->inst[k], now);
}

void runner_remove(struct runner *r, struct runner_instance *i) {
  size_t k = 0;
  while (k < r->n && r->inst[k] != i)
    k++;
  if (k == r->n)
    return;
  if (i->thread_started) /* ended after its init failed */
    pthread_join(i->thread, NULL);
  if (i->inst != NULL)
    i->ops->instance_free(i->inst);
  runner_instance_free(i);
  memmove(&r->inst[k], &r->inst[k + 1], (r->n - k - 1) * sizeof(*r->inst));
  r->n--;
}

/* ---- the end ---- */

static void runner_instance_free(struct runner_instance *i) {
  cfg_items_free(i->reconfigure, i->n_reconfigure);
  pthread_mutex_destroy(&i->lock);
  pthread_cond_destroy(&i->cond);
  snapshot_fini(&i->work);
  snapshot_fini(&i->last);
  free(i->label);
  free(i);
}

size_t runner_fini(struct runner *r, uint64_t wait_ns) {
  size_t left = 0;
  /* first: a read blocked in the kernel waiting for its device (a sample
   * that does not come, up to its Timeout) ends now, not after wait_ns */
  if (r->stop.fd >= 0 && eventfd_write(r->stop.fd, 1) < 0)
    log_errno(LOG_LEVEL_WARNING, "runner", "stop", "eventfd_write", errno,
              NULL);
  for (size_t k = 0; k < r->n; k++)
    if (r->inst[k]->thread_started)
      runner_post(r->inst[k], RUNNER_QUIT, false);
  struct timespec until;
  clock_gettime(CLOCK_REALTIME, &until);
  until.tv_sec += (time_t)(wait_ns / 1000000000ULL);
  until.tv_nsec += (long)(wait_ns % 1000000000ULL);
  if (until.tv_nsec >= 1000000000L) {
    until.tv_sec++;
    until.tv_nsec -= 1000000000L;
  }
  for (size_t k = 0; k < r->n; k++) {
    struct runner_instance *i = r->inst[k];
    if (i->thread_started && pthread_timedjoin_np(i->thread, NULL, &until)) {
      /* Still in a read (a hung device): freeing the instance under it
       * would be a use after free; the process's exit ends it. */
      pthread_mutex_lock(&i->lock);
      bool in_init = i->init_pending;
      pthread_mutex_unlock(&i->lock);
      log_msg(LOG_LEVEL_WARNING, i->ops->name, i->label, "stop",
              "%s has not returned after %.3g s; exiting without "
              "freeing this instance",
              in_init ? "its init" : "a read",
              (double)(runner_now() -
                       (in_init ? i->init_start_ns : i->started_ns)) /
                  1e9);
      r->inst[k] = NULL;
      left++;
      continue;
    }
    if (i->inst != NULL) /* restores whatever init changed */
      i->ops->instance_free(i->inst);
    runner_instance_free(i);
    r->inst[k] = NULL;
  }
  free(r->inst);
  r->inst = NULL;
  r->n = 0;
  /* A worker left in a read still holds the write end, and may poll the
   * stop fd. */
  if (r->wake[0] >= 0 && left == 0) {
    close(r->wake[0]);
    close(r->wake[1]);
  }
  if (r->stop.fd >= 0 && left == 0)
    close(r->stop.fd);
  r->wake[0] = r->wake[1] = -1;
  r->stop.fd = -1;
  return left;
}
