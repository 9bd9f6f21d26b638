#!/usr/bin/env bash
# build/i915_oa (the Telegraf exec/execd executable) against the shim's
# i915 device (LD_PRELOAD tests/shim.so, SHIM_DRIVERS=i915): --once,
# --interval and --execd in influx, json and table, exact totals across
# wraps, flex events by name, status and corrupt records, and the kernel's
# refusals in words. The shim's default scenario (tests/shim/shim_i915.h):
# 4 reports per drain, each 1 ms of OA time (19200 ticks at 19.2 MHz) and
# 1e6 GPU clocks; A0 moves by 500000 per report (50 % busy), A<i> by
# 1000 x (i + 1), B<i> and C<i> by 10 x (i + 1).
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib/tap.sh
source tests/lib/i915_tree.sh
source tests/lib/lineproto.sh
B=${BUILD:-build}
BIN=$B/i915_oa
SHIM=$PWD/$B/tests/shim.so
PRELOAD=$SHIM
if [[ ${SANITIZE:-} == 1 ]]; then
  PRELOAD="$(${CC:-cc} -print-file-name=libasan.so):$(${CC:-cc} -print-file-name=libubsan.so):$SHIM"
fi
T=$(mktemp -d "${TMPDIR:-/tmp}/i915-exec.XXXXXX")
trap 'rm -rf "$T"' EXIT
i915_tree "$T" 0000:00:02.0
DEV=0000:00:02.0

run() { # scenario-extra, then the executable's arguments
  local extra=$1
  shift
  SHIM_I915_SCENARIO=$(i915_scenario "$T" "$extra") LD_PRELOAD=$PRELOAD \
    timeout 120 "$BIN" --DevRoot="$T/dev/dri" --SysfsRoot="$T/sys" "$@"
}
get() { # field measurement <<<influx
  lp_get "$1" --measurement "$2" --where device=$DEV
}

# --once reads twice: two drains of 4 reports, 7 differences
out=$(run "" --MetricSet=$I915_UUID --once --window=0 --format=influx 2>"$T/err")
tap_is 0 $? "once influx: exit 0"
tap_is "" "$(cat "$T/err")" "once influx: nothing on stderr"
tap_is "$I915_UUID" "$(lp_get metric_set --measurement i915_oa <<<"$out")" \
  "once influx: metric_set tag"
tap_is render0 "$(lp_get engine --measurement i915_oa <<<"$out")" \
  "once influx: engine tag (the kernel's default engine)"
tap_is 7000000 "$(get gpu_core_clocks i915_oa <<<"$out")" "gpu_core_clocks"
tap_is 7000000 "$(get gpu_time_ns i915_oa <<<"$out")" "gpu_time_ns (7 ms)"
tap_is 3500000 "$(get a0 i915_oa <<<"$out")" "a0"
tap_is 252000 "$(get a35 i915_oa <<<"$out")" "a35 (u32 counter)"
tap_is 560 "$(get c7 i915_oa <<<"$out")" "c7"
tap_is 50.0 "$(get gpu_busy_percent i915_oa <<<"$out")" "gpu_busy_percent"
tap_is 1000000000.0 "$(get avg_gpu_core_frequency_hz i915_oa <<<"$out")" \
  "avg_gpu_core_frequency_hz (1e6 clocks per ms)"
tap_is 8 "$(get reports i915_oa_stream <<<"$out")" "reports (the first included)"
tap_check "no EU metrics unless EuMetrics says the set is Render Basic" \
  bash -c '! lp_has eu_active_percent' <<<"$out"

out=$(run "" --MetricSet=1 --EuMetrics=true --once --window=0 --format=influx 2>/dev/null)
# TGL, between the two reads (4 differences of 1e6 clocks):
# 100 x ((A7+A8+A9+A10 = 4 x (8+9+10+11) x 1000) UDIV 96 EUs) / 4e6 clocks
tap_is "$(python3 -c 'print(100 * (4 * 38000 // 96) / 4e6)')" \
  "$(get eu_active_percent i915_oa <<<"$out")" "EuMetrics: eu_active_percent (TGL)"

out=$(run "" --MetricSet=$I915_UUID --once --window=0 --format=json 2>/dev/null)
tap_is 0 $? "once json: exit 0"
tap_check "once json: one array, i915_oa with gpu_core_clocks 7e6" \
  python3 -c 'import json,sys; d=json.load(sys.stdin); r=[x for x in d if x["name"]=="i915_oa"][0]; sys.exit(r["gpu_core_clocks"]!=7000000 or r["device"]!="0000:00:02.0")' <<<"$out"

out=$(run "" --MetricSet=$I915_UUID --once --window=0 --format=table 2>/dev/null)
tap_is 0 $? "once table: exit 0"
tap_check "once table: a row for the device" grep -q "^$DEV  *$I915_UUID  *render0  *7000000 " <<<"$out"

# execd: a read at start, then one batch per stdin line; every counter
# starts two reports before its wrap (32-bit clocks and timestamps,
# 40-bit A counters), and 1000 batches pass 2^32 clocks.
out=$(printf '\n%.0s' {1..1000} | run "near_wrap=1" --MetricSet=$I915_UUID --execd --format=influx 2>"$T/err")
tap_is 0 $? "execd: exit 0 at EOF"
tap_is 1000 "$(lp_count --measurement i915_oa <<<"$out")" "execd: one batch per line"
last=$(tail -n 2 <<<"$out")
tap_is 4003000000 "$(get gpu_core_clocks i915_oa <<<"$last")" \
  "execd: gpu_core_clocks over 4004 reports, past 2^32, exact"
tap_is 4003000000 "$(get gpu_time_ns i915_oa <<<"$last")" "execd: gpu_time_ns exact"
tap_is "$((4003 * 8000))" "$(get a7 i915_oa <<<"$last")" "execd: a7 across its 40-bit wrap"
tap_is 4004 "$(get reports i915_oa_stream <<<"$last")" "execd: reports"

# --interval: a batch per second until SIGTERM
out=$(SHIM_I915_SCENARIO=$(i915_scenario "$T") LD_PRELOAD=$PRELOAD timeout -s TERM 2.5 \
  "$BIN" --DevRoot="$T/dev/dri" --SysfsRoot="$T/sys" --MetricSet=1 --interval=1 2>/dev/null)
n=$(lp_count --measurement i915_oa_stream <<<"$out")
tap_check "interval: a batch per second until SIGTERM ($n in 2.5 s)" test "$n" -ge 1 -a "$n" -le 3

# Flex events: a config of EU_PERF_CNTL0 added, its counters by name
out=$(run "" --FlexEvent="eu_active 4" --FlexEvent="eu_stall 5" --once --window=0 \
  --format=influx 2>"$T/err")
tap_is 0 $? "flex: exit 0"
tap_is 56000 "$(get eu_active i915_oa <<<"$out")" "flex: eu_active is A7"
tap_is 63000 "$(get eu_stall i915_oa <<<"$out")" "flex: eu_stall is A8"
tap_check "flex: the metric_set tag is the config's uuid" \
  python3 -c 'import re,sys; sys.exit(not re.fullmatch(r"[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}", sys.argv[1]))' \
  "$(lp_get metric_set --measurement i915_oa <<<"$out")"

# Status records and a corrupt record (size 0 in the first batch)
out=$(run "lost_every=1,buffer_lost_at=2,corrupt_at=1" --MetricSet=1 --once --window=0 \
  --format=influx 2>"$T/err")
tap_is 0 $? "lost/corrupt: exit 0"
tap_is 2 "$(get report_lost i915_oa_stream <<<"$out")" "report_lost counted"
tap_is 1 "$(get buffer_lost i915_oa_stream <<<"$out")" "buffer_lost counted"
tap_is 1 "$(get malformed i915_oa_stream <<<"$out")" "malformed read counted"
tap_check "the malformed record is said with its offset" \
  grep -q "$DEV: read: record size 0 at byte [0-9]* of a [0-9]*-byte read" "$T/err"

# Refusals in words, exit 1; configuration errors exit 2
run "busy=1" --MetricSet=1 --once --window=0 >/dev/null 2>"$T/err"
tap_is 1 $? "EBUSY: exit 1"
tap_check "EBUSY names the other OA users" grep -q 'another OA stream.*gputop' "$T/err"
run "privileged=0" --MetricSet=1 --once --window=0 >/dev/null 2>"$T/err"
tap_is 1 $? "EACCES: exit 1"
tap_check "EACCES names the sysctl and CAP_PERFMON" \
  grep -q 'perf_stream_paranoid.*CAP_PERFMON\|CAP_PERFMON.*perf_stream_paranoid' "$T/err"
# no options: the shipped snippet's FlexEvents (conf.d/i915_oa.conf)
out=$(run "" --once --window=0 2>"$T/err")
tap_is 0 $? "no MetricSet and no FlexEvent: the snippet's defaults, exit 0"
tap_is "" "$(cat "$T/err")" "... nothing on stderr"
tap_is "56000 63000" "$(get eu_active i915_oa <<<"$out") $(get eu_stall i915_oa <<<"$out")" \
  "... eu_active (A7) and eu_stall (A8) by name, 7 differences"
run "" --EuMetrics=true --once >/dev/null 2>"$T/err"
tap_is 2 $? "EuMetrics without MetricSet: exit 2"
tap_check "it says where the sets are listed" \
  grep -q "EuMetrics needs MetricSet.*$T/sys/class/drm/card<N>/metrics/" "$T/err"
run "" --MetricSet=1 --Format=A29_B8_C8 --once >/dev/null 2>"$T/err"
tap_is 2 $? "an unknown Format: exit 2"
run "" --FlexEvent="eu_active 16" --once >/dev/null 2>"$T/err"
tap_is 2 $? "a FlexEvent field above 15: exit 2"
run "" --MetricSet=1 --Device=0000:09:00.0 --once >/dev/null 2>"$T/err"
tap_is 1 $? "a Device that is not there: exit 1"
tap_check "the missing device is named" grep -q '0000:09:00.0: Device' "$T/err"
# Options read once, in one form: every spelling of id 1 is tag 1
for v in 1 01 0x1 1e0; do
  out=$(run "" --MetricSet=$v --once --window=0 --format=influx 2>"$T/err")
  tap_is "0 1" "$? $(lp_get metric_set --measurement i915_oa <<<"$out")" \
    "MetricSet=$v: opens set 1, tagged metric_set=1"
done
run "" --FlexEvent="a0 4" --once >/dev/null 2>"$T/err"
tap_is 2 $? "a FlexEvent named like a built-in field: exit 2"
tap_check "it is said" grep -q 'FlexEvent: NAME "a0" is a field or tag' "$T/err"
run "" --FlexEvent="name 4" --once >/dev/null 2>"$T/err"
tap_is 2 $? "a FlexEvent named like a JSON key: exit 2"
run "" --FlexEvent="x 4" --EuMetrics=true --once >/dev/null 2>"$T/err"
tap_is 2 $? "FlexEvent with EuMetrics: exit 2"
run "" --MetricSet=1 --Engine=compute --once >/dev/null 2>"$T/err"
tap_is 2 $? "Engine compute (no OA unit): exit 2"
run "" --MetricSet=1 --Engine=video --once >/dev/null 2>"$T/err"
tap_is 1 $? "Engine video on TGL: exit 1"
tap_is 1 "$(grep -c 'TGL (0x9a49) has no OA unit on its video engines' "$T/err")" \
  "the platform is named, once"
run "" --MetricSet=1 --Device=/dev/null --once >/dev/null 2>"$T/err"
tap_check "a Device that is no DRM node is said in words" \
  grep -q '/dev/null: Device: not a DRM device' "$T/err"
tap_check "no negative errno in words" bash -c '! grep -q "Unknown error" "$1"' _ "$T/err"
# DutyCycle: one window in three; the windows and the coverage are said
out=$(printf '\n%.0s' {1..6} | run "reports=2" --MetricSet=1 --DutyCycle=3 --execd \
  --format=influx 2>"$T/err")
tap_is "1 1 2 2 2 3" "$(lp_get windows --measurement i915_oa_stream <<<"$out" | tr '\n' ' ' | sed 's/ $//')" \
  "DutyCycle 3: a window every third read"
tap_is "0 0 0 0 0 0" "$(lp_get reopens --measurement i915_oa_stream <<<"$out" | tr '\n' ' ' | sed 's/ $//')" \
  "windows are not reopens"
tap_done
