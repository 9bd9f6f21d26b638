/*
 * t410_preset.h: what tegra410_uncore knows about Tegra410 (Vera) beyond
 * the generic engine (common/pmu): the PMUs and preset groups
 * (t410_preset.c), the formulas of the kernel documentation
 * (t410_metrics.c), the PCIe segment labels (t410_pcie.c) and Filter
 * blocks.
 */
#ifndef PLUGINS_TEGRA410_UNCORE_T410_PRESET_H
#define PLUGINS_TEGRA410_UNCORE_T410_PRESET_H

#include "common/core/metric.h"

#include <stdbool.h>
#include <stddef.h>

#define T410_PLUGIN "tegra410_uncore"

/* Roles of preset counters in the kernel documentation's formulas. */
enum t410_role {
  T410_NONE = 0,
  T410_CYCLES,
  T410_RD_BYTES,
  T410_WR_BYTES,
  T410_RD_REQ,
  T410_WR_REQ,
  T410_RD_CUM_OUTS,
  T410_WR_CUM_OUTS,
  T410_SLC_BYTES_RD,
  T410_SLC_BYTES_WR,
  T410_SLC_ACCESS_RD,
  T410_SLC_ACCESS_WR,
  T410_ROLE_COUNT,
};

enum t410_kind {
  T410_GENERIC = 0,
  T410_UCF,
  T410_PCIE,
  T410_PCIE_TGT,
  T410_CMEM,
  T410_C2C,
};

/* What a preset group is: which PMU instance, and which formulas apply. */
struct t410_preset_tags {
  enum t410_kind kind;
  char socket[12];
  char rc[12];       /* PCIE, PCIE-TGT */
  char direction[4]; /* C2C family: "in" or "out" */
  const char *part;  /* static: which of a PMU's preset groups, or NULL */
  char filter[32];   /* the Filter block's name, "" when unfiltered */
};

/* A Filter block: extra terms for every preset event of one PMU kind,
 * reported as its own series. */
#define T410_MAX_FILTERS 16
struct t410_filter {
  char name[32];
  enum t410_kind kind;
  char terms[200]; /* "src_bdf=0x0180,src_bdf_en=1" */
};

/* Deltas of one read of one preset group. */
struct t410_sample {
  bool have[T410_ROLE_COUNT];
  double delta[T410_ROLE_COUNT];
  double elapsed_ns; /* the window the counts cover */
};

/* A Tegra410 root complex's PCI segment, from its root ports' DVSEC. */
struct t410_pcie_label {
  unsigned socket, rc;
  char segment[8]; /* "0002" */
};
#define T410_MAX_PCIE_LABELS 64 /* (socket, RC) pairs: 6 RCs per socket */

/* t410_preset.c: every Tegra410 PMU under sysfs, as Event texts with
 * their tags and roles. Calls `add` per group (false: the group was not
 * taken); returns how many were taken. */
typedef bool (*t410_preset_add_fn)(void *ctx, const char *text,
                                   const struct t410_preset_tags *tags,
                                   const enum t410_role *roles, size_t n);
int t410_preset_scan(const char *sysfs_root, const struct t410_filter *filters,
                     size_t n_filters, t410_preset_add_fn add, void *ctx);
/* The same for the one PMU `pmu` (its preset groups, filtered copies
 * included); 0 when it is not a Tegra410 PMU. */
int t410_preset_scan_one(const char *sysfs_root, const char *pmu,
                         const struct t410_filter *filters, size_t n_filters,
                         t410_preset_add_fn add, void *ctx);
/* Recognise a Tegra410 PMU name (anchored); fills kind, socket, rc. */
bool t410_preset_match(const char *name, struct t410_preset_tags *tags);

/* t410_metrics.c: the kernel documentation's formulas, pure. Adds the
 * fields that the sample's counters allow to `m`; 0, or the first error of
 * metric_add_float (-E2BIG: the record is full). */
int t410_metrics_add(enum t410_kind kind, const struct t410_sample *s,
                     struct metric *m);

/* t410_pcie.c: DVSEC labels of every NVIDIA root port, one per (socket,
 * RC); the count. More than `max` pairs are logged and dropped. */
size_t t410_pcie_labels_scan(const char *sysfs_root,
                             struct t410_pcie_label *labels, size_t max);
/* The segment of (socket, rc), borrowed from `labels`, or NULL. */
const char *t410_pcie_segment(const struct t410_pcie_label *labels, size_t n,
                              const char *socket, const char *rc);

#endif
