/*
 * test_pp_counters.c: the per-product index tables (libGPUCounters)
 * and Counter option parsing and resolution.
 */
#include "common/panthor/pp_counters.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

static void loc(enum pp_family f, enum pp_counter_id id, enum pp_block block,
                uint32_t index) {
  struct pp_counter_loc l;
  assert_int_equal(pp_counter_locate(f, id, &l), 0);
  assert_int_equal(l.block, block);
  assert_int_equal(l.index, index);
}

static void absent(enum pp_family f, enum pp_counter_id id) {
  struct pp_counter_loc l;
  assert_int_equal(pp_counter_locate(f, id, &l), -ENOENT);
  assert_int_equal(l.block, PP_BLOCK_UNKNOWN);
}

static void pp_counter_locate__per_family(void **state) {
  (void)state;
  /* G710 (and G610/G510/G310 [inferred]) */
  loc(PP_FAMILY_G710, PP_C_GPU_ACTIVE, PP_BLOCK_CSHW, 4);
  loc(PP_FAMILY_G710, PP_C_ITER_FRAG_READY_BLOCKED, PP_BLOCK_CSHW, 38);
  loc(PP_FAMILY_G710, PP_C_TILER_ACTIVE, PP_BLOCK_TILER, 4);
  loc(PP_FAMILY_G710, PP_C_L2_EXT_READ_BEATS, PP_BLOCK_MEMSYS, 32);
  loc(PP_FAMILY_G710, PP_C_L2_EXT_WRITE_BEATS, PP_BLOCK_MEMSYS, 47);
  loc(PP_FAMILY_G710, PP_C_L2_READ_LOOKUP, PP_BLOCK_MEMSYS, 26);
  loc(PP_FAMILY_G710, PP_C_L2_WRITE_LOOKUP, PP_BLOCK_MEMSYS, 27);
  loc(PP_FAMILY_G710, PP_C_EXEC_INSTR_FMA, PP_BLOCK_SHADER, 27);
  loc(PP_FAMILY_G710, PP_C_SHADER_CORE_ACTIVE, PP_BLOCK_SHADER, 53);
  /* G715: any-queue active stands in for GPU active */
  loc(PP_FAMILY_G715, PP_C_GPU_ACTIVE, PP_BLOCK_CSHW, 6);
  loc(PP_FAMILY_G715, PP_C_ITER_FRAG_READY_BLOCKED, PP_BLOCK_CSHW, 38);
  /* G720: no fragment queue stall */
  loc(PP_FAMILY_G720, PP_C_GPU_ACTIVE, PP_BLOCK_CSHW, 4);
  loc(PP_FAMILY_G720, PP_C_ITER_COMP_READY_BLOCKED, PP_BLOCK_CSHW, 30);
  absent(PP_FAMILY_G720, PP_C_ITER_FRAG_READY_BLOCKED);
  /* G725: queues moved */
  loc(PP_FAMILY_G725, PP_C_ITER_TILER_ACTIVE, PP_BLOCK_CSHW, 64);
  loc(PP_FAMILY_G725, PP_C_ITER_COMP_ACTIVE, PP_BLOCK_CSHW, 32);
  loc(PP_FAMILY_G725, PP_C_ITER_COMP_READY_BLOCKED, PP_BLOCK_CSHW, 38);
  loc(PP_FAMILY_G725, PP_C_ITER_FRAG_ACTIVE, PP_BLOCK_CSHW, 48);
  absent(PP_FAMILY_G725, PP_C_ITER_FRAG_READY_BLOCKED);
  loc(PP_FAMILY_G725, PP_C_L2_EXT_W_STALL, PP_BLOCK_MEMSYS, 48);
  absent(PP_FAMILY_NONE, PP_C_GPU_ACTIVE);
  absent(PP_FAMILY_G710, PP_C_COUNT);
  /* every named counter of every table is a real index */
  for (int f = PP_FAMILY_G710; f <= PP_FAMILY_G725; f++)
    for (int id = 0; id < PP_C_COUNT; id++) {
      struct pp_counter_loc l;
      if (pp_counter_locate((enum pp_family)f, (enum pp_counter_id)id, &l) == 0)
        assert_true(l.index >= 4 && l.index < 128);
    }
  assert_string_equal(pp_counter_name(PP_C_L2_EXT_AR_STALL), "L2_EXT_AR_STALL");
  assert_null(pp_counter_name(PP_C_COUNT));
  assert_int_equal(pp_counter_lookup("shader_core_active"),
                   PP_C_SHADER_CORE_ACTIVE);
  assert_int_equal(pp_counter_lookup("SHADER_CORE"), -1);
}

static void pp_counter_spec_parse__forms(void **state) {
  (void)state;
  struct pp_counter_spec s;
  struct pp_error err;
  assert_int_equal(pp_counter_spec_parse("shader:27", &s, NULL), 0);
  assert_false(s.named);
  assert_int_equal(s.loc.block, PP_BLOCK_SHADER);
  assert_int_equal(s.loc.index, 27);
  assert_string_equal(s.text, "shader:27");
  assert_int_equal(pp_counter_spec_parse("MEMSYS:0x20", &s, NULL), 0);
  assert_int_equal(s.loc.block, PP_BLOCK_MEMSYS);
  assert_int_equal(s.loc.index, 32);
  /* decimal, as the README says: a leading 0 is not octal */
  assert_int_equal(pp_counter_spec_parse("shader:010", &s, NULL), 0);
  assert_int_equal(s.loc.index, 10);
  assert_int_equal(pp_counter_spec_parse("shader:08", &s, NULL), 0);
  assert_int_equal(s.loc.index, 8);
  assert_int_equal(pp_counter_spec_parse("shader:0X1f", &s, NULL), 0);
  assert_int_equal(s.loc.index, 31);
  assert_int_equal(pp_counter_spec_parse("l2_ext_read_beats", &s, NULL), 0);
  assert_true(s.named);
  assert_int_equal(s.id, PP_C_L2_EXT_READ_BEATS);
  assert_int_equal(s.loc.block, PP_BLOCK_MEMSYS);
  static const struct {
    const char *text, *message;
  } bad[] = {
      {"shader:3", "\"shader:3\": index must be 4 to 127 (0-3 are the "
                   "block's timestamp, enable mask and reserved words)"},
      {"shader:128", NULL},
      {"shader:", NULL},
      {"shader:-5", NULL},
      {"shader: 5", NULL},
      {"shader:0x", NULL},
      {"shader:0x-5", NULL},
      {"shader:0x 5", NULL},
      {"shader:0xg", NULL},
      {"shader:9a", NULL},
      {"shader:12x", NULL},
      {"shader:99999999999999999999999", NULL},
      {"gpu:5", "\"gpu:5\": block must be fw, csg, cshw, tiler, memsys or "
                "shader"},
      {"shadercoreblockname:5", NULL},
      {":5", NULL},
      {"", NULL},
      {"NOT_A_COUNTER", "\"NOT_A_COUNTER\": not a known counter name; use "
                        "\"<block>:<index>\""},
      {"shader:5555555555555555555555555555555555555555555555", NULL},
  };
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
    assert_int_equal(pp_counter_spec_parse(bad[i].text, &s, &err), -EINVAL);
    if (bad[i].message)
      assert_string_equal(err.message, bad[i].message);
  }
}

static void pp_counter_resolve__per_device(void **state) {
  (void)state;
  struct pp_info v6 = {.layout = PP_LAYOUT_V6,
                       .counters_per_block = 64,
                       .blocks = {1, 0, 1, 1, 2, 4}};
  struct pp_counter_spec s;
  struct pp_counter_loc l;
  struct pp_error err;
  pp_counter_spec_parse("ITER_FRAG_ACTIVE", &s, NULL);
  assert_int_equal(pp_counter_resolve(&s, PP_FAMILY_G725, &v6, &l, &err), 0);
  assert_int_equal(l.block, PP_BLOCK_CSHW);
  assert_int_equal(l.index, 48);
  assert_int_equal(pp_counter_resolve(&s, PP_FAMILY_NONE, &v6, &l, &err),
                   -ENOENT);
  assert_string_equal(err.message,
                      "\"ITER_FRAG_ACTIVE\": this GPU has no such counter in "
                      "our tables; use \"<block>:<index>\"");
  pp_counter_spec_parse("ITER_TILER_ACTIVE", &s, NULL);
  /* G725's index 64 on a 64-counter session does not exist */
  assert_int_equal(pp_counter_resolve(&s, PP_FAMILY_G725, &v6, &l, &err),
                   -EINVAL);
  assert_string_equal(err.message, "\"ITER_TILER_ACTIVE\": index 64 is not "
                                   "below the 64 counters per block");
  pp_counter_spec_parse("csg:5", &s, NULL);
  assert_int_equal(pp_counter_resolve(&s, PP_FAMILY_NONE, &v6, &l, &err),
                   -EINVAL);
  assert_string_equal(err.message,
                      "\"csg:5\": the v6 layout reports no csg block");
  pp_counter_spec_parse("shader:63", &s, NULL);
  assert_int_equal(pp_counter_resolve(&s, PP_FAMILY_NONE, &v6, &l, &err), 0);
  assert_int_equal(l.index, 63);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(pp_counter_locate__per_family),
      cmocka_unit_test(pp_counter_spec_parse__forms),
      cmocka_unit_test(pp_counter_resolve__per_device),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
