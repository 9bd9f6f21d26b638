/*
 * test_ppf_session.c: panthor_perf's kernel side (ppf_device.c, ppf_session.c)
 * against the shim's panthor node in-process (shim_kernel), through the
 * plugin's own ops: exact totals over thousands of reads and many ring
 * wraps in both layouts, the wrapped extract, dropped samples, flags,
 * EBUSY skips, reopen with backoff on a scripted clock, the errors in
 * words (no uAPI, EBUSY, EACCES, ENOMEM, absurd perf_info, UAPI
 * mismatch, corrupt insert), one session shared by two instances,
 * shutdown, discovery.
 */
#include "plugins/panthor_perf/panthor_perf.h"
#include "plugins/panthor_perf/ppf_session.h"
#include "tests/lib/capture_sink.h"
#include "tests/lib/fakeproc.h"
#include "tests/shim/shim.h"
#include "tests/shim/shim_panthor.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

static struct fakeproc fp;
static char path[600], dri[400];
static struct plugin_host host;
static struct plugin_shared shared;
static char logged[8192];
static uint64_t fake_now;

static uint64_t fake_clock(void *ctx) {
  (void)ctx;
  return fake_now;
}

static void log_capture(enum log_level level, const char *message) {
  (void)level;
  size_t n = strlen(logged);
  snprintf(logged + n, sizeof(logged) - n, "%s\n", message);
}

static int setup(void **state) {
  (void)state;
  assert_int_equal(fakeproc_init(&fp), 0);
  snprintf(dri, sizeof(dri), "%s/dri", fp.root);
  mkdir(dri, 0755);
  snprintf(path, sizeof(path), "%s/renderD128", dri);
  close(open(path, O_CREAT | O_WRONLY, 0644)); /* listed by discovery */
  assert_int_equal(shim_panthor_register(path, 128), 0);
  assert_int_equal(shim_panthor_set_rates(""), 0);
  plugin_host_init(&host, "t", 1000000000ull);
  host.kernel = &shim_kernel;
  host.clock.monotonic_ns = fake_clock; /* the reopen backoff's clock */
  plugin_shared_init(&shared);
  host.shared = &shared;
  logged[0] = '\0';
  log_set_sink(log_capture, LOG_LEVEL_INFO);
  fake_now = 1000000000ull;
  alarm(120);
  return 0;
}

static int teardown(void **state) {
  (void)state;
  assert_null(shared.head); /* every session gone with its instances */
  plugin_shared_fini(&shared);
  log_set_sink(NULL, LOG_LEVEL_INFO);
  assert_int_equal(shim_device_remove(path), 0);
  fakeproc_fini(&fp);
  return 0;
}

static void kernel(enum shim_panthor_layout layout, const char *scenario) {
  struct shim_panthor_config c = {.layout = layout, .model = SHIM_PANTHOR_G720};
  for (const char *p = scenario; p != NULL && *p != '\0';) {
    char key[32];
    unsigned v = 0;
    int used = 0;
    if (sscanf(p, "%31[a-z_]=%u%n", key, &v, &used) < 1)
      fail();
    if (strcmp(key, "drop_every") == 0)
      c.drop_every = v;
    else if (strcmp(key, "overflow_every") == 0)
      c.overflow_every = v;
    else if (strcmp(key, "error_every") == 0)
      c.error_every = v;
    else if (strcmp(key, "busy_every") == 0)
      c.busy_every = v;
    else if (strcmp(key, "reset_at") == 0)
      c.reset_at = v;
    else if (strcmp(key, "corrupt_at") == 0)
      c.corrupt_at = v;
    else if (strcmp(key, "others") == 0)
      c.others = v;
    else if (strcmp(key, "other_set") == 0)
      c.other_set = (int)v;
    else if (strcmp(key, "unprivileged") == 0)
      c.unprivileged = true;
    else if (strcmp(key, "teardown_fixed") == 0)
      c.teardown_fixed = true;
    else if (strcmp(key, "irq_late") == 0)
      c.irq_late = true;
    else if (strcmp(key, "sample_pad") == 0)
      c.sample_pad = v;
    else if (strcmp(key, "header_pad") == 0)
      c.header_pad = v;
    else if (strcmp(key, "size_skew") == 0)
      c.size_skew = v;
    else
      fail();
    p += used ? used : (int)strlen(key);
    if (*p == ',')
      p++;
  }
  shim_panthor_configure(&c);
}

static void option(void *inst, const char *key, const char *value) {
  struct cfg_value v = {.type = CFG_STRING, .string = value};
  if (strcmp(key, "RingSlots") == 0 || strcmp(key, "Timeout") == 0)
    v = (struct cfg_value){.type = CFG_NUMBER, .number = atof(value)};
  struct cfg_item item = {.key = key, .values = &v, .n_values = 1};
  assert_int_equal(panthor_perf_ops.configure(inst, &item), 0);
}

/* An instance on the node with `slots` ring slots; init's result in *rc. */
static void *instance(const char *slots, const char *uapi, const char *set,
                      int *rc) {
  void *inst = panthor_perf_ops.instance_new("t");
  option(inst, "Device", path);
  option(inst, "RingSlots", slots);
  if (uapi != NULL)
    option(inst, "UAPI", uapi);
  if (set != NULL)
    option(inst, "CounterSet", set);
  *rc = panthor_perf_ops.init(inst, &host);
  return inst;
}

/* Field `name` of the first line starting with `prefix`. */
static uint64_t field(const struct capture_sink *c, const char *prefix,
                      const char *name) {
  const char *line = capture_sink_find(c, prefix);
  assert_non_null(line);
  char key[64];
  snprintf(key, sizeof(key), "%s=", name);
  const char *p = strstr(line, key);
  if (p == NULL) {
    print_error("no %s in %s", name, line);
    fail();
  }
  return strtoull(p + strlen(key), NULL, 10);
}

/* `n` reads; the records of the last one stay in *c. */
static void reads(void *inst, struct capture_sink *c, int n) {
  for (int i = 0; i < n; i++) {
    capture_sink_clear(c);
    assert_int_equal(panthor_perf_ops.read(inst, &c->base), 0);
  }
}

#define PERF "panthor_perf,"
#define STREAM "panthor_perf_stream,"

/* G720: GPU_ACTIVE is CSHW 4 (rate 4, one block); L2_EXT_READ_BEATS is
 * MEMSYS 32 over 2 slices (32 x (1 + 2)) x 16 bytes per beat. */
static void exact_totals_across_wraps(enum shim_panthor_layout layout,
                                      const char *scenario) {
  kernel(layout, scenario);
  struct capture_sink c;
  capture_sink_init(&c);
  int rc;
  void *inst = instance("4", NULL, NULL, &rc);
  assert_int_equal(rc, 0);
  reads(inst, &c, 3000); /* 750 wraps of 4 slots */
  assert_int_equal(field(&c, PERF, "gpu_active_cycles"), 4 * 3000);
  assert_int_equal(field(&c, PERF, "ext_read_bytes"), 32 * 3 * 16 * 3000ull);
  assert_int_equal(field(&c, STREAM, "samples"), 3000);
  assert_int_equal(field(&c, STREAM, "dropped"), 0);
  assert_int_equal(field(&c, STREAM, "busy_skips"), 0);
  /* ITER_FRAG_ACTIVE (index 32, rate 32) over GPU_ACTIVE (rate 4) is 800 %
   * raw: bounded to 100 and counted, once per read */
  assert_int_equal(field(&c, PERF, "fragment_queue_utilization_percent"), 100);
  assert_non_null(strstr(capture_sink_find(&c, PERF),
                         "fragment_queue_utilization_percent=100.0,"));
  assert_int_equal(field(&c, STREAM, "clamped"), 3000);
  struct shim_panthor_stats st;
  shim_panthor_get_stats(&st);
  assert_int_equal(st.samples_written, 3000);
  assert_true(st.max_extract < 4); /* written back wrapped */
  assert_int_equal(st.ring_maps, 1);
  assert_int_equal(st.writable_maps, 0); /* the ring is mapped read-only */
  assert_int_equal(st.stray_ioctls, 0);
  panthor_perf_ops.instance_free(inst);
  shim_panthor_get_stats(&st);
  assert_int_equal(st.sessions, 0);
  /* one TEARDOWN: this kernel refuses it (STOP's sample was delivered)
   * and keeps the session with its sampler */
  assert_int_equal(st.teardowns + st.orphans, 1);
  assert_int_equal(st.teardown_oops, 0);
  capture_sink_fini(&c);
}

static void pp_session_read__exact_totals_v6(void **state) {
  (void)state;
  exact_totals_across_wraps(SHIM_PANTHOR_V6, NULL);
}

static void pp_session_read__exact_totals_rfc_v2(void **state) {
  (void)state;
  exact_totals_across_wraps(SHIM_PANTHOR_RFC_V2, NULL);
}

/* A larger stride than the walk and larger headers: still exact. */
static void pp_session_read__exact_totals_padded_sizes(void **state) {
  (void)state;
  exact_totals_across_wraps(SHIM_PANTHOR_V6, "sample_pad=64,header_pad=8");
}

static void pp_session_read__drops_flags_and_busy(void **state) {
  (void)state;
  kernel(SHIM_PANTHOR_V6,
         "drop_every=10,overflow_every=7,error_every=9,busy_every=11");
  struct capture_sink c;
  capture_sink_init(&c);
  int rc;
  void *inst = instance("8", NULL, NULL, &rc);
  assert_int_equal(rc, 0);
  reads(inst, &c, 1100);
  /* 100 reads EBUSY; of the 1000 requests every 10th is dropped, and
   * its counts arrive with the next sample */
  assert_int_equal(field(&c, STREAM, "busy_skips"), 100);
  assert_int_equal(field(&c, STREAM, "dropped"), 100);
  assert_int_equal(field(&c, STREAM, "samples"), 900);
  /* call n of 1100: every 11th busy, every other 10th dropped */
  uint64_t overflows = 0, errors = 0;
  for (uint64_t n = 1; n <= 1100; n++) {
    if (n % 11 == 0 || n % 10 == 0)
      continue;
    overflows += n % 7 == 0;
    errors += n % 9 == 0;
  }
  assert_int_equal(field(&c, STREAM, "overflows"), overflows);
  assert_int_equal(field(&c, STREAM, "errors"), errors);
  /* 1000 requests got a period; dropped ones arrive with the next */
  assert_int_equal(field(&c, PERF, "gpu_active_cycles"), 4 * 1000);
  panthor_perf_ops.instance_free(inst);
  capture_sink_fini(&c);
}

static void pp_session_read__reopen_with_backoff(void **state) {
  (void)state;
  kernel(SHIM_PANTHOR_V6, "reset_at=5");
  struct capture_sink c;
  capture_sink_init(&c);
  int rc;
  void *inst = instance("4", NULL, NULL, &rc);
  assert_int_equal(rc, 0);
  reads(inst, &c, 4);
  assert_true(panthor_perf_ops.read(inst, &c.base) < 0);
  assert_non_null(strstr(logged, "GPU reset or device gone"));
  fake_now += 500000000ull; /* 0.5 s: not yet */
  assert_true(panthor_perf_ops.read(inst, &c.base) < 0);
  fake_now += 500000000ull;
  capture_sink_clear(&c);
  assert_int_equal(panthor_perf_ops.read(inst, &c.base), 0);
  assert_int_equal(field(&c, STREAM, "reopens"), 1);
  reads(inst, &c, 10);
  assert_int_equal(field(&c, STREAM, "samples"), 4 + 11);
  assert_int_equal(field(&c, STREAM, "dropped"), 0);
  assert_int_equal(field(&c, PERF, "gpu_active_cycles"), 4 * 15);
  char *first = strstr(logged, "GPU reset");
  assert_null(strstr(first + 1, "GPU reset")); /* said once */
  panthor_perf_ops.instance_free(inst);
  capture_sink_fini(&c);
}

/* A failed reopen doubles the wait: 1 s, then 2 s. */
static void pp_session_read__failed_reopen_doubles_backoff(void **state) {
  (void)state;
  kernel(SHIM_PANTHOR_V6, "reset_at=2");
  struct capture_sink c;
  capture_sink_init(&c);
  int rc;
  void *inst = instance("4", NULL, NULL, &rc);
  assert_int_equal(rc, 0);
  reads(inst, &c, 1);
  assert_true(panthor_perf_ops.read(inst, &c.base) < 0); /* the reset */
  assert_int_equal(shim_device_remove(path), 0);         /* the node is gone */
  fake_now += 1000000000ull;
  assert_true(panthor_perf_ops.read(inst, &c.base) < 0); /* tried, failed */
  assert_int_equal(shim_panthor_register(path, 128), 0);
  fake_now += 1500000000ull; /* 1.5 s of the 2 s backoff */
  assert_true(panthor_perf_ops.read(inst, &c.base) < 0);
  fake_now += 500000000ull;
  capture_sink_clear(&c);
  assert_int_equal(panthor_perf_ops.read(inst, &c.base), 0);
  assert_int_equal(field(&c, STREAM, "reopens"), 1);
  assert_int_equal(field(&c, STREAM, "samples"), 2);
  panthor_perf_ops.instance_free(inst);
  capture_sink_fini(&c);
}

static void pp_session_init__errors_in_words(void **state) {
  (void)state;
  int rc;
  kernel(SHIM_PANTHOR_NONE, NULL);
  void *inst = instance("4", NULL, NULL, &rc);
  assert_int_equal(rc, -EOPNOTSUPP);
  assert_non_null(strstr(logged, "no performance counter uAPI"));
  assert_non_null(strstr(logged, "drm_fdinfo still reports panthor engine"));
  struct shim_panthor_stats st;
  shim_panthor_get_stats(&st);
  assert_int_equal(st.stray_ioctls, 0); /* no PERF_CONTROL number issued */
  panthor_perf_ops.instance_free(inst);

  logged[0] = '\0';
  kernel(SHIM_PANTHOR_V6, "others=2");
  inst = instance("4", NULL, NULL, &rc);
  assert_int_equal(rc, -EBUSY);
  assert_non_null(strstr(logged, "two perf sessions are already open"));
  panthor_perf_ops.instance_free(inst);

  logged[0] = '\0';
  kernel(SHIM_PANTHOR_V6, "unprivileged");
  inst = instance("4", NULL, "secondary", &rc);
  assert_int_equal(rc, -EACCES);
  assert_non_null(strstr(logged, "secondary needs CAP_PERFMON"));
  panthor_perf_ops.instance_free(inst);
  shim_panthor_get_stats(&st);
  assert_int_equal(st.sessions, 0);
  assert_int_equal(st.bos, 0);

  logged[0] = '\0';
  kernel(SHIM_PANTHOR_V6, "size_skew=4096");
  inst = instance("4", NULL, NULL, &rc);
  assert_int_equal(rc, -ENOMEM);
  assert_non_null(strstr(logged, "SETUP: Cannot allocate memory: the kernel "
                                 "refused the 57344-byte ring (4 slots of "
                                 "13680 bytes): ring sizing mismatch"));
  panthor_perf_ops.instance_free(inst);

  logged[0] = '\0';
  kernel(SHIM_PANTHOR_V6, "header_pad=8192");
  inst = instance("4", NULL, NULL, &rc);
  assert_int_equal(rc, -EPROTO); /* the kernel's answer: not -EINVAL */
  assert_null(strstr(logged, "configuration error"));
  assert_non_null(strstr(logged, "perf_info: "));
  assert_non_null(strstr(logged, "8248")); /* the absurd header size */
  panthor_perf_ops.instance_free(inst);
  shim_panthor_get_stats(&st);
  assert_int_equal(st.stray_ioctls, 0);

  logged[0] = '\0';
  kernel(SHIM_PANTHOR_V6, NULL);
  inst = instance("4", "rfc-v2", NULL, &rc);
  assert_int_equal(rc, -EPROTO);
  assert_non_null(strstr(logged, "UAPI rfc-v2 asks for a 48-byte perf_info "
                                 "but the kernel has 44 bytes"));
  panthor_perf_ops.instance_free(inst);
  inst = instance("4", "v6", NULL, &rc);
  assert_int_equal(rc, 0);
  panthor_perf_ops.instance_free(inst);
}

static void pp_session_read__corrupt_insert_not_followed(void **state) {
  (void)state;
  kernel(SHIM_PANTHOR_V6, "corrupt_at=3");
  struct capture_sink c;
  capture_sink_init(&c);
  int rc;
  void *inst = instance("4", NULL, NULL, &rc);
  assert_int_equal(rc, 0);
  reads(inst, &c, 2);
  assert_int_equal(panthor_perf_ops.read(inst, &c.base), -EPROTO);
  assert_non_null(strstr(logged, "insert index 7, out of range for 4 slots"));
  panthor_perf_ops.instance_free(inst);
  capture_sink_fini(&c);
}

/* Two instances on one node: one kernel session, every sample to both. */
static void pp_session_init__shared_by_two_instances(void **state) {
  (void)state;
  kernel(SHIM_PANTHOR_V6, NULL);
  struct capture_sink a, b;
  capture_sink_init(&a);
  capture_sink_init(&b);
  int rc;
  void *x = instance("8", NULL, NULL, &rc);
  assert_int_equal(rc, 0);
  void *y = instance("8", NULL, NULL, &rc);
  assert_int_equal(rc, 0);
  struct shim_panthor_stats st;
  shim_panthor_get_stats(&st);
  assert_int_equal(st.sessions, 1);
  assert_null(strstr(logged, "sharing its session"));
  void *z = instance("16", NULL, NULL, &rc); /* other RingSlots: said */
  assert_int_equal(rc, 0);
  assert_non_null(strstr(logged, "another instance already reads this node: "
                                 "sharing its session (UAPI v6, CounterSet "
                                 "primary, RingSlots 8)"));
  panthor_perf_ops.instance_free(z);
  for (int i = 0; i < 50; i++) {
    reads(x, &a, 1);
    reads(y, &b, 1);
  }
  /* x saw its 50 samples and y's first 49; y saw all 100 */
  assert_int_equal(field(&a, STREAM, "samples"), 99);
  assert_int_equal(field(&b, STREAM, "samples"), 100);
  assert_int_equal(field(&b, PERF, "gpu_active_cycles"), 4 * 100);
  assert_int_equal(field(&a, STREAM, "dropped"), 0);
  assert_int_equal(field(&b, STREAM, "dropped"), 0);
  panthor_perf_ops.instance_free(x);
  shim_panthor_get_stats(&st);
  assert_int_equal(st.sessions, 1);
  reads(y, &b, 1);
  assert_int_equal(field(&b, STREAM, "samples"), 101);
  panthor_perf_ops.instance_free(y);
  shim_panthor_get_stats(&st);
  assert_int_equal(st.sessions, 0);
  capture_sink_fini(&a);
  capture_sink_fini(&b);
}

/* Sharing is the host's: instances handed another registry (another
 * process or plugin context), or none, get their own kernel session. No
 * list outside the hosts' registries remembers the node. */
static void pp_session_init__shared_per_host_registry(void **state) {
  (void)state;
  kernel(SHIM_PANTHOR_V6, NULL);
  int rc;
  void *x = instance("8", NULL, NULL, &rc);
  assert_int_equal(rc, 0);
  struct plugin_host other = host;
  struct plugin_shared other_shared;
  plugin_shared_init(&other_shared);
  other.shared = &other_shared;
  void *y = panthor_perf_ops.instance_new("t");
  option(y, "Device", path);
  assert_int_equal(panthor_perf_ops.init(y, &other), 0);
  struct shim_panthor_stats st;
  shim_panthor_get_stats(&st);
  assert_int_equal(st.sessions, 2);
  assert_non_null(plugin_shared_find(&other_shared, path));
  panthor_perf_ops.instance_free(y);
  assert_null(other_shared.head);
  plugin_shared_fini(&other_shared);
  other.shared = NULL; /* nothing shared: the instance's own */
  y = panthor_perf_ops.instance_new("t");
  option(y, "Device", path);
  assert_int_equal(panthor_perf_ops.init(y, &other), 0);
  shim_panthor_get_stats(&st);
  assert_int_equal(st.sessions, 2);
  panthor_perf_ops.instance_free(y);
  panthor_perf_ops.instance_free(x);
  shim_panthor_get_stats(&st);
  assert_int_equal(st.sessions, 0);
}

/* Bug: once discovery had found a node it never looked again, so a GPU
 * bound later (eGPU, VFIO hand-back, driver reload) was never read and a
 * removed one never ended. Now each read lists DevRoot/dri: a removed node
 * ends its series at that read (one INFO line), one that comes back (a new
 * inode) starts from a fresh base, and a renamed minor is the old device
 * gone and a new one come. */
static void pp_hotplug__gone_back_renamed(void **state) {
  (void)state;
  kernel(SHIM_PANTHOR_V6, "teardown_fixed");
  char other[700];
  snprintf(other, sizeof(other), "%s/renderD129", dri);
  assert_int_equal(shim_panthor_register(other, 129), 0);
  void *inst = panthor_perf_ops.instance_new("t");
  option(inst, "DevRoot", fp.root);
  assert_int_equal(panthor_perf_ops.init(inst, &host), 0);
  assert_non_null(strstr(logged, "panthor_perf: renderD128: init: Mali-G720"));
  struct capture_sink c;
  capture_sink_init(&c);
  reads(inst, &c, 3);
  assert_int_equal(field(&c, STREAM, "samples"), 3);
  assert_int_equal(field(&c, PERF, "gpu_active_cycles"), 12);

  logged[0] = '\0';
  assert_int_equal(unlink(path), 0);
  reads(inst, &c, 1);
  assert_int_equal(c.n_lines, 0); /* its series end at once */
  char want[1024];
  snprintf(want, sizeof(want),
           "panthor_perf: renderD128: gone: %s was removed; its series end "
           "(a node that comes back is a new device, its counters from 0)\n",
           path);
  assert_string_equal(logged, want);
  struct shim_panthor_stats st;
  shim_panthor_get_stats(&st);
  assert_int_equal(st.sessions, 0); /* ended while the ioctls still work */

  logged[0] = '\0';
  close(open(path, O_CREAT | O_WRONLY, 0644)); /* back: a new inode */
  reads(inst, &c, 1);
  snprintf(want, sizeof(want),
           "panthor_perf: renderD128: appeared: %s: ", path);
  assert_non_null(strstr(logged, want));
  assert_null(strchr(strchr(logged, '\n') + 1, '\n')); /* one line */
  /* a fresh base: the first read after the gap counts one sample */
  assert_int_equal(field(&c, STREAM, "samples"), 1);
  assert_int_equal(field(&c, PERF, "gpu_active_cycles"), 4);
  reads(inst, &c, 1);
  assert_int_equal(field(&c, PERF, "gpu_active_cycles"), 8);

  logged[0] = '\0';
  assert_int_equal(unlink(path), 0); /* the minor renamed: 128 -> 129 */
  close(open(other, O_CREAT | O_WRONLY, 0644));
  reads(inst, &c, 1);
  assert_non_null(strstr(logged, "panthor_perf: renderD128: gone: "));
  assert_non_null(strstr(logged, "panthor_perf: renderD129: appeared: "));
  assert_null(capture_sink_find(&c, "panthor_perf,device=renderD128,"));
  assert_non_null(capture_sink_find(&c, "panthor_perf,device=renderD129,"));
  assert_int_equal(field(&c, STREAM, "samples"), 1);
  panthor_perf_ops.instance_free(inst);
  capture_sink_fini(&c);
  shim_panthor_get_stats(&st);
  assert_int_equal(st.sessions, 0);
  assert_int_equal(shim_device_remove(other), 0);
  unlink(other);
  close(open(path, O_CREAT | O_WRONLY, 0644)); /* as setup left it */
}

/* Bug: with no panthor node (no /dev/dri at all on most machines) init
 * failed with an error, so collectd said its init callbacks failed.
 * Discovery finding nothing is one line naming what was looked for (a
 * WARNING here: a configured DevRoot that holds no render node at all is
 * a wrong path more likely than a machine without the GPU), reads that
 * collect nothing and succeed, and the next read after a node appeared
 * opens it. A Device named explicitly and missing stays an error naming
 * it. */
static void pp_init__nothing_found_is_said_then_relook(void **state) {
  (void)state;
  kernel(SHIM_PANTHOR_V6, NULL);
  char root[600], later_dri[700], node[800];
  snprintf(root, sizeof(root), "%s/later", fp.root);
  snprintf(later_dri, sizeof(later_dri), "%s/dri", root);
  snprintf(node, sizeof(node), "%s/renderD130", later_dri);
  void *inst = panthor_perf_ops.instance_new("t");
  option(inst, "DevRoot", root);
  uint64_t t0 = fake_now;
  assert_int_equal(panthor_perf_ops.init(inst, &host), 0);
  char want[1024];
  snprintf(want, sizeof(want),
           "panthor_perf: %s: DevRoot: No such file or directory: no render "
           "node (renderD*) here; looking again at every read\n",
           later_dri);
  assert_string_equal(logged, want);
  struct capture_sink c;
  capture_sink_init(&c);
  fake_now = t0 + 1000000000ull; /* still nothing */
  assert_int_equal(panthor_perf_ops.read(inst, &c.base), 0);
  assert_int_equal(c.n_lines, 0);
  assert_string_equal(logged, want); /* the miss is not said again */
  mkdir(root, 0755);
  mkdir(later_dri, 0755);
  close(open(node, O_CREAT | O_WRONLY, 0644));
  assert_int_equal(shim_panthor_register(node, 130), 0);
  fake_now = t0 + 1000000001ull; /* the next read, whatever the backoff */
  assert_int_equal(panthor_perf_ops.read(inst, &c.base), 0);
  snprintf(want + strlen(want), sizeof(want) - strlen(want),
           "panthor_perf: renderD130: appeared: %s: Mali-G720", node);
  assert_non_null(strstr(logged, want));
  assert_null(strstr(logged, "error"));
  capture_sink_clear(&c);
  reads(inst, &c, 1);
  assert_int_equal(field(&c, STREAM, "samples"), 2);
  panthor_perf_ops.instance_free(inst);
  capture_sink_fini(&c);
  assert_int_equal(shim_device_remove(node), 0);

  logged[0] = '\0';
  inst = panthor_perf_ops.instance_new("t");
  snprintf(node, sizeof(node), "%s/renderD131", later_dri);
  option(inst, "Device", node);
  assert_int_equal(panthor_perf_ops.init(inst, &host), -ENOENT);
  snprintf(want, sizeof(want), "panthor_perf: %s: open: No such file", node);
  assert_non_null(strstr(logged, want));
  panthor_perf_ops.instance_free(inst);
}

/* The end of a session as the kernel runs it: STOP, its final sample
 * waited for and consumed, then one TEARDOWN. With the reviewed check
 * (EBUSY while a request is pending) and the IRQ coming only while we
 * wait, that frees the session; a TEARDOWN right after STOP would leak it. */
static void pp_session_free__final_sample_then_one_teardown(void **state) {
  (void)state;
  kernel(SHIM_PANTHOR_V6, "teardown_fixed,irq_late");
  struct capture_sink c;
  capture_sink_init(&c);
  int rc;
  void *inst = instance("8", NULL, NULL, &rc);
  assert_int_equal(rc, 0);
  reads(inst, &c, 5);
  assert_int_equal(field(&c, STREAM, "samples"), 5);
  panthor_perf_ops.instance_free(inst);
  struct shim_panthor_stats st;
  shim_panthor_get_stats(&st);
  assert_int_equal(st.sessions, 0);
  assert_int_equal(st.orphans, 0);
  assert_int_equal(st.teardowns, 1);
  assert_int_equal(st.teardown_oops, 0);
  assert_int_equal(st.samples_written, 5 + 1); /* STOP's too */
  assert_int_equal(st.bos, 0);
  assert_null(strstr(logged, "TEARDOWN"));
  capture_sink_fini(&c);
}

/* An instance that joins with counters the session's first user did not
 * ask for: no second SETUP (every counter is enabled from the start), so
 * no TEARDOWN of a running session either. */
static void pp_session_start__joining_instance_no_new_setup(void **state) {
  (void)state;
  kernel(SHIM_PANTHOR_V6, "teardown_fixed,irq_late");
  struct capture_sink c;
  capture_sink_init(&c);
  int rc;
  void *x = instance("8", NULL, NULL, &rc);
  assert_int_equal(rc, 0);
  reads(x, &c, 2);
  void *y = panthor_perf_ops.instance_new("t");
  option(y, "Device", path);
  option(y, "Counter", "shader:60");
  assert_int_equal(panthor_perf_ops.init(y, &host), 0);
  reads(y, &c, 1);
  /* shader 60 at rate 60 x (1 + ... + 8) over the one period since y
   * joined */
  assert_int_equal(field(&c, "panthor_perf_raw,", "value"), 60ull * 36);
  struct shim_panthor_stats st;
  shim_panthor_get_stats(&st);
  assert_int_equal(st.setups, 1);
  assert_int_equal(st.teardowns, 0);
  panthor_perf_ops.instance_free(y);
  panthor_perf_ops.instance_free(x);
  shim_panthor_get_stats(&st);
  assert_int_equal(st.teardowns, 1);
  assert_int_equal(st.orphans, 0);
  capture_sink_fini(&c);
}

/* The v5/v6-era check refuses a TEARDOWN once STOP's sample is in: the
 * session stays with the kernel, which the log says with its cost; the
 * id is never torn down twice (a NULL dereference there). */
static void pp_session_free__refused_teardown_said(void **state) {
  (void)state;
  kernel(SHIM_PANTHOR_V6, NULL);
  struct capture_sink c;
  capture_sink_init(&c);
  int rc;
  void *inst = instance("8", NULL, "secondary", &rc);
  assert_int_equal(rc, 0);
  reads(inst, &c, 2);
  panthor_perf_ops.instance_free(inst);
  struct shim_panthor_stats st;
  shim_panthor_get_stats(&st);
  assert_int_equal(st.orphans, 1);
  assert_int_equal(st.teardown_oops, 0);
  assert_non_null(strstr(logged, "TEARDOWN: Device or resource busy: this "
                                 "kernel kept the perf session"));
  assert_non_null(strstr(logged, "counter set secondary stays taken"));
  capture_sink_fini(&c);
}

static void on_usr1(int sig) { (void)sig; }

struct poke {
  pthread_t target;
};

static void *poke_run(void *arg) {
  struct poke *k = arg;
  usleep(100000);
  pthread_kill(k->target, SIGUSR1);
  return NULL;
}

/* A signal while a read waits for its sample (SIGTERM in the executable)
 * ends the wait: it does not start the whole Timeout again. */
static void pp_session_read__signal_ends_the_wait(void **state) {
  (void)state;
  kernel(SHIM_PANTHOR_V6, "drop_every=1,teardown_fixed"); /* never comes */
  struct sigaction sa = {.sa_handler = on_usr1}, old;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGUSR1, &sa, &old); /* no SA_RESTART */
  struct capture_sink c;
  capture_sink_init(&c);
  void *inst = panthor_perf_ops.instance_new("t");
  option(inst, "Device", path);
  option(inst, "Timeout", "5000");
  assert_int_equal(panthor_perf_ops.init(inst, &host), 0);
  struct poke k = {.target = pthread_self()};
  pthread_t t;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  assert_int_equal(pthread_create(&t, NULL, poke_run, &k), 0);
  assert_int_equal(panthor_perf_ops.read(inst, &c.base), 0);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  pthread_join(t, NULL);
  double s =
      (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
  assert_true(s < 2.5); /* the old restart waited 5 s more */
  panthor_perf_ops.instance_free(inst);
  sigaction(SIGUSR1, &old, NULL);
  capture_sink_fini(&c);
}

struct reader {
  void *inst;
  int n, failed;
};

static void *reader_run(void *arg) {
  struct reader *r = arg;
  struct capture_sink c;
  capture_sink_init(&c);
  for (int i = 0; i < r->n; i++) {
    capture_sink_clear(&c);
    r->failed += panthor_perf_ops.read(r->inst, &c.base) != 0;
  }
  capture_sink_fini(&c);
  return NULL;
}

/* Two instances read one session from two threads at once (as collectd's
 * read threads do): every sample reaches both, none twice. */
static void pp_session_read__two_threads_one_session(void **state) {
  (void)state;
  kernel(SHIM_PANTHOR_V6, NULL);
  int rc;
  struct reader a = {.n = 500}, b = {.n = 500};
  a.inst = instance("8", NULL, NULL, &rc);
  assert_int_equal(rc, 0);
  b.inst = instance("8", NULL, NULL, &rc);
  assert_int_equal(rc, 0);
  pthread_t ta, tb;
  assert_int_equal(pthread_create(&ta, NULL, reader_run, &a), 0);
  assert_int_equal(pthread_create(&tb, NULL, reader_run, &b), 0);
  pthread_join(ta, NULL);
  pthread_join(tb, NULL);
  assert_int_equal(a.failed + b.failed, 0);
  struct capture_sink c;
  capture_sink_init(&c);
  reads(a.inst, &c, 1); /* all but b's next */
  assert_int_equal(field(&c, STREAM, "samples"), 1001);
  assert_int_equal(field(&c, PERF, "gpu_active_cycles"), 4 * 1001);
  reads(b.inst, &c, 1); /* all */
  assert_int_equal(field(&c, STREAM, "samples"), 1002);
  assert_int_equal(field(&c, STREAM, "dropped"), 0);
  assert_int_equal(field(&c, PERF, "gpu_active_cycles"), 4 * 1002);
  panthor_perf_ops.instance_free(a.inst);
  panthor_perf_ops.instance_free(b.inst);
  capture_sink_fini(&c);
}

static void pp_discovery__panthor_nodes_only(void **state) {
  (void)state;
  kernel(SHIM_PANTHOR_RFC_V2, NULL);
  char other[600];
  snprintf(other, sizeof(other), "%s/renderD129", dri); /* not a device */
  close(open(other, O_CREAT | O_WRONLY, 0644));
  void *inst = panthor_perf_ops.instance_new("t");
  option(inst, "DevRoot", fp.root);
  assert_int_equal(panthor_perf_ops.init(inst, &host), 0);
  struct capture_sink c;
  capture_sink_init(&c);
  reads(inst, &c, 1);
  assert_int_equal(capture_sink_count(&c, STREAM), 1);
  assert_non_null(capture_sink_find(&c, STREAM "device=renderD128 "));
  /* the ioctl that failed is named, not "open" */
  assert_non_null(strstr(logged, "renderD129: DRM_IOCTL_VERSION: "
                                 "Inappropriate ioctl for device"));
  assert_null(strstr(logged, "open: Inappropriate ioctl"));
  panthor_perf_ops.instance_free(inst);
  capture_sink_fini(&c);
  unlink(other);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(pp_session_read__exact_totals_v6, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(pp_session_read__exact_totals_rfc_v2,
                                      setup, teardown),
      cmocka_unit_test_setup_teardown(
          pp_session_read__exact_totals_padded_sizes, setup, teardown),
      cmocka_unit_test_setup_teardown(pp_session_read__drops_flags_and_busy,
                                      setup, teardown),
      cmocka_unit_test_setup_teardown(pp_session_read__reopen_with_backoff,
                                      setup, teardown),
      cmocka_unit_test_setup_teardown(
          pp_session_read__failed_reopen_doubles_backoff, setup, teardown),
      cmocka_unit_test_setup_teardown(pp_session_init__errors_in_words, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(
          pp_session_read__corrupt_insert_not_followed, setup, teardown),
      cmocka_unit_test_setup_teardown(pp_session_init__shared_by_two_instances,
                                      setup, teardown),
      cmocka_unit_test_setup_teardown(pp_session_init__shared_per_host_registry,
                                      setup, teardown),
      cmocka_unit_test_setup_teardown(
          pp_init__nothing_found_is_said_then_relook, setup, teardown),
      cmocka_unit_test_setup_teardown(pp_hotplug__gone_back_renamed, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(
          pp_session_free__final_sample_then_one_teardown, setup, teardown),
      cmocka_unit_test_setup_teardown(
          pp_session_start__joining_instance_no_new_setup, setup, teardown),
      cmocka_unit_test_setup_teardown(pp_session_free__refused_teardown_said,
                                      setup, teardown),
      cmocka_unit_test_setup_teardown(pp_session_read__signal_ends_the_wait,
                                      setup, teardown),
      cmocka_unit_test_setup_teardown(pp_session_read__two_threads_one_session,
                                      setup, teardown),
      cmocka_unit_test_setup_teardown(pp_discovery__panthor_nodes_only, setup,
                                      teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
