#!/usr/bin/env python3
"""The Prometheus text exposition (0.0.4) read strictly, for the tests.

  prom_expo.py check FILE          structure: every line parses; HELP and TYPE
                                   once per name, before its samples; the
                                   samples of a name together; no series twice;
                                   counters end in _total, nothing else does;
                                   label values valid UTF-8. Prints one line
                                   per problem, exit 1 if any.
  prom_expo.py get FILE NAME [k=v ...]
                                   the value of the one sample of NAME whose
                                   labels include every k=v (values compared
                                   unescaped); exit 1 if not exactly one.
  prom_expo.py names FILE          the metric names, one per line
  prom_expo.py query URL PROMQL [k=v ...]
                                   Prometheus' /api/v1/query: the value of
                                   the one series whose labels include every
                                   k=v; exit 1 if not exactly one.
  prom_expo.py count URL PROMQL    how many series the query returns
"""
import json
import re
import sys
import urllib.parse
import urllib.request

NAME = re.compile(r"[a-zA-Z_:][a-zA-Z0-9_:]*")
LABEL = re.compile(r"[a-zA-Z_][a-zA-Z0-9_]*")


def parse_labels(text, pos):
    """Labels from text[pos] == '{'; returns (dict, position after '}')."""
    labels = {}
    pos += 1
    while True:
        if text[pos] == "}":
            return labels, pos + 1
        m = LABEL.match(text, pos)
        if not m:
            raise ValueError("bad label name at %d" % pos)
        key = m.group(0)
        pos = m.end()
        if text[pos : pos + 2] != '="':
            raise ValueError("expected =\" after %s" % key)
        pos += 2
        value = []
        while True:
            c = text[pos]
            if c == "\\":
                nxt = text[pos + 1]
                if nxt not in '\\"n':
                    raise ValueError("bad escape \\%s" % nxt)
                value.append("\n" if nxt == "n" else nxt)
                pos += 2
            elif c == '"':
                pos += 1
                break
            elif c == "\n":
                raise ValueError("newline in a label value")
            else:
                value.append(c)
                pos += 1
        if key in labels:
            raise ValueError("label %s twice" % key)
        labels[key] = "".join(value)
        if text[pos] == ",":
            pos += 1
        elif text[pos] != "}":
            raise ValueError("expected , or } at %d" % pos)


def parse(data):
    """(families {name: {help, type}}, samples [(name, labels, value)],
    problems [str])."""
    problems = []
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        return {}, [], ["not UTF-8: %s" % e]
    if text and not text.endswith("\n"):
        problems.append("the text does not end with a newline")
    fams, samples, seen_series, done = {}, [], set(), set()
    current = None
    for n, line in enumerate(text.split("\n")[:-1], 1):
        if line.startswith("# HELP ") or line.startswith("# TYPE "):
            kind, rest = line[2:6], line[7:]
            name = rest.split(" ", 1)[0]
            if not NAME.fullmatch(name):
                problems.append("%d: bad name %r" % (n, name))
            f = fams.setdefault(name, {})
            if kind in f:
                problems.append("%d: %s %s twice" % (n, kind, name))
            if name in done:
                problems.append("%d: %s after its samples" % (n, kind))
            f[kind] = rest[len(name) + 1 :]
            if current != name:
                if current is not None:
                    done.add(current)
                current = name
            continue
        if line.startswith("#") or not line:
            continue
        m = NAME.match(line)
        if not m:
            problems.append("%d: no metric name" % n)
            continue
        name = m.group(0)
        pos = m.end()
        labels = {}
        try:
            if line[pos : pos + 1] == "{":
                labels, pos = parse_labels(line + "\n", pos)
        except (ValueError, IndexError) as e:
            problems.append("%d: %s" % (n, e))
            continue
        parts = line[pos:].split(" ")
        if len(parts) != 2 or parts[0] != "":
            problems.append("%d: expected one value after the labels" % n)
            continue
        try:
            value = float(parts[1])
        except ValueError:
            problems.append("%d: bad value %r" % (n, parts[1]))
            continue
        if name in done:
            problems.append("%d: samples of %s not together" % (n, name))
        if current != name:
            if current is not None:
                done.add(current)
            current = name
        f = fams.get(name)
        if f is None or "HELP" not in f or "TYPE" not in f:
            problems.append("%d: %s without HELP and TYPE before it" % (n, name))
        series = (name, tuple(sorted(labels.items())))
        if series in seen_series:
            problems.append("%d: series %s twice" % (n, series))
        seen_series.add(series)
        samples.append((name, labels, value))
    for name, f in fams.items():
        t = f.get("TYPE")
        if t not in ("counter", "gauge"):
            problems.append("%s: type %r" % (name, t))
        if (t == "counter") != name.endswith("_total"):
            problems.append("%s: a %s %s _total" % (
                name, t, "without" if t == "counter" else "with"))
    return fams, samples, problems


def want(argv):
    return dict(a.split("=", 1) for a in argv)


def pick(items, filters):
    return [i for i in items if all(i[0].get(k) == v for k, v in filters.items())]


def api(url, query):
    q = urllib.parse.urlencode({"query": query})
    with urllib.request.urlopen("%s/api/v1/query?%s" % (url, q), timeout=10) as r:
        answer = json.load(r)
    if answer.get("status") != "success":
        raise SystemExit("query %r: %s" % (query, answer))
    return [(s["metric"], float(s["value"][1])) for s in answer["data"]["result"]]


def main():
    cmd = sys.argv[1]
    if cmd in ("check", "get", "names"):
        with open(sys.argv[2], "rb") as f:
            fams, samples, problems = parse(f.read())
        if cmd == "check":
            for p in problems:
                print(p)
            return 1 if problems else 0
        if cmd == "names":
            print("\n".join(fams))
            return 0
        hits = pick([(l, v) for n, l, v in samples if n == sys.argv[3]],
                    want(sys.argv[4:]))
        if len(hits) != 1:
            print("%d samples match" % len(hits), file=sys.stderr)
            return 1
        print(repr(hits[0][1]) if hits[0][1] != int(hits[0][1]) else int(hits[0][1]))
        return 0
    if cmd == "query":
        hits = pick(api(sys.argv[2], sys.argv[3]), want(sys.argv[4:]))
        if len(hits) != 1:
            print("%d series match" % len(hits), file=sys.stderr)
            return 1
        v = hits[0][1]
        print(int(v) if v == int(v) else repr(v))
        return 0
    if cmd == "count":
        print(len(api(sys.argv[2], sys.argv[3])))
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
