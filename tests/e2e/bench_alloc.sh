#!/usr/bin/env bash
# The benchmarks' allocation counter (bench/alloc_count.c behind
# bench/bench_util.h): two compilation units that include the header link
# into one program (the header defines no function), and the counter counts
# exactly the malloc, calloc and realloc calls of the program's own code,
# not what it takes from __libc_malloc.
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib/tap.sh
T=$(mktemp -d "${TMPDIR:-/tmp}/bench-alloc.XXXXXX")
trap 'rm -rf "$T"' EXIT
cat >"$T/a.c" <<'C'
#include "bench/bench_util.h"
#include <stdio.h>
#include <stdlib.h>
long other_unit(void);
int main(void) {
  allocations = 0;
  void *p = malloc(16), *q = calloc(2, 8);
  p = realloc(p, 64);
  void *r = __libc_malloc(8);
  long mine = allocations;
  long other = other_unit();
  printf("%ld %ld\n", mine, other);
  free(p);
  free(q);
  free(r);
  return 0;
}
C
cat >"$T/b.c" <<'C'
#include "bench/bench_util.h"
#include <stdlib.h>
long other_unit(void);
long other_unit(void) {
  long before = allocations;
  free(malloc(1));
  return allocations - before;
}
C
# -O0: at -O2 the compiler may drop a malloc whose block is only freed
flags="-std=c11 -D_GNU_SOURCE -I. -Wall -Wextra -Werror -fvisibility=hidden -O0"
${CC:-cc} $flags -o "$T/prog" "$T/a.c" "$T/b.c" bench/alloc_count.c \
  >"$T/cc.log" 2>&1
tap_is 0 $? "two units including bench_util.h link into one program ($(grep -m1 -E 'error|multiple' "$T/cc.log"))"
tap_is "3 1" "$("$T/prog" 2>&1)" "3 calls in one unit and 1 in the other are counted; __libc_malloc is not"
tap_is "" "$(grep -nE '^[a-z].*\b(malloc|calloc|realloc)\(.*\) *\{' bench/bench_util.h)" \
  "bench_util.h defines no allocator function"
tap_done
