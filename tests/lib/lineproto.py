#!/usr/bin/env python3
"""A strict reader of InfluxDB 1.x line protocol, for the shell test layers.

    measurement[,tag_key=tag_value...] field_key=field_value[,...] [timestamp]

Escaping (InfluxDB 1.x line protocol reference, "Special characters"):
  - measurement: a backslash escapes ',' and ' ';
  - tag keys, tag values, field keys: a backslash escapes ',', '=' and ' ';
  - string field values ("..."): a backslash escapes '"' and '\\'.
  A backslash before any other character, another backslash included,
  stays a literal backslash ('\\\\' is two), as InfluxDB 1.x and 2.x and
  Telegraf read it. A backslash at the end of a name or before '"' is an
  error here (the readers disagree on it; common/sink/sink_influx.h).
Field values: integers with the 'i' suffix (int64 range), floats (decimal,
optional exponent; no NaN or Inf), booleans (t, T, true, True, TRUE, f, F,
false, False, FALSE) and double-quoted strings. The optional timestamp is
an integer (nanoseconds). Blank lines and '#' comment lines are skipped.

Stricter than InfluxDB: an empty measurement, key or tag value, an
unescaped separator, a duplicate tag or field key, a control character or
anything after the timestamp is an error ("line N: column C: what").

Command line (reads stdin; exit 0, or 1 with the error on stderr):
  lineproto.py json
      one JSON object per line: {"measurement", "tags", "fields", "time"}
      (tags and fields keep line order; integers stay integers).
  lineproto.py get KEY [--measurement M] [--where K=V ...]
      for every line of measurement M whose tags include each K=V, print the
      tag or field KEY (@measurement, @time, @nfields, @fieldkeys and
      @tagkeys print those): integers in decimal, floats as Python's
      shortest round trip (repr), booleans as true/false, strings raw. A
      selected line without KEY is an error.
  lineproto.py count [--measurement M] [--where K=V ...]
      print how many lines match.
  lineproto.py untime
      print each line unchanged except its timestamp, which becomes "T"
      (for byte-exact comparisons); every line is parsed, so malformed
      input still fails.
"""
import json
import re
import sys

_INT = re.compile(r"-?[0-9]+i")
_FLOAT = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")
_TRUE = {"t", "T", "true", "True", "TRUE"}
_FALSE = {"f", "F", "false", "False", "FALSE"}
_TIME = re.compile(r"-?[0-9]+")


class LineError(ValueError):
    """A malformed line; `column` is 1-based."""

    def __init__(self, column, what):
        super().__init__(f"column {column}: {what}")
        self.column = column


class Line(dict):
    """measurement, tags (dict), fields (dict), time (int or None), and the
    offset of the timestamp in the text (time_at, None without one)."""


def _name(text, pos, specials, stops, what):
    """Read an escaped name from pos up to an unescaped stop character.
    Returns (name, pos of the stop or len(text))."""
    out = []
    start = pos
    while pos < len(text):
        c = text[pos]
        if c == "\\":
            nxt = text[pos + 1] if pos + 1 < len(text) else ""
            if nxt in specials and nxt != "":
                out.append(nxt)
                pos += 2
                continue
            if nxt == "" or nxt in stops or nxt == '"':
                # InfluxDB 1.x would take the separator as escaped and
                # Telegraf would not: no sink of ours may write this
                raise LineError(pos + 1, f"backslash before {nxt!r} in {what}")
            out.append(c)
            pos += 1
            continue
        if c in stops:
            break
        if c in specials:
            raise LineError(pos + 1, f"unescaped {c!r} in {what}")
        if ord(c) < 0x20 or c == "\x7f":
            raise LineError(pos + 1, f"control character in {what}")
        out.append(c)
        pos += 1
    if pos == start:
        raise LineError(pos + 1, f"empty {what}")
    return "".join(out), pos


def _string_value(text, pos):
    """A quoted string field value starting at the quote; (value, pos after
    the closing quote)."""
    out = []
    pos += 1
    while pos < len(text):
        c = text[pos]
        if c == "\\" and pos + 1 < len(text) and text[pos + 1] in '"\\':
            out.append(text[pos + 1])
            pos += 2
            continue
        if c == '"':
            return "".join(out), pos + 1
        out.append(c)
        pos += 1
    raise LineError(pos + 1, "unterminated string field value")


def _field_value(text, pos):
    """A field value at pos; (value, pos after it)."""
    if pos < len(text) and text[pos] == '"':
        return _string_value(text, pos)
    end = pos
    while end < len(text) and text[end] not in ", ":
        end += 1
    token = text[pos:end]
    if token == "":
        raise LineError(pos + 1, "empty field value")
    if _INT.fullmatch(token):
        value = int(token[:-1])
        if not -(2**63) <= value < 2**63:
            raise LineError(pos + 1, f"integer out of int64 range: {token}")
        return value, end
    if token in _TRUE:
        return True, end
    if token in _FALSE:
        return False, end
    if _FLOAT.fullmatch(token):
        value = float(token)
        if value in (float("inf"), float("-inf")):
            raise LineError(pos + 1, f"float out of range: {token}")
        return value, end
    raise LineError(pos + 1, f"invalid field value {token!r}")


def parse_line(text):
    """Parse one line (without its newline) into a Line; raises LineError."""
    if "\n" in text or "\r" in text:
        raise LineError(text.find("\n") + 1, "line break inside a line")
    line = Line(tags={}, fields={}, time=None, time_at=None)
    line["measurement"], pos = _name(text, 0, ", ", ", ", "measurement")
    while pos < len(text) and text[pos] == ",":
        key, pos = _name(text, pos + 1, ",= ", "=", "tag key")
        if pos >= len(text):
            raise LineError(pos + 1, f"tag {key!r} has no value")
        value, pos = _name(text, pos + 1, ",= ", ", ", "tag value")
        if key in line["tags"]:
            raise LineError(pos + 1, f"duplicate tag {key!r}")
        line["tags"][key] = value
    if pos >= len(text) or text[pos] != " ":
        raise LineError(pos + 1, "no field set")
    pos += 1
    while True:
        key, pos = _name(text, pos, ",= ", "=", "field key")
        if pos >= len(text):
            raise LineError(pos + 1, f"field {key!r} has no value")
        value, pos = _field_value(text, pos + 1)
        if key in line["fields"]:
            raise LineError(pos + 1, f"duplicate field {key!r}")
        line["fields"][key] = value
        if pos < len(text) and text[pos] == ",":
            pos += 1
            continue
        break
    if pos < len(text):
        if text[pos] != " " or pos + 1 >= len(text):
            raise LineError(pos + 1, "expected ' ' and a timestamp")
        if not _TIME.fullmatch(text[pos + 1 :]):
            raise LineError(pos + 2, f"invalid timestamp {text[pos + 1:]!r}")
        line["time"] = int(text[pos + 1 :])
        line["time_at"] = pos + 1
    return line


def parse(stream):
    """Yield (line number, text, Line) for every data line of `stream`."""
    for number, raw in enumerate(stream, 1):
        text = raw[:-1] if raw.endswith("\n") else raw
        if text == "" or text.startswith("#"):
            continue
        try:
            yield number, text, parse_line(text)
        except LineError as e:
            raise ValueError(f"line {number}: {e}") from None


def format_value(value):
    """A value as the `get` command prints it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)
    return str(value)


def select(line, measurement, where):
    """True when `line` is of `measurement` (None: any) and has every tag
    of `where` (a list of (key, value))."""
    if measurement is not None and line["measurement"] != measurement:
        return False
    return all(line["tags"].get(k) == v for k, v in where)


def lookup(line, key):
    """The value `get` prints for `key`, or None when the line has none."""
    special = {
        "@measurement": lambda: line["measurement"],
        "@time": lambda: line["time"],
        "@nfields": lambda: len(line["fields"]),
        "@fieldkeys": lambda: ",".join(line["fields"]),
        "@tagkeys": lambda: ",".join(line["tags"]),
    }
    if key in special:
        return special[key]()
    if key in line["tags"]:
        return line["tags"][key]
    return line["fields"].get(key)


def _options(args):
    measurement, where = None, []
    while args:
        if args[0] == "--measurement" and len(args) > 1:
            measurement = args[1]
        elif args[0] == "--where" and len(args) > 1 and "=" in args[1]:
            where.append(tuple(args[1].split("=", 1)))
        else:
            raise SystemExit(f"lineproto.py: unexpected argument {args[0]!r}")
        args = args[2:]
    return measurement, where


def main(argv):
    if len(argv) < 2 or argv[1] not in ("json", "get", "count", "untime"):
        sys.stderr.write(__doc__)
        return 2
    command = argv[1]
    try:
        if command == "json":
            for _, _, line in parse(sys.stdin):
                obj = {k: line[k] for k in ("measurement", "tags", "fields", "time")}
                print(json.dumps(obj, separators=(",", ":"), ensure_ascii=False))
        elif command == "untime":
            for _, text, line in parse(sys.stdin):
                at = line["time_at"]
                print(text if at is None else text[:at] + "T")
        elif command == "count":
            measurement, where = _options(argv[2:])
            print(sum(1 for _, _, l in parse(sys.stdin) if select(l, measurement, where)))
        else:
            if len(argv) < 3:
                raise SystemExit("lineproto.py: get needs a KEY")
            measurement, where = _options(argv[3:])
            for number, _, line in parse(sys.stdin):
                if not select(line, measurement, where):
                    continue
                value = lookup(line, argv[2])
                if value is None:
                    raise ValueError(f"line {number}: no {argv[2]!r}")
                print(format_value(value))
    except ValueError as e:
        sys.stderr.write(f"lineproto.py: {e}\n")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
