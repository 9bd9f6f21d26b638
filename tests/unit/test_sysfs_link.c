/*
 * test_sysfs_link.c: a link's last component (the device and driver names
 * of both DRM plugins): relative to a directory or the cwd, hostile bytes
 * sanitised, a missing link and a target ending in '/' refused.
 */
#include "common/sysfs/sysfs_link.h"

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

static void sysfs_link_basename__cases(void **state) {
  (void)state;
  char dir[] = "/tmp/sysfs_link.XXXXXX";
  assert_non_null(mkdtemp(dir));
  int dfd = open(dir, O_RDONLY | O_DIRECTORY);
  assert_true(dfd >= 0);
  assert_int_equal(
      symlinkat("../../devices/pci0000:00/0000:03:00.0", dfd, "device"), 0);
  assert_int_equal(symlinkat("bare", dfd, "plain"), 0);
  assert_int_equal(symlinkat("../x/", dfd, "slash"), 0);
  assert_int_equal(symlinkat("../drivers/ev\x1bil", dfd, "hostile"), 0);
  char out[64];
  assert_int_equal(sysfs_link_basename(dfd, "device", out, sizeof(out)), 0);
  assert_string_equal(out, "0000:03:00.0");
  assert_int_equal(sysfs_link_basename(dfd, "plain", out, sizeof(out)), 0);
  assert_string_equal(out, "bare");
  assert_int_equal(sysfs_link_basename(dfd, "slash", out, sizeof(out)),
                   -EXDEV); /* kernfs never ends a link with '/' */
  assert_int_equal(sysfs_link_basename(dfd, "none", out, sizeof(out)), -ENOENT);
  assert_int_equal(sysfs_link_basename(dfd, "hostile", out, sizeof(out)), 0);
  assert_null(strchr(out, '\x1b'));
  char path[128];
  snprintf(path, sizeof(path), "%s/device", dir);
  assert_int_equal(sysfs_link_basename(AT_FDCWD, path, out, sizeof(out)), 0);
  assert_string_equal(out, "0000:03:00.0");
  char small[5];
  assert_int_equal(sysfs_link_basename(dfd, "device", small, sizeof(small)), 0);
  assert_true(strlen(small) < sizeof(small));
  const char *names[] = {"device", "plain", "slash", "hostile"};
  for (size_t i = 0; i < 4; i++)
    unlinkat(dfd, names[i], 0);
  close(dfd);
  rmdir(dir);
}

/* A crafted tree: an absolute `device` link (to a directory that has a
 * `driver` link of its own, as the real /sys would) and links with "." or
 * ".." among their names are not the kernel's: refused, never walked;
 * kernfs-shaped ones resolve through "device/driver". */
static void sysfs_link_basename__confined(void **state) {
  (void)state;
  char root[] = "/tmp/sysfs_link_root.XXXXXX",
       out_dir[] = "/tmp/sysfs_link_out.XXXXXX";
  assert_non_null(mkdtemp(root));
  assert_non_null(mkdtemp(out_dir));
  char path[512], target[512];
  /* outside: a device with a driver link */
  snprintf(path, sizeof(path), "%s/driver", out_dir);
  assert_int_equal(symlink("../bus/pci/drivers/evil", path), 0);
  /* inside: a real-looking chain and hostile links */
  const char *dirs[] = {
      "devices",         "devices/0000:03:00.0", "class",          "class/drm",
      "class/drm/card0", "class/drm/card1",      "class/drm/card2"};
  for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
    snprintf(path, sizeof(path), "%s/%s", root, dirs[i]);
    assert_int_equal(mkdir(path, 0755), 0);
  }
  snprintf(path, sizeof(path), "%s/devices/0000:03:00.0/driver", root);
  assert_int_equal(symlink("../../bus/pci/drivers/xe", path), 0);
  snprintf(path, sizeof(path), "%s/class/drm/card0/device", root);
  assert_int_equal(symlink("../../../devices/0000:03:00.0", path), 0);
  snprintf(path, sizeof(path), "%s/class/drm/card1/device", root);
  assert_int_equal(symlink(out_dir, path), 0); /* absolute */
  snprintf(path, sizeof(path), "%s/class/drm/card2/device", root);
  snprintf(target, sizeof(target), "../../../devices/../../%s",
           strrchr(out_dir, '/') + 1);
  assert_int_equal(symlink(target, path), 0); /* ".." among the names */
  char out[64];
  snprintf(path, sizeof(path), "%s/class/drm/card0", root);
  int c0 = open(path, O_RDONLY | O_DIRECTORY);
  assert_true(c0 >= 0);
  assert_int_equal(sysfs_link_basename(c0, "device/driver", out, sizeof(out)),
                   0);
  assert_string_equal(out, "xe");
  assert_int_equal(sysfs_link_basename(c0, "device", out, sizeof(out)), 0);
  assert_string_equal(out, "0000:03:00.0");
  snprintf(path, sizeof(path), "%s/class/drm/card0/device/driver", root);
  assert_int_equal(sysfs_link_basename(AT_FDCWD, path, out, sizeof(out)), 0);
  assert_string_equal(out, "xe");
  for (int card = 1; card <= 2; card++) {
    snprintf(path, sizeof(path), "%s/class/drm/card%d", root, card);
    int c = open(path, O_RDONLY | O_DIRECTORY);
    assert_true(c >= 0);
    strcpy(out, "untouched");
    assert_int_equal(sysfs_link_basename(c, "device/driver", out, sizeof(out)),
                     -EXDEV);
    assert_string_equal(out, "untouched");
    assert_int_equal(sysfs_link_basename(c, "device", out, sizeof(out)),
                     -EXDEV);
    snprintf(path, sizeof(path), "%s/class/drm/card%d/device/driver", root,
             card);
    assert_int_equal(sysfs_link_basename(AT_FDCWD, path, out, sizeof(out)),
                     -EXDEV);
    close(c);
  }
  close(c0);
  char cmd[300];
  snprintf(cmd, sizeof(cmd), "rm -rf '%s' '%s'", root, out_dir);
  assert_int_equal(system(cmd), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(sysfs_link_basename__cases),
      cmocka_unit_test(sysfs_link_basename__confined),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
