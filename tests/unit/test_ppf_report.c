/*
 * test_ppf_report.c: panthor_perf's options and records, through the
 * plugin's own config and report code: every byte of every line (Influx,
 * via capture_sink) for hand-set totals, and each option's errors.
 */
#include "plugins/panthor_perf/panthor_perf.h"
#include "tests/lib/capture_sink.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

static int set(struct ppf_config *cfg, const char *key, const char *value) {
  struct cfg_value v = {.type = CFG_STRING, .string = value};
  struct cfg_item item = {.key = key, .values = &v, .n_values = 1};
  return ppf_config_apply(cfg, &item);
}

static void ppf_config_apply__options(void **state) {
  (void)state;
  struct ppf_config cfg;
  ppf_config_defaults(&cfg);
  assert_int_equal(cfg.layout, PP_LAYOUT_NONE);
  assert_int_equal(cfg.counter_set, PP_SET_PRIMARY);
  assert_int_equal(cfg.ring_slots, 32);
  assert_int_equal(cfg.timeout_ms, 100);
  assert_int_equal(set(&cfg, "device", "/dev/dri/renderD128"), 0);
  assert_int_equal(set(&cfg, "Device", "/dev/dri/renderD129"), 0);
  assert_int_equal(set(&cfg, "Device", "/dev/dri/renderD128"), -EINVAL);
  assert_int_equal(set(&cfg, "Device", "renderD130"), -EINVAL);
  assert_int_equal(cfg.n_devices, 2);
  assert_int_equal(set(&cfg, "UAPI", "RFC-v2"), 0);
  assert_int_equal(cfg.layout, PP_LAYOUT_RFC_V2);
  assert_int_equal(set(&cfg, "UAPI", "v6"), 0);
  assert_int_equal(cfg.layout, PP_LAYOUT_V6);
  assert_int_equal(set(&cfg, "UAPI", "v5"), -EINVAL);
  assert_int_equal(cfg.layout, PP_LAYOUT_V6);
  assert_int_equal(set(&cfg, "CounterSet", "tertiary"), 0);
  assert_int_equal(cfg.counter_set, PP_SET_TERTIARY);
  assert_int_equal(set(&cfg, "CounterSet", "3"), -EINVAL);
  assert_int_equal(set(&cfg, "RingSlots", "64"), 0);
  assert_int_equal(cfg.ring_slots, 64);
  assert_int_equal(set(&cfg, "RingSlots", "48"), -EINVAL);
  assert_int_equal(set(&cfg, "RingSlots", "1"), -EINVAL);
  assert_int_equal(set(&cfg, "RingSlots", "2"), -EINVAL); /* never samples */
  assert_int_equal(set(&cfg, "RingSlots", "4"), 0);
  assert_int_equal(cfg.ring_slots, 4);
  assert_int_equal(set(&cfg, "RingSlots", "64"), 0);
  assert_int_equal(set(&cfg, "RingSlots", "2048"), -EINVAL);
  assert_int_equal(cfg.ring_slots, 64);
  assert_int_equal(set(&cfg, "Counter", "shader:27"), 0);
  assert_int_equal(set(&cfg, "Counter", "L2_EXT_READ_BEATS"), 0);
  assert_int_equal(set(&cfg, "Counter", "SHADER:27"), -EINVAL); /* twice */
  assert_int_equal(set(&cfg, "Counter", "shader:2"), -EINVAL);
  assert_int_equal(cfg.n_counters, 2);
  assert_int_equal(set(&cfg, "PerCore", "true"), 0);
  assert_true(cfg.per_core);
  assert_int_equal(set(&cfg, "DevRoot", "/tmp/dev"), 0);
  assert_string_equal(cfg.dev_root, "/tmp/dev");
  assert_int_equal(set(&cfg, "DevRoot", ""), -EINVAL);
  assert_int_equal(set(&cfg, "Timeout", "250"), 0);
  assert_int_equal(cfg.timeout_ms, 250);
  assert_int_equal(set(&cfg, "Timeout", "0"), -EINVAL);
  assert_int_equal(set(&cfg, "Interval2", "1"), -EINVAL);
  ppf_config_fini(&cfg);
}

static void pp_report__records(void **state) {
  (void)state;
  struct pp p;
  memset(&p, 0, sizeof(p));
  ppf_config_defaults(&p.cfg);
  assert_int_equal(set(&p.cfg, "Counter", "shader:27"), 0);
  assert_int_equal(set(&p.cfg, "Counter", "L2_EXT_READ_BEATS"), 0);
  struct ppf_device d;
  memset(&d, 0, sizeof(d));
  snprintf(d.name, sizeof(d.name), "renderD128");
  snprintf(d.gpu.name, sizeof(d.gpu.name), "Mali-G720-Immortalis");
  d.acc.n_raw = 2;
  d.acc.raw[0].loc = (struct pp_counter_loc){PP_BLOCK_SHADER, 27};
  uint64_t per_core[2] = {10, 32};
  d.acc.raw[0].per_block = per_core;
  d.acc.raw[0].n_per_block = 2;
  d.acc.raw[1].loc = (struct pp_counter_loc){PP_BLOCK_MEMSYS, 32};
  d.acc.total[PP_C_COUNT + 0] = 42;
  d.acc.total[PP_C_COUNT + 1] = 7;
  d.acc.stream = (struct pp_stream){100, 1, 2, 3, 4, 5, 6};
  struct pp_metrics m;
  memset(&m, 0, sizeof(m));
  m.have_int[PP_M_GPU_ACTIVE_CYCLES] = true;
  m.ints[PP_M_GPU_ACTIVE_CYCLES] = 123456;
  m.have_int[PP_M_EXT_READ_BYTES] = true;
  m.ints[PP_M_EXT_READ_BYTES] = 6400;
  m.have_float[PP_M_TILER_UTILIZATION] = true;
  m.floats[PP_M_TILER_UTILIZATION] = 20.5;
  m.have_float[PP_M_EXT_READ_BANDWIDTH] = true;
  m.floats[PP_M_EXT_READ_BANDWIDTH] = 12800;
  struct capture_sink c;
  capture_sink_init(&c);
  assert_int_equal(ppf_report(&p, &d, &m, &c.base, 1700000000000000000ull), 0);
  static const char *const lines[] = {
      "panthor_perf,device=renderD128,gpu=Mali-G720-Immortalis "
      "gpu_active_cycles=123456i,ext_read_bytes=6400i,"
      "tiler_utilization_percent=20.5,ext_read_bandwidth=12800.0 "
      "1700000000000000000\n",
      "panthor_perf_raw,device=renderD128,block=shader,counter=shader:27 "
      "value=42i 1700000000000000000\n",
      "panthor_perf_raw,device=renderD128,block=shader,counter=shader:27,"
      "core=0 value=10i 1700000000000000000\n",
      "panthor_perf_raw,device=renderD128,block=shader,counter=shader:27,"
      "core=1 value=32i 1700000000000000000\n",
      "panthor_perf_raw,device=renderD128,block=memsys,"
      "counter=L2_EXT_READ_BEATS value=7i 1700000000000000000\n",
      "panthor_perf_stream,device=renderD128 samples=100i,overflows=1i,"
      "errors=2i,dropped=3i,busy_skips=4i,reopens=5i,clamped=6i "
      "1700000000000000000\n",
  };
  assert_int_equal(c.n_lines, 6);
  for (size_t i = 0; i < 6; i++)
    assert_string_equal(c.lines[i], lines[i]);
  /* a product without named counters: no panthor_perf record */
  capture_sink_clear(&c);
  memset(&m, 0, sizeof(m));
  assert_int_equal(ppf_report(&p, &d, &m, &c.base, 1), 0);
  assert_int_equal(capture_sink_count(&c, "panthor_perf,"), 0);
  assert_int_equal(c.n_lines, 5);
  capture_sink_fini(&c);
  ppf_config_fini(&p.cfg);
}

int main(void) {
  log_set_sink(NULL, LOG_LEVEL_ERROR);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(ppf_config_apply__options),
      cmocka_unit_test(pp_report__records),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
