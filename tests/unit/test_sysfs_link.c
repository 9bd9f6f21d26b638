/*
 * test_sysfs_link.c: a link's last component (the device and driver names
 * of both DRM plugins) under a SysfsRoot: hostile bytes sanitised, a
 * missing link and a target ending in '/' refused, links followed on the
 * way, and every way out of the root refused: an absolute link, ".."
 * among a link's names, more "../" than the link's depth (as the link
 * read and as a link on the way), a way out through a link among the
 * target's names, a loop. The same walk runs again in a child where
 * openat2 is ENOSYS (a seccomp filter, as on a kernel before 5.6), which
 * takes the openat walk.
 */
#include "common/sysfs/sysfs_link.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

/* mkdir -p of `rel` under `root` */
static void mkdirs(const char *root, const char *rel) {
  char path[512];
  int n = snprintf(path, sizeof(path), "%s/%s", root, rel);
  assert_true(n > 0 && (size_t)n < sizeof(path));
  for (char *p = path + strlen(root) + 1; *p; p++)
    if (*p == '/') {
      *p = '\0';
      mkdir(path, 0755);
      *p = '/';
    }
  mkdir(path, 0755);
}

static void link_at(const char *root, const char *rel, const char *target) {
  char path[512];
  snprintf(path, sizeof(path), "%s/%s", root, rel);
  assert_int_equal(symlink(target, path), 0);
}

static void rm_rf(const char *a, const char *b) {
  char cmd[300];
  snprintf(cmd, sizeof(cmd), "rm -rf '%s' '%s'", a, b);
  assert_int_equal(system(cmd), 0);
}

static void sysfs_link_basename__cases(void **state) {
  (void)state;
  char root[] = "/tmp/sysfs_link.XXXXXX";
  assert_non_null(mkdtemp(root));
  mkdirs(root, "class/drm/card0");
  link_at(root, "class/drm/card0/device",
          "../../../devices/pci0000:00/0000:03:00.0"); /* not there: named */
  link_at(root, "class/drm/card0/plain", "bare");
  link_at(root, "class/drm/card0/slash", "../x/");
  link_at(root, "class/drm/card0/hostile", "../drivers/ev\x1bil");
  char out[64];
  const struct {
    const char *rel;
    int rc;
    const char *out;
  } cases[] = {
      {"class/drm/card0/device", 0, "0000:03:00.0"},
      {"/class//drm/./card0/device", 0, "0000:03:00.0"},
      {"class/drm/card0/plain", 0, "bare"},
      {"class/drm/card0/slash", -EXDEV, NULL}, /* never ends in '/' */
      {"class/drm/card0/none", -ENOENT, NULL},
      {"class/drm/card0", -EINVAL, NULL}, /* not a link */
      {"", -EINVAL, NULL},
      {"class/..", -EINVAL, NULL},
      {"..", -EXDEV, NULL},
      {"class/../../x", -EXDEV, NULL},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    strcpy(out, "untouched");
    int rc = sysfs_link_basename(root, cases[i].rel, out, sizeof(out));
    if (rc != cases[i].rc ||
        strcmp(out, cases[i].out ? cases[i].out : "untouched") != 0)
      fail_msg("case %zu (%s): %d \"%s\"", i, cases[i].rel, rc, out);
  }
  assert_int_equal(
      sysfs_link_basename(root, "class/drm/card0/hostile", out, sizeof(out)),
      0);
  assert_string_equal(out, "ev?il");
  char small[5];
  assert_int_equal(
      sysfs_link_basename(root, "class/drm/card0/device", small, sizeof(small)),
      0);
  assert_string_equal(small, "0000");
  assert_int_equal(sysfs_link_basename("/nonexistent-root", "x", out, 8),
                   -ENOENT);
  rm_rf(root, root);
}

/* A crafted tree under `root`, with `out_dir` outside it: a device there
 * with a driver link of its own, as the real /sys would have. */
static void confined_tree(const char *root, const char *out_dir) {
  char path[512], target[512];
  snprintf(path, sizeof(path), "%s/driver", out_dir);
  assert_int_equal(symlink("../bus/pci/drivers/evil", path), 0);
  const char *out_name = strrchr(out_dir, '/') + 1;
  mkdirs(root, "devices/0000:03:00.0");
  mkdirs(root, "dev/char");
  for (int c = 0; c <= 9; c++) {
    snprintf(path, sizeof(path), "class/drm/card%d", c);
    mkdirs(root, path);
  }
  link_at(root, "devices/0000:03:00.0/driver", "../../bus/pci/drivers/xe");
  /* kernfs-shaped and under the root */
  link_at(root, "class/drm/card0/device", "../../../devices/0000:03:00.0");
  link_at(root, "dev/char/226:0", "../../class/drm/card0");
  /* absolute */
  link_at(root, "class/drm/card1/device", out_dir);
  /* ".." among the names */
  snprintf(target, sizeof(target), "../../../devices/../../%s", out_name);
  link_at(root, "class/drm/card2/device", target);
  /* one "../" more than the link is deep: the directory holding the root */
  snprintf(target, sizeof(target), "../../../../%s", out_name);
  link_at(root, "class/drm/card3/device", target);
  /* under the root by its text, out through a link among its names */
  link_at(root, "devices/door", "../..");
  snprintf(target, sizeof(target), "../../../devices/door/%s", out_name);
  link_at(root, "class/drm/card4/device", target);
  /* a loop */
  link_at(root, "class/drm/card5/device", "../card6/device");
  link_at(root, "class/drm/card6/device", "../card5/device");
  /* out, and not there either */
  link_at(root, "class/drm/card7/device", "../../../../../../nowhere");
  /* out by a link on the way to a link that is itself harmless */
  snprintf(target, sizeof(target), "../../../../%s", out_name);
  link_at(root, "dev/char/226:8", target);
}

/* The walk over confined_tree; the number of checks that failed (said
 * on stderr), so that a child can run it too. */
static int confined_checks(const char *root) {
  static const struct {
    const char *rel;
    int rc;
    const char *out;
  } cases[] = {
      {"class/drm/card0/device", 0, "0000:03:00.0"},
      {"class/drm/card0/device/driver", 0, "xe"},
      {"dev/char/226:0", 0, "card0"},
      {"dev/char/226:0/device/driver", 0, "xe"},
      {"class/drm/card1/device", -EXDEV, NULL},
      {"class/drm/card1/device/driver", -EXDEV, NULL},
      {"class/drm/card2/device", -EXDEV, NULL},
      {"class/drm/card2/device/driver", -EXDEV, NULL},
      {"class/drm/card3/device", -EXDEV, NULL},
      {"class/drm/card3/device/driver", -EXDEV, NULL},
      {"class/drm/card4/device", -EXDEV, NULL},
      {"class/drm/card4/device/driver", -EXDEV, NULL},
      {"class/drm/card5/device", -ELOOP, NULL},
      {"class/drm/card5/device/driver", -ELOOP, NULL},
      {"class/drm/card7/device", -EXDEV, NULL},
      {"dev/char/226:8", -EXDEV, NULL},
      {"dev/char/226:8/driver", -EXDEV, NULL},
  };
  int failed = 0;
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    char out[64] = "untouched";
    int rc = sysfs_link_basename(root, cases[i].rel, out, sizeof(out));
    if (rc != cases[i].rc ||
        strcmp(out, cases[i].out ? cases[i].out : "untouched") != 0) {
      fprintf(stderr, "# %s: %d \"%s\", want %d\n", cases[i].rel, rc, out,
              cases[i].rc);
      failed++;
    }
  }
  return failed;
}

static void sysfs_link_basename__confined(void **state) {
  (void)state;
  char root[] = "/tmp/sysfs_link_root.XXXXXX",
       out_dir[] = "/tmp/sysfs_link_out.XXXXXX";
  assert_non_null(mkdtemp(root));
  assert_non_null(mkdtemp(out_dir));
  confined_tree(root, out_dir);
  assert_int_equal(confined_checks(root), 0);
  rm_rf(root, out_dir);
}

/* In the child: openat2 answers ENOSYS, everything else runs. */
static int deny_openat2(void) {
  struct sock_filter filter[] = {
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_openat2, 0, 1),
      BPF_STMT(BPF_RET | BPF_K,
               SECCOMP_RET_ERRNO | (ENOSYS & SECCOMP_RET_DATA)),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
  };
  struct sock_fprog prog = {sizeof(filter) / sizeof(filter[0]), filter};
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
      prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0)
    return -1;
  return syscall(SYS_openat2, AT_FDCWD, ".", NULL, 0) < 0 && errno == ENOSYS
             ? 0
             : -1;
}

static void sysfs_link_basename__confined_without_openat2(void **state) {
  (void)state;
  char root[] = "/tmp/sysfs_link_root.XXXXXX",
       out_dir[] = "/tmp/sysfs_link_out.XXXXXX";
  assert_non_null(mkdtemp(root));
  assert_non_null(mkdtemp(out_dir));
  confined_tree(root, out_dir);
  fflush(NULL);
  pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    if (deny_openat2() != 0)
      _exit(100);
    _exit(confined_checks(root) == 0 ? 0 : 1);
  }
  int status = 0;
  assert_int_equal(waitpid(pid, &status, 0), pid);
  rm_rf(root, out_dir);
  assert_true(WIFEXITED(status));
  if (WEXITSTATUS(status) == 100)
    fail_msg("seccomp: openat2 could not be made ENOSYS");
  assert_int_equal(WEXITSTATUS(status), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(sysfs_link_basename__cases),
      cmocka_unit_test(sysfs_link_basename__confined),
      cmocka_unit_test(sysfs_link_basename__confined_without_openat2),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
