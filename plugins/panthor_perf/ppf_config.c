/*
 * ppf_config.c: the panthor_perf options (plugins/panthor_perf/README.md,
 * "Options"). Config never touches a device: Device paths are only remembered,
 * and Counter options are parsed for syntax here and resolved per GPU at init.
 */
#include "common/core/cfg.h"
#include "plugins/panthor_perf/panthor_perf.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Every key ppf_config_apply() takes, with ppf_config_defaults()' values. */
#define PPF_STRINGIFY(x) #x
#define PPF_STR(x) PPF_STRINGIFY(x)
const struct cfg_option ppf_options[] = {
    {"Device", "every panthor node", "render node path; repeatable"},
    {"DevRoot", "/dev", "where discovery looks for dri/renderD*"},
    {"UAPI", "auto", "auto, rfc-v2 or v6"},
    {"CounterSet", "primary", "primary, secondary or tertiary"},
    {"RingSlots", PPF_STR(PPF_DEFAULT_SLOTS),
     "samples the ring holds, a power of two"},
    {"Timeout", PPF_STR(PPF_DEFAULT_TIMEOUT_MS),
     "milliseconds a read waits for its sample"},
    {"Counter", "none", "BLOCK:INDEX or a counter name; repeatable"},
    {"PerCore", "false", "one series per shader core for shader Counters"},
    {NULL, NULL, NULL}};

void ppf_config_defaults(struct ppf_config *cfg) {
  memset(cfg, 0, sizeof(*cfg));
  cfg->layout = PP_LAYOUT_NONE;
  cfg->counter_set = PP_SET_PRIMARY;
  cfg->ring_slots = PPF_DEFAULT_SLOTS;
  cfg->timeout_ms = PPF_DEFAULT_TIMEOUT_MS;
}

void ppf_config_fini(struct ppf_config *cfg) {
  for (size_t i = 0; i < cfg->n_devices; i++)
    free(cfg->devices[i]);
  free(cfg->dev_root);
  memset(cfg, 0, sizeof(*cfg));
}

static int ppf_config_fail(const struct cfg_item *item, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static int ppf_config_fail(const struct cfg_item *item, const char *fmt, ...) {
  char detail[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(detail, sizeof(detail), fmt, ap);
  va_end(ap);
  log_msg(LOG_LEVEL_ERROR, PPF_PLUGIN, "config", item->key, "%s", detail);
  return -EINVAL;
}

/* One of `names` (case-insensitive) into *out as its position. */
static int ppf_config_choice(const struct cfg_item *item,
                             const char *const *names, size_t n,
                             const char *expected, unsigned *out) {
  const char *value;
  int rc = cfg_get_string(PPF_PLUGIN, item, &value);
  if (rc < 0)
    return rc;
  for (size_t i = 0; i < n; i++)
    if (strcasecmp(value, names[i]) == 0) {
      *out = (unsigned)i;
      return 0;
    }
  log_msg(LOG_LEVEL_ERROR, PPF_PLUGIN, "config", item->key,
          "expected %s, got \"%s\"", expected, value);
  return -EINVAL;
}

static int ppf_config_device(struct ppf_config *cfg,
                             const struct cfg_item *item) {
  const char *value;
  int rc = cfg_get_string(PPF_PLUGIN, item, &value);
  if (rc < 0)
    return rc;
  if (value[0] != '/')
    return ppf_config_fail(item, "expected an absolute node path, got \"%s\"",
                           value);
  for (size_t i = 0; i < cfg->n_devices; i++)
    if (strcmp(cfg->devices[i], value) == 0)
      return ppf_config_fail(item, "\"%s\" given twice", value);
  if (cfg->n_devices == PPF_MAX_DEVICES)
    return ppf_config_fail(item, "\"%s\": at most 16 devices", value);
  if ((cfg->devices[cfg->n_devices] = strdup(value)) == NULL)
    return -ENOMEM;
  cfg->n_devices++;
  return 0;
}

static int ppf_config_counter(struct ppf_config *cfg,
                              const struct cfg_item *item) {
  const char *value;
  int rc = cfg_get_string(PPF_PLUGIN, item, &value);
  if (rc < 0)
    return rc;
  if (cfg->n_counters == PP_ACCUM_MAX_RAW)
    return ppf_config_fail(item, "\"%s\": at most 64 counters", value);
  struct pp_error err;
  struct pp_counter_spec spec;
  if (pp_counter_spec_parse(value, &spec, &err) < 0)
    return ppf_config_fail(item, "%s", err.message);
  for (size_t i = 0; i < cfg->n_counters; i++)
    if (strcasecmp(cfg->counters[i].text, spec.text) == 0)
      return ppf_config_fail(item, "\"%s\" given twice", value);
  cfg->counters[cfg->n_counters++] = spec;
  return 0;
}

int ppf_config_apply(struct ppf_config *cfg, const struct cfg_item *item) {
  if (cfg_key_is(item, "Device"))
    return ppf_config_device(cfg, item);
  if (cfg_key_is(item, "Counter"))
    return ppf_config_counter(cfg, item);
  if (cfg_key_is(item, "PerCore"))
    return cfg_get_bool(PPF_PLUGIN, item, &cfg->per_core);
  if (cfg_key_is(item, "UAPI")) {
    static const char *const names[] = {"auto", "rfc-v2", "v6"};
    unsigned v; /* in enum pp_layout order */
    int rc = ppf_config_choice(item, names, 3, "auto, rfc-v2 or v6", &v);
    if (rc == 0)
      cfg->layout = (enum pp_layout)v;
    return rc;
  }
  if (cfg_key_is(item, "CounterSet")) {
    static const char *const names[] = {"primary", "secondary", "tertiary"};
    unsigned v;
    int rc =
        ppf_config_choice(item, names, 3, "primary, secondary or tertiary", &v);
    if (rc == 0)
      cfg->counter_set = (uint8_t)v;
    return rc;
  }
  if (cfg_key_is(item, "RingSlots")) {
    uint64_t v;
    int rc = cfg_get_u64(PPF_PLUGIN, item, 0, 1024, &v);
    if (rc < 0)
      return rc;
    /* panthor_perf.c: session_sample answers EBUSY unless two slots are
     * free (one is kept for STOP's sample), and a ring of N slots has at
     * most N - 1 free: with 2 no SAMPLE ever succeeds */
    if (v < 4)
      return ppf_config_fail(item,
                             "%llu slots can never take a sample (SAMPLE needs "
                             "two free slots, and the ring keeps one empty): "
                             "at least 4",
                             (unsigned long long)v);
    if ((v & (v - 1)) != 0)
      return ppf_config_fail(
          item, "expected a power of two between 4 and 1024, got %llu",
          (unsigned long long)v);
    cfg->ring_slots = (uint32_t)v;
    return 0;
  }
  if (cfg_key_is(item, "Timeout")) {
    uint64_t v;
    int rc = cfg_get_u64(PPF_PLUGIN, item, 1, 10000, &v);
    if (rc == 0)
      cfg->timeout_ms = (uint32_t)v;
    return rc;
  }
  if (cfg_key_is(item, "DevRoot")) {
    const char *value;
    int rc = cfg_get_string(PPF_PLUGIN, item, &value);
    if (rc < 0)
      return rc;
    if (value[0] == '\0')
      return ppf_config_fail(item, "expected a directory, got \"%s\"", value);
    char *copy = strdup(value);
    if (copy == NULL)
      return -ENOMEM;
    free(cfg->dev_root);
    cfg->dev_root = copy;
    return 0;
  }
  return cfg_unknown(PPF_PLUGIN, item);
}
