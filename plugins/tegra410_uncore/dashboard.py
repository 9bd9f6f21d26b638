"""The Grafana dashboards of tegra410_uncore, collectd and Telegraf schema.

Read by dashboards/grafana/generate.py, which runs this file with its
helpers in scope (collectd_query, collectd_field, collectd_variables, inst,
GPU_DEVICE_RE, telegraf_query) and takes DASHBOARDS: output file name ->
(uid, title, database, panels[, template variables]).
"""
# flake8: noqa: F821

# plugin_instance [label-]pmu[-cpuN][-direction][-filter]; type_instance
# the preset's field, or event-field for an event.
T410_BY_TYPE = "\"host\", \"instance\", \"type_instance\""
T410_LEGEND = "$tag_host $tag_instance $tag_type_instance"
T410_COLLECTD = [
    ("Bandwidth (PCIe, memory, SLC)", collectd_query(
        "tegra410_uncore", "\"type\" = 'uncore_bytes_per_second'", T410_BY_TYPE),
     "Bps", T410_LEGEND),
    ("Latency", collectd_query(
        "tegra410_uncore", "\"type\" = 'uncore_latency_seconds'", T410_BY_TYPE),
     "s", T410_LEGEND),
    ("Requests per cycle", collectd_query(
        "tegra410_uncore", "\"type\" = 'uncore_requests_per_cycle'", T410_BY_TYPE),
     "short", T410_LEGEND),
    ("Fabric frequency", collectd_query(
        "tegra410_uncore", "\"type_instance\" = 'frequency'"),
     "hertz", "$tag_host $tag_instance"),
    ("PCIe root ports: read bandwidth", collectd_query(
        "tegra410_uncore", "\"type_instance\" = 'read_bandwidth' AND "
        + inst(r"(^|-)nvidia_pcie_pmu_[0-9]+_rc_[0-9]+(-|$)")),
     "Bps", "$tag_host $tag_instance"),
    ("Raw events: rate", collectd_query(
        "tegra410_uncore", "\"type\" = 'uncore_rate'", T410_BY_TYPE),
     "short", T410_LEGEND),
]
T410_VARIABLES = collectd_variables("tegra410_uncore", r"/(?:^|-)(nvidia_[^-]+|msr)(?:-|$)/",
                                    device_label="PMU")

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

DASHBOARDS = {
    "tegra410_uncore-collectd.json": ("tegra410-uncore-collectd",
                                      "Tegra410 uncore (collectd)", "collectd", T410_COLLECTD,
                                      T410_VARIABLES),
    "tegra410_uncore-telegraf.json": ("tegra410-uncore-telegraf",
                                      "Tegra410 uncore (Telegraf)", "telegraf", T410_TELEGRAF),
}
