/*
 * pci_dvsec.c: the NVIDIA DVSEC walk (see pci_dvsec.h).
 */
#include "common/pci/pci_dvsec.h"

#include "common/core/le.h"

#include <errno.h>

#define PCI_EXT_CAP_START 0x100
#define PCI_EXT_CAP_ID_DVSEC 0x0023
#define PCI_VENDOR_NVIDIA 0x10de
#define NVIDIA_DVSEC_ID_TEGRA410 0x0004
#define NVIDIA_DVSEC_SIZE 0x11 /* up to and including the socket byte */

int pci_nvidia_dvsec_find(const void *config, size_t len,
                          struct pci_nvidia_dvsec *out) {
  const uint8_t *cfg = config;
  if (len < PCI_EXT_CAP_START + 4)
    return -ENODATA;
  size_t pos = PCI_EXT_CAP_START;
  for (unsigned steps = 0; steps < (4096 - 256) / 8; steps++) {
    if (pos + 4 > len)
      return -ENOENT;
    uint32_t header = le32(cfg + pos);
    if (header == 0 || header == 0xffffffffu)
      return -ENOENT;
    if ((header & 0xffff) == PCI_EXT_CAP_ID_DVSEC &&
        pos + NVIDIA_DVSEC_SIZE <= len &&
        (le32(cfg + pos + 4) & 0xffff) == PCI_VENDOR_NVIDIA &&
        (cfg[pos + 8] | cfg[pos + 9] << 8) == NVIDIA_DVSEC_ID_TEGRA410) {
      out->bus = cfg[pos + 0x0c];
      out->segment = cfg[pos + 0x0d];
      out->root_port = cfg[pos + 0x0e];
      out->rc = cfg[pos + 0x0f];
      out->socket = cfg[pos + 0x10];
      return 0;
    }
    size_t next = (header >> 20) & 0xffc;
    if (next < PCI_EXT_CAP_START)
      return -ENOENT;
    pos = next;
  }
  return -ENOENT;
}
