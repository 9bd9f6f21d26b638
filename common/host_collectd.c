/*
 * host_collectd.c: the collectd host (see host_collectd.h).
 *
 * Lifecycle: config builds instances and feeds them their keys; init calls
 * each instance's init and registers one complex read callback per
 * surviving instance, whose user_data free_func frees the instance. The
 * daemon runs free_func when it unregisters the callback, also at shutdown
 * (destroy_read_heap in src/daemon/plugin.c), which is where instances
 * restore what they changed; the end-to-end test checks it.
 */
#include "collectd/core/daemon/collectd.h"
#include "collectd/core/daemon/plugin.h"
#include "collectd/core/utils/common/common.h"

#include "common/collectd_map.h"
#include "common/host_collectd.h"
#include "common/log.h"

#include <errno.h>

struct hc_instance {
  const struct plugin_ops *ops;
  void *inst;
  char *label;
  cdtime_t interval; /* 0: the global interval */
  bool failed;       /* a config error: dropped at init */
};

static const struct plugin_ops *hc_ops;
static struct hc_instance **hc_instances;
static size_t hc_n_instances;
static bool hc_configured;

static void hc_log(enum log_level level, const char *message) {
  /* our levels are syslog's numbers */
  plugin_log((int)level, "%s", message);
}

static void hc_instance_free(void *data) {
  struct hc_instance *hc = data;
  if (hc == NULL)
    return;
  hc->ops->instance_free(hc->inst);
  free(hc->label);
  free(hc);
}

static void hc_items_free(struct cfg_item *items, size_t n) {
  for (size_t i = 0; i < n; i++) {
    free((void *)items[i].values);
    hc_items_free((struct cfg_item *)items[i].children, items[i].n_children);
  }
  free(items);
}

/* Borrowing conversion: strings and keys stay owned by oconfig. */
static int hc_convert(const oconfig_item_t *ci, struct cfg_item *out) {
  memset(out, 0, sizeof(*out));
  out->key = ci->key;
  struct cfg_value *values =
      calloc((size_t)ci->values_num + 1, sizeof(*values));
  struct cfg_item *children =
      calloc((size_t)ci->children_num + 1, sizeof(*children));
  out->values = values;
  out->children = children;
  if (values == NULL || children == NULL)
    return -ENOMEM;
  for (int i = 0; i < ci->values_num; i++) {
    const oconfig_value_t *v = &ci->values[i];
    if (v->type == OCONFIG_TYPE_NUMBER) {
      values[i].type = CFG_NUMBER;
      values[i].number = v->value.number;
    } else if (v->type == OCONFIG_TYPE_BOOLEAN) {
      values[i].type = CFG_BOOLEAN;
      values[i].boolean = v->value.boolean != 0;
    } else {
      values[i].type = CFG_STRING;
      values[i].string = v->value.string;
    }
  }
  out->n_values = (size_t)ci->values_num;
  for (int i = 0; i < ci->children_num; i++) {
    int rc = hc_convert(&ci->children[i], &children[i]);
    out->n_children = (size_t)i + 1;
    if (rc < 0)
      return rc;
  }
  return 0;
}

static struct hc_instance *hc_instance_new(const char *label) {
  for (size_t i = 0; i < hc_n_instances; i++)
    if (strcmp(hc_instances[i]->label, label) == 0) {
      log_msg(LOG_LEVEL_ERROR, hc_ops->name, "config", "Instance",
              "\"%s\" is defined twice", label);
      hc_instances[i]->failed = true;
      return hc_instances[i];
    }
  struct hc_instance **grown =
      realloc(hc_instances, (hc_n_instances + 1) * sizeof(*grown));
  if (grown == NULL)
    return NULL;
  hc_instances = grown;
  struct hc_instance *hc = calloc(1, sizeof(*hc));
  if (hc == NULL)
    return NULL;
  hc->ops = hc_ops;
  hc->label = strdup(label);
  hc->inst = hc_ops->instance_new(label);
  if (hc->label == NULL || hc->inst == NULL) {
    hc_instance_free(hc);
    return NULL;
  }
  hc_instances[hc_n_instances++] = hc;
  return hc;
}

/* One key of an instance: Interval is ours, the rest the plugin's. */
static void hc_apply(struct hc_instance *hc, const oconfig_item_t *ci) {
  struct cfg_item item;
  int rc = hc_convert(ci, &item);
  if (rc == 0 && cfg_key_is(&item, "Interval")) {
    double seconds;
    rc = cfg_get_double(hc_ops->name, &item, 0.001, 86400 * 365, &seconds);
    if (rc == 0)
      hc->interval = DOUBLE_TO_CDTIME_T(seconds);
  } else if (rc == 0) {
    rc = hc_ops->configure(hc->inst, &item);
  } else {
    log_errno(LOG_LEVEL_ERROR, hc_ops->name, "config", ci->key, -rc, NULL);
  }
  hc_items_free((struct cfg_item *)item.children, item.n_children);
  free((void *)item.values);
  if (rc < 0)
    hc->failed = true;
}

static int hc_config(oconfig_item_t *ci) {
  hc_configured = true;
  struct hc_instance *top = NULL;
  for (int i = 0; i < ci->children_num; i++) {
    const oconfig_item_t *child = &ci->children[i];
    if (strcasecmp(child->key, "Instance") != 0) {
      if (top == NULL && (top = hc_instance_new(hc_ops->name)) == NULL)
        return -1;
      hc_apply(top, child);
      continue;
    }
    if (child->values_num != 1 ||
        child->values[0].type != OCONFIG_TYPE_STRING ||
        child->values[0].value.string[0] == '\0') {
      log_msg(LOG_LEVEL_ERROR, hc_ops->name, "config", "Instance",
              "expected one non-empty string label");
      continue;
    }
    struct hc_instance *hc = hc_instance_new(child->values[0].value.string);
    if (hc == NULL)
      return -1;
    for (int k = 0; k < child->children_num; k++)
      hc_apply(hc, &child->children[k]);
  }
  return 0;
}

struct hc_sink {
  struct metric_sink base;
  struct hc_instance *hc;
};

static int hc_sink_nop(struct metric_sink *s) {
  (void)s;
  return 0;
}

/* Types we already complained about (missing from types.db or with more
 * than one data source): complain once each. */
static char hc_bad_types[16][COLLECTD_MAP_NAME_MAX];
static size_t hc_n_bad_types;

static void hc_bad_type(const char *type, const char *why) {
  for (size_t i = 0; i < hc_n_bad_types; i++)
    if (strcmp(hc_bad_types[i], type) == 0)
      return;
  if (hc_n_bad_types < 16)
    sstrncpy(hc_bad_types[hc_n_bad_types++], type, COLLECTD_MAP_NAME_MAX);
  log_msg(LOG_LEVEL_ERROR, hc_ops->name, type, "types.db", "%s", why);
}

static int hc_dispatch(struct metric_sink *sink, const struct metric *m) {
  struct hc_instance *hc = ((struct hc_sink *)sink)->hc;
  for (size_t i = 0; i < m->n_fields; i++) {
    const struct metric_field *f = &m->fields[i];
    struct collectd_ident id;
    collectd_map(m, i, &id);
    const data_set_t *ds = plugin_get_ds(id.type);
    if (ds == NULL || ds->ds_num != 1) {
      hc_bad_type(id.type, ds ? "type must have exactly one data source"
                              : "type not found; add our types.db after "
                                "the default one in TypesDB");
      continue;
    }
    value_t value;
    bool is_int = f->kind == METRIC_INT;
    switch (ds->ds[0].type) {
    case DS_TYPE_GAUGE:
      value.gauge = is_int ? (gauge_t)f->v.i : f->v.f;
      break;
    case DS_TYPE_DERIVE:
      value.derive = is_int ? (derive_t)f->v.i : (derive_t)f->v.f;
      break;
    case DS_TYPE_COUNTER:
      value.counter = is_int ? (counter_t)(f->v.i < 0 ? 0 : f->v.i)
                             : (counter_t)(f->v.f < 0 ? 0 : f->v.f);
      break;
    default:
      value.absolute = is_int ? (absolute_t)(f->v.i < 0 ? 0 : f->v.i)
                              : (absolute_t)(f->v.f < 0 ? 0 : f->v.f);
      break;
    }
    value_list_t vl = VALUE_LIST_INIT;
    vl.values = &value;
    vl.values_len = 1;
    vl.time = NS_TO_CDTIME_T(m->time_ns);
    vl.interval = hc->interval;
    sstrncpy(vl.plugin, hc_ops->name, sizeof(vl.plugin));
    sstrncpy(vl.plugin_instance, id.plugin_instance,
             sizeof(vl.plugin_instance));
    sstrncpy(vl.type, id.type, sizeof(vl.type));
    sstrncpy(vl.type_instance, id.type_instance, sizeof(vl.type_instance));
    plugin_dispatch_values(&vl);
  }
  return 0;
}

static int hc_read(user_data_t *ud) {
  struct hc_instance *hc = ud->data;
  struct hc_sink sink = {{hc_sink_nop, hc_dispatch, hc_sink_nop}, hc};
  return hc->ops->read(hc->inst, &sink.base) < 0 ? -1 : 0;
}

static int hc_init(void) {
  if (!hc_configured && hc_instance_new(hc_ops->name) == NULL)
    return -1;
  size_t started = 0;
  for (size_t i = 0; i < hc_n_instances; i++) {
    struct hc_instance *hc = hc_instances[i];
    hc_instances[i] = NULL;
    if (hc->failed) {
      log_msg(LOG_LEVEL_ERROR, hc_ops->name, "config", "Instance",
              "\"%s\": dropped", hc->label);
      hc_instance_free(hc);
      continue;
    }
    if (hc->ops->init(hc->inst) < 0) {
      log_msg(LOG_LEVEL_ERROR, hc_ops->name, hc->label, "init",
              "instance dropped");
      hc_instance_free(hc);
      continue;
    }
    char name[256];
    snprintf(name, sizeof(name), "%s/%s", hc_ops->name, hc->label);
    user_data_t ud = {.data = hc, .free_func = hc_instance_free};
    if (plugin_register_complex_read(NULL, name, hc_read, hc->interval, &ud) !=
        0) {
      hc_instance_free(hc); /* not freed by the daemon on failure */
      continue;
    }
    started++;
  }
  free(hc_instances);
  hc_instances = NULL;
  hc_n_instances = 0;
  log_msg(LOG_LEVEL_INFO, hc_ops->name, "init", NULL, "%zu instance(s) started",
          started);
  return started > 0 ? 0 : -1;
}

void host_collectd_register(const struct plugin_ops *ops) {
  hc_ops = ops;
  log_set_sink(hc_log, LOG_LEVEL_DEBUG);
  plugin_register_complex_config(ops->name, hc_config);
  plugin_register_init(ops->name, hc_init);
}
