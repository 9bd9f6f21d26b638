#!/usr/bin/env python3
"""Run every panel query of Grafana dashboards against a live InfluxDB 1.x.

  grafana_queries.py INFLUX_URL DASHBOARD.json...

A dashboard named *-collectd.json reads database "collectd", *-telegraf.json
"telegraf"; *-prometheus.json is skipped (tests/lib/grafana_prom_queries.py). Grafana's macros are replaced by what Grafana would send for
the last hour: $timeFilter -> time > now() - 1h, $__interval and $interval
-> 10s; a template variable (templating) -> its "All" value (`.*`), as the
dashboard opens. Prints "ok|fail<TAB>name<TAB>diagnostic" per query: the
query must succeed and return at least one series with a non-null value;
and per template variable: its query lists at least one value through its
regex.
"""
import re
import json
import sys
import urllib.parse
import urllib.request

MACROS = {"$timeFilter": "time > now() - 1h", "$__interval": "10s", "$interval": "10s"}


def say(ok, name, diag=""):
    print(("ok" if ok else "fail") + "\t" + name + "\t" + diag.replace("\n", " ")[:500])


def run(url, db, query):
    q = urllib.parse.urlencode({"db": db, "q": query})
    with urllib.request.urlopen(f"{url}/query?{q}", timeout=10) as r:
        return json.load(r)


def main(url, files):
    for path in files:
        if path.endswith("-prometheus.json") or path.endswith("-kubernetes.json"):
            # PromQL: grafana_prom_queries.py against Prometheus, and the
            # per-pod board's cases (tests/e2e/kubernetes_deploy.sh)
            continue
        db = "collectd" if path.endswith("-collectd.json") else "telegraf"
        board = json.load(open(path))
        name = path.rsplit("/", 1)[-1]
        variables = board.get("templating", {}).get("list", [])
        macros = dict(MACROS)
        for v in sorted(variables, key=lambda v: -len(v["name"])):
            macros["$" + v["name"]] = v.get("allValue") or ".*"
        for v in variables:
            query = v["query"]
            for k, val in macros.items():
                query = query.replace(k, val)
            what = f"{name}: variable {v['name']} lists values"
            try:
                doc = run(url, db, query)
            except Exception as e:
                say(False, what, f"{e}: {query}")
                continue
            found = [row[-1] for s in doc["results"][0].get("series", []) for row in s["values"]]
            rx = v.get("regex", "")
            if rx:
                rx = re.compile(rx[1:rx.rindex("/")])
                found = [m.group(1) for m in map(rx.search, found) if m]
            say(bool(found), what + f" ({', '.join(sorted(set(found))[:4])})", f"none: {query}")
        for p in board["panels"]:
            for t in p.get("targets", []):
                query = t["query"]
                for k, v in macros.items():
                    query = query.replace(k, v)
                what = f"{name}: \"{p['title']}\" returns series"
                try:
                    doc = run(url, db, query)
                except Exception as e:  # HTTP 400 for a bad query
                    say(False, what, f"{e}: {query}")
                    continue
                res = doc["results"][0]
                series = res.get("series", [])
                values = [v for s in series for row in s["values"] for v in row[1:] if v is not None]
                say("error" not in res and bool(values), what + f" ({len(series)})",
                    f"{res.get('error', 'no values')}: {query}")


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2:])
