/*
 * pci_dvsec.h: finding the NVIDIA Designated Vendor-Specific Extended
 * Capability that Tegra410 root ports carry in PCI config space, which
 * says which socket, PCIe root complex (RC) and root port a port is, so
 * the per-RC PMUs (nvidia_pcie_pmu_<socket>_rc_<rc>) can be labelled with
 * the PCI segment they serve.
 *
 * Walk (PCIe base spec, extended capabilities): from offset 0x100, each
 * header is a little-endian u32: id bits 15:0, version 19:16, next 31:20
 * (dword aligned); 0 or 0xffffffff ends the list, as does a next below
 * 0x100; at most (4096 - 256) / 8 steps so a looped list ends. The DVSEC
 * (id 0x0023) is NVIDIA's when header 1 (u32 at +4) has vendor 0x10de in
 * bits 15:0 and header 2 (u16 at +8) DVSEC id 0x0004; then +0x0c bus,
 * +0x0d segment, +0x0e root port, +0x0f RC, +0x10 socket (bytes).
 *
 * Pure: no I/O. Without CAP_SYS_ADMIN sysfs returns only the first 64
 * bytes of config space: the caller passes what it got.
 */
#ifndef COMMON_PCI_PCI_DVSEC_H
#define COMMON_PCI_PCI_DVSEC_H

#include <stddef.h>
#include <stdint.h>

struct pci_nvidia_dvsec {
  uint8_t bus, segment, root_port, rc, socket;
};

/* 0 and *out filled; -ENOENT when there is no NVIDIA DVSEC; -ENODATA when
 * `len` does not reach extended config space (unprivileged read). */
int pci_nvidia_dvsec_find(const void *config, size_t len,
                          struct pci_nvidia_dvsec *out);

#endif
