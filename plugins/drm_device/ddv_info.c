/*
 * ddv_info.c: one info record per device, as node_exporter's
 * node_drm_card_info: the drm_device measurement's field info = 1, its
 * tags the device's identity:
 *
 *   driver, device                  as on every drm_device record
 *   pci_vendor, pci_device,         device/vendor, device/device,
 *   pci_subsystem_vendor,           device/subsystem_vendor,
 *   pci_subsystem_device            device/subsystem_device ("0x1002":
 *                                   pci-sysfs.c, pci_config_attr: fields
 *                                   of struct pci_dev, no device access)
 *   unique_id                       amdgpu device/unique_id (amdgpu_pm.c:
 *                                   amdgpu_get_unique_id: the cached
 *                                   adev->unique_id, "%016llx"; no
 *                                   runtime PM, but -EPERM while the
 *                                   device is suspended on some kernels
 *                                   (amdgpu_pm_dev_state_check), so it is
 *                                   read once the device is seen active;
 *                                   empty for 0: left out)
 *   vram_vendor                     amdgpu device/mem_info_vram_vendor
 *                                   (amdgpu_vram_mgr.c:
 *                                   amdgpu_mem_info_vram_vendor: a name
 *                                   from adev->gmc.vram_vendor, software)
 *
 * A tag whose attribute is missing or not of its kernel shape is left out
 * (platform devices have no PCI ids). Everything is read once: at setup,
 * and unique_id at the first read that finds the device active.
 */
#include "plugins/drm_device/ddv.h"

#include "common/core/text.h"
#include "common/sysfs/sysfs_value.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum {
  DDV_INFO_VENDOR,
  DDV_INFO_DEVICE,
  DDV_INFO_SUBVENDOR,
  DDV_INFO_SUBDEVICE,
  DDV_INFO_VRAM_VENDOR,
  DDV_INFO_UNIQUE_ID,
  DDV_INFO_COUNT
};

/* The attribute and tag of each, and the shape its show function prints:
 * 'p' "0x" and 4 hex digits, 'u' 16 hex digits, 'w' a lower-case word. */
static const struct {
  const char *rel, *tag;
  char shape;
} ddv_info_attrs[DDV_INFO_COUNT] = {
    [DDV_INFO_VENDOR] = {"device/vendor", "pci_vendor", 'p'},
    [DDV_INFO_DEVICE] = {"device/device", "pci_device", 'p'},
    [DDV_INFO_SUBVENDOR] = {"device/subsystem_vendor", "pci_subsystem_vendor",
                            'p'},
    [DDV_INFO_SUBDEVICE] = {"device/subsystem_device", "pci_subsystem_device",
                            'p'},
    [DDV_INFO_VRAM_VENDOR] = {"device/mem_info_vram_vendor", "vram_vendor",
                              'w'},
    [DDV_INFO_UNIQUE_ID] = {"device/unique_id", "unique_id", 'u'},
};

struct ddv_info {
  char value[DDV_INFO_COUNT][24]; /* "" when absent */
  bool unique_tried;
};

static bool ddv_info_hex(const char *s, size_t n) {
  for (size_t i = 0; i < n; i++) {
    char c = s[i];
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
      return false;
  }
  return true;
}

/* Whether `w` has the shape its attribute's show function prints. */
static bool ddv_info_shape_ok(char shape, const char *w) {
  size_t n = strlen(w);
  switch (shape) {
  case 'p':
    return n == 6 && w[0] == '0' && w[1] == 'x' && ddv_info_hex(w + 2, 4);
  case 'u':
    return n == 16 && ddv_info_hex(w, 16);
  default:
    for (size_t i = 0; i < n; i++)
      if (!(w[i] >= 'a' && w[i] <= 'z') && !(w[i] >= '0' && w[i] <= '9'))
        return false;
    return n > 0;
  }
}

static void ddv_info_read_one(struct ddv *d, const struct ddv_device *dev,
                              struct ddv_info *info, int which) {
  info->value[which][0] = '\0';
  int fd = d->k->openat(dev->dirfd, ddv_info_attrs[which].rel,
                        O_RDONLY | O_NONBLOCK | O_CLOEXEC, 0);
  if (fd < 0)
    return; /* not there: the tag is left out */
  ssize_t n = kernel_read_retry(d->k, fd, d->buf, SYSFS_VALUE_MAX);
  d->k->close(fd);
  char w[24];
  if (n <= 0 || n >= SYSFS_VALUE_MAX ||
      sysfs_value_word(d->buf, (size_t)n, w, sizeof(w)) < 0 ||
      !ddv_info_shape_ok(ddv_info_attrs[which].shape, w)) {
    if (n > 0)
      log_msg(LOG_LEVEL_WARNING, DDV_PLUGIN, dev->name,
              ddv_info_attrs[which].rel,
              "not a value the kernel prints here (%zd bytes): left out", n);
    return;
  }
  memcpy(info->value[which], w, sizeof(w));
}

void ddv_info_probe(struct ddv *d, struct ddv_device *dev) {
  struct ddv_info *info = calloc(1, sizeof(*info));
  if (info == NULL)
    return; /* no info record for it */
  for (int i = 0; i < DDV_INFO_COUNT; i++)
    if (i != DDV_INFO_UNIQUE_ID)
      ddv_info_read_one(d, dev, info, i);
  dev->info = info;
}

void ddv_info_active(struct ddv *d, struct ddv_device *dev) {
  struct ddv_info *info = dev->info;
  if (info == NULL || info->unique_tried)
    return;
  info->unique_tried = true;
  if (strcmp(dev->driver, "amdgpu") == 0)
    ddv_info_read_one(d, dev, info, DDV_INFO_UNIQUE_ID);
}

void ddv_info_free(struct ddv_device *dev) {
  free(dev->info);
  dev->info = NULL;
}

int ddv_info_report(const struct ddv *d, const struct ddv_device *dev,
                    uint64_t time_ns, struct metric_sink *sink) {
  const struct ddv_info *info = dev->info;
  if (info == NULL || !d->cfg.report[DDV_G_INFO])
    return 0;
  struct metric m;
  metric_init(&m, "drm_device", time_ns);
  metric_add_tag(&m, "driver", dev->driver);
  metric_add_tag(&m, "device", dev->name);
  for (int i = 0; i < DDV_INFO_COUNT; i++)
    if (info->value[i][0] != '\0')
      metric_add_tag(&m, ddv_info_attrs[i].tag, info->value[i]);
  metric_add_int(&m, "info", "gpu_flag", 1);
  return metric_sink_write(sink, &m);
}
