"""The Grafana dashboards of drm_fdinfo, collectd and Telegraf schema.

Read by dashboards/grafana/generate.py, which runs this file with its
helpers in scope (tag, collectd_query, telegraf_query, collectd_field) and
takes DASHBOARDS: output file name -> (uid, title, database, panels).
"""
# flake8: noqa: F821

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

DASHBOARDS = {
    "drm_fdinfo-collectd.json": ("gpu-drm-fdinfo-collectd", "GPU clients (drm_fdinfo, collectd)",
                                 "collectd", DRM_COLLECTD),
    "drm_fdinfo-telegraf.json": ("gpu-drm-fdinfo-telegraf", "GPU clients (drm_fdinfo, Telegraf)",
                                 "telegraf", DRM_TELEGRAF),
}
