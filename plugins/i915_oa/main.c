/*
 * main.c: the standalone executable of i915_oa.
 */
#include "common/host/host_exec.h"
#include "plugins/i915_oa/i915_oa.h"

#include <stdbool.h>

#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* With --Replay the whole recording is one read: --once reads it without
 * waiting (--window=0 unless given). */
int main(int argc, char **argv) {
  oa_replay_whole = true;
  bool replay = false, window = false;
  for (int i = 1; i < argc; i++) {
    replay |= strncasecmp(argv[i], "--Replay=", 9) == 0;
    window |= strncmp(argv[i], "--window", 8) == 0;
  }
  if (!replay || window)
    return host_exec_main(&i915_oa_ops, argc, argv);
  char **args = calloc((size_t)argc + 2, sizeof(*args));
  if (args == NULL)
    return 1;
  memcpy(args, argv, (size_t)argc * sizeof(*args));
  args[argc] = "--window=0";
  int status = host_exec_main(&i915_oa_ops, argc + 1, args);
  free(args);
  return status;
}
