/* The stream reader against the shim's i915 stream: drains until EAGAIN,
 * whole records per chunk, ENOSPC growth, short reads, EIO (the reopen backoff:
 * test_devsession). */
#include "common/i915/i915_stream.h"
#include "tests/shim/shim.h"
#include "tests/shim/shim_i915.h"

#include <errno.h>
#include <fcntl.h>
#include <i915_drm.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#define DEV "/shim-test/dri/renderD128"
#define UUID "01234567-89ab-cdef-0123-456789abcdef"

struct seen {
  size_t chunks, records, bytes, sizes_bad;
};

static void on_chunk(void *ctx, const uint8_t *data, size_t len) {
  struct seen *s = ctx;
  s->chunks++;
  s->bytes += len;
  for (size_t off = 0; off < len;) {
    uint16_t size;
    memcpy(&size, data + off + 6, 2);
    if (size < 8 || off + size > len) {
      s->sizes_bad++; /* a record split across chunks would land here */
      break;
    }
    s->records++;
    off += size;
  }
}

static void tweak(struct shim_i915_scenario *s, void *ctx) {
  const unsigned *v = ctx;
  s->reports = v[0];
  s->max_records = v[1];
  s->eio_at = v[2];
}

static int open_stream(int *dev_fd, unsigned reports, unsigned max_records,
                       unsigned eio_at) {
  struct shim_i915_scenario sc;
  shim_i915_scenario_default(&sc);
  assert_int_equal(shim_i915_add(DEV, &sc), 0);
  assert_int_equal(shim_i915_add_metric(DEV, UUID, 1), 0);
  unsigned v[3] = {reports, max_records, eio_at};
  shim_i915_update(DEV, tweak, v);
  *dev_fd = shim_open(DEV, O_RDWR, 0);
  uint64_t props[] = {2, 1, 3, 1, 4, 10, 5, 16};
  struct drm_i915_perf_open_param p = {
      .flags = 3, .num_properties = 4, .properties_ptr = (uintptr_t)props};
  int fd = shim_ioctl(*dev_fd, DRM_IOCTL_I915_PERF_OPEN, &p);
  assert_true(fd >= 0);
  return fd;
}

static int teardown(void **state) {
  (void)state;
  shim_i915_reset();
  return 0;
}

static void drain__until_eagain_in_whole_records(void **state) {
  (void)state;
  int dev;
  int fd = open_stream(&dev, 1000, 0, 0);
  struct i915_stream s;
  i915_stream_init(&s, 0);
  assert_int_equal(i915_stream_attach(&shim_kernel, &s, fd), 0);
  struct seen seen = {0};
  /* 1000 records of 264 bytes; 128 KiB holds 496 of them per read */
  assert_int_equal(i915_stream_drain(&shim_kernel, &s, on_chunk, &seen),
                   264000);
  assert_int_equal(seen.records, 1000);
  assert_int_equal(seen.chunks, 3);
  assert_int_equal(seen.sizes_bad, 0);
  uint8_t *buf = s.buf;
  /* the next drain gets the next batch, in the same buffer */
  assert_int_equal(i915_stream_drain(&shim_kernel, &s, on_chunk, &seen),
                   264000);
  assert_ptr_equal(s.buf, buf);
  assert_int_equal(s.reads, 6);
  i915_stream_fini(&shim_kernel, &s);
  assert_int_equal(s.fd, -1);
  shim_close(dev);
}

static void drain__enospc_grows_the_buffer(void **state) {
  (void)state;
  int dev;
  int fd = open_stream(&dev, 3, 0, 0);
  struct i915_stream s;
  i915_stream_init(&s, 100); /* smaller than one record */
  assert_int_equal(i915_stream_attach(&shim_kernel, &s, fd), 0);
  struct seen seen = {0};
  assert_int_equal(i915_stream_drain(&shim_kernel, &s, on_chunk, &seen),
                   3 * 264);
  assert_int_equal(s.cap, 400); /* 100 -> 200 -> 400 */
  assert_int_equal(seen.records, 3);
  assert_int_equal(seen.chunks, 3); /* 400 bytes: one record per read */
  i915_stream_fini(&shim_kernel, &s);
  shim_close(dev);
}

static void drain__short_reads(void **state) {
  (void)state;
  int dev;
  int fd = open_stream(&dev, 5, 2, 0);
  struct i915_stream s;
  i915_stream_init(&s, 0);
  assert_int_equal(i915_stream_attach(&shim_kernel, &s, fd), 0);
  struct seen seen = {0};
  /* two records per read although more fit: 2 + 2 + 1, then EAGAIN */
  assert_int_equal(i915_stream_drain(&shim_kernel, &s, on_chunk, &seen),
                   5 * 264);
  assert_int_equal(seen.records, 5);
  assert_int_equal(seen.chunks, 3);
  assert_int_equal(s.reads, 3);
  i915_stream_fini(&shim_kernel, &s);
  shim_close(dev);
}

static void drain__eio_and_closed(void **state) {
  (void)state;
  int dev;
  int fd = open_stream(&dev, 2, 0, 2);
  struct i915_stream s;
  i915_stream_init(&s, 0);
  assert_int_equal(i915_stream_attach(&shim_kernel, &s, fd), 0);
  struct seen seen = {0};
  assert_int_equal(i915_stream_drain(&shim_kernel, &s, on_chunk, &seen), 528);
  assert_int_equal(i915_stream_drain(&shim_kernel, &s, on_chunk, &seen), -EIO);
  i915_stream_close(&shim_kernel, &s);
  assert_int_equal(i915_stream_drain(&shim_kernel, &s, on_chunk, &seen),
                   -EBADF);
  i915_stream_fini(&shim_kernel, &s);
  shim_close(dev);
}

static void drain_interval__half_the_buffer(void **state) {
  (void)state;
  /* 65536 reports of 256 bytes fill 16 MiB; at 1 ms plus 20000
   * context-switch reports a second (21000/s): 3.12 s, half 1.56 s */
  assert_int_equal(i915_stream_drain_interval_ns(256, 1000000), 1560380952ull);
  /* exponent 5 at 19.2 MHz: period ceil(2^6 * 1e9 / 19.2e6) = 3334 ns */
  assert_int_equal(i915_stream_drain_interval_ns(256, 3334), 102419199ull);
  assert_int_equal(i915_stream_drain_interval_ns(128, 1000),
                   64250980ull); /* 131072 reports */
  assert_int_equal(i915_stream_drain_interval_ns(0, 1000), 0);
}

/* An idle GPU still switches contexts: the default 10 ms period alone
 * would allow 327 s between drains, 65536 context-switch reports fill the
 * buffer in 3.3 s at 20000/s. */
static void drain_interval__counts_context_switch_reports(void **state) {
  (void)state;
  assert_int_equal(i915_stream_drain_interval_ns(256, 10000000), 1630248756ull);
  assert_int_equal(i915_stream_drain_interval_ns(256, 1000000000),
                   1638318084ull);
  /* not periodic: context switches alone */
  assert_int_equal(i915_stream_drain_interval_ns(256, 0), 1638400000ull);
  assert_int_equal(i915_stream_drain_interval_ns(64, UINT64_MAX),
                   6553599999ull);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_teardown(drain__until_eagain_in_whole_records, teardown),
      cmocka_unit_test_teardown(drain__enospc_grows_the_buffer, teardown),
      cmocka_unit_test_teardown(drain__short_reads, teardown),
      cmocka_unit_test_teardown(drain__eio_and_closed, teardown),
      cmocka_unit_test(drain_interval__half_the_buffer),
      cmocka_unit_test(drain_interval__counts_context_switch_reports),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
