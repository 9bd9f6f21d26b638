/*
 * sink_json.h: records as JSON lines for Telegraf's json parser, one flat
 * object per record and per line (yajl 2, no spaces):
 *
 *   {"name":"<measurement>","time":<unix ns>,"<tag>":"<value>",...,
 *    "<field>":<number>,...}
 *
 * Tags are strings, fields numbers: integers exact (yajl_gen_integer),
 * floats via numfmt (yajl's own double printing shows 42.1 as
 * 42.100000000000001421). Telegraf's json parser needs `json_name_key =
 * "name"`, `json_time_key = "time"`, `json_time_format = "unix_ns"` and the
 * tag keys in `tag_keys`; it reads every number as a float.
 *
 * Every string goes through text_sanitize() first, so the output is valid
 * UTF-8 JSON whatever the input: bytes that are not valid UTF-8 and control
 * characters become '?', exactly as in the Influx line (a string value is
 * the same in both formats). yajl then escapes '"' and '\'.
 *
 * The stream sink that writes these lines is sink_line.h.
 */
#ifndef COMMON_SINK_SINK_JSON_H
#define COMMON_SINK_SINK_JSON_H

#include "common/core/metric.h"

#include <stddef.h>
#include <yajl/yajl_gen.h>

/* A reusable formatter: one yajl generator, kept between records and
 * reset before each (yajl_gen_clear + yajl_gen_reset), so a stream of
 * records allocates nothing per record. Zero it ({NULL}) to start. */
struct sink_json {
  yajl_gen gen; /* owned, NULL until the first record */
};

/*
 * Format `m` (borrowed) as one JSON object with a trailing '\n' into `out`
 * (`size` bytes), NUL-terminated, with the generator of `j` (created on
 * first use).
 *
 * Returns the length including the '\n' (excluding the NUL), -E2BIG when
 * the line and its NUL do not fit in `size` (`out` is then untouched),
 * -EINVAL when the record has no field or a float is not finite, -ENOMEM.
 * `j` stays usable after every error.
 */
int sink_json_format_with(struct sink_json *j, const struct metric *m,
                          char *out, size_t size);

/* Free the generator of `j`; `j` can be used again afterwards. */
void sink_json_fini(struct sink_json *j);

/* sink_json_format_with() with a generator of its own, freed before it
 * returns (tests, fuzzing, one-off lines). Same return codes. */
int sink_json_format(const struct metric *m, char *out, size_t size);

#endif
