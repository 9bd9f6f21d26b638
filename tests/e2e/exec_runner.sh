#!/usr/bin/env bash
# The runner of the executables (common/runner/runner.c) with two plugins in
# one process (tests/tools/fake_multi: the one-process host of
# gpu-telemetry around fake_plugin and fake_other):
#  - plugin choice (--plugin, --config), --NAME.Key options, usage errors;
#  - one batch holds every plugin that read in it (--once, --interval,
#    --execd);
#  - each plugin on its own --NAME.Interval;
#  - a plugin whose read hangs (a FIFO, as a hung device's sysfs read)
#    delays and drops none of the other's records; its success gauge goes
#    to 0 after 3 intervals on the Prometheus page and back to 1 when the
#    read returns; SIGTERM ends the process though the read still hangs;
#  - intervals below 1 ms are refused in every host (exit 2, the flag named).
# Every wait is a bounded poll; processes are stopped by their pid.
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib/tap.sh
source tests/lib/require.sh
source tests/lib/backends.sh
B=${BUILD:-build}
M=$B/tests/fake_multi
require_cmd "exec runner" python3 curl

T=$(mktemp -d "${TMPDIR:-/tmp}/exec-runner.XXXXXX")
PIDS=()
cleanup() {
  local p
  for p in "${PIDS[@]}"; do kill -KILL "$p" 2>/dev/null; done
  rm -rf "$T"
}
trap cleanup EXIT

# count_of FILE INSTANCE: influx lines of that instance in FILE
count_of() { grep -c "^fake,instance=$2[ ,]" "$1" 2>/dev/null || true; }

# until_true SECONDS 'SHELL CODE': evaluate the code every 50 ms until it
# succeeds, or SECONDS passed (then its last status)
until_true() {
  local deadline=$((SECONDS + $1))
  while ((SECONDS < deadline)); do
    eval "$2" && return 0
    sleep 0.05
  done
  eval "$2"
}

# ---- choosing plugins and options ----
out=$("$M" --once --window=0 2>"$T/err")
tap_is "0|1|1" "$?|$(grep -c '^fake,instance=fake_plugin ' <<<"$out")|$(grep -c '^fake,instance=fake_other ' <<<"$out")" \
  "no --plugin: every plugin reads, one record each"
out=$("$M" --once --window=0 --plugin=fake_other --fake_other.Step=7 2>"$T/err")
tap_is "0|fake,instance=fake_other counter=14i" "$?|$(sed 's/,reads.*//' <<<"$out")" \
  "--plugin chooses, --NAME.Key configures that plugin (the second read: 2 x 7)"
"$M" --once --plugin=nosuch >/dev/null 2>"$T/err"
tap_is "2|error: fake_multi: usage: --plugin: expected fake_plugin or fake_other, got \"nosuch\" (see fake_multi --help)" \
  "$?|$(cat "$T/err")" "--plugin of an unknown plugin: usage error naming the choices"
"$M" --once --Step=1 >/dev/null 2>"$T/err"
tap_is 2 $? "a key without its plugin's name: usage error"
tap_check "  ... which says how to spell it" grep -qF -- '--<plugin>.<Key>=<value>' "$T/err"
"$M" --once --plugin=fake_plugin --fake_other.Step=2 >/dev/null 2>"$T/err"
tap_is 2 $? "options for a plugin that is not run: configuration error"
"$M" --once --fake_plugin.Nope=1 >/dev/null 2>"$T/err"
tap_is 2 $? "an unknown key of a plugin: configuration error"
tap_check "  ... named by the plugin" grep -q 'fake_plugin: config: Nope: unknown option' "$T/err"

# --config: collectd syntax, only the loaded plugins, <Instance> blocks,
# command-line keys added to every block of their plugin
cat >"$T/c.conf" <<'CONF'
# a comment
Hostname "ignored"
LoadPlugin fake_other
LoadPlugin cpu
<Plugin fake_other>
  <Instance "a">
    Step 2
  </Instance>
  <Instance "b">
    Step 3 # after a value
    Tag "x y"
  </Instance>
</Plugin>
CONF
out=$("$M" --once --window=0 --config="$T/c.conf" --fake_other.Step=10 2>"$T/err")
tap_is "0" "$?" "--config: exit 0"
tap_is "fake,instance=a counter=20i|fake,instance=b,tag=x\ y counter=20i" \
  "$(sed 's/,reads.*//' <<<"$out" | sort | paste -sd'|')" \
  "--config: the loaded plugin's instances only, command-line keys last"
tap_check "--config: LoadPlugin of another plugin is named and skipped, said once" \
  grep -qx 'notice: fake_multi: --config: 1 collectd plugin not of fake_multi, skipped: cpu' "$T/err"
printf 'LoadPlugin fake_other\n<Plugin fake_other>\n  Step "1"\n' >"$T/bad.conf"
"$M" --once --config="$T/bad.conf" >/dev/null 2>"$T/err"
tap_is "2|error: fake_multi: $T/bad.conf: line 4: <Plugin> is not closed" \
  "$?|$(cat "$T/err")" "--config: a syntax error names the file and the line"
"$M" --once --config="$T/none.conf" >/dev/null 2>"$T/err"
tap_is "2|error: fake_multi: $T/none.conf: open: No such file or directory" \
  "$?|$(cat "$T/err")" "--config: a missing file is named with the errno text"

# ---- intervals below 1 ms ----
for args in "--interval=0.0001" "--interval=1e-10" "--fake_other.Interval=1e-13"; do
  timeout 10 "$M" $args --format=influx >/dev/null 2>"$T/err"
  rc=$?
  tap_is 2 "$rc" "$args: refused at start (exit 2)"
  tap_check "  ... naming the flag" grep -qE -- "(--interval|Interval)" "$T/err"
done
timeout 10 "$B/tests/fake_plugin" --interval=1e-10 >/dev/null 2>"$T/err"
tap_is 2 $? "one plugin's executable: --interval=1e-10 refused (exit 2)"

# ---- one batch holds every plugin that read in it ----
"$M" --interval=0.05 --format=json >"$T/batches" 2>"$T/err" &
pid=$!
PIDS+=($pid)
until_true 20 '[ "$(grep -c "^\[" "$T/batches")" -ge 4 ]'
kill -TERM $pid
wait $pid
tap_is 0 $? "--interval: SIGTERM ends it with status 0"
tap_is "" "$(python3 - "$T/batches" <<'PY'
import json, sys
text, dec, at, n = open(sys.argv[1]).read(), json.JSONDecoder(), 0, 0
while at < len(text.rstrip()):
    batch, end = dec.raw_decode(text, at)
    names = sorted(r["instance"] for r in batch)
    if names != ["fake_other", "fake_plugin"]:
        print(f"batch {n}: {names}")
    at, n = end + 1, n + 1
if n < 4:
    print(f"only {n} batches")
PY
)" "--interval: every batch (one JSON array) holds both plugins' reads"

printf '\n\n\n' | "$M" --execd --format=influx >"$T/execd" 2>"$T/err"
tap_is "0|3|3" "$?|$(count_of "$T/execd" fake_plugin)|$(count_of "$T/execd" fake_other)" \
  "--execd: a batch of both plugins per line on stdin"

# ---- each plugin on its own interval ----
"$M" --interval=5 --fake_other.Interval=0.05 --format=influx >"$T/own" 2>"$T/err" &
pid=$!
PIDS+=($pid)
until_true 20 'test "$(count_of "$T/own" fake_other)" -ge 10'
n_other=$(count_of "$T/own" fake_other)
n_plugin=$(count_of "$T/own" fake_plugin)
kill -TERM $pid
wait $pid
tap_check "--NAME.Interval: fake_other every 50 ms ($n_other reads), fake_plugin every 5 s ($n_plugin)" \
  test "$n_other" -ge 10 -a "$n_plugin" -le 1

# ---- a hung plugin stops nobody ----
mkfifo "$T/hang"
"$M" --interval=0.05 --format=influx --fake_other.Hang="$T/hang" \
  --fake_plugin.FreeMarker="$T/freed" --fake_other.FreeMarker="$T/freed" \
  >"$T/hung" 2>"$T/hung.err" &
pid=$!
PIDS+=($pid)
until_true 20 'test "$(count_of "$T/hung" fake_plugin)" -ge 20'
tap_is "0" "$(count_of "$T/hung" fake_other)" "hung read: the hung plugin wrote nothing"
tap_check "hung read: the other plugin's batches go on ($(count_of "$T/hung" fake_plugin))" \
  test "$(count_of "$T/hung" fake_plugin)" -ge 20
tap_check "hung read: said once, naming the plugin" \
  until_true 10 'grep -q "fake_other: fake_other: read: still running after" "$T/hung.err"'
# release_one: one byte for the one read waiting on the FIFO (a writer's
# open waits for a reader: bounded)
release_one() { timeout 10 sh -c "printf x >'$T/hang'"; }
# release the priming read and the first read; the plugin catches up
release_one
release_one
tap_check "hung read: once it returns, its records come again" \
  until_true 10 'test "$(count_of "$T/hung" fake_other)" -ge 1'
# hang again (its next read says it runs long: the second such line) and
# stop: the process ends, the hung instance is not freed
until_true 10 '[ "$(grep -c "fake_other: read: still running after" "$T/hung.err")" -ge 2 ]'
t0=$SECONDS
kill -TERM $pid
wait $pid
rc=$?
tap_is "0" "$rc" "SIGTERM during a hung read: exit 0"
tap_check "  ... within the stop wait ($((SECONDS - t0)) s)" test $((SECONDS - t0)) -le 5
tap_check "  ... the hung instance is said and left to the exit" \
  grep -q 'fake_other: fake_other: stop: a read has not returned' "$T/hung.err"
tap_is "fake_plugin" "$(sed -n 's/^freed \([a-z_]*\) .*/\1/p' "$T/freed" | paste -sd' ')" \
  "  ... the healthy instance was freed (init undone), the hung one not"

# ---- the Prometheus page: per-plugin success, stale values not served ----
port=$(be_free_port)
"$M" --listen=127.0.0.1:$port --interval=0.1 --window=0 --fake_other.Hang="$T/hang" \
  >/dev/null 2>"$T/listen.err" &
pid=$!
PIDS+=($pid)
be_wait_http "http://127.0.0.1:$port/metrics" $pid 20
page() { curl -s "http://127.0.0.1:$port/metrics"; }
success_of() { page | sed -n "s/^gpu_telemetry_collector_success{plugin=\"$1\",.*} //p"; }
tap_check "listen: the healthy plugin's success is 1" until_true 10 'test "$(success_of fake_plugin)" = 1'
tap_is 0 "$(success_of fake_other)" "listen: a plugin that never finished a read: success 0"
release_one # the priming read
release_one # and one read return
tap_check "listen: the released plugin's success is 1" until_true 10 'test "$(success_of fake_other)" = 1'
tap_check "  ... and its records are served" until_true 10 'page | grep -q "^fake_[a-z_]*{instance=\"fake_other\""'
# now it hangs in its next read: after 3 intervals its values go
tap_check "listen: hung for 3 intervals: its success is 0" until_true 10 'test "$(success_of fake_other)" = 0'
tap_check "  ... and its stale records are no longer served" \
  eval '! page | grep -q "^fake_[a-z_]*{instance=\"fake_other\""'
tap_is 1 "$(success_of fake_plugin)" "  ... while the healthy plugin's success stays 1"
kill -TERM $pid
wait $pid
tap_is 0 $? "listen: SIGTERM: exit 0"

tap_done
