/*
 * fdinfo_parse.c: the DRM client usage stats decoder (see fdinfo_parse.h).
 *
 * Spec: Documentation/gpu/drm-usage-stats.rst. Quirks handled here, each
 * seen in real captures and in the drivers' printers (drm_file.c:
 * drm_print_memory_stats, amdgpu_fdinfo.c: amdgpu_show_fdinfo):
 *  - amdgpu prints legacy keys as "drm-memory-gtt: \t8192 KiB" (a space and
 *    then a TAB), others use TABs, spaces or nothing after the colon;
 *  - engine and region names contain '-' and '_' ("video-enhance",
 *    "stolen-system0", "cache_clean"): the name is the whole remainder after
 *    the longest known prefix, compared as a whole string, never split;
 *  - one file may mix bare bytes, KiB and MiB; amdgpu 5.14-5.18 wrote "kB"
 *    meaning KiB;
 *  - drm-memory-<r> is the deprecated alias of drm-resident-<r>; amdgpu
 *    around 6.11 printed both with the same value, so resident wins and the
 *    pair is never added up.
 */
#include "common/drm/fdinfo_parse.h"
#include "common/core/named.h"
#include "common/core/text.h"

#include <errno.h>
#include <string.h>

/* Internal marker: the resident value came from legacy drm-memory-<r>. */
#define FDINFO_MEM_FROM_LEGACY (1u << 7)

struct fdinfo_span {
  const char *p;
  size_t len;
};

static bool fdinfo_span_is(struct fdinfo_span s, const char *text) {
  size_t n = strlen(text);
  return s.len == n && memcmp(s.p, text, n) == 0;
}

static bool fdinfo_span_eat(struct fdinfo_span *s, const char *prefix) {
  size_t n = strlen(prefix);
  if (s->len < n || memcmp(s->p, prefix, n) != 0)
    return false;
  s->p += n;
  s->len -= n;
  return true;
}

static bool fdinfo_is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\r';
}

struct fdinfo_unit {
  const char *name;
  uint64_t multiplier;
};

static const struct fdinfo_unit fdinfo_byte_units[] = {
    {"", 1},      {"B", 1},         {"KiB", 1024},       {"kB", 1024},
    {"KB", 1024}, {"MiB", 1 << 20}, {"GiB", 1ull << 30}, {NULL, 0},
};
static const struct fdinfo_unit fdinfo_ns_units[] = {
    {"", 1},
    {"ns", 1},
    {NULL, 0},
};
static const struct fdinfo_unit fdinfo_hz_units[] = {
    {"", 1},          {"Hz", 1},           {"KHz", 1000}, {"kHz", 1000},
    {"MHz", 1000000}, {"GHz", 1000000000}, {NULL, 0},
};
static const struct fdinfo_unit fdinfo_no_units[] = {
    {"", 1},
    {NULL, 0},
};

int fdinfo_parse_number(const char *text, size_t len,
                        enum fdinfo_unit_kind kind, uint64_t *out) {
  size_t i = 0;
  uint64_t value = 0;
  if (len == 0 || text[0] < '0' || text[0] > '9')
    return -EINVAL;
  for (; i < len && text[i] >= '0' && text[i] <= '9'; i++) {
    unsigned digit = (unsigned)(text[i] - '0');
    if (value > (UINT64_MAX - digit) / 10)
      return -EINVAL;
    value = value * 10 + digit;
  }
  while (i < len && fdinfo_is_blank(text[i]))
    i++;
  struct fdinfo_span unit = {text + i, len - i};
  while (unit.len > 0 && fdinfo_is_blank(unit.p[unit.len - 1]))
    unit.len--;
  const struct fdinfo_unit *units = kind == FDINFO_UNIT_BYTES
                                        ? fdinfo_byte_units
                                    : kind == FDINFO_UNIT_NS ? fdinfo_ns_units
                                    : kind == FDINFO_UNIT_HZ ? fdinfo_hz_units
                                                             : fdinfo_no_units;
  for (const struct fdinfo_unit *u = units; u->name != NULL; u++) {
    if (!fdinfo_span_is(unit, u->name))
      continue;
    if (value > UINT64_MAX / u->multiplier)
      return -EINVAL;
    *out = value * u->multiplier;
    return 0;
  }
  return -EINVAL;
}

/* Engine and region names: printable ASCII without spaces, not empty, and
 * short enough to keep whole (truncating would alias two names). */
static bool fdinfo_name_ok(struct fdinfo_span name) {
  if (name.len == 0 || name.len >= FDINFO_NAME_MAX)
    return false;
  for (size_t i = 0; i < name.len; i++)
    if (name.p[i] <= ' ' || name.p[i] >= 0x7f)
      return false;
  return true;
}

static struct fdinfo_engine *fdinfo_engine_get(struct fdinfo *fi,
                                               struct fdinfo_span name) {
  bool added;
  struct fdinfo_engine *e =
      NAMED_FIND_OR_ADD(fi->engines, fi->n_engines, FDINFO_MAX_ENGINES, name,
                        name.p, name.len, &added);
  if (e == NULL)
    fi->dropped_names++;
  else if (added)
    e->capacity = 1;
  return e;
}

static struct fdinfo_region *fdinfo_region_get(struct fdinfo *fi,
                                               struct fdinfo_span name) {
  struct fdinfo_region *r =
      NAMED_FIND_OR_ADD(fi->regions, fi->n_regions, FDINFO_MAX_REGIONS, name,
                        name.p, name.len, NULL);
  if (r == NULL)
    fi->dropped_names++;
  return r;
}

enum fdinfo_key_kind {
  KEY_ENGINE_CAPACITY,
  KEY_ENGINE_BUSY,
  KEY_CYCLES,
  KEY_TOTAL_CYCLES,
  KEY_MAXFREQ,
  KEY_CURFREQ,
  KEY_MEM_TOTAL,
  KEY_MEM_SHARED,
  KEY_MEM_RESIDENT,
  KEY_MEM_PURGEABLE,
  KEY_MEM_ACTIVE,
  KEY_MEM_LEGACY,
};

/* Longest prefixes first: "drm-engine-capacity-" must win over
 * "drm-engine-", and "drm-total-cycles-" over "drm-total-". */
static const struct {
  const char *prefix;
  enum fdinfo_key_kind kind;
} fdinfo_named_keys[] = {
    {"drm-engine-capacity-", KEY_ENGINE_CAPACITY},
    {"drm-engine-", KEY_ENGINE_BUSY},
    {"drm-total-cycles-", KEY_TOTAL_CYCLES},
    {"drm-cycles-", KEY_CYCLES},
    {"drm-maxfreq-", KEY_MAXFREQ},
    {"drm-curfreq-", KEY_CURFREQ},
    {"drm-total-", KEY_MEM_TOTAL},
    {"drm-shared-", KEY_MEM_SHARED},
    {"drm-resident-", KEY_MEM_RESIDENT},
    {"drm-purgeable-", KEY_MEM_PURGEABLE},
    {"drm-active-", KEY_MEM_ACTIVE},
    {"drm-memory-", KEY_MEM_LEGACY},
};

static void fdinfo_copy_string(char *dst, struct fdinfo_span value) {
  text_sanitize(dst, FDINFO_STRING_MAX, value.p, value.len);
}

/* Count a standard key whose value did not parse; remember the first such
 * key (sanitised) for the caller's message. */
static void fdinfo_malformed(struct fdinfo *fi, struct fdinfo_span key) {
  if (fi->malformed++ == 0)
    text_sanitize(fi->first_malformed, sizeof(fi->first_malformed), key.p,
                  key.len);
}

/* false: the value is malformed */
static bool fdinfo_store_engine(struct fdinfo *fi, enum fdinfo_key_kind kind,
                                struct fdinfo_span name,
                                struct fdinfo_span value) {
  uint64_t v;
  enum fdinfo_unit_kind unit = kind == KEY_ENGINE_BUSY ? FDINFO_UNIT_NS
                               : kind == KEY_MAXFREQ   ? FDINFO_UNIT_HZ
                                                       : FDINFO_UNIT_NONE;
  if (fdinfo_parse_number(value.p, value.len, unit, &v) < 0 ||
      (kind == KEY_ENGINE_CAPACITY && (v == 0 || v > FDINFO_CAPACITY_MAX)))
    return false;
  struct fdinfo_engine *e = fdinfo_engine_get(fi, name);
  if (e == NULL)
    return true; /* counted in dropped_names */
  switch (kind) {
  case KEY_ENGINE_CAPACITY:
    e->capacity = v;
    e->present |= FDINFO_ENGINE_CAPACITY;
    break;
  case KEY_ENGINE_BUSY:
    e->busy_ns = v;
    e->present |= FDINFO_ENGINE_BUSY;
    break;
  case KEY_CYCLES:
    e->cycles = v;
    e->present |= FDINFO_ENGINE_CYCLES;
    break;
  case KEY_TOTAL_CYCLES:
    e->total_cycles = v;
    e->present |= FDINFO_ENGINE_TOTAL;
    break;
  default: /* KEY_MAXFREQ */
    e->maxfreq_hz = v;
    e->present |= FDINFO_ENGINE_MAXFREQ;
    break;
  }
  return true;
}

static bool fdinfo_store_region(struct fdinfo *fi, enum fdinfo_key_kind kind,
                                struct fdinfo_span name,
                                struct fdinfo_span value) {
  uint64_t v;
  if (fdinfo_parse_number(value.p, value.len, FDINFO_UNIT_BYTES, &v) < 0)
    return false;
  struct fdinfo_region *r = fdinfo_region_get(fi, name);
  if (r == NULL)
    return true; /* counted in dropped_names */
  switch (kind) {
  case KEY_MEM_TOTAL:
    r->total = v;
    r->present |= FDINFO_MEM_TOTAL;
    break;
  case KEY_MEM_SHARED:
    r->shared = v;
    r->present |= FDINFO_MEM_SHARED;
    break;
  case KEY_MEM_RESIDENT:
    r->resident = v;
    r->present = (r->present | FDINFO_MEM_RESIDENT) & ~FDINFO_MEM_FROM_LEGACY;
    break;
  case KEY_MEM_PURGEABLE:
    r->purgeable = v;
    r->present |= FDINFO_MEM_PURGEABLE;
    break;
  case KEY_MEM_ACTIVE:
    r->active = v;
    r->present |= FDINFO_MEM_ACTIVE;
    break;
  default: /* KEY_MEM_LEGACY: only when no drm-resident-<r> was seen */
    if ((r->present & FDINFO_MEM_RESIDENT) &&
        !(r->present & FDINFO_MEM_FROM_LEGACY))
      break;
    r->resident = v;
    r->present |= FDINFO_MEM_RESIDENT | FDINFO_MEM_FROM_LEGACY;
    break;
  }
  return true;
}

static void fdinfo_line(struct fdinfo *fi, struct fdinfo_span key,
                        struct fdinfo_span value, bool *seen_driver) {
  const struct fdinfo_span full_key = key;
  if (!fdinfo_span_eat(&key, "drm-"))
    return; /* pos, flags, pasid, amd-*, panthor-*, v3d-jobs-*, ... */
  if (fdinfo_span_is(key, "driver")) {
    if (value.len == 0) {
      fdinfo_malformed(fi, full_key);
      return;
    }
    fdinfo_copy_string(fi->driver, value);
    *seen_driver = fi->driver[0] != '\0';
    return;
  }
  if (fdinfo_span_is(key, "pdev")) {
    fdinfo_copy_string(fi->pdev, value);
    return;
  }
  if (fdinfo_span_is(key, "client-name")) {
    fdinfo_copy_string(fi->client_name, value);
    return;
  }
  if (fdinfo_span_is(key, "client-id")) {
    uint64_t id;
    if (fdinfo_parse_number(value.p, value.len, FDINFO_UNIT_NONE, &id) < 0) {
      fdinfo_malformed(fi, full_key);
      return;
    }
    fi->client_id = id;
    fi->has_client_id = true;
    return;
  }
  key.p -= 4; /* put "drm-" back for the prefix table */
  key.len += 4;
  for (size_t i = 0;
       i < sizeof(fdinfo_named_keys) / sizeof(fdinfo_named_keys[0]); i++) {
    struct fdinfo_span name = key;
    if (!fdinfo_span_eat(&name, fdinfo_named_keys[i].prefix))
      continue;
    enum fdinfo_key_kind kind = fdinfo_named_keys[i].kind;
    if (!fdinfo_name_ok(name)) {
      fdinfo_malformed(fi, full_key);
      return;
    }
    if (kind == KEY_CURFREQ)
      return; /* a snapshot of the clock, not used by any formula */
    bool ok = kind <= KEY_MAXFREQ ? fdinfo_store_engine(fi, kind, name, value)
                                  : fdinfo_store_region(fi, kind, name, value);
    if (!ok)
      fdinfo_malformed(fi, full_key);
    return;
  }
  fi->unknown_keys++;
}

int fdinfo_parse(const void *buf, size_t len, struct fdinfo *out) {
  if (buf == NULL || out == NULL)
    return -EINVAL;
  memset(out, 0, sizeof(*out));
  const char *text = buf;
  bool seen_driver = false;
  size_t pos = 0;
  while (pos < len) {
    const char *line = text + pos;
    const char *nl = memchr(line, '\n', len - pos);
    size_t line_len = nl ? (size_t)(nl - line) : len - pos;
    pos += line_len + (nl ? 1 : 0);

    const char *colon = memchr(line, ':', line_len);
    if (colon == NULL)
      continue;
    struct fdinfo_span key = {line, (size_t)(colon - line)};
    struct fdinfo_span value = {colon + 1, line_len - key.len - 1};
    while (value.len > 0 && fdinfo_is_blank(value.p[0]))
      value.p++, value.len--;
    while (value.len > 0 && fdinfo_is_blank(value.p[value.len - 1]))
      value.len--;
    fdinfo_line(out, key, value, &seen_driver);
  }
  /* The engine arrays stay meaningful to callers, but the internal legacy
   * marker is not part of the API. */
  for (size_t i = 0; i < out->n_regions; i++)
    out->regions[i].present &= ~FDINFO_MEM_FROM_LEGACY;
  return seen_driver ? 0 : -ENOENT;
}

const struct fdinfo_engine *fdinfo_engine_find(const struct fdinfo *fi,
                                               const char *name) {
  for (size_t i = 0; i < fi->n_engines; i++)
    if (strcmp(fi->engines[i].name, name) == 0)
      return &fi->engines[i];
  return NULL;
}

const struct fdinfo_region *fdinfo_region_find(const struct fdinfo *fi,
                                               const char *name) {
  for (size_t i = 0; i < fi->n_regions; i++)
    if (strcmp(fi->regions[i].name, name) == 0)
      return &fi->regions[i];
  return NULL;
}
