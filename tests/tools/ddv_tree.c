/*
 * ddv_tree.c: build drm_device fixture trees for the shell tests.
 *
 *   ddv_tree DIR FIXTURE...           the fixtures of tests/lib/ddv_tree.h
 *   ddv_tree DIR --write NODE REL TEXT
 *   ddv_tree DIR --runtime NODE STATUS ACTIVE_MS SUSPENDED_MS
 *   ddv_tree DIR --device CLS NODE DEV DRIVER   a bare node (ddv_tree.h)
 *   ddv_tree DIR --unbind NODE                  its node directory removed
 *   ddv_tree DIR --autosuspend NODE CONTROL DELAY_MS   power/control and
 *                                               autosuspend_delay_ms
 *
 * DIR must exist; the tree is DIR/sys.
 */
#include "tests/lib/ddv_tree.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: ddv_tree DIR FIXTURE... | --write NODE REL TEXT"
                    " | --runtime NODE STATUS ACTIVE_MS SUSPENDED_MS"
                    " | --device CLS NODE DEV DRIVER | --unbind NODE"
                    " | --autosuspend NODE CONTROL DELAY_MS\n");
    return 2;
  }
  struct ddv_tree t;
  if (ddv_tree_init(&t, argv[1]) < 0) {
    perror(argv[1]);
    return 1;
  }
  if (strcmp(argv[2], "--write") == 0 && argc == 6)
    return ddv_tree_write(&t, argv[3], argv[4], argv[5]) < 0;
  if (strcmp(argv[2], "--device") == 0 && argc == 7)
    return ddv_tree_device(&t, argv[3], argv[4], argv[5], argv[6]) < 0;
  if (strcmp(argv[2], "--autosuspend") == 0 && argc == 6)
    return ddv_tree_autosuspend(&t, argv[3], argv[4],
                                strtoll(argv[5], NULL, 10)) < 0;
  if (strcmp(argv[2], "--unbind") == 0 && argc == 4)
    return ddv_tree_unbind(&t, argv[3]) < 0;
  if (strcmp(argv[2], "--runtime") == 0 && argc == 7)
    return ddv_tree_runtime(&t, argv[3], argv[4], strtoull(argv[5], NULL, 10),
                            strtoull(argv[6], NULL, 10)) < 0;
  for (int i = 2; i < argc; i++)
    if (ddv_tree_fixture(&t, argv[i]) < 0) {
      fprintf(stderr, "ddv_tree: %s: cannot build\n", argv[i]);
      return 1;
    }
  return 0;
}
