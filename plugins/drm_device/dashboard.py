"""The Grafana dashboards of drm_device, collectd and Telegraf schema.

Read by dashboards/grafana/generate.py, which runs this file with its
helpers in scope (tag, collectd_query, telegraf_query, collectd_field) and
takes DASHBOARDS: output file name -> (uid, title, database, panels).
"""
# flake8: noqa: F821

DDV_COLLECTD = [
    collectd_field("drm_device", "drm_device_freq_actual_hz", "hertz",
                   "Actual frequency per device and domain"),
    collectd_field("drm_device", "drm_device_freq_requested_hz", "hertz",
                   "Requested frequency per device and domain"),
    collectd_field("drm_device", "drm_device_idle_idle_percent", "percent",
                   "Idle residency (RC6, gtidle) over the interval"),
    collectd_field("drm_device", "drm_device_power_power_watts", "watt",
                   "Power per sensor"),
    collectd_field("drm_device", "drm_device_temperature_celsius", "celsius",
                   "Temperature per sensor"),
    collectd_field("drm_device", "drm_device_memory_used_bytes", "bytes",
                   "Memory used per region"),
    collectd_field("drm_device", "drm_device_busy_percent", "percent",
                   "Busy percentage (amdgpu)"),
    collectd_field("drm_device", "drm_device_throttle_throttled", "short",
                   "Throttled (1) per domain"),
    collectd_field("drm_device", "drm_device_fan_rpm", "rotrpm", "Fan speed"),
    collectd_field("drm_device", "drm_device_runtime_suspended", "short",
                   "Runtime suspended (1)"),
]

_BY_DOMAIN = "\"host\", \"driver\", \"device\", \"domain\""
_BY_SENSOR = "\"host\", \"driver\", \"device\", \"sensor\""

DDV_TELEGRAF = [
    ("Actual frequency per device and domain", telegraf_query(
        "actual_hz", "drm_device_freq", "", _BY_DOMAIN),
     "hertz", "$tag_host $tag_device $tag_domain"),
    ("Requested frequency per device and domain", telegraf_query(
        "requested_hz", "drm_device_freq", "", _BY_DOMAIN),
     "hertz", "$tag_host $tag_device $tag_domain"),
    ("Idle residency (RC6, gtidle) over the interval", telegraf_query(
        "idle_percent", "drm_device_idle", "", _BY_DOMAIN),
     "percent", "$tag_host $tag_device $tag_domain"),
    ("Power per sensor", telegraf_query(
        "power_watts", "drm_device_power", "", _BY_SENSOR),
     "watt", "$tag_host $tag_device $tag_sensor"),
    ("Temperature per sensor", telegraf_query(
        "celsius", "drm_device_temperature", "", _BY_SENSOR),
     "celsius", "$tag_host $tag_device $tag_sensor"),
    ("Memory used per region", telegraf_query(
        "used_bytes", "drm_device_memory", "",
        "\"host\", \"driver\", \"device\", \"region\""),
     "bytes", "$tag_host $tag_device $tag_region"),
    ("Busy percentage (amdgpu)", telegraf_query(
        "percent", "drm_device_busy", "",
        "\"host\", \"driver\", \"device\", \"unit\""),
     "percent", "$tag_host $tag_device $tag_unit"),
    ("Throttled (1) per domain", telegraf_query(
        "throttled", "drm_device_throttle", "", _BY_DOMAIN),
     "short", "$tag_host $tag_device $tag_domain"),
    ("Fan speed", telegraf_query("rpm", "drm_device_fan", "", _BY_SENSOR),
     "rotrpm", "$tag_host $tag_device $tag_sensor"),
    ("Runtime suspended (1)", telegraf_query(
        "runtime_suspended", "drm_device", "",
        "\"host\", \"driver\", \"device\""),
     "short", "$tag_host $tag_driver $tag_device"),
]

DASHBOARDS = {
    "drm_device-collectd.json": ("gpu-drm-device-collectd",
                                 "GPU devices (drm_device, collectd)",
                                 "collectd", DDV_COLLECTD),
    "drm_device-telegraf.json": ("gpu-drm-device-telegraf",
                                 "GPU devices (drm_device, Telegraf)",
                                 "telegraf", DDV_TELEGRAF),
}
