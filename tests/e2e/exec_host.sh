#!/usr/bin/env bash
# The exec host (common/exec/host_exec.c) around the fake plugin
# (build/tests/fake_plugin, tests/tools/fake_plugin_ops.h), line by line:
# --once in every format, --execd (batches per stdin line, EOF), --interval
# stopped by SIGTERM, SIGINT while blocked on stdin, a closed stdout, --help,
# usage/config/init/read failures with their exit status and exact stderr,
# log levels and Telegraf's prefixes, and instance_free on every path (the
# fake plugin appends to a FreeMarker file when it is freed). Every wait is
# bounded: reads use `read -t`, process exits `timeout ... tail --pid`.
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib/tap.sh
source tests/lib/lineproto.sh
BIN=${BUILD:-build}/tests/fake_plugin
if [[ ! -x $BIN ]]; then
  tap_fail "$BIN is built (make tests-build)"
  tap_done
  exit 1
fi
T=$(mktemp -d "${TMPDIR:-/tmp}/exec-host.XXXXXX")
pids=()
cleanup() {
  local p
  for p in "${pids[@]}"; do kill -KILL "$p" 2>/dev/null; done
  rm -rf "$T"
}
trap cleanup EXIT

# Timestamps vary: the Influx one (parsed by lineproto) and the JSON "time".
untime() { lp_untime; }
untime_json() { sed -E 's/"time":[0-9]{19}/"time":T/'; }
counters() { lp_get counter <<<"$1" | paste -sd' '; }
# Wait (at most $2 s) for process $1 to exit; then its status is in $rc.
wait_exit() {
  local timed_out=""
  timeout "$2" tail --pid="$1" -f /dev/null
  if kill -0 "$1" 2>/dev/null; then
    timed_out=1
    kill -KILL "$1"
  fi
  wait "$1"
  rc=$?
  [[ -z $timed_out ]] || rc=timeout
}

# ---- --once, each format ----
out=$("$BIN" --once --window=0 --Step=10 --Tag=t1 2>"$T/err")
tap_is 0 $? "once influx: exit 0"
tap_is 'fake,instance=fake_plugin,tag=t1 counter=20i,reads=2i,half=10.0,debt=-20i T' \
  "$(untime <<<"$out")" "once influx: one line, the second of two reads"
tap_is "" "$(cat "$T/err")" "once influx: nothing on stderr"
ts=$(lp_get @time <<<"$out") now=$(date +%s%N)
tap_check "once influx: timestamp is now in ns" \
  test $((now - ts)) -ge 0 -a $((now - ts)) -lt 60000000000

out=$("$BIN" --window=0 --Step=10 --Tag=t1 --format=json 2>"$T/err")
tap_is 0 $? "once json: exit 0"
tap_is '[{"name":"fake","time":T,"instance":"fake_plugin","tag":"t1","counter":20,"reads":2,"half":10.0,"debt":-20}]' \
  "$(untime_json <<<"$out")" "once json: one array per batch (inputs.exec reads one document)"
out=$(printf '\n\n' | "$BIN" --execd --Step=10 --Tag=t1 --format=json 2>"$T/err")
tap_is $'{"name":"fake","time":T,"instance":"fake_plugin","tag":"t1","counter":20,"reads":2,"half":10.0,"debt":-20}\n{"name":"fake","time":T,"instance":"fake_plugin","tag":"t1","counter":30,"reads":3,"half":15.0,"debt":-30}' \
  "$(untime_json <<<"$out")" "execd json: one object per line (inputs.execd reads one document per line)"
tap_is "" "$(cat "$T/err")" "once json: nothing on stderr"

out=$("$BIN" --window=0 --Step=10 --Tag=t1 --format=table 2>"$T/err")
tap_is 0 $? "once table: exit 0"
tap_is $'fake\ninstance tag counter reads half debt\nfake_plugin t1 20 2 10.0 -20' \
  "$(sed -E 's/ +/ /g; s/ $//' <<<"$out" | sed '/^$/d')" \
  "once table: title, header, one row (spacing squeezed)"
tap_is "" "$(cat "$T/err")" "once table: nothing on stderr"

out=$("$BIN" --window=0 --Field=extra --Field.Value=7 --Field.Type=count \
  --field=more --FIELD.value=9 2>"$T/err")
tap_is 'fake,instance=fake_plugin counter=2i,reads=2i,half=1.0,debt=-2i,extra=7i,more=9i T' \
  "$(untime <<<"$out")" "once: --Block.Key=value builds nested blocks, any case"

# A field whose type has no row (metric_unit.h) is not written; the error
# names the type, once (two reads here: the priming one and the reported).
out=$("$BIN" --window=0 --BadTypes=true 2>"$T/err")
tap_is 'fake,instance=fake_plugin counter=2i,reads=2i,half=1.0,debt=-2i,nosuch=1i,pair=1i T' \
  "$(untime <<<"$out")" "once: a field of a type without a row is left out"
tap_is "error: fake_plugin: fake_unitless: metric_unit_find: no such field type (one unit per type: add a row to metric_unit.c or the plugin's units); its fields are not written" \
  "$(cat "$T/err")" "once: the type without a row is named once"

start=$EPOCHREALTIME
out=$("$BIN" --window=0.3 2>/dev/null)
elapsed=$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { print (b - a >= 0.3) ? "yes" : b - a }')
tap_is yes "$elapsed" "once: --window=0.3 waits 0.3 s between the reads"
tap_is 2 "$(lp_get reads <<<"$out")" "once: two reads"

# ---- --execd ----
out=$(printf '\n\n\n' | "$BIN" --execd --Step=5 2>"$T/err")
tap_is 0 $? "execd: exit 0 on EOF"
tap_is 3 "$(grep -c . <<<"$out")" "execd: 3 lines in one write, exactly 3 batches"
tap_is "10 15 20" "$(counters "$out")" "execd: counter advances by Step (first read primed)"
tap_is "" "$(cat "$T/err")" "execd: nothing on stderr"

out=$(printf 'a\nb\nc' | "$BIN" --execd --Step=5 2>/dev/null)
tap_is "10 15 20" "$(counters "$out")" "execd: a last line without newline counts"
out=$({ head -c 200000 /dev/zero | tr '\0' x; echo; echo; } |
  "$BIN" --execd 2>/dev/null)
tap_is "2 3" "$(counters "$out")" "execd: a 200 kB line is one line"
out=$("$BIN" --execd </dev/null 2>/dev/null)
tap_is 0 $? "execd: immediate EOF: exit 0"
tap_is "" "$out" "execd: immediate EOF: no batch"

# One batch per request, flushed at once: a conversation with the process.
coproc EXECD { "$BIN" --execd --Step=4 --FreeMarker="$T/m.execd" 2>"$T/execd.err"; }
pids+=("$EXECD_PID")
execd_pid=$EXECD_PID
seen=""
for _ in 1 2 3; do
  echo >&"${EXECD[1]}"
  l=""
  IFS= read -r -t 5 l <&"${EXECD[0]}"
  seen+="$(counters "$l") "
done
tap_is "8 12 16 " "$seen" "execd: each line answered by one flushed batch"
exec {EXECD[1]}>&-
wait_exit "$execd_pid" 5
tap_is 0 "$rc" "execd: exit 0 when stdin closes"
tap_is "freed fake_plugin reads=4" "$(cat "$T/m.execd" 2>/dev/null)" \
  "execd: instance freed at EOF"

# SIGINT while blocked in read(2) on stdin (stdin stays open).
mkfifo "$T/in" "$T/out"
exec {in_fd}<>"$T/in" {out_fd}<>"$T/out"
"$BIN" --execd --FreeMarker="$T/m.int" <"$T/in" >"$T/out" 2>"$T/int.err" &
pid=$!
pids+=("$pid")
echo >&"$in_fd"
l=""
IFS= read -r -t 5 l <&"$out_fd"
tap_is 2 "$(counters "$l")" "execd: answers through FIFOs"
kill -INT "$pid"
wait_exit "$pid" 5
tap_is 0 "$rc" "execd: SIGINT while blocked on stdin: exit 0"
tap_is "freed fake_plugin reads=2" "$(cat "$T/m.int" 2>/dev/null)" \
  "execd: SIGINT: instance freed"
tap_is "" "$(cat "$T/int.err")" "execd: SIGINT: nothing on stderr"

# ---- --interval ----
"$BIN" --interval=0.2 --Step=3 --FreeMarker="$T/m.interval" \
  >"$T/out" 2>"$T/interval.err" &
pid=$!
pids+=("$pid")
l1="" l2=""
IFS= read -r -t 5 l1 <&"$out_fd"
IFS= read -r -t 5 l2 <&"$out_fd"
kill -TERM "$pid"
wait_exit "$pid" 5
tap_is 0 "$rc" "interval: exit 0 on SIGTERM"
tap_is "6 9" "$(counters "$l1") $(counters "$l2")" \
  "interval: two batches, counter advances by Step"
gap=$(awk -v a="$(lp_get @time <<<"$l1")" -v b="$(lp_get @time <<<"$l2")" \
  'BEGIN { d = (b - a) / 1e9; print (d > 0.1 && d < 1.0) ? "yes" : d }')
tap_is yes "$gap" "interval: batches about 0.2 s apart"
tap_check "interval: instance freed after SIGTERM" \
  grep -qE '^freed fake_plugin reads=[0-9]+$' "$T/m.interval"
tap_is "" "$(cat "$T/interval.err")" "interval: nothing on stderr"

# stdout closed by the reader: the write error ends the run, exit 1.
timeout 10 "$BIN" --interval=0.05 --FreeMarker="$T/m.pipe" 2>"$T/pipe.err" |
  head -n 1 >/dev/null
st=("${PIPESTATUS[@]}")
tap_is "1 0" "${st[*]}" "interval: closed stdout: exit 1, not killed by SIGPIPE"
tap_check "interval: closed stdout: instance freed" \
  grep -qE '^freed fake_plugin reads=[0-9]+$' "$T/m.pipe"
tap_is "error: fake_plugin: stdout: write: Broken pipe" "$(cat "$T/pipe.err")" \
  "interval: closed stdout: says why"

# ---- --Interval, the collectd key: the same as --interval ----
"$BIN" --Interval=0.2 --Step=3 >"$T/Interval.out" 2>"$T/Interval.err" &
pid=$!
pids+=("$pid")
for _ in $(seq 100); do
  [[ $(grep -c . "$T/Interval.out") -ge 2 ]] && break
  sleep 0.1
done
kill -TERM "$pid"
wait_exit "$pid" 10
tap_is "0|6 9" "$rc|$(head -n 2 "$T/Interval.out" | lp_get counter | paste -sd' ')" \
  "--Interval=0.2: stays running, batches every 0.2 s, exit 0 on SIGTERM"

# ---- --help ----
out=$("$BIN" --help 2>"$T/err")
tap_is 0 $? "help: exit 0"
tap_is "usage: fake_plugin [--format=json|influx|table|prometheus|top]" \
  "$(head -n 1 <<<"$out")" "help: usage on stdout"
tap_check "help: documents the dotted block spelling" \
  grep -qF -- '<Block>.<Key>: added to the most recent <Block>=<value>' <<<"$(tr -s ' \n' ' ' <<<"$out")"
tap_is "$out" "$("$BIN" -h 2>&1)" "help: -h is --help"
tap_is "  --Step               the counter's step per read; default: 1" \
  "$(grep -F -- '--Step ' <<<"$out")" "help: lists the plugin's keys with defaults"
tap_is "  --Field.Value        the field's value; default: none" \
  "$(grep -F -- '--Field.Value ' <<<"$out")" "help: lists nested keys as Block.Key"
tap_check "help: lists Interval, the collectd key the host takes" \
  grep -q -- '^  --Interval  *same as --interval=N' <<<"$out"
tap_check "help: documents --log-level and its default" \
  grep -qF -- 'error, warning, notice, info or debug' <<<"$out"
tap_is "" "$(cat "$T/err")" "help: nothing on stderr"
out=$("$BIN" --version 2>"$T/err")
tap_is "0|fake_plugin $(sed -n '1s/.*(\(.*\)).*/\1/p' debian/changelog)|" \
  "$?|$out|$(cat "$T/err")" "version: the name and debian/changelog's version"

# ---- usage errors: exit 2, one line on stderr, nothing on stdout ----
usage() { # expected message, args...
  local want="error: fake_plugin: usage: $1 (see fake_plugin --help)"
  shift
  local o
  o=$("$BIN" "$@" 2>"$T/err")
  local got=$?
  tap_is "2|$want|" "$got|$(cat "$T/err")|$o" "usage error: $*"
}
usage 'unexpected argument "positional"' positional
usage '"--Step": plugin options need a value: --Key=<value> or --Key <value>' --Step
usage '"--Step": plugin options need a value: --Key=<value> or --Key <value>' --Step --once
usage 'unknown flag "--bogus"; see --help' --bogus
usage 'unknown flag "--lisen"; did you mean --listen?' --lisen :9470
usage 'unknown flag "--Stepp"; did you mean --Step?' --Stepp 5
usage '--interval needs a value: --interval=<value> or --interval <value>' --interval --once
usage '--interval: expected a number of seconds from 0.001 to 1e+06, got "0,5"' \
  --interval=0,5
usage '--interval: expected a number of seconds from 0.001 to 1e+06, got "0"' \
  --interval=0
usage '--window: expected a number of seconds >= 0 and at most 1e+06, got "-1"' \
  --window=-1
usage '--format: expected json, influx, table, prometheus or top, got "xml"' --format=xml
usage '"--execd": choose one of --once, --execd and --interval' --once --execd
usage '--log-level: expected error, warning, notice, info or debug, got "loud"' \
  --log-level=loud
# GNU's --flag value, as --flag=value
out=$("$BIN" --format json --Step 5 --window 0 --once 2>"$T/err")
tap_is "0|" "$?|$(cat "$T/err")" "--flag value: accepted, nothing on stderr"
tap_check "--flag value: --format json and --Step 5 applied" \
  python3 -c 'import json,sys; r=json.loads(sys.argv[1]); assert r and r[0]["name"]' "$out"

# ---- configure, init and read failures ----
out=$("$BIN" --FreeMarker="$T/m.cfg" --Step=abc 2>"$T/err")
tap_is 2 $? "config error: exit 2"
tap_is 'error: fake_plugin: config: Step: expected a non-negative integer (decimal or 0x hex), got "abc"' \
  "$(cat "$T/err")" "config error: the getter's message"
tap_is "" "$out" "config error: nothing on stdout"
out=$("$BIN" --FreeMarker="$T/m.cfg" --Bogus=1 2>"$T/err")
tap_is 2 $? "unknown key: exit 2"
tap_is 'error: fake_plugin: config: Bogus: unknown option' "$(cat "$T/err")" \
  "unknown key: message names the key"
tap_is $'freed fake_plugin reads=0\nfreed fake_plugin reads=0' \
  "$(cat "$T/m.cfg" 2>/dev/null)" "config errors: instance freed"
"$BIN" --execd --Step=abc </dev/null >/dev/null 2>"$T/err"
tap_is '2|E! fake_plugin: config: Step: expected a non-negative integer (decimal or 0x hex), got "abc"' \
  "$?|$(cat "$T/err")" "config error in execd mode: exit 2, prefix E!"

out=$("$BIN" --FailInit=true --FreeMarker="$T/m.init" 2>"$T/err")
tap_is 1 $? "init failure: exit 1"
tap_is 'error: fake_plugin: fake_plugin: init: FailInit is set' \
  "$(cat "$T/err")" "init failure: message"
tap_is "" "$out" "init failure: nothing on stdout"
tap_is "freed fake_plugin reads=0" "$(cat "$T/m.init" 2>/dev/null)" \
  "init failure: instance freed"

out=$("$BIN" --window=0 --FailRead=yes 2>"$T/err")
tap_is 1 $? "once, read failure without records: exit 1"
tap_is "" "$out" "once, read failure: nothing on stdout"
tap_is $'error: fake_plugin: fake_plugin: read: Input/output error\nerror: fake_plugin: fake_plugin: read: Input/output error' \
  "$(cat "$T/err")" "once, read failure: both reads say why"

out=$(printf '\n' | "$BIN" --execd --FailRead=on 2>"$T/err")
tap_is 0 $? "execd, read failure: keeps running, exit 0 on EOF"
tap_is $'E! fake_plugin: fake_plugin: read: Input/output error\nE! fake_plugin: fake_plugin: read: Input/output error' \
  "$(cat "$T/err")" "execd, read failure: stderr lines prefixed E!"

# ---- a record past its capacity (metric.h): what fit is printed, the
# overflow is logged at ERROR, rate-limited (records 1, 2, 4, 8, ...) ----
msg() { echo "$1fake_plugin: fake: metric_add: 0 tags and 6 fields dropped (first \"x124\"; a record holds at most 16 tags and 128 fields); $2 so far"; }
out=$("$BIN" --window=0 --ExtraFields=130 2>"$T/err")
tap_is 0 $? "overflow: exit 0"
tap_is "128 x123=123" "$(lp_get @nfields <<<"$out") x123=$(lp_get x123 <<<"$out")" \
  "overflow: the 128 fields that fit, the last one x123"
tap_is "" "$(lp_get x124 <<<"$out" 2>/dev/null)" "overflow: x124 was dropped"
tap_is "$(msg 'error: ' '1 record')"$'\n'"$(msg 'error: ' '2 records')" \
  "$(cat "$T/err")" "overflow: priming and reported read each logged"
out=$(printf '\n\n\n\n\n' | "$BIN" --execd --ExtraFields=130 --format=json 2>"$T/err")
tap_is 5 "$(grep -c . <<<"$out")" "overflow, execd json: every batch printed"
tap_is "$(msg 'E! ' '1 record')"$'\n'"$(msg 'E! ' '2 records')"$'\n'"$(msg 'E! ' '4 records')" \
  "$(cat "$T/err")" "overflow, execd: logged at records 1, 2 and 4 of 6"
"$BIN" --window=0 --ExtraFields=124 >/dev/null 2>"$T/err"
tap_is "" "$(cat "$T/err")" "overflow: 128 fields exactly fit, nothing logged"

# ---- log levels ----
"$BIN" --window=0 --log-level=info >/dev/null 2>"$T/err"
tap_is "info: fake_plugin: fake_plugin: init: step 1" "$(cat "$T/err")" \
  "log level info: the init message"
"$BIN" --window=0 --log-level=debug >/dev/null 2>"$T/err"
tap_is $'info: fake_plugin: fake_plugin: init: step 1\ndebug: fake_plugin: fake_plugin: read: counter 1\ndebug: fake_plugin: fake_plugin: read: counter 2' \
  "$(cat "$T/err")" "log level debug: every message"
printf '\n' | "$BIN" --execd --log-level=debug >/dev/null 2>"$T/err"
tap_is $'I! fake_plugin: fake_plugin: init: step 1\nD! fake_plugin: fake_plugin: read: counter 1\nD! fake_plugin: fake_plugin: read: counter 2' \
  "$(cat "$T/err")" "execd: Telegraf prefixes I! and D!"
"$BIN" --window=0 --log-level=error --FailRead=1 >/dev/null 2>"$T/err"
tap_is 2 "$(grep -c '^error: ' "$T/err")" "log level error: errors still shown"

tap_done
