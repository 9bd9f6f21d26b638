/*
 * sink_influx.h: records as InfluxDB line protocol (1.x and 2.x).
 *
 *   measurement[,tag=value...] field=value[,field=value...] time_ns\n
 *
 * Integers carry the `i` suffix, floats use numfmt. Measurement names
 * escape ',' and ' '; tag keys, tag values and field keys escape ',', '='
 * and ' '. A backslash is always doubled: InfluxDB 1.x rejects a tag value
 * that ends in a single backslash (it escapes the separator after it),
 * and doubling keeps every value parseable. Control characters cannot be
 * escaped in line protocol and become '?'.
 */
#ifndef COMMON_SINK_INFLUX_H
#define COMMON_SINK_INFLUX_H

#include "common/metric.h"

#include <stddef.h>

/* Format one record with its trailing newline. Returns the length,
 * -E2BIG when `size` is too small, -EINVAL when it has no field. */
int sink_influx_format(const struct metric *m, char *out, size_t size);

#endif
