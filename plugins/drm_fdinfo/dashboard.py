"""The Grafana dashboards of drm_fdinfo, collectd and Telegraf schema.

Read by dashboards/grafana/generate.py, which runs this file with its
helpers in scope (collectd_query, collectd_field, collectd_variables, inst,
GPU_DEVICE_RE, telegraf_query) and takes DASHBOARDS: output file name ->
(uid, title, database, panels[, template variables]).
"""
# flake8: noqa: F821

# plugin_instance shapes (docs/collectd-naming.md): a device
# [label-]device, a process [label-]device-pid-comm, a client
# [label-]device-clientID-comm, a cgroup [label-]device-+path (or, cut,
# HASH~+tail / start~HASH); type_instance engine-field or region-field.
DEVICE_SCOPE = inst(r"^([^-]*-)?[^-+~]+$")
PROCESS_SCOPE = inst(r"^([^-]*-)?[^-]+-[0-9]+-") + " AND " + inst(r"-$process$")
CGROUP_SCOPE = inst(r"-(\+|[0-9a-f]{8}~)|~[0-9a-f]{8}$")
BY_TYPE = "\"host\", \"instance\", \"type_instance\""
LEGEND = "$tag_host $tag_instance $tag_type_instance"

DRM_COLLECTD = [
    ("Engine utilisation per device", collectd_query(
        "drm_fdinfo", "\"type_instance\" =~ /-utilization$/ AND " + DEVICE_SCOPE, BY_TYPE),
     "percent", LEGEND),
    ("Engine utilisation per process", collectd_query(
        "drm_fdinfo", "\"type_instance\" =~ /-utilization$/ AND " + PROCESS_SCOPE, BY_TYPE),
     "percent", LEGEND),
    ("Engine utilisation per cgroup", collectd_query(
        "drm_fdinfo", "\"type_instance\" =~ /-utilization$/ AND " + CGROUP_SCOPE, BY_TYPE),
     "percent", LEGEND),
    ("Resident GPU memory per device", collectd_query(
        "drm_fdinfo", "\"type_instance\" =~ /-resident_bytes$/ AND " + DEVICE_SCOPE, BY_TYPE),
     "bytes", LEGEND),
    ("GPU memory per process (total)", collectd_query(
        "drm_fdinfo", "\"type_instance\" =~ /-total_bytes$/ AND " + PROCESS_SCOPE, BY_TYPE),
     "bytes", LEGEND),
    ("DRM clients per device", collectd_query(
        "drm_fdinfo", "\"type_instance\" = 'clients' AND " + DEVICE_SCOPE),
     "short", "$tag_host $tag_instance"),
    ("Processes not readable (run collectd as root)", collectd_query(
        "drm_fdinfo", "\"type_instance\" = 'scan-unreadable'"),
     "short", "$tag_host $tag_instance"),
    ("Scan: processes and fds walked per read", collectd_query(
        "drm_fdinfo", "\"type_instance\" =~ /^scan-(processes|fds|fdinfo_reads)$/", BY_TYPE),
     "short", LEGEND),
]
DRM_VARIABLES = collectd_variables(
    "drm_fdinfo", GPU_DEVICE_RE,
    process_re=f"/(?:^|-){GPU_DEVICE}-([0-9]+-.*)$/")

DRM_TELEGRAF = [
    ("Engine utilisation per device", telegraf_query(
        "utilization", "drm_engine", "\"scope\" = 'device' AND " + tvar(("host", "host"), ("device", "device")),
        "\"host\", \"driver\", \"device\", \"engine\""),
     "percent", "$tag_host $tag_driver $tag_device $tag_engine"),
    ("Engine utilisation per process", telegraf_query(
        "utilization", "drm_engine", "\"scope\" = 'process' AND " + tvar(("host", "host"), ("device", "device"), ("comm", "comm")),
        "\"host\", \"device\", \"engine\", \"pid\", \"comm\""),
     "percent", "$tag_host $tag_comm ($tag_pid) $tag_engine"),
    ("Engine utilisation per cgroup", telegraf_query(
        "utilization", "drm_engine", "\"scope\" = 'cgroup' AND " + tvar(("host", "host"), ("device", "device")),
        "\"host\", \"device\", \"engine\", \"cgroup\""),
     "percent", "$tag_host $tag_cgroup $tag_engine"),
    ("Resident GPU memory per device", telegraf_query(
        "resident_bytes", "drm_memory", "\"scope\" = 'device' AND " + tvar(("host", "host"), ("device", "device")),
        "\"host\", \"device\", \"region\""),
     "bytes", "$tag_host $tag_device $tag_region"),
    ("GPU memory per process (total)", telegraf_query(
        "total_bytes", "drm_memory", "\"scope\" = 'process' AND " + tvar(("host", "host"), ("device", "device"), ("comm", "comm")),
        "\"host\", \"device\", \"region\", \"pid\", \"comm\""),
     "bytes", "$tag_host $tag_comm ($tag_pid) $tag_region"),
    ("DRM clients per device", telegraf_query(
        "clients", "drm_clients", tvar(("host", "host"), ("device", "device")), "\"host\", \"driver\", \"device\""),
     "short", "$tag_host $tag_driver $tag_device"),
    ("Processes not readable (run as root)", telegraf_query(
        "unreadable", "drm_scan", tvar(("host", "host")), "\"host\""),
     "short", "$tag_host"),
    ("Scan: fds walked per read", telegraf_query("fds", "drm_scan", tvar(("host", "host")), "\"host\""),
     "short", "$tag_host"),
]

DASHBOARDS = {
    "drm_fdinfo-collectd.json": ("gpu-drm-fdinfo-collectd", "GPU clients (drm_fdinfo, collectd)",
                                 "collectd", DRM_COLLECTD, DRM_VARIABLES),
    "drm_fdinfo-telegraf.json": ("gpu-drm-fdinfo-telegraf", "GPU clients (drm_fdinfo, Telegraf)",
                                 "telegraf", DRM_TELEGRAF),
}

# Prometheus data source: the executable's --listen
# (docs/exporter.md); variables host (instance), device, process (comm).
_DEV = prom_sel(("instance", "instance"), ("device", "device"), scope="device")
_PROC = prom_sel(("instance", "instance"), ("device", "device"), ("comm", "comm"),
                 scope="process")
DRM_PROMETHEUS = [
    ("Engine busy per device (from busy time)",
     f"sum by (instance, device, engine) (rate(drm_engine_busy_seconds_total{{{_DEV}}}"
     "[$__rate_interval])) / on (instance, device, engine) "
     f"max by (instance, device, engine) (drm_engine_capacity{{{_DEV}}})",
     "percentunit", "{{instance}} {{device}} {{engine}}"),
    ("Engine busy per process",
     f"sum by (instance, device, engine, pid, comm) (rate(drm_engine_busy_seconds_total{{{_PROC}}}"
     "[$__rate_interval]))",
     "percentunit", "{{comm}} ({{pid}}) {{engine}} {{device}}"),
    ("Engine utilisation per device (the plugin's interval)",
     f"drm_engine_utilization_ratio{{{_DEV}}}",
     "percentunit", "{{instance}} {{device}} {{engine}}"),
    ("Resident GPU memory per device",
     f"sum by (instance, device, region) (drm_memory_resident_bytes{{{_DEV}}})",
     "bytes", "{{instance}} {{device}} {{region}}"),
    ("GPU memory per process (total)",
     f"sum by (instance, device, pid, comm) (drm_memory_total_bytes{{{_PROC}}})",
     "bytes", "{{comm}} ({{pid}}) {{device}}"),
    ("DRM clients per device",
     f"drm_clients{{{prom_sel(('instance', 'instance'), ('device', 'device'))}}}",
     "short", "{{instance}} {{device}}"),
    ("Processes not readable (run as root)",
     f"drm_clients_unreadable{{{prom_sel(('instance', 'instance'), ('device', 'device'))}}}",
     "short", "{{instance}} {{device}}"),
    ("Scan: processes and fds walked per read",
     f"{{__name__=~\"drm_scan_(processes|fds)\", {prom_sel(('instance', 'instance'))}}}",
     "short", "{{instance}} {{__name__}}"),
]

PROMETHEUS_DASHBOARDS = {
    "drm_fdinfo-prometheus.json": (
        "gpu-drm-fdinfo-prometheus", "GPU clients (drm_fdinfo, Prometheus)",
        [("instance", "Host", "drm_scan_clients", "instance"),
         ("device", "Device", "drm_clients", "device"),
         ("comm", "Process", "drm_engine_capacity", "comm")],
        DRM_PROMETHEUS),
}

# Template variables of the Telegraf dashboard: host, device, process.
TELEGRAF_VARIABLES = {
    "drm_fdinfo-telegraf.json": [("host", "Host", "drm_scan", "host"),
                                 ("device", "Device", "drm_clients", "device"),
                                 ("comm", "Process", "drm_engine", "comm")],
}
