/*
 * dfi_fixture.h: the drm_fdinfo test fixture shared by the unit tests of
 * the plugin: a synthetic /proc, /sys and debugfs tree (fakeproc, needs
 * root for mknod), an instance on it with scripted clocks through the host
 * context, and a capture sink whose lines the assertions compare exactly.
 */
#ifndef TESTS_LIB_DFI_FIXTURE_H
#define TESTS_LIB_DFI_FIXTURE_H

#include "common/core/plugin_host.h"
#include "tests/lib/capture_sink.h"
#include "tests/lib/fakeproc.h"

#include <stdint.h>
#include <sys/types.h>

#define SEC 1000000000ull
#define T0 1700000000ull /* realtime seconds at mono 0 */

struct fixture {
  struct fakeproc fp;
  void *inst;
  uint64_t mono;
  struct capture_sink sink;
  struct plugin_host host; /* scripted clocks: see clock_mono/_real */
};

/* The instance's kernel calls through the seam since start(), by kind:
 * fd_counts are stats of /proc/<pid>/fd, fstatat every other stat. */
struct dfx_calls {
  unsigned long openat, fstatat, fd_counts;
};
extern struct dfx_calls dfx_calls;

/* cmocka group setup/teardown: a fixture in *state, or NULL (each case
 * skips) when mknod is not allowed. */
int dfx_setup(void **state);
int dfx_teardown(void **state);
/* The fixture, or skip() without root. */
struct fixture *need_root(void **state);
/* One key with one string value. */
int configure(struct fixture *f, const char *key, const char *value);
/* Create the instance on the fixture's tree; extra key/value pairs follow,
 * NULL-terminated. */
void start(struct fixture *f, ...);
/* One read at mono time `sec` seconds, expected to succeed. */
void read_at(struct fixture *f, uint64_t sec);
/* A captured line equals `line` (whole, or cut after a field or tag). */
void expect_line(struct fixture *f, const char *line);
void expect_no_line(struct fixture *f, const char *prefix);
/* An i915 fdinfo text (static buffer) and the i915 device pair. */
char *fdinfo_i915(unsigned id, uint64_t render_ns, uint64_t video_ns);
void i915_device(struct fixture *f);
/* /proc/<pid>/stat with start time `start` (field 22). */
void proc_stat(struct fixture *f, pid_t pid, unsigned start);

#endif
