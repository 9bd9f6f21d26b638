/*
 * test_pmu_event_parse.c: perf-syntax event strings, including every form
 * the Tegra410 PMU documentation shows.
 */
#include "common/pmu/pmu_event_parse.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

static struct pmu_group_spec groups[8];

static size_t parse_ok(const char *text) {
  size_t n = 0;
  struct pmu_parse_error err = {0, NULL};
  int rc = pmu_event_parse(text, strlen(text), groups, 8, &n, &err);
  if (rc != 0)
    fail_msg("\"%s\": %s at %zu", text, err.message, err.offset);
  return n;
}

static void pmu_event_parse__doc_forms(void **state) {
  (void)state;
  assert_int_equal(
      parse_ok("nvidia_ucf_pmu_0/event=0x1,src_rp_mask=0x3,dst_loc_cmem=0x1/"),
      1);
  const struct pmu_event_spec *e = &groups[0].events[0];
  assert_string_equal(e->pmu, "nvidia_ucf_pmu_0");
  assert_int_equal(e->n_terms, 3);
  assert_string_equal(e->terms[1].name, "src_rp_mask");
  assert_true(e->terms[1].has_value);
  assert_int_equal(e->terms[1].value, 3);

  assert_int_equal(
      parse_ok("nvidia_pcie_pmu_0_rc_1/rd_bytes,src_bdf=0x0180,src_bdf_en=1/"),
      1);
  e = &groups[0].events[0];
  assert_string_equal(e->terms[0].name, "rd_bytes");
  assert_false(e->terms[0].has_value);
  assert_int_equal(e->terms[1].value, 0x180);
  assert_int_equal(e->terms[2].value, 1);

  assert_int_equal(parse_ok("{nvidia_cmem_latency_pmu_0/rd_req/,"
                            "nvidia_cmem_latency_pmu_0/rd_cum_outs/,"
                            "nvidia_cmem_latency_pmu_0/cycles/},msr/tsc/"),
                   2);
  assert_true(groups[0].braced);
  assert_int_equal(groups[0].n_events, 3);
  assert_string_equal(groups[0].events[2].terms[0].name, "cycles");
  assert_false(groups[1].braced);
  assert_string_equal(groups[1].events[0].pmu, "msr");

  assert_int_equal(parse_ok("software/config=0x1/"), 1);
  assert_int_equal(groups[0].events[0].terms[0].value, 1);
  assert_int_equal(parse_ok("p/event=18446744073709551615/"), 1);
  assert_int_equal(groups[0].events[0].terms[0].value, UINT64_MAX);
}

static void pmu_event_parse__errors(void **state) {
  (void)state;
  static const struct {
    const char *text;
    int rc;
    size_t offset;
  } cases[] = {
      {"", -EINVAL, 0},
      {"msr", -EINVAL, 3},
      {"msr/tsc", -EINVAL, 7},
      {"msr/tsc/:u", -EINVAL, 8},
      {"msr/event=/", -EINVAL, 10},
      {"msr/event=0xg/", -EINVAL, 10},
      {"msr/event=18446744073709551616/", -EINVAL, 10},
      {"msr/ev ent/", -EINVAL, 6},
      {"{msr/tsc/", -EINVAL, 9},
      {"msr/tsc/ msr/tsc/", -EINVAL, 8},
      {"msr/a,b,c,d,e,f,g,h,i,j,k,l,m/", -E2BIG, 28},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    size_t n = 0;
    struct pmu_parse_error err = {0, NULL};
    int rc = pmu_event_parse(cases[i].text, strlen(cases[i].text), groups, 8,
                             &n, &err);
    if (rc != cases[i].rc || err.offset != cases[i].offset ||
        err.message == NULL)
      fail_msg("\"%s\": rc %d at %zu (%s)", cases[i].text, rc, err.offset,
               err.message ? err.message : "no message");
  }
  /* too many groups for the caller's array */
  size_t n;
  struct pmu_parse_error err;
  assert_int_equal(pmu_event_parse("a/b/,a/b/", 9, groups, 1, &n, &err),
                   -E2BIG);
}

/* A bare term list (events/<name> files, Filter Terms): no PMU, no
 * slashes, parsed directly rather than through a made-up event string. */
static void pmu_terms_parse__lists(void **state) {
  (void)state;
  struct pmu_event_spec e;
  struct pmu_parse_error err = {0, NULL};
  const char *text = "src_bdf=0x0180,src_bdf_en=1,dst_rem";
  assert_int_equal(pmu_terms_parse(text, strlen(text), &e, &err), 0);
  assert_string_equal(e.pmu, "");
  assert_int_equal(e.n_terms, 3);
  assert_string_equal(e.terms[0].name, "src_bdf");
  assert_int_equal(e.terms[0].value, 0x180);
  assert_int_equal(e.terms[1].value, 1);
  assert_string_equal(e.terms[2].name, "dst_rem");
  assert_false(e.terms[2].has_value);
  assert_int_equal(pmu_terms_parse("", 0, &e, &err), 0);
  assert_int_equal(e.n_terms, 0);
  static const struct {
    const char *text;
    int rc;
    size_t offset;
  } bad[] = {
      {"gpu_mask=0x1/", -EINVAL, 12}, {"a=1,", -EINVAL, 4},
      {",a=1", -EINVAL, 0},           {"a=1 b=2", -EINVAL, 3},
      {"x/a=1/", -EINVAL, 1},         {"a,b,c,d,e,f,g,h,i,j,k,l,m", -E2BIG, 24},
  };
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
    err.message = NULL;
    int rc = pmu_terms_parse(bad[i].text, strlen(bad[i].text), &e, &err);
    if (rc != bad[i].rc || err.offset != bad[i].offset || err.message == NULL)
      fail_msg("\"%s\": rc %d at %zu (%s)", bad[i].text, rc, err.offset,
               err.message ? err.message : "no message");
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(pmu_event_parse__doc_forms),
      cmocka_unit_test(pmu_event_parse__errors),
      cmocka_unit_test(pmu_terms_parse__lists),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
