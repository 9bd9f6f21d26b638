#!/usr/bin/env python3
"""Turn a Grafana dashboard's Prometheus queries into promtool unit tests
with exact expected samples, for dashboards whose series no test exporter
gives yet (or whose values must be checked, not only found).

  dashboard_promtool.py DASHBOARD.json CASES.yml OUT.yml

CASES.yml:
  interval: 1m
  eval_time: 10m
  input_series: [...]              promtool's input_series
  cases:                           one per choice of the variables
    - variables: {namespace: ml}   the others at "All" (.*); a value is
                                   regex-escaped as Grafana does
      panels:                      EVERY panel's title -> exp_samples
        "Title": [{labels: '{...}', value: 0.5}, ...]

Variables' own queries (label_values(...)) become count by (label) tests
whose expected values are given under `variable_values`:
  variable_values: {namespace: [ml, web]}      (with every variable at All)
$__rate_interval and $__interval become 1m. A panel without an
expectation, or an expectation for no panel, is an error: the cases keep
up with the dashboard.
"""
import json
import re
import sys

import yaml

MACROS = {"$__rate_interval": "1m", "$__interval": "1m"}
LABEL_VALUES = re.compile(r"^label_values\((.*),\s*([a-zA-Z_][a-zA-Z0-9_]*)\)$")


def regex_value(v):
    return re.sub(r"([\\.+*?()|\[\]{}^$])", r"\\\1", v).replace("\\", "\\\\")


def expand(text, values):
    for k, v in MACROS.items():
        text = text.replace(k, v)
    for name in sorted(values, key=len, reverse=True):
        text = text.replace("$" + name, values[name])
    return text


def main(board_path, cases_path, out_path):
    board = json.load(open(board_path))
    spec = yaml.safe_load(open(cases_path))
    names = [v["name"] for v in board["templating"]["list"]]
    titles = [p["title"] for p in board["panels"]]
    tests = []
    every = {n: ".*" for n in names}
    for v in board["templating"]["list"]:
        m = LABEL_VALUES.match(v["definition"])
        if not m:
            sys.exit(f"variable {v['name']}: not label_values(...): {v['definition']}")
        want = spec.get("variable_values", {}).get(v["name"])
        if want is None:
            sys.exit(f"variable {v['name']}: no variable_values in {cases_path}")
        label = m.group(2)
        tests.append({
            "expr": expand(f"count by ({label}) ({m.group(1)})", every),
            "eval_time": spec["eval_time"],
            "exp_samples": [{"labels": "{%s=%s}" % (label, json.dumps(x)),
                             "value": 0} for x in want],
        })
    for case in spec["cases"]:
        values = dict(every)
        for k, v in case.get("variables", {}).items():
            if k not in values:
                sys.exit(f"case variable {k}: not a variable of the dashboard")
            values[k] = regex_value(v)
        panels = case["panels"]
        missing = [t for t in titles if t not in panels]
        extra = [t for t in panels if t not in titles]
        if missing or extra:
            sys.exit(f"{cases_path}: panels without a case {missing}, cases without a panel {extra}")
        for p in board["panels"]:
            for t in p["targets"]:
                tests.append({"expr": expand(t["expr"], values),
                              "eval_time": spec["eval_time"],
                              "exp_samples": panels[p["title"]]})
    # count by () gives the count; the value of a label_values row is not
    # what is checked: rewrite those expressions to give 0 per value
    for t in tests:
        if t["expr"].startswith("count by ("):
            t["expr"] = f"0 * ({t['expr']})"
    doc = {"rule_files": [], "evaluation_interval": spec.get("interval", "1m"),
           "tests": [{"interval": spec.get("interval", "1m"),
                      "input_series": spec["input_series"],
                      "promql_expr_test": tests}]}
    with open(out_path, "w") as f:
        yaml.safe_dump(doc, f, sort_keys=False, width=1000)


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(*sys.argv[1:])
