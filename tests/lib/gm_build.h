/*
 * gm_build.h: amdgpu gpu_metrics tables built byte for byte for tests, at
 * offsets worked out by hand from the kernel's structs
 * (drivers/gpu/drm/amd/include/kgd_pp_interface.h), not from our copy of
 * them, so the decoder's layout is checked against an independent reading.
 * Every byte is 0xFF first, as smu_cmn_init_soft_gpu_metrics leaves the
 * fields a firmware does not fill; then the header, then the values listed
 * in gm_build.c for that revision (little-endian). v1.9 is built as the
 * kernel's packed attribute struct of smu_v13_0_6 (smu_v13_0_6_ppt.h:
 * SMU_13_0_6_METRICS_FIELDS through smu_cmn.h: DECLARE_SMU_METRICS_CLASS
 * and its _init: every encoding, every value all ones, attr_count).
 */
#ifndef TESTS_LIB_GM_BUILD_H
#define TESTS_LIB_GM_BUILD_H

#include <stddef.h>
#include <stdint.h>

/* The largest table (v1.8). */
#define GM_BUILD_MAX 3872

/* Build revision format.content ("1.6a" is v1.6's first layout: pass
 * content 6 with first_layout 1) into buf (GM_BUILD_MAX bytes); returns
 * its size, or 0 for a revision without a table here. */
size_t gm_build(uint8_t *buf, unsigned format, unsigned content,
                int first_layout);

/* Store `width` bytes of v at buf + off, little-endian. */
void gm_put(uint8_t *buf, size_t off, unsigned width, uint64_t v);

/* v1.9 (gm_build(buf, 1, 9, 0)): the offset of value `index` of the
 * attribute of id `id` in the list at buf, and its width in *width; 0 when
 * the list has no such value. */
size_t gm_build_attr(const uint8_t *buf, unsigned id, unsigned index,
                     unsigned *width);

/* v1.9: the encoding of an attribute (kgd_pp_interface.h:
 * AMDGPU_METRICS_ENC_ATTR(unit, type, id, inst)). */
uint64_t gm_build_enc(unsigned unit, unsigned type, unsigned id, unsigned inst);

#endif
