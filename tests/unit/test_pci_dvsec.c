/*
 * test_pci_dvsec.c: the NVIDIA DVSEC walk on hand-built config spaces.
 */
#include "common/pci/pci_dvsec.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

static uint8_t cfg[4096];

static void put32(size_t pos, uint32_t v) {
  for (int i = 0; i < 4; i++)
    cfg[pos + (size_t)i] = (uint8_t)(v >> (8 * i));
}

/* An extended capability header: id, version 1, next. */
static void cap(size_t pos, uint16_t id, size_t next) {
  put32(pos, (uint32_t)id | 1u << 16 | (uint32_t)next << 20);
}

static void nvidia_dvsec(size_t pos, size_t next, uint16_t vendor,
                         uint16_t dvsec_id) {
  cap(pos, 0x0023, next);
  put32(pos + 4, vendor | 1u << 16 | 0x14u << 20);
  cfg[pos + 8] = (uint8_t)dvsec_id;
  cfg[pos + 9] = (uint8_t)(dvsec_id >> 8);
  cfg[pos + 0x0c] = 0x80; /* bus */
  cfg[pos + 0x0d] = 0x02; /* segment */
  cfg[pos + 0x0e] = 3;    /* root port */
  cfg[pos + 0x0f] = 1;    /* RC */
  cfg[pos + 0x10] = 1;    /* socket */
}

static void pci_nvidia_dvsec_find__after_other_caps(void **state) {
  (void)state;
  memset(cfg, 0, sizeof(cfg));
  cap(0x100, 0x0001, 0x148);                  /* AER */
  nvidia_dvsec(0x148, 0x200, 0x1e0f, 0x0004); /* another vendor's DVSEC */
  cap(0x200, 0x0019, 0x300);                  /* secondary PCIe */
  nvidia_dvsec(0x300, 0, 0x10de, 0x0004);
  struct pci_nvidia_dvsec d;
  assert_int_equal(pci_nvidia_dvsec_find(cfg, sizeof(cfg), &d), 0);
  assert_int_equal(d.bus, 0x80);
  assert_int_equal(d.segment, 2);
  assert_int_equal(d.root_port, 3);
  assert_int_equal(d.rc, 1);
  assert_int_equal(d.socket, 1);
}

static void pci_nvidia_dvsec_find__absent_short_and_looped(void **state) {
  (void)state;
  struct pci_nvidia_dvsec d;
  memset(cfg, 0, sizeof(cfg));
  assert_int_equal(pci_nvidia_dvsec_find(cfg, 64, &d), -ENODATA);
  assert_int_equal(pci_nvidia_dvsec_find(cfg, sizeof(cfg), &d), -ENOENT);
  cap(0x100, 0x0001, 0x100); /* points at itself */
  assert_int_equal(pci_nvidia_dvsec_find(cfg, sizeof(cfg), &d), -ENOENT);
  memset(cfg, 0xff, sizeof(cfg));
  assert_int_equal(pci_nvidia_dvsec_find(cfg, sizeof(cfg), &d), -ENOENT);
  memset(cfg, 0, sizeof(cfg));
  nvidia_dvsec(0x100, 0, 0x10de, 0x0005); /* another NVIDIA DVSEC */
  assert_int_equal(pci_nvidia_dvsec_find(cfg, sizeof(cfg), &d), -ENOENT);
  nvidia_dvsec(0x100, 0, 0x10de, 0x0004);
  /* cut before the socket byte */
  assert_int_equal(pci_nvidia_dvsec_find(cfg, 0x110, &d), -ENOENT);
  assert_int_equal(pci_nvidia_dvsec_find(cfg, 0x111, &d), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(pci_nvidia_dvsec_find__after_other_caps),
      cmocka_unit_test(pci_nvidia_dvsec_find__absent_short_and_looped),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
