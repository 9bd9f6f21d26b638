#!/usr/bin/env python3
"""Write the Grafana dashboards of this directory (run it after editing).

  generate.py [OUT_DIR]     (default: this directory)

Two dashboards for each plugin whose manifest names a `dashboard` file
(plugins/<p>/dashboard.py holds its panels), each for an InfluxDB 1.x data
source chosen at import (__inputs DS_INFLUXDB), in the collectd
schema (InfluxDB's [[collectd]] listener: measurement <plugin>_value, tags
host, instance = plugin_instance, type, type_instance; database "collectd")
and in the Telegraf schema (the executables' Influx lines through
inputs.exec/execd: measurements and tags as plugins/*/README.md "Metrics"; database
"telegraf"). Panels are raw InfluxQL with Grafana's $timeFilter and
$__interval. In the collectd schema the tags are parts of `instance` (the
plugin_instance: '-'-joined, docs/collectd-naming.md) and of
`type_instance`; its dashboards have template variables host, device (the
device or PMU, taken out of `instance` by a regex) and, for drm_fdinfo,
process (pid-comm), each with "All" as `.*`.
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../tools"))
import manifest  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


# A GPU inside a plugin_instance: a PCI address, a DRM node, a platform
# device (JavaScript regex of a variable, the device as group 1).
GPU_DEVICE = (r"(?:[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]|(?:card|renderD|accel)[0-9]+"
              r"|[0-9a-f]+\.[a-z0-9_]+)")
GPU_DEVICE_RE = f"/(?:^|-)({GPU_DEVICE})(?:-|$)/"


def inst(regex):
    """InfluxQL: the plugin_instance matches `regex` (Go syntax)."""
    return f'"instance" =~ /{regex}/'


def variable(name, label, query, regex):
    """A Grafana query variable on the InfluxDB data source, multi-value,
    with "All" sent as `.*`; `regex` (JavaScript, group 1) takes the value
    out of each tag value the query lists."""
    return {"name": name, "label": label, "type": "query",
            "datasource": {"type": "influxdb", "uid": "${DS_INFLUXDB}"},
            "query": query, "regex": regex, "refresh": 2, "sort": 1,
            "multi": True, "includeAll": True, "allValue": ".*",
            "current": {"selected": True, "text": ["All"], "value": ["$__all"]}}


def collectd_variables(plugin, device_re, device_label="Device", process_re=None):
    """host, device and (with process_re) process variables of a collectd
    schema dashboard: device_re / process_re capture the value inside the
    plugin_instance."""
    values = f'SHOW TAG VALUES FROM "{plugin}_value" WITH KEY = '
    out = [variable("host", "Host", values + '"host"', ""),
           variable("device", device_label,
                    values + '"instance" WHERE "host" =~ /^$host$/', device_re)]
    if process_re:
        out.append(variable("process", "Process (pid-name)",
                            values + '"instance" WHERE "host" =~ /^$host$/', process_re))
    return out


def panel(pid, title, query, unit, alias, y):
    return {
        "id": pid,
        "type": "timeseries",
        "title": title,
        "datasource": {"type": "influxdb", "uid": "${DS_INFLUXDB}"},
        "gridPos": {"h": 8, "w": 12, "x": 12 * ((pid - 1) % 2), "y": y},
        "fieldConfig": {"defaults": {"unit": unit}, "overrides": []},
        "options": {"legend": {"displayMode": "list", "placement": "bottom"}},
        "targets": [{"refId": "A", "rawQuery": True, "resultFormat": "time_series",
                     "query": query, "alias": alias}],
    }


def dashboard(uid, title, db, panels, variables=()):
    return {
        "__inputs": [{"name": "DS_INFLUXDB", "label": f"InfluxDB ({db})",
                      "description": f"InfluxDB 1.x, database \"{db}\"",
                      "type": "datasource", "pluginId": "influxdb",
                      "pluginName": "InfluxDB"}],
        "__requires": [{"type": "datasource", "id": "influxdb", "name": "InfluxDB",
                        "version": "1.0.0"},
                       {"type": "grafana", "id": "grafana", "name": "Grafana",
                        "version": "9.0.0"}],
        "uid": uid,
        "title": title,
        "tags": ["gpu", "collectd" if db == "collectd" else "telegraf"],
        "timezone": "browser",
        "schemaVersion": 36,
        "version": 1,
        "refresh": "30s",
        "time": {"from": "now-1h", "to": "now"},
        "templating": {"list": list(variables)},
        "annotations": {"list": []},
        "panels": [panel(i + 1, *p, y=8 * (i // 2)) for i, p in enumerate(panels)],
    }


def collectd_query(plugin, where, group="\"host\", \"instance\""):
    """A collectd schema query, restricted to the host and device chosen
    in the dashboard's variables."""
    return (f'SELECT mean("value") FROM "{plugin}_value" WHERE "host" =~ /^$host$/ AND '
            f'"instance" =~ /(^|-)$device(-|$)/ AND {where} AND $timeFilter '
            f'GROUP BY time($__interval), {group} fill(null)')


def telegraf_query(field, measurement, where, group):
    w = f"{where} AND " if where else ""
    return (f'SELECT mean("{field}") FROM "{measurement}" WHERE {w}$timeFilter '
            f'GROUP BY time($__interval), {group} fill(null)')


def collectd_field(plugin, field, unit, title):
    return (title, collectd_query(plugin, f"\"type_instance\" = '{field}'"), unit,
            "$tag_host $tag_instance")


# ---- Prometheus data source (the executables' own exposition) ----
#
# A plugin's dashboard.py may also define PROMETHEUS_DASHBOARDS: output file
# name -> (uid, title, variables, panels), variables a list of
# (name, label, metric, label_name) for Grafana query variables
# label_values(metric{<earlier variables>}, label_name), multi-valued with
# "All"; panels (title, PromQL, unit, legend format). A panel selects the
# variables with prom_sel(...), and rates use $__rate_interval.


def prom_sel(*pairs, **fixed):
    """A PromQL label selector body: fixed matchers (scope="device") first,
    then each (label, variable) as label=~"$variable"."""
    parts = [f'{k}="{v}"' for k, v in fixed.items()]
    parts += [f'{label}=~"${var}"' for label, var in pairs]
    return ", ".join(parts)


def prom_panel(pid, title, expr, unit, legend, y):
    return {
        "id": pid,
        "type": "timeseries",
        "title": title,
        "datasource": {"type": "prometheus", "uid": "${DS_PROMETHEUS}"},
        "gridPos": {"h": 8, "w": 12, "x": 12 * ((pid - 1) % 2), "y": y},
        "fieldConfig": {"defaults": {"unit": unit}, "overrides": []},
        "options": {"legend": {"displayMode": "list", "placement": "bottom"}},
        "targets": [{"refId": "A", "expr": expr, "legendFormat": legend,
                     "datasource": {"type": "prometheus", "uid": "${DS_PROMETHEUS}"}}],
    }


def prom_variable(name, label, metric, label_name, earlier):
    """`metric` is a name, or a name with fixed matchers
    (drm_engine_capacity{scope="container"}), to which the earlier
    variables' matchers are added."""
    sel = prom_sel(*[(lbl, var) for var, lbl in earlier])
    if metric.endswith("}"):
        metric, fixed = metric[:-1].split("{", 1)
        sel = ", ".join(x for x in (fixed, sel) if x)
    query = f"label_values({metric}{{{sel}}}, {label_name})" if sel else \
        f"label_values({metric}, {label_name})"
    return {
        "name": name, "label": label, "type": "query",
        "datasource": {"type": "prometheus", "uid": "${DS_PROMETHEUS}"},
        "query": {"query": query, "refId": f"{name}-query"},
        "definition": query, "refresh": 2, "sort": 1,
        "multi": True, "includeAll": True, "allValue": ".*",
        "current": {"selected": True, "text": ["All"], "value": ["$__all"]},
    }


def prom_dashboard(uid, title, variables, panels):
    tvars, earlier = [], []
    for name, label, metric, label_name in variables:
        tvars.append(prom_variable(name, label, metric, label_name, earlier))
        earlier.append((name, label_name))
    return {
        "__inputs": [{"name": "DS_PROMETHEUS", "label": "Prometheus",
                      "description": "Prometheus scraping the executables' --listen",
                      "type": "datasource", "pluginId": "prometheus",
                      "pluginName": "Prometheus"}],
        "__requires": [{"type": "datasource", "id": "prometheus", "name": "Prometheus",
                        "version": "1.0.0"},
                       {"type": "grafana", "id": "grafana", "name": "Grafana",
                        "version": "9.0.0"}],
        "uid": uid,
        "title": title,
        "tags": ["gpu", "prometheus"],
        "timezone": "browser",
        "schemaVersion": 36,
        "version": 1,
        "refresh": "30s",
        "time": {"from": "now-1h", "to": "now"},
        "templating": {"list": tvars},
        "annotations": {"list": []},
        "panels": [prom_panel(i + 1, *p, y=8 * (i // 2)) for i, p in enumerate(panels)],
    }


# ---- template variables of the Telegraf-schema dashboards ----
#
# A plugin's dashboard.py may define TELEGRAF_VARIABLES: output file name ->
# [(name, label, measurement, tag key)], InfluxQL query variables
# SHOW TAG VALUES FROM measurement WITH KEY = key, narrowed by the earlier
# ones, multi-valued with "All" (.*); its panels filter with tvar(...).


def tvar(*pairs):
    """InfluxQL conditions: each (tag key, variable) as "key" =~ /^$variable$/."""
    return " AND ".join(f'"{key}" =~ /^${var}$/' for key, var in pairs)


def influx_variables(variables):
    out, earlier = [], []
    for name, label, measurement, key in variables:
        query = f'SHOW TAG VALUES FROM "{measurement}" WITH KEY = "{key}"'
        if earlier:
            query += " WHERE " + tvar(*earlier)
        out.append({
            "name": name, "label": label, "type": "query",
            "datasource": {"type": "influxdb", "uid": "${DS_INFLUXDB}"},
            "query": query, "definition": query, "refresh": 2, "sort": 1,
            "multi": True, "includeAll": True, "allValue": ".*",
            "current": {"selected": True, "text": ["All"], "value": ["$__all"]},
        })
        earlier.append((key, name))
    return out


def spec_helpers():
    """What a plugin's dashboard spec may use."""
    return {"GPU_DEVICE": GPU_DEVICE, "GPU_DEVICE_RE": GPU_DEVICE_RE,
            "collectd_query": collectd_query,
            "telegraf_query": telegraf_query, "collectd_field": collectd_field,
            "inst": inst, "collectd_variables": collectd_variables,
            "prom_sel": prom_sel, "tvar": tvar}


def plugin_prometheus_dashboards():
    """Every plugin's PROMETHEUS_DASHBOARDS (and, into TELEGRAF_VARIABLES,
    its TELEGRAF_VARIABLES), in manifest order."""
    out = {}
    for p in manifest.plugins():
        spec = manifest.manifest(p).get("dashboard")
        if spec:
            scope = dict(spec_helpers())
            path = os.path.join(manifest.ROOT, spec)
            with open(path, encoding="utf-8") as f:
                exec(compile(f.read(), path, "exec"), scope)
            out.update(scope.get("PROMETHEUS_DASHBOARDS", {}))
            TELEGRAF_VARIABLES.update(scope.get("TELEGRAF_VARIABLES", {}))
    return out


TELEGRAF_VARIABLES = {}

# Dashboards that are no plugin's: how the exporters run (PROMETHEUS_DASHBOARDS
# as above), e.g. per Kubernetes pod (deploy/kubernetes, docs/kubernetes.md).
DEPLOY_SPECS = ["dashboards/grafana/kubernetes.py"]


def deploy_prometheus_dashboards():
    out = {}
    for spec in DEPLOY_SPECS:
        scope = dict(spec_helpers())
        path = os.path.join(manifest.ROOT, spec)
        with open(path, encoding="utf-8") as f:
            exec(compile(f.read(), path, "exec"), scope)
        out.update(scope["PROMETHEUS_DASHBOARDS"])
    return out


def plugin_dashboards():
    """Every plugin's dashboards (its manifest's `dashboard` file), in the
    order of plugins/plugins.manifest."""
    out = {}
    helpers = spec_helpers()
    for p in manifest.plugins():
        spec = manifest.manifest(p).get("dashboard")
        if spec:
            scope = dict(helpers)
            path = os.path.join(manifest.ROOT, spec)
            with open(path, encoding="utf-8") as f:
                exec(compile(f.read(), path, "exec"), scope)
            out.update(scope["DASHBOARDS"])
    return out


DASHBOARDS = plugin_dashboards()
PROMETHEUS_DASHBOARDS = plugin_prometheus_dashboards()
PROMETHEUS_DASHBOARDS.update(deploy_prometheus_dashboards())

if __name__ == "__main__":
    out = sys.argv[1] if len(sys.argv) > 1 else HERE
    for name, (uid, title, db, panels, *variables) in DASHBOARDS.items():
        board = dashboard(uid, title, db, panels, *variables)
        if name in TELEGRAF_VARIABLES:
            board["templating"]["list"] = influx_variables(TELEGRAF_VARIABLES[name])
        with open(os.path.join(out, name), "w") as f:
            json.dump(board, f, indent=2)
            f.write("\n")
    for name, (uid, title, variables, panels) in PROMETHEUS_DASHBOARDS.items():
        with open(os.path.join(out, name), "w") as f:
            json.dump(prom_dashboard(uid, title, variables, panels), f, indent=2)
            f.write("\n")
