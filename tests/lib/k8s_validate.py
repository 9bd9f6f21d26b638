#!/usr/bin/python3
"""Check Kubernetes manifests offline, field by field, against the API
models of Debian's python3-kubernetes (kubernetes.client.V1*: each model's
openapi_types and attribute_map are the API's schema at that version).

  k8s_validate.py FILE.yaml...

Every document must have apiVersion and kind; a kind with a model (v1 and
apps/v1 here) is walked: an unknown or misspelt field, a wrong type (a
string for an int, a map for a list) is an error naming the document and
the path. ServiceMonitor (monitoring.coreos.com/v1, a CRD the package does
not model) is checked against the fields of the Prometheus Operator's API
that the manifests use. Prints "ok|fail<TAB>what<TAB>diagnostic" per
document.
"""
import re
import sys

import yaml
from kubernetes import client

MODELS = {("v1", "Namespace"): "V1Namespace", ("v1", "Service"): "V1Service",
          ("apps/v1", "DaemonSet"): "V1DaemonSet", ("v1", "ConfigMap"): "V1ConfigMap"}

# monitoring.coreos.com/v1 ServiceMonitor: the fields used (the Operator's
# Documentation/api.md, ServiceMonitorSpec, Endpoint, RelabelConfig)
SERVICEMONITOR = {
    "apiVersion": "str", "kind": "str", "metadata": "V1ObjectMeta",
    "spec": {
        "selector": "V1LabelSelector", "jobLabel": "str",
        "namespaceSelector": {"any": "bool", "matchNames": "list[str]"},
        "endpoints": ["list", {
            "port": "str", "path": "str", "scheme": "str", "interval": "str",
            "scrapeTimeout": "str", "honorLabels": "bool", "honorTimestamps": "bool",
            "relabelings": ["list", {"sourceLabels": "list[str]", "targetLabel": "str",
                                     "regex": "str", "replacement": "str",
                                     "action": "str", "separator": "str"}],
            "metricRelabelings": ["list", {"sourceLabels": "list[str]", "targetLabel": "str",
                                           "regex": "str", "replacement": "str",
                                           "action": "str", "separator": "str"}],
        }],
    },
}


def check(value, typ, path, errors):
    """Walk `value` against the model type `typ` (a python3-kubernetes type
    string, a dict of field -> type, or ["list", type])."""
    if isinstance(typ, dict):
        if not isinstance(value, dict):
            errors.append(f"{path}: a map expected, got {type(value).__name__}")
            return
        for k, v in value.items():
            if k not in typ:
                errors.append(f"{path}.{k}: unknown field")
            else:
                check(v, typ[k], f"{path}.{k}", errors)
        return
    if isinstance(typ, list):
        if not isinstance(value, list):
            errors.append(f"{path}: a list expected, got {type(value).__name__}")
            return
        for i, v in enumerate(value):
            check(v, typ[1], f"{path}[{i}]", errors)
        return
    m = re.match(r"^list\[(.+)\]$", typ)
    if m:
        check(value, ["list", m.group(1)], path, errors)
        return
    m = re.match(r"^dict\(str, (.+)\)$", typ)
    if m:
        if not isinstance(value, dict):
            errors.append(f"{path}: a map expected, got {type(value).__name__}")
            return
        for k, v in value.items():
            check(v, m.group(1), f"{path}.{k}", errors)
        return
    if typ == "str":
        if not isinstance(value, str):
            errors.append(f"{path}: a string expected, got {value!r}")
    elif typ == "int":
        if isinstance(value, bool) or not isinstance(value, int):
            errors.append(f"{path}: an integer expected, got {value!r}")
    elif typ == "bool":
        if not isinstance(value, bool):
            errors.append(f"{path}: true or false expected, got {value!r}")
    elif typ == "object":
        pass  # IntOrString and the like
    elif typ.startswith("V1") or typ.startswith("V2"):
        model = getattr(client, typ)
        fields = {json_key: model.openapi_types[attr]
                  for attr, json_key in model.attribute_map.items()}
        check(value, fields, path, errors)
    else:
        errors.append(f"{path}: no rule for type {typ}")


def main(files):
    for path in files:
        with open(path, encoding="utf-8") as f:
            docs = [d for d in yaml.safe_load_all(f) if d is not None]
        for i, doc in enumerate(docs):
            what = f"{path}[{i}] {doc.get('kind', '?')}/{doc.get('metadata', {}).get('name', '?')}"
            key = (doc.get("apiVersion"), doc.get("kind"))
            errors = []
            if key in MODELS:
                check(doc, MODELS[key], "", errors)
            elif key == ("monitoring.coreos.com/v1", "ServiceMonitor"):
                check(doc, SERVICEMONITOR, "", errors)
            else:
                errors.append(f"no model for {key}")
            print(("fail" if errors else "ok") + "\t" + what + "\t" + "; ".join(errors))


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
