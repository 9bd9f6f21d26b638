/*
 * fuzz_exec_args.c: libFuzzer target for the executables' command line
 * (common/exec/exec_args.c): the input is argv, its arguments split at
 * NUL bytes, parsed as gpu-telemetry's (two plugins with keys) and as one
 * plugin's executable. Any arguments: no crash, no leak, no read past an
 * argument; a refusal always says why (a non-empty, bounded error) and
 * leaves nothing to free.
 */
#include "common/exec/host_exec.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_MAX_ARGS 32

static const struct cfg_option fuzz_options[] = {
    {"ReportBy", "Device", "a key"},
    {"Filter", "none", "a block"},
    {"Filter.PMU", "none", "a key in the block"},
    {NULL, NULL, NULL}};
static const struct plugin_ops fuzz_a = {.name = "drm_fdinfo",
                                         .options = fuzz_options};
static const struct plugin_ops fuzz_b = {.name = "tegra410_uncore",
                                         .options = fuzz_options};
static const struct plugin_ops *const fuzz_table[] = {&fuzz_a, &fuzz_b};

static void fuzz_check(int rc, struct host_exec_args *a) {
  if (rc == 0) {
    host_exec_args_fini(a);
    return;
  }
  if (rc != -EINVAL && rc != -ENOMEM)
    abort();
  size_t len = strnlen(a->error, sizeof(a->error));
  if (len == 0 || len == sizeof(a->error))
    abort(); /* said, and NUL-terminated */
  if (a->items != NULL || a->plugins != NULL || a->configs != NULL)
    abort(); /* nothing left to free */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *argv[FUZZ_MAX_ARGS + 2] = {"gpu-telemetry"};
  int argc = 1;
  size_t at = 0;
  while (at <= size && argc <= FUZZ_MAX_ARGS) {
    const uint8_t *nul = memchr(data + at, '\0', size - at);
    size_t len = nul ? (size_t)(nul - (data + at)) : size - at;
    /* each argument its own allocation, so ASan sees an over-read */
    char *arg = malloc(len + 1);
    if (arg == NULL)
      break;
    memcpy(arg, data + at, len);
    arg[len] = '\0';
    argv[argc++] = arg;
    at += len + 1;
  }
  argv[argc] = NULL;
  struct host_exec_args a;
  fuzz_check(host_exec_parse_args_multi(argc, argv, fuzz_table, 2, &a), &a);
  fuzz_check(host_exec_parse_args_for(&fuzz_a, argc, argv, &a), &a);
  for (int i = 1; i < argc; i++)
    free(argv[i]);
  return 0;
}
