#!/usr/bin/env python3
"""Run every panel query of Grafana dashboards against a live InfluxDB 1.x.

  grafana_queries.py INFLUX_URL DASHBOARD.json...

A dashboard named *-collectd.json reads database "collectd", *-telegraf.json
"telegraf"; *-prometheus.json is skipped (tests/lib/grafana_prom_queries.py). Grafana's macros are replaced by what Grafana would send for
the last hour: $timeFilter -> time > now() - 1h, $__interval and $interval
-> 10s; template variables get their "All" value, .*, and each variable's
own query must find values. Prints "ok|fail<TAB>name<TAB>diagnostic" per query: the query must
succeed and return at least one series with a non-null value.
"""
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
        if path.endswith("-prometheus.json"):
            continue  # PromQL: grafana_prom_queries.py, against Prometheus
        db = "collectd" if path.endswith("-collectd.json") else "telegraf"
        board = json.load(open(path))
        name = path.rsplit("/", 1)[-1]
        # template variables at "All": their allValue, .*
        names = sorted((v["name"] for v in board.get("templating", {}).get("list", [])),
                       key=len, reverse=True)

        def expand(query):
            for k, v in MACROS.items():
                query = query.replace(k, v)
            for n in names:
                query = query.replace("$" + n, ".*")
            return query

        for v in board.get("templating", {}).get("list", []):
            query = expand(v["query"])
            what = f"{name}: variable ${v['name']} finds values"
            try:
                res = run(url, db, query)["results"][0]
            except Exception as e:
                say(False, what, f"{e}: {query}")
                continue
            found = [row[1] for s in res.get("series", []) for row in s["values"]]
            say("error" not in res and bool(found), what + f" ({len(found)})",
                f"{res.get('error', 'no values')}: {query}")
        for p in board["panels"]:
            for t in p.get("targets", []):
                query = expand(t["query"])
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
