/*
 * dfi_fixture.c: the drm_fdinfo test fixture (dfi_fixture.h).
 */
#include "tests/lib/dfi_fixture.h"
#include "plugins/drm_fdinfo/drm_fdinfo.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

struct dfx_calls dfx_calls;

/* The kernel seam of every drm_fdinfo fixture test: the real calls (the
 * tree is real files), counted by kind. */
static int dfx_openat(int dirfd, const char *path, int flags, mode_t mode) {
  dfx_calls.openat++;
  return kernel_real.openat(dirfd, path, flags, mode);
}

static int dfx_fstatat(int dirfd, const char *path, struct stat *st,
                       int flags) {
  size_t len = strlen(path);
  if (len > 3 && strcmp(path + len - 3, "/fd") == 0)
    dfx_calls.fd_counts++;
  else
    dfx_calls.fstatat++;
  return kernel_real.fstatat(dirfd, path, st, flags);
}

static struct kernel_ops dfx_kernel;

static uint64_t clock_mono(void *ctx) { return ((struct fixture *)ctx)->mono; }
static uint64_t clock_real(void *ctx) {
  return T0 * SEC + ((struct fixture *)ctx)->mono;
}

int dfx_setup(void **state) {
  if (!fakeproc_can_mknod())
    return 0; /* each case skips */
  struct fixture *f = calloc(1, sizeof(*f));
  assert_non_null(f);
  assert_int_equal(fakeproc_init(&f->fp), 0);
  capture_sink_init(&f->sink);
  *state = f;
  return 0;
}

int dfx_teardown(void **state) {
  struct fixture *f = *state;
  if (f == NULL)
    return 0;
  drm_fdinfo_ops.instance_free(f->inst);
  capture_sink_fini(&f->sink);
  fakeproc_fini(&f->fp);
  free(f);
  return 0;
}

struct fixture *need_root(void **state) {
  if (*state == NULL)
    skip(); /* needs root: mknod of DRM char devices */
  return *state;
}

int configure(struct fixture *f, const char *key, const char *value) {
  struct cfg_value v = {.type = CFG_STRING, .string = value};
  struct cfg_item item = {.key = key, .values = &v, .n_values = 1};
  return drm_fdinfo_ops.configure(f->inst, &item);
}

/* Create the instance on the fixture's tree; extra key/value pairs follow,
 * NULL-terminated. */
void start(struct fixture *f, ...) {
  f->inst = drm_fdinfo_ops.instance_new("test");
  assert_non_null(f->inst);
  assert_int_equal(configure(f, "ProcRoot", f->fp.proc), 0);
  assert_int_equal(configure(f, "SysfsRoot", f->fp.sys), 0);
  assert_int_equal(configure(f, "DebugfsRoot", f->fp.debug), 0);
  assert_int_equal(configure(f, "DevRoot", f->fp.dev), 0);
  va_list ap;
  va_start(ap, f);
  const char *key;
  while ((key = va_arg(ap, const char *)) != NULL)
    assert_int_equal(configure(f, key, va_arg(ap, const char *)), 0);
  va_end(ap);
  plugin_host_init(&f->host, "test", SEC);
  dfx_kernel = kernel_real;
  dfx_kernel.openat = dfx_openat;
  dfx_kernel.fstatat = dfx_fstatat;
  f->host.kernel = &dfx_kernel;
  memset(&dfx_calls, 0, sizeof(dfx_calls));
  f->host.clock = (struct plugin_clock){clock_mono, clock_real, f};
  assert_int_equal(drm_fdinfo_ops.init(f->inst, &f->host), 0);
}

/* One read at mono time `sec` seconds. */
void read_at(struct fixture *f, uint64_t sec) {
  f->mono = sec * SEC;
  capture_sink_clear(&f->sink);
  assert_int_equal(drm_fdinfo_ops.read(f->inst, &f->sink.base), 0);
}

/* The record whose line starts with `line` (a whole line without its
 * timestamp, or one cut after any field) exists, at the current time. */
void expect_line(struct fixture *f, const char *line) {
  size_t len = strlen(line);
  if (len > 0 && line[len - 1] == ',')
    len--;
  char time[32];
  snprintf(time, sizeof(time), " %llu\n",
           (unsigned long long)(T0 * SEC + f->mono));
  for (size_t i = 0; i < f->sink.n_lines; i++) {
    const char *got = f->sink.lines[i];
    if (strncmp(got, line, len) != 0)
      continue;
    const char *rest = got + len;
    const char *stamp = strrchr(got, ' ');
    if ((*rest == ',' || rest == stamp) && strcmp(stamp, time) == 0)
      return;
  }
  for (size_t i = 0; i < f->sink.n_lines; i++)
    fprintf(stderr, "# got: %s", f->sink.lines[i]);
  fail_msg("missing line: %.*s", (int)len, line);
}

void expect_no_line(struct fixture *f, const char *prefix) {
  const char *got = capture_sink_find(&f->sink, prefix);
  if (got != NULL)
    fail_msg("unexpected line: %s", got);
}

char *fdinfo_i915(unsigned id, uint64_t render_ns, uint64_t video_ns) {
  static char text[512];
  snprintf(text, sizeof(text),
           "pos:\t0\nflags:\t02100002\nmnt_id:\t24\n"
           "drm-driver:\ti915\ndrm-pdev:\t0000:00:02.0\n"
           "drm-client-id:\t%u\ndrm-engine-render:\t%llu ns\n"
           "drm-engine-video:\t%llu ns\ndrm-engine-capacity-video:\t2\n"
           "drm-total-system0:\t8 MiB\ndrm-resident-system0:\t4096 KiB\n",
           id, (unsigned long long)render_ns, (unsigned long long)video_ns);
  return text;
}

void i915_device(struct fixture *f) {
  assert_int_equal(
      fakeproc_device(&f->fp, 226, 0, "card0", "0000:00:02.0", "i915"), 0);
  assert_int_equal(
      fakeproc_device(&f->fp, 226, 128, "renderD128", "0000:00:02.0", "i915"),
      0);
}

/* /proc/<pid>/stat with start time `start` (field 22). */
void proc_stat(struct fixture *f, pid_t pid, unsigned start) {
  char rel[64], text[256];
  snprintf(rel, sizeof(rel), "proc/%d/stat", (int)pid);
  snprintf(text, sizeof(text),
           "%d (x y) S 1 1 1 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 %u 1 1\n",
           (int)pid, start);
  assert_int_equal(fakeproc_write(&f->fp, rel, text), 0);
}
