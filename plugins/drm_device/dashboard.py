"""The Grafana dashboards of drm_device: collectd, Telegraf and Prometheus.

Read by dashboards/grafana/generate.py, which runs this file with its
helpers in scope (collectd_query, collectd_field, collectd_variables, inst,
GPU_DEVICE_RE, telegraf_query, tvar) and takes DASHBOARDS: output file name ->
(uid, title, database, panels[, template variables]), and PROMETHEUS_DASHBOARDS
(generate.py, "Prometheus data source").
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

# The Telegraf panels follow the template variables host and device.
_SEL = tvar(("host", "host"), ("device", "device"))
_BY_DOMAIN = "\"host\", \"driver\", \"device\", \"domain\""
_BY_SENSOR = "\"host\", \"driver\", \"device\", \"sensor\""

DDV_TELEGRAF = [
    ("Actual frequency per device and domain", telegraf_query(
        "actual_hz", "drm_device_freq", _SEL, _BY_DOMAIN),
     "hertz", "$tag_host $tag_device $tag_domain"),
    ("Requested frequency per device and domain", telegraf_query(
        "requested_hz", "drm_device_freq", _SEL, _BY_DOMAIN),
     "hertz", "$tag_host $tag_device $tag_domain"),
    ("Idle residency (RC6, gtidle) over the interval", telegraf_query(
        "idle_percent", "drm_device_idle", _SEL, _BY_DOMAIN),
     "percent", "$tag_host $tag_device $tag_domain"),
    ("Power per sensor", telegraf_query(
        "power_watts", "drm_device_power", _SEL, _BY_SENSOR),
     "watt", "$tag_host $tag_device $tag_sensor"),
    ("Temperature per sensor", telegraf_query(
        "celsius", "drm_device_temperature", _SEL, _BY_SENSOR),
     "celsius", "$tag_host $tag_device $tag_sensor"),
    ("Memory used per region", telegraf_query(
        "used_bytes", "drm_device_memory", _SEL,
        "\"host\", \"driver\", \"device\", \"region\""),
     "bytes", "$tag_host $tag_device $tag_region"),
    ("Busy percentage (amdgpu)", telegraf_query(
        "percent", "drm_device_busy", _SEL,
        "\"host\", \"driver\", \"device\", \"unit\""),
     "percent", "$tag_host $tag_device $tag_unit"),
    ("Throttled (1) per domain", telegraf_query(
        "throttled", "drm_device_throttle", _SEL, _BY_DOMAIN),
     "short", "$tag_host $tag_device $tag_domain"),
    ("Fan speed", telegraf_query("rpm", "drm_device_fan", _SEL, _BY_SENSOR),
     "rotrpm", "$tag_host $tag_device $tag_sensor"),
    ("Runtime suspended (1)", telegraf_query(
        "runtime_suspended", "drm_device", _SEL,
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

# Template variables of the Telegraf dashboard: host, device.
TELEGRAF_VARIABLES = {
    "drm_device-telegraf.json": [("host", "Host", "drm_device", "host"),
                                 ("device", "Device", "drm_device", "device")],
}

# Prometheus data source: the executable's or gpu-telemetry's --listen
# (docs/exporter.md); variables instance and device. i915 and xe give no
# busy ratio but RC6/gtidle residency: their busy is 1 - idle_ratio per GT,
# shown beside amdgpu's and the NPU's busy ratio (domain as unit).
_DDV = prom_sel(("instance", "instance"), ("device", "device"))
_DDV_LEGEND = "{{instance}} {{device}} {{%s}}"
DDV_PROMETHEUS = [
    ("Actual frequency per device and domain", f"drm_device_freq_actual_hertz{{{_DDV}}}",
     "hertz", _DDV_LEGEND % "domain"),
    ("Requested frequency per device and domain", f"drm_device_freq_requested_hertz{{{_DDV}}}",
     "hertz", _DDV_LEGEND % "domain"),
    ("Busy (amdgpu, NPU: busy ratio; i915, xe: 1 - idle residency)",
     f"drm_device_busy_ratio{{{_DDV}}} or "
     f"label_replace(1 - drm_device_idle_ratio{{{_DDV}}}, \"unit\", \"$1\", \"domain\", \"(.+)\")",
     "percentunit", _DDV_LEGEND % "unit"),
    ("Power and power cap per sensor",
     f"{{__name__=~\"drm_device_power_(watts|cap_watts)\", {_DDV}}}",
     "watt", "{{instance}} {{device}} {{sensor}} {{__name__}}"),
    ("Temperature per sensor", f"drm_device_temperature_celsius{{{_DDV}}}",
     "celsius", _DDV_LEGEND % "sensor"),
    ("Fan speed", f"drm_device_fan_rpm{{{_DDV}}}", "rotrpm", _DDV_LEGEND % "sensor"),
    ("Throttled (1) per domain", f"drm_device_throttle_throttled{{{_DDV}}}",
     "short", _DDV_LEGEND % "domain"),
    ("Throttle reasons (1: active)",
     f"{{__name__=~\"drm_device_throttle_reason_.+\", {_DDV}}}",
     "short", "{{instance}} {{device}} {{domain}} {{__name__}}"),
    ("Runtime suspended (1)", f"drm_device_runtime_suspended{{{_DDV}}}",
     "short", "{{instance}} {{driver}} {{device}}"),
    ("Collector: last read succeeded (1)",
     f"gpu_telemetry_collector_success{{plugin=\"drm_device\", {prom_sel(('instance', 'instance'))}}}",
     "short", "{{instance}} {{plugin_instance}}"),
]

PROMETHEUS_DASHBOARDS = {
    "drm_device-prometheus.json": (
        "gpu-drm-device-prometheus", "GPU devices (drm_device, Prometheus)",
        [("instance", "Host", "drm_device_info", "instance"),
         ("device", "Device", "drm_device_info", "device")],
        DDV_PROMETHEUS),
}
