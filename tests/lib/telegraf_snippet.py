#!/usr/bin/env python3
"""A shipped conf.d/telegraf-*.conf snippet as Telegraf reads it.

    telegraf_snippet.py argv SNIPPET.conf
        the command, one argument per line: inputs.exec's `commands` string
        split with shell quoting (Telegraf's exec plugin splits it with
        go-shellquote, whose rules shlex follows for quotes and spaces),
        or inputs.execd's `command` array as it is; then the snippet's
        kind, timeout and data_format on lines "#kind exec", "#timeout 5",
        "#data_format json".
    telegraf_snippet.py metrics SNIPPET.conf < output
        parse the output with the snippet's data_format (json: the rules of
        telegraf_json.py, one document per run for exec and per line for
        execd; influx: lineproto.py), apply the snippet's field filters
        (fieldinclude/fieldpass, fieldexclude/fielddrop: globs on field
        keys, as Telegraf's metric filtering; a metric left without fields
        is dropped) and print one line per metric: "name field=value,...".

Exit 1 with "telegraf_snippet.py: ..." on the first problem: more than one
table or command, an unknown data_format, output that does not parse.
"""
import fnmatch
import os
import shlex
import sys
import tomllib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lineproto  # noqa: E402
import telegraf_json  # noqa: E402


def die(what):
    sys.stderr.write(f"telegraf_snippet.py: {what}\n")
    sys.exit(1)


def load(path):
    with open(path, "rb") as f:
        tables = tomllib.load(f).get("inputs", {})
    kinds = [k for k in ("exec", "execd") if k in tables]
    if len(kinds) != 1 or len(tables[kinds[0]]) != 1:
        die(f"{path}: want exactly one [[inputs.exec]] or [[inputs.execd]]")
    return kinds[0], tables[kinds[0]][0]


def argv_of(kind, table, path):
    if kind == "exec":
        commands = table.get("commands", [])
        if "command" in table:  # the legacy single command
            commands = commands + [table["command"]]
        if len(commands) != 1:
            die(f"{path}: want exactly one command, got {len(commands)}")
        try:
            return shlex.split(commands[0])
        except ValueError as e:
            die(f"{path}: the command does not split: {e}")
    command = table.get("command")
    if not isinstance(command, list) or not command:
        die(f"{path}: inputs.execd wants a command array")
    return command


def seconds(text):
    units = {"ms": 1e-3, "s": 1, "m": 60, "h": 3600}
    for unit in sorted(units, key=len, reverse=True):
        if text.endswith(unit):
            return float(text[: -len(unit)]) * units[unit]
    die(f"timeout {text!r} is not a duration")


def keep(table, key):
    include = table.get("fieldinclude", table.get("fieldpass"))
    exclude = table.get("fieldexclude", table.get("fielddrop"))
    if include is not None and not any(fnmatch.fnmatchcase(key, g) for g in include):
        return False
    return exclude is None or not any(fnmatch.fnmatchcase(key, g) for g in exclude)


def metrics(kind, table, data):
    out = []  # (name, {field: value})
    fmt = table.get("data_format")
    if fmt == "json":
        def one(text, where):
            try:
                return telegraf_json.document(text, table, where)
            except SystemExit:
                sys.exit(1)  # telegraf_json said why on stderr
        lines = []
        if kind == "exec":
            lines = one(data, "stdout")
        else:
            for n, text in enumerate(data.split("\n")[:-1], 1):
                lines += one(text, f"line {n}")
        for m in lines:
            name, _, fields, _ = m.split("|")
            out.append((name, dict(f.split("=", 1) for f in fields.split(","))))
    elif fmt == "influx":
        try:
            for _, _, line in lineproto.parse(data.splitlines(True)):
                out.append((line["measurement"],
                            {k: lineproto.format_value(v) for k, v in line["fields"].items()}))
        except ValueError as e:
            die(f"stdout: {e}")
    else:
        die(f"data_format {fmt!r} is not json or influx")
    kept = []
    for name, fields in out:
        fields = {k: v for k, v in fields.items() if keep(table, k)}
        if fields:
            kept.append((name, fields))
    return kept


def main(argv):
    if len(argv) != 3 or argv[1] not in ("argv", "metrics"):
        die("usage: telegraf_snippet.py argv|metrics SNIPPET.conf")
    kind, table = load(argv[2])
    if argv[1] == "argv":
        for a in argv_of(kind, table, argv[2]):
            print(a)
        print(f"#kind {kind}")
        print(f"#timeout {seconds(table.get('timeout', '5s')):g}")
        print(f"#data_format {table.get('data_format')}")
        return 0
    data = sys.stdin.buffer.read().decode("utf-8")
    for name, fields in metrics(kind, table, data):
        print(name + " " + ",".join(f"{k}={v}" for k, v in fields.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
