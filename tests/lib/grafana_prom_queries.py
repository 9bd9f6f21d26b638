#!/usr/bin/env python3
"""Run every query of Grafana dashboards for a Prometheus data source
against a live Prometheus (its HTTP API).

  grafana_prom_queries.py PROMETHEUS_URL DASHBOARD.json...

Each template variable's label_values(METRIC{...}, LABEL) must find values;
each panel query must return at least one series, twice: with every
variable at "All" (Grafana sends the variable's allValue, .*) and with
every variable at the first value its query finds (regex-escaped as
Grafana does for a multi-value variable), earlier variables narrowing later
ones. $__rate_interval and $__interval become 15s (four scrapes at the
tests' 1 s interval are well inside it). Prints "ok|fail<TAB>name<TAB>
diagnostic" per check.
"""
import json
import re
import sys
import urllib.parse
import urllib.request

MACROS = {"$__rate_interval": "15s", "$__interval": "15s"}
LABEL_VALUES = re.compile(r"^label_values\((.*),\s*([a-zA-Z_][a-zA-Z0-9_]*)\)$")


def say(ok, name, diag=""):
    print(("ok" if ok else "fail") + "\t" + name + "\t" + diag.replace("\n", " ")[:400])


def query(url, expr):
    q = urllib.parse.urlencode({"query": expr})
    with urllib.request.urlopen(f"{url}/api/v1/query?{q}", timeout=10) as r:
        doc = json.load(r)
    if doc.get("status") != "success":
        raise RuntimeError(str(doc))
    return doc["data"]["result"]


def regex_value(v):
    """A label value as an RE2 literal inside a PromQL string."""
    lit = re.sub(r"([\\.+*?()|\[\]{}^$])", r"\\\1", v)
    return lit.replace("\\", "\\\\").replace('"', '\\"')


def expand(text, values):
    for k, v in MACROS.items():
        text = text.replace(k, v)
    # longest names first: $device before $dev
    for name in sorted(values, key=len, reverse=True):
        text = text.replace("$" + name, values[name])
    return text


def main(url, files):
    for path in files:
        board = json.load(open(path))
        name = path.rsplit("/", 1)[-1]
        variables = board["templating"]["list"]
        every = {v["name"]: ".*" for v in variables}
        first = {}
        for v in variables:
            m = LABEL_VALUES.match(v["definition"])
            what = f"{name}: variable ${v['name']} finds values"
            if not m:
                say(False, what, "not label_values(METRIC, LABEL): " + v["definition"])
                continue
            metric, label = m.group(1), m.group(2)
            # earlier variables at their first value narrow this one
            expr = expand(f"count by ({label}) ({metric})", {**every, **first})
            try:
                found = sorted(r["metric"].get(label, "") for r in query(url, expr))
            except Exception as e:
                say(False, what, f"{e}: {expr}")
                continue
            found = [f for f in found if f]
            say(bool(found), what + f" ({len(found)})", expr)
            if found:
                first[v["name"]] = regex_value(found[0])
        for choice, values in (("All", every), ("first values", {**every, **first})):
            for p in board["panels"]:
                for t in p.get("targets", []):
                    expr = expand(t["expr"], values)
                    what = f"{name}: \"{p['title']}\" returns series ({choice})"
                    try:
                        res = query(url, expr)
                    except Exception as e:
                        say(False, what, f"{e}: {expr}")
                        continue
                    say(bool(res), what + f" ({len(res)})", f"no series: {expr}")


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2:])
