#!/usr/bin/env python3
"""Compare what collectd dispatched with what each backend stored.

The reference is collectd's own csv plugin tree (StoreRates false): every
directory <host>/<plugin>-<pinst> holding <type>-<tinst>-<date> files is one
series. Each subcommand prints one line per check, "ok|fail<TAB>name<TAB>
diagnostic", for the shell test to turn into TAP.

  series CSV_DIR HOST PLUGIN...     the reference series, one per line:
                                    plugin<TAB>pinst<TAB>type<TAB>tinst
  influx SERIES QUERY_JSON STATS_JSON
                                    every series in InfluxDB's collectd
                                    listener data (measurement
                                    <plugin>_value, tags instance, type,
                                    type_instance) with a value; the
                                    listener's parse and drop counters 0
  graphite SERIES WHISPER_DIR HOST  every series as <host>/<plugin>-<pinst>/
                                    <type>-<tinst>.wsp with a value, each
                                    name as write_graphite 5.12 writes it
                                    with EscapeCharacter "="; every path a
                                    valid Graphite path; as many files as
                                    series (nothing merged)
  prometheus SERIES METRICS_TXT HOST
                                    every series as collectd_<plugin>_<type>
                                    (+_total for a DERIVE type) with labels
                                    <plugin>=pinst, type=tinst, instance=HOST
  promrules METRICS_TXT RULES CHECKS_JSON [honor_labels|default]
                                    a `promtool test rules` file (stdout)
                                    running RULES over the scraped samples,
                                    labelled as that scrape config would
"""
import glob
import json
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../tools"))
import manifest  # noqa: E402

# Graphite path components: no separator, whitespace, glob, bracket, brace,
# quote, parenthesis, comma or semicolon (tags) may occur inside one.
GRAPHITE_COMPONENT = re.compile(r"^[^.\s*?\[\]{}()\"',;\\]+$")


def say(ok, name, diag=""):
    print(("ok" if ok else "fail") + "\t" + name + "\t" + diag.replace("\n", " ")[:600])


def read_series(path):
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        return [tuple(line.rstrip("\n").split("\t")) for line in f if line.strip()]


def cmd_series(csv_dir, host, *plugins):
    out = set()
    root = os.path.join(csv_dir, host)
    for d in sorted(os.listdir(root)):
        plugin, _, pinst = d.partition("-")
        if plugin not in plugins:
            continue
        for f in os.listdir(os.path.join(root, d)):
            m = re.match(r"^([^-]+)-(.*)-\d{4}-\d\d-\d\d$", f)
            if m:
                out.add((plugin, pinst, m.group(1), m.group(2)))
    for s in sorted(out):
        print("\t".join(s))


def cmd_influx(series_file, query_json, stats_json):
    series = read_series(series_file)
    doc = json.load(open(query_json, encoding="utf-8", errors="surrogateescape"))
    got = {}
    for result in doc["results"]:
        for s in result.get("series", []):
            t = s.get("tags", {})
            plugin = s["name"][: -len("_value")]
            key = (plugin, t.get("instance", ""), t.get("type", ""), t.get("type_instance", ""))
            got[key] = s["values"][-1][1]
    missing = [s for s in series if s not in got]
    say(not missing, f"InfluxDB: all {len(series)} series collectd wrote are stored",
        f"missing {len(missing)}: {missing[:5]!r}")
    empty = [s for s in series if s in got and got[s] is None]
    say(not empty, "InfluxDB: every series has a value", f"{empty[:5]!r}")
    extra = [k for k in got if k not in set(series)]
    say(not extra, "InfluxDB: no series collectd did not write (nothing split or merged)",
        f"{extra[:5]!r}")
    stats = json.load(open(stats_json))["results"][0]["series"]
    for s in stats:
        row = dict(zip(s["columns"], s["values"][0]))
        for k in ("pointsParseFail", "droppedPointsInvalid", "readFail", "batchesTxFail"):
            say(row.get(k) == 0, f"InfluxDB collectd listener: {k} = 0", f"got {row.get(k)}")
        say(row.get("pointsRx", 0) > 0, "InfluxDB collectd listener: points received",
            f"got {row.get('pointsRx')}")


def whisper_has_value(path):
    # the 1 s archive (the last hour): the 10 s one fills only as it ages
    since = int(time.time()) - 3000
    out = subprocess.run(["whisper-fetch", f"--from={since}", path], capture_output=True,
                         text=True).stdout
    return any(line.split()[-1] not in ("None", "nan") for line in out.splitlines() if line.strip())


def graphite_name(name):
    """A collectd name as write_graphite 5.12 writes it, EscapeCharacter
    "=": '.' (gr_copy_escape_part) and GRAPHITE_FORBIDDEN (whitespace,
    quotes, backslash, ':', '!', ',', '/', parentheses) become '='."""
    return re.sub(r'[.\s"\\:!,/()]', "=", name)


def cmd_graphite(series_file, whisper_dir, host):
    series = read_series(series_file)
    files = []
    for root, _, names in os.walk(whisper_dir):
        for n in names:
            if n.endswith(".wsp"):
                rel = os.path.relpath(os.path.join(root, n), whisper_dir)[: -len(".wsp")]
                files.append(rel.split(os.sep))
    ours = [f for f in files if len(f) == 3 and f[0] == host]
    bad = [".".join(f) for f in files if not all(GRAPHITE_COMPONENT.match(c) for c in f)]
    say(not bad, f"Graphite: all {len(files)} paths are valid Graphite paths", f"{bad[:5]!r}")
    have = {tuple(f) for f in ours}
    missing, empty = [], []
    for plugin, pinst, typ, tinst in series:
        key = (host, graphite_name(f"{plugin}-{pinst}"), graphite_name(f"{typ}-{tinst}"))
        if key not in have:
            missing.append(".".join(key))
        elif not whisper_has_value(os.path.join(whisper_dir, *key) + ".wsp"):
            empty.append(".".join(key))
    say(not missing, f"Graphite: all {len(series)} series have their whisper file, named as collectd's",
        f"missing {len(missing)}: {missing[:4]!r}; stored e.g. {sorted(map('.'.join, ours))[:3]!r}")
    say(not empty, "Graphite: every whisper file reads back a value", f"{empty[:5]!r}")
    say(len(ours) == len(series), f"Graphite: {len(series)} series, {len(ours)} files (none merged)")


LINE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)\{(.*)\} (\S+)(?: \d+)?$')
LABEL = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)",?')


def unescape_label(v):
    return re.sub(r'\\(.)', lambda m: "\n" if m.group(1) == "n" else m.group(1), v)


# write_prometheus names of every plugin of this project: collectd_<its
# manifest's series_prefix>_
OUR_PREFIXES = tuple(f"collectd_{manifest.manifest(p)['series_prefix']}_"
                     for p in manifest.plugins())


def cmd_prometheus(series_file, metrics_txt, host):
    series = read_series(series_file)
    got = {}
    # counters (types.db DERIVE): write_prometheus adds _total
    derive_types = {line.split()[0]
                    for f in ["types.db"] + glob.glob("plugins/*/types.db")
                    for line in open(f) if ":DERIVE:" in line and not line.startswith("#")}
    for line in open(metrics_txt, encoding="utf-8", errors="surrogateescape"):
        m = LINE.match(line.rstrip("\n"))
        if not m:
            continue
        labels = {k: unescape_label(v) for k, v in LABEL.findall(m.group(2))}
        got[(m.group(1), tuple(sorted(labels.items())))] = m.group(3)
    missing = []
    for plugin, pinst, typ, tinst in series:
        name = f"collectd_{plugin}_{typ}" + ("_total" if typ in derive_types else "")
        labels = {"instance": host, "type": tinst}
        if pinst:
            labels[plugin] = pinst
        if (name, tuple(sorted(labels.items()))) not in got:
            missing.append(f"{name}{labels}")
    say(not missing, f"Prometheus: all {len(series)} series scraped with their labels",
        f"missing {len(missing)}: {missing[:3]!r}")
    ours = [k for k in got if k[0].startswith(OUR_PREFIXES)]
    say(len(ours) == len(series), f"Prometheus: {len(series)} series, {len(ours)} samples")


def cmd_promrules(metrics_txt, rules, checks, scrape="honor_labels"):
    """Write a `promtool test rules` file on stdout: the scraped samples as
    input series (constant for 10 minutes) and CHECKS (a JSON list of
    [expr, labels, value]) as expectations at 5 minutes. SCRAPE
    "honor_labels" keeps the samples' labels (instance = the collectd host);
    "default" stores them as a default scrape config would: the host in
    exported_instance, instance the scrape address."""
    series = []
    for line in open(metrics_txt, encoding="utf-8", errors="surrogateescape"):
        m = LINE.match(line.rstrip("\n"))
        if (m and m.group(1).startswith(OUR_PREFIXES) and m.group(3).lower() != "nan"):
            labels = m.group(2)
            if scrape == "default":
                labels = re.sub(r'(^|,)instance="', r'\1exported_instance="', labels)
                labels += ',instance="127.0.0.1:9103",job="collectd"'
            series.append({"series": f"{m.group(1)}{{{labels}}}",
                           "values": f"{float(m.group(3))!r}x10"})
    tests = [{"expr": e, "eval_time": "5m", "exp_samples": [{"labels": l, "value": v}]}
             for e, l, v in json.load(open(checks))]
    doc = {"rule_files": [os.path.abspath(rules)], "evaluation_interval": "1m",
           "tests": [{"interval": "1m", "input_series": series, "promql_expr_test": tests}]}
    json.dump(doc, sys.stdout, indent=1)  # YAML is a superset of JSON


if __name__ == "__main__":
    cmds = {"series": cmd_series, "influx": cmd_influx, "graphite": cmd_graphite,
            "prometheus": cmd_prometheus, "promrules": cmd_promrules}
    if len(sys.argv) < 2 or sys.argv[1] not in cmds:
        sys.exit(__doc__)
    cmds[sys.argv[1]](*sys.argv[2:])
