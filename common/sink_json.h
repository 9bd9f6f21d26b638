/*
 * sink_json.h: records as JSON lines for Telegraf's json parser, one flat
 * object per record (yajl):
 *
 *   {"name":"<measurement>","time":<unix ns>,"<tag>":"<value>",...,
 *    "<field>":<number>,...}
 *
 * Tags are strings, fields numbers (integers exact, floats via numfmt: yajl's
 * own double printing shows 42.1 as 42.100000000000001421). Strings that are
 * not valid UTF-8 are sanitised first so the output is always valid JSON.
 */
#ifndef COMMON_SINK_JSON_H
#define COMMON_SINK_JSON_H

#include "common/metric.h"

#include <stddef.h>

/* Format one record with a trailing newline. Returns the length, -E2BIG
 * when `size` is too small, -EINVAL when it has no field, -ENOMEM. */
int sink_json_format(const struct metric *m, char *out, size_t size);

#endif
