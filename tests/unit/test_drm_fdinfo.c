/*
 * test_drm_fdinfo.c: the drm_fdinfo core end to end on synthetic /proc and
 * /sys trees (tests/lib/fakeproc), with injected clocks: every utilisation
 * below is computed by hand from the counters and the 1 s steps.
 *
 * The trees hold real char device nodes (mknod), so these cases need root;
 * without it each case is skipped with the reason.
 */
#include "common/core/cfg.h"
#include "common/core/kernel.h"
#include "common/core/log.h"
#include "common/sink/sink_influx.h"
#include "common/sink/sink_json.h"
#include "plugins/drm_fdinfo/drm_fdinfo.h"
#include "tests/lib/capture_sink.h"
#include "tests/lib/dfi_fixture.h"
#include "tests/lib/fakeproc.h"
#include "tests/lib/test_host.h"

#include <errno.h>
#include <ftw.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

static void engine_time_and_capacity(void **state) {
  struct fixture *f = need_root(state);
  i915_device(f);
  fakeproc_process(&f->fp, 100, "glxgears", "/user.slice/a.scope");
  fakeproc_fd(&f->fp, 100, 3, "renderD128", fdinfo_i915(7, 1000, 0));
  start(f, NULL);
  read_at(f, 10);
  /* first sight: lifetime totals are history, no utilisation yet */
  expect_line(f, "drm_engine,scope=device,driver=i915,device=0000:00:02.0,"
                 "engine=render busy_ns=0i,capacity=1i");
  expect_line(f, "drm_clients,driver=i915,device=0000:00:02.0 "
                 "clients=1i,processes=1i,unreadable=0i");
  /* 0.5 s busy of render and 1 s of video (capacity 2) in 1 s */
  fakeproc_fdinfo(&f->fp, 100, 3, fdinfo_i915(7, 1000 + SEC / 2, SEC));
  read_at(f, 11);
  expect_line(f,
              "drm_engine,scope=device,driver=i915,device=0000:00:02.0,engine="
              "render busy_ns=500000000i,utilization=50.0,capacity=1i");
  expect_line(f,
              "drm_engine,scope=device,driver=i915,device=0000:00:02.0,engine="
              "video busy_ns=1000000000i,utilization=50.0,capacity=2i");
  expect_line(
      f,
      "drm_engine,scope=process,driver=i915,device=0000:00:02.0,engine=render,"
      "pid=100,comm=glxgears busy_ns=500000000i,utilization=50.0,capacity=1i");
  expect_line(f, "drm_memory,scope=device,driver=i915,device=0000:00:02.0,"
                 "region=system0 total_bytes=8388608i,resident_bytes=4194304i");
  expect_line(
      f,
      "drm_memory,scope=process,driver=i915,device=0000:00:02.0,region=system0,"
      "pid=100,comm=glxgears total_bytes=8388608i,resident_bytes=4194304i");
}

static void counters_backwards_hold(void **state) {
  struct fixture *f = need_root(state);
  i915_device(f);
  fakeproc_process(&f->fp, 100, "app", NULL);
  fakeproc_fd(&f->fp, 100, 3, "card0", fdinfo_i915(7, 1000, 0));
  start(f, "ReportBy", "Client", NULL);
  read_at(f, 1);
  fakeproc_fdinfo(&f->fp, 100, 3, fdinfo_i915(7, 2000, 0));
  read_at(f, 2);
  /* goes back to 1500: held at 2000, no progress */
  fakeproc_fdinfo(&f->fp, 100, 3, fdinfo_i915(7, 1500, 0));
  read_at(f, 3);
  expect_line(
      f,
      "drm_engine,scope=client,driver=i915,device=0000:00:02.0,engine=render,"
      "pid=100,client_id=7,comm=app busy_ns=2000i,utilization=0.0,capacity=1i");
  /* catches up to 2600: 600 ns of progress, not 1100 */
  fakeproc_fdinfo(&f->fp, 100, 3, fdinfo_i915(7, 2600, 0));
  read_at(f, 4);
  expect_line(f, "drm_engine,scope=client,driver=i915,device=0000:00:02.0,"
                 "engine=render,pid=100,client_id=7,comm=app "
                 "busy_ns=2600i,utilization=6e-05,capacity=1i");
}

static void shared_and_dup_counted_once(void **state) {
  struct fixture *f = need_root(state);
  i915_device(f);
  /* 100 and 101 share client 7 (fork); 100 also dup()ed it; 102 opened
   * the device on its own (client 8) */
  fakeproc_process(&f->fp, 100, "parent", NULL);
  fakeproc_process(&f->fp, 101, "child", NULL);
  fakeproc_process(&f->fp, 102, "other", NULL);
  fakeproc_fd(&f->fp, 100, 3, "card0", fdinfo_i915(7, 0, 0));
  fakeproc_fd(&f->fp, 100, 4, "card0", fdinfo_i915(7, 0, 0));
  fakeproc_fd(&f->fp, 101, 3, "card0", fdinfo_i915(7, 0, 0));
  fakeproc_fd(&f->fp, 102, 5, "renderD128", fdinfo_i915(8, 0, 0));
  start(f, NULL);
  read_at(f, 1);
  fakeproc_fdinfo(&f->fp, 100, 3, fdinfo_i915(7, SEC / 4, 0));
  fakeproc_fdinfo(&f->fp, 100, 4, fdinfo_i915(7, SEC / 4, 0));
  fakeproc_fdinfo(&f->fp, 101, 3, fdinfo_i915(7, SEC / 4, 0));
  read_at(f, 2);
  expect_line(f, "drm_clients,driver=i915,device=0000:00:02.0 "
                 "clients=2i,processes=2i,unreadable=0i");
  expect_line(f,
              "drm_engine,scope=device,driver=i915,device=0000:00:02.0,engine="
              "render busy_ns=250000000i,utilization=25.0,capacity=1i");
  /* attributed to the lowest pid holding it, once */
  expect_line(
      f,
      "drm_engine,scope=process,driver=i915,device=0000:00:02.0,engine=render,"
      "pid=100,comm=parent busy_ns=250000000i,utilization=25.0,capacity=1i");
  expect_no_line(
      f, "drm_engine,scope=process,driver=i915,device=0000:00:02.0,pid=101,");
  expect_line(f,
              "drm_memory,scope=device,driver=i915,device=0000:00:02.0,region="
              "system0 total_bytes=16777216i,resident_bytes=8388608i");
  /* the parent exits: the child inherits the attribution */
  fakeproc_process_remove(&f->fp, 100);
  fakeproc_fdinfo(&f->fp, 101, 3, fdinfo_i915(7, SEC / 2, 0));
  read_at(f, 3);
  expect_line(
      f,
      "drm_engine,scope=process,driver=i915,device=0000:00:02.0,engine=render,"
      "pid=101,comm=child busy_ns=250000000i,utilization=25.0,capacity=1i");
}

/* Attribution goes to the lowest pid, whatever order readdir returns the
 * processes in (the fake tree's directory order is a hash order). */
static void shared_fd_goes_to_lowest_pid(void **state) {
  struct fixture *f = need_root(state);
  i915_device(f);
  static const int pids[] = {1006, 1003, 1001, 1009, 1004};
  for (size_t i = 0; i < 5; i++) {
    char comm[16];
    snprintf(comm, sizeof(comm), "p%d", pids[i]);
    fakeproc_process(&f->fp, pids[i], comm, NULL);
    fakeproc_fd(&f->fp, pids[i], 5, "renderD128", fdinfo_i915(11, 0, 0));
  }
  start(f, NULL);
  read_at(f, 1);
  expect_line(f, "drm_engine,scope=process,driver=i915,device=0000:00:02.0,"
                 "engine=render,pid=1001,comm=p1001 busy_ns=0i,capacity=1i");
  assert_int_equal(capture_sink_count(&f->sink, "drm_engine,scope=process"),
                   2); /* render and video of one process */
}

static void client_exit_and_pid_reuse(void **state) {
  struct fixture *f = need_root(state);
  i915_device(f);
  fakeproc_process(&f->fp, 100, "first", NULL);
  fakeproc_fd(&f->fp, 100, 3, "card0", fdinfo_i915(7, 5 * SEC, 0));
  start(f, "FullScanInterval", "0", NULL);
  read_at(f, 1);
  fakeproc_process_remove(&f->fp, 100);
  fakeproc_process(&f->fp, 100, "second", NULL);
  fakeproc_fd(&f->fp, 100, 3, "card0", fdinfo_i915(9, 7 * SEC, 0));
  read_at(f, 2);
  /* a new client: its 7 s are history, not 2 s of progress */
  expect_line(f, "drm_engine,scope=process,driver=i915,device=0000:00:02.0,"
                 "engine=render,pid=100,comm=second busy_ns=0i,capacity=1i");
  expect_no_line(f, "drm_engine,scope=process,driver=i915,device=0000:00:02.0,"
                    "pid=100,comm=first");
  expect_line(f, "drm_clients,driver=i915,device=0000:00:02.0 clients=1i,");
}

/* A new process under a reused pid is a new process series (its start
 * time differs), whether the pid was reused between two reads or came
 * back later: its counters never continue, nor restart, the old series. */
static void reused_pid_is_a_new_series(void **state) {
  struct fixture *f = need_root(state);
  i915_device(f);
  fakeproc_process(&f->fp, 100, "app", NULL);
  proc_stat(f, 100, 1000);
  fakeproc_fd(&f->fp, 100, 3, "card0", fdinfo_i915(7, 5 * SEC, 0));
  start(f, "FullScanInterval", "0", NULL);
  read_at(f, 1);
  fakeproc_fdinfo(&f->fp, 100, 3, fdinfo_i915(7, 6 * SEC, 0));
  read_at(f, 2);
  expect_line(f,
              "drm_engine,scope=process,driver=i915,device=0000:00:02.0,engine="
              "render,pid=100,pid_start=1000,comm=app busy_ns=1000000000i,");
  /* pid 100 exits; a new "app" gets pid 100 before the next read */
  fakeproc_process_remove(&f->fp, 100);
  fakeproc_process(&f->fp, 100, "app", NULL);
  proc_stat(f, 100, 2000);
  fakeproc_fd(&f->fp, 100, 3, "card0", fdinfo_i915(9, 3 * SEC, 0));
  read_at(f, 3);
  expect_line(f, "drm_engine,scope=process,driver=i915,device=0000:00:02.0,"
                 "engine=render,pid=100,pid_start=2000,comm=app busy_ns=0i,");
  expect_no_line(f, "drm_engine,scope=process,driver=i915,device=0000:00:02.0,"
                    "pid=100,pid_start=1000");
}

static void xe_text(char *text, size_t size, unsigned long long rcs,
                    unsigned long long rcs_total, unsigned long long ccs,
                    unsigned long long ccs_total) {
  snprintf(text, size,
           "drm-driver: xe\ndrm-client-id: 3\ndrm-pdev: "
           "0000:03:00.0\ndrm-cycles-rcs: %llu\ndrm-total-cycles-rcs: "
           "%llu\ndrm-cycles-ccs: %llu\ndrm-total-cycles-ccs: "
           "%llu\ndrm-engine-capacity-ccs: 4\n",
           rcs, rcs_total, ccs, ccs_total);
}

static void msm_text(char *text, size_t size, unsigned long long cycles) {
  snprintf(text, size,
           "drm-driver:\tmsm\ndrm-client-id:\t7\ndrm-cycles-gpu:\t%llu\ndrm-"
           "maxfreq-gpu:\t800 MHz\n",
           cycles);
}

static void xe_cycles_and_suspended(void **state) {
  struct fixture *f = need_root(state);
  fakeproc_device(&f->fp, 226, 1, "card1", "0000:03:00.0", "xe");
  fakeproc_runtime_status(&f->fp, "0000:03:00.0", "active\n");
  fakeproc_process(&f->fp, 200, "xe-app", NULL);

  char text[512];
  xe_text(text, sizeof(text), 100, 1000, 0, 1000);
  fakeproc_fd(&f->fp, 200, 3, "card1", text);
  start(f, NULL);
  read_at(f, 1);
  xe_text(text, sizeof(text), 350, 2000, 1000, 2000);
  fakeproc_fdinfo(&f->fp, 200, 3, text);
  read_at(f, 2);
  expect_line(
      f, "drm_engine,scope=device,driver=xe,device=0000:03:00.0,engine=rcs "
         "utilization=25.0,capacity=1i,cycles=250i,total_cycles=1000i");
  expect_line(
      f, "drm_engine,scope=device,driver=xe,device=0000:03:00.0,engine=ccs "
         "utilization=25.0,capacity=4i,cycles=1000i,total_cycles=1000i");
  /* runtime-suspended: not read (that would wake it), reported idle */
  fakeproc_runtime_status(&f->fp, "0000:03:00.0", "suspended\n");
  xe_text(text, sizeof(text), 9350, 10000, 1000, 10000);
  fakeproc_fdinfo(&f->fp, 200, 3, text);
  read_at(f, 3);
  expect_line(f,
              "drm_engine,scope=device,driver=xe,device=0000:03:00.0,engine="
              "rcs utilization=0.0,capacity=1i,cycles=250i,total_cycles=1000i");
  expect_line(f, "drm_scan processes=0i,fds=0i,fdinfo_reads=0i,clients=1i");
}

/* Two xe clients: cycles add up, the shared GPU timestamp does not. */
static void xe_two_clients_share_the_timestamp(void **state) {
  struct fixture *f = need_root(state);
  fakeproc_device(&f->fp, 226, 1, "card1", "0000:03:00.0", "xe");
  fakeproc_process(&f->fp, 200, "a", NULL);
  fakeproc_process(&f->fp, 201, "b", NULL);
  char text[512];
  xe_text(text, sizeof(text), 0, 1000, 0, 1000);
  fakeproc_fd(&f->fp, 200, 3, "card1", text);
  fakeproc_fd(&f->fp, 201, 3, "card1",
              "drm-driver: xe\ndrm-client-id: 4\ndrm-pdev: "
              "0000:03:00.0\ndrm-cycles-rcs: 0\ndrm-total-cycles-rcs: 1000\n");
  start(f, NULL);
  read_at(f, 1);
  xe_text(text, sizeof(text), 300, 2000, 0, 2000);
  fakeproc_fdinfo(&f->fp, 200, 3, text);
  fakeproc_fdinfo(
      &f->fp, 201, 3,
      "drm-driver: xe\ndrm-client-id: 4\ndrm-pdev: "
      "0000:03:00.0\ndrm-cycles-rcs: 200\ndrm-total-cycles-rcs: 2000\n");
  read_at(f, 2);
  /* 300 + 200 busy cycles of 1000 GPU clock cycles: 50 %, and the row's
   * own counters give the same ratio */
  expect_line(
      f, "drm_engine,scope=device,driver=xe,device=0000:03:00.0,engine=rcs "
         "utilization=50.0,capacity=1i,cycles=500i,total_cycles=1000i");
}

static void xe_wake_suspended_option(void **state) {
  struct fixture *f = need_root(state);
  fakeproc_device(&f->fp, 226, 1, "card1", "0000:03:00.0", "xe");
  fakeproc_runtime_status(&f->fp, "0000:03:00.0", "suspended\n");
  fakeproc_process(&f->fp, 200, "xe-app", NULL);
  fakeproc_fd(&f->fp, 200, 3, "card1",
              "drm-driver: xe\ndrm-client-id: 3\ndrm-pdev: "
              "0000:03:00.0\ndrm-total-vram0: 4 KiB\n");
  start(f, "WakeSuspended", "true", NULL);
  read_at(f, 1);
  expect_line(f, "drm_memory,scope=device,driver=xe,device=0000:03:00.0,region="
                 "vram0 total_bytes=4096i");
}

static void msm_cycles_over_maxfreq(void **state) {
  struct fixture *f = need_root(state);
  fakeproc_device(&f->fp, 226, 128, "renderD128", "ae00000.gpu", "msm");
  fakeproc_process(&f->fp, 300, "glmark2", NULL);

  char text[256];
  msm_text(text, sizeof(text), 1000);
  fakeproc_fd(&f->fp, 300, 6, "renderD128", text);
  start(f, NULL);
  read_at(f, 1);
  /* 200e6 cycles in 1 s at 800 MHz max = 25 % */
  msm_text(text, sizeof(text), 1000 + 200000000ull);
  fakeproc_fdinfo(&f->fp, 300, 6, text);
  read_at(f, 2);
  expect_line(f, "drm_engine,scope=device,driver=msm,device=ae00000.gpu,engine="
                 "gpu utilization=25.0,capacity=1i,cycles=200000000i");
}

static void accel_and_multi_driver(void **state) {
  struct fixture *f = need_root(state);
  i915_device(f);
  fakeproc_device(&f->fp, 261, 0, "accel0", "0000:c5:00.1", "amdxdna");
  fakeproc_device(&f->fp, 226, 129, "renderD129", "fde60000.gpu", "panfrost");
  fakeproc_process(&f->fp, 100, "game", NULL);
  fakeproc_process(&f->fp, 400, "npu-infer", NULL);
  fakeproc_fd(&f->fp, 100, 3, "card0", fdinfo_i915(7, 0, 0));
  fakeproc_fd(
      &f->fp, 100, 9, "renderD129",
      "drm-driver: panfrost\ndrm-client-id: 14\ndrm-engine-fragment: 10 ns\n");
  fakeproc_fd(&f->fp, 400, 4, "accel0",
              "drm-driver: amdxdna_accel_driver\ndrm-client-id: "
              "1\ndrm-engine-npu-amdxdna: 0 ns\ndrm-total-memory: 0\n");
  fakeproc_fd(&f->fp, 400, 5, NULL, "pos: 0\nflags: 0\n");
  start(f, NULL);
  read_at(f, 1);
  expect_line(f, "drm_clients,driver=amdxdna_accel_driver,device=0000:c5:00.1 "
                 "clients=1i,processes=1i");
  expect_line(f, "drm_clients,driver=panfrost,device=fde60000.gpu "
                 "clients=1i,processes=1i");
  expect_line(
      f, "drm_clients,driver=i915,device=0000:00:02.0 clients=1i,processes=1i");
  expect_line(
      f, "drm_memory,scope=process,driver=amdxdna_accel_driver,device=0000:c5:"
         "00.1,region=memory,pid=400,comm=npu-infer total_bytes=0i");
  expect_line(
      f,
      "drm_scan processes=2i,fds=4i,fdinfo_reads=3i,clients=3i,unreadable=0i");
}

static void filters(void **state) {
  struct fixture *f = need_root(state);
  i915_device(f);
  fakeproc_device(&f->fp, 226, 129, "renderD129", "fde60000.gpu", "panfrost");
  fakeproc_process(&f->fp, 100, "glxgears", NULL);
  fakeproc_process(&f->fp, 101, "firefox", NULL);
  fakeproc_fd(&f->fp, 100, 3, "card0", fdinfo_i915(7, 0, 0));
  fakeproc_fd(&f->fp, 100, 4, "renderD129",
              "drm-driver: panfrost\ndrm-client-id: 2\n");
  fakeproc_fd(&f->fp, 101, 3, "card0", fdinfo_i915(8, 0, 0));
  start(f, "ProcessMatch", "^glx", "Driver", "i915", NULL);
  read_at(f, 1);
  expect_line(
      f, "drm_clients,driver=i915,device=0000:00:02.0 clients=1i,processes=1i");
  expect_no_line(f, "drm_clients,driver=panfrost");
  expect_no_line(
      f, "drm_engine,scope=process,driver=i915,device=0000:00:02.0,pid=101");
}

static void cgroup_and_client_scopes(void **state) {
  struct fixture *f = need_root(state);
  i915_device(f);
  fakeproc_process(&f->fp, 100, "ctr-app", "/kubepods/pod1/ctr");
  fakeproc_fd(&f->fp, 100, 3, "card0", fdinfo_i915(7, 0, 0));
  start(f, "ReportBy", "Cgroup", "ReportBy", "Client", NULL);
  read_at(f, 1);
  expect_line(f,
              "drm_engine,scope=cgroup,driver=i915,device=0000:00:02.0,engine="
              "render,cgroup=/kubepods/pod1/ctr busy_ns=0i,capacity=1i");
  expect_line(f,
              "drm_engine,scope=client,driver=i915,device=0000:00:02.0,engine="
              "render,pid=100,client_id=7,comm=ctr-app busy_ns=0i,capacity=1i");
  /* ReportBy given: Device and Process are no longer implied */
  expect_no_line(f, "drm_engine,scope=device");
  expect_no_line(f, "drm_engine,scope=process");
}

/* Two Kubernetes-length cgroup paths equal in their first 300 bytes stay
 * two cgroup series: a cut path ends in "~" and a hash of the whole. */
static void long_cgroups_stay_distinct(void **state) {
  struct fixture *f = need_root(state);
  i915_device(f);
  char a[400], b[400];
  char pod[301];
  memset(pod, 'p', 300);
  pod[300] = '\0';
  snprintf(a, sizeof(a), "/kubepods/%s/ctr-a", pod);
  snprintf(b, sizeof(b), "/kubepods/%s/ctr-b", pod);
  fakeproc_process(&f->fp, 100, "x", a);
  fakeproc_process(&f->fp, 200, "y", b);
  fakeproc_fd(&f->fp, 100, 3, "card0", fdinfo_i915(7, 0, 0));
  fakeproc_fd(&f->fp, 200, 3, "card0", fdinfo_i915(8, 0, 0));
  start(f, "ReportBy", "Cgroup", NULL);
  read_at(f, 1);
  /* two cgroups x two engines (merged cgroups would give 2) */
  assert_int_equal(
      capture_sink_count(&f->sink, "drm_engine,scope=cgroup,driver=i915,"), 4);
  const char *one = capture_sink_find(&f->sink, "drm_engine,scope=cgroup");
  const char *tag = strstr(one, "cgroup=/kubepods/pppp");
  assert_non_null(tag);
  const char *tilde = strchr(tag, '~');
  assert_non_null(tilde);
  assert_int_equal(tilde - (tag + strlen("cgroup=")), 255 - 17);
  assert_int_equal(strspn(tilde + 1, "0123456789abcdef"), 16);
}

/* Messages of the plugin, kept for assertions (the last 8). */
static char logged[8][512];
static size_t n_logged;
static void keep_log(enum log_level level, const char *message) {
  (void)level;
  snprintf(logged[n_logged++ % 8], sizeof(logged[0]), "%s", message);
}

/* Values that do not parse are counted and said once, naming the file
 * and the key; unknown drm-* keys are counted. */
static void malformed_values_reported(void **state) {
  struct fixture *f = need_root(state);
  i915_device(f);
  fakeproc_process(&f->fp, 100, "a", NULL);
  fakeproc_fd(&f->fp, 100, 3, "card0",
              "drm-driver: i915\ndrm-client-id: 7\ndrm-total-vram: 1 "
              "KIB\ndrm-engine-render: 5 us\ndrm-frobnicate: 1\ndrm-total-gtt: "
              "4 KiB\n");
  start(f, NULL);
  n_logged = 0;
  log_set_sink(keep_log, LOG_LEVEL_WARNING);
  read_at(f, 1);
  read_at(f, 2);
  log_set_sink(NULL, LOG_LEVEL_DEBUG);
  expect_line(f, "drm_scan "
                 "processes=0i,fds=0i,fdinfo_reads=1i,clients=1i,unreadable=0i,"
                 "clients_untracked=0i,processes_unreported=0i,oversized=0i,"
                 "malformed=2i,unknown_keys=1i");
  assert_int_equal(n_logged, 1); /* once, not at every read */
  assert_string_equal(
      logged[0],
      "drm_fdinfo: pid 100 fd 3: drm-total-vram: malformed value (2 in this "
      "file); such values are skipped and counted in drm_scan.malformed");
  expect_line(f, "drm_memory,scope=process,driver=i915,device=0000:00:02.0,"
                 "region=gtt,pid=100,comm=a total_bytes=4096i");
}

static int rm_entry(const char *path, const struct stat *st, int flag,
                    struct FTW *ftw) {
  (void)st;
  (void)flag;
  (void)ftw;
  return remove(path);
}

/* The class entries of card0 and renderD128 go, as drm_dev_unregister
 * removes them. */
static void i915_device_remove(struct fixture *f) {
  static const char *const minors[] = {"class/drm/card0",
                                       "class/drm/renderD128"};
  for (size_t i = 0; i < 2; i++) {
    char path[600];
    snprintf(path, sizeof(path), "%s/%s", f->fp.sys, minors[i]);
    assert_int_equal(nftw(path, rm_entry, 8, FTW_DEPTH | FTW_PHYS), 0);
  }
}

/* Bug: drm_fdinfo learned its devices at init and from clients' fds and
 * never let one go: an unplugged GPU reported clients=0 for ever, a GPU
 * bound later and idle was never reported. Each read lists the sysfs DRM
 * class: a device whose minors went ends its series at that read (its
 * clients with it), one that comes back (a new registration, here under
 * another minor number) is reported again, its clients counted from their
 * first read; one INFO line each way per device. */
static void devices_come_and_go(void **state) {
  struct fixture *f = need_root(state);
  i915_device(f);
  fakeproc_process(&f->fp, 100, "app", NULL);
  fakeproc_fd(&f->fp, 100, 3, "renderD128", fdinfo_i915(7, 1000, 0));
  start(f, NULL);
  read_at(f, 1);
  expect_line(f, "drm_clients,driver=i915,device=0000:00:02.0 "
                 "clients=1i,processes=1i,unreadable=0i");
  n_logged = 0;
  log_set_sink(keep_log, LOG_LEVEL_INFO);
  i915_device_remove(f);
  read_at(f, 2);
  expect_no_line(f, "drm_clients,");
  expect_no_line(f, "drm_engine,");
  expect_line(f, "drm_scan processes=0i,fds=0i,fdinfo_reads=0i,clients=0i");
  assert_int_equal(n_logged, 1);
  /* named by the minor that went last (listing order) */
  assert_true(strcmp(logged[0], "drm_fdinfo: 0000:00:02.0: gone: renderD128 "
                                "unregistered; the device's series end") == 0 ||
              strcmp(logged[0], "drm_fdinfo: 0000:00:02.0: gone: card0 "
                                "unregistered; the device's series end") == 0);
  read_at(f, 3);
  assert_int_equal(n_logged, 1); /* said once */
  expect_no_line(f, "drm_clients,");

  /* registered again, under other minors (card1, renderD129), idle */
  assert_int_equal(
      fakeproc_device(&f->fp, 226, 1, "card1", "0000:00:02.0", "i915"), 0);
  assert_int_equal(
      fakeproc_device(&f->fp, 226, 129, "renderD129", "0000:00:02.0", "i915"),
      0);
  read_at(f, 4);
  assert_int_equal(n_logged, 2);
  assert_true(
      strcmp(logged[1], "drm_fdinfo: 0000:00:02.0: appeared: card1 (drm, "
                        "driver i915)") == 0 ||
      strcmp(logged[1], "drm_fdinfo: 0000:00:02.0: appeared: renderD129 "
                        "(drm, driver i915)") == 0);
  expect_line(f, "drm_clients,driver=i915,device=0000:00:02.0 "
                 "clients=0i,processes=0i,unreadable=0i");
  /* a client of the new minor: a new client, from its first read */
  fakeproc_process(&f->fp, 101, "app2", NULL);
  fakeproc_fd(&f->fp, 101, 3, "renderD129", fdinfo_i915(8, 5 * SEC, 0));
  read_at(f, 5);
  expect_line(f, "drm_engine,scope=device,driver=i915,device=0000:00:02.0,"
                 "engine=render busy_ns=0i,capacity=1i");
  fakeproc_fdinfo(&f->fp, 101, 3, fdinfo_i915(8, 5 * SEC + SEC / 2, 0));
  read_at(f, 6);
  expect_line(f, "drm_engine,scope=device,driver=i915,device=0000:00:02.0,"
                 "engine=render busy_ns=500000000i,utilization=50.0");
  log_set_sink(NULL, LOG_LEVEL_DEBUG);
  assert_int_equal(n_logged, 2); /* no other line */
}

/* A FIFO planted as an fdinfo file or as comm under a hostile ProcRoot
 * never blocks a read: it is not a regular file and is skipped. The alarm
 * turns a regression (a read that hangs) into a failure, not a stall. */
static void fifo_never_blocks(void **state) {
  struct fixture *f = need_root(state);
  i915_device(f);
  fakeproc_process(&f->fp, 100, "ok", NULL);
  fakeproc_fd(&f->fp, 100, 3, "card0", fdinfo_i915(7, 0, 0));
  fakeproc_process(&f->fp, 200, "fifo-comm", NULL);
  fakeproc_fd(&f->fp, 200, 3, "card0", fdinfo_i915(8, 0, 0));
  fakeproc_process(&f->fp, 300, "fifo-fdinfo", NULL);
  fakeproc_fd(&f->fp, 300, 3, "card0", fdinfo_i915(9, 0, 0));
  char path[512];
  snprintf(path, sizeof(path), "%s/200/comm", f->fp.proc);
  assert_int_equal(unlink(path), 0);
  assert_int_equal(mkfifo(path, 0644), 0);
  snprintf(path, sizeof(path), "%s/300/fdinfo/3", f->fp.proc);
  assert_int_equal(unlink(path), 0);
  assert_int_equal(mkfifo(path, 0644), 0);
  alarm(20);
  start(f, NULL);
  read_at(f, 1);
  alarm(0);
  /* pid 200's client counts (comm unknown: "?"), pid 300's fd is skipped */
  expect_line(
      f, "drm_clients,driver=i915,device=0000:00:02.0 clients=2i,processes=2i");
  expect_line(f, "drm_engine,scope=process,driver=i915,device=0000:00:02.0,"
                 "engine=render,pid=200,comm=? busy_ns=0i,capacity=1i");
}

static void malformed_and_vanishing(void **state) {
  struct fixture *f = need_root(state);
  i915_device(f);
  fakeproc_process(&f->fp, 100, "ok", NULL);
  fakeproc_process(&f->fp, 101, "garbage", NULL);
  fakeproc_process(&f->fp, 102, "gone", NULL);
  fakeproc_process(&f->fp, 103, "big", NULL);
  fakeproc_fd(&f->fp, 100, 3, "card0", fdinfo_i915(7, 0, 0));
  fakeproc_fd(&f->fp, 101, 3, "card0", "\x01\x02\xff binary: junk\n");
  /* fd link present, fdinfo already gone: the process is exiting */
  fakeproc_fd(&f->fp, 102, 3, "card0", "");
  char path[512];
  snprintf(path, sizeof(path), "%s/102/fdinfo/3", f->fp.proc);
  unlink(path);
  /* a 100 KiB fdinfo: the DRM block comes first, the rest is cut */
  size_t big_len = 100 * 1024;
  char *big = malloc(big_len + 1);
  assert_non_null(big);
  int n = snprintf(big, big_len, "drm-driver: i915\ndrm-client-id: 99\n");
  memset(big + n, 'x', big_len - (size_t)n);
  big[big_len] = '\0';
  fakeproc_fd(&f->fp, 103, 3, "card0", big);
  free(big);
  start(f, NULL);
  read_at(f, 1);
  expect_line(
      f, "drm_clients,driver=i915,device=0000:00:02.0 clients=2i,processes=2i");
  expect_line(f, "drm_scan "
                 "processes=4i,fds=4i,fdinfo_reads=3i,clients=2i,unreadable=0i,"
                 "clients_untracked=0i,processes_unreported=0i,oversized=1i");
}

static void caps_with_ten_thousand_clients(void **state) {
  struct fixture *f = need_root(state);
  i915_device(f);
  for (int p = 0; p < 1000; p++) {
    char comm[32];
    snprintf(comm, sizeof(comm), "worker%d", p);
    fakeproc_process(&f->fp, 1000 + p, comm, NULL);
    for (int k = 0; k < 10; k++)
      fakeproc_fd(&f->fp, 1000 + p, 3 + k, "card0",
                  fdinfo_i915((unsigned)(p * 10 + k + 1), 0, 0));
  }
  start(f, "MaxClients", "500", "MaxProcesses", "20", NULL);
  read_at(f, 1);
  expect_line(
      f,
      "drm_clients,driver=i915,device=0000:00:02.0 clients=500i,processes=50i");
  expect_line(f,
              "drm_scan "
              "processes=1000i,fds=10000i,fdinfo_reads=10000i,clients=500i,"
              "unreadable=0i,clients_untracked=9500i,processes_unreported=30i");
  /* 20 processes reported, each with one memory region */
  assert_int_equal(capture_sink_count(&f->sink, "drm_memory,scope=process"),
                   20);
}

/* With a SysfsRoot that does not know the device, its first name is the
 * char device number; drm-pdev then names it, and the device is still one
 * drm_clients series, with its clients. */
static void device_named_by_pdev_is_one_series(void **state) {
  struct fixture *f = need_root(state);
  i915_device(f);
  fakeproc_process(&f->fp, 100, "a", NULL);
  fakeproc_fd(&f->fp, 100, 3, "renderD128", fdinfo_i915(7, 0, 0));
  char empty[400];
  snprintf(empty, sizeof(empty), "%s/nosys", f->fp.root);
  assert_int_equal(mkdir(empty, 0755), 0);
  start(f, "SysfsRoot", empty, NULL);
  read_at(f, 1);
  read_at(f, 2);
  assert_int_equal(capture_sink_count(&f->sink, "drm_clients,"), 1);
  expect_line(
      f, "drm_clients,driver=i915,device=0000:00:02.0 clients=1i,processes=1i");
}

/* A masked container sysfs: class/drm/<minor>/dev is there, but neither
 * the device link nor dev/char. The client's drm-pdev names the device;
 * the class entry of the node it opened is that device, not a twin
 * "driver=unknown,device=226:128" with no client beside it.
 *  - class entries as the kernel makes them, links into devices/ (the
 *    path names the device): card0 and renderD128 are one series;
 *  - class entries as plain directories: the client's node joins its
 *    device; card0, which nothing names, stays apart under its minor name
 *    (never "M:m"), and no entry comes and goes between reads. */
static void mask_sysfs(struct fixture *f, bool links) {
  char path[600], target[300];
  snprintf(path, sizeof(path), "%s/dev/char", f->fp.sys);
  assert_int_equal(nftw(path, rm_entry, 8, FTW_DEPTH | FTW_PHYS), 0);
  static const char *const minors[] = {"card0", "renderD128"};
  static const char *const devs[] = {"226:0\n", "226:128\n"};
  for (size_t i = 0; i < 2; i++) {
    snprintf(path, sizeof(path), "%s/devices/0000:00:02.0/drm/%s/device",
             f->fp.sys, minors[i]);
    assert_int_equal(unlink(path), 0);
    if (!links)
      continue;
    snprintf(path, sizeof(path), "%s/class/drm/%s", f->fp.sys, minors[i]);
    assert_int_equal(nftw(path, rm_entry, 8, FTW_DEPTH | FTW_PHYS), 0);
    snprintf(target, sizeof(target), "../../devices/0000:00:02.0/drm/%s",
             minors[i]);
    assert_int_equal(symlink(target, path), 0);
    snprintf(path, sizeof(path), "sys/devices/0000:00:02.0/drm/%s/dev",
             minors[i]);
    assert_int_equal(fakeproc_write(&f->fp, path, devs[i]), 0);
  }
}

static void masked_sysfs_no_twin_device(void **state) {
  struct fixture *f = need_root(state);
  i915_device(f);
  mask_sysfs(f, /*links=*/true);
  fakeproc_process(&f->fp, 100, "a", NULL);
  fakeproc_fd(&f->fp, 100, 3, "renderD128", fdinfo_i915(7, 0, 0));
  start(f, NULL);
  n_logged = 0;
  log_set_sink(keep_log, LOG_LEVEL_INFO);
  for (uint64_t t = 1; t <= 3; t++) {
    read_at(f, t);
    expect_line(f, "drm_clients,driver=i915,device=0000:00:02.0 "
                   "clients=1i,processes=1i");
    assert_int_equal(capture_sink_count(&f->sink, "drm_clients,"), 1);
  }
  log_set_sink(NULL, LOG_LEVEL_DEBUG);
  for (size_t i = 0; i < n_logged && i < 8; i++)
    if (strstr(logged[i], ": gone: ") || strstr(logged[i], ": appeared: "))
      fail_msg("a class entry came and went: %s", logged[i]);
}

static void masked_sysfs_plain_class_entries(void **state) {
  struct fixture *f = need_root(state);
  i915_device(f);
  mask_sysfs(f, /*links=*/false);
  fakeproc_process(&f->fp, 100, "a", NULL);
  fakeproc_fd(&f->fp, 100, 3, "renderD128", fdinfo_i915(7, 0, 0));
  start(f, NULL);
  n_logged = 0;
  log_set_sink(keep_log, LOG_LEVEL_INFO);
  for (uint64_t t = 1; t <= 3; t++) {
    read_at(f, t);
    expect_line(f, "drm_clients,driver=i915,device=0000:00:02.0 "
                   "clients=1i,processes=1i");
    expect_line(f, "drm_clients,driver=unknown,device=card0 "
                   "clients=0i,processes=0i");
    assert_int_equal(capture_sink_count(&f->sink, "drm_clients,"), 2);
    expect_no_line(f, "drm_clients,driver=unknown,device=226:");
    expect_no_line(f, "drm_clients,driver=unknown,device=renderD128");
  }
  log_set_sink(NULL, LOG_LEVEL_DEBUG);
  for (size_t i = 0; i < n_logged && i < 8; i++)
    if (strstr(logged[i], ": gone: ") || strstr(logged[i], ": appeared: "))
      fail_msg("a class entry came and went: %s", logged[i]);
}

/* Two clients with 2^63 bytes each: the device sum saturates instead of
 * wrapping to 0, and the clamp counter says so. */
static void group_sums_saturate(void **state) {
  struct fixture *f = need_root(state);
  i915_device(f);
  fakeproc_process(&f->fp, 100, "a", NULL);
#define HUGE_VRAM(id)                                                          \
  "drm-driver:\ti915\ndrm-pdev:\t0000:00:02.0\ndrm-client-id:\t" id            \
  "\ndrm-total-vram:\t9223372036854775808\n"
  const char *one = HUGE_VRAM("1"), *two = HUGE_VRAM("2");
  fakeproc_fd(&f->fp, 100, 3, "renderD128", one);
  fakeproc_fd(&f->fp, 100, 4, "renderD128", two);
  start(f, "ReportBy", "Device", NULL);
  read_at(f, 1);
  /* UINT64_MAX, written as the largest int64 InfluxDB 1.x can store */
  expect_line(f, "drm_memory,scope=device,driver=i915,device=0000:00:02.0,"
                 "region=vram total_bytes=9223372036854775807i");
  const char *scan = capture_sink_find(&f->sink, "drm_scan ");
  assert_non_null(scan);
  assert_non_null(strstr(scan, ",clamped=1i,"));
}

static void idle_device_reports_zero(void **state) {
  struct fixture *f = need_root(state);
  i915_device(f);
  start(f, NULL);
  read_at(f, 1);
  expect_line(f, "drm_clients,driver=i915,device=0000:00:02.0 "
                 "clients=0i,processes=0i,unreadable=0i");
  assert_int_equal(capture_sink_count(&f->sink, "drm_clients,"), 1);
}

static void profiling_switch_restored(void **state) {
  struct fixture *f = need_root(state);
  fakeproc_write(
      &f->fp, "sys/bus/platform/drivers/panthor/fb000000.gpu/profiling", "0\n");
  start(f, "EnableProfiling", "true", NULL);
  char path[512], value[16] = "";
  snprintf(path, sizeof(path),
           "%s/bus/platform/drivers/panthor/fb000000.gpu/profiling", f->fp.sys);
  FILE *file = fopen(path, "r");
  assert_non_null(file);
  assert_non_null(fgets(value, sizeof(value), file));
  fclose(file);
  assert_string_equal(value, "3"); /* panthor: cycles | timestamps */
  drm_fdinfo_ops.instance_free(f->inst);
  f->inst = NULL;
  file = fopen(path, "r");
  assert_non_null(file);
  assert_non_null(fgets(value, sizeof(value), file));
  fclose(file);
  assert_string_equal(value, "0");
}

/* A process name may hold a newline (prctl PR_SET_NAME takes any byte but
 * NUL): the whole name is read and the newline becomes '?', as text.h
 * says, instead of the name ending there. */
static void newline_inside_process_name(void **state) {
  struct fixture *f = need_root(state);
  i915_device(f);
  fakeproc_process(&f->fp, 100, "evil\nname", NULL);
  fakeproc_fd(&f->fp, 100, 3, "card0", fdinfo_i915(7, 0, 0));
  start(f, NULL);
  read_at(f, 1);
  expect_line(f, "drm_engine,scope=process,driver=i915,device=0000:00:02.0,"
                 "engine=render,pid=100,comm=evil?name busy_ns=0i,");
}

static void hostile_names_every_sink(void **state) {
  struct fixture *f = need_root(state);
  i915_device(f);
  /* comm is whatever the process set: separators, quotes, backslashes,
   * UTF-8, an invalid byte and a trailing backslash */
  fakeproc_process(&f->fp, 100, "a,b=c d\"e\\\xc3\x9f\xff\\", NULL);
  fakeproc_fd(&f->fp, 100, 3, "card0", fdinfo_i915(7, 0, 0));
  start(f, NULL);
  read_at(f, 1);
  expect_line(
      f,
      "drm_engine,scope=process,driver=i915,device=0000:00:02.0,engine=render,"
      "pid=100,comm=a\\,b\\=c\\ d\"e\\\xc3\x9f?? busy_ns=0i,capacity=1i");
  /* the same record as JSON */
  struct metric m;
  metric_init(&m, "drm_engine", 1);
  metric_add_tag(&m, "comm", "a,b=c d\"e\\\xc3\x9f?\\");
  metric_add_int(&m, "busy_ns", "derive", 0);
  char json[512];
  assert_true(sink_json_format(&m, json, sizeof(json)) > 0);
  assert_string_equal(json, "{\"name\":\"drm_engine\",\"time\":1,\"comm\":\"a,"
                            "b=c d\\\"e\\\\\xc3\x9f?\\\\\",\"busy_ns\":0}\n");
}

/* A sink whose writes fail: the 2nd with ENOSPC, every later one with EIO. */
struct failing_sink {
  struct metric_sink base;
  size_t writes;
};

static int failing_write(struct metric_sink *sink, const struct metric *m) {
  (void)m;
  struct failing_sink *fs = (struct failing_sink *)sink;
  fs->writes++;
  return fs->writes == 1 ? 0 : fs->writes == 2 ? -ENOSPC : -EIO;
}

static int failing_edge(struct metric_sink *sink) {
  (void)sink;
  return 0;
}

/* The read reports the first sink error as it was (ORing -ENOSPC with
 * -EIO, as reads once did, gives -1: EPERM) and still writes every record. */
static void sink_errors_keep_their_errno(void **state) {
  struct fixture *f = need_root(state);
  i915_device(f);
  fakeproc_process(&f->fp, 100, "glxgears", "/user.slice/a.scope");
  fakeproc_fd(&f->fp, 100, 3, "renderD128", fdinfo_i915(7, 1000, 0));
  start(f, NULL);
  read_at(f, 1);
  size_t records = f->sink.n_lines;
  struct failing_sink fs = {{failing_edge, failing_write, failing_edge}, 0};
  f->mono = 2 * SEC;
  assert_int_equal(drm_fdinfo_ops.read(f->inst, &fs.base), -ENOSPC);
  assert_int_equal(fs.writes, records);
}

/* drm_fdinfo opens /proc through the host's kernel seam: a seam that
 * counts its calls sees the root opened once at init and the fd
 * directories at reads; one that refuses the root makes init fail with
 * that errno. */
static int seam_opens, seam_openats;
static int seam_fail_open;
static int seam_open(const char *path, int flags, mode_t mode) {
  seam_opens++;
  if (seam_fail_open) {
    errno = seam_fail_open;
    return -1;
  }
  return kernel_real.open(path, flags, mode);
}
static int seam_openat(int dirfd, const char *path, int flags, mode_t mode) {
  seam_openats++;
  return kernel_real.openat(dirfd, path, flags, mode);
}

static void opens_through_the_kernel_seam(void **state) {
  struct fixture *f = need_root(state);
  i915_device(f);
  fakeproc_process(&f->fp, 100, "a", NULL);
  fakeproc_fd(&f->fp, 100, 3, "card0", fdinfo_i915(7, 0, 0));
  struct kernel_ops seam = kernel_real;
  seam.open = seam_open;
  seam.openat = seam_openat;
  seam_opens = seam_openats = seam_fail_open = 0;
  f->inst = drm_fdinfo_ops.instance_new("seam");
  assert_int_equal(configure(f, "ProcRoot", f->fp.proc), 0);
  assert_int_equal(configure(f, "SysfsRoot", f->fp.sys), 0);
  plugin_host_init(&f->host, "seam", SEC);
  f->host.kernel = &seam;
  assert_int_equal(drm_fdinfo_ops.init(f->inst, &f->host), 0);
  /* ProcRoot, and to check the roots ProcRoot again and <sysfs>/dev/char,
   * then the devices: <sysfs>/class/{drm,accel} */
  assert_int_equal(seam_opens, 5);
  assert_int_equal(drm_fdinfo_ops.read(f->inst, &f->sink.base), 0);
  assert_int_equal(seam_opens, 7); /* a read lists <sysfs>/class/{drm,accel} */
  assert_true(seam_openats >= 2);  /* the /proc listing and pid 100's fds */
  drm_fdinfo_ops.instance_free(f->inst);
  f->inst = NULL;

  seam_fail_open = EMFILE;
  void *inst = drm_fdinfo_ops.instance_new("seam");
  struct cfg_value v = {.type = CFG_STRING, .string = f->fp.proc};
  struct cfg_item item = {.key = "ProcRoot", .values = &v, .n_values = 1};
  assert_int_equal(drm_fdinfo_ops.configure(inst, &item), 0);
  assert_int_equal(drm_fdinfo_ops.init(inst, &f->host), -EMFILE);
  drm_fdinfo_ops.instance_free(inst);
}

static void real_proc_finds_nothing(void **state) {
  (void)state;
  struct fixture f = {0};
  capture_sink_init(&f.sink);
  f.inst = drm_fdinfo_ops.instance_new("real");
  assert_non_null(f.inst);
  assert_int_equal(drm_fdinfo_ops.init(f.inst, test_host("drm_fdinfo")), 0);
  capture_sink_clear(&f.sink);
  assert_int_equal(drm_fdinfo_ops.read(f.inst, &f.sink.base), 0);
  assert_int_equal(drm_fdinfo_ops.read(f.inst, &f.sink.base), 0);
  const char *scan = capture_sink_find(&f.sink, "drm_scan ");
  assert_non_null(scan);
  assert_non_null(strstr(scan, ",clients=0i,"));
  assert_null(capture_sink_find(&f.sink, "drm_engine"));
  drm_fdinfo_ops.instance_free(f.inst);
  capture_sink_fini(&f.sink);
}

static void config_errors(void **state) {
  (void)state;
  static const struct {
    const char *key, *value;
  } bad[] = {
      {"Frobnicate", "1"},
      {"ReportBy", "Planet"},
      {"ProcessMatch", "(unclosed"},
      {"MaxClients", "0"},
      {"MaxProcesses", "abc"},
      {"FullScanInterval", "-1"},
      {"WakeSuspended", "maybe"},
      {"ProcRoot", ""},
      {"FullScanInterval", "often"},
      {"FdCountInterval", "-1"},
      {"DevRoot", ""},
  };
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
    void *inst = drm_fdinfo_ops.instance_new("cfg");
    struct cfg_value v = {.type = CFG_STRING, .string = bad[i].value};
    struct cfg_item item = {.key = bad[i].key, .values = &v, .n_values = 1};
    if (drm_fdinfo_ops.configure(inst, &item) != -EINVAL)
      fail_msg("%s %s accepted", bad[i].key, bad[i].value);
    drm_fdinfo_ops.instance_free(inst);
  }
  void *inst = drm_fdinfo_ops.instance_new("cfg");
  struct cfg_value v = {.type = CFG_STRING, .string = "/nonexistent/proc"};
  struct cfg_item item = {.key = "procroot", .values = &v, .n_values = 1};
  assert_int_equal(drm_fdinfo_ops.configure(inst, &item), 0);
  assert_int_equal(drm_fdinfo_ops.init(inst, test_host("drm_fdinfo")), -ENOENT);
  drm_fdinfo_ops.instance_free(inst);
}

/* Other users' processes: run the scan as nobody in a child process. */
static void unreadable_processes_counted(void **state) {
  struct fixture *f = need_root(state);
  i915_device(f);
  fakeproc_process(&f->fp, 100, "mine", NULL);
  fakeproc_process(&f->fp, 101, "secret", NULL);
  fakeproc_fd(&f->fp, 100, 3, "card0", fdinfo_i915(7, 0, 0));
  fakeproc_fd(&f->fp, 101, 3, "card0", fdinfo_i915(8, 0, 0));
  char path[512];
  snprintf(path, sizeof(path), "%s/101/fd", f->fp.proc);
  assert_int_equal(chmod(path, 0700), 0);
  pid_t child = fork();
  assert_true(child >= 0);
  if (child == 0) {
    if (setgid(65534) != 0 || setuid(65534) != 0)
      _exit(3);
    start(f, "FullScanInterval", "3600", NULL);
    read_at(f, 1);
    const char *line = capture_sink_find(
        &f->sink, "drm_clients,driver=i915,device=0000:00:02.0 ");
    bool ok = line && strstr(line, "clients=1i,processes=1i,unreadable=1i");
    /* the next read does not try the unreadable process again, and still
     * counts it */
    read_at(f, 2);
    line = capture_sink_find(&f->sink, "drm_scan ");
    ok = ok && line && strstr(line, "drm_scan processes=0i,") &&
         strstr(line, ",unreadable=1i,");
    _exit(ok ? 0 : 4);
  }
  int status;
  assert_int_equal(waitpid(child, &status, 0), child);
  assert_true(WIFEXITED(status));
  assert_int_equal(WEXITSTATUS(status), 0);
}

/* A device link with one "../" more than it is deep leads out of
 * SysfsRoot, to a directory holding a device with a driver link and a
 * power state of its own: said once; the device is named by its minor and
 * nothing there is read; its clients are still counted. */
static void device_link_out_of_root(void **state) {
  struct fixture *f = need_root(state);
  i915_device(f);
  char path[1024];
  snprintf(path, sizeof(path), "%s/outside", f->fp.root);
  assert_int_equal(mkdir(path, 0755), 0);
  snprintf(path, sizeof(path), "%s/outside/power", f->fp.root);
  assert_int_equal(mkdir(path, 0755), 0);
  snprintf(path, sizeof(path), "%s/outside/driver", f->fp.root);
  assert_int_equal(symlink("../bus/drivers/evil", path), 0);
  snprintf(path, sizeof(path), "%s/outside/power/runtime_status", f->fp.root);
  FILE *status = fopen(path, "w");
  assert_non_null(status);
  fputs("suspended\n", status);
  fclose(status);
  /* devices/<dev>/drm/card0 is 4 deep: 5 "../" leave the root */
  snprintf(path, sizeof(path), "%s/devices/0000:00:02.0/drm/card0/device",
           f->fp.sys);
  assert_int_equal(unlink(path), 0);
  assert_int_equal(symlink("../../../../../outside", path), 0);
  fakeproc_process(&f->fp, 100, "a", NULL);
  fakeproc_fd(&f->fp, 100, 3, "card0",
              "drm-driver: i915\ndrm-client-id: 7\ndrm-engine-render: 5 ns\n");
  n_logged = 0;
  log_set_sink(keep_log, LOG_LEVEL_WARNING);
  start(f, NULL);
  read_at(f, 1);
  read_at(f, 2);
  log_set_sink(NULL, LOG_LEVEL_DEBUG);
  size_t said = 0; /* (the fixture has no /dev/dri: said too) */
  for (size_t i = 0; i < n_logged && i < 8; i++)
    if (strstr(logged[i], "SysfsRoot") != NULL) {
      said++;
      assert_string_equal(
          logged[i], "drm_fdinfo: card0: device: dev/char/226:0/device: a "
                     "link that leads out of SysfsRoot (Invalid cross-device "
                     "link): its name, driver and power state are not read");
    }
  assert_int_equal(said, 1);
  expect_line(f, "drm_clients,driver=i915,device=card0 "
                 "clients=1i,processes=1i,unreadable=0i");
  for (size_t i = 0; i < f->sink.n_lines; i++)
    if (strstr(f->sink.lines[i], "evil") || strstr(f->sink.lines[i], "outside"))
      fail_msg("read out of SysfsRoot: %s", f->sink.lines[i]);
}

int main(void) {
  const struct CMUnitTest tests[] = {
#define T(name) cmocka_unit_test_setup_teardown(name, dfx_setup, dfx_teardown)
      T(engine_time_and_capacity),
      T(counters_backwards_hold),
      T(shared_and_dup_counted_once),
      T(shared_fd_goes_to_lowest_pid),
      T(client_exit_and_pid_reuse),
      T(reused_pid_is_a_new_series),
      T(xe_cycles_and_suspended),
      T(xe_two_clients_share_the_timestamp),
      T(xe_wake_suspended_option),
      T(msm_cycles_over_maxfreq),
      T(accel_and_multi_driver),
      T(filters),
      T(cgroup_and_client_scopes),
      T(long_cgroups_stay_distinct),
      T(malformed_values_reported),
      T(devices_come_and_go),
      T(fifo_never_blocks),
      T(malformed_and_vanishing),
      T(caps_with_ten_thousand_clients),
      T(device_named_by_pdev_is_one_series),
      T(masked_sysfs_no_twin_device),
      T(masked_sysfs_plain_class_entries),
      T(group_sums_saturate),
      T(idle_device_reports_zero),
      T(profiling_switch_restored),
      T(newline_inside_process_name),
      T(hostile_names_every_sink),
      T(unreadable_processes_counted),
      T(sink_errors_keep_their_errno),
      T(opens_through_the_kernel_seam),
      T(device_link_out_of_root),
      cmocka_unit_test(real_proc_finds_nothing),
      cmocka_unit_test(config_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
