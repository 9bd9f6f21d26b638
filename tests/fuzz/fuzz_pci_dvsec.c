/*
 * fuzz_pci_dvsec.c: libFuzzer target for the extended capability walk:
 * any config space ends the walk without reading out of bounds.
 */
#include "common/pci/pci_dvsec.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
  struct pci_nvidia_dvsec d;
  int rc = pci_nvidia_dvsec_find(data, size, &d);
  if (rc != 0 && rc != -2 /* ENOENT */ && rc != -61 /* ENODATA */)
    abort();
  return 0;
}
