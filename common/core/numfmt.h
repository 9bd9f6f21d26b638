/*
 * numfmt.h: printing doubles for machines: the shortest decimal text that
 * reads back as the same double, always recognisable as a float, and the
 * same in every locale. Used for float fields in Influx lines and JSON
 * (yajl's own double printing shows 42.1 as 42.100000000000001421).
 */
#ifndef COMMON_CORE_NUMFMT_H
#define COMMON_CORE_NUMFMT_H

#include <stddef.h>

/* The longest text is 24 bytes ("-2.2250738585072014e-308") plus NUL. */
#define NUMFMT_DOUBLE_MAX 32

/*
 * Write `v` into `out` (`size` bytes, NUL-terminated) as the shortest of
 * %.15g, %.16g and %.17g that strtod() reads back as exactly `v`. The
 * decimal separator is always '.', whatever LC_NUMERIC says. Text without
 * '.' or an exponent gets ".0" appended ("5" becomes "5.0", "-0" becomes
 * "-0.0") so JSON and Influx consumers see a float.
 *
 * Returns the length (without the NUL), -E2BIG when it does not fit in
 * `size` (`out` is then untouched), -EINVAL for NaN or an infinity.
 * Thread-safe. A buffer of NUMFMT_DOUBLE_MAX bytes always suffices.
 */
int numfmt_double(double v, char *out, size_t size);

/*
 * `v` times `scale`, correctly rounded when the scale is the inverse of a
 * whole number (1e-3, 1e-9, 0.01): then `v` is divided by that number,
 * which IEEE rounds once (950 mV is 0.95 V), where multiplying by the
 * inexact 1e-3 rounds twice (0.9500000000000001). Any other scale
 * multiplies. Pure.
 */
double numfmt_scale(double v, double scale);

#endif
