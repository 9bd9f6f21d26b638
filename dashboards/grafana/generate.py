#!/usr/bin/env python3
"""Write the Grafana dashboards of this directory (run it after editing).

  generate.py [OUT_DIR]     (default: this directory)

Eight dashboards, each for an InfluxDB 1.x data source chosen at import
(__inputs DS_INFLUXDB): drm_fdinfo, tegra410_uncore, i915_oa and
panthor_perf, in the collectd
schema (InfluxDB's [[collectd]] listener: measurement <plugin>_value, tags
host, instance = plugin_instance, type, type_instance; database "collectd")
and in the Telegraf schema (the executables' Influx lines through
inputs.exec/execd: measurements and tags as README "Metrics"; database
"telegraf"). Panels are raw InfluxQL with Grafana's $timeFilter and
$__interval. In the collectd schema a tag is matched inside `instance` with
README's identifier rule, (^|\\+)KEY=VALUE(\\+|$) on the percent-encoded
value (`.` is %2E, `:` is %3A).
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def tag(key, value_re):
    """InfluxQL regex matching one KEY=VALUE part of a plugin_instance."""
    return f'"instance" =~ /(^|\\+){key}={value_re}(\\+|$)/'


def panel(pid, title, query, unit, alias, y):
    return {
        "id": pid,
        "type": "timeseries",
        "title": title,
        "datasource": {"type": "influxdb", "uid": "${DS_INFLUXDB}"},
        "gridPos": {"h": 8, "w": 12, "x": 12 * ((pid - 1) % 2), "y": y},
        "fieldConfig": {"defaults": {"unit": unit}, "overrides": []},
        "options": {"legend": {"displayMode": "list", "placement": "bottom"}},
        "targets": [{"refId": "A", "rawQuery": True, "resultFormat": "time_series",
                     "query": query, "alias": alias}],
    }


def dashboard(uid, title, db, panels):
    return {
        "__inputs": [{"name": "DS_INFLUXDB", "label": f"InfluxDB ({db})",
                      "description": f"InfluxDB 1.x, database \"{db}\"",
                      "type": "datasource", "pluginId": "influxdb",
                      "pluginName": "InfluxDB"}],
        "__requires": [{"type": "datasource", "id": "influxdb", "name": "InfluxDB",
                        "version": "1.0.0"},
                       {"type": "grafana", "id": "grafana", "name": "Grafana",
                        "version": "9.0.0"}],
        "uid": uid,
        "title": title,
        "tags": ["gpu", "collectd" if db == "collectd" else "telegraf"],
        "timezone": "browser",
        "schemaVersion": 36,
        "version": 1,
        "refresh": "30s",
        "time": {"from": "now-1h", "to": "now"},
        "templating": {"list": []},
        "annotations": {"list": []},
        "panels": [panel(i + 1, *p, y=8 * (i // 2)) for i, p in enumerate(panels)],
    }


def collectd_query(plugin, where, group="\"host\", \"instance\""):
    return (f'SELECT mean("value") FROM "{plugin}_value" WHERE {where} AND $timeFilter '
            f'GROUP BY time($__interval), {group} fill(null)')


def telegraf_query(field, measurement, where, group):
    w = f"{where} AND " if where else ""
    return (f'SELECT mean("{field}") FROM "{measurement}" WHERE {w}$timeFilter '
            f'GROUP BY time($__interval), {group} fill(null)')


DRM_COLLECTD = [
    ("Engine utilisation per device", collectd_query(
        "drm_fdinfo", "\"type_instance\" = 'drm_engine_utilization' AND " + tag("scope", "device")),
     "percent", "$tag_host $tag_instance"),
    ("Engine utilisation per process", collectd_query(
        "drm_fdinfo", "\"type_instance\" = 'drm_engine_utilization' AND " + tag("scope", "process")),
     "percent", "$tag_host $tag_instance"),
    ("Engine utilisation per cgroup", collectd_query(
        "drm_fdinfo", "\"type_instance\" = 'drm_engine_utilization' AND " + tag("scope", "cgroup")),
     "percent", "$tag_host $tag_instance"),
    ("Resident GPU memory per device", collectd_query(
        "drm_fdinfo", "\"type_instance\" = 'drm_memory_resident_bytes' AND " + tag("scope", "device")),
     "bytes", "$tag_host $tag_instance"),
    ("GPU memory per process (total)", collectd_query(
        "drm_fdinfo", "\"type_instance\" = 'drm_memory_total_bytes' AND " + tag("scope", "process")),
     "bytes", "$tag_host $tag_instance"),
    ("DRM clients per device", collectd_query(
        "drm_fdinfo", "\"type_instance\" = 'drm_device_clients'"),
     "short", "$tag_host $tag_instance"),
    ("Processes not readable (run collectd as root)", collectd_query(
        "drm_fdinfo", "\"type_instance\" = 'drm_scan_unreadable'"),
     "short", "$tag_host $tag_instance"),
    ("Scan: processes and fds walked per read", collectd_query(
        "drm_fdinfo", "\"type_instance\" =~ /^drm_scan_(processes|fds|fdinfo_reads)$/",
        "\"host\", \"instance\", \"type_instance\""),
     "short", "$tag_host $tag_instance $tag_type_instance"),
]

DRM_TELEGRAF = [
    ("Engine utilisation per device", telegraf_query(
        "utilization", "drm_engine", "\"scope\" = 'device'",
        "\"host\", \"driver\", \"device\", \"engine\""),
     "percent", "$tag_host $tag_driver $tag_device $tag_engine"),
    ("Engine utilisation per process", telegraf_query(
        "utilization", "drm_engine", "\"scope\" = 'process'",
        "\"host\", \"device\", \"engine\", \"pid\", \"comm\""),
     "percent", "$tag_host $tag_comm ($tag_pid) $tag_engine"),
    ("Engine utilisation per cgroup", telegraf_query(
        "utilization", "drm_engine", "\"scope\" = 'cgroup'",
        "\"host\", \"device\", \"engine\", \"cgroup\""),
     "percent", "$tag_host $tag_cgroup $tag_engine"),
    ("Resident GPU memory per device", telegraf_query(
        "resident_bytes", "drm_memory", "\"scope\" = 'device'",
        "\"host\", \"device\", \"region\""),
     "bytes", "$tag_host $tag_device $tag_region"),
    ("GPU memory per process (total)", telegraf_query(
        "total_bytes", "drm_memory", "\"scope\" = 'process'",
        "\"host\", \"device\", \"region\", \"pid\", \"comm\""),
     "bytes", "$tag_host $tag_comm ($tag_pid) $tag_region"),
    ("DRM clients per device", telegraf_query(
        "clients", "drm_device", "", "\"host\", \"driver\", \"device\""),
     "short", "$tag_host $tag_driver $tag_device"),
    ("Processes not readable (run as root)", telegraf_query(
        "unreadable", "drm_scan", "", "\"host\""),
     "short", "$tag_host"),
    ("Scan: fds walked per read", telegraf_query("fds", "drm_scan", "", "\"host\""),
     "short", "$tag_host"),
]

T410_COLLECTD = [
    ("Bandwidth (PCIe, memory, SLC)", collectd_query(
        "tegra410_uncore", "\"type\" = 'uncore_bytes_per_second'",
        "\"host\", \"instance\", \"type_instance\""),
     "Bps", "$tag_host $tag_instance $tag_type_instance"),
    ("Latency", collectd_query(
        "tegra410_uncore", "\"type\" = 'uncore_latency_seconds'",
        "\"host\", \"instance\", \"type_instance\""),
     "s", "$tag_host $tag_instance $tag_type_instance"),
    ("Requests per cycle", collectd_query(
        "tegra410_uncore", "\"type\" = 'uncore_requests_per_cycle'",
        "\"host\", \"instance\", \"type_instance\""),
     "short", "$tag_host $tag_instance $tag_type_instance"),
    ("Fabric frequency", collectd_query(
        "tegra410_uncore", "\"type_instance\" = 'tegra410_frequency'"),
     "hertz", "$tag_host $tag_instance"),
    ("PCIe root ports: read bandwidth", collectd_query(
        "tegra410_uncore", "\"type_instance\" = 'tegra410_read_bandwidth' AND "
        + tag("pmu", "nvidia_pcie_pmu_[0-9]+_rc_[0-9]+")),
     "Bps", "$tag_host $tag_instance"),
    ("Raw events: rate", collectd_query(
        "tegra410_uncore", "\"type_instance\" = 'uncore_event_rate'"),
     "short", "$tag_host $tag_instance"),
]

T410_TELEGRAF = [
    ("Read bandwidth", telegraf_query(
        "read_bandwidth", "tegra410", "", "\"host\", \"pmu\", \"socket\", \"rc\", \"filter\""),
     "Bps", "$tag_host $tag_pmu $tag_filter"),
    ("Write bandwidth", telegraf_query(
        "write_bandwidth", "tegra410", "", "\"host\", \"pmu\", \"socket\", \"rc\", \"filter\""),
     "Bps", "$tag_host $tag_pmu $tag_filter"),
    ("Read latency", telegraf_query(
        "read_latency_seconds", "tegra410", "", "\"host\", \"pmu\", \"direction\""),
     "s", "$tag_host $tag_pmu $tag_direction"),
    ("Write latency (chip-to-chip)", telegraf_query(
        "write_latency_seconds", "tegra410", "", "\"host\", \"pmu\", \"direction\""),
     "s", "$tag_host $tag_pmu $tag_direction"),
    ("Fabric frequency", telegraf_query(
        "frequency", "tegra410", "", "\"host\", \"pmu\""),
     "hertz", "$tag_host $tag_pmu"),
    ("Raw events: rate", telegraf_query(
        "rate", "uncore_event", "", "\"host\", \"pmu\", \"event\", \"cpu\""),
     "short", "$tag_host $tag_pmu $tag_event $tag_cpu"),
]

def collectd_field(plugin, field, unit, title):
    return (title, collectd_query(plugin, f"\"type_instance\" = '{field}'"), unit,
            "$tag_host $tag_instance")


I915_COLLECTD = [
    collectd_field("i915_oa", "i915_oa_gpu_busy_percent", "percent", "GPU busy"),
    collectd_field("i915_oa", "i915_oa_avg_gpu_core_frequency_hz", "hertz",
                   "Average GPU core frequency"),
    collectd_field("i915_oa", "i915_oa_eu_active_percent", "percent",
                   "EU active (Render Basic set, EuMetrics true)"),
    collectd_field("i915_oa", "i915_oa_eu_stall_percent", "percent",
                   "EU stall (Render Basic set, EuMetrics true)"),
    ("OA reports per second", collectd_query(
        "i915_oa", "\"type_instance\" = 'i915_oa_stream_reports'"),
     "short", "$tag_host $tag_instance"),
    ("Lost OA reports and buffers (should stay 0)", collectd_query(
        "i915_oa", "\"type_instance\" =~ /^i915_oa_stream_(report|buffer)_lost$/",
        "\"host\", \"instance\", \"type_instance\""),
     "short", "$tag_host $tag_instance $tag_type_instance"),
]

I915_TELEGRAF = [
    ("GPU busy", telegraf_query("gpu_busy_percent", "i915_oa", "",
                                "\"host\", \"device\", \"engine\""),
     "percent", "$tag_host $tag_device $tag_engine"),
    ("Average GPU core frequency", telegraf_query(
        "avg_gpu_core_frequency_hz", "i915_oa", "", "\"host\", \"device\""),
     "hertz", "$tag_host $tag_device"),
    ("EU active (Render Basic set, EuMetrics true)", telegraf_query(
        "eu_active_percent", "i915_oa", "", "\"host\", \"device\""),
     "percent", "$tag_host $tag_device"),
    ("EU stall (Render Basic set, EuMetrics true)", telegraf_query(
        "eu_stall_percent", "i915_oa", "", "\"host\", \"device\""),
     "percent", "$tag_host $tag_device"),
    ("OA reports (cumulative: the execd snippets)", telegraf_query(
        "reports", "i915_oa_stream", "", "\"host\", \"device\", \"metric_set\""),
     "short", "$tag_host $tag_device $tag_metric_set"),
    ("Lost OA buffers (cumulative: execd; should stay 0)", telegraf_query(
        "buffer_lost", "i915_oa_stream", "", "\"host\", \"device\""),
     "short", "$tag_host $tag_device"),
]

PP_COLLECTD = [
    collectd_field("panthor_perf", "panthor_perf_fragment_utilization_percent", "percent",
                   "Fragment utilisation"),
    collectd_field("panthor_perf", "panthor_perf_compute_utilization_percent", "percent",
                   "Compute utilisation"),
    collectd_field("panthor_perf", "panthor_perf_tiler_utilization_percent", "percent",
                   "Tiler utilisation"),
    collectd_field("panthor_perf", "panthor_perf_fragment_queue_utilization_percent",
                   "percent", "Fragment queue utilisation"),
    collectd_field("panthor_perf", "panthor_perf_ext_read_bandwidth", "Bps",
                   "External read bandwidth"),
    collectd_field("panthor_perf", "panthor_perf_ext_write_bandwidth", "Bps",
                   "External write bandwidth"),
]

PP_TELEGRAF = [
    (title, telegraf_query(field, "panthor_perf", "", "\"host\", \"device\", \"gpu\""),
     unit, "$tag_host $tag_device $tag_gpu")
    for title, field, unit in [
        ("Fragment utilisation", "fragment_utilization_percent", "percent"),
        ("Compute utilisation", "compute_utilization_percent", "percent"),
        ("Tiler utilisation", "tiler_utilization_percent", "percent"),
        ("Fragment queue utilisation", "fragment_queue_utilization_percent", "percent"),
        ("External read bandwidth", "ext_read_bandwidth", "Bps"),
        ("External write bandwidth", "ext_write_bandwidth", "Bps"),
    ]
]

DASHBOARDS = {
    "drm_fdinfo-collectd.json": ("gpu-drm-fdinfo-collectd", "GPU clients (drm_fdinfo, collectd)",
                                 "collectd", DRM_COLLECTD),
    "drm_fdinfo-telegraf.json": ("gpu-drm-fdinfo-telegraf", "GPU clients (drm_fdinfo, Telegraf)",
                                 "telegraf", DRM_TELEGRAF),
    "tegra410_uncore-collectd.json": ("tegra410-uncore-collectd",
                                      "Tegra410 uncore (collectd)", "collectd", T410_COLLECTD),
    "tegra410_uncore-telegraf.json": ("tegra410-uncore-telegraf",
                                      "Tegra410 uncore (Telegraf)", "telegraf", T410_TELEGRAF),
    "i915_oa-collectd.json": ("gpu-i915-oa-collectd", "Intel GPU OA (i915_oa, collectd)",
                              "collectd", I915_COLLECTD),
    "i915_oa-telegraf.json": ("gpu-i915-oa-telegraf", "Intel GPU OA (i915_oa, Telegraf)",
                              "telegraf", I915_TELEGRAF),
    "panthor_perf-collectd.json": ("gpu-panthor-perf-collectd",
                                   "Mali GPU counters (panthor_perf, collectd)", "collectd",
                                   PP_COLLECTD),
    "panthor_perf-telegraf.json": ("gpu-panthor-perf-telegraf",
                                   "Mali GPU counters (panthor_perf, Telegraf)", "telegraf",
                                   PP_TELEGRAF),
}

if __name__ == "__main__":
    out = sys.argv[1] if len(sys.argv) > 1 else HERE
    for name, (uid, title, db, panels) in DASHBOARDS.items():
        with open(os.path.join(out, name), "w") as f:
            json.dump(dashboard(uid, title, db, panels), f, indent=2)
            f.write("\n")
