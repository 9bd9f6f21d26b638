/*
 * t410_preset.c: the Tegra410 preset. With no Event option the plugin
 * finds every Tegra410 PMU in sysfs by its mainline name (anchored, so the
 * Grace "nvidia_pcie_pmu_<s>" never matches "nvidia_pcie_pmu_<s>_rc_<r>")
 * and opens exactly the events the kernel documentation's formulas need
 * (Documentation/admin-guide/perf/nvidia-tegra410-pmu.rst), grouped so
 * that every ratio comes from one group, i.e. one window:
 *
 *   UCF        {slc_bytes_rd, slc_bytes_wr, mem_bytes_rd, mem_bytes_wr}
 *              and {cycles, slc_access_rd, slc_access_wr, mem_access_rd,
 *              mem_access_wr}
 *   PCIE       {cycles, rd_bytes, wr_bytes, rd_req, wr_req, rd_cum_outs}
 *   PCIE-TGT   {cycles, rd_bytes, wr_bytes, rd_req, wr_req}
 *   CMEM       {cycles, rd_req, rd_cum_outs}
 *   C2C, CLink, DLink: {cycles, in_rd_req, in_rd_cum_outs, in_wr_req,
 *               in_wr_cum_outs} and {out_rd_req, out_rd_cum_outs,
 *               out_wr_req, out_wr_cum_outs}, each limited to the events
 *               the PMU lists (its peer decides which exist)
 *
 * One group per PMU carries `cycles`, and a Filter's copies carry none:
 * these PMUs have one dedicated cycle counter that only the cycles event
 * can use (drivers/perf/arm_cspmu/arm_cspmu.c arm_cspmu_get_event_idx), so
 * two groups that both need it could never run at the same time and the
 * kernel would rotate them (kernel/events/core.c perf_rotate_context),
 * leaving each a fraction of every interval. A group without cycles
 * reports what needs no cycles: bandwidths and latency in cycles.
 */
#include "plugins/tegra410_uncore/t410.h"

#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

struct t410_preset_event {
  const char *name;
  enum t410_role role;
};

struct t410_preset_group {
  enum t410_kind kind;
  const char *part;
  const char *direction;
  struct t410_preset_event events[7];
};

static const struct t410_preset_group t410_preset_groups[] = {
    {T410_UCF,
     "bandwidth",
     NULL,
     {{"slc_bytes_rd", T410_SLC_BYTES_RD},
      {"slc_bytes_wr", T410_SLC_BYTES_WR},
      {"mem_bytes_rd", T410_RD_BYTES},
      {"mem_bytes_wr", T410_WR_BYTES}}},
    {T410_UCF,
     "requests",
     NULL,
     {{"cycles", T410_CYCLES},
      {"slc_access_rd", T410_SLC_ACCESS_RD},
      {"slc_access_wr", T410_SLC_ACCESS_WR},
      {"mem_access_rd", T410_RD_REQ},
      {"mem_access_wr", T410_WR_REQ}}},
    {T410_PCIE,
     NULL,
     NULL,
     {{"cycles", T410_CYCLES},
      {"rd_bytes", T410_RD_BYTES},
      {"wr_bytes", T410_WR_BYTES},
      {"rd_req", T410_RD_REQ},
      {"wr_req", T410_WR_REQ},
      {"rd_cum_outs", T410_RD_CUM_OUTS}}},
    {T410_PCIE_TGT,
     NULL,
     NULL,
     {{"cycles", T410_CYCLES},
      {"rd_bytes", T410_RD_BYTES},
      {"wr_bytes", T410_WR_BYTES},
      {"rd_req", T410_RD_REQ},
      {"wr_req", T410_WR_REQ}}},
    {T410_CMEM,
     NULL,
     NULL,
     {{"cycles", T410_CYCLES},
      {"rd_req", T410_RD_REQ},
      {"rd_cum_outs", T410_RD_CUM_OUTS}}},
    {T410_C2C,
     "in",
     "in",
     {{"cycles", T410_CYCLES},
      {"in_rd_req", T410_RD_REQ},
      {"in_rd_cum_outs", T410_RD_CUM_OUTS},
      {"in_wr_req", T410_WR_REQ},
      {"in_wr_cum_outs", T410_WR_CUM_OUTS}}},
    {T410_C2C,
     "out",
     "out",
     {{"out_rd_req", T410_RD_REQ},
      {"out_rd_cum_outs", T410_RD_CUM_OUTS},
      {"out_wr_req", T410_WR_REQ},
      {"out_wr_cum_outs", T410_WR_CUM_OUTS}}},
};

/* "<prefix><digits>" or "<prefix><digits><middle><digits>", exactly. */
static bool t410_match_numbers(const char *name, const char *prefix,
                               const char *middle, char *first,
                               size_t first_size, char *second,
                               size_t second_size) {
  size_t n = strlen(prefix);
  if (strncmp(name, prefix, n) != 0)
    return false;
  const char *p = name + n, *start = p;
  while (*p >= '0' && *p <= '9')
    p++;
  if (p == start || (size_t)(p - start) >= first_size)
    return false;
  snprintf(first, first_size, "%.*s", (int)(p - start), start);
  if (middle == NULL)
    return *p == '\0';
  n = strlen(middle);
  if (strncmp(p, middle, n) != 0)
    return false;
  p += n;
  start = p;
  while (*p >= '0' && *p <= '9')
    p++;
  if (p == start || *p != '\0' || (size_t)(p - start) >= second_size)
    return false;
  snprintf(second, second_size, "%s", start);
  return true;
}

bool t410_preset_match(const char *name, struct t410_preset_tags *tags) {
  static const struct {
    const char *prefix, *middle;
    enum t410_kind kind;
  } names[] = {
      {"nvidia_ucf_pmu_", NULL, T410_UCF},
      {"nvidia_pcie_pmu_", "_rc_", T410_PCIE},
      {"nvidia_pcie_tgt_pmu_", "_rc_", T410_PCIE_TGT},
      {"nvidia_cmem_latency_pmu_", NULL, T410_CMEM},
      {"nvidia_nvlink_c2c_pmu_", NULL, T410_C2C},
      {"nvidia_nvclink_pmu_", NULL, T410_C2C},
      {"nvidia_nvdlink_pmu_", NULL, T410_C2C},
  };
  memset(tags, 0, sizeof(*tags));
  for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
    if (t410_match_numbers(name, names[i].prefix, names[i].middle, tags->socket,
                           sizeof(tags->socket), tags->rc, sizeof(tags->rc))) {
      tags->kind = names[i].kind;
      return true;
    }
  return false;
}

static bool t410_event_exists(const char *sysfs_root, const char *pmu,
                              const char *event) {
  char path[512];
  snprintf(path, sizeof(path), "%s/bus/event_source/devices/%s/events/%s",
           sysfs_root, pmu, event);
  return access(path, R_OK) == 0;
}

/* One preset group of one PMU, unfiltered (filter NULL) or filtered. */
static bool t410_preset_group_add(const char *sysfs_root, const char *pmu,
                                  const struct t410_preset_tags *found,
                                  const struct t410_preset_group *pg,
                                  const struct t410_filter *filter,
                                  t410_preset_add_fn add, void *ctx) {
  {
    char text[2048];
    size_t len = (size_t)snprintf(text, sizeof(text), "{");
    enum t410_role roles[PMU_MAX_GROUP];
    size_t n = 0;
    for (size_t e = 0; e < 7 && pg->events[e].name != NULL; e++) {
      /* the PMU's one cycle counter belongs to its unfiltered group */
      if (filter != NULL && pg->events[e].role == T410_CYCLES)
        continue;
      if (!t410_event_exists(sysfs_root, pmu, pg->events[e].name))
        continue;
      len += (size_t)snprintf(text + len, sizeof(text) - len, "%s%s/%s%s%s/",
                              n ? "," : "", pmu, pg->events[e].name,
                              filter ? "," : "", filter ? filter->terms : "");
      if (len + 1 >= sizeof(text)) { /* and room for the closing "}" */
        log_msg(LOG_LEVEL_WARNING, T410_PLUGIN, pmu, "preset",
                "%s group%s%s: event text too long, skipped",
                pg->part ? pg->part : "its", filter ? " of filter " : "",
                filter ? filter->name : "");
        return false;
      }
      roles[n++] = pg->events[e].role;
    }
    snprintf(text + len, sizeof(text) - len, "}");
    /* cycles alone measures nothing the formulas use; a group whose
     * table lists cycles first is not taken without it */
    bool lost_cycles = filter == NULL && pg->events[0].role == T410_CYCLES &&
                       (n == 0 || roles[0] != T410_CYCLES);
    if (n == 0 || (n == 1 && roles[0] == T410_CYCLES) || lost_cycles) {
      if (filter == NULL)
        log_msg(LOG_LEVEL_INFO, T410_PLUGIN, pmu, "preset",
                "%s events not listed by this PMU, skipped",
                pg->part ? pg->part : "its");
      return false;
    }
    struct t410_preset_tags tags = *found;
    tags.part = pg->part;
    if (pg->direction != NULL)
      snprintf(tags.direction, sizeof(tags.direction), "%s", pg->direction);
    if (filter != NULL)
      snprintf(tags.filter, sizeof(tags.filter), "%s", filter->name);
    return add(ctx, text, &tags, roles, n);
  }
}

static int t410_preset_pmu(const char *sysfs_root, const char *pmu,
                           const struct t410_preset_tags *found,
                           const struct t410_filter *filters, size_t n_filters,
                           t410_preset_add_fn add, void *ctx) {
  int added = 0;
  for (size_t g = 0;
       g < sizeof(t410_preset_groups) / sizeof(t410_preset_groups[0]); g++) {
    const struct t410_preset_group *pg = &t410_preset_groups[g];
    if (pg->kind != found->kind)
      continue;
    added += t410_preset_group_add(sysfs_root, pmu, found, pg, NULL, add, ctx);
    for (size_t f = 0; f < n_filters; f++)
      if (filters[f].kind == found->kind)
        added += t410_preset_group_add(sysfs_root, pmu, found, pg, &filters[f],
                                       add, ctx);
  }
  return added;
}

int t410_preset_scan_one(const char *sysfs_root, const char *pmu,
                         const struct t410_filter *filters, size_t n_filters,
                         t410_preset_add_fn add, void *ctx) {
  struct t410_preset_tags tags;
  if (!t410_preset_match(pmu, &tags))
    return 0;
  return t410_preset_pmu(sysfs_root, pmu, &tags, filters, n_filters, add, ctx);
}

int t410_preset_scan(const char *sysfs_root, const struct t410_filter *filters,
                     size_t n_filters, t410_preset_add_fn add, void *ctx) {
  char path[512];
  snprintf(path, sizeof(path), "%s/bus/event_source/devices", sysfs_root);
  DIR *dir = opendir(path);
  if (dir == NULL)
    return 0;
  int added = 0;
  struct dirent *de;
  while ((de = readdir(dir)) != NULL) {
    struct t410_preset_tags tags;
    if (de->d_name[0] != '.' && t410_preset_match(de->d_name, &tags))
      added += t410_preset_pmu(sysfs_root, de->d_name, &tags, filters,
                               n_filters, add, ctx);
  }
  closedir(dir);
  return added;
}
