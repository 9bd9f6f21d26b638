/*
 * t410_pcie.c: labels for the per-RC PCIe PMUs. Each NVIDIA root port
 * (vendor 0x10de, class 0x0604xx) under <sysfs>/bus/pci/devices carries a
 * DVSEC naming its socket, RC and root port (common/pci/pci_dvsec.h); the
 * PCI segment of the RC's ports becomes the PMU's `segment` tag, which is
 * what `lspci` users recognise. Reading config space beyond 64 bytes needs
 * CAP_SYS_ADMIN: without it this says so once and labels nothing.
 */
#include "common/core/fileio.h"
#include "common/core/log.h"
#include "common/pci/pci_dvsec.h"
#include "plugins/tegra410_uncore/t410_preset.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static bool t410_is_nvidia_root_port(int dev_fd) {
  char vendor[16], class[16];
  return fileio_read_line_at(dev_fd, "vendor", vendor, sizeof(vendor)) > 0 &&
         strcmp(vendor, "0x10de") == 0 &&
         fileio_read_line_at(dev_fd, "class", class, sizeof(class)) > 0 &&
         strncmp(class, "0x0604", 6) == 0;
}

size_t t410_pcie_labels_scan(const char *sysfs_root,
                             struct t410_pcie_label *labels, size_t max) {
  char path[512];
  snprintf(path, sizeof(path), "%s/bus/pci/devices", sysfs_root);
  DIR *dir = opendir(path);
  if (dir == NULL)
    return 0;
  struct fileio_buf buf;
  fileio_buf_init(&buf);
  size_t n = 0;
  struct dirent *de;
  while ((de = readdir(dir)) != NULL) {
    if (de->d_name[0] == '.')
      continue;
    int dev_fd =
        openat(dirfd(dir), de->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dev_fd < 0)
      continue;
    bool candidate = t410_is_nvidia_root_port(dev_fd);
    int rc = candidate ? fileio_read_at(dev_fd, "config", &buf, 4096) : -1;
    close(dev_fd);
    if (!candidate || (rc < 0 && rc != -E2BIG))
      continue;
    struct pci_nvidia_dvsec d;
    rc = pci_nvidia_dvsec_find(buf.data, buf.len, &d);
    if (rc == -ENODATA) {
      log_msg(LOG_LEVEL_INFO, T410_PLUGIN, de->d_name, "config",
              "only %zu bytes of PCI config space are readable (the DVSEC "
              "needs CAP_SYS_ADMIN); PCIe PMUs get no segment labels",
              buf.len);
      break;
    }
    if (rc < 0)
      continue;
    /* every root port of an RC names the same segment: one label per RC */
    size_t i = 0;
    while (i < n && (labels[i].socket != d.socket || labels[i].rc != d.rc))
      i++;
    if (i < n)
      continue;
    if (n == max) {
      log_msg(LOG_LEVEL_WARNING, T410_PLUGIN, de->d_name, "DVSEC",
              "more than %zu root complexes; socket %u RC %u gets no "
              "segment label",
              max, d.socket, d.rc);
      continue;
    }
    labels[n].socket = d.socket;
    labels[n].rc = d.rc;
    snprintf(labels[n].segment, sizeof(labels[n].segment), "%04x", d.segment);
    n++;
  }
  fileio_buf_fini(&buf);
  closedir(dir);
  return n;
}

const char *t410_pcie_segment(const struct t410_pcie_label *labels, size_t n,
                              const char *socket, const char *rc) {
  char s[12], r[12];
  for (size_t i = 0; i < n; i++) {
    snprintf(s, sizeof(s), "%u", labels[i].socket);
    snprintf(r, sizeof(r), "%u", labels[i].rc);
    if (strcmp(s, socket) == 0 && strcmp(r, rc) == 0)
      return labels[i].segment;
  }
  return NULL;
}
