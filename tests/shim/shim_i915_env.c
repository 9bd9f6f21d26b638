/*
 * shim_i915_env.c: the i915 device's environment loader
 * (shim_i915_load_env in shim_i915.h), for the preloaded shim.
 */
#include "tests/shim/shim_i915.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* An unsigned number (decimal, or hex with 0x) into `*out`. */
static int num(const char *v, uint64_t *out) {
  char *end;
  errno = 0;
  unsigned long long x = strtoull(v, &end, 0);
  if (end == v || *end != '\0' || errno != 0 || v[0] == '-')
    return -1;
  *out = x;
  return 0;
}

struct metric {
  char uuid[37];
  uint64_t id;
};

/* Apply one key=value to `s`; metrics go to `m` (up to 8). */
static int apply(struct shim_i915_scenario *s, const char *key, const char *v,
                 struct metric *m, size_t *n_m) {
  uint64_t x = 0;
  unsigned i;
  char tail;
  if (strcmp(key, "sysfs") == 0)
    return snprintf(s->sysfs_root, sizeof s->sysfs_root, "%s", v) <
                   (int)sizeof s->sysfs_root
               ? 0
               : -1;
  if (strcmp(key, "card") == 0)
    return snprintf(s->card, sizeof s->card, "%s", v) < (int)sizeof s->card
               ? 0
               : -1;
  if (strcmp(key, "metric") == 0) {
    const char *colon = strchr(v, ':');
    if (colon == NULL || colon - v != 36 || *n_m == 8 || num(colon + 1, &x))
      return -1;
    memcpy(m[*n_m].uuid, v, 36);
    m[*n_m].uuid[36] = '\0';
    m[(*n_m)++].id = x;
    return 0;
  }
  if (num(v, &x) < 0)
    return -1;
  if (strcmp(key, "near_wrap") == 0) {
    if (x) {
      s->ts_start = (uint32_t)(0 - 2 * s->ts_step);
      s->clk_start = (uint32_t)(0 - 2 * s->clk_step);
      for (size_t k = 0; k < SHIM_I915_A; k++)
        s->a_start[k] = ((UINT64_C(1) << 40) - 2 * s->a_step[k]) &
                        ((UINT64_C(1) << 40) - 1);
    }
    return 0;
  }
#define U(name, field)                                                         \
  if (strcmp(key, name) == 0) {                                                \
    s->field = (__typeof__(s->field))x;                                        \
    return 0;                                                                  \
  }
  U("devid", devid)
  U("revision", perf_revision)
  U("oa_freq", oa_freq_hz)
  U("cs_freq", cs_freq_hz)
  U("eu_total", eu_total)
  U("topology_eus", topology_eus)
  U("perf", perf_ready)
  U("privileged", privileged)
  U("paranoid", paranoid)
  U("busy", busy)
  U("max_rate", max_sample_rate)
  U("formats", formats)
  U("open_errno", open_errno)
  U("open_fails", open_fails)
  U("reports", reports)
  U("max_records", max_records)
  U("ts_start", ts_start)
  U("ts_step", ts_step)
  U("clk_start", clk_start)
  U("clk_step", clk_step)
  U("ctx_every", ctx_every)
  U("lost_every", lost_every)
  U("buffer_lost_at", buffer_lost_at)
  U("buffer_lost_gap", buffer_lost_gap)
  U("corrupt_at", corrupt_at)
  U("eio_at", eio_at)
#undef U
  if (sscanf(key, "a%u_start%c", &i, &tail) == 1 && i < SHIM_I915_A) {
    s->a_start[i] = x;
    return 0;
  }
  if (sscanf(key, "a%u%c", &i, &tail) == 1 && i < SHIM_I915_A) {
    s->a_step[i] = x;
    return 0;
  }
  if (sscanf(key, "b%u%c", &i, &tail) == 1 && i < SHIM_I915_BC) {
    s->b_step[i] = x;
    return 0;
  }
  if (sscanf(key, "c%u%c", &i, &tail) == 1 && i < SHIM_I915_BC) {
    s->c_step[i] = x;
    return 0;
  }
  return -1;
}

/* Apply the "key=value,..." list `text` to `s`. */
static int apply_list(struct shim_i915_scenario *s, const char *text,
                      struct metric *m, size_t *n_m) {
  int rc = 0;
  for (const char *p = text; *p != '\0';) {
    size_t n = strcspn(p, ",");
    char item[PATH_MAX + 16];
    snprintf(item, sizeof item, "%.*s", (int)n, p);
    char *eq = strchr(item, '=');
    if (eq != NULL)
      *eq = '\0';
    if (n > 0 && (eq == NULL || apply(s, item, eq + 1, m, n_m) < 0)) {
      fprintf(stderr, "shim: i915: SHIM_I915_SCENARIO: bad item \"%.*s\"\n",
              (int)n, p);
      rc = -1;
    }
    p += n + (p[n] == ',');
  }
  return rc;
}

int shim_i915_load_env(void) {
  const char *paths = getenv("SHIM_I915_PATH");
  const char *common = getenv("SHIM_I915_SCENARIO");
  if (paths == NULL)
    paths = SHIM_I915_PATH;
  int rc = 0;
  unsigned index = 0;
  for (const char *p = paths; *p != '\0'; index++) {
    size_t n = strcspn(p, ",");
    char path[PATH_MAX], var[48];
    snprintf(path, sizeof path, "%.*s", (int)n, p);
    p += n + (p[n] == ',');
    struct shim_i915_scenario s;
    struct metric m[8];
    size_t n_m = 0;
    shim_i915_scenario_default(&s);
    if (common != NULL)
      rc |= apply_list(&s, common, m, &n_m);
    snprintf(var, sizeof var, "SHIM_I915_SCENARIO_%u", index);
    const char *own = getenv(var);
    if (own != NULL)
      rc |= apply_list(&s, own, m, &n_m);
    if (shim_i915_add(path, &s) < 0) {
      fprintf(stderr, "shim: i915: %s: %s\n", path, strerror(errno));
      rc = -1;
      continue;
    }
    for (size_t k = 0; k < n_m; k++)
      if (shim_i915_add_metric(path, m[k].uuid, m[k].id) < 0)
        rc = -1;
  }
  if (rc < 0)
    errno = EINVAL;
  return rc;
}
