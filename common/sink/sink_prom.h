/*
 * sink_prom.h: records as the Prometheus text exposition format (0.0.4),
 * for --format=prometheus (node_exporter's textfile collector, curl) and
 * the /metrics page of --listen (prom_http.h).
 *
 * Every integer or float field of a record is one sample. Records arrive
 * per entity (a process, an engine), while the format wants each family
 * (metric name) once with all its samples together, so the sink buffers a
 * whole pass and renders it at end():
 *
 *   # HELP drm_engine_busy_seconds_total drm_engine busy_ns: time ...
 *   # TYPE drm_engine_busy_seconds_total counter
 *   drm_engine_busy_seconds_total{scope="process",pid="100"} 1.5e-06
 *
 * Names (sink_prom_name): <measurement>_<field stem>[_<base unit>][_total],
 * lower snake case, in the base unit of the field's ctype row
 * (metric_unit.h): "seconds", "bytes", "hertz", "ratio", "cycles", ...
 * The stem is the field key without a trailing word that names the unit
 * already (busy_ns -> busy, avg_gpu_core_frequency_hz -> avg_gpu_core_
 * frequency); a key that is only the unit word (percent) leaves no stem.
 * Counters (DERIVE rows) get "_total". A row without a unit (a count:
 * gpu_events, objects) names nothing, so its key is kept whole.
 * Characters outside [a-zA-Z0-9_] become '_', CamelCase becomes
 * camel_case, a leading digit gets a '_' before it.
 *
 * Values are scaled to the base unit (value * base_scale); an integer with
 * scale 1 prints exactly, everything else as the shortest round-trip
 * double (numfmt.h). No timestamps: Prometheus stamps the scrape.
 *
 * Labels are the record's tags in record order. Names are made valid
 * ([a-zA-Z_][a-zA-Z0-9_]*, never starting "__"; a name seen twice in a
 * record keeps its first value); values are escaped as the
 * format says ('\\' -> "\\\\", '"' -> "\\\"", newline -> "\\n"), other
 * control bytes and bytes that are not valid UTF-8 become '?', so any
 * process name gives a well-formed exposition.
 *
 * A field's type is looked up in the plugin's own rows first
 * (plugin_ops.units: sink_prom_set_units, or per record with
 * sink_prom_write_units), then in the shared table (metric_unit.h).
 *
 * No name repeats a word: a stem word the measurement or the unit already
 * says is left out (drm_device_power's field power in watts is
 * drm_device_power_watts), and no HELP says its unit twice.
 *
 * One name has one type and one unit, and comes from one field: a field
 * that would join a family of another type, base unit or scale, or of
 * another measurement and key that mangle to the same name (reason_PL1 and
 * reason_pl1) is refused (counted in `refused`, the first one described in
 * `clash`), as is a second sample with the same name and labels
 * (`duplicates`, the first described in `duplicate`); the rest of the pass
 * is still rendered.
 * Samples within a family are sorted by their label text, families keep
 * the order of their first sample.
 */
#ifndef COMMON_SINK_SINK_PROM_H
#define COMMON_SINK_SINK_PROM_H

#include "common/core/metric.h"
#include "common/core/metric_unit.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The Content-Type of the text format. */
#define SINK_PROM_CONTENT_TYPE "text/plain; version=0.0.4; charset=utf-8"

/* Longest metric name; longer ones are refused (counted in `refused`). */
#define SINK_PROM_NAME_MAX 200

/*
 * The unit a field is exposed in: the ctype row's, or, for a row without
 * a base unit, the one named by the key's last word (see the top).
 * `strip` is the length of the key's trailing unit word with its '_'
 * (the whole key when it is only that word), 0 when none.
 */
struct sink_prom_unit {
  const char *base; /* "" for none */
  double scale;
  bool counter;
  const char *meaning;
  size_t strip;
};

/* The exposed unit of field `key` of ctype row `u` (non-NULL). Pure. */
struct sink_prom_unit sink_prom_unit_of(const char *key,
                                        const struct metric_unit *u);

/*
 * Write the metric name of field `key` (ctype row `u`) of `measurement`
 * into `out` (`size` bytes, NUL-terminated). Pure. Returns the length, or
 * -E2BIG when it does not fit or exceeds SINK_PROM_NAME_MAX, -EINVAL when
 * it would be empty.
 */
int sink_prom_name(const char *measurement, const char *key,
                   const struct metric_unit *u, char *out, size_t size);

struct sink_prom_family;
struct sink_prom_sample;

struct sink_prom {
  struct metric_sink base;
  FILE *stream; /* borrowed; NULL: end() only renders (sink_prom_text) */
  struct sink_prom_family *fams;
  size_t n_fams, cap_fams;
  struct sink_prom_sample *samples;
  size_t n_samples, cap_samples;
  char *arena; /* names, help texts and label texts of this pass */
  size_t arena_len, arena_cap;
  char *text; /* the rendered pass */
  size_t text_len, text_cap;
  size_t refused;      /* fields refused this pass: clash, name too long */
  size_t duplicates;   /* samples dropped: same name and labels twice */
  bool nomem;          /* an allocation failed this pass */
  char clash[512];     /* the first refusal of this pass, or "" */
  char duplicate[512]; /* the first duplicate's name and labels, or "" */
  const struct metric_unit *units; /* the plugin's own rows, or NULL */
};

/* Set up `s` (caller-owned storage). With a stream, end() writes the pass
 * there and flushes it; begin/write/end return 0, -ENOMEM or (end) -EIO.
 * A record with an unknown ctype or a float that is not finite is
 * -EINVAL (metric.h never stores one; the tests catch unknown ctypes). */
void sink_prom_init(struct sink_prom *s, FILE *stream);

/* The plugin's own field types (plugin_ops.units: rows ending with a NULL
 * ctype; NULL for none) for the records written from now on through
 * base.write. A host that writes several plugins' records into one pass
 * calls sink_prom_write_units instead. */
void sink_prom_set_units(struct sink_prom *s, const struct metric_unit *units);

/* base.write with the plugin's own rows `units` for this record. */
int sink_prom_write_units(struct sink_prom *s, const struct metric *m,
                          const struct metric_unit *units);

/* The text of the last pass rendered by end(), NUL-terminated; `len` gets
 * its length. The
 * pointer stays valid until the next end() or sink_prom_fini(). */
const char *sink_prom_text(const struct sink_prom *s, size_t *len);

/* Free everything; `s` can be initialised again. */
void sink_prom_fini(struct sink_prom *s);

#endif
