/*
 * test_dfi_procscan.c: which processes a drm_fdinfo read walks
 * (plugins/drm_fdinfo/dfi_procscan.c): debugfs lists, fd counts from
 * st_size of /proc/<pid>/fd (on tmpfs, a directory's size follows its
 * entry count as procfs's follows the open fds, so the synthetic tree
 * lives there), the phase-spread walk, pid reuse and the statistics that
 * describe the state between full walks.
 */
#include "plugins/drm_fdinfo/drm_fdinfo.h"
#include "tests/lib/dfi_fixture.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <cmocka.h>

#define TMPFS_MAGIC 0x01021994

/* A fixture whose tree is on tmpfs (/dev/shm), or skip. */
static struct fixture *need_tmpfs(void **state) {
  struct fixture *f = need_root(state);
  struct statfs fs;
  if (statfs("/dev/shm", &fs) != 0 || fs.f_type != TMPFS_MAGIC)
    skip(); /* no tmpfs to stand in for procfs's fd counts */
  fakeproc_fini(&f->fp);
  const char *old = getenv("TMPDIR");
  char *saved = old ? strdup(old) : NULL;
  setenv("TMPDIR", "/dev/shm", 1);
  assert_int_equal(fakeproc_init(&f->fp), 0);
  if (saved != NULL) {
    setenv("TMPDIR", saved, 1);
    free(saved);
  } else {
    unsetenv("TMPDIR");
  }
  return f;
}

/* The drm_scan field `key` of the last read. */
static uint64_t scan_field(struct fixture *f, const char *key) {
  const char *line = capture_sink_find(&f->sink, "drm_scan ");
  assert_non_null(line);
  char pattern[64];
  snprintf(pattern, sizeof(pattern), "%s=", key);
  const char *at = strstr(line, pattern);
  assert_non_null(at);
  return strtoull(at + strlen(pattern), NULL, 10);
}

/* Clients over MaxClients stay counted between full scans, like
 * unreadable processes: the statistics describe the state. */
static void untracked_clients_counted_between_full_scans(void **state) {
  struct fixture *f = need_root(state);
  i915_device(f);
  fakeproc_process(&f->fp, 100, "a", NULL);
  fakeproc_fd(&f->fp, 100, 3, "card0", fdinfo_i915(7, 0, 0));
  fakeproc_fd(&f->fp, 100, 4, "card0", fdinfo_i915(8, 0, 0));
  start(f, "MaxClients", "1", "FullScanInterval", "3600", NULL);
  read_at(f, 1);
  expect_line(f, "drm_scan "
                 "processes=1i,fds=2i,fdinfo_reads=2i,clients=1i,unreadable=0i,"
                 "clients_untracked=1i");
  read_at(f, 2); /* between full scans */
  expect_line(f, "drm_scan "
                 "processes=0i,fds=0i,fdinfo_reads=1i,clients=1i,unreadable=0i,"
                 "clients_untracked=1i");
}

static void known_fds_and_debugfs(void **state) {
  struct fixture *f = need_root(state);
  i915_device(f);
  fakeproc_process(&f->fp, 100, "a", NULL);
  fakeproc_process(&f->fp, 200, "b", NULL);
  fakeproc_fd(&f->fp, 100, 3, "card0", fdinfo_i915(7, 0, 0));
  const char *header =
      "             command   pid dev master a   uid      magic\n";
  char list[512];
  snprintf(list, sizeof(list), "%s%20s %5d %3d   %c    %c %5d %10u\n", header,
           "a", 100, 0, 'n', 'y', 0, 0u);
  fakeproc_debugfs_clients(&f->fp, 0, list);
  start(f, "FullScanInterval", "3600", NULL);
  read_at(f, 1);
  expect_line(f, "drm_scan processes=2i,fds=1i,fdinfo_reads=1i,clients=1i");
  /* steady state: only the known fd is read, no /proc walk */
  fakeproc_fdinfo(&f->fp, 100, 3, fdinfo_i915(7, SEC / 10, 0));
  read_at(f, 2);
  expect_line(f, "drm_scan processes=0i,fds=0i,fdinfo_reads=1i,clients=1i");
  expect_line(f,
              "drm_engine,scope=process,driver=i915,device=0000:00:02.0,engine="
              "render,pid=100,comm=a busy_ns=100000000i,utilization=10.0");
  /* pid 200 opens the GPU and shows up in the debugfs list: found at the
   * next read by walking only its fds */
  fakeproc_fd(&f->fp, 200, 4, "renderD128", fdinfo_i915(8, 0, 0));
  snprintf(
      list, sizeof(list),
      "%s%20s %5d %3d   %c    %c %5d %10u\n%20s %5d %3d   %c    %c %5d %10u\n",
      header, "a", 100, 0, 'n', 'y', 0, 0u, "b c", 200, 128, 'n', 'y', 0, 0u);
  fakeproc_debugfs_clients(&f->fp, 0, list);
  read_at(f, 3);
  expect_line(f, "drm_scan processes=1i,fds=1i,fdinfo_reads=2i,clients=2i");
  expect_line(
      f, "drm_clients,driver=i915,device=0000:00:02.0 clients=2i,processes=2i");
  /* pid 100 closes its fd: dropped at the next read */
  fakeproc_fd_remove(&f->fp, 100, 3);
  read_at(f, 4);
  expect_line(
      f, "drm_clients,driver=i915,device=0000:00:02.0 clients=1i,processes=1i");
}

/* Without debugfs and without fd counts (FdCount false, kernels before
 * 6.2): a new process is walked at the next read; a known one that opens
 * a client is found when its phase comes, within FullScanInterval. */
static void without_fd_counts(void **state) {
  struct fixture *f = need_root(state);
  i915_device(f);
  fakeproc_process(&f->fp, 100, "a", NULL);
  fakeproc_fd(&f->fp, 100, 3, "card0", fdinfo_i915(7, 0, 0));
  start(f, "FullScanInterval", "10", "FdCount", "false", "UseDebugfs", "false",
        NULL);
  read_at(f, 1);
  fakeproc_process(&f->fp, 200, "b", NULL);
  fakeproc_fd(&f->fp, 200, 3, "card0", fdinfo_i915(8, 0, 0));
  read_at(f, 2);
  expect_line(f, "drm_clients,driver=i915,device=0000:00:02.0 clients=2i,");
  /* pid 100 opens a second client: seen by the read its phase falls in */
  fakeproc_fd(&f->fp, 100, 4, "card0", fdinfo_i915(9, 0, 0));
  unsigned found_at = 0;
  for (unsigned t = 3; t <= 12 && found_at == 0; t++) {
    read_at(f, t);
    if (capture_sink_find(
            &f->sink,
            "drm_clients,driver=i915,device=0000:00:02.0 clients=3i,") != NULL)
      found_at = t;
  }
  assert_true(found_at >= 3 && found_at <= 12); /* within the window */
}

/* With fd counts looked at every read (FdCountInterval 0): a known
 * process that opens a client (its count grows) is walked at the next
 * read; processes whose count did not change are not walked at all. */
static void fd_count_change_walks_the_process(void **state) {
  struct fixture *f = need_tmpfs(state);
  i915_device(f);
  for (pid_t pid = 100; pid < 110; pid++)
    fakeproc_process(&f->fp, pid, "idle", NULL);
  fakeproc_fd(&f->fp, 100, 3, "card0", fdinfo_i915(7, 0, 0));
  start(f, "FullScanInterval", "3600", "FdCount", "true", "UseDebugfs", "false",
        "FdCountInterval", "0", NULL);
  read_at(f, 1);
  assert_int_equal(scan_field(f, "processes"), 10);
  read_at(f, 2); /* nothing changed: nothing walked */
  assert_int_equal(scan_field(f, "processes"), 0);
  assert_int_equal(scan_field(f, "fds"), 0);
  fakeproc_fd(&f->fp, 105, 3, "renderD128", fdinfo_i915(8, 0, 0));
  read_at(f, 3);
  assert_int_equal(scan_field(f, "processes"), 1);
  expect_line(f, "drm_clients,driver=i915,device=0000:00:02.0 clients=2i,");
}

/* The documented bound: closing one fd and opening a DRM fd keeps the
 * count, so the process waits for its phase (within FullScanInterval). */
static void same_fd_count_waits_for_its_phase(void **state) {
  struct fixture *f = need_tmpfs(state);
  i915_device(f);
  fakeproc_process(&f->fp, 100, "a", NULL);
  fakeproc_fd(&f->fp, 100, 3, NULL, "pos: 0\n"); /* a regular file */
  start(f, "FullScanInterval", "10", "FdCount", "true", "UseDebugfs", "false",
        NULL);
  read_at(f, 1);
  fakeproc_fd_remove(&f->fp, 100, 3);
  fakeproc_fd(&f->fp, 100, 3, "card0", fdinfo_i915(7, 0, 0));
  unsigned found_at = 0;
  for (unsigned t = 2; t <= 11 && found_at == 0; t++) {
    read_at(f, t);
    if (capture_sink_find(
            &f->sink,
            "drm_clients,driver=i915,device=0000:00:02.0 clients=1i,") != NULL)
      found_at = t;
  }
  assert_true(found_at >= 2 && found_at <= 11);
}

/* The default settings with fd counts, read every 10 s: each process's
 * count is looked at once per FdCountInterval (60 s), so a sixth of them
 * per read, and only the few whose walk phase (FullScanInterval auto,
 * 3600 s) comes are walked: no read pays for the whole machine. */
static void default_read_looks_at_counts_thinly(void **state) {
  struct fixture *f = need_tmpfs(state);
  i915_device(f);
  for (pid_t pid = 1000; pid < 1300; pid++) {
    fakeproc_process(&f->fp, pid, "idle", NULL);
    fakeproc_fd(&f->fp, pid, 3, NULL, "pos: 0\n");
  }
  start(f, "FdCount", "true", "UseDebugfs", "false", NULL);
  read_at(f, 1);
  assert_int_equal(scan_field(f, "processes"), 300);
  unsigned long looks = 0, walked = 0;
  for (unsigned t = 11; t <= 61; t += 10) {
    unsigned long before = dfx_calls.fd_counts;
    read_at(f, t);
    unsigned long n = dfx_calls.fd_counts - before;
    assert_true(n < 100); /* about 50: a sixth of the counts */
    looks += n;
    walked += scan_field(f, "processes");
  }
  /* every count due exactly once in the window, less those walked */
  assert_true(looks <= 300 && looks + walked >= 300);
  assert_true(walked < 30); /* about 5: 60 s of a 3600 s walk window */
  assert_int_equal(scan_field(f, "fdinfo_reads"), 0);
}

/* A new client in a new process is found at the next read, at the
 * default settings, whatever the phases. */
static void new_process_client_found_at_next_read(void **state) {
  struct fixture *f = need_tmpfs(state);
  i915_device(f);
  for (pid_t pid = 1000; pid < 1050; pid++)
    fakeproc_process(&f->fp, pid, "idle", NULL);
  start(f, "FdCount", "true", "UseDebugfs", "false", NULL);
  read_at(f, 1);
  fakeproc_process(&f->fp, 2000, "game", NULL);
  fakeproc_fd(&f->fp, 2000, 5, "renderD128", fdinfo_i915(9, 0, 0));
  read_at(f, 11);
  expect_line(
      f, "drm_clients,driver=i915,device=0000:00:02.0 clients=1i,processes=1i");
  expect_line(f, "drm_engine,scope=process,driver=i915,device=0000:00:02.0,"
                 "engine=render,pid=2000,comm=game busy_ns=0i,");
}

/* An open of a node in <DevRoot>/dri (inotify) has every count looked at
 * by the next read: a known process whose count grew is walked then, even
 * when its count phase is far. A regular file stands in for the node
 * here: without a driver behind it, a char device node cannot be opened,
 * and inotify reports the open of any entry of the watched directory. */
static void open_of_a_node_looks_at_every_count(void **state) {
  struct fixture *f = need_tmpfs(state);
  i915_device(f);
  for (pid_t pid = 1000; pid < 1100; pid++)
    fakeproc_process(&f->fp, pid, "idle", NULL);
  assert_int_equal(fakeproc_write(&f->fp, "dev/dri/renderD128", "node\n"), 0);
  start(f, "FdCount", "true", "UseDebugfs", "false", NULL);
  read_at(f, 1);
  read_at(f, 2); /* nothing opened: a sixtieth of the counts */
  assert_true(dfx_calls.fd_counts < 30);
  unsigned long before = dfx_calls.fd_counts;
  fakeproc_fd(&f->fp, 1042, 7, "renderD128", fdinfo_i915(9, 0, 0));
  char node[400];
  snprintf(node, sizeof(node), "%s/dri/renderD128", f->fp.dev);
  FILE *opened = fopen(node, "r");
  assert_non_null(opened);
  fclose(opened);
  read_at(f, 3);
  /* every count not walked by its phase was looked at; 1042's changed,
   * so it was looked at and walked */
  assert_int_equal(dfx_calls.fd_counts - before + scan_field(f, "processes"),
                   101);
  expect_line(
      f, "drm_clients,driver=i915,device=0000:00:02.0 clients=1i,processes=1i");
  before = dfx_calls.fd_counts;
  read_at(f, 4); /* the queue was drained: back to a sixtieth */
  assert_true(dfx_calls.fd_counts - before < 30);
}

/* When no task was created since the previous read (the last pid of
 * <ProcRoot>/loadavg unchanged, ProcRoot our own pid namespace), /proc is
 * not listed: the known processes are looked at from the table. A new
 * pid in loadavg brings the listing back, and the new process is walked. */
static void no_new_pid_skips_the_listing(void **state) {
  struct fixture *f = need_tmpfs(state);
  i915_device(f);
  char own[32], path[400];
  snprintf(own, sizeof(own), "%d", (int)getpid());
  fakeproc_process(&f->fp, getpid(), "me", NULL);
  snprintf(path, sizeof(path), "%s/self", f->fp.proc);
  assert_int_equal(symlink(own, path), 0);
  for (pid_t pid = 1000; pid < 1010; pid++)
    fakeproc_process(&f->fp, pid, "idle", NULL);
  fakeproc_write(&f->fp, "proc/loadavg", "0.00 0.01 0.05 1/99 1009\n");
  start(f, "FdCount", "true", "UseDebugfs", "false", "FdCountInterval", "0",
        NULL);
  read_at(f, 1);
  unsigned long opens = dfx_calls.openat, counts = dfx_calls.fd_counts;
  fakeproc_process(&f->fp, 2000, "game", NULL);
  fakeproc_fd(&f->fp, 2000, 5, "renderD128", fdinfo_i915(9, 0, 0));
  read_at(f, 11);
  /* no listing: the only opens are walks (a phase may come due); every
   * other process of the table had its count looked at */
  uint64_t walked = scan_field(f, "processes");
  assert_int_equal(dfx_calls.openat - opens, walked);
  assert_int_equal(dfx_calls.fd_counts - counts + walked, 11);
  expect_line(f, "drm_clients,driver=i915,device=0000:00:02.0 clients=0i,");
  fakeproc_write(&f->fp, "proc/loadavg", "0.00 0.01 0.05 1/99 2000\n");
  read_at(f, 21);
  expect_line(
      f, "drm_clients,driver=i915,device=0000:00:02.0 clients=1i,processes=1i");
}

/* The documented bound for a client that replaces an fd in place (dup2
 * onto an open fd: the count does not change, and no node is opened in
 * the watched directories): found by its process's walk phase, within
 * FullScanInterval (auto with fd counts: 3600 s), read every 10 s. */
static void dup2_in_place_found_within_full_scan_interval(void **state) {
  struct fixture *f = need_tmpfs(state);
  i915_device(f);
  for (pid_t pid = 1000; pid < 1010; pid++) {
    fakeproc_process(&f->fp, pid, "p", NULL);
    fakeproc_fd(&f->fp, pid, 3, NULL, "pos: 0\n");
  }
  start(f, "FdCount", "true", "UseDebugfs", "false", NULL);
  read_at(f, 1);
  for (pid_t pid = 1000; pid < 1010; pid++) {
    /* dup2(drm_fd, 3): fd 3 now is a DRM client, the count unchanged */
    fakeproc_fd_remove(&f->fp, pid, 3);
    fakeproc_fd(&f->fp, pid, 3, "card0", fdinfo_i915(100 + pid, 0, 0));
  }
  unsigned found = 0;
  for (unsigned t = 11; t <= 3601; t += 10) {
    read_at(f, t);
    const char *line = capture_sink_find(
        &f->sink, "drm_clients,driver=i915,device=0000:00:02.0 clients=");
    assert_non_null(line);
    unsigned n = (unsigned)strtoul(strstr(line, "clients=") + 8, NULL, 10);
    assert_true(n >= found); /* a found client stays */
    found = n;
  }
  assert_int_equal(found, 10); /* every one within the window */
  assert_int_equal(scan_field(f, "full_scans"), 2); /* first, one window */
}

/* Pid reuse with fd counts: the new process's count differs, so it is
 * walked at once and, with its new start time, is a new series. */
static void reused_pid_walked_and_new_series(void **state) {
  struct fixture *f = need_tmpfs(state);
  i915_device(f);
  fakeproc_process(&f->fp, 100, "app", NULL);
  proc_stat(f, 100, 1000);
  fakeproc_fd(&f->fp, 100, 3, "card0", fdinfo_i915(7, SEC, 0));
  start(f, "FullScanInterval", "3600", "FdCount", "true", "UseDebugfs", "false",
        NULL);
  read_at(f, 1);
  fakeproc_process_remove(&f->fp, 100);
  fakeproc_process(&f->fp, 100, "app", NULL);
  proc_stat(f, 100, 2000);
  fakeproc_fd(&f->fp, 100, 3, "card0", fdinfo_i915(9, SEC, 0));
  fakeproc_fd(&f->fp, 100, 4, NULL, "pos: 0\n");
  read_at(f, 2);
  expect_line(f, "drm_engine,scope=process,driver=i915,device=0000:00:02.0,"
                 "engine=render,pid=100,pid_start=2000,comm=app busy_ns=0i,");
  expect_no_line(f, "drm_engine,scope=process,driver=i915,device=0000:00:02.0,"
                    "pid=100,pid_start=1000");
}

/* The spread walk: reads every second over a 10 s window walk each of 200
 * processes exactly once, a few per read, none all at once. */
static void spread_walk_covers_each_process_once_per_window(void **state) {
  struct fixture *f = need_root(state);
  i915_device(f);
  for (pid_t pid = 1000; pid < 1200; pid++)
    fakeproc_process(&f->fp, pid, "p", NULL);
  start(f, "FullScanInterval", "10", "FdCount", "false", "UseDebugfs", "false",
        NULL);
  read_at(f, 1);
  assert_int_equal(scan_field(f, "processes"), 200);
  uint64_t total = 0, most = 0;
  for (unsigned t = 2; t <= 11; t++) {
    read_at(f, t);
    uint64_t n = scan_field(f, "processes");
    total += n;
    if (n > most)
      most = n;
  }
  assert_int_equal(total, 200);
  assert_true(most < 60); /* about 20 per read; never the whole machine */
  assert_int_equal(scan_field(f, "full_scans"), 2); /* the first, one window */
}

/* A pause longer than the window walks everything again. */
static void long_pause_walks_everything(void **state) {
  struct fixture *f = need_root(state);
  i915_device(f);
  for (pid_t pid = 1000; pid < 1050; pid++)
    fakeproc_process(&f->fp, pid, "p", NULL);
  start(f, "FullScanInterval", "10", "FdCount", "false", NULL);
  read_at(f, 1);
  read_at(f, 30);
  assert_int_equal(scan_field(f, "processes"), 50);
}

/* FdCount auto on the synthetic tree (no <ProcRoot>/self): detection
 * says no, and FdCount takes only auto, true or false. */
static void fd_count_option(void **state) {
  struct fixture *f = need_root(state);
  start(f, "FdCount", "auto", NULL);
  read_at(f, 1);
  assert_int_equal(configure(f, "FdCount", "maybe"), -EINVAL);
  assert_int_equal(configure(f, "FdCount", "TRUE"), 0);
  assert_int_equal(configure(f, "FullScanInterval", "Auto"), 0);
  assert_int_equal(configure(f, "FdCountInterval", "0"), 0);
}

#define T(name) cmocka_unit_test_setup_teardown(name, dfx_setup, dfx_teardown)

int main(void) {
  const struct CMUnitTest tests[] = {
      T(untracked_clients_counted_between_full_scans),
      T(known_fds_and_debugfs),
      T(without_fd_counts),
      T(fd_count_change_walks_the_process),
      T(same_fd_count_waits_for_its_phase),
      T(default_read_looks_at_counts_thinly),
      T(new_process_client_found_at_next_read),
      T(open_of_a_node_looks_at_every_count),
      T(dup2_in_place_found_within_full_scan_interval),
      T(no_new_pid_skips_the_listing),
      T(reused_pid_walked_and_new_series),
      T(spread_walk_covers_each_process_once_per_window),
      T(long_pause_walks_everything),
      T(fd_count_option),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
