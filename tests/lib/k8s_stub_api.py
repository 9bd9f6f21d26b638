#!/usr/bin/env python3
"""A stub Kubernetes API server for `kubectl apply --dry-run=client`
without a cluster: it answers the discovery documents (legacy /api,
/apis, /api/v1, /apis/<group>/<version>: the APIVersions, APIGroupList and
APIResourceList shapes of the API's discovery) for the kinds the
manifests use, and 404 with a Status for every object, so kubectl maps
each kind to its resource, finds no live object and reports the create
it would make. It stores nothing and accepts no write (405).

  k8s_stub_api.py PORT_FILE     listens on a free 127.0.0.1 port, writes
                                the port to PORT_FILE, serves until killed
Each request is logged on stderr as "METHOD PATH".
"""
import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

# group/version -> [(resource, kind, namespaced)]
RESOURCES = {
    "v1": [("namespaces", "Namespace", False), ("services", "Service", True),
           ("configmaps", "ConfigMap", True), ("serviceaccounts", "ServiceAccount", True)],
    "apps/v1": [("daemonsets", "DaemonSet", True)],
    "monitoring.coreos.com/v1": [("servicemonitors", "ServiceMonitor", True)],
}
VERBS = ["create", "delete", "get", "list", "patch", "update", "watch"]


def resource_list(gv):
    return {"kind": "APIResourceList", "apiVersion": "v1", "groupVersion": gv,
            "resources": [{"name": r, "singularName": k.lower(), "namespaced": ns,
                           "kind": k, "verbs": VERBS} for r, k, ns in RESOURCES[gv]]}


def group_list():
    groups = []
    for gv in RESOURCES:
        if "/" not in gv:
            continue
        g, v = gv.split("/")
        ver = {"groupVersion": gv, "version": v}
        groups.append({"name": g, "versions": [ver], "preferredVersion": ver})
    return {"kind": "APIGroupList", "apiVersion": "v1", "groups": groups}


class Handler(BaseHTTPRequestHandler):
    def log_message(self, fmt, *args):
        pass

    def send_json(self, code, doc):
        body = json.dumps(doc).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def not_found(self, what):
        self.send_json(404, {"kind": "Status", "apiVersion": "v1", "status": "Failure",
                             "message": f"{what} not found", "reason": "NotFound",
                             "code": 404})

    def do_GET(self):
        path = self.path.split("?", 1)[0].rstrip("/")
        sys.stderr.write(f"GET {path}\n")
        if path == "/api":
            return self.send_json(200, {"kind": "APIVersions", "versions": ["v1"],
                                        "serverAddressByClientCIDRs": []})
        if path == "/apis":
            return self.send_json(200, group_list())
        if path == "/api/v1":
            return self.send_json(200, resource_list("v1"))
        if path.startswith("/apis/") and path.count("/") == 3:
            gv = path[len("/apis/"):]
            if gv in RESOURCES:
                return self.send_json(200, resource_list(gv))
        if path == "/version":
            return self.send_json(200, {"major": "1", "minor": "32", "gitVersion": "v1.32.0-stub"})
        return self.not_found(path)

    def refuse(self):
        sys.stderr.write(f"{self.command} {self.path}\n")
        self.send_json(405, {"kind": "Status", "apiVersion": "v1", "status": "Failure",
                             "message": "the stub stores nothing", "reason": "MethodNotAllowed",
                             "code": 405})

    do_POST = do_PUT = do_PATCH = do_DELETE = refuse


def main(port_file):
    srv = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    with open(port_file + ".tmp", "w") as f:
        f.write(str(srv.server_address[1]))
    import os
    os.rename(port_file + ".tmp", port_file)
    srv.serve_forever()


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
