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
    "panthor_perf-collectd.json": ("gpu-panthor-perf-collectd",
                                   "Mali GPU counters (panthor_perf, collectd)", "collectd",
                                   PP_COLLECTD, PP_VARIABLES),
    "panthor_perf-telegraf.json": ("gpu-panthor-perf-telegraf",
                                   "Mali GPU counters (panthor_perf, Telegraf)", "telegraf",
                                   PP_TELEGRAF),
}
