#!/usr/bin/env bash
# build/drm_fdinfo (the Telegraf exec/execd executable) on a synthetic tree:
# every mode and format, checked line by line, plus the real /proc.
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib/tap.sh
source tests/lib/fakeproc.sh
source tests/lib/lineproto.sh
source tests/lib/require.sh
BIN=${BUILD:-build}/drm_fdinfo

# Real /proc first: no root needed, no DRM clients on this machine.
out=$("$BIN" --once --window=0 --format=influx 2>/dev/null)
tap_is 0 $? "real /proc: exit status"
tap_is 0 "$(lp_get clients --measurement drm_scan <<<"$out")" \
  "real /proc: drm_scan reports zero clients"
tap_is 0 "$(lp_count --measurement drm_engine <<<"$out")" \
  "real /proc: no engine records"

# Exit status (docs/telegraf.md, "Exit status"): a wrong key or value is exit 2 even
# next to valid ones; a failure to start (an unreadable ProcRoot) is 1.
"$BIN" --once --window=0 --ReportBy=Device --Bogus=1 >/dev/null 2>&1
tap_is 2 $? "unknown key next to a valid one: exit 2"
"$BIN" --once --window=0 --ReportBy=Nope >/dev/null 2>&1
tap_is 2 $? "bad ReportBy value: exit 2"
"$BIN" --once --window=0 --ProcRoot=/nonexistent >/dev/null 2>&1
tap_is 1 $? "ProcRoot cannot be opened: init failure, exit 1"

require_root "synthetic tree" "needs root for mknod of DRM device nodes"

fp_init
trap fp_fini EXIT
fp_device 226 0 card0 0000:00:02.0 i915
fp_process 100 'glx gears,"x"'
fp_fd 100 3 card0 "$(fp_i915 7 1000)"
ROOTS=(--ProcRoot="$FP/proc" --SysfsRoot="$FP/sys" --DebugfsRoot="$FP/debug")

out=$("$BIN" --once --window=0 --format=influx "${ROOTS[@]}" 2>"$FP/err")
tap_is 0 $? "once influx: exit status"
tap_is "" "$(cat "$FP/err")" "once influx: nothing on stderr"
line=$(lp_untime <<<"$out" | grep '^drm_engine,scope=process')
tap_is 'drm_engine,scope=process,driver=i915,device=0000:00:02.0,engine=render,pid=100,comm=glx\ gears\,"x" busy_ns=0i,utilization=0.0,capacity=1i T' \
  "$line" "once influx: process record escaped"
tap_is 0 "$(lp_count --measurement drm_device <<<"$out")" \
  "once influx: no drm_device record (drm_device's own, tags alike: drm_clients is ours)"
tap_is 1 "$(lp_count --measurement drm_clients --where device=0000:00:02.0 <<<"$out")" \
  "once influx: the device's drm_clients record"
tap_is 'glx gears,"x"' \
  "$(lp_get comm --measurement drm_engine --where scope=process <<<"$out")" \
  "once influx: the comm tag reads back unescaped"

out=$("$BIN" --once --window=0 --format=json "${ROOTS[@]}" 2>/dev/null)
# one array per batch, one element per line: "[{..},\n{..},\n{..}]"
tap_is '[{"name":"' "$(head -c 10 <<<"$out")" "once json: the batch opens an array"
tap_is ']' "$(tail -c 2 <<<"$out" | head -c 1)" "once json: the batch closes it"
line=$(grep '"scope":"process"' <<<"$out" | grep '"engine"' |
  sed 's/"time":[0-9]*/"time":T/; s/^\[//; s/[],]$//')
tap_is '{"name":"drm_engine","time":T,"scope":"process","driver":"i915","device":"0000:00:02.0","engine":"render","pid":"100","comm":"glx gears,\"x\"","busy_ns":0,"utilization":0.0,"capacity":1}' \
  "$line" "once json: process record"

out=$("$BIN" --once --window=0 --format=table "${ROOTS[@]}" 2>/dev/null)
tap_check "once table: has a drm_clients section with the device" \
  grep -q '0000:00:02.0' <<<"$out"

# execd: one batch per stdin line; counters advance between batches.
coproc EXECD { "$BIN" --execd --format=influx --ReportBy=Device "${ROOTS[@]}" 2>"$FP/execd.err"; }
# bash unsets EXECD_PID once the coprocess has ended: keep it
execd_pid=$EXECD_PID
batch() { # send one line, read until the drm_scan record closing the batch
  echo >&"${EXECD[1]}"
  local l lines=""
  while IFS= read -r -t 10 l <&"${EXECD[0]}"; do
    lines+="$l"$'\n'
    [[ $l == drm_scan* ]] && break
  done
  printf '%s' "$lines"
}
b1=$(batch)
fp_fdinfo 100 3 "$(fp_i915 7 500001000)"
b2=$(batch)
fp_fdinfo 100 3 "$(fp_i915 7 700001000)"
b3=$(batch)
exec {EXECD[1]}>&-
wait "$execd_pid"
tap_is 0 $? "execd: exit 0 on EOF"
busy() { lp_get busy_ns --measurement drm_engine --where scope=device <<<"$1"; }
tap_is 0 "$(busy "$b1")" "execd: batch 1 busy_ns"
tap_is 500000000 "$(busy "$b2")" "execd: batch 2 busy_ns"
tap_is 700000000 "$(busy "$b3")" "execd: batch 3 busy_ns"
tap_check "execd: batch 2 has a utilization" \
  lp_has utilization --measurement drm_engine --where scope=device <<<"$b2"
tap_is "" "$(cat "$FP/execd.err")" "execd: nothing on stderr"

# Hot-plug: the GPU's minors unregistered (card0 and renderD128 leave the
# sysfs class), then registered again as card1 (a driver reload): the
# device's series end at the read that sees it gone (its client with it),
# come back at the read that sees it again, its new client counted from
# its first read; one INFO line each way.
coproc HP { "$BIN" --execd --format=influx --log-level=info "${ROOTS[@]}" 2>"$FP/hp.err"; }
hp_pid=$HP_PID
hbatch() {
  echo >&"${HP[1]}"
  local l lines=""
  while IFS= read -r -t 10 l <&"${HP[0]}"; do
    lines+="$l"$'\n'
    [[ $l == drm_scan* ]] && break
  done
  printf '%s' "$lines"
}
HDR=drm_clients
hbatch >/dev/null
h1=$(hbatch)
tap_is 1 "$(lp_count --measurement $HDR --where device=0000:00:02.0 <<<"$h1")" \
  "hot-plug: the device reported"
rm -r "$FP/sys/class/drm/card0"
h2=$(hbatch)
tap_is 0 "$(lp_count --measurement $HDR <<<"$h2")" "hot-plug: gone: its series end"
tap_is 0 "$(lp_count --measurement drm_engine <<<"$h2")" "hot-plug: gone: its client with it"
tap_is 1 "$(grep -c 'drm_fdinfo: 0000:00:02.0: gone: card0 unregistered' "$FP/hp.err")" \
  "hot-plug: gone: one INFO line"
fp_device 226 1 card1 0000:00:02.0 i915
fp_process 101 'app2'
fp_fd 101 3 card1 "$(fp_i915 8 5000)"
h3=$(hbatch)
tap_is 1 "$(lp_count --measurement $HDR --where device=0000:00:02.0 <<<"$h3")" \
  "hot-plug: back (card1): reported again"
tap_is 1 "$(grep -c 'drm_fdinfo: 0000:00:02.0: appeared: card1 (drm, driver i915)' "$FP/hp.err")" \
  "hot-plug: back: one INFO line"
tap_is 0 "$(busy "$h3")" "hot-plug: back: its new client from its first read"
fp_fdinfo 101 3 "$(fp_i915 8 500005000)"
h4=$(hbatch)
tap_is 500000000 "$(busy "$h4")" "hot-plug: back: then counted"
exec {HP[1]}>&-
wait "$hp_pid"
tap_is 0 $? "hot-plug: exit 0 on EOF"
tap_is "" "$(grep -v '^I! ' "$FP/hp.err")" "hot-plug: nothing but info lines"

# A ProcRoot that holds no process: said once, naming it (it was silent)
mkdir -p "$FP/empty"
out=$("$BIN" --once --window=0 --ProcRoot="$FP/empty" --SysfsRoot="$FP/sys" 2>"$FP/err")
tap_is 0 $? "empty ProcRoot: exit 0"
tap_is "warning: drm_fdinfo: $FP/empty: ProcRoot: no process directory (<pid>/fd): not a procfs; no client can be found" \
  "$(cat "$FP/err")" "empty ProcRoot: one warning naming it"
"$BIN" --once --window=0 --SysfsRoot="$FP/empty" "--ProcRoot=$FP/proc" >/dev/null 2>"$FP/err"
tap_is "warning: drm_fdinfo: $FP/empty: SysfsRoot: no dev/char, class/drm or class/accel: not a sysfs; devices are named by their clients' drm-pdev or minor numbers only" \
  "$(cat "$FP/err")" "empty SysfsRoot: one warning naming it"
"$BIN" --once --window=0 --DevRoot="$FP/empty" "${ROOTS[@]}" >/dev/null 2>"$FP/err"
tap_is "warning: drm_fdinfo: $FP/empty: DevRoot: no dri or accel directory to watch: opens are found by the fd counts of FdCountInterval" \
  "$(cat "$FP/err")" "empty DevRoot: one warning naming it"

# a config error: exit 2, message names the plugin and the key, no stdout
out=$("$BIN" --once --ReportBy=Planet "${ROOTS[@]}" 2>"$FP/err")
tap_is 2 $? "bad option: exit 2"
tap_is "" "$out" "bad option: nothing on stdout"
tap_check "bad option: message names plugin and key" \
  grep -q 'drm_fdinfo: config: ReportBy:' "$FP/err"

# init failure: a ProcRoot that does not exist
"$BIN" --once --ProcRoot="$FP/nope" >/dev/null 2>"$FP/err"
tap_is 1 $? "missing ProcRoot: exit 1"
tap_check "missing ProcRoot: message names the path and errno text" \
  grep -q "drm_fdinfo: $FP/nope: open: No such file or directory" "$FP/err"

tap_done
