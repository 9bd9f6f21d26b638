/*
 * dfi_pids.c: the per-process memory between reads (dfi_pids.h).
 */
#include "plugins/drm_fdinfo/dfi_pids.h"

#include <errno.h>
#include <stdlib.h>

static size_t dfi_pids_slot(const struct dfi_pid_table *t, pid_t pid) {
  /* Fibonacci hashing spreads consecutive pids over the table */
  size_t mask = t->cap - 1;
  size_t i =
      (size_t)(((uint64_t)(uint32_t)pid * 0x9e3779b97f4a7c15ull) >> 32) & mask;
  while (t->slots[i].pid != 0 && t->slots[i].pid != pid)
    i = (i + 1) & mask;
  return i;
}

/* Rehash the live entries (those seen in `keep_gen`, or all when it is 0)
 * into a table of at least `want` slots. */
static int dfi_pids_rehash(struct dfi_pid_table *t, size_t want,
                           uint64_t keep_gen) {
  size_t cap = 64;
  while (cap < want)
    cap *= 2;
  struct dfi_pid *slots = calloc(cap, sizeof(*slots));
  if (slots == NULL)
    return -ENOMEM;
  struct dfi_pid_table next = {slots, cap, 0};
  for (size_t i = 0; i < t->cap; i++) {
    const struct dfi_pid *e = &t->slots[i];
    if (e->pid == 0 || (keep_gen != 0 && e->seen_gen != keep_gen))
      continue;
    next.slots[dfi_pids_slot(&next, e->pid)] = *e;
    next.count++;
  }
  free(t->slots);
  *t = next;
  return 0;
}

struct dfi_pid *dfi_pids_get(struct dfi_pid_table *t, pid_t pid,
                             bool *created) {
  *created = false;
  if ((t->count + 1) * 2 > t->cap &&
      dfi_pids_rehash(t, (t->count + 1) * 4, 0) < 0)
    return NULL;
  struct dfi_pid *e = &t->slots[dfi_pids_slot(t, pid)];
  if (e->pid == 0) {
    e->pid = pid;
    t->count++;
    *created = true;
  }
  return e;
}

int dfi_pids_sweep(struct dfi_pid_table *t, uint64_t gen) {
  size_t live = 0;
  for (size_t i = 0; i < t->cap; i++)
    live += t->slots[i].pid != 0 && t->slots[i].seen_gen == gen;
  if (live == t->count)
    return 0;
  return dfi_pids_rehash(t, live * 2 + 1, gen);
}

void dfi_pids_totals(const struct dfi_pid_table *t, uint64_t *unreadable,
                     uint64_t *untracked) {
  *unreadable = *untracked = 0;
  for (size_t i = 0; i < t->cap; i++)
    if (t->slots[i].pid != 0) {
      *unreadable += t->slots[i].unreadable;
      *untracked += t->slots[i].untracked;
    }
}

void dfi_pids_fini(struct dfi_pid_table *t) {
  free(t->slots);
  t->slots = NULL;
  t->cap = t->count = 0;
}
