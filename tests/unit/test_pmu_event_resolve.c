/*
 * test_pmu_event_resolve.c: PMU discovery (pmu_sysfs) and event resolution
 * (pmu_event_resolve) against a synthetic sysfs holding Tegra410 PMUs
 * (formats and events as the mainline drivers publish them:
 * drivers/perf/arm_cspmu/nvidia_cspmu.c) and a Grace one for contrast: every
 * event form of the kernel documentation resolves to the config words worked
 * out by hand from the format bits.
 */
#include "common/core/log.h"
#include "common/pmu/pmu_event_resolve.h"
#include "common/pmu/pmu_sysfs.h"
#include "tests/lib/fakeproc.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

static struct fakeproc fp;

/* Messages logged, "plugin: object: what: detail" each, in order. */
static char logged[8][512];
static size_t n_logged;
static void keep_log(enum log_level level, const char *message) {
  (void)level;
  if (n_logged < 8)
    snprintf(logged[n_logged], sizeof(logged[0]), "%s", message);
  n_logged++;
}
static void log_capture(void) {
  n_logged = 0;
  log_set_sink(keep_log, LOG_LEVEL_DEBUG);
}

static void pmu_file(const char *pmu, const char *file, const char *text) {
  char rel[512];
  snprintf(rel, sizeof(rel), "sys/bus/event_source/devices/%s/%s", pmu, file);
  assert_int_equal(fakeproc_write(&fp, rel, text), 0);
}

static int setup(void **state) {
  (void)state;
  assert_int_equal(fakeproc_init(&fp), 0);
  fakeproc_write(&fp, "sys/devices/system/cpu/online", "0-3\n");
  /* UCF */
  const char *ucf = "nvidia_ucf_pmu_0";
  pmu_file(ucf, "type", "31\n");
  pmu_file(ucf, "cpumask", "0\n");
  pmu_file(ucf, "format/event", "config:0-32\n");
  pmu_file(ucf, "format/src_loc_cpu", "config1:1\n");
  pmu_file(ucf, "format/dst_loc_cmem", "config1:8\n");
  pmu_file(ucf, "format/dst_rem", "config1:11\n");
  pmu_file(ucf, "events/cycles", "event=0x100000000\n");
  pmu_file(ucf, "events/slc_bytes_rd", "event=0x113\n");
  /* PCIE, socket 1, RC 2: cpumask on CPU 88 in real boxes; 2 here */
  const char *pcie = "nvidia_pcie_pmu_1_rc_2";
  pmu_file(pcie, "type", "28\n");
  pmu_file(pcie, "cpumask", "2\n");
  pmu_file(pcie, "format/event", "config:0-32\n");
  pmu_file(pcie, "format/src_rp_mask", "config1:0-7\n");
  pmu_file(pcie, "format/src_bdf", "config1:8-23\n");
  pmu_file(pcie, "format/src_bdf_en", "config1:24\n");
  pmu_file(pcie, "format/dst_loc_cmem", "config2:0\n");
  pmu_file(pcie, "format/dst_rem", "config2:4\n");
  pmu_file(pcie, "events/rd_bytes", "event=0x0\n");
  pmu_file(pcie, "events/rd_req", "event=0x2\n");
  pmu_file(pcie, "events/cycles", "event=0x100000000\n");
  /* PCIE-TGT */
  const char *tgt = "nvidia_pcie_tgt_pmu_0_rc_0";
  pmu_file(tgt, "type", "29\n");
  pmu_file(tgt, "cpumask", "0\n");
  pmu_file(tgt, "format/event", "config:0-2\n");
  pmu_file(tgt, "format/dst_rp_mask", "config:3-10\n");
  pmu_file(tgt, "format/dst_addr_en", "config:11\n");
  pmu_file(tgt, "format/dst_addr_base", "config1:0-63\n");
  pmu_file(tgt, "format/dst_addr_mask", "config2:0-63\n");
  pmu_file(tgt, "events/rd_bytes", "event=0x0\n");
  pmu_file(tgt, "events/wr_bytes", "event=0x1\n");
  /* C2C with a GPU peer */
  const char *c2c = "nvidia_nvlink_c2c_pmu_0";
  pmu_file(c2c, "type", "33\n");
  pmu_file(c2c, "cpumask", "0\n");
  pmu_file(c2c, "peer", "nr_gpu=2\n");
  pmu_file(c2c, "format/event", "config:0-3\n");
  pmu_file(c2c, "format/gpu_mask", "config1:0-1\n");
  pmu_file(c2c, "events/in_rd_cum_outs", "event=0x1\n");
  /* Grace SCF: different names, a default-bearing event, scale/unit */
  const char *scf = "nvidia_scf_pmu_0";
  pmu_file(scf, "type", "30\n");
  pmu_file(scf, "cpumask", "0\n");
  pmu_file(scf, "format/event", "config:0-32\n");
  pmu_file(scf, "events/cmem_rd_data", "event=0x1a5\n");
  pmu_file(scf, "events/cmem_rd_data.scale", "3.2e1\n");
  pmu_file(scf, "events/cmem_rd_data.unit", "Bytes\n");
  pmu_file(scf, "events/needs_param", "event=0x1,port=?\n");
  /* per-CPU PMU without cpumask */
  pmu_file("msr", "type", "9\n");
  pmu_file("msr", "format/event", "config:0-63\n");
  pmu_file("msr", "events/tsc", "event=0x00\n");
  /* one instance per socket: x86 uncore, multi-socket Grace/Vera */
  pmu_file("uncore_imc_0", "type", "40\n");
  pmu_file("uncore_imc_0", "cpumask", "0,2\n");
  pmu_file("uncore_imc_0", "format/event", "config:0-7\n");
  return 0;
}

static int teardown(void **state) {
  (void)state;
  fakeproc_fini(&fp);
  return 0;
}

static struct pmu_desc pmu_load(const char *name) {
  struct pmu_desc pmu;
  assert_int_equal(pmu_desc_load("test", fp.sys, name, &pmu), 0);
  return pmu;
}

/* Resolve `text` (one event) and check its config words. */
static int resolve(const char *text, struct pmu_event *c, char *why) {
  struct pmu_group_spec g;
  struct pmu_parse_error err;
  size_t n;
  assert_int_equal(pmu_event_parse(text, strlen(text), &g, 1, &n, &err), 0);
  struct pmu_desc pmu = pmu_load(g.events[0].pmu);
  int rc = pmu_event_resolve(&pmu, &g.events[0], c, why, 256);
  pmu_desc_fini(&pmu);
  return rc;
}

static void pmu_desc_load__discovers_sysfs(void **state) {
  (void)state;
  struct pmu_desc pcie = pmu_load("nvidia_pcie_pmu_1_rc_2");
  assert_int_equal(pcie.type, 28);
  assert_true(pcie.has_cpumask);
  assert_int_equal(pcie.n_cpus, 1);
  assert_int_equal(pcie.cpus[0], 2);
  assert_int_equal(pcie.n_formats, 6);
  assert_int_equal(pcie.n_events, 3);
  pmu_desc_fini(&pcie);
  struct pmu_desc msr = pmu_load("msr");
  assert_false(msr.has_cpumask);
  assert_int_equal(msr.n_cpus, 4); /* every online CPU */
  pmu_desc_fini(&msr);
  struct pmu_desc imc = pmu_load("uncore_imc_0");
  assert_true(imc.has_cpumask);
  assert_int_equal(imc.n_cpus, 2); /* every CPU of the cpumask */
  assert_int_equal(imc.cpus[0], 0);
  assert_int_equal(imc.cpus[1], 2);
  pmu_desc_fini(&imc);
  struct pmu_desc missing;
  assert_int_equal(pmu_desc_load("test", fp.sys, "nvidia_ucf_pmu_9", &missing),
                   -ENOENT);
}

static void pmu_event_resolve__doc_forms(void **state) {
  (void)state;
  static const struct {
    const char *text;
    uint64_t config, config1, config2;
  } cases[] = {
      {"nvidia_ucf_pmu_0/event=0x113,src_loc_cpu=1,dst_loc_cmem=1/", 0x113,
       0x102, 0},
      {"nvidia_ucf_pmu_0/cycles/", 0x100000000ull, 0, 0},
      {"nvidia_ucf_pmu_0/slc_bytes_rd,dst_rem/", 0x113, 0x800, 0},
      {"nvidia_pcie_pmu_1_rc_2/rd_bytes,src_bdf=0x0108,src_bdf_en=1/", 0,
       0x01010800, 0},
      {"nvidia_pcie_pmu_1_rc_2/rd_req,src_rp_mask=0x3,dst_loc_cmem=1/", 0x2,
       0x3, 0x1},
      {"nvidia_pcie_tgt_pmu_0_rc_0/event=0x1,dst_rp_mask=0x3/", 0x19, 0, 0},
      {"nvidia_pcie_tgt_pmu_0_rc_0/wr_bytes,dst_addr_base=0x10000,"
       "dst_addr_mask=0xFFF00,dst_addr_en=1/",
       0x801, 0x10000, 0xFFF00},
      {"nvidia_nvlink_c2c_pmu_0/in_rd_cum_outs,gpu_mask=0x1/", 0x1, 0x1, 0},
      {"nvidia_scf_pmu_0/cmem_rd_data/", 0x1a5, 0, 0},
      {"msr/tsc/", 0, 0, 0},
      {"msr/config=0x5,config1=7/", 0x5, 7, 0},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    struct pmu_event c;
    char why[256] = "";
    if (resolve(cases[i].text, &c, why) != 0 ||
        c.config[0] != cases[i].config || c.config[1] != cases[i].config1 ||
        c.config[2] != cases[i].config2)
      fail_msg("%s: %s config %#llx/%#llx/%#llx", cases[i].text, why,
               (unsigned long long)c.config[0], (unsigned long long)c.config[1],
               (unsigned long long)c.config[2]);
  }
  struct pmu_event c;
  char why[256];
  assert_int_equal(resolve("nvidia_scf_pmu_0/cmem_rd_data/", &c, why), 0);
  assert_true(c.scale == 32.0);
  assert_string_equal(c.unit, "Bytes");
  assert_string_equal(c.text, "cmem_rd_data");
}

static void pmu_event_resolve__errors_name_the_term(void **state) {
  (void)state;
  static const struct {
    const char *text, *why;
  } cases[] = {
      {"nvidia_pcie_pmu_1_rc_2/rd_bytes,src_bdf=0x10000/",
       "value 0x10000 too big for term \"src_bdf\" (at most 0xffff)"},
      {"nvidia_pcie_tgt_pmu_0_rc_0/event=0x8/",
       "value 0x8 too big for term \"event\" (at most 0x7)"},
      {"nvidia_ucf_pmu_0/slc_bytes_rd,src_rp_mask=1/",
       "unknown term \"src_rp_mask\" for PMU nvidia_ucf_pmu_0"},
      {"nvidia_ucf_pmu_0/bogus/",
       "unknown term \"bogus\" for PMU nvidia_ucf_pmu_0"},
      {"nvidia_scf_pmu_0/needs_param/",
       "event \"needs_param\" needs a value for a parameter "
       "(event=0x1,port=?)"},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    struct pmu_event c;
    char why[256] = "";
    assert_int_equal(resolve(cases[i].text, &c, why), -EINVAL);
    assert_string_equal(why, cases[i].why);
  }
}

static void pmu_cpulist_parse__lists(void **state) {
  (void)state;
  int cpus[8];
  assert_int_equal(pmu_cpulist_parse("0-2,5\n", cpus, 8), 4);
  assert_int_equal(cpus[3], 5);
  assert_int_equal(pmu_cpulist_parse("88", cpus, 8), 1);
  assert_int_equal(cpus[0], 88);
  assert_int_equal(pmu_cpulist_parse("\n", cpus, 8), 0);
  assert_int_equal(pmu_cpulist_parse("3-1", cpus, 8), -EINVAL);
  assert_int_equal(pmu_cpulist_parse("0-9", cpus, 8), -E2BIG);
  assert_int_equal(pmu_cpulist_parse("a", cpus, 8), -EINVAL);
}

/* Bug: strings read from sysfs became tags raw: a .unit of bytes that are
 * not UTF-8 went out as such, and one longer than the unit field was cut
 * inside a UTF-8 sequence. Every string read from sysfs (PMU, event and
 * format names, .unit, identifier, peer) is bounded and sanitised. */
static void pmu_desc_load__sysfs_strings_are_sanitised(void **state) {
  (void)state;
  const char *p = "hostile_pmu_0";
  pmu_file(p, "type", "60\n");
  pmu_file(p, "cpumask", "0\n");
  pmu_file(p, "identifier", "id\x01\xc3\n");
  pmu_file(p, "peer", "nr_gpu=\x1b[31m\n");
  pmu_file(p, "format/event", "config:0-7\n");
  pmu_file(p, "format/bad\x7f\xff", "config1:0-7\n");
  pmu_file(p, "events/raw", "event=0x1\n");
  pmu_file(p, "events/raw.unit", "M B\xff\xfe\n");
  pmu_file(p, "events/euro", "event=0x2\n");
  /* 30 bytes, then a 3-byte character: 33 do not fit in 31 */
  pmu_file(p, "events/euro.unit",
           "abcdefghijklmnopqrstuvwxyz0123\xe2\x82\xac\n");
  pmu_file(p, "events/n\xe9\x01", "event=0x3\n");
  struct pmu_desc pmu = pmu_load(p);
  assert_string_equal(pmu.identifier, "id??");
  assert_string_equal(pmu.peer, "nr_gpu=?[31m");
  assert_non_null(pmu_desc_format(&pmu, "bad??"));
  assert_string_equal(pmu_desc_event(&pmu, "raw")->unit, "M B??");
  assert_string_equal(pmu_desc_event(&pmu, "euro")->unit,
                      "abcdefghijklmnopqrstuvwxyz0123");
  assert_non_null(pmu_desc_event(&pmu, "n??"));
  pmu_desc_fini(&pmu);
  /* the PMU name itself, as a caller got it from a directory entry */
  pmu_file("pmu\xff\x0a"
           "1",
           "type", "61\n");
  pmu = pmu_load("pmu\xff\x0a"
                 "1");
  assert_string_equal(pmu.name, "pmu??1");
  pmu_desc_fini(&pmu);
}

/* Bug: a cpumask that did not parse counted on every online CPU and
 * summed, with only an info line: 4x the count on 4 CPUs. Garbage in a
 * CPU list is an error for that PMU, said once naming the file and why;
 * a missing cpumask still means every online CPU. */
static void pmu_desc_load__garbage_cpu_lists_fail(void **state) {
  (void)state;
  static const struct {
    const char *pmu, *cpumask, *message;
  } cases[] = {
      {"garbage_a", "abc\n",
       "test: garbage_a: cpumask: \"abc\" not a CPU list (\"0-3,8\"); PMU not "
       "counted"},
      {"garbage_b", "0-99999999\n",
       "test: garbage_b: cpumask: \"0-99999999\" not a CPU list (\"0-3,8\"); "
       "PMU not counted"},
      {"garbage_c", "0-5000\n",
       "test: garbage_c: cpumask: \"0-5000\" lists more than 4096 CPUs; PMU "
       "not counted"},
      {"garbage_d", "\n",
       "test: garbage_d: cpumask: \"\" lists no CPU; PMU not counted"},
      {"garbage_e", "0,\xff\n",
       "test: garbage_e: cpumask: \"0,?\" not a CPU list (\"0-3,8\"); PMU not "
       "counted"},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    pmu_file(cases[i].pmu, "type", "62\n");
    pmu_file(cases[i].pmu, "cpumask", cases[i].cpumask);
    struct pmu_desc pmu;
    log_capture();
    assert_int_equal(pmu_desc_load("test", fp.sys, cases[i].pmu, &pmu),
                     -EINVAL);
    log_set_sink(NULL, LOG_LEVEL_INFO);
    assert_int_equal(n_logged, 1);
    assert_string_equal(logged[0], cases[i].message);
    assert_null(pmu.cpus);
  }
  /* without a cpumask, an online list that is garbage is an error too */
  fakeproc_write(&fp, "sys/devices/system/cpu/online", "0-x\n");
  struct pmu_desc msr;
  log_capture();
  assert_int_equal(pmu_desc_load("test", fp.sys, "msr", &msr), -EINVAL);
  log_set_sink(NULL, LOG_LEVEL_INFO);
  assert_int_equal(n_logged, 1);
  assert_string_equal(logged[0], "test: msr: devices/system/cpu/online: "
                                 "\"0-x\" not a CPU list (\"0-3,8\"); PMU "
                                 "not counted");
  fakeproc_write(&fp, "sys/devices/system/cpu/online", "0-3\n");
  msr = pmu_load("msr");
  assert_int_equal(msr.n_cpus, 4);
  pmu_desc_fini(&msr);
}

/* The same class: associated_cpus that did not parse skipped its check
 * silently; it is said, and its bytes are sanitised in messages. */
static void pmu_desc_load__garbage_associated_cpus_said(void **state) {
  (void)state;
  pmu_file("assoc_pmu", "type", "64\n");
  pmu_file("assoc_pmu", "cpumask", "1\n");
  pmu_file("assoc_pmu", "associated_cpus", "5-x\x1b\n");
  log_capture();
  struct pmu_desc pmu = pmu_load("assoc_pmu");
  log_set_sink(NULL, LOG_LEVEL_INFO);
  assert_int_equal(pmu.n_cpus, 1);
  assert_int_equal(n_logged, 1);
  assert_string_equal(logged[0], "test: assoc_pmu: associated_cpus: \"5-x?\" "
                                 "not a CPU list (\"0-3,8\"); not checked "
                                 "against the cpumask");
  pmu_desc_fini(&pmu);
  pmu_file("assoc_pmu", "associated_cpus", "0,2\n");
  log_capture();
  pmu = pmu_load("assoc_pmu");
  log_set_sink(NULL, LOG_LEVEL_INFO);
  assert_int_equal(n_logged, 1);
  assert_string_equal(logged[0], "test: assoc_pmu: cpumask: CPU 1 is not in "
                                 "associated_cpus (0,2); opens may fail");
  pmu_desc_fini(&pmu);
}

/* The same class: a .scale that is not a positive number reported the
 * count unscaled; the event is now not offered, with a warning. */
static void pmu_desc_load__garbage_scale_drops_the_event(void **state) {
  (void)state;
  const char *p = "scaled_pmu_0";
  pmu_file(p, "type", "63\n");
  pmu_file(p, "cpumask", "0\n");
  pmu_file(p, "format/event", "config:0-7\n");
  pmu_file(p, "events/good", "event=0x1\n");
  pmu_file(p, "events/good.scale", "0.5\n");
  pmu_file(p, "events/bad", "event=0x2\n");
  pmu_file(p, "events/bad.scale", "0,5\n");
  log_capture();
  struct pmu_desc pmu = pmu_load(p);
  log_set_sink(NULL, LOG_LEVEL_INFO);
  assert_int_equal(pmu.n_events, 1);
  assert_true(pmu_desc_event(&pmu, "good")->scale == 0.5);
  assert_null(pmu_desc_event(&pmu, "bad"));
  assert_int_equal(n_logged, 1);
  assert_string_equal(logged[0], "test: scaled_pmu_0: events: bad.scale: "
                                 "\"0,5\" is not a positive number, event "
                                 "ignored");
  pmu_desc_fini(&pmu);
}

/* Bug: a term that did not fit the event tag did not advance the write
 * position, so the next term overwrote it: two events differing in one
 * middle term shared one tag. A cut tag keeps a prefix and the FNV-1a hash
 * of the whole text. */
static void pmu_event_text__long_texts_stay_apart(void **state) {
  (void)state;
  struct pmu_event_spec a = {.n_terms = 12}, b;
  for (size_t i = 0; i < 12; i++) {
    snprintf(a.terms[i].name, PMU_NAME_MAX, "term_%02zu_%s", i,
             "abcdefghijklmnopqrstuvwxyz");
    a.terms[i].has_value = true;
    a.terms[i].value = 0x1000 + i;
  }
  b = a;
  b.terms[5].value = 0x7;
  /* a PMU whose format terms are these names, config1:0-15 each */
  struct pmu_term_format formats[12];
  for (size_t i = 0; i < 12; i++) {
    snprintf(formats[i].name, PMU_NAME_MAX, "%s", a.terms[i].name);
    assert_int_equal(pmu_format_parse("config1:0-15", 12, &formats[i].format),
                     0);
  }
  int cpu = 0;
  struct pmu_desc pmu = {.name = "long",
                         .cpus = &cpu,
                         .n_cpus = 1,
                         .formats = formats,
                         .n_formats = 12};
  struct pmu_event ea, eb;
  char why[256] = "";
  assert_int_equal(pmu_event_resolve(&pmu, &a, &ea, why, sizeof(why)), 0);
  assert_int_equal(pmu_event_resolve(&pmu, &b, &eb, why, sizeof(why)), 0);
  const char *ta = ea.text, *tb = eb.text;
  /* 255 bytes: 238 of the text (5 terms of 42 bytes with their commas,
   * 28 of the sixth), "~" and the hash; the terms that differ are past
   * the cut, the hashes tell them apart */
#define PREFIX                                                                 \
  "term_00_abcdefghijklmnopqrstuvwxyz=0x1000,"                                 \
  "term_01_abcdefghijklmnopqrstuvwxyz=0x1001,"                                 \
  "term_02_abcdefghijklmnopqrstuvwxyz=0x1002,"                                 \
  "term_03_abcdefghijklmnopqrstuvwxyz=0x1003,"                                 \
  "term_04_abcdefghijklmnopqrstuvwxyz=0x1004,"                                 \
  "term_05_abcdefghijklmnopqrst"
  /* FNV-1a 64 of the whole texts, computed apart from this code */
  assert_string_equal(ta, PREFIX "~2ba2ee1e7993b569");
  assert_string_equal(tb, PREFIX "~f18bf653a5ad4520");
#undef PREFIX
  assert_int_equal(strlen(ta), PMU_EVENT_TEXT_MAX - 1);
  char direct[PMU_EVENT_TEXT_MAX];
  pmu_event_text(&a, direct);
  assert_string_equal(direct, ta);
  /* short texts are whole */
  struct pmu_event c;
  assert_int_equal(
      resolve("nvidia_pcie_pmu_1_rc_2/rd_bytes,src_bdf=264,src_bdf_en/", &c,
              why),
      0);
  assert_string_equal(c.text, "rd_bytes,src_bdf=0x108,src_bdf_en");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(pmu_desc_load__discovers_sysfs),
      cmocka_unit_test(pmu_event_resolve__doc_forms),
      cmocka_unit_test(pmu_event_resolve__errors_name_the_term),
      cmocka_unit_test(pmu_cpulist_parse__lists),
      cmocka_unit_test(pmu_desc_load__sysfs_strings_are_sanitised),
      cmocka_unit_test(pmu_desc_load__garbage_cpu_lists_fail),
      cmocka_unit_test(pmu_desc_load__garbage_associated_cpus_said),
      cmocka_unit_test(pmu_desc_load__garbage_scale_drops_the_event),
      cmocka_unit_test(pmu_event_text__long_texts_stay_apart),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
