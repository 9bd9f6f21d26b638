/*
 * metric_unit.c: the field type table (metric_unit.h). Base units follow
 * the Prometheus naming conventions (seconds, bytes, hertz, ratio); a count
 * of things or events carries no unit in its name.
 */
#include "common/core/metric_unit.h"

#include <stdio.h>
#include <string.h>

const struct metric_unit metric_units[] = {
    /* cumulative counters (DERIVE) */
    {"gpu_time", METRIC_DS_DERIVE, "ns", "seconds", 1e-9,
     "time, cumulative nanoseconds"},
    {"gpu_cycles", METRIC_DS_DERIVE, "cycles", "cycles", 1.0,
     "clock cycles, cumulative"},
    {"gpu_events", METRIC_DS_DERIVE, "", "", 1.0, "events counted, cumulative"},
    {"gpu_bytes", METRIC_DS_DERIVE, "B", "bytes", 1.0,
     "bytes transferred, cumulative"},
    /* recorded in joules (a float), stored by collectd in microjoules
     * (metric_unit_collectd_scale) */
    {"gpu_energy", METRIC_DS_DERIVE, "J", "joules", 1.0,
     "energy, cumulative joules"},
    /* gauges: collectd's standard types */
    {"bytes", METRIC_DS_GAUGE, "B", "bytes", 1.0, "bytes now"},
    {"objects", METRIC_DS_GAUGE, "", "", 1.0, "a count now"},
    {"percent", METRIC_DS_GAUGE, "%", "ratio", 0.01,
     "percent over the interval"},
    /* gauges: ours (types.db fragments) */
    {"gpu_hertz", METRIC_DS_GAUGE, "Hz", "hertz", 1.0, "frequency in hertz"},
    {"gpu_flag", METRIC_DS_GAUGE, "", "", 1.0, "a state: 1 yes, 0 no"},
    {"gpu_watts", METRIC_DS_GAUGE, "W", "watts", 1.0, "power in watts"},
    {"gpu_celsius", METRIC_DS_GAUGE, "C", "celsius", 1.0,
     "temperature in degrees Celsius"},
    {"gpu_rpm", METRIC_DS_GAUGE, "rpm", "rpm", 1.0,
     "fan speed in revolutions per minute"},
    {"gpu_volts", METRIC_DS_GAUGE, "V", "volts", 1.0, "voltage in volts"},
    {"gpu_seconds", METRIC_DS_GAUGE, "s", "seconds", 1.0, "an age in seconds"},
    {"gpu_bytes_per_second", METRIC_DS_GAUGE, "B/s", "bytes_per_second", 1.0,
     "bandwidth in bytes per second"},
    {"uncore_bytes_per_second", METRIC_DS_GAUGE, "B/s", "bytes_per_second", 1.0,
     "bandwidth in bytes per second"},
    {"uncore_requests_per_cycle", METRIC_DS_GAUGE, "req/cycle",
     "requests_per_cycle", 1.0, "requests per clock cycle"},
    {"uncore_latency_cycles", METRIC_DS_GAUGE, "cycles", "cycles", 1.0,
     "latency in clock cycles"},
    {"uncore_latency_seconds", METRIC_DS_GAUGE, "s", "seconds", 1.0,
     "latency in seconds"},
    {"uncore_value", METRIC_DS_GAUGE, "", "", 1.0,
     "a preset metric's value over the interval"},
    {"uncore_rate", METRIC_DS_GAUGE, "/s", "per_second", 1.0,
     "events per second over the interval"},
};

const size_t metric_units_count =
    sizeof(metric_units) / sizeof(metric_units[0]);

const struct metric_unit *metric_unit_lookup(const struct metric_unit *own,
                                             const char *ctype) {
  if (ctype == NULL)
    return NULL;
  for (; own != NULL && own->ctype != NULL; own++)
    if (strcmp(own->ctype, ctype) == 0)
      return own;
  return metric_unit_find(ctype);
}

bool metric_unit_refuse(struct metric_unit_refused *r, const char *ctype) {
  for (size_t i = 0; i < r->n; i++)
    if (strcmp(r->ctype[i], ctype) == 0)
      return false;
  if (r->n == METRIC_UNIT_REFUSED_MAX)
    return false; /* that many distinct types: said often enough */
  snprintf(r->ctype[r->n], sizeof(r->ctype[r->n]), "%s", ctype);
  r->n++;
  return true;
}

const struct metric_unit *metric_unit_find(const char *ctype) {
  if (ctype == NULL)
    return NULL;
  for (size_t i = 0; i < metric_units_count; i++)
    if (strcmp(metric_units[i].ctype, ctype) == 0)
      return &metric_units[i];
  return NULL;
}

/* The types metric_unit_collectd_scale() scales (the one extra column of
 * the table, kept apart: few rows have it). */
static const struct {
  const char *ctype;
  double scale;
} metric_collectd_scales[] = {{"gpu_energy", 1e6}};

double metric_unit_collectd_scale(const char *ctype) {
  if (ctype == NULL)
    return 1.0;
  for (size_t i = 0;
       i < sizeof(metric_collectd_scales) / sizeof(metric_collectd_scales[0]);
       i++)
    if (strcmp(metric_collectd_scales[i].ctype, ctype) == 0)
      return metric_collectd_scales[i].scale;
  return 1.0;
}
