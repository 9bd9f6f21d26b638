/*
 * fuzz_sink_format.c: libFuzzer target for the Influx and JSON formatters
 * and the collectd mapping, with tag values taken from the input (the
 * hostile process names of real life). Checks: one Influx line with no
 * control characters, JSON that yajl parses back, collectd names bounded and
 * free of what collectd or write_graphite would rewrite.
 */
#include "common/collectd/collectd_map.h"
#include "common/core/text.h"
#include "common/sink/sink_influx.h"
#include "common/sink/sink_json.h"

#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_tree.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
  char tags[3][256];
  size_t pos = 0;
  for (int i = 0; i < 3; i++) {
    size_t take = size - pos < 80 ? size - pos : 80;
    /* cores sanitise every kernel string; so do we */
    text_sanitize(tags[i], sizeof(tags[i]), (const char *)data + pos, take);
    pos += take;
  }
  struct metric m;
  metric_init(&m, "drm engine,x", 42);
  metric_add_tag(&m, "comm", tags[0]);
  metric_add_tag(&m, "cgroup", tags[1]);
  metric_add_tag(&m, "device", tags[2]);
  metric_add_int(&m, "busy_ns", "derive", size);
  metric_add_float(&m, "utilization", "percent", (double)size / 7.0);

  char line[4096];
  int n = sink_influx_format(&m, line, sizeof(line));
  if (n <= 0 || line[n - 1] != '\n')
    abort();
  for (int i = 0; i < n - 1; i++)
    if ((unsigned char)line[i] < 0x20 || line[i] == 0x7f)
      abort();

  n = sink_json_format(&m, line, sizeof(line));
  if (n <= 0)
    abort();
  line[n - 1] = '\0';
  char err[128];
  yajl_val tree = yajl_tree_parse(line, err, sizeof(err));
  if (tree == NULL || !YAJL_IS_OBJECT(tree))
    abort();
  yajl_tree_free(tree);

  struct collectd_ident id;
  for (size_t f = 0; f < m.n_fields; f++) {
    collectd_map(NULL, &m, f, "fuzz", "fuzz", &id);
    /* bounded (collectd_map.h: at most 63 bytes); the characters and the
     * cut are fuzz_collectd_map's to check */
    if (strlen(id.plugin_instance) > 63 || strlen(id.type_instance) > 63)
      abort();
  }
  return 0;
}
