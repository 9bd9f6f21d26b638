/*
 * named.h: find-or-append in a fixed array of elements keyed by a name
 * (engines, memory regions): the one helper behind every such lookup.
 */
#ifndef COMMON_CORE_NAMED_H
#define COMMON_CORE_NAMED_H

#include <stdbool.h>
#include <stddef.h>

/*
 * In `base` (`*n` used elements of `elem_size` bytes, room for `max`),
 * find the element whose NUL-terminated name (a char array of `name_max`
 * bytes at `name_off` in each element) equals the `name_len` bytes at
 * `name`, or append a zeroed one carrying that name and count it in `*n`.
 * `*added` (may be NULL) tells which. Returns NULL when the array is full
 * or the name does not fit its array whole (a cut name would alias a
 * longer one): the caller counts what it drops.
 */
void *named_find_or_add(void *base, size_t *n, size_t max, size_t elem_size,
                        size_t name_off, size_t name_max, const char *name,
                        size_t name_len, bool *added);

/* The same for an array `arr` of structs with a char array `field`. */
#define NAMED_FIND_OR_ADD(arr, n, max, field, name, len, added)                \
  ((__typeof__(&(arr)[0]))named_find_or_add(                                   \
      (arr), &(n), (max), sizeof((arr)[0]),                                    \
      offsetof(__typeof__((arr)[0]), field), sizeof((arr)[0].field), (name),   \
      (len), (added)))

#endif
