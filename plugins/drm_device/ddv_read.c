/*
 * ddv_read.c: one read of one device, and its records.
 *
 * The runtime status is read first. Unless it says "active" (or
 * "unsupported": runtime PM is off, the device stays powered), the device
 * may be asleep, and only the attributes marked safe_asleep are opened;
 * the rest are absent from this read's records, never 0. Each attribute is
 * opened, read once (a sysfs show fills one page at once) and closed,
 * through the kernel seam.
 */
#include "plugins/drm_device/ddv.h"

#include "common/core/counter.h"
#include "common/core/numfmt.h"
#include "common/core/text.h"
#include "common/sysfs/sysfs_value.h"

#include <errno.h>
#include <fcntl.h>
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
  if (p->fd < 0) {
    p->fd =
        d->k->openat(dev->dirfd, p->rel, O_RDONLY | O_NONBLOCK | O_CLOEXEC, 0);
    if (p->fd < 0)
      return -errno;
  }
  ssize_t n;
  if (d->k->pread != NULL) {
    do
      n = d->k->pread(p->fd, d->buf, SYSFS_VALUE_MAX, 0);
    while (n < 0 && errno == EINTR);
  } else {
    n = kernel_read_retry(d->k, p->fd, d->buf, SYSFS_VALUE_MAX);
  }
  int err = errno;
  if (n < 0 || d->k->pread == NULL) {
    d->k->close(p->fd); /* after an error: opened afresh next time */
    p->fd = -1;
  }
  if (n < 0)
    return -err;
  d->buf[n] = '\0';
  return n;
}

/* Fold a raw cumulative reading in: wraps at 32 bits when the previous
 * value fitted in 32 bits (i915's "%u" rc6_residency_ms), at 64 otherwise. */
static void ddv_counter(struct ddv_probe *p, uint64_t raw, uint64_t now_ns) {
  if (!p->seen) {
    p->seen = true;
    p->first = p->last = raw;
    p->total = 0;
    p->last_ns = now_ns;
    p->have_rate = false;
    return;
  }
  unsigned bits = p->last <= UINT32_MAX ? 32 : 64;
  uint64_t delta =
      raw >= p->last ? raw - p->last : counter_wrap_delta(p->last, raw, bits);
  bool sat = false;
  p->total = counter_add_sat(p->total, delta, &sat);
  uint64_t dt = now_ns - p->last_ns;
  p->have_rate = dt > 0;
  if (p->have_rate)
    p->rate = (double)delta * p->rate_scale / ((double)dt * 1e-9);
  p->last = raw;
  p->last_ns = now_ns;
}

static void ddv_probe_read(struct ddv *d, struct ddv_device *dev,
                           struct ddv_probe *p, uint64_t now_ns) {
  p->have = false;
  p->have_rate = false;
  ssize_t n = ddv_read_attr(d, dev, p);
  if (n < 0) {
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
  int rc = -EINVAL;
  uint64_t u = 0;
  int64_t s = 0;
  if (len >= SYSFS_VALUE_MAX) {
    rc = -EINVAL; /* a full page: cut */
  } else {
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
        ddv_counter(p, u, now_ns);
      break;
    }
  }
  if (rc < 0) {
    ddv_complain(dev, p, -rc, b, len);
    return;
  }
  p->have = true;
  if (log_complaint_release(&p->complaint))
    log_msg(LOG_LEVEL_INFO, DDV_PLUGIN, dev->name, p->rel, "readable again");
}

static bool ddv_wanted(const struct ddv *d, const struct ddv_device *dev,
                       const struct ddv_probe *p) {
  return d->cfg.report[dev->recs[p->rec].group];
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
  for (size_t i = 0; i < dev->n_probes; i++) {
    struct ddv_probe *p = &dev->probes[i];
    if ((int)i == dev->status)
      continue;
    if (!ddv_wanted(d, dev, p) || (dev->asleep && !p->safe_asleep)) {
      p->have = false;
      p->have_rate = false;
      /* a counter not read: its next rate spans the gap from last_ns */
      continue;
    }
    ddv_probe_read(d, dev, p, now_ns);
  }
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
    if (!d->cfg.report[rec->group])
      continue;
    struct metric m;
    metric_init(&m, ddv_groups[rec->group].measurement, time_ns);
    /* the order of drm_fdinfo's drm_device record */
    metric_add_tag(&m, "driver", dev->driver);
    metric_add_tag(&m, "device", dev->name);
    if (ddv_groups[rec->group].tag != NULL)
      metric_add_tag(&m, ddv_groups[rec->group].tag, rec->tag);
    for (size_t i = 0; i < dev->n_probes; i++)
      if (dev->probes[i].rec == r)
        ddv_probe_fields(&dev->probes[i], &m);
    if (m.n_fields == 0)
      continue;
    int wrc = metric_sink_write(sink, &m);
    if (wrc < 0 && rc == 0)
      rc = wrc;
  }
  return rc;
}
