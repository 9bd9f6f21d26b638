/*
 * test_shim_panthor.c: the shim's panthor node (tests/shim/shim_panthor.h)
 * in-process through shim_kernel, ioctl by ioctl, against the v5/v6-era
 * kernel code (panthor_drv.c: panthor_ioctl_dev_query, panthor_set_uobj,
 * panthor_postclose; panthor_perf.c: panthor_perf_session_setup,
 * session_sample/stop, panthor_perf_session_teardown): DRM_IOCTL_VERSION,
 * DEV_QUERY and its size probes, BOs and their shared mappings, every
 * errno of PERF_CONTROL, the ring (wrapped insert, full at slots - 1,
 * silent drop), eventfd signalling, the session lifecycle (TEARDOWN's
 * refusals, postclose), scripted counters and the scenarios.
 */
#include "common/panthor/pp_uapi.h"
#include "tests/lib/fakeproc.h"
#include "tests/shim/shim.h"
#include "tests/shim/shim_panthor.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/ioctl.h>
#include <poll.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#define K (&shim_kernel)
#define CTL_V6 PP_IOCTL_PERF_CONTROL_V6
#define CTL_RFC PP_IOCTL_PERF_CONTROL_RFC_V2

static struct fakeproc fp;
static char path[512];

/* G720 on v6: 128 counters, 1 FW + CSHW + TILER, 2 MEMSYS, 8 SHADER */
#define G720_BLOCKS 13u
#define G720_BLOCK (24u + 8u * 128u)
#define G720_SAMPLE (56u + G720_BLOCKS * G720_BLOCK)

static void configure(enum shim_panthor_layout layout, const char *scenario) {
  struct shim_panthor_config c = {.layout = layout, .model = SHIM_PANTHOR_G720};
  if (scenario != NULL && strcmp(scenario, "unprivileged") == 0)
    c.unprivileged = true;
  if (scenario != NULL && strstr(scenario, "teardown_fixed") != NULL)
    c.teardown_fixed = true;
  if (scenario != NULL && strstr(scenario, "irq_late") != NULL)
    c.irq_late = true;
  shim_panthor_configure(&c);
}

static int setup(void **state) {
  (void)state;
  assert_int_equal(fakeproc_init(&fp), 0);
  snprintf(path, sizeof(path), "%s/renderD128", fp.root);
  assert_int_equal(shim_panthor_register(path, 128), 0);
  assert_int_equal(shim_panthor_set_rates(""), 0);
  configure(SHIM_PANTHOR_V6, NULL);
  alarm(60);
  return 0;
}

static int teardown(void **state) {
  (void)state;
  assert_int_equal(shim_device_remove(path), 0);
  fakeproc_fini(&fp);
  return 0;
}

static int open_node(void) {
  int fd = K->open(path, O_RDWR | O_CLOEXEC, 0);
  assert_true(fd >= 0);
  return fd;
}

static uint32_t bo_create(int fd, uint64_t size) {
  struct pp_bo_create c = {.size = size};
  assert_int_equal(K->ioctl(fd, PP_IOCTL_BO_CREATE, &c), 0);
  assert_int_equal(c.size % 4096, 0);
  return c.handle;
}

static void *bo_map(int fd, uint32_t handle, size_t len, int prot) {
  struct pp_bo_mmap_offset m = {.handle = handle};
  assert_int_equal(K->ioctl(fd, PP_IOCTL_BO_MMAP_OFFSET, &m), 0);
  void *p = K->mmap(NULL, len, prot, MAP_SHARED, fd, (off_t)m.offset);
  assert_true(p != MAP_FAILED);
  return p;
}

static int control(int fd, unsigned long nr, uint32_t cmd, uint32_t handle,
                   void *arg, uint64_t size) {
  struct pp_perf_control c = {.cmd = cmd,
                              .handle = handle,
                              .size = size,
                              .pointer = (uint64_t)(uintptr_t)arg};
  return K->ioctl(fd, nr, &c);
}

static int command(int fd, uint32_t cmd, uint32_t id, uint64_t user_data) {
  struct pp_cmd_user u = {.user_data = user_data};
  return control(fd, CTL_V6, cmd, id, &u, sizeof(u));
}

struct session {
  int fd, efd, id;
  uint32_t ring_h, ctrl_h, slots;
  const uint8_t *ring;
  uint64_t *ctrl; /* [0] extract, [1] insert */
};

static uint64_t ring_bytes(uint32_t slots) {
  return ((uint64_t)G720_SAMPLE * slots + 4095) / 4096 * 4096;
}

/* A v6 session; `set` 0..2; returns SETUP's result (id or -errno). */
static int open_session(struct session *s, uint32_t slots, uint8_t set,
                        uint64_t freq, uint64_t ring_size) {
  memset(s, 0, sizeof(*s));
  s->fd = open_node();
  s->slots = slots;
  s->ring_h = bo_create(s->fd, ring_size);
  s->ctrl_h = bo_create(s->fd, 4096);
  s->ring = bo_map(s->fd, s->ring_h, ring_size, PROT_READ);
  s->ctrl = bo_map(s->fd, s->ctrl_h, 4096, PROT_READ | PROT_WRITE);
  s->efd = eventfd(0, EFD_SEMAPHORE | EFD_NONBLOCK | EFD_CLOEXEC);
  struct pp_setup_v6 a = {.block_set = set,
                          .fd = s->efd,
                          .ringbuf_handle = s->ring_h,
                          .control_handle = s->ctrl_h,
                          .sample_slots = slots,
                          .sample_freq_ns = freq};
  for (int i = 0; i < 2; i++) {
    a.cshw_enable_mask[i] = a.tiler_enable_mask[i] = ~0ull;
    a.memsys_enable_mask[i] = a.shader_enable_mask[i] = ~0ull;
  }
  a.fw_enable_mask[0] = 0x30; /* counters 4 and 5 only */
  s->id = control(s->fd, CTL_V6, PP_CMD_SETUP, 0, &a, sizeof(a));
  return s->id < 0 ? -errno : s->id;
}

static void close_session(struct session *s) {
  close(s->efd);
  K->close(s->fd);
}

static uint64_t counter(const uint8_t *sample, uint32_t block, uint32_t k) {
  uint64_t v;
  memcpy(&v, sample + 56 + block * G720_BLOCK + 24 + 8 * k, sizeof(v));
  return v;
}

static uint64_t eventfd_count(int efd) {
  uint64_t n = 0, one;
  while (read(efd, &one, sizeof(one)) == sizeof(one))
    n++;
  return n;
}

static void dev_query__version_and_size_probes(void **state) {
  (void)state;
  int fd = open_node();
  char name[16] = {0};
  struct {
    int major, minor, patch;
    size_t name_len;
    char *name;
    size_t date_len;
    char *date;
    size_t desc_len;
    char *desc;
  } v = {0, 0, 0, sizeof(name) - 1, name, 0, NULL, 0, NULL};
  assert_int_equal(K->ioctl(fd, _IOWR('d', 0x00, v), &v), 0);
  assert_string_equal(name, "panthor");
  assert_int_equal(v.name_len, 7);

  struct pp_dev_query q = {.type = PP_QUERY_GPU_INFO};
  assert_int_equal(K->ioctl(fd, PP_IOCTL_DEV_QUERY, &q), 0);
  assert_int_equal(q.size, 112); /* pointer 0: the size only */
  struct pp_gpu_info gi;
  q.size = sizeof(gi);
  q.pointer = (uint64_t)(uintptr_t)&gi;
  assert_int_equal(K->ioctl(fd, PP_IOCTL_DEV_QUERY, &q), 0);
  assert_int_equal(gi.gpu_id >> 16, 0xc000);
  assert_int_equal(gi.shader_present, 0xff);
  q = (struct pp_dev_query){.type = PP_QUERY_TIMESTAMP_INFO};
  assert_int_equal(K->ioctl(fd, PP_IOCTL_DEV_QUERY, &q), 0);
  assert_int_equal(q.size, 24);
  q = (struct pp_dev_query){.type = 9};
  assert_int_equal(K->ioctl(fd, PP_IOCTL_DEV_QUERY, &q), -1);
  assert_int_equal(errno, EINVAL);

  q = (struct pp_dev_query){.type = PP_QUERY_PERF_INFO};
  assert_int_equal(K->ioctl(fd, PP_IOCTL_DEV_QUERY, &q), 0);
  assert_int_equal(q.size, 44);
  struct pp_perf_info_v6 pi;
  q.pointer = (uint64_t)(uintptr_t)&pi;
  assert_int_equal(K->ioctl(fd, PP_IOCTL_DEV_QUERY, &q), 0);
  assert_int_equal(pi.counters_per_block, 128);
  assert_int_equal(pi.sample_size, G720_SAMPLE);
  assert_int_equal(pi.memsys_blocks, 2);
  assert_int_equal(pi.shader_blocks, 8);
  /* panthor_set_uobj: `size` stays as given, the excess is zeroed, and
   * below the minimal size is EINVAL */
  uint8_t big[64];
  memset(big, 0xaa, sizeof(big));
  q = (struct pp_dev_query){.type = PP_QUERY_PERF_INFO,
                            .size = sizeof(big),
                            .pointer = (uint64_t)(uintptr_t)big};
  assert_int_equal(K->ioctl(fd, PP_IOCTL_DEV_QUERY, &q), 0);
  assert_int_equal(q.size, 64);
  assert_int_equal(big[43] == 0xaa, 0);
  for (size_t i = 44; i < sizeof(big); i++)
    assert_int_equal(big[i], 0);
  q.size = 40;
  assert_int_equal(K->ioctl(fd, PP_IOCTL_DEV_QUERY, &q), -1);
  assert_int_equal(errno, EINVAL);
  q = (struct pp_dev_query){.type = PP_QUERY_GPU_INFO,
                            .size = 96,
                            .pointer = (uint64_t)(uintptr_t)&gi};
  assert_int_equal(K->ioctl(fd, PP_IOCTL_DEV_QUERY, &q), 0);
  assert_int_equal(q.size, 96);
  q.size = 95;
  assert_int_equal(K->ioctl(fd, PP_IOCTL_DEV_QUERY, &q), -1);
  assert_int_equal(errno, EINVAL);
  K->close(fd);

  configure(SHIM_PANTHOR_RFC_V2, NULL);
  fd = open_node();
  q = (struct pp_dev_query){.type = PP_QUERY_PERF_INFO};
  assert_int_equal(K->ioctl(fd, PP_IOCTL_DEV_QUERY, &q), 0);
  assert_int_equal(q.size, 48);
  struct pp_perf_info_rfc_v2 pr;
  q.pointer = (uint64_t)(uintptr_t)&pr;
  assert_int_equal(K->ioctl(fd, PP_IOCTL_DEV_QUERY, &q), 0);
  assert_int_equal(pr.csg_blocks, 1);
  assert_int_equal(pr.shader_blocks, 8);
  K->close(fd);

  configure(SHIM_PANTHOR_NONE, NULL);
  fd = open_node();
  q = (struct pp_dev_query){.type = PP_QUERY_PERF_INFO};
  assert_int_equal(K->ioctl(fd, PP_IOCTL_DEV_QUERY, &q), -1);
  assert_int_equal(errno, EINVAL);
  K->close(fd);
}

/* Without the uAPI the PERF_CONTROL numbers reach other ioctls. */
static void perf_control__numbers_on_other_kernels(void **state) {
  (void)state;
  struct shim_panthor_stats st;
  configure(SHIM_PANTHOR_NONE, NULL);
  int fd = open_node();
  assert_int_equal(control(fd, CTL_RFC, PP_CMD_SETUP, 0, NULL, 0), -1);
  assert_int_equal(errno, ENOENT); /* BO_SET_LABEL of handle 0 */
  assert_int_equal(control(fd, CTL_V6, PP_CMD_SETUP, 0, NULL, 0), -1);
  assert_int_equal(errno, EINVAL);
  shim_panthor_get_stats(&st);
  assert_int_equal(st.stray_ioctls, 2);
  K->close(fd);

  configure(SHIM_PANTHOR_V6, NULL);
  fd = open_node();
  assert_int_equal(control(fd, CTL_RFC, PP_CMD_SETUP, 0, NULL, 0), -1);
  assert_int_equal(errno, ENOENT);
  K->close(fd);
  configure(SHIM_PANTHOR_RFC_V2, NULL);
  fd = open_node();
  assert_int_equal(control(fd, CTL_V6, PP_CMD_SETUP, 0, NULL, 0), -1);
  assert_int_equal(errno, EINVAL);
  shim_panthor_get_stats(&st);
  assert_int_equal(st.stray_ioctls, 1);
  K->close(fd);
}

static void bo_create__mmap_and_gem_close(void **state) {
  (void)state;
  int fd = open_node();
  struct pp_bo_create c = {.size = 0};
  assert_int_equal(K->ioctl(fd, PP_IOCTL_BO_CREATE, &c), -1);
  assert_int_equal(errno, EINVAL);
  c = (struct pp_bo_create){.size = 100, .flags = 2};
  assert_int_equal(K->ioctl(fd, PP_IOCTL_BO_CREATE, &c), -1);
  assert_int_equal(errno, EINVAL);
  c = (struct pp_bo_create){.size = 100, .pad = 1};
  assert_int_equal(K->ioctl(fd, PP_IOCTL_BO_CREATE, &c), -1);
  assert_int_equal(errno, EINVAL);
  c = (struct pp_bo_create){.size = 100, .exclusive_vm_id = 3};
  assert_int_equal(K->ioctl(fd, PP_IOCTL_BO_CREATE, &c), -1);
  assert_int_equal(errno, EINVAL);
  c = (struct pp_bo_create){.size = 100};
  assert_int_equal(K->ioctl(fd, PP_IOCTL_BO_CREATE, &c), 0);
  assert_int_equal(c.size, 4096);
  assert_int_equal(c.handle, 1);

  struct pp_bo_mmap_offset m = {.handle = 7};
  assert_int_equal(K->ioctl(fd, PP_IOCTL_BO_MMAP_OFFSET, &m), -1);
  assert_int_equal(errno, ENOENT);
  m = (struct pp_bo_mmap_offset){.handle = 1, .pad = 1};
  assert_int_equal(K->ioctl(fd, PP_IOCTL_BO_MMAP_OFFSET, &m), -1);
  assert_int_equal(errno, EINVAL);
  m = (struct pp_bo_mmap_offset){.handle = 1};
  assert_int_equal(K->ioctl(fd, PP_IOCTL_BO_MMAP_OFFSET, &m), 0);
  off_t off = (off_t)m.offset;
  assert_true(K->mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd, off) ==
              MAP_FAILED);
  assert_int_equal(errno, EINVAL);
  assert_true(K->mmap(NULL, 8192, PROT_READ, MAP_SHARED, fd, off) ==
              MAP_FAILED);
  assert_true(K->mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, off + 4096) ==
              MAP_FAILED);
  /* two mappings of one BO share its memory */
  uint8_t *a = K->mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, off);
  uint8_t *b = K->mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, off);
  assert_true(a != MAP_FAILED && b != MAP_FAILED);
  a[100] = 42;
  assert_int_equal(b[100], 42);
  K->munmap(a, 4096);
  K->munmap(b, 4096);

  struct pp_gem_close g = {.handle = 1, .pad = 1};
  assert_int_equal(K->ioctl(fd, PP_IOCTL_GEM_CLOSE, &g), -1);
  assert_int_equal(errno, EINVAL);
  g = (struct pp_gem_close){.handle = 9};
  assert_int_equal(K->ioctl(fd, PP_IOCTL_GEM_CLOSE, &g), -1);
  assert_int_equal(errno, EINVAL);
  g = (struct pp_gem_close){.handle = 1};
  assert_int_equal(K->ioctl(fd, PP_IOCTL_GEM_CLOSE, &g), 0);
  assert_int_equal(K->ioctl(fd, PP_IOCTL_GEM_CLOSE, &g), -1);
  struct shim_panthor_stats st;
  shim_panthor_get_stats(&st);
  assert_int_equal(st.bos, 0);
  K->close(fd);
}

static void perf_control__null_pointer_is_a_size_probe(void **state) {
  (void)state;
  int fd = open_node();
  static const uint64_t want[5] = {120, 0, 8, 8, 8};
  for (uint32_t cmd = 0; cmd < 5; cmd++) {
    struct pp_perf_control c = {.cmd = cmd, .handle = 1};
    assert_int_equal(K->ioctl(fd, CTL_V6, &c), 0);
    assert_int_equal(c.size, want[cmd]);
  }
  struct pp_perf_control c = {.cmd = 5};
  assert_int_equal(K->ioctl(fd, CTL_V6, &c), -1);
  assert_int_equal(errno, EINVAL);
  K->close(fd);
  configure(SHIM_PANTHOR_RFC_V2, NULL);
  fd = open_node();
  c = (struct pp_perf_control){.cmd = PP_CMD_SETUP};
  assert_int_equal(K->ioctl(fd, CTL_RFC, &c), 0);
  assert_int_equal(c.size, 136);
  K->close(fd);
}

static void perf_control_setup__every_errno(void **state) {
  (void)state;
  struct session s, t, u;
  assert_int_equal(open_session(&s, 4, 3, 0, ring_bytes(4)), -EINVAL);
  close_session(&s);
  assert_int_equal(open_session(&s, 4, 0, 1000000, ring_bytes(4)), -EOPNOTSUPP);
  close_session(&s);
  assert_int_equal(open_session(&s, 4, 0, 0, ring_bytes(4) + 4096), -ENOMEM);
  close_session(&s);
  assert_int_equal(open_session(&s, 8, 0, 0, ring_bytes(4)), -ENOMEM);
  close_session(&s);
  /* a bad eventfd: no fd, then not an eventfd */
  s.fd = open_node();
  uint32_t ring = bo_create(s.fd, ring_bytes(4)), ctrl = bo_create(s.fd, 4096);
  struct pp_setup_v6 a = {.fd = -1,
                          .ringbuf_handle = ring,
                          .control_handle = ctrl,
                          .sample_slots = 4};
  assert_int_equal(control(s.fd, CTL_V6, 0, 0, &a, sizeof(a)), -1);
  assert_int_equal(errno, EBADF);
  a.fd = open("/dev/null", O_RDONLY); /* not an eventfd */
  assert_int_equal(control(s.fd, CTL_V6, 0, 0, &a, sizeof(a)), -1);
  assert_int_equal(errno, EINVAL);
  close(a.fd);
  a.fd = eventfd(0, 0);
  a.ringbuf_handle = 9; /* unknown BO */
  assert_int_equal(control(s.fd, CTL_V6, 0, 0, &a, sizeof(a)), -1);
  assert_int_equal(errno, EINVAL);
  a.ringbuf_handle = ring;
  a.pad[2] = 1;
  assert_int_equal(control(s.fd, CTL_V6, 0, 0, &a, sizeof(a)), -1);
  assert_int_equal(errno, EINVAL);
  a.pad[2] = 0;
  close(a.fd);
  K->close(s.fd);

  /* two sessions system-wide, ids cyclic in [0, 1] */
  assert_int_equal(open_session(&s, 4, 0, 0, ring_bytes(4)), 0);
  assert_int_equal(open_session(&t, 4, 0, 0, ring_bytes(4)), 1);
  assert_int_equal(open_session(&u, 4, 0, 0, ring_bytes(4)), -EBUSY);
  close_session(&u);
  close_session(&s); /* postclose does not end the session: it stays */
  assert_int_equal(open_session(&u, 4, 0, 0, ring_bytes(4)), -EBUSY);
  close_session(&u);
  struct shim_panthor_stats st;
  shim_panthor_get_stats(&st);
  assert_int_equal(st.sessions, 2);
  assert_int_equal(st.sessions_leaked, 1);
  configure(SHIM_PANTHOR_V6, NULL); /* a reboot */
  assert_int_equal(open_session(&u, 4, 0, 0, ring_bytes(4)), 0);
  /* another counter set while primary is active */
  assert_int_equal(open_session(&s, 4, 1, 0, ring_bytes(4)), -EBUSY);
  close_session(&s);
  close_session(&t);
  close_session(&u);
  configure(SHIM_PANTHOR_V6, NULL);
  assert_int_equal(open_session(&s, 4, 2, 0, ring_bytes(4)), 0);
  close_session(&s);

  configure(SHIM_PANTHOR_V6, "unprivileged");
  assert_int_equal(open_session(&s, 4, 1, 0, ring_bytes(4)), -EACCES);
  close_session(&s);
  assert_int_equal(open_session(&s, 4, 0, 0, ring_bytes(4)), 0);
  close_session(&s);

  struct shim_panthor_config c = {.layout = SHIM_PANTHOR_V6,
                                  .model = SHIM_PANTHOR_G720,
                                  .others = 1,
                                  .other_set = 2};
  shim_panthor_configure(&c); /* a profiler holds tertiary */
  assert_int_equal(open_session(&s, 4, 0, 0, ring_bytes(4)), -EBUSY);
  close_session(&s);
  assert_int_equal(open_session(&s, 4, 2, 0, ring_bytes(4)), 1);
  close_session(&s);
}

/* panthor_perf_session_setup never reads control_offset: the indices are
 * at the start of the control BO whatever the caller says. */
static void perf_control_setup__control_offset_ignored(void **state) {
  (void)state;
  struct session s;
  memset(&s, 0, sizeof(s));
  s.fd = open_node();
  uint32_t ring = bo_create(s.fd, ring_bytes(4)), ctrl = bo_create(s.fd, 4096);
  s.ring = bo_map(s.fd, ring, ring_bytes(4), PROT_READ);
  s.ctrl = bo_map(s.fd, ctrl, 4096, PROT_READ | PROT_WRITE);
  s.efd = eventfd(0, EFD_SEMAPHORE | EFD_NONBLOCK);
  s.ctrl[0] = s.ctrl[1] = 5; /* zeroed by SETUP */
  s.ctrl[8] = s.ctrl[9] = 5; /* at control_offset 64: untouched */
  struct pp_setup_v6 a = {.fd = s.efd,
                          .ringbuf_handle = ring,
                          .control_handle = ctrl,
                          .sample_slots = 4,
                          .control_offset = 64};
  a.cshw_enable_mask[0] = ~0ull;
  assert_int_equal(control(s.fd, CTL_V6, PP_CMD_SETUP, 0, &a, sizeof(a)), 0);
  assert_int_equal(s.ctrl[0], 0);
  assert_int_equal(s.ctrl[1], 0);
  assert_int_equal(command(s.fd, PP_CMD_START, 0, 0), 0);
  assert_int_equal(command(s.fd, PP_CMD_SAMPLE, 0, 1), 0);
  assert_int_equal(s.ctrl[1], 1); /* published at +8 of the BO */
  assert_int_equal(s.ctrl[9], 5);
  a.control_offset = 4096 - 8; /* would not fit: not looked at either */
  assert_int_equal(control(s.fd, CTL_V6, PP_CMD_SETUP, 0, &a, sizeof(a)), 1);
  close_session(&s);
}

/* panthor_perf_session_teardown after __xa_store(NULL): refused sessions
 * stay with the sampler; the reviewed check frees after the request. */
static void perf_control_teardown__kernel_lifecycle(void **state) {
  (void)state;
  struct session s, t;
  struct shim_panthor_stats st;
  uint64_t dummy = 0;
  /* v5/v6-era: STOP's sample handled (the IRQ won): EBUSY, leaked */
  assert_int_equal(open_session(&s, 4, 0, 0, ring_bytes(4)), 0);
  assert_int_equal(command(s.fd, PP_CMD_START, 0, 0), 0);
  assert_int_equal(command(s.fd, PP_CMD_STOP, 0, 1), 0);
  assert_int_equal(control(s.fd, CTL_V6, PP_CMD_TEARDOWN, 0, &dummy, 0), -1);
  assert_int_equal(errno, EBUSY);
  shim_panthor_get_stats(&st);
  assert_int_equal(st.sessions, 0); /* the id is free ... */
  assert_int_equal(st.orphans, 1);  /* ... the session is not */
  assert_int_equal(st.teardowns, 0);
  /* its counter set stays taken: a profiler on another set is refused */
  assert_int_equal(open_session(&t, 4, 1, 0, ring_bytes(4)), -EBUSY);
  close_session(&t);
  /* a second TEARDOWN of that id: the kernel dereferences NULL */
  assert_int_equal(control(s.fd, CTL_V6, PP_CMD_TEARDOWN, 0, &dummy, 0), -1);
  assert_int_equal(errno, EFAULT);
  shim_panthor_get_stats(&st);
  assert_int_equal(st.teardown_oops, 1);
  close_session(&s);

  /* an active session: EINVAL, leaked too */
  configure(SHIM_PANTHOR_V6, NULL);
  assert_int_equal(open_session(&s, 4, 0, 0, ring_bytes(4)), 0);
  assert_int_equal(command(s.fd, PP_CMD_START, 0, 0), 0);
  assert_int_equal(control(s.fd, CTL_V6, PP_CMD_TEARDOWN, 0, &dummy, 0), -1);
  assert_int_equal(errno, EINVAL);
  shim_panthor_get_stats(&st);
  assert_int_equal(st.orphans, 1);
  close_session(&s);

  /* irq_late: TEARDOWN while STOP's request is pending frees it */
  configure(SHIM_PANTHOR_V6, "irq_late");
  assert_int_equal(open_session(&s, 4, 0, 0, ring_bytes(4)), 0);
  assert_int_equal(command(s.fd, PP_CMD_START, 0, 0), 0);
  assert_int_equal(command(s.fd, PP_CMD_SAMPLE, 0, 1), 0);
  assert_int_equal(s.ctrl[1], 0); /* not yet */
  assert_int_equal(command(s.fd, PP_CMD_SAMPLE, 0, 2), -1);
  assert_int_equal(errno, EBUSY); /* one request at a time */
  assert_int_equal(command(s.fd, PP_CMD_STOP, 0, 3), -1);
  assert_int_equal(errno, EBUSY); /* STOP too: the session stays active */
  struct pollfd pfd = {.fd = s.efd, .events = POLLIN};
  assert_int_equal(K->poll(&pfd, 1, 0), 1); /* the IRQ while we wait */
  assert_int_equal(s.ctrl[1], 1);
  assert_int_equal(command(s.fd, PP_CMD_STOP, 0, 3), 0);
  assert_int_equal(control(s.fd, CTL_V6, PP_CMD_TEARDOWN, 0, &dummy, 0), 0);
  shim_panthor_get_stats(&st);
  assert_int_equal(st.sessions, 0);
  assert_int_equal(st.orphans, 0);
  assert_int_equal(st.teardowns, 1);
  close_session(&s);

  /* the reviewed check: EBUSY while pending (leaked), 0 after the IRQ */
  configure(SHIM_PANTHOR_V6, "teardown_fixed,irq_late");
  assert_int_equal(open_session(&s, 4, 0, 0, ring_bytes(4)), 0);
  assert_int_equal(command(s.fd, PP_CMD_START, 0, 0), 0);
  assert_int_equal(command(s.fd, PP_CMD_STOP, 0, 3), 0);
  assert_int_equal(K->poll(&pfd, 1, 0), 1);
  assert_int_equal(control(s.fd, CTL_V6, PP_CMD_TEARDOWN, 0, &dummy, 0), 0);
  assert_int_equal(open_session(&t, 4, 0, 0, ring_bytes(4)), 1);
  assert_int_equal(command(t.fd, PP_CMD_START, 1, 0), 0);
  assert_int_equal(command(t.fd, PP_CMD_STOP, 1, 3), 0);
  assert_int_equal(control(t.fd, CTL_V6, PP_CMD_TEARDOWN, 1, &dummy, 0), -1);
  assert_int_equal(errno, EBUSY);
  shim_panthor_get_stats(&st);
  assert_int_equal(st.teardowns, 1);
  assert_int_equal(st.orphans, 1);
  close_session(&t);
  close_session(&s);
}

static void perf_control__unknown_or_foreign_session(void **state) {
  (void)state;
  struct session s;
  assert_int_equal(open_session(&s, 4, 0, 0, ring_bytes(4)), 0);
  assert_int_equal(command(s.fd, PP_CMD_START, 1, 0), -1);
  assert_int_equal(errno, EBADF);
  assert_int_equal(command(s.fd, PP_CMD_START, 7, 0), -1);
  assert_int_equal(errno, EBADF);
  int other = open_node();
  assert_int_equal(command(other, PP_CMD_START, 0, 0), -1);
  assert_int_equal(errno, EINVAL);
  K->close(other);
  close_session(&s);
}

static void perf_control_sample__ring_eventfd_stop_teardown(void **state) {
  (void)state;
  struct session s;
  assert_int_equal(open_session(&s, 4, 0, 0, ring_bytes(4)), 0);
  /* SAMPLE on an inactive session: 0 and nothing */
  assert_int_equal(command(s.fd, PP_CMD_SAMPLE, 0, 1), 0);
  assert_int_equal(s.ctrl[1], 0);
  assert_int_equal(eventfd_count(s.efd), 0);
  assert_int_equal(command(s.fd, PP_CMD_START, 0, 99), 0);
  assert_int_equal(command(s.fd, PP_CMD_START, 0, 99), 0); /* no-op */
  assert_int_equal(command(s.fd, PP_CMD_SAMPLE, 0, 1), 0);
  assert_int_equal(s.ctrl[1], 1);
  assert_int_equal(eventfd_count(s.efd), 1);
  struct pp_sample_header h;
  memcpy(&h, s.ring, sizeof(h));
  assert_int_equal(h.user_data, 1);
  assert_int_equal(h.timestamp_start_ns, 1000000000ull);
  assert_int_equal(h.timestamp_end_ns, 1001000000ull);
  /* block 0 FW: 4 and 5 enabled; CSHW (block 1) counter 4: rate 4 */
  assert_int_equal(counter(s.ring, 0, 4), 4);
  assert_int_equal(counter(s.ring, 0, 6), 0); /* not enabled */
  assert_int_equal(counter(s.ring, 0, 0), 1001000000ull & 0xffffffffu);
  assert_int_equal(counter(s.ring, 1, 4), 4);
  /* shader block 3 of 8 (sample block 4 + 3): rate 53 x (3 + 1) */
  assert_int_equal(counter(s.ring, 5 + 3, 53), 53 * 4);
  uint8_t bh[24];
  memcpy(bh, s.ring + 56 + 8 * G720_BLOCK, 24);
  assert_int_equal(bh[0], PP_RAW_V6_SHADER);
  assert_int_equal(bh[1], 3);

  /* fill: 1 unread; one more leaves 1 free, then SAMPLE is EBUSY */
  assert_int_equal(command(s.fd, PP_CMD_SAMPLE, 0, 2), 0);
  assert_int_equal(command(s.fd, PP_CMD_SAMPLE, 0, 3), -1);
  assert_int_equal(errno, EBUSY);
  /* consume both; wrap: the insert index stays below slots */
  s.ctrl[0] = 2;
  for (uint64_t i = 3; i < 3 + 9; i++) {
    assert_int_equal(command(s.fd, PP_CMD_SAMPLE, 0, i), 0);
    s.ctrl[0] = s.ctrl[1];
  }
  assert_int_equal(s.ctrl[1], (2 + 9) % 4);
  memcpy(&h, s.ring + (size_t)((s.ctrl[1] + 3) % 4) * G720_SAMPLE, sizeof(h));
  assert_int_equal(h.user_data, 11);

  /* STOP: its final sample, then SAMPLE is a no-op again */
  assert_int_equal(command(s.fd, PP_CMD_STOP, 0, 777), 0);
  memcpy(&h, s.ring + (size_t)((s.ctrl[1] + 3) % 4) * G720_SAMPLE, sizeof(h));
  assert_int_equal(h.user_data, 777);
  uint64_t insert = s.ctrl[1];
  assert_int_equal(command(s.fd, PP_CMD_STOP, 0, 778), 0); /* no-op */
  assert_int_equal(command(s.fd, PP_CMD_SAMPLE, 0, 12), 0);
  assert_int_equal(s.ctrl[1], insert);
  /* TEARDOWN with a NULL pointer is a size probe: the session stays */
  assert_int_equal(control(s.fd, CTL_V6, PP_CMD_TEARDOWN, 0, NULL, 0), 0);
  struct shim_panthor_stats st;
  shim_panthor_get_stats(&st);
  assert_int_equal(st.sessions, 1);
  assert_int_equal(st.ring_maps, 1);
  assert_int_equal(st.writable_maps, 0);
  /* STOP's sample was handled: EBUSY, the id freed, the session kept */
  uint64_t dummy = 0;
  assert_int_equal(control(s.fd, CTL_V6, PP_CMD_TEARDOWN, 0, &dummy, 0), -1);
  assert_int_equal(errno, EBUSY);
  shim_panthor_get_stats(&st);
  assert_int_equal(st.sessions, 0);
  assert_int_equal(st.orphans, 1);
  assert_int_equal(st.teardowns, 0);
  assert_int_equal(command(s.fd, PP_CMD_SAMPLE, 0, 1), -1);
  assert_int_equal(errno, EBADF);
  close_session(&s);
}

/* STOP needs one free slot; a full ring drops silently and carries. */
static void perf_control_sample__full_ring_drops_and_carries(void **state) {
  (void)state;
  struct shim_panthor_config c = {
      .layout = SHIM_PANTHOR_V6, .model = SHIM_PANTHOR_G720, .auto_burst = 3};
  shim_panthor_configure(&c);
  struct session s;
  assert_int_equal(open_session(&s, 4, 0, 0, ring_bytes(4)), 0);
  assert_int_equal(command(s.fd, PP_CMD_START, 0, 0), 0);
  /* 3 automatic samples (user_data 0) fill the ring: the manual drops */
  assert_int_equal(command(s.fd, PP_CMD_SAMPLE, 0, 1), 0);
  assert_int_equal(s.ctrl[1], 3);
  assert_int_equal(eventfd_count(s.efd), 3);
  struct pp_sample_header h;
  memcpy(&h, s.ring + 2 * G720_SAMPLE, sizeof(h));
  assert_int_equal(h.user_data, 0);
  assert_int_equal(command(s.fd, PP_CMD_STOP, 0, 5), -1);
  assert_int_equal(errno, EBUSY); /* no free slot */
  s.ctrl[0] = 1; /* one free: SAMPLE is EBUSY (one is kept for STOP) */
  assert_int_equal(command(s.fd, PP_CMD_SAMPLE, 0, 2), -1);
  assert_int_equal(errno, EBUSY);
  s.ctrl[0] = 2; /* two free: 2 automatic samples fit, then drops */
  assert_int_equal(command(s.fd, PP_CMD_SAMPLE, 0, 2), 0);
  assert_int_equal(s.ctrl[1], 1);
  s.ctrl[0] = s.ctrl[1];
  /* STOP's sample carries the periods of what was dropped since the
   * last delivery: the 3rd automatic, the manual and its own = 3 */
  assert_int_equal(command(s.fd, PP_CMD_STOP, 0, 9), 0);
  uint64_t last = (s.ctrl[1] + 3) % 4;
  memcpy(&h, s.ring + last * G720_SAMPLE, sizeof(h));
  assert_int_equal(h.user_data, 9);
  assert_int_equal(counter(s.ring + last * G720_SAMPLE, 1, 4), 4 * 3);
  struct shim_panthor_stats st;
  shim_panthor_get_stats(&st);
  assert_int_equal(st.samples_written, 3 + 2 + 1);
  assert_int_equal(st.samples_dropped, 1 + 2);
  close_session(&s);
}

static void shim_panthor_configure__flags_busy_drop_reset(void **state) {
  (void)state;
  struct shim_panthor_config c = {.layout = SHIM_PANTHOR_V6,
                                  .model = SHIM_PANTHOR_G720,
                                  .overflow_every = 2,
                                  .error_every = 3,
                                  .busy_every = 5,
                                  .drop_every = 4};
  shim_panthor_configure(&c);
  struct session s;
  assert_int_equal(open_session(&s, 8, 0, 0, ring_bytes(8)), 0);
  assert_int_equal(command(s.fd, PP_CMD_START, 0, 0), 0);
  uint32_t flags[8] = {0};
  int busy = 0;
  for (uint64_t i = 1; i <= 6; i++) {
    uint64_t before = s.ctrl[1];
    if (command(s.fd, PP_CMD_SAMPLE, 0, i) < 0) {
      assert_int_equal(errno, EBUSY);
      busy++;
      continue;
    }
    if (s.ctrl[1] != before) {
      struct pp_sample_header h;
      memcpy(&h, s.ring + before * G720_SAMPLE, sizeof(h));
      flags[i] = h.flags;
    }
    s.ctrl[0] = s.ctrl[1];
  }
  assert_int_equal(busy, 1);                      /* the 5th */
  assert_int_equal(flags[2], PP_SAMPLE_OVERFLOW); /* 2nd */
  assert_int_equal(flags[3], PP_SAMPLE_ERROR);    /* 3rd */
  assert_int_equal(flags[4], 0);                  /* dropped */
  assert_int_equal(flags[6], PP_SAMPLE_OVERFLOW | PP_SAMPLE_ERROR);
  close_session(&s);

  /* a reset: the file is dead, a new open works */
  c = (struct shim_panthor_config){.layout = SHIM_PANTHOR_V6,
                                   .model = SHIM_PANTHOR_G720,
                                   .reset_at = 2,
                                   .reset_errno = EIO};
  shim_panthor_configure(&c);
  assert_int_equal(open_session(&s, 4, 0, 0, ring_bytes(4)), 0);
  assert_int_equal(command(s.fd, PP_CMD_START, 0, 0), 0);
  assert_int_equal(command(s.fd, PP_CMD_SAMPLE, 0, 1), 0);
  assert_int_equal(command(s.fd, PP_CMD_SAMPLE, 0, 2), -1);
  assert_int_equal(errno, EIO);
  struct pp_dev_query q = {.type = PP_QUERY_GPU_INFO};
  assert_int_equal(K->ioctl(s.fd, PP_IOCTL_DEV_QUERY, &q), -1);
  assert_int_equal(errno, EIO);
  struct session t;
  assert_int_equal(open_session(&t, 4, 0, 0, ring_bytes(4)), 1);
  close_session(&t);
  close_session(&s);
}

static void shim_panthor_set_rates__and_models(void **state) {
  (void)state;
  assert_int_equal(shim_panthor_set_rates("cshw:4=1000,shader:53=7"), 0);
  assert_int_equal(shim_panthor_rate(2, 4), 1000);
  assert_int_equal(shim_panthor_rate(5, 53), 7);
  assert_int_equal(shim_panthor_rate(5, 52), 52);
  assert_int_equal(shim_panthor_set_rates("gpu:4=1"), -1);
  assert_int_equal(shim_panthor_set_rates("cshw:128=1"), -1);
  assert_int_equal(shim_panthor_set_rates("cshw:4=1;"), -1);
  assert_int_equal(shim_panthor_rate(2, 4), 1000); /* kept */
  assert_int_equal(shim_panthor_set_rates(""), 0);

  struct shim_panthor_config c = {.layout = SHIM_PANTHOR_V6,
                                  .model = SHIM_PANTHOR_G710};
  shim_panthor_configure(&c);
  int fd = open_node();
  struct pp_perf_info_v6 pi;
  struct pp_dev_query q = {.type = PP_QUERY_PERF_INFO,
                           .size = sizeof(pi),
                           .pointer = (uint64_t)(uintptr_t)&pi};
  assert_int_equal(K->ioctl(fd, PP_IOCTL_DEV_QUERY, &q), 0);
  assert_int_equal(pi.counters_per_block, 64);
  assert_int_equal(pi.shader_blocks, 7); /* sparse 0x1110055 */
  K->close(fd);
  c.model = SHIM_PANTHOR_G725;
  c.sample_pad = 64;
  shim_panthor_configure(&c);
  fd = open_node();
  assert_int_equal(K->ioctl(fd, PP_IOCTL_DEV_QUERY, &q), 0);
  assert_int_equal(pi.memsys_blocks, 4);
  assert_int_equal(pi.sample_size, 56 + 15 * G720_BLOCK + 64);
  K->close(fd);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(dev_query__version_and_size_probes, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(perf_control__numbers_on_other_kernels,
                                      setup, teardown),
      cmocka_unit_test_setup_teardown(bo_create__mmap_and_gem_close, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(
          perf_control__null_pointer_is_a_size_probe, setup, teardown),
      cmocka_unit_test_setup_teardown(perf_control_setup__every_errno, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(
          perf_control_setup__control_offset_ignored, setup, teardown),
      cmocka_unit_test_setup_teardown(perf_control_teardown__kernel_lifecycle,
                                      setup, teardown),
      cmocka_unit_test_setup_teardown(perf_control__unknown_or_foreign_session,
                                      setup, teardown),
      cmocka_unit_test_setup_teardown(
          perf_control_sample__ring_eventfd_stop_teardown, setup, teardown),
      cmocka_unit_test_setup_teardown(
          perf_control_sample__full_ring_drops_and_carries, setup, teardown),
      cmocka_unit_test_setup_teardown(
          shim_panthor_configure__flags_busy_drop_reset, setup, teardown),
      cmocka_unit_test_setup_teardown(shim_panthor_set_rates__and_models, setup,
                                      teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
