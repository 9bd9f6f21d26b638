/*
 * t410_config.c: tegra410_uncore options. Event strings are only kept
 * here; they are parsed against sysfs at init.
 */
#include "common/core/cfg.h"
#include "plugins/tegra410_uncore/t410.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Every key t410_config_apply() takes, nested Filter keys included. */
const struct cfg_option t410_options[] = {
    {"Preset", "Tegra410 without Event", "Tegra410: the preset next to Events"},
    {"Event", "none", "perf-syntax event string; repeatable"},
    {"SysfsRoot", "/sys", "where /sys is"},
    {"Filter", "none", "a filtered copy of the preset, by this name"},
    {"Filter.PMU", "none", "ucf, pcie, pcie_tgt or c2c"},
    {"Filter.Terms", "none", "format terms to add: t=v,..."},
    {NULL, NULL, NULL}};

static int t410_filter_fail(const struct cfg_item *item, const char *name,
                            const char *why) {
  log_msg(LOG_LEVEL_ERROR, T410_PLUGIN, "config", item->key, "\"%s\": %s", name,
          why);
  return -EINVAL;
}

static const struct pmu_term *t410_term(const struct pmu_event_spec *e,
                                        const char *name) {
  for (size_t i = 0; i < e->n_terms; i++)
    if (strcmp(e->terms[i].name, name) == 0)
      return &e->terms[i];
  return NULL;
}

/*
 * <Filter "name"> PMU "ucf|pcie|pcie_tgt|c2c"; Terms "t=v,..." </Filter>
 * The rules the hardware imposes, checked here so a bad combination is a
 * config error and not an EINVAL at open time: a PCIE filter is a
 * root-port mask or a BDF, never both; a BDF needs src_bdf_en=1; a PCIE
 * PMU has one BDF filter for all its counters, so all PCIE filters share
 * one BDF at most (Documentation/admin-guide/perf/nvidia-tegra410-pmu.rst,
 * "PCIE PMU"); PCIE-TGT has 8 address filter slots
 * (drivers/perf/arm_cspmu/nvidia_cspmu.c, NV_PCIE_TGT_ADDR_COUNT, taken by
 * pcie_tgt_find_addr_idx).
 */
static int t410_config_filter(struct t410_config *cfg,
                              const struct cfg_item *item) {
  if (item->n_values != 1 || item->values[0].type != CFG_STRING ||
      item->values[0].string[0] == '\0' ||
      strlen(item->values[0].string) >= sizeof(cfg->filters[0].name)) {
    log_msg(LOG_LEVEL_ERROR, T410_PLUGIN, "config", item->key,
            "expected a name of 1 to 31 characters");
    return -EINVAL;
  }
  const char *name = item->values[0].string;
  if (cfg->n_filters == T410_MAX_FILTERS)
    return t410_filter_fail(item, name, "too many filters");
  for (size_t i = 0; i < cfg->n_filters; i++)
    if (strcmp(cfg->filters[i].name, name) == 0)
      return t410_filter_fail(item, name, "defined twice");
  struct t410_filter f;
  memset(&f, 0, sizeof(f));
  snprintf(f.name, sizeof(f.name), "%s", name);
  const char *pmu = NULL, *terms = NULL;
  for (size_t i = 0; i < item->n_children; i++) {
    const struct cfg_item *c = &item->children[i];
    int rc;
    if (cfg_key_is(c, "PMU"))
      rc = cfg_get_string(T410_PLUGIN, c, &pmu);
    else if (cfg_key_is(c, "Terms"))
      rc = cfg_get_string(T410_PLUGIN, c, &terms);
    else
      rc = cfg_unknown(T410_PLUGIN, c);
    if (rc < 0)
      return rc;
  }
  static const struct {
    const char *name;
    enum t410_kind kind;
  } kinds[] = {{"ucf", T410_UCF},
               {"pcie", T410_PCIE},
               {"pcie_tgt", T410_PCIE_TGT},
               {"c2c", T410_C2C}};
  for (size_t k = 0; pmu != NULL && k < 4; k++)
    if (strcasecmp(pmu, kinds[k].name) == 0)
      f.kind = kinds[k].kind;
  if (f.kind == T410_GENERIC)
    return t410_filter_fail(item, name,
                            "PMU must be ucf, pcie, pcie_tgt or c2c");
  if (terms == NULL || terms[0] == '\0' || strlen(terms) >= sizeof(f.terms))
    return t410_filter_fail(item, name, "Terms missing or too long");
  /* the terms must read as one event's term list, each with a value */
  struct pmu_event_spec spec;
  struct pmu_parse_error err;
  if (pmu_terms_parse(terms, strlen(terms), &spec, &err) < 0)
    return t410_filter_fail(item, name, err.message);
  const struct pmu_event_spec *e = &spec;
  for (size_t i = 0; i < e->n_terms; i++)
    if (!e->terms[i].has_value)
      return t410_filter_fail(item, name, "every term needs a value");
  if (f.kind == T410_PCIE) {
    const struct pmu_term *bdf = t410_term(e, "src_bdf"),
                          *en = t410_term(e, "src_bdf_en");
    if (t410_term(e, "src_rp_mask") && (bdf || en))
      return t410_filter_fail(item, name,
                              "src_rp_mask and src_bdf exclude each other");
    if (bdf && (!en || en->value != 1))
      return t410_filter_fail(item, name, "src_bdf needs src_bdf_en=1");
    for (size_t i = 0; bdf && i < cfg->n_filters; i++) {
      const struct t410_filter *o = &cfg->filters[i];
      if (o->kind == T410_PCIE && strstr(o->terms, "src_bdf=") != NULL)
        return t410_filter_fail(item, name,
                                "a PCIE PMU has one BDF filter for all its "
                                "counters: one BDF filter at most");
    }
  }
  if (f.kind == T410_PCIE_TGT && t410_term(e, "dst_addr_base")) {
    size_t slots = 1;
    for (size_t i = 0; i < cfg->n_filters; i++)
      slots += cfg->filters[i].kind == T410_PCIE_TGT &&
               strstr(cfg->filters[i].terms, "dst_addr_base") != NULL;
    if (slots > 8)
      return t410_filter_fail(item, name,
                              "PCIE-TGT has 8 address filter slots");
  }
  snprintf(f.terms, sizeof(f.terms), "%s", terms);
  cfg->filters[cfg->n_filters++] = f;
  return 0;
}

int t410_config_apply(struct t410_config *cfg, const struct cfg_item *item) {
  if (cfg_key_is(item, "Filter"))
    return t410_config_filter(cfg, item);
  const char *value;
  if (cfg_key_is(item, "SysfsRoot")) {
    int rc = cfg_get_string(T410_PLUGIN, item, &value);
    if (rc < 0)
      return rc;
    free(cfg->sysfs_root);
    cfg->sysfs_root = strdup(value);
    return cfg->sysfs_root ? 0 : -ENOMEM;
  }
  if (cfg_key_is(item, "Preset")) {
    int rc = cfg_get_string(T410_PLUGIN, item, &value);
    if (rc < 0)
      return rc;
    if (strcasecmp(value, "Tegra410") != 0) {
      log_msg(LOG_LEVEL_ERROR, T410_PLUGIN, "config", item->key,
              "expected \"Tegra410\", got \"%s\"", value);
      return -EINVAL;
    }
    cfg->preset = true;
    return 0;
  }
  if (cfg_key_is(item, "Event")) {
    int rc = cfg_get_string(T410_PLUGIN, item, &value);
    if (rc < 0)
      return rc;
    if (cfg->n_events == T410_MAX_STRINGS) {
      log_msg(LOG_LEVEL_ERROR, T410_PLUGIN, "config", item->key,
              "at most %d events", T410_MAX_STRINGS);
      return -EINVAL;
    }
    /* syntax is checked now, so a typo fails the block at config time */
    struct pmu_group_spec *groups = calloc(8, sizeof(*groups));
    size_t n;
    struct pmu_parse_error err;
    if (groups == NULL)
      return -ENOMEM;
    rc = pmu_event_parse(value, strlen(value), groups, 8, &n, &err);
    free(groups);
    if (rc < 0) {
      log_msg(LOG_LEVEL_ERROR, T410_PLUGIN, "config", item->key,
              "\"%s\": %s at offset %zu", value, err.message, err.offset);
      return -EINVAL;
    }
    cfg->events[cfg->n_events] = strdup(value);
    if (cfg->events[cfg->n_events] == NULL)
      return -ENOMEM;
    cfg->n_events++;
    return 0;
  }
  return cfg_unknown(T410_PLUGIN, item);
}

void t410_config_fini(struct t410_config *cfg) {
  free(cfg->sysfs_root);
  for (size_t i = 0; i < cfg->n_events; i++)
    free(cfg->events[i]);
  memset(cfg, 0, sizeof(*cfg));
}
