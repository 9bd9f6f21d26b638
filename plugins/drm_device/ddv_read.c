/*
 * ddv_read.c: one read of one device, and its records.
 *
 * Never wake a suspended device: the runtime status is read first. Unless
 * it says "active" (or "unsupported": runtime PM is off, the device stays
 * powered), the device may be asleep, and only the attributes whose show
 * function touches nothing (DDV_PM_NONE) are read; the rest are absent
 * from this read's records, never 0, and not held either: a sleeping
 * GPU's last clock, temperature or power are not what it is now.
 *
 * Never keep an idle device awake: an attribute that takes a runtime-PM
 * reference (DDV_PM_REF) marks the device busy when it lets go of it
 * (pm_runtime_put_autosuspend; pm_runtime_mark_last_busy before it on
 * older kernels), and the PM core suspends it only after the delay
 * (drivers/base/power/runtime.c: rpm_suspend with RPM_AUTO asks
 * pm_runtime_autosuspend_expiration for last_busy + autosuspend_delay and,
 * while that is in the future, arms the suspend timer there with
 * hrtimer_start_range_ns and a slack of delay / 4; pm_suspend_timer_fn
 * then queues the suspend). The timer fires between last_busy + delay and
 * last_busy + 1.25 x delay. So where power/control is "auto" and
 * autosuspend is in use (autosuspend_delay_ms readable and >= 0), the
 * attributes that take a reference are read again only once 1.25 x the
 * delay, DDV_PM_MARGIN_NS and the last such read's duration have passed
 * since that read ENDED (its last put is the kernel's last_busy): never
 * on the timer's latest firing, whatever the interval. The one exception
 * is the device's second read, when it comes before the delay could have
 * run out (the timer cannot fire yet; the read postpones the suspend once,
 * by at most the time since the first): so --once and the first read of
 * every mode report rates as well as values.
 *
 * In the reads between, each such attribute reports its last reading
 * (held, as collectd's and node_exporter's caches hold values): no series
 * comes and goes with the rule. Rates (power from energy, idle percent
 * from residency) are computed only between two real readings, and held
 * likewise. The drm_device record says how old the held readings are:
 * values_age_seconds, 0 at a read that took them. With control "on"
 * (runtime PM off for the device) they are read every time, and
 * ReadPMAttributes Always reads them every time anyway.
 *
 * Each attribute is read once (a sysfs show fills one page at once):
 * pread at 0 of an fd kept open while the fd budget allows, else open,
 * read, close; all through the kernel seam.
 */
#include "plugins/drm_device/ddv.h"

#include "common/core/counter.h"
#include "common/core/numfmt.h"
#include "common/core/text.h"
#include "common/sysfs/sysfs_value.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Say a failed attribute once (until it reads again). */
static void ddv_complain(const struct ddv_device *dev, struct ddv_probe *p,
                         int err, const char *text, size_t len) {
  if (!log_complaint_raise(&p->complaint))
    return;
  char object[200];
  snprintf(object, sizeof(object), "%s: %s", dev->name, p->rel);
  if (text == NULL) {
    log_errno(LOG_LEVEL_WARNING, DDV_PLUGIN, object, "read", err, NULL);
    return;
  }
  char shown[40];
  size_t body = len > 0 && text[len - 1] == '\n' ? len - 1 : len;
  text_sanitize(shown, sizeof(shown), text, body < 32 ? body : 32);
  log_msg(LOG_LEVEL_WARNING, DDV_PLUGIN, object, "read",
          "not a value the kernel prints here: \"%s%s\" (%zu bytes)", shown,
          body > 32 ? "..." : "", len);
}

/* Read the attribute into d->buf: its length, or -errno. The file stays
 * open and is read again from offset 0 (kernfs: seq_read_iter starts over
 * at position 0 and calls the show function again): one pread() per
 * attribute and read. Without pread in the seam: open, read, close. */
static ssize_t ddv_read_attr(struct ddv *d, const struct ddv_device *dev,
                             struct ddv_probe *p) {
  bool kept = p->fd >= 0;
  int fd = p->fd;
  if (!kept) {
    fd = ddv_node_openat(d, dev, p->rel, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
      return -errno;
  }
  ssize_t n;
  if (d->k->pread != NULL) {
    do
      n = d->k->pread(fd, d->buf, SYSFS_VALUE_MAX, 0);
    while (n < 0 && errno == EINTR);
  } else {
    n = kernel_read_retry(d->k, fd, d->buf, SYSFS_VALUE_MAX);
  }
  int err = errno;
  if (n < 0 || d->k->pread == NULL || (!kept && d->fds_open >= d->fd_budget)) {
    /* after an error opened afresh next time; beyond the fd budget
     * opened, read and closed each time */
    d->k->close(fd);
    if (kept)
      d->fds_open--;
    fd = -1;
  } else if (!kept) {
    d->fds_open++;
  }
  p->fd = fd;
  if (n < 0)
    return -err;
  d->buf[n] = '\0';
  return n;
}

/* The device's runtime_suspended_time in ms, read this time: false when
 * it has none or it was not read. */
static bool ddv_suspended_ms(const struct ddv_device *dev, uint64_t *ms) {
  if (dev->susp < 0 || !dev->probes[dev->susp].have)
    return false;
  *ms = dev->probes[dev->susp].u / DDV_MS_NS;
  return true;
}

/* The largest step of an energy counter (µJ) in dt_ns: twice the sensor's
 * power cap where it has one above 0 (hwmon power<N>_cap or _max: a power
 * limit the device may exceed briefly, PL2 and PL4 on Intel), else
 * DDV_PLAUSIBLE_WATTS, over the interval plus 1 s for the two clocks. */
static uint64_t ddv_energy_max_step(const struct ddv_device *dev,
                                    const struct ddv_probe *p, uint64_t dt_ns) {
  double watts = DDV_PLAUSIBLE_WATTS;
  if (p->cap >= 0 && dev->probes[p->cap].have && dev->probes[p->cap].f > 0)
    watts = 2.0 * dev->probes[p->cap].f;
  double uj = watts * 1e6 * ((double)dt_ns * 1e-9 + 1.0);
  return uj >= 1.8e19 ? UINT64_MAX : (uint64_t)uj;
}

/* Say a counter's reset once per device and attribute. */
static void ddv_say_reset(const struct ddv_device *dev, struct ddv_probe *p,
                          uint64_t prev, uint64_t raw, uint64_t dt_ns,
                          uint64_t max_step) {
  if (p->said_reset)
    return;
  p->said_reset = true;
  char object[200];
  snprintf(object, sizeof(object), "%s: %s", dev->name, p->rel);
  if (raw < prev)
    log_msg(LOG_LEVEL_INFO, DDV_PLUGIN, object, "read",
            "went back from %llu to %llu: reset (a driver reload or device "
            "reset), counted on from the new value; said once",
            (unsigned long long)prev, (unsigned long long)raw);
  else
    log_msg(LOG_LEVEL_WARNING, DDV_PLUGIN, object, "read",
            "grew by %llu in %.3f s, more than the %llu the device can "
            "reach: a reset (a hardware counter that restarted reads as a "
            "wrap to the driver), counted on from the new value; said once",
            (unsigned long long)(raw - prev), (double)dt_ns * 1e-9,
            (unsigned long long)max_step);
}

/*
 * Fold a raw cumulative reading in (counter_step): a counter narrower
 * than 64 bits wraps (i915's u32 rc6_residency_ms); at 64 bits (hwmon
 * energy, xe residency) one that went down was reset; and residency that
 * grew by more than the time since the last reading (with 25 % and 1 s for
 * the two clocks) was reset too. So was energy that grew faster than the
 * device can draw (ddv_energy_max_step): i915 and xe extend a 32-bit
 * register in software and count any fall of it as a wrap (i915_hwmon.c:
 * hwm_energy, xe_hwmon.c: xe_hwmon_energy_get), so a hardware reset of the
 * register reads as up to 2^32 units (2^32 >> 14 J) at once. A reset
 * gives no rate and adds nothing to the reported total, which goes on
 * from the new reading; it is said once per device and attribute.
 *
 * Idle residency does not grow while the device is runtime-suspended (xe:
 * the GT is powered off, and xe_gt_idle.c: get_residency_ms only extends
 * the hardware count read while awake; i915: get_residency reads RC6
 * residency registers under a wakeref), while i915's PMU counts suspended
 * time as RC6 (i915_pmu.c: get_rc6 adds the time since it went to sleep).
 * A GPU that slept is idle: the runtime_suspended_time the interval grew
 * by is counted as idle in idle_percent.
 */
static void ddv_counter(const struct ddv_device *dev, struct ddv_probe *p,
                        uint64_t raw, uint64_t now_ns) {
  uint64_t susp = 0;
  bool have_susp = ddv_suspended_ms(dev, &susp);
  if (!p->seen) {
    p->seen = true;
    p->first = p->last = raw;
    p->total = 0;
    p->last_ns = now_ns;
    p->have_rate = false;
    p->have_susp = have_susp;
    p->susp_ms = susp;
    return;
  }
  uint64_t dt = now_ns - p->last_ns;
  uint64_t max_step = 0;
  if (p->time_bound) /* ms of residency in dt */
    max_step = dt / DDV_MS_NS + dt / DDV_MS_NS / 4 + 1000;
  else if (p->energy_bound)
    max_step = ddv_energy_max_step(dev, p, dt);
  uint64_t delta;
  enum counter_move mv = counter_step(p->last, raw, p->bits, max_step, &delta);
  if (mv == COUNTER_RESET)
    ddv_say_reset(dev, p, p->last, raw, dt, max_step);
  bool sat = false;
  p->total = counter_add_sat(p->total, delta, &sat);
  p->have_rate = mv == COUNTER_STEP && dt > 0;
  if (p->have_rate) {
    double d = (double)delta;
    if (p->time_bound && have_susp && p->have_susp && susp >= p->susp_ms)
      d += (double)(susp - p->susp_ms); /* asleep is idle */
    p->rate = d * p->rate_scale / ((double)dt * 1e-9);
  }
  p->last = raw;
  p->last_ns = now_ns;
  p->have_susp = have_susp;
  p->susp_ms = susp;
}

/* Whether the value just parsed lies within the probe's bounds (ddv.h:
 * DDV_MAX_HZ and the others, set by ddv_devices.c); a value outside them
 * is no kernel's, said once like garbage (until it reads again). */
static bool ddv_in_range(const struct ddv_device *dev, struct ddv_probe *p,
                         const char *text, size_t len) {
  double v = p->kind == DDV_K_SINT ? p->f : (double)p->u;
  if (v >= p->lo && v <= p->hi)
    return true;
  if (!log_complaint_raise(&p->complaint))
    return false;
  char object[200], shown[40];
  snprintf(object, sizeof(object), "%s: %s", dev->name, p->rel);
  size_t body = len > 0 && text[len - 1] == '\n' ? len - 1 : len;
  text_sanitize(shown, sizeof(shown), text, body < 32 ? body : 32);
  log_msg(LOG_LEVEL_WARNING, DDV_PLUGIN, object, "read",
          "\"%s\" is %g %s, outside what the kernel gives there (%g to %g): "
          "no value",
          shown, v, p->field, p->lo, p->hi);
  return false;
}

static void ddv_probe_read(struct ddv *d, struct ddv_device *dev,
                           struct ddv_probe *p, uint64_t now_ns) {
  p->have = false;
  p->have_rate = false;
  ssize_t n = ddv_read_attr(d, dev, p);
  if (n < 0) {
    if (p->kind == DDV_K_DELAY && n == -EIO)
      return; /* autosuspend_delay_ms_show: not using autosuspend */
    if (n == -ENOENT || n == -ENODEV) {
      /* unplugged or unbound: the next scan says, and sets up anew a
       * node that is back (another driver, other attributes) */
      d->rescan = true;
      dev->gone = true;
    } else
      ddv_complain(dev, p, (int)-n, NULL, 0);
    return;
  }
  const char *b = d->buf;
  size_t len = (size_t)n;
  int rc = -EINVAL; /* a full page is cut: no value */
  uint64_t u = 0;
  int64_t s = 0;
  if (len < SYSFS_VALUE_MAX) {
    switch (p->kind) {
    case DDV_K_STATUS: {
      char word[16];
      rc = sysfs_value_word(b, len, word, sizeof(word));
      if (rc == 0) {
        dev->asleep =
            strcmp(word, "active") != 0 && strcmp(word, "unsupported") != 0;
        if (strcmp(word, "suspended") == 0 || strcmp(word, "suspending") == 0)
          p->u = 1;
        else if (strcmp(word, "active") == 0 || strcmp(word, "resuming") == 0 ||
                 strcmp(word, "unsupported") == 0)
          p->u = 0;
        else
          rc = -EINVAL; /* "error" or unknown: no value */
      }
      break;
    }
    case DDV_K_UINT:
      rc = sysfs_value_u64(b, len, &u);
      if (rc == 0 && p->mult > 1 && u > UINT64_MAX / p->mult)
        rc = -ERANGE;
      if (rc == 0)
        p->u = u * p->mult;
      break;
    case DDV_K_FLAG:
      rc = sysfs_value_u64(b, len, &u);
      if (rc == 0 && u > 1)
        rc = -EINVAL;
      if (rc == 0)
        p->u = u;
      break;
    case DDV_K_SINT:
      rc = sysfs_value_s64(b, len, &s);
      if (rc == 0)
        p->f = numfmt_scale((double)s, p->scale); /* 950 mV: 0.95 V */
      break;
    case DDV_K_DPM:
      rc = sysfs_value_dpm_current(b, len, &u);
      if (rc == 0)
        p->u = u;
      break;
    case DDV_K_COUNTER:
      rc = sysfs_value_u64(b, len, &u);
      if (rc == 0)
        ddv_counter(dev, p, u, now_ns);
      break;
    case DDV_K_CONTROL: {
      char word[16];
      rc = sysfs_value_word(b, len, word, sizeof(word));
      if (rc == 0 && strcmp(word, "auto") != 0 && strcmp(word, "on") != 0)
        rc = -EINVAL;
      if (rc == 0)
        p->u = strcmp(word, "auto") == 0;
      break;
    }
    case DDV_K_DELAY:
      rc = sysfs_value_s64(b, len, &s);
      if (rc == 0)
        p->f = (double)s;
      break;
    case DDV_K_GPU_METRICS: /* binary; said by ddv_gm_update */
      if (ddv_gm_update(dev, p, b, len, now_ns) < 0)
        return;
      rc = 0;
      break;
    }
  }
  if (rc < 0) {
    ddv_complain(dev, p, -rc, b, len);
    return;
  }
  if (p->bounded && !ddv_in_range(dev, p, b, len))
    return;
  p->have = true;
  if (log_complaint_release(&p->complaint))
    log_msg(LOG_LEVEL_INFO, DDV_PLUGIN, dev->name, p->rel, "readable again");
}

static bool ddv_wanted(const struct ddv *d, const struct ddv_device *dev,
                       const struct ddv_probe *p) {
  return d->cfg.report[dev->recs[p->rec].group];
}

/* Whether the attributes that take a PM reference may be read now (see
 * the top of this file). control and the delay are read each time the
 * device is awake: a change (udev, powertop) applies at once. */
static bool ddv_pm_allowed(struct ddv *d, struct ddv_device *dev,
                           uint64_t now_ns) {
  if (dev->control < 0)
    return true; /* no runtime PM attributes: nothing to keep awake */
  struct ddv_probe *c = &dev->probes[dev->control];
  ddv_probe_read(d, dev, c, now_ns);
  int64_t delay_ms = -1;
  if (dev->delay >= 0) {
    struct ddv_probe *dl = &dev->probes[dev->delay];
    ddv_probe_read(d, dev, dl, now_ns);
    if (dl->have)
      delay_ms = (int64_t)dl->f;
  }
  if (d->cfg.pm_always || !c->have || c->u == 0 || delay_ms < 0)
    return true; /* "on", or no autosuspend: a read keeps nothing awake */
  if (!dev->pm_once)
    return true; /* the first read takes everything */
  uint64_t delay_ns = (uint64_t)delay_ms * DDV_MS_NS;
  /* rpm_suspend's timer fires by last_busy + 1.25 x delay at the latest */
  uint64_t hold_ns =
      delay_ns + delay_ns / 4 + DDV_PM_MARGIN_NS + dev->pm_took_ns;
  if (now_ns >= dev->pm_end_ns && now_ns - dev->pm_end_ns >= hold_ns)
    return true;
  /* the second read, while pm_runtime_autosuspend_expiration still lies
   * ahead by more than the margin: the timer cannot have fired */
  return dev->reads == 1 && now_ns >= dev->pm_end_ns &&
         now_ns - dev->pm_end_ns + DDV_PM_MARGIN_NS < delay_ns;
}

/* A limit's (ddv.h: DDV_LIMITS_NS) reading this time: read when due; else
 * its last reading while the device's other PM attributes are read. */
static bool ddv_limit_read(struct ddv *d, struct ddv_device *dev,
                           struct ddv_probe *p, bool due, uint64_t now_ns) {
  if (due) {
    ddv_probe_read(d, dev, p, now_ns);
    p->held = p->have;
    return true;
  }
  p->have = p->held;
  return false;
}

/* requested_hz outside the known [min_hz, max_hz] of its record: the
 * limits changed (a write to min_freq/max_freq, a GT reset); read them at
 * once. Said once per requested value, so one that stays outside (a
 * firmware request below min) does not read them every time. */
static bool ddv_limits_stale(struct ddv_device *dev) {
  for (size_t i = 0; i < dev->n_probes; i++) {
    const struct ddv_probe *cur = &dev->probes[i];
    if (!cur->have || cur->kind != DDV_K_UINT ||
        strcmp(cur->field, "requested_hz") != 0)
      continue;
    for (size_t k = 0; k < dev->n_probes; k++) {
      const struct ddv_probe *l = &dev->probes[k];
      if (!l->limit || !l->held || l->rec != cur->rec)
        continue;
      bool out = (strcmp(l->field, "min_hz") == 0 && cur->u < l->u) ||
                 (strcmp(l->field, "max_hz") == 0 && cur->u > l->u);
      if (out && cur->u != dev->stale_hz) {
        dev->stale_hz = cur->u;
        return true;
      }
    }
  }
  return false;
}

void ddv_device_read(struct ddv *d, struct ddv_device *dev, uint64_t now_ns) {
  dev->asleep = false;
  if (dev->status >= 0) {
    struct ddv_probe *st = &dev->probes[dev->status];
    dev->asleep = true; /* until the status says otherwise */
    ddv_probe_read(d, dev, st, now_ns);
  }
  if (dev->hwmon_pending && !dev->asleep)
    ddv_probe_hwmon(d, dev); /* allocates, once per device */
  if (!dev->asleep)
    ddv_info_active(d, dev); /* once per device */
  dev->pm_read = !dev->asleep && ddv_pm_allowed(d, dev, now_ns);
  bool limits_due = dev->pm_read && now_ns >= dev->limits_next_ns;
  bool limits_read = false, any_ref = false;
  for (size_t i = 0; i < dev->n_probes; i++) {
    struct ddv_probe *p = &dev->probes[i];
    if ((int)i == dev->status || (int)i == dev->control || (int)i == dev->delay)
      continue;
    /* runtime_suspended_time is read for idle_percent in any case */
    bool wanted = ddv_wanted(d, dev, p) || (int)i == dev->susp;
    any_ref |= wanted && p->pm == DDV_PM_REF;
    if (!wanted || (dev->asleep && p->pm != DDV_PM_NONE)) {
      p->have = false;
      p->have_rate = false;
      /* a counter not read: its next rate spans the gap from last_ns */
      continue;
    }
    if (p->pm == DDV_PM_REF && !dev->pm_read)
      continue; /* held: its last reading (and rate) stays */
    if (p->limit)
      limits_read |= ddv_limit_read(d, dev, p, limits_due, now_ns);
    else
      ddv_probe_read(d, dev, p, now_ns);
  }
  if (dev->pm_read && !limits_read && ddv_limits_stale(dev)) {
    for (size_t i = 0; i < dev->n_probes; i++)
      if (dev->probes[i].limit && ddv_wanted(d, dev, &dev->probes[i]))
        ddv_limit_read(d, dev, &dev->probes[i], /*due=*/true, now_ns);
    limits_read = true;
  }
  if (limits_read)
    dev->limits_next_ns = now_ns + DDV_LIMITS_NS;
  if (dev->pm_read) {
    uint64_t end = plugin_host_monotonic_ns(d->host);
    dev->pm_once = true;
    dev->pm_values_ns = now_ns;
    dev->pm_end_ns = end > now_ns ? end : now_ns;
    dev->pm_took_ns = dev->pm_end_ns - now_ns;
  }
  if (dev->reads < UINT_MAX)
    dev->reads++;
  /* one age per device: its values that take a reference were read by
   * the read that started at pm_values_ns */
  dev->have_age = any_ref && dev->pm_once;
  /* in whole milliseconds: the reads' own jitter is not worth more */
  dev->age_s =
      dev->have_age && now_ns > dev->pm_values_ns
          ? (double)((now_ns - dev->pm_values_ns + 500000) / 1000000) / 1e3
          : 0.0;
}

/* Add a field unless the record already has one of that name. */
static void ddv_add(struct metric *m, const char *key, const char *ctype,
                    bool is_int, uint64_t u, double f) {
  for (size_t i = 0; i < m->n_fields; i++)
    if (strcmp(m->fields[i].key, key) == 0)
      return;
  if (is_int)
    metric_add_int(m, key, ctype, u);
  else
    metric_add_float(m, key, ctype, f);
}

static void ddv_probe_fields(const struct ddv_probe *p, struct metric *m) {
  if (p->kind == DDV_K_GPU_METRICS)
    return; /* its own records: ddv_gm_report */
  if (p->field[0] == '\0')
    return; /* power/control, autosuspend_delay_ms: no field */
  if (p->kind == DDV_K_COUNTER) {
    if (!p->have)
      return;
    /* unwrapped: the first reading and every delta since */
    if (p->scale != 1.0) {
      ddv_add(m, p->field, p->ctype, false, 0,
              ((double)p->first + (double)p->total) * p->scale);
    } else {
      bool sat = false;
      uint64_t raw = counter_add_sat(p->first, p->total, &sat);
      ddv_add(m, p->field, p->ctype, true,
              raw > UINT64_MAX / p->mult ? UINT64_MAX : raw * p->mult, 0);
    }
    if (p->have_rate && p->rate_field != NULL) {
      double r = p->rate;
      if (strcmp(p->rate_ctype, "percent") == 0 && r > 100.0)
        r = 100.0; /* clock skew between the kernel's and ours */
      ddv_add(m, p->rate_field, p->rate_ctype, false, 0, r);
    }
    return;
  }
  if (!p->have)
    return;
  if (p->kind == DDV_K_SINT)
    ddv_add(m, p->field, p->ctype, false, 0, p->f);
  else
    ddv_add(m, p->field, p->ctype, true, p->u, 0);
}

int ddv_device_report(const struct ddv *d, const struct ddv_device *dev,
                      uint64_t time_ns, struct metric_sink *sink) {
  int rc = 0;
  for (size_t r = 0; r < dev->n_recs; r++) {
    const struct ddv_rec *rec = &dev->recs[r];
    bool age = (int)r == dev->runtime_rec && dev->have_age;
    if (!d->cfg.report[rec->group] && !age)
      continue;
    struct metric m;
    metric_init(&m, ddv_groups[rec->group].measurement, time_ns);
    /* the order of drm_fdinfo's drm_device record */
    metric_add_tag(&m, "driver", dev->driver);
    metric_add_tag(&m, "device", dev->name);
    if (ddv_groups[rec->group].tag != NULL)
      metric_add_tag(&m, ddv_groups[rec->group].tag, rec->tag);
    if (d->cfg.report[rec->group])
      for (size_t i = 0; i < dev->n_probes; i++)
        if (dev->probes[i].rec == r)
          ddv_probe_fields(&dev->probes[i], &m);
    if (age) /* how old the held readings are (the top of this file) */
      ddv_add(&m, "values_age_seconds", "gpu_seconds", false, 0, dev->age_s);
    if (m.n_fields == 0)
      continue;
    int wrc = metric_sink_write(sink, &m);
    if (wrc < 0 && rc == 0)
      rc = wrc;
  }
  int wrc = ddv_gm_report(d, dev, time_ns, sink);
  if (wrc < 0 && rc == 0)
    rc = wrc;
  wrc = ddv_info_report(d, dev, time_ns, sink);
  if (wrc < 0 && rc == 0)
    rc = wrc;
  return rc;
}
