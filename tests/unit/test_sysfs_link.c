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
                   -EINVAL);
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

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(sysfs_link_basename__cases),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
