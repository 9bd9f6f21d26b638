"""The Grafana dashboard "GPU use per pod", for a Prometheus data source
scraping gpu-telemetry's DaemonSet (deploy/kubernetes, docs/kubernetes.md).

Read by dashboards/grafana/generate.py (DEPLOY_SPECS), which runs this
file with its helpers in scope (prom_sel) and takes PROMETHEUS_DASHBOARDS:
output file name -> (uid, title, variables, panels).

drm_fdinfo's `ReportBy Container` gives drm_engine_* and drm_memory_*
series with scope="container" and labels namespace, pod, container,
pod_uid, container_id, container_runtime; the device-scope series give
each engine's capacity. `instance` (the node's exporter) is kept in every
join: PCI addresses repeat from node to node. The exporter's own pod labels
fill in the device-scope series under honorLabels, so every per-pod query
selects scope="container".
"""
# flake8: noqa: F821

_POD = prom_sel(("namespace", "namespace"), ("pod", "pod"), ("device", "device"),
                scope="container")
_CAP = prom_sel(("device", "device"), scope="device")


def _share(by):
    """Busy share (0..1 of the engine class) of the container-scope
    series grouped by `by`, over the device's engine capacity."""
    return (f"sum by (instance, device, engine, {by}) "
            f"(rate(drm_engine_busy_seconds_total{{{_POD}}}[$__rate_interval])) "
            f"/ on (instance, device, engine) group_left "
            f"max by (instance, device, engine) (drm_engine_capacity{{{_CAP}}})")


PODS_PROMETHEUS = [
    ("Engine share per pod on each device", _share("namespace, pod"),
     "percentunit", "{{namespace}}/{{pod}} {{engine}} {{device}} ({{instance}})"),
    ("Busiest engine share per pod and device",
     f"max by (instance, device, namespace, pod) ({_share('namespace, pod')})",
     "percentunit", "{{namespace}}/{{pod}} {{device}} ({{instance}})"),
    ("Engine share per container", _share("namespace, pod, container"),
     "percentunit", "{{namespace}}/{{pod}}/{{container}} {{engine}} {{device}}"),
    ("GPU memory per pod (resident, every region)",
     f"sum by (instance, device, namespace, pod) (drm_memory_resident_bytes{{{_POD}}})",
     "bytes", "{{namespace}}/{{pod}} {{device}} ({{instance}})"),
    ("GPU memory per pod and region (total)",
     f"sum by (instance, device, region, namespace, pod) (drm_memory_total_bytes{{{_POD}}})",
     "bytes", "{{namespace}}/{{pod}} {{region}} {{device}}"),
    ("Engine share of the device per engine (every client)",
     f"sum by (instance, device, engine) "
     f"(rate(drm_engine_busy_seconds_total{{{_CAP}}}[$__rate_interval])) "
     f"/ on (instance, device, engine) "
     f"max by (instance, device, engine) (drm_engine_capacity{{{_CAP}}})",
     "percentunit", "{{device}} {{engine}} ({{instance}})"),
]

PROMETHEUS_DASHBOARDS = {
    "gpu-pods-kubernetes.json": (
        "gpu-pods-kubernetes", "GPU use per pod (drm_fdinfo, Kubernetes)",
        [("namespace", "Namespace", 'drm_engine_busy_seconds_total{scope="container"}', "namespace"),
         ("pod", "Pod", 'drm_engine_busy_seconds_total{scope="container"}', "pod"),
         ("device", "Device", 'drm_engine_busy_seconds_total{scope="container"}', "device")],
        PODS_PROMETHEUS),
}
