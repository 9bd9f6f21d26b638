/*
 * sink_influx.h: records as InfluxDB line protocol (1.x and 2.x).
 *
 *   measurement[,tag=value...] field=value[,field=value...] time_ns\n
 *
 * Tags and fields keep record order. Integers carry the `i` suffix, floats
 * use numfmt (shortest round trip, always with '.' or an exponent).
 * Measurement names escape ',' and ' '; tag keys, tag values and field keys
 * escape ',', '=' and ' '. A backslash is always doubled: InfluxDB 1.x
 * rejects a tag value that ends in a single backslash (it escapes the
 * separator after it), and doubling keeps every value parseable. Control
 * characters (< 0x20, 0x7f) cannot be escaped in line protocol and become
 * '?'. Bytes >= 0x80 pass through unchanged (cores sanitise to UTF-8).
 *
 * The stream sink that writes these lines is sink_line.h.
 */
#ifndef COMMON_SINK_SINK_INFLUX_H
#define COMMON_SINK_SINK_INFLUX_H

#include "common/core/metric.h"

#include <stddef.h>

/*
 * Format `m` (borrowed) as one line with its trailing '\n' into `out`
 * (`size` bytes), NUL-terminated. Pure: no allocation, no locale.
 *
 * Returns the line length including the '\n' (excluding the NUL), -E2BIG
 * when the line and its NUL do not fit in `size` (the contents of `out` are
 * then unspecified), or -EINVAL when the record has no field or a float
 * field is not finite (metric_add_float never stores one).
 */
int sink_influx_format(const struct metric *m, char *out, size_t size);

#endif
