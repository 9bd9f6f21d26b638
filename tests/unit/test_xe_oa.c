/* xe OA streams: the OA_UNITS parser, the property chain and format
 * fields (xe_oa.c: decode_oa_format), identity and stream open through
 * the shim's xe device with every refusal, and the drain with EIO ->
 * STATUS and exact totals across wraps (MTL on xe: A24u40_A14u32_B8_C8;
 * BMG: PEC64u64). */
#include "common/i915/oa_format.h"
#include "common/i915/oa_metrics.h"
#include "common/xe/xe_oa.h"
#include "common/xe/xe_uapi.h"
#include "tests/shim/shim.h"
#include "tests/shim/shim_xe.h"

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#define DEV "/shim-test/dri/renderD129"

static void put32(uint8_t *p, uint32_t v) {
  for (int i = 0; i < 4; i++)
    p[i] = (uint8_t)(v >> (8 * i));
}

static void put64(uint8_t *p, uint64_t v) {
  put32(p, (uint32_t)v);
  put32(p + 4, (uint32_t)(v >> 32));
}

static void units_parse_checks_every_size(void **state) {
  (void)state;
  /* two units: OAG with render + compute, OAM with one video engine */
  uint8_t b[16 + 72 + 16 + 72 + 8];
  memset(b, 0, sizeof b);
  put32(b + 8, 2);
  uint8_t *u = b + 16;
  put32(u + 8, 0);
  put32(u + 12, DRM_XE_OA_UNIT_TYPE_OAG);
  put64(u + 16, DRM_XE_OA_CAPS_BASE);
  put64(u + 24, 19200000);
  put64(u + 64, 2);
  b[16 + 72 + 0] = DRM_XE_ENGINE_CLASS_RENDER;
  b[16 + 72 + 8] = DRM_XE_ENGINE_CLASS_COMPUTE;
  b[16 + 72 + 8 + 2] = 1; /* compute instance 1 */
  u = b + 16 + 72 + 16;
  put32(u + 8, 1);
  put32(u + 12, DRM_XE_OA_UNIT_TYPE_OAM);
  put64(u + 24, 38400000);
  put64(u + 64, 1);
  b[sizeof b - 8] = DRM_XE_ENGINE_CLASS_VIDEO_DECODE;
  struct xe_oa_unit_info out[4];
  assert_int_equal(xe_oa_units_parse(b, sizeof b, out, 4), 2);
  assert_int_equal(out[0].timestamp_hz, 19200000);
  assert_int_equal(out[0].n_engines, 2);
  assert_int_equal(out[0].engines[1].engine_class, DRM_XE_ENGINE_CLASS_COMPUTE);
  assert_int_equal(out[0].engines[1].engine_instance, 1);
  assert_int_equal(out[1].id, 1);
  assert_int_equal(out[1].type, DRM_XE_OA_UNIT_TYPE_OAM);
  assert_int_equal(out[1].timestamp_hz, 38400000);
  /* only `max` kept, the rest still checked */
  assert_int_equal(xe_oa_units_parse(b, sizeof b, out, 1), 1);
  /* a unit whose engines run past the end; a truncated unit; no header */
  assert_int_equal(xe_oa_units_parse(b, sizeof b - 1, out, 4), -EINVAL);
  put64(b + 16 + 64, UINT64_MAX / 4);
  assert_int_equal(xe_oa_units_parse(b, sizeof b, out, 4), -EINVAL);
  assert_int_equal(xe_oa_units_parse(b, 16 + 71, out, 4), -EINVAL);
  assert_int_equal(xe_oa_units_parse(b, 15, out, 4), -EINVAL);
  put32(b + 8, 0);
  assert_int_equal(xe_oa_units_parse(b, 16, out, 4), 0);
}

static void formats_and_properties(void **state) {
  (void)state;
  /* xe_oa.c: oa_formats: {counter_select, size, type, hdr, size, bc} */
  assert_int_equal(xe_oa_format_property(12), 0x500); /* OAG, sel 5 */
  assert_int_equal(xe_oa_format_property(10), 0x500); /* OAG, sel 5 */
  assert_int_equal(xe_oa_format_property(11), 0x501); /* OAR, sel 5 */
  assert_int_equal(xe_oa_format_property(13), 0x104); /* OAM_MPEC, 1 */
  assert_int_equal(xe_oa_format_property(OA_FORMAT_XE_PEC64u64),
                   0x10105);                     /* PEC, 1, u64 */
  assert_int_equal(xe_oa_format_property(5), 0); /* HSW: none */
  assert_int_equal(xe_oa_default_format(1270), 12);
  assert_int_equal(xe_oa_default_format(1255), 12);
  assert_int_equal(xe_oa_default_format(1200), 10);
  assert_int_equal(xe_oa_default_format(2001), OA_FORMAT_XE_PEC64u64);
  /* decode_oa_format over xe_oa_init_supported_formats: the platform's own
   * format of an encoding, whichever of the two was asked */
  assert_int_equal(xe_oa_format_decoded(1270, 10), 12); /* A32u40 -> A24u40 */
  assert_int_equal(xe_oa_format_decoded(1255, 10), 12);
  assert_int_equal(xe_oa_format_decoded(1270, 12), 12);
  assert_int_equal(xe_oa_format_decoded(1200, 12), 10); /* A24u40 -> A32u40 */
  assert_int_equal(xe_oa_format_decoded(1200, 10), 10);
  assert_int_equal(xe_oa_format_decoded(1270, 11), 11); /* OAR: its own */
  assert_int_equal(xe_oa_format_decoded(1200, 11), 0);  /* not before DG2 */
  assert_int_equal(xe_oa_format_decoded(1255, 13), 0);  /* OAM: MTL on */
  assert_int_equal(xe_oa_format_decoded(1270, 13), 13);
  assert_int_equal(xe_oa_format_decoded(2004, 10), 0);
  assert_int_equal(xe_oa_format_decoded(2004, OA_FORMAT_XE_PEC64u64),
                   OA_FORMAT_XE_PEC64u64);
  assert_int_equal(xe_oa_format_decoded(1270, OA_FORMAT_XE_PEC64u64), 0);
  assert_int_equal(xe_oa_format_decoded(1270, 5), 0); /* HSW's: none */
  struct xe_identity id = {.devid = 0x56A0};          /* DG2: no GMD_ID */
  assert_int_equal(xe_identity_gfx_ver(&id), 1255);
  id.graphics_major = 20;
  id.graphics_minor = 4;
  assert_int_equal(xe_identity_gfx_ver(&id), 2004);

  struct drm_xe_ext_set_property ext[XE_OA_MAX_PROPS];
  struct xe_oa_open_args a = {.oa_unit_id = 2,
                              .metric_set = 7,
                              .format = 12,
                              .exponent = 14,
                              .engine_instance = 1};
  assert_int_equal(xe_oa_open_props(&a, ext), 7);
  const uint64_t want[7][2] = {{1, 2},  {2, 1}, {3, 7}, {4, 0x500},
                               {5, 14}, {8, 1}, {6, 1}};
  for (int i = 0; i < 7; i++) {
    assert_int_equal(ext[i].property, want[i][0]);
    assert_int_equal(ext[i].value, want[i][1]);
    assert_int_equal(ext[i].base.name, DRM_XE_OA_EXTENSION_SET_PROPERTY);
    assert_int_equal(ext[i].base.next_extension,
                     i < 6 ? (uint64_t)(uintptr_t)&ext[i + 1] : 0);
  }
  a.exponent = -1;
  a.engine_instance = -1;
  assert_int_equal(xe_oa_open_props(&a, ext), 5);
  assert_int_equal(ext[4].property, DRM_XE_OA_PROPERTY_OA_DISABLED);
}

static int setup_mtl(void **state) {
  (void)state;
  struct shim_xe_scenario s;
  shim_xe_scenario_mtl(&s);
  return shim_xe_add(DEV, &s);
}

static int setup_bmg(void **state) {
  (void)state;
  struct shim_xe_scenario s;
  shim_xe_scenario_bmg(&s);
  return shim_xe_add(DEV, &s);
}

static int teardown(void **state) {
  (void)state;
  shim_xe_remove();
  return 0;
}

static int dev_open(void) {
  int fd = shim_kernel.open(DEV, O_RDWR | O_CLOEXEC, 0);
  assert_true(fd >= 0);
  return fd;
}

static void identity_through_the_size_probe(void **state) {
  (void)state;
  int fd = dev_open();
  struct xe_identity id;
  const char *what = NULL;
  assert_int_equal(xe_identity_read(&shim_kernel, fd, &id, &what), 0);
  assert_int_equal(id.devid, 0x7D55);
  assert_int_equal(id.revid, 4);
  assert_int_equal(xe_identity_gfx_ver(&id), 1270);
  assert_int_equal(id.n_units, 1);
  assert_int_equal(id.units[0].timestamp_hz, 19200000);
  assert_non_null(xe_oa_unit_for(&id, DRM_XE_ENGINE_CLASS_RENDER, 0));
  assert_null(xe_oa_unit_for(&id, DRM_XE_ENGINE_CLASS_VIDEO_DECODE, -1));
  /* a size that is neither 0 nor the exact one is EINVAL */
  uint8_t buf[64];
  struct drm_xe_device_query q = {
      .query = DRM_XE_DEVICE_QUERY_CONFIG, .size = 8, .data = (uintptr_t)buf};
  assert_int_equal(shim_kernel.ioctl(fd, DRM_IOCTL_XE_DEVICE_QUERY, &q), -1);
  assert_int_equal(errno, EINVAL);
  q.query = 99;
  q.size = 0;
  assert_int_equal(shim_kernel.ioctl(fd, DRM_IOCTL_XE_DEVICE_QUERY, &q), -1);
  assert_int_equal(errno, EINVAL);
  shim_kernel.close(fd);
}

static const struct xe_oa_open_args mtl_args = {
    .oa_unit_id = 0,
    .metric_set = 1,
    .format = 12,
    .exponent = 5,
    .engine_instance = 0,
};

static void open_sends_what_xe_oa_accepts(void **state) {
  (void)state;
  int fd = dev_open();
  const char *what;
  int sfd = xe_oa_stream_open(&shim_kernel, fd, &mtl_args, &what);
  assert_true(sfd >= 0);
  /* non-blocking: an empty stream answers EAGAIN, never waits */
  assert_true(fcntl(sfd, F_GETFL) & O_NONBLOCK);
  uint8_t one[256];
  assert_int_equal(shim_kernel.read(sfd, one, sizeof one), -1);
  assert_int_equal(errno, EAGAIN);
  struct shim_xe_open st;
  shim_xe_stats(&st);
  assert_int_equal(st.opens, 1);
  assert_int_equal(st.enables, 1);
  assert_int_equal(st.n_props, 7);
  assert_int_equal(st.props[3][0], DRM_XE_OA_PROPERTY_OA_FORMAT);
  assert_int_equal(st.props[3][1], 0x500);
  assert_int_equal(st.props[6][0], DRM_XE_OA_PROPERTY_OA_DISABLED);
  /* the unit is exclusive */
  assert_int_equal(xe_oa_stream_open(&shim_kernel, fd, &mtl_args, &what),
                   -EBUSY);
  assert_string_equal(what, "OBSERVATION STREAM_OPEN");
  shim_kernel.close(sfd);
  /* refusals: exponent above 31, PEC on MTL, unknown metric set */
  struct xe_oa_open_args a = mtl_args;
  a.exponent = 32;
  assert_int_equal(xe_oa_stream_open(&shim_kernel, fd, &a, &what), -EINVAL);
  a = mtl_args;
  a.format = OA_FORMAT_XE_PEC64u64;
  assert_int_equal(xe_oa_stream_open(&shim_kernel, fd, &a, &what), -EINVAL);
  a = mtl_args;
  a.metric_set = 9;
  assert_int_equal(xe_oa_stream_open(&shim_kernel, fd, &a, &what), -EINVAL);
  shim_kernel.close(fd);
}

static void paranoid_and_no_oa(void **state) {
  (void)state;
  shim_xe_remove();
  struct shim_xe_scenario s;
  shim_xe_scenario_mtl(&s);
  s.perfmon = false; /* dev.xe.observation_paranoid=1, no CAP_PERFMON */
  assert_int_equal(shim_xe_add(DEV, &s), 0);
  int fd = dev_open();
  const char *what;
  int rc = xe_oa_stream_open(&shim_kernel, fd, &mtl_args, &what);
  assert_int_equal(rc, -EACCES);
  assert_non_null(strstr(xe_oa_open_hint(-rc), "dev.xe.observation_paranoid"));
  assert_non_null(strstr(xe_oa_open_hint(-rc), "CAP_PERFMON"));
  shim_kernel.close(fd);
  shim_xe_remove();
  s.has_oa = false; /* an SR-IOV VF: OA never initialised */
  s.perfmon = true;
  assert_int_equal(shim_xe_add(DEV, &s), 0);
  fd = dev_open();
  assert_int_equal(xe_oa_stream_open(&shim_kernel, fd, &mtl_args, &what),
                   -ENODEV);
  assert_non_null(strstr(xe_oa_open_hint(ENODEV), "SR-IOV"));
  struct xe_identity id;
  assert_int_equal(xe_identity_read(&shim_kernel, fd, &id, &what), 0);
  assert_int_equal(id.n_units, 0);
  shim_kernel.close(fd);
}

/* An A24u40_A14u32_B8_C8 report: timestamp, clock, A4 (40-bit) and B0. */
static void a24_report(uint8_t *r, uint32_t ts, uint32_t clk, uint64_t a4,
                       uint32_t b0) {
  memset(r, 0, 256);
  put32(r, 1u << 19);
  put32(r + 4, ts);
  put32(r + 12, clk);
  put32(r + 16 + 4 * 4, (uint32_t)a4);
  r[160 + 4] = (uint8_t)(a4 >> 32);
  put32(r + 192, b0);
}

static void drain_mtl_with_status(void **state) {
  (void)state;
  int fd = dev_open();
  const char *what;
  int sfd = xe_oa_stream_open(&shim_kernel, fd, &mtl_args, &what);
  assert_true(sfd >= 0);
  const struct oa_format *f = oa_format_get(12);
  struct oa_accum a;
  oa_accum_init(&a, f, 1);
  a.rebase_on_buffer_lost = true;
  struct xe_oa_stream_counts c = {0};
  uint8_t buf[4096];
  /* nothing queued: the drain returns at once */
  assert_int_equal(xe_oa_drain(&shim_kernel, sfd, buf, sizeof buf, &a, &c), 0);
  uint8_t r[3 * 256];
  a24_report(r, 0xFFFFFF00u, 0xFFFFFFF0u, UINT64_C(0xFFFFFFFFF0), 7);
  a24_report(r + 256, 0x100, 0x10, 0x10, 9); /* every field wraps */
  a24_report(r + 512, 0x300, 0x20, 0x11, 10);
  assert_int_equal(shim_xe_queue_reports(r, sizeof r), 0);
  int a4 = oa_format_a_index(f, 4);
  /* a 300-byte buffer takes one report per read */
  assert_int_equal(xe_oa_drain(&shim_kernel, sfd, buf, 300, &a, &c), 768);
  assert_int_equal(c.reads, 3);
  assert_int_equal(a.reports, 3);
  assert_int_equal(a.totals.ticks, 0x200 + 0x200);
  assert_int_equal(a.totals.clocks, 0x20 + 0x10);
  assert_int_equal(a.totals.counters[a4], 0x20 + 1);
  assert_int_equal(a.totals.counters[38], 3); /* b0 */
  /* REPORT_LOST + COUNTER_OVERFLOW: EIO, STATUS, then the reports */
  a24_report(r, 0x400, 0x30, 0x12, 11);
  assert_int_equal(shim_xe_queue_reports(r, 256), 0);
  assert_int_equal(shim_xe_queue_status(DRM_XE_OASTATUS_REPORT_LOST |
                                        DRM_XE_OASTATUS_COUNTER_OVERFLOW),
                   0);
  assert_int_equal(xe_oa_drain(&shim_kernel, sfd, buf, sizeof buf, &a, &c),
                   256);
  assert_int_equal(c.status_reads, 1);
  assert_int_equal(a.report_lost, 1);
  assert_int_equal(c.counter_overflow, 1);
  assert_int_equal(a.totals.ticks, 0x500);
  assert_int_equal(a.totals.counters[a4], 0x22);
  /* BUFFER_OVERFLOW + MMIO queue full: the base is dropped, so the next
   * report (after a gap) adds nothing; the one after adds its step */
  assert_int_equal(shim_xe_queue_status(DRM_XE_OASTATUS_BUFFER_OVERFLOW |
                                        DRM_XE_OASTATUS_MMIO_TRG_Q_FULL),
                   0);
  a24_report(r, 0x90000000u, 0x5000, 0x500, 20);
  a24_report(r + 256, 0x90000010u, 0x5004, 0x503, 21);
  assert_int_equal(shim_xe_queue_reports(r, 512), 0);
  assert_int_equal(xe_oa_drain(&shim_kernel, sfd, buf, sizeof buf, &a, &c),
                   512);
  assert_int_equal(a.buffer_lost, 1);
  assert_int_equal(a.rebases, 1);
  assert_int_equal(c.mmio_trigger_queue_full, 1);
  assert_int_equal(a.totals.ticks, 0x500 + 0x10);
  assert_int_equal(a.totals.clocks, 0x40 + 4);
  assert_int_equal(a.totals.counters[a4], 0x22 + 3);
  assert_int_equal(c.partial_bytes, 0);
  /* a buffer smaller than one report; a disabled stream is EINVAL */
  assert_int_equal(xe_oa_drain(&shim_kernel, sfd, buf, 255, &a, &c), -ENOSPC);
  assert_int_equal(shim_xe_queue_reports(r, 256), 0);
  assert_int_equal(
      shim_kernel.ioctl(sfd, DRM_XE_OBSERVATION_IOCTL_DISABLE, NULL), 0);
  assert_int_equal(xe_oa_drain(&shim_kernel, sfd, buf, sizeof buf, &a, &c),
                   -EINVAL);
  shim_kernel.close(sfd);
  shim_kernel.close(fd);
}

static void drain_bmg_pec64(void **state) {
  (void)state;
  int fd = dev_open();
  struct xe_identity id;
  const char *what;
  assert_int_equal(xe_identity_read(&shim_kernel, fd, &id, &what), 0);
  uint32_t fmt = xe_oa_default_format(xe_identity_gfx_ver(&id));
  assert_int_equal(fmt, OA_FORMAT_XE_PEC64u64);
  struct xe_oa_open_args args = mtl_args;
  args.format = fmt;
  int sfd = xe_oa_stream_open(&shim_kernel, fd, &args, &what);
  assert_true(sfd >= 0);
  struct shim_xe_open st;
  shim_xe_stats(&st);
  assert_int_equal(st.props[3][1], 0x10105);
  const struct oa_format *f = oa_format_get(fmt);
  struct oa_accum a;
  oa_accum_init(&a, f, 1);
  struct xe_oa_stream_counts c = {0};
  uint8_t r[2 * 576];
  memset(r, 0, sizeof r);
  put64(r + 8, UINT64_C(0x00FFFFFFFFFFFFFF)); /* 56-bit timestamp wraps */
  put64(r + 24, UINT64_MAX);                  /* 64-bit ticks wrap */
  put64(r + 32 + 8 * 10, UINT64_MAX - 1);     /* pec10 wraps at 64 */
  put64(r + 576 + 8, 1);
  put64(r + 576 + 24, 99);
  put64(r + 576 + 32 + 8 * 10, 3);
  assert_int_equal(shim_xe_queue_reports(r, sizeof r), 0);
  uint8_t buf[8192];
  assert_int_equal(xe_oa_drain(&shim_kernel, sfd, buf, sizeof buf, &a, &c),
                   (int64_t)sizeof r);
  assert_int_equal(a.reports, 2);
  assert_int_equal(a.totals.ticks, 2);
  assert_int_equal(a.totals.clocks, 100);
  assert_int_equal(a.totals.counters[10], 5);
  assert_int_equal(oa_ticks_to_ns(a.totals.ticks, id.units[0].timestamp_hz),
                   104); /* 2 ticks at 19.2 MHz: 104.1 ns, truncated */
  shim_kernel.close(sfd);
  shim_kernel.close(fd);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(units_parse_checks_every_size),
      cmocka_unit_test(formats_and_properties),
      cmocka_unit_test_setup_teardown(identity_through_the_size_probe,
                                      setup_mtl, teardown),
      cmocka_unit_test_setup_teardown(open_sends_what_xe_oa_accepts, setup_mtl,
                                      teardown),
      cmocka_unit_test_setup_teardown(paranoid_and_no_oa, setup_mtl, teardown),
      cmocka_unit_test_setup_teardown(drain_mtl_with_status, setup_mtl,
                                      teardown),
      cmocka_unit_test_setup_teardown(drain_bmg_pec64, setup_bmg, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
