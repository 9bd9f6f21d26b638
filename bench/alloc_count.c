/*
 * alloc_count.c: the allocation counter of the benchmarks (bench_util.h).
 * malloc, calloc and realloc defined here take the place of glibc's for
 * every call the benchmark's own objects make (a static link binds them
 * here), count the call into `allocations` and hand it to glibc's
 * __libc_* entry points. Symbols are hidden (-fvisibility=hidden), so
 * libc's and yajl's internal calls are not counted.
 */
#include "bench/bench_util.h"

#include <stddef.h>

void *malloc(size_t n);
void *calloc(size_t n, size_t size);
void *realloc(void *p, size_t n);

long allocations;

void *malloc(size_t n) {
  allocations++;
  return __libc_malloc(n);
}

void *calloc(size_t n, size_t size) {
  allocations++;
  return __libc_calloc(n, size);
}

void *realloc(void *p, size_t n) {
  allocations++;
  return __libc_realloc(p, n);
}
