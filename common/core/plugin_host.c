/*
 * plugin_host.c: the system clocks, the default host context and the
 * registry of what a plugin's instances share (plugin_host.h).
 */
#include "common/core/plugin_host.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint64_t plugin_clock_read(clockid_t id) {
  struct timespec ts;
  clock_gettime(id, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static uint64_t plugin_clock_monotonic(void *ctx) {
  (void)ctx;
  return plugin_clock_read(CLOCK_MONOTONIC);
}

static uint64_t plugin_clock_realtime(void *ctx) {
  (void)ctx;
  return plugin_clock_read(CLOCK_REALTIME);
}

const struct plugin_clock plugin_clock_system = {
    .monotonic_ns = plugin_clock_monotonic,
    .realtime_ns = plugin_clock_realtime,
    .ctx = NULL,
};

void plugin_host_init(struct plugin_host *host, const char *instance,
                      uint64_t interval_ns) {
  host->instance = instance;
  host->interval_ns = interval_ns;
  host->clock = plugin_clock_system;
  host->kernel = &kernel_real;
  host->shared = NULL;
  host->stop = NULL;
}

struct plugin_shared_entry {
  struct plugin_shared_entry *next;
  char *key; /* owned */
  void *obj; /* borrowed */
};

void plugin_shared_init(struct plugin_shared *s) {
  pthread_mutex_init(&s->lock, NULL);
  s->head = NULL;
}

void plugin_shared_fini(struct plugin_shared *s) {
  while (s->head != NULL) {
    struct plugin_shared_entry *e = s->head;
    s->head = e->next;
    free(e->key);
    free(e);
  }
  pthread_mutex_destroy(&s->lock);
}

void plugin_shared_lock(struct plugin_shared *s) {
  pthread_mutex_lock(&s->lock);
}

void plugin_shared_unlock(struct plugin_shared *s) {
  pthread_mutex_unlock(&s->lock);
}

void *plugin_shared_find(struct plugin_shared *s, const char *key) {
  for (struct plugin_shared_entry *e = s->head; e != NULL; e = e->next)
    if (strcmp(e->key, key) == 0)
      return e->obj;
  return NULL;
}

int plugin_shared_add(struct plugin_shared *s, const char *key, void *obj) {
  struct plugin_shared_entry *e = malloc(sizeof(*e));
  if (e == NULL || (e->key = strdup(key)) == NULL) {
    free(e);
    return -ENOMEM;
  }
  e->obj = obj;
  e->next = s->head;
  s->head = e;
  return 0;
}

void plugin_shared_remove(struct plugin_shared *s, const void *obj) {
  for (struct plugin_shared_entry **pp = &s->head; *pp != NULL;
       pp = &(*pp)->next)
    if ((*pp)->obj == obj) {
      struct plugin_shared_entry *e = *pp;
      *pp = e->next;
      free(e->key);
      free(e);
      return;
    }
}
