"""The Grafana dashboards of i915_oa, collectd and Telegraf schema.

Read by dashboards/grafana/generate.py, which runs this file with its
helpers in scope (collectd_query, collectd_field, collectd_variables, inst,
GPU_DEVICE_RE, telegraf_query) and takes DASHBOARDS: output file name ->
(uid, title, database, panels[, template variables]).
"""
# flake8: noqa: F821

# plugin_instance [label-]device-engine-metric_set (the stream's:
# [label-]device-metric_set); type_instance the field (stream-FIELD).
I915_COLLECTD = [
    collectd_field("i915_oa", "gpu_busy_percent", "percent", "GPU busy"),
    collectd_field("i915_oa", "avg_gpu_core_frequency_hz", "hertz",
                   "Average GPU core frequency"),
    collectd_field("i915_oa", "eu_active_percent", "percent",
                   "EU active (Render Basic set, EuMetrics true)"),
    collectd_field("i915_oa", "eu_stall_percent", "percent",
                   "EU stall (Render Basic set, EuMetrics true)"),
    ("OA reports per second", collectd_query(
        "i915_oa", "\"type_instance\" = 'stream-reports'"),
     "short", "$tag_host $tag_instance"),
    ("Lost OA reports and buffers (should stay 0)", collectd_query(
        "i915_oa", "\"type_instance\" =~ /^stream-(report|buffer)_lost$/",
        "\"host\", \"instance\", \"type_instance\""),
     "short", "$tag_host $tag_instance $tag_type_instance"),
]
I915_VARIABLES = collectd_variables("i915_oa", GPU_DEVICE_RE)

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

DASHBOARDS = {
    "i915_oa-collectd.json": ("gpu-i915-oa-collectd", "Intel GPU OA (i915_oa, collectd)",
                              "collectd", I915_COLLECTD, I915_VARIABLES),
    "i915_oa-telegraf.json": ("gpu-i915-oa-telegraf", "Intel GPU OA (i915_oa, Telegraf)",
                              "telegraf", I915_TELEGRAF),
}
