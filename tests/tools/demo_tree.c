/*
 * demo_tree.c: the simulated machine behind `make demo`.
 *
 * Builds a synthetic proc/, sys/, debug/ and dev/ tree (tests/lib/fakeproc:
 * real char device nodes, so it needs root for mknod) with DRM clients of
 * several drivers, then keeps it alive: every 0.5 s each client's counters
 * advance by a load that drifts (slow sine waves, one per engine), and every
 * fdinfo file and debugfs client list is rewritten atomically (write to a
 * temporary file, then rename), as the kernel never shows a half-written
 * file. The keys follow Documentation/gpu/drm-usage-stats.rst and each
 * driver's own quirks (the printers in drm_file.c and each driver's
 * show_fdinfo, e.g. amdgpu_fdinfo.c: amdgpu_show_fdinfo):
 *
 *   i915      card0 of 0000:00:02.0: gnome-shell, its fd inherited by
 *             gnome-terminal (one client, two processes); firefox on
 *             renderD128; engine ns, video with capacity 2, system0 memory
 *   xe        0000:03:00.0: blender, and vkcube coming and going every 20 s;
 *             drm-cycles-* with drm-total-cycles-* (ccs capacity 2), vram0
 *   amdgpu    0000:08:00.0: a game whose engines appear one by one (amdgpu
 *             prints an engine only once it has run), mpv decoding; vram and
 *             gtt, in the resident keys and the legacy "drm-memory-x: \t"
 *             form (a space then a TAB)
 *   panfrost  fde60000.gpu: a kiosk browser in /system.slice/kiosk.service;
 *             drm-cycles-* with drm-maxfreq-* and a varying drm-curfreq-*
 *   amdxdna   accel0 (major 261) of 0000:c5:00.1: llama-server in the
 *             container cgroup /kubepods/pod123/ctr; NPU busy ns
 *
 * plus processes without DRM fds. Clients sharing an engine never add up to
 * more than it can do, as on a real GPU. Usage: demo_tree [PARENT_DIR]. The
 * tree goes under a new mkdtemp() directory in PARENT_DIR (default $TMPDIR or
 * /tmp); its root is printed as the first and only line on stdout. SIGTERM,
 * SIGINT or SIGHUP, or the death of the parent process, removes the tree
 * and exits 0.
 */
#include "tests/lib/fakeproc.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#define DEMO_TICK_NS 500000000L
#define DEMO_MAX_ENGINES 4
#define DEMO_MAX_REGIONS 3
#define DEMO_MAX_HOLDERS 2
#define DEMO_XE_TS_HZ 19200000.0    /* xe GPU timestamp: drm-total-cycles */
#define DEMO_MALI_MAXFREQ 800000000 /* panfrost drm-maxfreq, Hz */

enum demo_style {
  DEMO_NS,        /* drm-engine-<e>: <ns> ns */
  DEMO_XE,        /* drm-cycles-<e> + drm-total-cycles-<e> */
  DEMO_MALI,      /* drm-cycles-<e> + drm-maxfreq-<e> + drm-curfreq-<e> */
  DEMO_AMDGPU_NS, /* ns, an engine printed only once non-zero */
};

struct demo_engine {
  const char *name;
  unsigned capacity;
  double base, amp, period_s; /* load = base + amp * sin(2 pi t / period) */
  double appears_s;           /* amdgpu: first run at this time */
  double value;               /* ns or cycles so far */
};

struct demo_region {
  const char *name;
  double mib; /* around this size, drifting by 10 % */
};

struct demo_holder {
  pid_t pid;
  const char *comm;
  const char *cgroup;
  unsigned uid;
};

struct demo_client {
  const char *driver;
  const char *pdev; /* NULL: no drm-pdev line (platform device) */
  const char *minor;
  unsigned minor_index; /* debugfs dri/<index>, accel/<index> */
  bool accel;
  uint64_t id;
  int fd;
  enum demo_style style;
  struct demo_holder holders[DEMO_MAX_HOLDERS];
  size_t n_holders;
  struct demo_engine engines[DEMO_MAX_ENGINES];
  size_t n_engines;
  struct demo_region regions[DEMO_MAX_REGIONS];
  size_t n_regions;
  double on_s, off_s; /* transient: present while t mod 20 s in [on, off) */
  bool present;
  double total_cycles; /* xe: the GPU timestamp, shared by every class */
};

#define HOLDER(p, c, g, u)                                                     \
  { (p), (c), (g), (u) }
#define ENGINE(n, cap, b, a, per)                                              \
  { (n), (cap), (b), (a), (per), 0, 0 }
#define LAZY(n, b, a, per, at)                                                 \
  { (n), 1, (b), (a), (per), (at), 0 }
#define USER_SLICE "/user.slice/user-1000.slice/"

static struct demo_client demo_clients[] = {
    {.driver = "i915",
     .pdev = "0000:00:02.0",
     .minor = "card0",
     .id = 11,
     .fd = 12,
     .style = DEMO_NS,
     .holders = {HOLDER(1001, "gnome-shell", USER_SLICE "session-2.scope",
                        1000),
                 HOLDER(1006, "gnome-terminal-", USER_SLICE "session-2.scope",
                        1000)},
     .n_holders = 2,
     .engines = {ENGINE("render", 1, 0.25, 0.15, 9),
                 ENGINE("copy", 1, 0.03, 0.02, 5),
                 ENGINE("video", 2, 0.10, 0.08, 13),
                 ENGINE("video-enhance", 1, 0.04, 0.04, 7)},
     .n_engines = 4,
     .regions = {{"system0", 96}},
     .n_regions = 1},
    {.driver = "i915",
     .pdev = "0000:00:02.0",
     .minor = "renderD128",
     .minor_index = 128,
     .id = 14,
     .fd = 31,
     .style = DEMO_NS,
     .holders = {HOLDER(1003, "firefox", USER_SLICE "app-firefox.scope", 1000)},
     .n_holders = 1,
     .engines = {ENGINE("render", 1, 0.12, 0.10, 6),
                 ENGINE("video", 2, 0.45, 0.30, 17)},
     .n_engines = 2,
     .regions = {{"system0", 310}},
     .n_regions = 1},
    {.driver = "xe",
     .pdev = "0000:03:00.0",
     .minor = "renderD129",
     .minor_index = 129,
     .id = 21,
     .fd = 7,
     .style = DEMO_XE,
     .holders = {HOLDER(1002, "blender", USER_SLICE "app-blender.scope", 1000)},
     .n_holders = 1,
     .engines = {ENGINE("rcs", 1, 0.45, 0.20, 11),
                 ENGINE("bcs", 1, 0.05, 0.05, 4),
                 ENGINE("ccs", 2, 0.50, 0.45, 15)},
     .n_engines = 3,
     .regions = {{"vram0", 1536}, {"gtt", 64}, {"system", 16}},
     .n_regions = 3},
    {.driver = "xe",
     .pdev = "0000:03:00.0",
     .minor = "renderD129",
     .minor_index = 129,
     .id = 22,
     .fd = 5,
     .style = DEMO_XE,
     .holders = {HOLDER(1007, "vkcube", USER_SLICE "app-vkcube.scope", 1000)},
     .n_holders = 1,
     .engines = {ENGINE("rcs", 1, 0.25, 0.08, 3)},
     .n_engines = 1,
     .regions = {{"vram0", 24}},
     .n_regions = 1,
     .on_s = 6,
     .off_s = 14},
    {.driver = "amdgpu",
     .pdev = "0000:08:00.0",
     .minor = "renderD130",
     .minor_index = 130,
     .id = 31,
     .fd = 9,
     .style = DEMO_AMDGPU_NS,
     .holders = {HOLDER(1004, "supertuxkart",
                        USER_SLICE "app-supertuxkart.scope", 1000)},
     .n_holders = 1,
     .engines = {LAZY("gfx", 0.60, 0.30, 8, 3), LAZY("dma", 0.05, 0.04, 5, 5),
                 LAZY("compute", 0.15, 0.15, 12, 9)},
     .n_engines = 3,
     .regions = {{"vram", 2900}, {"gtt", 180}},
     .n_regions = 2},
    {.driver = "amdgpu",
     .pdev = "0000:08:00.0",
     .minor = "renderD130",
     .minor_index = 130,
     .id = 32,
     .fd = 4,
     .style = DEMO_AMDGPU_NS,
     .holders = {HOLDER(1008, "mpv", USER_SLICE "app-mpv.scope", 1000)},
     .n_holders = 1,
     .engines = {LAZY("dec", 0.22, 0.05, 4, 0), LAZY("gfx", 0.04, 0.03, 6, 0)},
     .n_engines = 2,
     .regions = {{"vram", 120}, {"gtt", 40}},
     .n_regions = 2},
    {.driver = "panfrost",
     .minor = "renderD131",
     .minor_index = 131,
     .id = 41,
     .fd = 6,
     .style = DEMO_MALI,
     .holders = {HOLDER(1005, "cog", "/system.slice/kiosk.service", 0)},
     .n_holders = 1,
     .engines = {ENGINE("fragment", 1, 0.45, 0.30, 10),
                 ENGINE("vertex-tiler", 1, 0.15, 0.10, 7)},
     .n_engines = 2,
     .regions = {{"memory", 290}},
     .n_regions = 1},
    {.driver = "amdxdna_accel_driver",
     .pdev = "0000:c5:00.1",
     .minor = "accel0",
     .accel = true,
     .id = 51,
     .fd = 3,
     .style = DEMO_NS,
     .holders = {HOLDER(1009, "llama-server", "/kubepods/pod123/ctr", 0)},
     .n_holders = 1,
     .engines = {ENGINE("npu-amdxdna", 1, 0.80, 0.15, 20)},
     .n_engines = 1,
     .regions = {{"memory", 512}},
     .n_regions = 1},
};
#define DEMO_N_CLIENTS (sizeof(demo_clients) / sizeof(demo_clients[0]))

static volatile sig_atomic_t demo_stop;

static void demo_on_signal(int sig) {
  (void)sig;
  demo_stop = 1;
}

static void demo_fail(const char *object, const char *what, int err) {
  fprintf(stderr, "demo_tree: %s: %s: %s\n", object, what, strerror(err));
}

/* Write `text` to `path` through a temporary file and rename(). */
static int demo_write_atomic(const char *path, const char *text) {
  char tmp[1100];
  const char *slash = strrchr(path, '/');
  int dir_len = slash ? (int)(slash - path) : 0;
  snprintf(tmp, sizeof(tmp), "%.*s/.%s.tmp", dir_len, path,
           slash ? slash + 1 : path);
  int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    int err = errno;
    demo_fail(tmp, "open", err);
    return -err;
  }
  size_t len = strlen(text);
  ssize_t n = write(fd, text, len);
  int err = n < 0 ? errno : EIO;
  close(fd);
  if (n != (ssize_t)len) {
    demo_fail(tmp, "write", err);
    unlink(tmp);
    return -err;
  }
  if (rename(tmp, path) < 0) {
    err = errno;
    demo_fail(path, "rename", err);
    unlink(tmp);
    return -err;
  }
  return 0;
}

/* A small append-only text buffer; output past the end is cut. */
struct demo_text {
  char buf[4096];
  size_t len;
};

__attribute__((format(printf, 2, 3))) static void
demo_printf(struct demo_text *t, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(t->buf + t->len, sizeof(t->buf) - t->len, fmt, ap);
  va_end(ap);
  if (n > 0)
    t->len += (size_t)n < sizeof(t->buf) - t->len ? (size_t)n
                                                  : sizeof(t->buf) - t->len - 1;
}

static double demo_load(const struct demo_engine *e, double t) {
  double l = e->base + e->amp * sin(2 * M_PI * t / e->period_s);
  return l < 0 ? 0 : l > 1 ? 1 : l;
}

static unsigned long long demo_kib(const struct demo_region *r, double t,
                                   double share) {
  double mib = r->mib * share * (1.0 + 0.1 * sin(2 * M_PI * t / 30.0));
  return (unsigned long long)(mib * 1024.0);
}

/* Advance a client's counters by dt seconds of its load at time t. */
static void demo_advance(struct demo_client *c, double t, double dt) {
  c->total_cycles += DEMO_XE_TS_HZ * dt;
  for (size_t i = 0; i < c->n_engines; i++) {
    struct demo_engine *e = &c->engines[i];
    if (t < e->appears_s)
      continue;
    double busy = demo_load(e, t) * e->capacity * dt; /* engine-seconds */
    if (c->style == DEMO_XE)
      e->value += busy * DEMO_XE_TS_HZ;
    else if (c->style == DEMO_MALI) /* clocked down when lightly loaded */
      e->value += busy * DEMO_MALI_MAXFREQ * (0.25 + 0.75 * demo_load(e, t));
    else
      e->value += busy * 1e9;
  }
}

static void demo_format(const struct demo_client *c, double t,
                        struct demo_text *out) {
  out->len = 0;
  out->buf[0] = '\0';
  /* generic fdinfo lines come first, as in the kernel */
  demo_printf(out, "pos:\t0\nflags:\t02100002\nmnt_id:\t26\nino:\t%u\n",
              1000 + (unsigned)c->id);
  if (strcmp(c->driver, "amdgpu") == 0)
    demo_printf(out, "pasid:\t%u\n", 32768 + (unsigned)c->id);
  demo_printf(out, "drm-driver:\t%s\n", c->driver);
  if (c->pdev != NULL)
    demo_printf(out, "drm-pdev:\t%s\n", c->pdev);
  demo_printf(out, "drm-client-id:\t%llu\n", (unsigned long long)c->id);
  for (size_t i = 0; i < c->n_engines; i++) {
    const struct demo_engine *e = &c->engines[i];
    unsigned long long v = (unsigned long long)e->value;
    switch (c->style) {
    case DEMO_AMDGPU_NS:
      if (v == 0)
        break;
      /* fall through */
    case DEMO_NS:
      demo_printf(out, "drm-engine-%s:\t%llu ns\n", e->name, v);
      break;
    case DEMO_XE:
      demo_printf(out, "drm-cycles-%s:\t%llu\ndrm-total-cycles-%s:\t%llu\n",
                  e->name, v, e->name, (unsigned long long)c->total_cycles);
      break;
    case DEMO_MALI: {
      unsigned long long cur =
          (unsigned long long)(DEMO_MALI_MAXFREQ *
                               (0.25 + 0.75 * demo_load(e, t)));
      /* the ns line is left out so the cycles/maxfreq formula shows */
      demo_printf(out,
                  "drm-cycles-%s:\t%llu\ndrm-maxfreq-%s:\t%u Hz\n"
                  "drm-curfreq-%s:\t%llu Hz\n",
                  e->name, v, e->name, DEMO_MALI_MAXFREQ, e->name, cur);
      break;
    }
    }
    if (e->capacity > 1)
      demo_printf(out, "drm-engine-capacity-%s:\t%u\n", e->name, e->capacity);
  }
  for (size_t i = 0; i < c->n_regions; i++) {
    const struct demo_region *r = &c->regions[i];
    unsigned long long total = demo_kib(r, t, 1.0);
    unsigned long long resident = demo_kib(r, t, 0.85);
    demo_printf(out, "drm-total-%s:\t%llu KiB\ndrm-shared-%s:\t0\n", r->name,
                total, r->name);
    demo_printf(out, "drm-resident-%s:\t%llu KiB\n", r->name, resident);
    if (strcmp(c->driver, "amdgpu") == 0) /* ~6.11 prints both forms */
      demo_printf(out, "drm-memory-%s: \t%llu KiB\n", r->name, resident);
  }
}

/* The holders' fdinfo files (they show the same drm_file). */
static int demo_write_fdinfo(struct fakeproc *fp, const struct demo_client *c,
                             const struct demo_text *text) {
  for (size_t h = 0; h < c->n_holders; h++) {
    char path[1024];
    snprintf(path, sizeof(path), "%s/%d/fdinfo/%d", fp->proc,
             (int)c->holders[h].pid, c->fd);
    int rc = demo_write_atomic(path, text->buf);
    if (rc < 0)
      return rc;
  }
  return 0;
}

/* Bring a client's processes up: fdinfo first, then the fd link, so a
 * scanner never finds the fd without its fdinfo. */
static int demo_client_start(struct fakeproc *fp, struct demo_client *c,
                             double t) {
  struct demo_text text;
  for (size_t h = 0; h < c->n_holders; h++) {
    const struct demo_holder *p = &c->holders[h];
    int rc = fakeproc_process(fp, p->pid, p->comm, p->cgroup);
    if (rc < 0) {
      demo_fail(fp->proc, "process", -rc);
      return rc;
    }
  }
  demo_format(c, t, &text);
  if (demo_write_fdinfo(fp, c, &text) < 0)
    return -EIO;
  for (size_t h = 0; h < c->n_holders; h++) {
    char path[1024], target[1024];
    snprintf(path, sizeof(path), "%s/%d/fd/%d", fp->proc,
             (int)c->holders[h].pid, c->fd);
    snprintf(target, sizeof(target), "%s/%s", fp->dev, c->minor);
    if (symlink(target, path) < 0 && errno != EEXIST) {
      int err = errno;
      demo_fail(path, "symlink", err);
      return -err;
    }
  }
  c->present = true;
  return 0;
}

static void demo_client_stop(struct fakeproc *fp, struct demo_client *c) {
  for (size_t h = 0; h < c->n_holders; h++)
    fakeproc_process_remove(fp, c->holders[h].pid);
  c->present = false;
  for (size_t i = 0; i < c->n_engines; i++)
    c->engines[i].value = 0; /* a new process starts from zero */
}

/* <debug>/dri/<index>/clients and <debug>/accel/<index>/clients, printed
 * like drm_clients_info(): "%20s %5d %3d   %c    %c %5d %10u". */
static int demo_write_debugfs(struct fakeproc *fp) {
  for (size_t i = 0; i < DEMO_N_CLIENTS; i++) {
    const struct demo_client *first = &demo_clients[i];
    bool done = false;
    for (size_t k = 0; k < i && !done; k++)
      done = demo_clients[k].minor_index == first->minor_index &&
             demo_clients[k].accel == first->accel;
    if (done)
      continue;
    struct demo_text text = {.len = 0};
    demo_printf(&text, "%20s %5s %3s master a %5s %10s\n", "command", "pid",
                "dev", "uid", "magic");
    for (size_t k = i; k < DEMO_N_CLIENTS; k++) {
      const struct demo_client *c = &demo_clients[k];
      if (!c->present || c->minor_index != first->minor_index ||
          c->accel != first->accel)
        continue;
      /* one row per open file, under the pid that opened it: an
       * inherited fd adds no row */
      const struct demo_holder *p = &c->holders[0];
      bool master = !c->accel && c->minor_index == 0;
      demo_printf(&text, "%20s %5d %3u   %c    %c %5u %10u\n", p->comm,
                  (int)p->pid, c->minor_index, master ? 'y' : 'n', 'y', p->uid,
                  0u);
    }
    char dir[1024], path[1100];
    snprintf(dir, sizeof(dir), "%s/%s/%u", fp->debug,
             first->accel ? "accel" : "dri", first->minor_index);
    snprintf(path, sizeof(path), "%s/clients", dir);
    if (access(dir, F_OK) != 0) {
      char rel[64];
      snprintf(rel, sizeof(rel), "debug/%s/%u/clients",
               first->accel ? "accel" : "dri", first->minor_index);
      if (fakeproc_write(fp, rel, "") < 0)
        return -EIO;
    }
    if (demo_write_atomic(path, text.buf) < 0)
      return -EIO;
  }
  return 0;
}

/* Devices, bystander processes and the clients present at t = 0. */
static int demo_build(struct fakeproc *fp) {
  static const struct {
    unsigned major, minor;
    const char *name, *device, *driver;
  } devices[] = {
      {226, 0, "card0", "0000:00:02.0", "i915"},
      {226, 128, "renderD128", "0000:00:02.0", "i915"},
      {226, 129, "renderD129", "0000:03:00.0", "xe"},
      {226, 130, "renderD130", "0000:08:00.0", "amdgpu"},
      {226, 131, "renderD131", "fde60000.gpu", "panfrost"},
      {261, 0, "accel0", "0000:c5:00.1", "amdxdna"},
  };
  for (size_t i = 0; i < sizeof(devices) / sizeof(devices[0]); i++) {
    int rc =
        fakeproc_device(fp, devices[i].major, devices[i].minor, devices[i].name,
                        devices[i].device, devices[i].driver);
    if (rc == 0)
      rc = fakeproc_runtime_status(fp, devices[i].device, "active\n");
    if (rc < 0) {
      demo_fail(devices[i].name, "device", -rc);
      return rc;
    }
  }
  /* processes holding no DRM fd: only their fd walk costs anything */
  static const struct {
    pid_t pid;
    const char *comm, *cgroup;
    int fds;
  } others[] = {
      {1, "systemd", "/init.scope", 40},
      {412, "journald", "/system.slice/systemd-journald.service", 25},
      {1010, "bash", USER_SLICE "session-2.scope", 4},
  };
  for (size_t i = 0; i < sizeof(others) / sizeof(others[0]); i++) {
    int rc =
        fakeproc_process(fp, others[i].pid, others[i].comm, others[i].cgroup);
    for (int fd = 0; rc == 0 && fd < others[i].fds; fd++)
      rc = fakeproc_fd(fp, others[i].pid, fd, NULL, "pos:\t0\nflags:\t02\n");
    if (rc < 0) {
      demo_fail(others[i].comm, "process", -rc);
      return rc;
    }
  }
  for (size_t i = 0; i < DEMO_N_CLIENTS; i++) {
    struct demo_client *c = &demo_clients[i];
    if (c->off_s <= 0 && demo_client_start(fp, c, 0) < 0)
      return -EIO;
  }
  return demo_write_debugfs(fp);
}

static double demo_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* One tick at time t (seconds since start), dt since the last one. */
static int demo_tick(struct fakeproc *fp, double t, double dt) {
  bool changed = false;
  for (size_t i = 0; i < DEMO_N_CLIENTS; i++) {
    struct demo_client *c = &demo_clients[i];
    if (c->off_s > 0) {
      double phase = fmod(t, 20.0);
      bool want = phase >= c->on_s && phase < c->off_s;
      if (want && !c->present) {
        if (demo_client_start(fp, c, t) < 0)
          return -EIO;
        changed = true;
        continue; /* its counters start next tick */
      }
      if (!want && c->present) {
        c->present = false; /* out of the debugfs list first */
        if (demo_write_debugfs(fp) < 0)
          return -EIO;
        demo_client_stop(fp, c);
        continue;
      }
    }
    if (!c->present)
      continue;
    struct demo_text text;
    demo_advance(c, t, dt);
    demo_format(c, t, &text);
    if (demo_write_fdinfo(fp, c, &text) < 0)
      return -EIO;
  }
  return changed ? demo_write_debugfs(fp) : 0;
}

int main(int argc, char **argv) {
  if (argc > 2 || (argc == 2 && argv[1][0] == '-')) {
    fprintf(stderr, "usage: demo_tree [PARENT_DIR]\n");
    return 2;
  }
  if (!fakeproc_can_mknod()) {
    fprintf(stderr, "demo_tree: the simulated machine needs real DRM device "
                    "nodes (mknod), which only root can make\n");
    return 1;
  }
  if (argc == 2 && setenv("TMPDIR", argv[1], 1) < 0)
    return 1;
  struct sigaction sa;
  memset(&sa, 0, sizeof(sa));
  sa.sa_handler = demo_on_signal; /* no SA_RESTART: wake the sleep */
  sigaction(SIGTERM, &sa, NULL);
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGHUP, &sa, NULL);
  signal(SIGPIPE, SIG_IGN);
  /* Whoever started us may be killed outright (no trap runs): the tree
   * still goes away. */
  pid_t parent = getppid();
  prctl(PR_SET_PDEATHSIG, SIGTERM);
  if (getppid() != parent)
    return 1;

  struct fakeproc fp;
  int rc = fakeproc_init(&fp);
  if (rc < 0) {
    demo_fail(argc == 2 ? argv[1] : "TMPDIR", "mkdtemp", -rc);
    return 1;
  }
  if (demo_build(&fp) < 0) {
    fakeproc_fini(&fp);
    return 1;
  }
  printf("%s\n", fp.root);
  fflush(stdout);

  double start = demo_now(), last = start;
  struct timespec next;
  clock_gettime(CLOCK_MONOTONIC, &next);
  while (!demo_stop) {
    next.tv_nsec += DEMO_TICK_NS;
    if (next.tv_nsec >= 1000000000L) {
      next.tv_sec++;
      next.tv_nsec -= 1000000000L;
    }
    if (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL) != 0)
      continue; /* a signal: the loop condition decides */
    double now = demo_now();
    if (demo_tick(&fp, now - start, now - last) < 0)
      break;
    last = now;
  }
  fakeproc_fini(&fp);
  return demo_stop ? 0 : 1;
}
