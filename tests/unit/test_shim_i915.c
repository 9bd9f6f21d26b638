/* The shim's i915 device: every ioctl with the kernel's errnos (i915_perf.c,
 * i915_getparam.c, i915_query.c), the stream's read rules and its scripted
 * reports. */
#include "tests/shim/shim.h"
#include "tests/shim/shim_i915.h"
#include "tests/shim/shim_i915_int.h"

#include <drm.h>
#include <errno.h>
#include <fcntl.h>
#include <i915_drm.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#define DEV "/shim-test/dri/renderD128"
#define UUID "01234567-89ab-cdef-0123-456789abcdef"

struct fix {
  char root[64];
  int fd;
};

static int setup(void **state) {
  struct fix *x = calloc(1, sizeof *x);
  snprintf(x->root, sizeof x->root, "/tmp/shim_i915.XXXXXX");
  assert_non_null(mkdtemp(x->root));
  struct shim_i915_scenario s;
  shim_i915_scenario_default(&s);
  snprintf(s.sysfs_root, sizeof s.sysfs_root, "%s", x->root);
  assert_int_equal(shim_i915_add(DEV, &s), 0);
  assert_int_equal(shim_i915_add_metric(DEV, UUID, 1), 0);
  x->fd = shim_open(DEV, O_RDWR, 0);
  assert_true(x->fd >= 0);
  *state = x;
  return 0;
}

static int teardown(void **state) {
  struct fix *x = *state;
  shim_close(x->fd);
  shim_i915_reset();
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", x->root);
  assert_int_equal(system(cmd), 0);
  free(x);
  return 0;
}

static void set_field(struct shim_i915_scenario *s, void *ctx) {
  /* ctx: "name=value" handled by the few cases the tests need */
  const char *kv = ctx;
  unsigned v = (unsigned)atoi(strchr(kv, '=') + 1);
  if (strncmp(kv, "privileged=", 11) == 0)
    s->privileged = v;
  else if (strncmp(kv, "perf=", 5) == 0)
    s->perf_ready = v;
  else if (strncmp(kv, "busy=", 5) == 0)
    s->busy = v;
  else if (strncmp(kv, "revision=", 9) == 0)
    s->perf_revision = (int)v;
  else if (strncmp(kv, "oa_freq=", 8) == 0)
    s->oa_freq_hz = v;
  else if (strncmp(kv, "topology_eus=", 13) == 0)
    s->topology_eus = v;
  else if (strncmp(kv, "max_records=", 12) == 0)
    s->max_records = v;
  else if (strncmp(kv, "reports=", 8) == 0)
    s->reports = v;
  else if (strncmp(kv, "lost_every=", 11) == 0)
    s->lost_every = v;
  else if (strncmp(kv, "buffer_lost_at=", 15) == 0)
    s->buffer_lost_at = v;
  else if (strncmp(kv, "corrupt_at=", 11) == 0)
    s->corrupt_at = v;
  else if (strncmp(kv, "eio_at=", 7) == 0)
    s->eio_at = v;
  else if (strncmp(kv, "devid=", 6) == 0)
    s->devid = v;
  else
    fail_msg("unknown key %s", kv);
}

static void set(const char *kv) {
  assert_int_equal(shim_i915_update(DEV, set_field, (void *)kv), 0);
}

static int getparam(int fd, int param, int *v) {
  struct drm_i915_getparam gp = {.param = param, .value = v};
  return shim_ioctl(fd, DRM_IOCTL_I915_GETPARAM, &gp);
}

static void version_and_getparam(void **state) {
  struct fix *x = *state;
  char name[16] = {0};
  struct drm_version v = {.name = name, .name_len = sizeof name};
  assert_int_equal(shim_ioctl(x->fd, DRM_IOCTL_VERSION, &v), 0);
  assert_string_equal(name, "i915");
  assert_int_equal(v.name_len, 4);
  int val = 0;
  assert_int_equal(getparam(x->fd, I915_PARAM_CHIPSET_ID, &val), 0);
  assert_int_equal(val, 0x9A49);
  assert_int_equal(getparam(x->fd, I915_PARAM_PERF_REVISION, &val), 0);
  assert_int_equal(val, 7);
  assert_int_equal(getparam(x->fd, 57, &val), 0);
  assert_int_equal(val, 19200000);
  assert_int_equal(getparam(x->fd, I915_PARAM_EU_TOTAL, &val), 0);
  assert_int_equal(val, 96);
  set("revision=0");
  set("oa_freq=0");
  errno = 0;
  assert_int_equal(getparam(x->fd, I915_PARAM_PERF_REVISION, &val), -1);
  assert_int_equal(errno, EINVAL);
  assert_int_equal(getparam(x->fd, 57, &val), -1);
  assert_int_equal(errno, EINVAL);
  assert_int_equal(getparam(x->fd, 9999, &val), -1);
  assert_int_equal(errno, EINVAL);
}

static void query_topology_two_calls(void **state) {
  struct fix *x = *state;
  set("topology_eus=20");
  struct drm_i915_query_item item = {.query_id = DRM_I915_QUERY_TOPOLOGY_INFO};
  struct drm_i915_query q = {.num_items = 1, .items_ptr = (uintptr_t)&item};
  assert_int_equal(shim_ioctl(x->fd, DRM_IOCTL_I915_QUERY, &q), 0);
  /* 3 subslices of 8: 16 + slice byte + 1 subslice byte + 3 EU bytes */
  assert_int_equal(item.length, 21);
  uint8_t blob[21];
  item.data_ptr = (uintptr_t)blob;
  assert_int_equal(shim_ioctl(x->fd, DRM_IOCTL_I915_QUERY, &q), 0);
  assert_int_equal(item.length, 21);
  const uint8_t want[21] = {0, 0, 1, 0, 3, 0, 8, 0,    1,    0,   1,
                            0, 2, 0, 1, 0, 1, 7, 0xFF, 0xFF, 0x0F};
  assert_memory_equal(blob, want, sizeof want);
  item.length = 5; /* too short: the item's error, not the ioctl's */
  assert_int_equal(shim_ioctl(x->fd, DRM_IOCTL_I915_QUERY, &q), 0);
  assert_int_equal(item.length, -EINVAL);
  set("topology_eus=0");
  item.length = 0;
  assert_int_equal(shim_ioctl(x->fd, DRM_IOCTL_I915_QUERY, &q), 0);
  assert_int_equal(item.length, -EINVAL);
}

/* PERF_OPEN with `n` pairs from `props`: the fd or -errno. */
static int perf_open(int fd, const uint64_t *props, uint32_t n,
                     uint32_t flags) {
  struct drm_i915_perf_open_param p = {
      .flags = flags, .num_properties = n, .properties_ptr = (uintptr_t)props};
  int rc = shim_ioctl(fd, DRM_IOCTL_I915_PERF_OPEN, &p);
  return rc < 0 ? -errno : rc;
}

#define BASIC(set, fmt, exp)                                                   \
  { 2, 1, 3, (set), 4, (fmt), 5, (exp) }

static void perf_open_kernel_errnos(void **state) {
  struct fix *x = *state;
  uint64_t ok[] = BASIC(1, 10, 16);
  uint64_t zero_set[] = BASIC(0, 10, 16);
  uint64_t bad_set[] = BASIC(9, 10, 16);
  uint64_t hsw_fmt[] = BASIC(1, 5, 16);
  uint64_t fmt15[] = BASIC(1, 15, 16);
  uint64_t exp32[] = BASIC(1, 10, 32);
  uint64_t no_sample[] = {3, 1, 4, 10};
  uint64_t no_format[] = {2, 1, 3, 1};
  uint64_t prop0[] = {0, 1, 2, 1, 3, 1, 4, 10};
  uint64_t prop11[] = {11, 1, 2, 1, 3, 1, 4, 10};
  uint64_t poll_short[] = {2, 1, 3, 1, 4, 10, 8, 99999};
  uint64_t class_only[] = {2, 1, 3, 1, 4, 10, 9, 0};
  uint64_t engine[] = {2, 1, 3, 1, 4, 10, 9, 0, 10, 0};
  uint64_t ctx[] = {1, 5, 2, 1, 3, 1, 4, 10};
  assert_int_equal(perf_open(x->fd, ok, 4, 8), -EINVAL);  /* flag bit 3 */
  assert_int_equal(perf_open(x->fd, ok, 0, 0), -EINVAL);  /* no property */
  assert_int_equal(perf_open(x->fd, ok, 11, 0), -EINVAL); /* >= PROP_MAX */
  assert_int_equal(perf_open(x->fd, zero_set, 4, 0), -EINVAL);
  assert_int_equal(perf_open(x->fd, bad_set, 4, 0), -EINVAL);
  assert_int_equal(perf_open(x->fd, hsw_fmt, 4, 0), -EINVAL);
  assert_int_equal(perf_open(x->fd, fmt15, 4, 0), -EINVAL);
  assert_int_equal(perf_open(x->fd, exp32, 4, 0), -EINVAL);
  assert_int_equal(perf_open(x->fd, no_sample, 2, 0), -EINVAL);
  assert_int_equal(perf_open(x->fd, no_format, 2, 0), -EINVAL);
  assert_int_equal(perf_open(x->fd, prop0, 4, 0), -EINVAL);
  assert_int_equal(perf_open(x->fd, prop11, 4, 0), -EINVAL);
  assert_int_equal(perf_open(x->fd, poll_short, 4, 0), -EINVAL);
  assert_int_equal(perf_open(x->fd, class_only, 4, 0), -EINVAL);
  assert_int_equal(perf_open(x->fd, ctx, 4, 0), -ENOENT);
  set("revision=5"); /* engine properties arrived with revision 6 */
  assert_int_equal(perf_open(x->fd, engine, 5, 0), -EINVAL);
  set("revision=4"); /* POLL_OA_PERIOD with 5 */
  uint64_t poll_ok[] = {2, 1, 3, 1, 4, 10, 8, 100000};
  assert_int_equal(perf_open(x->fd, poll_ok, 4, 0), -EINVAL);
  set("revision=7");
  set("privileged=0");
  /* exponent 0 at 19.2 MHz: period 105 ns, 9.5 MHz > 100 kHz */
  uint64_t fast[] = BASIC(1, 10, 0);
  assert_int_equal(perf_open(x->fd, fast, 4, 0), -EACCES);
  assert_int_equal(perf_open(x->fd, ok, 4, 0), -EACCES); /* paranoid */
  set("privileged=1");
  set("perf=0");
  assert_int_equal(perf_open(x->fd, ok, 4, 0), -524);
  set("perf=1");
  set("busy=1");
  assert_int_equal(perf_open(x->fd, ok, 4, 0), -EBUSY);
  set("busy=0");
  int s1 = perf_open(x->fd, engine, 5, 3);
  assert_true(s1 >= 0);
  assert_int_equal(perf_open(x->fd, ok, 4, 0), -EBUSY); /* exclusive */
  assert_int_equal(shim_close(s1), 0);
  int s2 = perf_open(x->fd, poll_ok, 4, 3);
  assert_true(s2 >= 0);
  shim_close(s2);
  struct shim_i915_stats st;
  assert_int_equal(shim_i915_stats(DEV, &st), 0);
  assert_int_equal(st.perf_opens, 2);
  assert_int_equal(st.perf_open_fails, 22);
  assert_int_equal(st.streams_open, 0);
}

static int add_config(int fd, const char *uuid, const uint32_t *flex,
                      uint32_t n_flex, const uint32_t *mux, uint32_t n_mux) {
  struct drm_i915_perf_oa_config c = {0};
  memcpy(c.uuid, uuid, 36);
  c.n_flex_regs = n_flex;
  c.flex_regs_ptr = (uintptr_t)flex;
  c.n_mux_regs = n_mux;
  c.mux_regs_ptr = (uintptr_t)mux;
  int rc = shim_ioctl(fd, DRM_IOCTL_I915_PERF_ADD_CONFIG, &c);
  return rc < 0 ? -errno : rc;
}

static void add_remove_config(void **state) {
  struct fix *x = *state;
  const char *u = "aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee";
  uint32_t flex[] = {0xE458, 0x5, 0xE65C, 0x105};
  uint32_t bad_flex[] = {0xE460, 0x5};
  uint32_t mux[] = {0x9888, 1};
  uint32_t bad_mux[] = {0x9000, 1};
  assert_int_equal(add_config(x->fd, u, NULL, 0, NULL, 0), -EINVAL);
  assert_int_equal(add_config(x->fd, "aaaaaaaa_bbbb-cccc-dddd-eeeeeeeeeeee",
                              flex, 2, NULL, 0),
                   -EINVAL);
  assert_int_equal(add_config(x->fd, u, bad_flex, 1, NULL, 0), -EINVAL);
  assert_int_equal(add_config(x->fd, u, NULL, 0, bad_mux, 1), -EINVAL);
  set("privileged=0");
  assert_int_equal(add_config(x->fd, u, flex, 2, NULL, 0), -EACCES);
  set("privileged=1");
  set("perf=0");
  assert_int_equal(add_config(x->fd, u, flex, 2, NULL, 0), -524);
  set("perf=1");
  set("devid=1042"); /* 0x412, Haswell: no flex registers */
  assert_int_equal(add_config(x->fd, u, flex, 2, NULL, 0), -EINVAL);
  set("devid=39497");
  assert_int_equal(add_config(x->fd, u, flex, 2, mux, 1), 2);
  assert_int_equal(add_config(x->fd, u, flex, 1, NULL, 0), -EADDRINUSE);
  char path[PATH_MAX], text[16] = {0};
  snprintf(path, sizeof path, "%s/class/drm/card0/metrics/%s/id", x->root, u);
  FILE *fp = fopen(path, "r");
  assert_non_null(fp);
  assert_non_null(fgets(text, sizeof text, fp));
  fclose(fp);
  assert_string_equal(text, "2\n");
  uint64_t id = 7;
  assert_int_equal(shim_ioctl(x->fd, DRM_IOCTL_I915_PERF_REMOVE_CONFIG, &id),
                   -1);
  assert_int_equal(errno, ENOENT);
  id = 2;
  set("privileged=0");
  assert_int_equal(shim_ioctl(x->fd, DRM_IOCTL_I915_PERF_REMOVE_CONFIG, &id),
                   -1);
  assert_int_equal(errno, EACCES);
  set("privileged=1");
  assert_int_equal(shim_ioctl(x->fd, DRM_IOCTL_I915_PERF_REMOVE_CONFIG, &id),
                   0);
  assert_int_equal(access(path, F_OK), -1);
  assert_int_equal(add_config(x->fd, u, flex, 1, NULL, 0), 3);
}

static uint32_t u32(const uint8_t *p) {
  uint32_t v;
  memcpy(&v, p, 4);
  return v;
}

static void stream_read_rules(void **state) {
  struct fix *x = *state;
  set("reports=3");
  set("lost_every=2");
  set("buffer_lost_at=2");
  uint64_t props[] = BASIC(1, 10, 16);
  int s = perf_open(x->fd, props, 4, 3);
  assert_true(s >= 0);
  static uint8_t buf[4096];
  errno = 0;
  assert_int_equal(shim_read(s, buf, 100), -1); /* below one record */
  assert_int_equal(errno, ENOSPC);
  assert_int_equal(shim_read(s, buf, 600), 528); /* two of three */
  assert_int_equal(u32(buf), 1);
  assert_int_equal(u32(buf + 4) >> 16, 264);
  assert_int_equal(u32(buf + 8 + 4), 0); /* report 0: timestamp */
  assert_int_equal(u32(buf + 264 + 8 + 4), 19200);
  assert_int_equal(u32(buf + 264 + 8 + 12), 1000000); /* clock ticks */
  assert_int_equal(u32(buf + 264 + 8) >> 19, 1);      /* reason: timer */
  assert_int_equal(u32(buf + 264 + 8 + 16), 500000);  /* A0 */
  assert_int_equal(shim_read(s, buf, sizeof buf), 264);
  assert_int_equal(shim_read(s, buf, sizeof buf), -1);
  assert_int_equal(errno, EAGAIN);
  /* batch 2: BUFFER_LOST, then REPORT_LOST, then the samples */
  assert_int_equal(shim_read(s, buf, sizeof buf), 16 + 3 * 264);
  assert_int_equal(u32(buf), 3);
  assert_int_equal(u32(buf + 4) >> 16, 8);
  assert_int_equal(u32(buf + 8), 2);
  assert_int_equal(u32(buf + 16), 1);
  assert_int_equal(u32(buf + 16 + 8 + 4), 3 * 19200); /* report 3 */
  assert_int_equal(shim_read(s, buf, sizeof buf), -1);
  assert_int_equal(errno, EAGAIN);
  set("corrupt_at=3");
  set("max_records=2");
  assert_int_equal(shim_read(s, buf, sizeof buf), 264 + 8); /* short read */
  assert_int_equal(u32(buf + 264), 1);
  assert_int_equal(u32(buf + 264 + 4) >> 16, 0); /* size 0 on request */
  assert_int_equal(shim_read(s, buf, sizeof buf), 2 * 264);
  assert_int_equal(shim_read(s, buf, sizeof buf), -1);
  assert_int_equal(errno, EAGAIN);
  set("eio_at=4");
  assert_int_equal(shim_read(s, buf, sizeof buf), -1);
  assert_int_equal(errno, EIO);
  assert_int_equal(shim_read(s, buf, sizeof buf), -1);
  assert_int_equal(errno, EIO); /* for good */
  assert_int_equal(shim_ioctl(s, 0x6903, NULL), -1);
  assert_int_equal(errno, EINVAL);
  shim_close(s);
}

static void stream_disabled_is_eio(void **state) {
  struct fix *x = *state;
  uint64_t props[] = BASIC(1, 10, 16);
  int fd = perf_open(x->fd, props, 4, 3 | 4); /* DISABLED */
  assert_true(fd >= 0);
  static uint8_t buf[1024];
  assert_int_equal(shim_read(fd, buf, sizeof buf), -1);
  assert_int_equal(errno, EIO);
  assert_int_equal(shim_ioctl(fd, 0x6900, NULL), 0); /* ENABLE */
  assert_int_equal(shim_read(fd, buf, 264), 264);
  shim_close(fd);
}

static void report_write_wraps_and_formats(void **state) {
  (void)state;
  struct shim_i915_scenario s;
  shim_i915_scenario_default(&s);
  s.ts_start = 0xFFFFFFFFu - 19199;
  s.a_start[7] = (UINT64_C(1) << 40) - 8000;
  s.ctx_every = 2;
  uint8_t r[256];
  shim_i915_report_write(&s, 2, 10, 256, r);
  assert_int_equal(u32(r) >> 19, 8);           /* ctx switch */
  assert_int_equal(u32(r + 8), 0x101);         /* context id */
  assert_int_equal(u32(r + 4), 19200);         /* wrapped */
  assert_int_equal(u32(r + 16 + 4 * 7), 8000); /* A7 low 32 */
  assert_int_equal(r[160 + 7], 0);             /* wrapped 2^40 */
  shim_i915_report_write(&s, 0, 10, 256, r);   /* 2^40 - 8000 */
  assert_int_equal(u32(r + 16 + 4 * 7), 0xFFFFE0C0u);
  assert_int_equal(r[160 + 7], 0xFF);
  assert_int_equal(u32(r + 4), 0xFFFFB500u);
  shim_i915_report_write(&s, 1, 10, 256, r); /* 2^40: wrapped to 0 */
  assert_int_equal(u32(r + 16 + 4 * 7), 0);
  assert_int_equal(r[160 + 7], 0);
  shim_i915_report_write(&s, 0, 12, 256, r); /* A24u40: A7 is 40-bit */
  assert_int_equal(r[160 + 7], 0xFF);
  shim_i915_report_write(&s, 1, 12, 256, r);
  assert_int_equal(u32(r + 16), 500000);     /* A0 u32 */
  shim_i915_report_write(&s, 1, 13, 192, r); /* OAM: 64-bit header */
  uint64_t ts;
  memcpy(&ts, r + 8, 8);
  assert_true(ts == (uint64_t)0xFFFFFFFFu - 19199 + 19200);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(version_and_getparam, setup, teardown),
      cmocka_unit_test_setup_teardown(query_topology_two_calls, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(perf_open_kernel_errnos, setup, teardown),
      cmocka_unit_test_setup_teardown(add_remove_config, setup, teardown),
      cmocka_unit_test_setup_teardown(stream_read_rules, setup, teardown),
      cmocka_unit_test_setup_teardown(stream_disabled_is_eio, setup, teardown),
      cmocka_unit_test(report_write_wraps_and_formats),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
