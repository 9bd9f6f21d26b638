/*
 * gpu_metrics_attrs.c: amdgpu's gpu_metrics v1.9, a list of
 * self-describing attributes (kgd_pp_interface.h: struct gpu_metrics_v1_9,
 * "attr_count" then the attributes; enum amdgpu_metrics_attr_id, _type and
 * _unit, AMDGPU_METRICS_ENC_ATTR).
 *
 * What the sysfs file holds is the kernel's packed struct of the SMU's
 * field list (smu_cmn.h: DECLARE_SMU_METRICS_CLASS, a struct __packed of
 * the 4-byte header, an int attr_count, then for each field
 * SMU_METRICS_SCALAR / SMU_METRICS_ARRAY: a u64 encoding "NAME##_ftype"
 * followed at once by the value or the array of values; smu_v13_0_6_ppt.h:
 * SMU_13_0_6_METRICS_FIELDS). CLASSNAME##_init fills every encoding and
 * sets every value to all ones (memset 0xFF, "(type) ~0"), so an all-ones
 * value is one the firmware did not fill, as in the fixed layouts. The
 * encoding of one attribute (AMDGPU_METRICS_ENC_ATTR):
 *
 *   bits 31..24 unit   (AMDGPU_METRICS_UNIT_*: MHz, Celsius, W, ns, 10 ns,
 *                       GT/s, 0.1 GT/s, GB/s, KB, %)
 *   bits 23..20 type   (AMDGPU_METRICS_TYPE_U8 .. S64: the value's width
 *                       and sign)
 *   bits 19..10 id     (enum amdgpu_metrics_attr_id)
 *   bits  9..0  inst   (the number of values that follow: 1 for a scalar)
 *
 * The list is walked from its own counts only: every attribute's values
 * must fit in structure_size, the last must end exactly there, no id may
 * come twice, and a type outside U8 .. S64 or zero instances refuses the
 * table. Reported, as in the v1.4 .. v1.8 layouts of the same SMU: the
 * temperatures (hotspot, mem, vrsoc, hbm<i>), curr_socket_power, the gfx
 * and umc activity, the current clocks per instance, the busy of each XCC
 * (gfx<i>), VCN and JPEG engine, and the energy accumulator (2^-16 J, as
 * smu_v13_0_6_get_gpu_metrics says). An attribute of a named id whose unit
 * is not the one that id has in the kernel is not reported (counted in
 * n_skipped). The ids after TEMPERATURE_HBM were renumbered between
 * kernels (TEMPERATURE_MID was inserted before _AID and _XCD), so an id
 * past it is never named: its temperatures, powers and clocks are
 * reported by their unit under the sensor "id<N>[_<i>]". Counters, link
 * states, bandwidths and residencies are not reported (nor are they from
 * the fixed layouts).
 *
 * Pure: no I/O, no allocation, no globals but the constant tables.
 */
#include "common/amdgpu/gpu_metrics_int.h"

#include <stdio.h>
#include <string.h>

/* enum amdgpu_metrics_attr_unit */
enum {
  GMA_UNIT_NONE = 0,
  GMA_UNIT_CLOCK_1 = 1, /* MHz */
  GMA_UNIT_TEMP_1 = 2,  /* degree Celsius */
  GMA_UNIT_POWER_1 = 3, /* watts */
  GMA_UNIT_PERCENT = 10,
};

/* enum amdgpu_metrics_attr_type: U8, S8, U16, S16, U32, S32, U64, S64 */
#define GMA_TYPE_COUNT 8
static const uint8_t gma_width[GMA_TYPE_COUNT] = {1, 1, 2, 2, 4, 4, 8, 8};
#define GMA_TYPE_SIGNED(t) (((t)&1u) != 0)

/* AMDGPU_METRICS_ATTR_*_MASK and _SHIFT */
#define GMA_UNIT(e) ((unsigned)(((e) >> 24) & 0xFFu))
#define GMA_TYPE(e) ((unsigned)(((e) >> 20) & 0xFu))
#define GMA_ID(e) ((unsigned)(((e) >> 10) & 0x3FFu))
#define GMA_INST(e) ((unsigned)((e)&0x3FFu))
#define GMA_IDS 1024

/* enum amdgpu_metrics_attr_id, the values this decoder names */
enum {
  GMA_ID_TEMPERATURE_HOTSPOT = 0,
  GMA_ID_TEMPERATURE_MEM = 1,
  GMA_ID_TEMPERATURE_VRSOC = 2,
  GMA_ID_CURR_SOCKET_POWER = 3,
  GMA_ID_AVERAGE_GFX_ACTIVITY = 4,
  GMA_ID_AVERAGE_UMC_ACTIVITY = 5,
  GMA_ID_ENERGY_ACCUMULATOR = 7,
  GMA_ID_CURRENT_GFXCLK = 33,
  GMA_ID_CURRENT_SOCCLK = 34,
  GMA_ID_CURRENT_VCLK0 = 35,
  GMA_ID_CURRENT_DCLK0 = 36,
  GMA_ID_CURRENT_UCLK = 37,
  GMA_ID_GFX_BUSY_INST = 40,
  GMA_ID_JPEG_BUSY = 41,
  GMA_ID_VCN_BUSY = 42,
  /* the last id of the same number in every kernel that has v1.9 */
  GMA_ID_TEMPERATURE_HBM = 48,
};

struct gma_named {
  uint16_t id;
  uint8_t unit; /* the unit the kernel gives it */
  uint8_t kind; /* enum gpu_metrics_kind */
  bool array;   /* SMU_ARRAY: sensor<i> */
  const char *sensor;
};

/* The sensor names of the fixed layouts of the same SMU (gpu_metrics.c:
 * GM_V1_4_COMMON and v1.5's vcn/jpeg). */
static const struct gma_named gma_named[] = {
    {GMA_ID_TEMPERATURE_HOTSPOT, GMA_UNIT_TEMP_1, GPU_METRICS_CELSIUS, false,
     "hotspot"},
    {GMA_ID_TEMPERATURE_MEM, GMA_UNIT_TEMP_1, GPU_METRICS_CELSIUS, false,
     "mem"},
    {GMA_ID_TEMPERATURE_VRSOC, GMA_UNIT_TEMP_1, GPU_METRICS_CELSIUS, false,
     "vrsoc"},
    {GMA_ID_CURR_SOCKET_POWER, GMA_UNIT_POWER_1, GPU_METRICS_CURRENT_WATTS,
     false, "socket"},
    {GMA_ID_AVERAGE_GFX_ACTIVITY, GMA_UNIT_PERCENT, GPU_METRICS_BUSY_PERCENT,
     false, "gfx"},
    {GMA_ID_AVERAGE_UMC_ACTIVITY, GMA_UNIT_PERCENT, GPU_METRICS_BUSY_PERCENT,
     false, "umc"},
    {GMA_ID_CURRENT_GFXCLK, GMA_UNIT_CLOCK_1, GPU_METRICS_ACTUAL_HZ, true,
     "gfxclk"},
    {GMA_ID_CURRENT_SOCCLK, GMA_UNIT_CLOCK_1, GPU_METRICS_ACTUAL_HZ, true,
     "socclk"},
    {GMA_ID_CURRENT_VCLK0, GMA_UNIT_CLOCK_1, GPU_METRICS_ACTUAL_HZ, true,
     "vclk"},
    {GMA_ID_CURRENT_DCLK0, GMA_UNIT_CLOCK_1, GPU_METRICS_ACTUAL_HZ, true,
     "dclk"},
    {GMA_ID_CURRENT_UCLK, GMA_UNIT_CLOCK_1, GPU_METRICS_ACTUAL_HZ, false,
     "uclk"},
    {GMA_ID_GFX_BUSY_INST, GMA_UNIT_PERCENT, GPU_METRICS_BUSY_PERCENT, true,
     "gfx"},
    {GMA_ID_JPEG_BUSY, GMA_UNIT_PERCENT, GPU_METRICS_BUSY_PERCENT, true,
     "jpeg"},
    {GMA_ID_VCN_BUSY, GMA_UNIT_PERCENT, GPU_METRICS_BUSY_PERCENT, true, "vcn"},
    {GMA_ID_TEMPERATURE_HBM, GMA_UNIT_TEMP_1, GPU_METRICS_CELSIUS, true, "hbm"},
};

static const struct gma_named *gma_find(unsigned id) {
  for (size_t i = 0; i < sizeof(gma_named) / sizeof(gma_named[0]); i++)
    if (gma_named[i].id == id)
      return &gma_named[i];
  return NULL;
}

/* The kind and factor to the base unit of a unit, for an id not named:
 * false when such values are not reported. */
static bool gma_by_unit(unsigned unit, enum gpu_metrics_kind *kind,
                        double *scale) {
  switch (unit) {
  case GMA_UNIT_TEMP_1:
    *kind = GPU_METRICS_CELSIUS;
    *scale = 1;
    return true;
  case GMA_UNIT_POWER_1:
    *kind = GPU_METRICS_POWER_WATTS;
    *scale = 1;
    return true;
  case GMA_UNIT_CLOCK_1:
    *kind = GPU_METRICS_ACTUAL_HZ;
    *scale = 1e6;
    return true;
  default:
    return false;
  }
}

/* The energy accumulator: one unsigned value of 4 or 8 bytes. */
static void gma_energy(struct gpu_metrics *out, unsigned type, unsigned inst,
                       const uint8_t *p) {
  unsigned w = gma_width[type];
  if (GMA_TYPE_SIGNED(type) || w < 4 || inst != 1) {
    out->n_skipped++;
    return;
  }
  uint64_t raw = gm_le(p, w);
  if (raw == gm_all_ones(w))
    return;
  out->have_energy = true;
  out->energy_raw = raw;
  out->energy_bits = 8 * w;
  out->energy_unit_joules = GM_Q16_JOULES;
}

/* The values of one attribute at p. */
static void gma_values(struct gpu_metrics *out, uint64_t enc,
                       const uint8_t *p) {
  unsigned unit = GMA_UNIT(enc), type = GMA_TYPE(enc), id = GMA_ID(enc);
  unsigned inst = GMA_INST(enc), w = gma_width[type];
  if (id == GMA_ID_ENERGY_ACCUMULATOR) {
    gma_energy(out, type, inst, p);
    return;
  }
  enum gpu_metrics_kind kind;
  double scale;
  char sensor[GPU_METRICS_SENSOR_MAX];
  bool indexed;
  const struct gma_named *n = gma_find(id);
  if (n != NULL) {
    if (unit != n->unit) { /* not what this id is: not guessed */
      out->n_skipped += inst;
      return;
    }
    kind = (enum gpu_metrics_kind)n->kind;
    scale = unit == GMA_UNIT_CLOCK_1 ? 1e6 : 1; /* MHz; C, W, % as they are */
    snprintf(sensor, sizeof(sensor), "%s", n->sensor);
    indexed = n->array;
  } else if (id > GMA_ID_TEMPERATURE_HBM && gma_by_unit(unit, &kind, &scale)) {
    snprintf(sensor, sizeof(sensor), "id%u%s", id, inst > 1 ? "_" : "");
    indexed = inst > 1;
  } else {
    return; /* a counter, state or rate: not reported */
  }
  for (unsigned i = 0; i < inst; i++) {
    uint64_t raw = gm_le(p + (size_t)i * w, w);
    if (raw == gm_all_ones(w))
      continue;
    double v;
    if (GMA_TYPE_SIGNED(type) && w < 8 && (raw >> (8 * w - 1)) != 0)
      v = (double)(int64_t)(raw | ~gm_all_ones(w));
    else if (GMA_TYPE_SIGNED(type))
      v = (double)(int64_t)raw;
    else
      v = (double)raw;
    /* below zero only a temperature can be */
    if (v < 0 && kind != GPU_METRICS_CELSIUS) {
      out->n_skipped++;
      continue;
    }
    gm_value_add(out, kind, sensor, indexed, i, v * scale);
  }
}

int gpu_metrics_attrs_decode(const uint8_t *buf, size_t len,
                             struct gpu_metrics *out) {
  /* struct gpu_metrics_v1_9: the header, then int attr_count */
  if (len < 8)
    return gm_refuse(out, "1.9: no room for attr_count");
  /* an int: a negative count reads as a huge one and is refused below */
  uint32_t count = (uint32_t)gm_le(buf + 4, 4);
  /* each attribute takes its 8-byte encoding and at least one byte */
  if (count > (len - 8) / 9)
    return gm_refuse(out, "1.9: attr_count exceeds what structure_size holds");
  uint8_t seen[GMA_IDS / 8];
  memset(seen, 0, sizeof(seen));
  size_t off = 8;
  for (uint32_t a = 0; a < count; a++) {
    if (len - off < 8)
      return gm_refuse(out, "1.9: an attribute's encoding is cut");
    uint64_t enc = gm_le(buf + off, 8);
    off += 8;
    unsigned type = GMA_TYPE(enc), id = GMA_ID(enc), inst = GMA_INST(enc);
    if (type >= GMA_TYPE_COUNT)
      return gm_refuse(out, "1.9: an attribute of an unknown value type");
    if (inst == 0)
      return gm_refuse(out, "1.9: an attribute with no value");
    if ((len - off) / gma_width[type] < inst)
      return gm_refuse(out, "1.9: an attribute's values are cut");
    if (seen[id / 8] & (1u << (id % 8)))
      return gm_refuse(out, "1.9: an attribute id comes twice");
    seen[id / 8] |= (uint8_t)(1u << (id % 8));
    gma_values(out, enc, buf + off);
    off += (size_t)gma_width[type] * inst;
  }
  if (off != len)
    return gm_refuse(out, "1.9: bytes after the last attribute");
  return 0;
}
