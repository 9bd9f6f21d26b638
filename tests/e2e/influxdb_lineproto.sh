#!/usr/bin/env bash
# The exec host's Influx lines against the real InfluxDB 1.x (Debian's
# influxdb package, tools/deps.sh test): influxd runs on loopback with every
# directory under a temp dir, the fake plugin's output for hostile tag
# values (separators, quotes, backslashes anywhere, a trailing backslash, a
# leading space, control bytes, UTF-8) is POSTed to /write, which must
# answer 204, and every tag must read back through /query byte for byte:
# the value itself, or the '?' replacement common/sink/sink_influx.h
# documents where no reader can carry it. influxd is stopped by its PID.
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib/tap.sh
source tests/lib/require.sh
NAME="InfluxDB 1.x reads our line protocol back"
require_cmd "$NAME" python3 curl
require_cmd "$NAME" "${INFLUXD:-/usr/bin/influxd}"
BIN=${BUILD:-build}/tests/fake_plugin
INFLUXD=${INFLUXD:-/usr/bin/influxd}

T=$(mktemp -d)
pid=
cleanup() {
  if [[ -n $pid ]]; then
    kill "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
  fi
  rm -rf "$T"
}
trap cleanup EXIT

# A free loopback port pair (HTTP and the RPC bind address).
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
rpc=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
cat >"$T/influxdb.conf" <<EOF
reporting-disabled = true
bind-address = "127.0.0.1:$rpc"
[meta]
  dir = "$T/meta"
[data]
  dir = "$T/data"
  wal-dir = "$T/wal"
[monitor]
  store-enabled = false
[http]
  enabled = true
  bind-address = "127.0.0.1:$port"
  log-enabled = false
[continuous_queries]
  enabled = false
EOF
"$INFLUXD" run -config "$T/influxdb.conf" >"$T/influxd.log" 2>&1 &
pid=$!
URL=http://127.0.0.1:$port
up=0
for _ in $(seq 1 100); do
  if curl -sf -o /dev/null "$URL/ping"; then
    up=1
    break
  fi
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.1
done
if [[ $up -ne 1 ]]; then
  tap_fail "influxd answers /ping" "$(tail -5 "$T/influxd.log")"
  tap_done
  exit 1
fi
tap_ok "influxd answers /ping on 127.0.0.1:$port"
curl -sf -o /dev/null -XPOST "$URL/query" --data-urlencode 'q=CREATE DATABASE e2e'

# Each hostile value, then what InfluxDB must store (the value, or its
# documented replacement: control bytes and stranded backslashes -> '?').
values=(
  'trail\' 'trail?'
  'two\\' 'two\?'
  'c:\dir\x' 'c:\dir\x'
  'a\\b' 'a\\b'
  'a,b' 'a,b'
  'a=b' 'a=b'
  'a b' 'a b'
  '=' '='
  ',lead' ',lead'
  ' lead' ' lead'
  'tail ' 'tail '
  'say "hi"' 'say "hi"'
  'q\"' 'q?"'
  'x\,y' 'x?,y'
  'x\ y' 'x? y'
  'x\=y' 'x?=y'
  'x\\,y' 'x\?,y'
  $'new\nline' 'new?line'
  $'tab\there' 'tab?here'
  $'ctl\x01\x1f\x7f' 'ctl???'
  $'\xc3\x9f\xe6\xb8\xb2' $'\xc3\x9f\xe6\xb8\xb2'
  '#hash' '#hash'
)
: >"$T/body"
: >"$T/expected"
for ((i = 0; i < ${#values[@]}; i += 2)); do
  if ! "$BIN" --once --window=0 --Tag="${values[i]}" >>"$T/body" 2>"$T/err"; then
    tap_fail "fake plugin runs for tag $i" "$(cat "$T/err")"
  fi
  printf '%s\0' "${values[i + 1]}" >>"$T/expected"
done
code=$(curl -s -o "$T/write.out" -w '%{http_code}' -XPOST \
  "$URL/write?db=e2e&precision=ns" --data-binary @"$T/body")
tap_is "204" "$code" "/write takes every line ($(cat "$T/write.out"))"

curl -s -G "$URL/query" --data-urlencode db=e2e \
  --data-urlencode 'q=SHOW TAG VALUES FROM "fake" WITH KEY = "tag"' >"$T/tags.json"
curl -s -G "$URL/query" --data-urlencode db=e2e \
  --data-urlencode 'q=SELECT count("counter") FROM "fake"' >"$T/count.json"
python3 - "$T/expected" "$T/tags.json" "$T/count.json" >"$T/checks" <<'EOF'
import json, sys
expected = open(sys.argv[1], "rb").read().split(b"\0")[:-1]
doc = json.load(open(sys.argv[2], encoding="utf-8", errors="surrogateescape"))
series = doc["results"][0].get("series", [])
got = [row[1] for s in series for row in s["values"]]
def tap(ok, name, diag=""):
    print(("ok" if ok else "fail") + "\t" + name + "\t" + diag.replace("\n", " "))
got_bytes = {g.encode("utf-8", "surrogateescape") for g in got}
for e in expected:
    tap(e in got_bytes, f"tag reads back as {e!r}", f"stored: {sorted(got_bytes)!r}")
tap(len(got_bytes) == len(set(expected)), f"{len(set(expected))} distinct tag values stored",
    f"got {len(got_bytes)}: {sorted(got_bytes)!r}")
cnt = json.load(open(sys.argv[3]))["results"][0]["series"][0]["values"][0][1]
tap(cnt == len(expected), f"{len(expected)} points stored", f"got {cnt}")
EOF
while IFS=$'\t' read -r verdict name diag; do
  if [[ $verdict == ok ]]; then tap_ok "$name"; else tap_fail "$name" "$diag"; fi
done <"$T/checks"
[[ -s $T/checks ]] || tap_fail "query results parsed" "$(head -c 300 "$T/tags.json")"
tap_done
