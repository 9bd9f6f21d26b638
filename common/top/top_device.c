/*
 * top_device.c: the typed per-device join of the live view (top_device.h).
 *
 * The role table below is the whole contract between the plugins' records
 * and the device header: a row names a measurement, a field and the unit
 * (metric_unit.h symbol) its value must carry, and how several records of
 * one device fold (the first domain, the hottest sensor, a sum over memory
 * regions). drm_fdinfo's per-device summary is accepted under both of its
 * names, drm_clients and the older drm_device (whose fields, clients and
 * processes, drm_device's own runtime record of the same name lacks).
 */
#include "common/top/top_device.h"

#include "common/core/metric_unit.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

enum top_fold {
  TOP_FOLD_FIRST, /* the first record's value (one domain or region) */
  TOP_FOLD_MAX,   /* the largest over the records */
  TOP_FOLD_SUM,   /* summed over the records */
};

static const struct top_role {
  const char *measurement;
  const char *field;
  const char *symbol; /* the unit the value must carry */
  enum top_device_value value;
  enum top_fold fold;
  bool device_scope; /* only records tagged scope=device */
} top_roles[] = {
    {"drm_memory", "resident_bytes", "B", TOP_DV_RESIDENT, TOP_FOLD_SUM, true},
    {"drm_memory", "total_bytes", "B", TOP_DV_MEM_TOTAL, TOP_FOLD_SUM, true},
    {"drm_clients", "clients", "", TOP_DV_CLIENTS, TOP_FOLD_FIRST, false},
    {"drm_clients", "processes", "", TOP_DV_PROCESSES, TOP_FOLD_FIRST, false},
    {"drm_device", "clients", "", TOP_DV_CLIENTS, TOP_FOLD_FIRST, false},
    {"drm_device", "processes", "", TOP_DV_PROCESSES, TOP_FOLD_FIRST, false},
    {"drm_device_busy", "percent", "%", TOP_DV_BUSY, TOP_FOLD_FIRST, false},
    /* drm_device_freq and _memory: from one record (top_device_record) */
    {"drm_device_memory", "used_bytes", "B", TOP_DV_VRAM_USED, TOP_FOLD_FIRST,
     false},
    {"drm_device_memory", "total_bytes", "B", TOP_DV_VRAM_TOTAL, TOP_FOLD_FIRST,
     false},
    {"drm_device_freq", "actual_hz", "Hz", TOP_DV_FREQ, TOP_FOLD_FIRST, false},
    {"drm_device_freq", "requested_hz", "Hz", TOP_DV_FREQ_REQ, TOP_FOLD_FIRST,
     false},
    {"drm_device_freq", "max_hz", "Hz", TOP_DV_FREQ_MAX, TOP_FOLD_FIRST, false},
    {"drm_device_temperature", "celsius", "C", TOP_DV_TEMP, TOP_FOLD_MAX,
     false},
    {"drm_device_power", "power_watts", "W", TOP_DV_POWER, TOP_FOLD_MAX, false},
    {"drm_device_power", "power_cap_watts", "W", TOP_DV_POWER_CAP, TOP_FOLD_MAX,
     false},
    {"drm_device_fan", "rpm", "rpm", TOP_DV_FAN, TOP_FOLD_FIRST, false},
    /* drm_device's runtime record: the age of the readings it holds
     * between the reads its runtime-PM rule allows */
    {"drm_device", "values_age_seconds", "s", TOP_DV_AGE, TOP_FOLD_MAX, false},
};
#define TOP_N_ROLES (sizeof(top_roles) / sizeof(top_roles[0]))

/* The measurements that make a device known (besides the role table's):
 * drm_fdinfo's engines, and every drm_device group. */
static bool top_device_measurement(const char *name) {
  return strcmp(name, "drm_engine") == 0 || strcmp(name, "drm_memory") == 0 ||
         strcmp(name, "drm_clients") == 0 ||
         strncmp(name, "drm_device", 10) == 0;
}

static bool top_is_device_scope(const struct top_batch *m,
                                const struct top_record *r) {
  const char *scope = top_batch_tag(m, r, "scope");
  return scope != NULL && strcmp(scope, "device") == 0;
}

bool top_device_consumes(const struct top_batch *m,
                         const struct top_record *r) {
  const char *name = top_batch_str(m, r->measurement);
  return top_batch_tag(m, r, "device") != NULL && top_device_measurement(name);
}

/* The device of record `r`, created when new; NULL on ENOMEM. */
static struct top_device *top_devices_get(struct top_devices *d,
                                          const char *device) {
  for (size_t i = 0; i < d->n; i++)
    if (strcmp(d->dev[i].device, device) == 0)
      return &d->dev[i];
  if (d->n == d->cap) {
    size_t cap = d->cap ? 2 * d->cap : 4;
    struct top_device *g = realloc(d->dev, cap * sizeof(*g));
    if (g == NULL)
      return NULL;
    d->dev = g;
    d->cap = cap;
  }
  struct top_device *dev = &d->dev[d->n++];
  memset(dev, 0, sizeof(*dev));
  dev->device = device;
  return dev;
}

static void top_fold(struct top_value *v, enum top_fold fold, double x) {
  if (!v->has) {
    v->has = true;
    v->v = x;
  } else if (fold == TOP_FOLD_SUM) {
    v->v += x;
  } else if (fold == TOP_FOLD_MAX && x > v->v) {
    v->v = x;
  }
}

/* The unit symbol of a stored field; NULL for a type the table lacks. */
static const char *top_field_symbol(const struct top_batch *m,
                                    const struct top_field *f) {
  const struct metric_unit *u = metric_unit_find(top_batch_str(m, f->ctype));
  return u != NULL ? u->symbol : NULL;
}

static void top_device_record(const struct top_batch *m,
                              const struct top_record *r,
                              struct top_device *dev) {
  const char *name = top_batch_str(m, r->measurement);
  const char *driver = top_batch_tag(m, r, "driver");
  bool fdinfo = strcmp(name, "drm_engine") == 0 ||
                strcmp(name, "drm_memory") == 0 ||
                strcmp(name, "drm_clients") == 0 ||
                (strcmp(name, "drm_device") == 0 &&
                 top_batch_field(m, r, "clients") != NULL);
  if (driver != NULL) {
    if (dev->driver == NULL)
      dev->driver = driver;
    else if (strcmp(dev->driver, driver) != 0 && dev->driver_other == NULL) {
      /* drm_fdinfo's name first, drm_device's beside it */
      if (fdinfo) {
        dev->driver_other = dev->driver;
        dev->driver = driver;
      } else {
        dev->driver_other = driver;
      }
    }
  }
  if (strcmp(name, "drm_engine") == 0) {
    const struct top_field *u = top_batch_field(m, r, "utilization");
    const char *engine = top_batch_tag(m, r, "engine");
    if (!top_is_device_scope(m, r) || u == NULL || engine == NULL)
      return;
    const char *sym = top_field_symbol(m, u);
    if (sym == NULL || strcmp(sym, "%") != 0) {
      dev->refused++;
      return;
    }
    for (int i = 0; i < dev->n_engines; i++)
      if (strcmp(dev->engine[i], engine) == 0) {
        dev->util[i] += u->f;
        return;
      }
    if (dev->n_engines < TOP_DEVICE_ENGINES) {
      dev->engine[dev->n_engines] = engine;
      dev->util[dev->n_engines++] = u->f;
    }
    return;
  }
  /* A device's clock and memory come from one record each: the first
   * frequency domain and the first memory region that have a value (so a
   * clock is never shown under another domain's limit). */
  const char **pick = NULL;
  const char *tag = NULL;
  if (strcmp(name, "drm_device_freq") == 0) {
    pick = &dev->freq_domain;
    tag = top_batch_tag(m, r, "domain");
  } else if (strcmp(name, "drm_device_memory") == 0) {
    pick = &dev->vram_region;
    tag = top_batch_tag(m, r, "region");
  }
  if (pick != NULL && *pick != NULL && (tag == NULL || strcmp(*pick, tag) != 0))
    return;
  for (size_t k = 0; k < TOP_N_ROLES; k++) {
    const struct top_role *role = &top_roles[k];
    if (strcmp(role->measurement, name) != 0 ||
        (role->device_scope && !top_is_device_scope(m, r)))
      continue;
    const struct top_field *f = top_batch_field(m, r, role->field);
    if (f == NULL)
      continue;
    const char *sym = top_field_symbol(m, f);
    if (sym == NULL || strcmp(sym, role->symbol) != 0) {
      dev->refused++;
      continue;
    }
    top_fold(&dev->v[role->value], role->fold, f->f);
    if (pick != NULL && *pick == NULL)
      *pick = tag != NULL ? tag : ""; /* "": a record without the tag */
  }
}

int top_devices_collect(const struct top_batch *m, struct top_devices *out) {
  out->n = 0;
  out->fdinfo = false;
  out->unreadable = -1;
  for (size_t i = 0; i < m->n_recs; i++) {
    const struct top_record *r = &m->recs[i];
    const char *name = top_batch_str(m, r->measurement);
    if (strcmp(name, "drm_scan") == 0) {
      const struct top_field *f = top_batch_field(m, r, "unreadable");
      out->fdinfo = true;
      if (f != NULL)
        out->unreadable = f->f;
      continue;
    }
    if (!top_device_measurement(name))
      continue;
    const char *device = top_batch_tag(m, r, "device");
    if (device == NULL)
      continue;
    if (strcmp(name, "drm_engine") == 0 || strcmp(name, "drm_memory") == 0 ||
        strcmp(name, "drm_clients") == 0 ||
        top_batch_field(m, r, "clients") != NULL)
      out->fdinfo = true;
    struct top_device *dev = top_devices_get(out, device);
    if (dev == NULL)
      return -ENOMEM;
    top_device_record(m, r, dev);
  }
  return 0;
}

void top_devices_fini(struct top_devices *d) {
  free(d->dev);
  memset(d, 0, sizeof(*d));
}

const struct top_device *top_devices_find(const struct top_devices *d,
                                          const char *device) {
  for (size_t i = 0; device != NULL && i < d->n; i++)
    if (strcmp(d->dev[i].device, device) == 0)
      return &d->dev[i];
  return NULL;
}

bool top_device_util(const struct top_device *d, double *pct) {
  if (d->n_engines > 0) {
    double best = 0;
    for (int i = 0; i < d->n_engines; i++)
      if (d->util[i] > best)
        best = d->util[i];
    *pct = best;
    return true;
  }
  if (d->v[TOP_DV_BUSY].has) {
    *pct = d->v[TOP_DV_BUSY].v;
    return true;
  }
  return false;
}
