"""The Grafana dashboards of panthor_perf, collectd and Telegraf schema.

Read by dashboards/grafana/generate.py, which runs this file with its
helpers in scope (collectd_query, collectd_field, collectd_variables, inst,
GPU_DEVICE_RE, telegraf_query) and takes DASHBOARDS: output file name ->
(uid, title, database, panels[, template variables]).
"""
# flake8: noqa: F821

# plugin_instance [label-]device-gpu; type_instance the field.
PP_COLLECTD = [
    collectd_field("panthor_perf", "fragment_utilization_percent", "percent",
                   "Fragment utilisation"),
    collectd_field("panthor_perf", "compute_utilization_percent", "percent",
                   "Compute utilisation"),
    collectd_field("panthor_perf", "tiler_utilization_percent", "percent",
                   "Tiler utilisation"),
    collectd_field("panthor_perf", "fragment_queue_utilization_percent",
                   "percent", "Fragment queue utilisation"),
    collectd_field("panthor_perf", "ext_read_bandwidth", "Bps",
                   "External read bandwidth"),
    collectd_field("panthor_perf", "ext_write_bandwidth", "Bps",
                   "External write bandwidth"),
]

PP_VARIABLES = collectd_variables("panthor_perf", GPU_DEVICE_RE)

PP_TELEGRAF = [
    (title, telegraf_query(field, "panthor_perf", tvar(("host", "host"), ("device", "device")), "\"host\", \"device\", \"gpu\""),
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
    "panthor_perf-collectd.json": ("gpu-panthor-perf-collectd",
                                   "Mali GPU counters (panthor_perf, collectd)", "collectd",
                                   PP_COLLECTD, PP_VARIABLES),
    "panthor_perf-telegraf.json": ("gpu-panthor-perf-telegraf",
                                   "Mali GPU counters (panthor_perf, Telegraf)", "telegraf",
                                   PP_TELEGRAF),
}

# Prometheus data source: the executable's --listen; variables host
# (instance) and device.
_SEL = prom_sel(("instance", "instance"), ("device", "device"))
PP_PROMETHEUS = [
    ("GPU active clock (cycles per second)",
     f"rate(panthor_perf_gpu_active_cycles_total{{{_SEL}}}[$__rate_interval])",
     "hertz", "{{instance}} {{device}} {{gpu}}"),
    ("Fragment queue utilisation", f"panthor_perf_fragment_queue_utilization_ratio{{{_SEL}}}",
     "percentunit", "{{instance}} {{device}}"),
    ("Compute queue utilisation", f"panthor_perf_compute_queue_utilization_ratio{{{_SEL}}}",
     "percentunit", "{{instance}} {{device}}"),
    ("External read bandwidth", f"panthor_perf_ext_read_bandwidth_bytes_per_second{{{_SEL}}}",
     "Bps", "{{instance}} {{device}}"),
    ("External write bandwidth", f"panthor_perf_ext_write_bandwidth_bytes_per_second{{{_SEL}}}",
     "Bps", "{{instance}} {{device}}"),
    ("Counter samples per second",
     f"rate(panthor_perf_stream_samples_total{{{_SEL}}}[$__rate_interval])",
     "short", "{{instance}} {{device}}"),
]

PROMETHEUS_DASHBOARDS = {
    "panthor_perf-prometheus.json": (
        "gpu-panthor-perf-prometheus", "Mali GPU counters (panthor_perf, Prometheus)",
        [("instance", "Host", "panthor_perf_gpu_active_cycles_total", "instance"),
         ("device", "Device", "panthor_perf_gpu_active_cycles_total", "device")],
        PP_PROMETHEUS),
}

# Template variables of the Telegraf dashboard: host, device.
TELEGRAF_VARIABLES = {
    "panthor_perf-telegraf.json": [("host", "Host", "panthor_perf", "host"),
                                   ("device", "Device", "panthor_perf", "device")],
}
