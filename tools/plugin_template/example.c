/*
 * example.c: the example plugin's core. Each read writes one record,
 * measurement "example", with the configured Value as its field "value"
 * (collectd type example_value, from this folder's types.db).
 */
#include "plugins/example/example.h"

#include "common/core/cfg.h"
#include "common/core/found.h"

#include <errno.h>
#include <stdlib.h>

#define EXAMPLE_PLUGIN "example"

struct example {
  const struct plugin_host *host;
  double value;
};

static const struct cfg_option example_options[] = {
    {"Value", "1", "the number every read reports"}, {NULL, NULL, NULL}};

static void *example_new(const char *instance) {
  (void)instance;
  struct example *e = calloc(1, sizeof(*e));
  if (e != NULL)
    e->value = 1;
  return e;
}

static int example_configure(void *inst, const struct cfg_item *item) {
  struct example *e = inst;
  if (cfg_key_is(item, "Value"))
    return cfg_get_double(EXAMPLE_PLUGIN, item, -1e15, 1e15, &e->value);
  return cfg_unknown(EXAMPLE_PLUGIN, item);
}

static int example_init(void *inst, const struct plugin_host *host) {
  struct example *e = inst;
  e->host = host;
  return 0;
}

static int example_read(void *inst, struct metric_sink *sink) {
  struct example *e = inst;
  struct metric m;
  metric_init(&m, "example", plugin_host_realtime_ns(e->host));
  metric_add_float(&m, "value", "example_value", e->value);
  return metric_sink_write(sink, &m);
}

/* What the instance found (plugin.h: found): its devices as "DRIVER
 * DEVICE" items (found_add), or where it looked and what was missing
 * (found_none); the count is gpu-telemetry's device gauge. The example
 * reads no device. */
static int example_found(void *inst, char *text, size_t size) {
  (void)inst;
  struct found_text f;
  found_init(&f, text, size);
  return found_none(&f, "no device: reports its configured Value");
}

static void example_free(void *inst) { free(inst); }

/* The collectd identity of each kind of record (collectd_rule.h): here
 * the one record has no tags, so example/example_value-value (with the
 * label first in the plugin instance for an <Instance> block). */
static const struct collectd_rule example_collectd_rules[] = {
    {"example", NULL, NULL, {{0}}, {{0}}},
    {0},
};

/* The plugin's own field types, one unit each, as in its types.db. */
static const struct metric_unit example_units[] = {
    {"example_value", METRIC_DS_GAUGE, "", "", 1.0, "the configured value"},
    {NULL, METRIC_DS_GAUGE, NULL, NULL, 0, NULL},
};

const struct plugin_ops example_ops = {
    .name = EXAMPLE_PLUGIN,
    .options = example_options,
    .instance_new = example_new,
    .configure = example_configure,
    .init = example_init,
    .read = example_read,
    .collectd_rules = example_collectd_rules,
    .units = example_units,
    .found = example_found,
    .instance_free = example_free,
};
