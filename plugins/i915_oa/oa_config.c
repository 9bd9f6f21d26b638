/*
 * oa_config.c: the i915_oa options (plugins/i915_oa/README.md, "Options").
 * Config never touches a device; devices, metric sets and formats are resolved
 * at init, against the identity each device reports.
 */
#include "common/core/cfg.h"
#include "common/i915/i915_uapi.h"
#include "common/i915/oa_format.h"
#include "plugins/i915_oa/i915_oa.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Every key oa_config_apply() takes, with oa_config_defaults()' values. */
const struct cfg_option oa_options[] = {
    {"Device", "every i915, then xe, node",
     "render node path or PCI address; repeatable"},
    {"MetricSet", "none", "metric set uuid or id (or FlexEvent)"},
    {"FlexEvent", "none",
     "\"NAME EVENT [SHADER [ROW]]\" or \"NAME raw:VALUE\""},
    {"EuMetrics", "false", "true when MetricSet is Render Basic"},
    {"Format", "the platform's",
     "OA report format name or number (1..14; xe PEC64u64: 256)"},
    {"Period", "0.01", "seconds between OA reports"},
    {"Engine", "render:0",
     "CLASS[:INSTANCE]: render (video, video-enhance on MTL)"},
    {"DutyCycle", "1", "the stream is open one interval in N"},
    {"Replay", "none", "an i915-perf-recorder file to replay"},
    {"ReplayInterval", "0", "seconds of recording per batch (0: per report)"},
    {"DevRoot", "/dev/dri", "where the render nodes are"},
    {"SysfsRoot", "/sys", "where /sys is"},
    {"ProcRoot", "/proc", "where /proc is"},
    {NULL, NULL, NULL}};

void oa_config_defaults(struct oa_config *cfg) {
  memset(cfg, 0, sizeof(*cfg));
  cfg->period_ns = OA_DEFAULT_PERIOD_NS;
  cfg->engine_class = -1;
  cfg->engine_instance = -1;
  cfg->duty_cycle = 1;
}

void oa_config_fini(struct oa_config *cfg) {
  for (size_t i = 0; i < cfg->n_devices; i++)
    free(cfg->devices[i]);
  free(cfg->metric_set);
  free(cfg->sysfs_root);
  free(cfg->dev_root);
  free(cfg->proc_root);
  free(cfg->replay);
  memset(cfg, 0, sizeof(*cfg));
}

static int oa_config_fail(const struct cfg_item *item, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static int oa_config_fail(const struct cfg_item *item, const char *fmt, ...) {
  char detail[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(detail, sizeof(detail), fmt, ap);
  va_end(ap);
  log_msg(LOG_LEVEL_ERROR, OA_PLUGIN, "config", item->key, "%s", detail);
  return -EINVAL;
}

static int oa_config_string(const struct cfg_item *item, char **slot) {
  const char *value;
  int rc = cfg_get_string(OA_PLUGIN, item, &value);
  if (rc < 0)
    return rc;
  if (value[0] == '\0')
    return oa_config_fail(item, "expected a value, got \"\"");
  char *copy = strdup(value);
  if (copy == NULL)
    return -ENOMEM;
  free(*slot);
  *slot = copy;
  return 0;
}

static int oa_config_device(struct oa_config *cfg,
                            const struct cfg_item *item) {
  const char *value;
  int rc = cfg_get_string(OA_PLUGIN, item, &value);
  if (rc < 0)
    return rc;
  if (value[0] == '\0')
    return oa_config_fail(item, "expected a node path or a PCI address");
  for (size_t i = 0; i < cfg->n_devices; i++)
    if (strcmp(cfg->devices[i], value) == 0)
      return oa_config_fail(item, "\"%s\" given twice", value);
  if (cfg->n_devices == OA_MAX_DEVICES)
    return oa_config_fail(item, "\"%s\": at most %d devices", value,
                          OA_MAX_DEVICES);
  if ((cfg->devices[cfg->n_devices] = strdup(value)) == NULL)
    return -ENOMEM;
  cfg->n_devices++;
  return 0;
}

/* MetricSet: a uuid (the sysfs directory name, kept as given) or an id.
 * An id is read once here, as a number in any form the configuration
 * takes (collectd's unquoted 1, "1", "01", "0x1", "1e0"), and stored in
 * its one canonical spelling, decimal without leading zeros: that string
 * is what the stream opens and what the metric_set tag says. The kernel
 * keeps ids in an int (i915_perf.c: read_properties_unlocked,
 * props->metrics_set; 0 is refused there). */
static int oa_config_metric_set(struct oa_config *cfg,
                                const struct cfg_item *item) {
  const char *usage = "expected a metric set uuid (8-4-4-4-12 hex) or an "
                      "id 1..2147483647";
  if (item->n_values != 1)
    return oa_config_fail(item, "%s", usage);
  const struct cfg_value *v = &item->values[0];
  uint64_t id = 0;
  char canon[40];
  if (v->type == CFG_NUMBER) {
    if (!(v->number >= 1 && v->number <= (double)INT32_MAX) ||
        v->number != (double)(uint64_t)v->number)
      return oa_config_fail(item, "%s, got %g", usage, v->number);
    id = (uint64_t)v->number;
  } else if (v->type == CFG_STRING && i915_flex_uuid_valid(v->string)) {
    snprintf(canon, sizeof canon, "%s", v->string);
  } else if (v->type != CFG_STRING || cfg_parse_u64(v->string, &id) < 0 ||
             id == 0 || id > INT32_MAX) {
    return oa_config_fail(item, "%s, got \"%s\"", usage,
                          v->type == CFG_STRING ? v->string : "");
  }
  if (id != 0)
    snprintf(canon, sizeof canon, "%llu", (unsigned long long)id);
  char *copy = strdup(canon);
  if (copy == NULL)
    return -ENOMEM;
  free(cfg->metric_set);
  cfg->metric_set = copy;
  return 0;
}

/* Engine CLASS[:INSTANCE]: the engines with an OA unit only. In
 * i915_perf.c (__oa_engine_group) render belongs to the OAG unit, video
 * and video-enhance to the OAM unit of MTL's media GT (graphics 12.70+),
 * and every other class to none, which read_properties_unlocked refuses
 * with EINVAL ("Engine not supported by OA"). The platform check of the
 * media classes is made when the device is known (oa_on_identity). */
static int oa_config_engine(struct oa_config *cfg,
                            const struct cfg_item *item) {
  static const char *const classes[I915_UAPI_ENGINE_CLASSES] =
      I915_UAPI_ENGINE_CLASS_NAMES;
  const char *value;
  int rc = cfg_get_string(OA_PLUGIN, item, &value);
  if (rc < 0)
    return rc;
  const char *colon = strchr(value, ':');
  size_t len = colon ? (size_t)(colon - value) : strlen(value);
  uint64_t instance = 0;
  if (colon != NULL &&
      (cfg_parse_u64(colon + 1, &instance) < 0 || instance > 255))
    colon = NULL, len = 0; /* falls through to the error below */
  for (int c = 0; c < I915_UAPI_ENGINE_CLASSES; c++)
    if (len == strlen(classes[c]) && strncasecmp(value, classes[c], len) == 0) {
      if (c == I915_ENGINE_CLASS_COPY || c == I915_ENGINE_CLASS_COMPUTE)
        return oa_config_fail(item,
                              "\"%s\": the %s engines have no OA unit (only "
                              "render, and MTL's video and video-enhance)",
                              value, classes[c]);
      cfg->engine_class = c;
      cfg->engine_instance = (int)instance;
      return 0;
    }
  return oa_config_fail(item,
                        "expected CLASS[:INSTANCE] with CLASS render, video "
                        "or video-enhance, got \"%s\"",
                        value);
}

/* One number of a FlexEvent: a CFG_NUMBER or a string, exact. */
static int flex_number(const struct cfg_value *v, uint64_t max, uint64_t *out) {
  if (v->type == CFG_NUMBER) {
    if (v->number < 0 || v->number > (double)max ||
        v->number != (double)(uint64_t)v->number)
      return -EINVAL;
    *out = (uint64_t)v->number;
    return 0;
  }
  if (v->type != CFG_STRING || cfg_parse_u64(v->string, out) < 0 || *out > max)
    return -EINVAL;
  return 0;
}

/* Whether a FlexEvent NAME would collide with what the i915_oa record
 * already holds: its tags (device, metric_set, engine), its fixed fields,
 * the counters of any report format (a<N>, b<N>, c<N>, mpec<N>) and the
 * keys the JSON sink adds (name, time). */
static bool oa_config_reserved_name(const char *name) {
  static const char *const fixed[] = {
      "name",
      "time",
      "device",
      "metric_set",
      "engine",
      "gpu_core_clocks",
      "gpu_time_ns",
      "gpu_busy_percent",
      "avg_gpu_core_frequency_hz",
      "eu_active_percent",
      "eu_stall_percent",
      "eu_thread_occupancy_percent",
  };
  for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
    if (strcmp(name, fixed[i]) == 0)
      return true;
  static const char *const counters[] = {"a", "b", "c", "mpec"};
  for (size_t i = 0; i < 4; i++) {
    size_t n = strlen(counters[i]);
    if (strncmp(name, counters[i], n) == 0 && name[n] != '\0' &&
        strspn(name + n, "0123456789") == strlen(name + n))
      return true;
  }
  return false;
}

/* The exec host passes one string ("--FlexEvent=eu_active 4"): split it
 * on spaces into the values collectd would have given. */
static int oa_config_flex_words(struct oa_config *cfg,
                                const struct cfg_item *item);

/* FlexEvent "NAME" EVENT [SHADER [ROW]]   or   FlexEvent "NAME" "raw:0x.." */
static int oa_config_flex(struct oa_config *cfg, const struct cfg_item *item) {
  if (item->n_values == 1 && item->values[0].type == CFG_STRING &&
      strchr(item->values[0].string, ' ') != NULL)
    return oa_config_flex_words(cfg, item);
  const char *usage = "expected \"NAME\" EVENT [SHADER [ROW]] (each 0..15) "
                      "or \"NAME\" \"raw:VALUE\"";
  if (item->n_values < 2 || item->n_values > 4 ||
      item->values[0].type != CFG_STRING)
    return oa_config_fail(item, "%s", usage);
  const char *name = item->values[0].string;
  size_t len = strlen(name);
  if (len == 0 || len >= sizeof(cfg->flex[0].name) ||
      strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789_") != len)
    return oa_config_fail(item,
                          "NAME \"%s\": 1 to 31 of a-z, 0-9 and _ (it becomes "
                          "a field name)",
                          name);
  if (oa_config_reserved_name(name))
    return oa_config_fail(item,
                          "NAME \"%s\" is a field or tag the plugin writes "
                          "itself (or a key of the JSON record); choose "
                          "another",
                          name);
  for (size_t i = 0; i < cfg->n_flex; i++)
    if (strcmp(cfg->flex[i].name, name) == 0)
      return oa_config_fail(item, "\"%s\" given twice", name);
  if (cfg->n_flex == I915_FLEX_COUNTERS)
    return oa_config_fail(item, "\"%s\": at most %d flex events", name,
                          I915_FLEX_COUNTERS);
  struct oa_flex_cfg *f = &cfg->flex[cfg->n_flex];
  memset(f, 0, sizeof(*f));
  const struct cfg_value *v1 = &item->values[1];
  if (v1->type == CFG_STRING && strncasecmp(v1->string, "raw:", 4) == 0) {
    uint64_t raw;
    if (item->n_values != 2)
      return oa_config_fail(item,
                            "\"%s\": a raw register value takes no SHADER or "
                            "ROW after it",
                            v1->string);
    if (cfg_parse_u64(v1->string + 4, &raw) < 0 || raw > UINT32_MAX)
      return oa_config_fail(item, "%s; \"%s\" is not a 32-bit value", usage,
                            v1->string);
    f->event.raw = 1;
    f->event.value = (uint32_t)raw;
  } else {
    uint64_t field[3] = {0, 0, 0};
    for (size_t i = 1; i < item->n_values; i++)
      if (flex_number(&item->values[i], 15, &field[i - 1]) < 0)
        return oa_config_fail(item, "%s", usage);
    int32_t sel = i915_flex_selector((unsigned)field[0], (unsigned)field[1],
                                     (unsigned)field[2]);
    if (sel < 0)
      return oa_config_fail(item, "%s", usage);
    f->event.value = (uint32_t)sel;
  }
  snprintf(f->name, sizeof(f->name), "%s", name);
  cfg->n_flex++;
  return 0;
}

static int oa_config_flex_words(struct oa_config *cfg,
                                const struct cfg_item *item) {
  /* a copy to cut, as long as the value: no length limit but the NAME's */
  char *text = strdup(item->values[0].string);
  if (text == NULL)
    return -ENOMEM;
  struct cfg_value words[5];
  size_t n = 0;
  for (char *save = NULL, *w = strtok_r(text, " ", &save); w != NULL;
       w = strtok_r(NULL, " ", &save)) {
    if (n == 5)
      break;
    words[n++] = (struct cfg_value){.type = CFG_STRING, .string = w};
  }
  struct cfg_item split = *item;
  split.values = words;
  split.n_values = n;
  if (n < 2) /* a name alone: the usage message */
    split.n_values = 0;
  int rc = oa_config_flex(cfg, &split);
  free(text);
  return rc;
}

int oa_config_apply(struct oa_config *cfg, const struct cfg_item *item) {
  if (cfg_key_is(item, "Device"))
    return oa_config_device(cfg, item);
  if (cfg_key_is(item, "MetricSet"))
    return oa_config_metric_set(cfg, item);
  if (cfg_key_is(item, "Format")) {
    const char *value;
    int rc = cfg_get_string(OA_PLUGIN, item, &value);
    if (rc < 0)
      return rc;
    const struct oa_format *f = oa_format_parse(value);
    if (f == NULL)
      return oa_config_fail(
          item, "\"%s\": not an OA format name or number (1..14)", value);
    cfg->format = f->id;
    return 0;
  }
  if (cfg_key_is(item, "Period")) {
    double s;
    int rc = cfg_get_double(OA_PLUGIN, item, 1e-7, 60.0, &s);
    if (rc == 0)
      cfg->period_ns = (uint64_t)(s * 1e9 + 0.5);
    return rc;
  }
  if (cfg_key_is(item, "Engine"))
    return oa_config_engine(cfg, item);
  if (cfg_key_is(item, "FlexEvent"))
    return oa_config_flex(cfg, item);
  if (cfg_key_is(item, "EuMetrics"))
    return cfg_get_bool(OA_PLUGIN, item, &cfg->eu_metrics);
  if (cfg_key_is(item, "DutyCycle")) {
    double n;
    int rc = cfg_get_double(OA_PLUGIN, item, 1, 3600, &n);
    if (rc == 0 && n != (double)(unsigned)n)
      rc = oa_config_fail(item, "expected a whole number of intervals, got %g",
                          n);
    if (rc == 0)
      cfg->duty_cycle = (unsigned)n;
    return rc;
  }
  if (cfg_key_is(item, "Replay"))
    return oa_config_string(item, &cfg->replay);
  if (cfg_key_is(item, "ReplayInterval"))
    return cfg_get_double(OA_PLUGIN, item, 0, 86400, &cfg->replay_interval);
  if (cfg_key_is(item, "SysfsRoot"))
    return oa_config_string(item, &cfg->sysfs_root);
  if (cfg_key_is(item, "DevRoot"))
    return oa_config_string(item, &cfg->dev_root);
  if (cfg_key_is(item, "ProcRoot"))
    return oa_config_string(item, &cfg->proc_root);
  return cfg_unknown(OA_PLUGIN, item);
}
