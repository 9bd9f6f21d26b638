/*
 * numfmt.h: printing doubles for machines: the shortest decimal text that
 * reads back as the same double, always recognisable as a float, and the
 * same in every locale.
 */
#ifndef COMMON_NUMFMT_H
#define COMMON_NUMFMT_H

#include <stddef.h>

/* Write `v` into `out` (size bytes). Returns the length, -E2BIG when it
 * does not fit, -EINVAL for NaN or an infinity. "5" becomes "5.0". */
int numfmt_double(double v, char *out, size_t size);

#endif
