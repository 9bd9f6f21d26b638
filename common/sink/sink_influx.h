/*
 * sink_influx.h: records as InfluxDB line protocol (1.x and 2.x).
 *
 *   measurement[,tag=value...] field=value[,field=value...] time_ns\n
 *
 * Tags and fields keep record order. Integers carry the `i` suffix, floats
 * use numfmt (shortest round trip, always with '.' or an exponent).
 *
 * Escaping, chosen so that InfluxDB 1.x and 2.x (models/points.go) and
 * Telegraf's influx parser all read back the record's text byte for byte:
 *  - measurement: ',' and ' ' become "\," and "\ " ('=' is plain there);
 *  - tag keys, tag values, field keys: ',', '=' and ' ' become "\,",
 *    "\=", "\ ". The readers drop exactly one backslash before those three
 *    bytes and keep every other backslash, so "\" is never doubled (a
 *    doubled one is stored as two);
 *  - a backslash is written as it is, except where no reader can carry it:
 *    at the end of the text (it would escape the separator after it:
 *    InfluxDB answers 400 "invalid tag format") or right before ',', '=',
 *    ' ' or '"' (InfluxDB and Telegraf split "\\," differently). There it
 *    becomes '?': "trail\" is written and read as "trail?";
 *  - control bytes (< 0x20, 0x7f) have no escape (a raw '\n' ends the
 *    line) and become '?', as in text.h;
 *  - bytes >= 0x80 pass through unchanged (cores sanitise to UTF-8).
 * The '?' replacements are the only places two different texts can give
 * the same line. Records carry no string fields, so none are written.
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
