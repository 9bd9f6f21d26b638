"""The Grafana dashboards of drm_device, collectd and Telegraf schema.

Read by dashboards/grafana/generate.py, which runs this file with its
helpers in scope (collectd_query, collectd_field, collectd_variables, inst,
GPU_DEVICE_RE, telegraf_query) and takes DASHBOARDS: output file name ->
(uid, title, database, panels[, template variables]).
"""
# flake8: noqa: F821

# plugin_instance the device; type_instance [domain|region|unit|sensor-]field
# (docs/collectd-naming.md; drm_device.c: ddv_collectd_rules).
DDV_BY_TYPE = "\"host\", \"instance\", \"type_instance\""
DDV_LEGEND = "$tag_host $tag_instance $tag_type_instance"


def ddv_panel(title, field_re, unit):
    return (title, collectd_query("drm_device", f"\"type_instance\" =~ /{field_re}/",
                                  DDV_BY_TYPE), unit, DDV_LEGEND)


DDV_COLLECTD = [
    ddv_panel("Actual frequency per device and domain", "-actual_hz$", "hertz"),
    ddv_panel("Requested frequency per device and domain", "-requested_hz$", "hertz"),
    ddv_panel("Idle residency (RC6, gtidle) over the interval", "-idle_percent$", "percent"),
    ddv_panel("Power per sensor", "-power_watts$", "watt"),
    ddv_panel("Temperature per sensor", "-celsius$", "celsius"),
    ddv_panel("Memory used per region", "-used_bytes$", "bytes"),
    ddv_panel("Busy percentage (amdgpu)", "-percent$", "percent"),
    ddv_panel("Throttled (1) per domain", "-throttled$", "short"),
    ddv_panel("Fan speed", "-rpm$", "rotrpm"),
    ddv_panel("Runtime suspended (1)", "^runtime_suspended$", "short"),
]
DDV_VARIABLES = collectd_variables("drm_device", GPU_DEVICE_RE)

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
                                 "collectd", DDV_COLLECTD, DDV_VARIABLES),
    "drm_device-telegraf.json": ("gpu-drm-device-telegraf",
                                 "GPU devices (drm_device, Telegraf)",
                                 "telegraf", DDV_TELEGRAF),
}
