/*
 * shim_panthor_int.h: what shim_panthor.c (device, BOs, queries) and
 * shim_panthor_perf.c (sessions, samples, the ring) share. Everything here
 * runs under pt_mutex.
 */
#ifndef TESTS_SHIM_SHIM_PANTHOR_INT_H
#define TESTS_SHIM_SHIM_PANTHOR_INT_H

#include "common/panthor/pp_uapi.h"
#include "tests/shim/shim.h"
#include "tests/shim/shim_panthor.h"

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#define PT_MAX_BOS 64
#define PT_OFFSET_SHIFT 32 /* BO_MMAP_OFFSET: handle << 32 */

/* Block types in the plugin's enum pp_block order. */
enum { PT_FW, PT_CSG, PT_CSHW, PT_TILER, PT_MEMSYS, PT_SHADER, PT_TYPES };

struct pt_bo {
  int refs; /* the handle, sessions */
  int memfd;
  uint8_t *map; /* the driver's own read-write mapping */
  uint64_t size;
  uint32_t flags;
  uint32_t maps, writable_maps; /* user mappings made of it */
};

struct pt_file {
  struct pt_bo *bos[PT_MAX_BOS]; /* handle = index + 1 */
  uint64_t generation;           /* pt_generation at open */
};

struct pt_geometry {
  uint32_t counters_per_block, sample_header_size, block_header_size;
  uint32_t blocks[PT_TYPES];
  uint32_t block_size, walk_size, sample_size;
};

extern pthread_mutex_t pt_mutex;
extern struct shim_panthor_config pt_cfg;
extern struct shim_panthor_stats pt_stats;
extern uint64_t pt_generation;

/* The sample geometry of the configured model and layout. */
void pt_geometry(struct pt_geometry *g);
struct pt_bo *pt_bo_lookup(struct pt_file *pf, uint32_t handle);
void pt_bo_put(struct pt_bo *bo);

/* The virtual clock (ns). */
uint64_t pt_now_ns(void);
/* PERF_CONTROL with `size` bytes of argument (the number's size). */
int pt_perf_control(struct pt_file *pf, void *arg, size_t size);
void pt_sessions_of_file_closed(struct pt_file *pf);
void pt_sessions_reset(void);
void pt_sessions_add_others(void);
uint32_t pt_sessions_count(void);

#endif
