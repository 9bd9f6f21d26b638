/*
 * host_collectd.c: the collectd host (see host_collectd.h).
 *
 * Lifecycle: the config callback turns each block into an instance and
 * feeds it its keys (a failing block is freed at once); init calls each
 * instance's init and registers one complex read callback per surviving
 * instance, whose user_data free_func frees the instance.
 *
 * What collectd 5.12 does with that user data (src/daemon/plugin.c at tag
 * collectd-5.12.0, and checked against Debian's 5.12.0-14 daemon with a
 * probe module registering one name twice):
 *  - plugin_register_complex_read() runs free_func itself when
 *    registration fails (calloc failure, or a duplicate name: EINVAL after
 *    a WARNING), so the host must not free the instance again;
 *  - plugin_shutdown_all() stops and joins the read threads (a thread that
 *    waits for its next read puts the callback back into the heap), then
 *    destroy_read_heap() runs free_func for every registered read callback,
 *    suspended ones included, before the shutdown callbacks run.
 * So instance_free(), which restores what init changed (sysfs knobs), runs
 * at daemon shutdown through free_func; the shutdown callback only frees
 * instances that were configured but never reached init.
 */
#include "collectd/core/daemon/collectd.h"
#include "collectd/core/daemon/plugin.h"
#include "collectd/core/utils/common/common.h"
#include "collectd/core/utils/metadata/meta_data.h"

#include "common/collectd/collectd_map.h"
#include "common/collectd/host_collectd.h"
#include "common/core/log.h"
#include "common/core/metric_unit.h"
#include "common/core/record_check.h"

#include <errno.h>
#include <pthread.h>
#include <time.h>

struct hc_instance {
  void *inst;              /* owned, freed with hc_ops->instance_free */
  char *label;             /* owned */
  cdtime_t interval;       /* 0: the global interval */
  struct plugin_host host; /* handed to init(), valid until the free */
  /* read() and drain() run on collectd's read threads, possibly two at
   * once: the plugin contract says never concurrently. */
  pthread_mutex_t lock;
  struct record_check check; /* what every record is checked for */
  unsigned pace;             /* its hc_pace slot + 1; 0: not paced */
};

static const struct plugin_ops *hc_ops;
/* Configured, not yet started (owned until hc_init hands them over). */
static struct hc_instance **hc_pending;
static size_t hc_n_pending;
static size_t hc_n_dropped; /* blocks dropped at config */
/* What the plugin's instances share (plugin_host.h), one per .so: handed
 * to every instance's init. Never finalised: the instances, freed by
 * collectd's read heap, remove their own objects. */
static struct plugin_shared hc_shared;

/* Types we complained about (missing from types.db, or not exactly one data
 * source): read callbacks run on several threads, hence the lock. */
struct hc_bad_type {
  char type[COLLECTD_MAP_NAME_MAX];
  struct log_complaint complaint;
};
static pthread_mutex_t hc_bad_lock = PTHREAD_MUTEX_INITIALIZER;
static struct hc_bad_type *hc_bad_types;
static size_t hc_n_bad_types;

static void hc_log(enum log_level level, const char *message) {
  int severity;
  switch (level) {
  case LOG_LEVEL_ERROR:
    severity = LOG_ERR;
    break;
  case LOG_LEVEL_WARNING:
    severity = LOG_WARNING;
    break;
  case LOG_LEVEL_NOTICE:
    severity = LOG_NOTICE;
    break;
  case LOG_LEVEL_INFO:
    severity = LOG_INFO;
    break;
  default:
    severity = LOG_DEBUG;
    break;
  }
  plugin_log(severity, "%s", message); /* already "plugin: ..." */
}

/* Pacing an instance that replays (plugin.h: replays): each value it
 * dispatches carries HC_PACE_KEY (its slot + 1) and is counted here; a
 * write callback of ours, which collectd's write threads call for every
 * value list after the write callbacks registered before it (csv,
 * write_prometheus, ...: plugin_write in fc_default_action, collectd 5.12
 * src/daemon/plugin.c), counts it back, and the next batch begins only
 * when none is left (hc_pace_wait). So the write queue
 * (plugin_write_enqueue: unbounded by default, taken by WriteThreads
 * threads at once) holds one batch at a time, and no value of a series
 * overtakes the one before it. Slots outlive the instances: the write
 * threads still run when collectd's read heap frees them. */
#define HC_PACE_SLOTS 64
#define HC_PACE_KEY "gpu_telemetry:paced"
static pthread_mutex_t hc_pace_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t hc_pace_cond = PTHREAD_COND_INITIALIZER;
static struct {
  bool used;
  uint64_t outstanding; /* dispatched, not yet seen by hc_pace_write */
  struct log_complaint late;
} hc_pace[HC_PACE_SLOTS];
static bool hc_pace_registered;

static int hc_pace_write(const data_set_t *ds, const value_list_t *vl,
                         user_data_t *ud) {
  (void)ds;
  (void)ud;
  uint64_t slot;
  if (vl->meta == NULL ||
      meta_data_get_unsigned_int(vl->meta, HC_PACE_KEY, &slot) != 0 ||
      slot == 0 || slot > HC_PACE_SLOTS)
    return 0;
  pthread_mutex_lock(&hc_pace_lock);
  if (hc_pace[slot - 1].used && hc_pace[slot - 1].outstanding > 0 &&
      --hc_pace[slot - 1].outstanding == 0)
    pthread_cond_broadcast(&hc_pace_cond);
  pthread_mutex_unlock(&hc_pace_lock);
  return 0;
}

/* A slot for `hc` (0: none free, then it is not paced). */
static unsigned hc_pace_take(void) {
  unsigned slot = 0;
  pthread_mutex_lock(&hc_pace_lock);
  for (unsigned i = 0; i < HC_PACE_SLOTS && slot == 0; i++)
    if (!hc_pace[i].used) {
      hc_pace[i].used = true;
      hc_pace[i].outstanding = 0;
      hc_pace[i].late = (struct log_complaint){false};
      slot = i + 1;
    }
  pthread_mutex_unlock(&hc_pace_lock);
  return slot;
}

/* Wait until every value `hc` dispatched has been written. Writers that
 * make progress are waited for however slow (a read blocked here still
 * ends: the write threads outlive the read threads at shutdown); a wait
 * in which no value at all is written for half an interval (at least
 * 1 s) means values that never reach the writers (WriteQueueLimitHigh,
 * a filter chain's stop): said once, the count starts again. */
static void hc_pace_wait(struct hc_instance *hc) {
  uint64_t stall_ns = hc->host.interval_ns / 2;
  if (stall_ns < 1000000000u)
    stall_ns = 1000000000u;
  pthread_mutex_lock(&hc_pace_lock);
  uint64_t *left = &hc_pace[hc->pace - 1].outstanding;
  uint64_t seen = UINT64_MAX;
  struct timespec deadline = {0, 0};
  while (*left > 0) {
    if (*left < seen) { /* progress: a new deadline */
      seen = *left;
      clock_gettime(CLOCK_REALTIME, &deadline); /* the cond's clock */
      uint64_t ns = (uint64_t)deadline.tv_nsec + stall_ns;
      deadline.tv_sec += (time_t)(ns / 1000000000u);
      deadline.tv_nsec = (long)(ns % 1000000000u);
    }
    if (pthread_cond_timedwait(&hc_pace_cond, &hc_pace_lock, &deadline) ==
            ETIMEDOUT &&
        *left == seen)
      break;
  }
  if (*left > 0) {
    if (log_complaint_raise(&hc_pace[hc->pace - 1].late))
      log_msg(LOG_LEVEL_WARNING, hc_ops->name, hc->label, "write queue",
              "%llu values of the previous batch not written and none for "
              "%llu ms (dropped by WriteQueueLimitHigh or a filter chain?): "
              "the next batch goes on",
              (unsigned long long)*left,
              (unsigned long long)(stall_ns / 1000000u));
    *left = 0;
  }
  pthread_mutex_unlock(&hc_pace_lock);
}

static void hc_instance_free(void *data) {
  struct hc_instance *hc = data;
  if (hc == NULL)
    return;
  if (hc->pace != 0) {
    pthread_mutex_lock(&hc_pace_lock);
    hc_pace[hc->pace - 1].used = false;
    pthread_mutex_unlock(&hc_pace_lock);
  }
  hc_ops->instance_free(hc->inst);
  pthread_mutex_destroy(&hc->lock);
  free(hc->label);
  free(hc);
}

/* ---- configuration ---- */

/* Copy an oconfig item into an owned cfg_item; on -ENOMEM the partial
 * copy is left for cfg_item_clear(). */
static int hc_item_convert(const oconfig_item_t *ci, struct cfg_item *out) {
  memset(out, 0, sizeof(*out));
  out->key = strdup(ci->key);
  if (out->key == NULL)
    return -ENOMEM;
  if (ci->values_num > 0) {
    struct cfg_value *values = calloc((size_t)ci->values_num, sizeof(*values));
    if (values == NULL)
      return -ENOMEM;
    out->values = values;
    for (int i = 0; i < ci->values_num; i++) {
      const oconfig_value_t *v = &ci->values[i];
      out->n_values = (size_t)i + 1;
      if (v->type == OCONFIG_TYPE_NUMBER) {
        /* the text too, for keys that take a name or an id (cfg.h) */
        char text[40];
        values[i].type = CFG_NUMBER;
        values[i].number = v->value.number;
        if (cfg_number_text(v->value.number, text, sizeof text) == 0 &&
            (values[i].string = strdup(text)) == NULL)
          return -ENOMEM;
      } else if (v->type == OCONFIG_TYPE_BOOLEAN) {
        values[i].type = CFG_BOOLEAN;
        values[i].boolean = v->value.boolean != 0;
      } else {
        values[i].type = CFG_STRING;
        if ((values[i].string = strdup(v->value.string)) == NULL)
          return -ENOMEM;
      }
    }
  }
  if (ci->children_num > 0) {
    struct cfg_item *children =
        calloc((size_t)ci->children_num, sizeof(*children));
    if (children == NULL)
      return -ENOMEM;
    out->children = children;
    for (int i = 0; i < ci->children_num; i++) {
      out->n_children = (size_t)i + 1;
      int rc = hc_item_convert(&ci->children[i], &children[i]);
      if (rc < 0)
        return rc;
    }
  }
  return 0;
}

static struct hc_instance *hc_instance_new(const char *label) {
  struct hc_instance *hc = calloc(1, sizeof(*hc));
  if (hc != NULL) {
    pthread_mutex_init(&hc->lock, NULL);
    record_check_init(&hc->check, hc_ops->name, hc_ops->units);
  }
  if (hc != NULL && (hc->label = strdup(label)) != NULL &&
      (hc->inst = hc_ops->instance_new(label)) != NULL)
    return hc;
  if (hc != NULL) {
    pthread_mutex_destroy(&hc->lock);
    free(hc->label);
  }
  free(hc);
  log_errno(LOG_LEVEL_ERROR, hc_ops->name, "config", "Instance", ENOMEM, NULL);
  return NULL;
}

/* Interval: seconds (a number or a string), at least 1 ms as in the
 * executables (plugin_host.h: PLUGIN_MIN_INTERVAL_NS): a shorter one is a
 * typo, and a read callback that never sleeps would starve collectd's
 * read threads. */
static int hc_interval(const struct cfg_item *item, cdtime_t *out) {
  double seconds;
  int rc =
      cfg_get_double(hc_ops->name, item, (double)PLUGIN_MIN_INTERVAL_NS / 1e9,
                     86400.0 * 366, &seconds);
  if (rc < 0)
    return rc;
  *out = DOUBLE_TO_CDTIME_T(seconds);
  return 0;
}

/* One key of a block: Interval is ours, every other key the plugin's. */
static int hc_apply(struct hc_instance *hc, const oconfig_item_t *ci) {
  struct cfg_item item;
  int rc = hc_item_convert(ci, &item);
  if (rc < 0)
    log_errno(LOG_LEVEL_ERROR, hc_ops->name, "config", ci->key, -rc, NULL);
  else if (cfg_key_is(&item, "Interval"))
    rc = hc_interval(&item, &hc->interval);
  else
    rc = hc_ops->configure(hc->inst, &item);
  cfg_item_clear(&item);
  return rc;
}

/* Keep a fully configured block for init, or drop it (freed at once). */
static void hc_finish_block(struct hc_instance *hc, bool ok) {
  for (size_t i = 0; ok && i < hc_n_pending; i++)
    if (strcmp(hc_pending[i]->label, hc->label) == 0) {
      log_msg(LOG_LEVEL_ERROR, hc_ops->name, "config", "Instance",
              "\"%s\": label already used", hc->label);
      ok = false;
    }
  struct hc_instance **grown = NULL;
  if (ok) {
    grown = realloc(hc_pending, (hc_n_pending + 1) * sizeof(*grown));
    if (grown == NULL)
      log_errno(LOG_LEVEL_ERROR, hc_ops->name, "config", "Instance", ENOMEM,
                NULL);
  }
  if (grown == NULL) {
    log_msg(LOG_LEVEL_ERROR, hc_ops->name, "config", "Instance",
            "\"%s\": dropped", hc->label);
    hc_instance_free(hc);
    hc_n_dropped++;
    return;
  }
  hc_pending = grown;
  hc_pending[hc_n_pending++] = hc;
}

static void hc_config_instance(const oconfig_item_t *ci) {
  if (ci->values_num != 1 || ci->values[0].type != OCONFIG_TYPE_STRING ||
      ci->values[0].value.string[0] == '\0') {
    log_msg(LOG_LEVEL_ERROR, hc_ops->name, "config", "Instance",
            "expected one non-empty string label; block dropped");
    hc_n_dropped++;
    return;
  }
  struct hc_instance *hc = hc_instance_new(ci->values[0].value.string);
  if (hc == NULL) {
    hc_n_dropped++;
    return;
  }
  bool ok = true;
  /* Stop at the first bad key, as curl_json does: the block is dropped. */
  for (int i = 0; i < ci->children_num && ok; i++)
    ok = hc_apply(hc, &ci->children[i]) == 0;
  hc_finish_block(hc, ok);
}

/* One <Plugin NAME> block; collectd calls this once per such block. */
static int hc_config(oconfig_item_t *ci) {
  struct hc_instance *top = NULL; /* the keys outside Instance blocks */
  bool top_ok = true;
  for (int i = 0; i < ci->children_num; i++) {
    const oconfig_item_t *child = &ci->children[i];
    if (strcasecmp(child->key, "Instance") == 0) {
      hc_config_instance(child);
      continue;
    }
    if (!top_ok)
      continue;
    if (top == NULL && (top = hc_instance_new(hc_ops->name)) == NULL) {
      top_ok = false;
      hc_n_dropped++;
      continue;
    }
    top_ok = hc_apply(top, child) == 0;
  }
  if (top != NULL)
    hc_finish_block(top, top_ok);
  return 0;
}

/* ---- reading ---- */

/* Log an ERROR the first time `type` cannot be dispatched; `what` is the
 * call that said no. */
static void hc_bad_type(const char *type, const char *what, const char *problem,
                        size_t n_ds) {
  pthread_mutex_lock(&hc_bad_lock);
  struct hc_bad_type *bad = NULL;
  for (size_t i = 0; i < hc_n_bad_types && bad == NULL; i++)
    if (strcmp(hc_bad_types[i].type, type) == 0)
      bad = &hc_bad_types[i];
  if (bad == NULL) {
    struct hc_bad_type *grown =
        realloc(hc_bad_types, (hc_n_bad_types + 1) * sizeof(*grown));
    if (grown != NULL) {
      hc_bad_types = grown;
      bad = &grown[hc_n_bad_types++];
      memset(bad, 0, sizeof(*bad));
      sstrncpy(bad->type, type, sizeof(bad->type));
    }
  }
  /* Without memory for the flag, say it every time rather than never. */
  bool say = bad == NULL || log_complaint_raise(&bad->complaint);
  pthread_mutex_unlock(&hc_bad_lock);
  if (!say)
    return;
  if (n_ds == 0)
    log_msg(LOG_LEVEL_ERROR, hc_ops->name, type, what,
            "%s; its fields are not dispatched", problem);
  else
    log_msg(LOG_LEVEL_ERROR, hc_ops->name, type, what,
            "%zu data sources, expected 1; its fields are not dispatched",
            n_ds);
}

static int64_t hc_double_to_i64(double d) {
  if (d >= 9223372036854775808.0)
    return INT64_MAX;
  if (d <= -9223372036854775808.0)
    return INT64_MIN;
  return (int64_t)d;
}

static uint64_t hc_double_to_u64(double d) {
  if (!(d > 0))
    return 0;
  if (d >= 18446744073709551616.0)
    return UINT64_MAX;
  return (uint64_t)d;
}

/* Convert a field to the data source type; false for an unknown type. */
static bool hc_value(int ds_type, const struct metric_field *f, value_t *v) {
  bool is_int = f->kind == METRIC_INT;
  /* A float kept in a smaller unit (metric_unit_collectd_scale): energy in
   * joules is stored as integer microjoules. */
  double fv = is_int ? 0 : f->v.f * metric_unit_collectd_scale(f->ctype);
  switch (ds_type) {
  case DS_TYPE_GAUGE:
    v->gauge = is_int ? (gauge_t)f->v.i : fv;
    return true;
  case DS_TYPE_DERIVE:
    v->derive = is_int ? f->v.i : hc_double_to_i64(fv);
    return true;
  case DS_TYPE_COUNTER: /* unsigned: a negative value becomes 0 */
    v->counter =
        is_int ? (f->v.i < 0 ? 0 : (counter_t)f->v.i) : hc_double_to_u64(fv);
    return true;
  case DS_TYPE_ABSOLUTE:
    v->absolute =
        is_int ? (f->v.i < 0 ? 0 : (absolute_t)f->v.i) : hc_double_to_u64(fv);
    return true;
  default:
    return false;
  }
}

struct hc_sink {
  struct metric_sink base;
  struct hc_instance *hc;
};

static int hc_sink_nop(struct metric_sink *sink) {
  (void)sink;
  return 0;
}

/* A batch begins: a paced instance's previous batch is written first. */
static int hc_sink_begin(struct metric_sink *sink) {
  struct hc_instance *hc = ((struct hc_sink *)sink)->hc;
  if (hc->pace != 0)
    hc_pace_wait(hc);
  return 0;
}

/* The dispatch sink: one value list per field of the record. */
static int hc_sink_write(struct metric_sink *sink, const struct metric *m) {
  struct hc_instance *hc = ((struct hc_sink *)sink)->hc;
  /* A record that lost tags or fields, or has a field of no known unit:
   * said (record_check.h), the rest sent. One read callback per
   * instance at a time (hc->lock), so the check needs no lock. */
  /* on the stack (4.4 KiB): thread-local storage in a plugin .so would
   * need __tls_get_addr from the loader (tests/e2e/symbols.sh) */
  struct metric kept;
  m = record_check(&hc->check, m, &kept);
  if (m == NULL)
    return 0;
  for (size_t i = 0; i < m->n_fields; i++) {
    struct collectd_ident id;
    collectd_map(hc_ops->collectd_rules, m, i, hc_ops->name, hc->label, &id);
    const data_set_t *ds = plugin_get_ds(id.type);
    value_t value;
    if (ds == NULL) {
      hc_bad_type(id.type, "plugin_get_ds",
                  "no such type (list the plugin's types.db after the "
                  "default one in TypesDB)",
                  0);
      continue;
    }
    if (ds->ds_num != 1) {
      hc_bad_type(id.type, "plugin_get_ds", NULL, ds->ds_num);
      continue;
    }
    if (!hc_value(ds->ds[0].type, &m->fields[i], &value)) {
      hc_bad_type(id.type, "plugin_get_ds", "unknown data source type", 0);
      continue;
    }
    value_list_t vl = VALUE_LIST_INIT;
    vl.values = &value;
    vl.values_len = 1;
    vl.time = NS_TO_CDTIME_T(m->time_ns); /* 0: collectd fills it in */
    vl.interval = hc->interval;           /* 0: the callback's interval */
    sstrncpy(vl.plugin, hc_ops->name, sizeof(vl.plugin));
    sstrncpy(vl.plugin_instance, id.plugin_instance,
             sizeof(vl.plugin_instance));
    sstrncpy(vl.type, id.type, sizeof(vl.type));
    sstrncpy(vl.type_instance, id.type_instance, sizeof(vl.type_instance));
    if (hc->pace == 0) {
      plugin_dispatch_values(&vl);
      continue;
    }
    /* counted before it is queued: a write thread may see it at once */
    vl.meta = meta_data_create();
    if (vl.meta != NULL &&
        meta_data_add_unsigned_int(vl.meta, HC_PACE_KEY, hc->pace) == 0) {
      pthread_mutex_lock(&hc_pace_lock);
      hc_pace[hc->pace - 1].outstanding++;
      pthread_mutex_unlock(&hc_pace_lock);
      if (plugin_dispatch_values(&vl) != 0) { /* not queued */
        pthread_mutex_lock(&hc_pace_lock);
        hc_pace[hc->pace - 1].outstanding--;
        pthread_mutex_unlock(&hc_pace_lock);
      }
    } else {
      plugin_dispatch_values(&vl);
    }
    meta_data_destroy(vl.meta); /* the queue holds its own copy */
  }
  return 0;
}

/* Non-zero makes collectd suspend this callback with a growing delay. */
static int hc_read(user_data_t *ud) {
  struct hc_instance *hc = ud->data;
  struct hc_sink sink = {{hc_sink_begin, hc_sink_write, hc_sink_nop}, hc};
  pthread_mutex_lock(&hc->lock);
  int rc = hc_ops->read(hc->inst, &sink.base);
  pthread_mutex_unlock(&hc->lock);
  return rc < 0 ? -1 : 0;
}

/* The plugin's drain hook, registered beside the read at its own
 * interval. Its user data has no free_func: the read callback owns hc. */
static int hc_drain(user_data_t *ud) {
  struct hc_instance *hc = ud->data;
  pthread_mutex_lock(&hc->lock);
  int rc = hc_ops->drain(hc->inst);
  pthread_mutex_unlock(&hc->lock);
  return rc < 0 ? -1 : 0;
}

/* Register hc_drain when the plugin asks for draining more often than it
 * is read. A failure is logged; the reads go on without it. */
static void hc_register_drain(struct hc_instance *hc, const char *name) {
  if (hc_ops->drain == NULL || hc_ops->drain_interval_ns == NULL)
    return;
  uint64_t period_ns = hc_ops->drain_interval_ns(hc->inst);
  if (period_ns == 0 || period_ns >= hc->host.interval_ns)
    return;
  char drain_name[3 * DATA_MAX_NAME_LEN];
  snprintf(drain_name, sizeof(drain_name), "%s/drain", name);
  user_data_t ud = {.data = hc, .free_func = NULL};
  if (plugin_register_complex_read(/*group=*/NULL, drain_name, hc_drain,
                                   NS_TO_CDTIME_T(period_ns), &ud) != 0)
    log_msg(LOG_LEVEL_WARNING, hc_ops->name, "init",
            "plugin_register_complex_read", "\"%s\" failed; not drained",
            drain_name);
}

/* Pace `hc` (it replays): a slot, and our write callback once per .so.
 * Without either its batches go unpaced, said. */
static void hc_pace_start(struct hc_instance *hc, const char *name) {
  if (!hc_pace_registered) {
    char cb[2 * DATA_MAX_NAME_LEN];
    snprintf(cb, sizeof(cb), "%s/pace", hc_ops->name);
    hc_pace_registered =
        plugin_register_write(cb, hc_pace_write, /*user_data=*/NULL) == 0;
  }
  if (hc_pace_registered)
    hc->pace = hc_pace_take();
  if (hc->pace == 0)
    log_msg(LOG_LEVEL_WARNING, hc_ops->name, name, "plugin_register_write",
            "no pacing: its batches are queued as fast as they are read");
}

/* ---- init and shutdown ---- */

static int hc_init(void) {
  if (hc_n_pending == 0 && hc_n_dropped == 0) {
    /* LoadPlugin without a <Plugin> block, or an empty one: defaults. */
    struct hc_instance *hc = hc_instance_new(hc_ops->name);
    if (hc != NULL)
      hc_finish_block(hc, /*ok=*/true);
  }
  size_t started = 0, dropped = hc_n_dropped;
  for (size_t i = 0; i < hc_n_pending; i++) {
    struct hc_instance *hc = hc_pending[i];
    hc_pending[i] = NULL;
    cdtime_t interval = hc->interval ? hc->interval : plugin_get_interval();
    plugin_host_init(&hc->host, hc->label, CDTIME_T_TO_NS(interval));
    hc->host.shared = &hc_shared;
    if (hc_ops->init(hc->inst, &hc->host) < 0) {
      log_msg(LOG_LEVEL_ERROR, hc_ops->name, "init", "Instance",
              "\"%s\": dropped", hc->label);
      hc_instance_free(hc);
      dropped++;
      continue;
    }
    char name[2 * DATA_MAX_NAME_LEN];
    snprintf(name, sizeof(name), "%s/%s", hc_ops->name, hc->label);
    user_data_t ud = {.data = hc, .free_func = hc_instance_free};
    /* On failure collectd has already run free_func (see the top). */
    if (plugin_register_complex_read(/*group=*/NULL, name, hc_read,
                                     hc->interval, &ud) != 0) {
      log_msg(LOG_LEVEL_ERROR, hc_ops->name, "init",
              "plugin_register_complex_read", "\"%s\" failed; dropped", name);
      dropped++;
      continue;
    }
    hc_register_drain(hc, name);
    if (hc_ops->replays != NULL && hc_ops->replays(hc->inst))
      hc_pace_start(hc, name);
    started++;
  }
  free(hc_pending);
  hc_pending = NULL;
  hc_n_pending = 0;
  if (started == 0) {
    log_msg(LOG_LEVEL_ERROR, hc_ops->name, "init", NULL,
            "no instance left (%zu dropped)", dropped);
    return -1;
  }
  log_msg(LOG_LEVEL_INFO, hc_ops->name, "init", NULL,
          "%zu instance(s) started, %zu dropped", started, dropped);
  return 0;
}

static int hc_shutdown(void) {
  for (size_t i = 0; i < hc_n_pending; i++)
    hc_instance_free(hc_pending[i]);
  free(hc_pending);
  hc_pending = NULL;
  hc_n_pending = 0;
  pthread_mutex_lock(&hc_bad_lock);
  free(hc_bad_types);
  hc_bad_types = NULL;
  hc_n_bad_types = 0;
  pthread_mutex_unlock(&hc_bad_lock);
  return 0;
}

void host_collectd_register(const struct plugin_ops *ops) {
  hc_ops = ops;
  plugin_shared_init(&hc_shared);
  /* Debian's daemon is built without COLLECT_DEBUG and drops LOG_DEBUG in
   * plugin_log(): do not even format those messages then. */
  log_set_sink(hc_log, COLLECT_DEBUG ? LOG_LEVEL_DEBUG : LOG_LEVEL_INFO);
  plugin_register_complex_config(ops->name, hc_config);
  plugin_register_init(ops->name, hc_init);
  plugin_register_shutdown(ops->name, hc_shutdown);
}
