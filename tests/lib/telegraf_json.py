#!/usr/bin/env python3
"""A strict model of what Telegraf's v1 JSON parser makes of our output.

    telegraf_json.py SNIPPET.conf < output

reads the input table of a shipped conf.d snippet ([[inputs.exec]] or
[[inputs.execd]], data_format = "json") and applies Telegraf's documented
rules (plugins/parsers/json/README.md, plugins/inputs/exec and execd):
  - inputs.exec parses the whole stdout as ONE document; inputs.execd
    parses each line as one document;
  - a document is an object (one metric) or an array of objects (one
    metric per element); anything else is an error, as is trailing data
    ("extra data after line 1");
  - json_name_key names the metric (it must be a string);
  - json_time_key with json_time_format unix/unix_ms/unix_us/unix_ns sets
    the time (it must be a number);
  - strings named in tag_keys become tags; other strings and booleans are
    dropped (stricter here: a dropped string is an error, since it would
    be data lost silently); numbers become float fields; nested objects
    flatten with '_'.
Prints one line per metric, "name|tag=v,...|field=v,...|time_ns" with tags
sorted; exit 1 with "telegraf_json.py: ..." on the first violation.
"""
import json
import sys
import tomllib

SCALE = {"unix": 10**9, "unix_ms": 10**6, "unix_us": 10**3, "unix_ns": 1}


def die(what):
    sys.stderr.write(f"telegraf_json.py: {what}\n")
    sys.exit(1)


def load(path):
    with open(path, "rb") as f:
        conf = tomllib.load(f)
    tables = conf.get("inputs", {})
    kinds = [k for k in ("exec", "execd") if k in tables]
    if len(kinds) != 1 or len(tables[kinds[0]]) != 1:
        die(f"{path}: want exactly one [[inputs.exec]] or [[inputs.execd]]")
    table = tables[kinds[0]][0]
    if table.get("data_format") != "json":
        die(f"{path}: data_format is not json")
    fmt = table.get("json_time_format")
    if fmt not in SCALE:
        die(f"{path}: json_time_format {fmt!r} is not a unix format")
    return kinds[0], table


def flatten(obj, prefix, out):
    for k, v in obj.items():
        key = prefix + k
        if isinstance(v, dict):
            flatten(v, key + "_", out)
        else:
            out[key] = v


def metric(obj, table):
    if not isinstance(obj, dict):
        die(f"an element is not an object: {obj!r}")
    flat = {}
    flatten(obj, "", flat)
    name_key, time_key = table["json_name_key"], table["json_time_key"]
    tag_keys = set(table.get("tag_keys", []))
    strings = set(table.get("json_string_fields", []))
    name = flat.pop(name_key, None)
    if not isinstance(name, str) or name == "":
        die(f"no string {name_key!r} in {obj!r}")
    stamp = flat.pop(time_key, None)
    if not isinstance(stamp, (int, float)) or isinstance(stamp, bool):
        die(f"no numeric {time_key!r} in {obj!r}")
    tags, fields = {}, {}
    for k, v in flat.items():
        if isinstance(v, str):
            if k in tag_keys:
                tags[k] = v
            elif k in strings:
                fields[k] = v
            else:
                die(f"string {k!r} is neither in tag_keys nor json_string_fields")
        elif isinstance(v, bool) or v is None:
            die(f"{k!r} = {v!r} would be dropped")
        elif isinstance(v, (int, float)):
            fields[k] = float(v)
        else:
            die(f"{k!r} holds an array")
    if not fields:
        die(f"metric {name!r} has no field")
    ns = int(stamp) * SCALE[table["json_time_format"]]
    tag_text = ",".join(f"{k}={tags[k]}" for k in sorted(tags))
    field_text = ",".join(f"{k}={fields[k]!r}" for k in fields)
    return f"{name}|{tag_text}|{field_text}|{ns}"


def document(text, table, where):
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        die(f"{where}: not one JSON document: {e}")
    items = doc if isinstance(doc, list) else [doc]
    return [metric(o, table) for o in items]


def main():
    if len(sys.argv) != 2:
        die("usage: telegraf_json.py SNIPPET.conf < output")
    kind, table = load(sys.argv[1])
    data = sys.stdin.buffer.read().decode("utf-8")
    out = []
    if kind == "exec":
        out = document(data, table, "stdout")
    else:
        for n, line in enumerate(data.split("\n")[:-1], 1):
            out += document(line, table, f"line {n}")
    for m in out:
        print(m)


if __name__ == "__main__":
    main()
