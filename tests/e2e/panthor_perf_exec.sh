#!/usr/bin/env bash
# build/panthor_perf (the Telegraf exec/execd executable) against the shim's
# panthor node (LD_PRELOAD tests/shim.so, SHIM_DRIVERS=panthor): --once,
# --interval and --execd in json, influx and table, both uAPI layouts,
# thousands of reads across many ring wraps with exact sums, dropped
# samples, overflow and error flags, EBUSY skips, and the kernel's refusals
# in words (no uAPI, EBUSY, EACCES). Counter k of block i moves by
# k x (i + 1) per sample (Mali-G720: GPU_ACTIVE is CSHW 4, so 4 per sample;
# L2_EXT_READ_BEATS is MEMSYS 32 on 2 slices at 16 bytes per beat, so
# 32 x 3 x 16 = 1536 bytes per sample).
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib/tap.sh
source tests/lib/hotplug.sh
B=${BUILD:-build}
BIN=$B/panthor_perf
SHIM=$PWD/$B/tests/shim.so
PRELOAD=$SHIM
if [[ ${SANITIZE:-} == 1 ]]; then
  PRELOAD="$(${CC:-cc} -print-file-name=libasan.so):$(${CC:-cc} -print-file-name=libubsan.so):$SHIM"
fi
T=$(mktemp -d "${TMPDIR:-/tmp}/pp-exec.XXXXXX")
trap 'rm -rf "$T"' EXIT
NODE=$T/renderD128
export SHIM_DRIVERS=panthor SHIM_PANTHOR_PATH=$NODE SHIM_PANTHOR_GPU=g720
# the kernel with TEARDOWN's check as reviewed (the v5/v6-era one keeps
# every session: tested at the end)
export SHIM_PANTHOR_SCENARIO=teardown_fixed

run() { # env assignments..., then -- and the executable's arguments
  local envs=()
  while [[ $1 != -- ]]; do envs+=("$1"); shift; done
  shift
  env "${envs[@]}" LD_PRELOAD="$PRELOAD" timeout 120 "$BIN" --Device="$NODE" "$@"
}

field() { # measurement field <<<influx: the value in the last such line
  grep "^$1," | tail -n 1 | grep -o "[ ,]$2=[0-9.]*" | sed 's/.*=//'
}

for layout in v6 rfc-v2; do
  L="SHIM_PANTHOR_LAYOUT=$layout"
  out=$(run "$L" -- --once --window=0 --format=influx 2>"$T/err")
  tap_is 0 $? "$layout once influx: exit 0"
  tap_is "" "$(cat "$T/err")" "$layout once influx: nothing on stderr"
  tap_check "$layout once influx: tags device and gpu" \
    grep -q '^panthor_perf,device=renderD128,gpu=Mali-G720 ' <<<"$out"
  # --once reads twice: 2 samples
  tap_is 8 "$(field panthor_perf gpu_active_cycles <<<"$out")" \
    "$layout once influx: gpu_active_cycles"
  tap_is 3072 "$(field panthor_perf ext_read_bytes <<<"$out")" \
    "$layout once influx: ext_read_bytes"
  tap_is 1536000.0 "$(field panthor_perf ext_read_bandwidth <<<"$out")" \
    "$layout once influx: ext_read_bandwidth (1536 B per 1 ms)"
  tap_is 2 "$(field panthor_perf_stream samples <<<"$out")" \
    "$layout once influx: samples"

  out=$(run "$L" -- --once --window=0 --format=json 2>/dev/null)
  tap_is 0 $? "$layout once json: exit 0"
  tap_check "$layout once json: one array with gpu_active_cycles 8" \
    python3 -c 'import json,sys; d=json.load(sys.stdin); r=[x for x in d if x["name"]=="panthor_perf"][0]; sys.exit(r["gpu_active_cycles"]!=8 or r["gpu"]!="Mali-G720")' <<<"$out"

  out=$(run "$L" -- --once --window=0 --format=table 2>/dev/null)
  tap_is 0 $? "$layout once table: exit 0"
  tap_check "$layout once table: a row for the device" \
    grep -q '^renderD128  *Mali-G720  *8 ' <<<"$out"

  out=$(SHIM_PANTHOR_LAYOUT=$layout LD_PRELOAD="$PRELOAD" timeout -s TERM 2.5 \
    "$BIN" --Device="$NODE" --interval=1 --format=influx 2>/dev/null)
  n=$(grep -c '^panthor_perf_stream,' <<<"$out")
  tap_check "$layout interval: a batch per second until SIGTERM ($n in 2.5 s)" \
    test "$n" -ge 1 -a "$n" -le 3

  # execd over many ring wraps: 4 slots, 3000 batches + the first read
  out=$(seq 3000 | run "$L" -- --execd --format=influx --RingSlots=4 2>"$T/err")
  tap_is 0 $? "$layout execd: exit 0 on EOF"
  tap_is 3000 "$(grep -c '^panthor_perf_stream,' <<<"$out")" \
    "$layout execd: 3000 batches"
  tap_is 3001 "$(field panthor_perf_stream samples <<<"$out")" \
    "$layout execd: every sample consumed (750 wraps)"
  tap_is $((4 * 3001)) "$(field panthor_perf gpu_active_cycles <<<"$out")" \
    "$layout execd: gpu_active_cycles exact"
  tap_is $((1536 * 3001)) "$(field panthor_perf ext_read_bytes <<<"$out")" \
    "$layout execd: ext_read_bytes exact"
  tap_is 0 "$(field panthor_perf_stream dropped <<<"$out")" \
    "$layout execd: nothing dropped"
  tap_is "" "$(cat "$T/err")" "$layout execd: nothing on stderr"

  out=$(seq 3 | run "$L" -- --execd --format=json 2>/dev/null)
  tap_is 3 "$(grep -c '"name":"panthor_perf_stream"' <<<"$out")" \
    "$layout execd json: one object per line, 3 batches"
done

# Scripted trouble over 1100 batches (1101 reads): every 11th SAMPLE busy,
# every other 10th dropped (its counts arrive with the next sample),
# every 7th delivered flagged OVERFLOW, every 9th ERROR.
out=$(seq 1100 | run SHIM_PANTHOR_LAYOUT=v6 \
  SHIM_PANTHOR_SCENARIO=busy_every=11,drop_every=10,overflow_every=7,error_every=9 \
  -- --execd --format=influx --RingSlots=8 2>/dev/null)
read -r busy drops samples ovf errs < <(awk 'BEGIN {
  for (n = 1; n <= 1101; n++) {
    if (n % 11 == 0) { b++; continue }
    if (n % 10 == 0) { d++; continue }
    s++; if (n % 7 == 0) o++; if (n % 9 == 0) e++
  }
  print b, d, s, o, e }')
tap_is "$busy" "$(field panthor_perf_stream busy_skips <<<"$out")" \
  "trouble: busy_skips ($busy)"
tap_is "$drops" "$(field panthor_perf_stream dropped <<<"$out")" \
  "trouble: dropped ($drops)"
tap_is "$samples" "$(field panthor_perf_stream samples <<<"$out")" \
  "trouble: samples ($samples)"
tap_is "$ovf" "$(field panthor_perf_stream overflows <<<"$out")" \
  "trouble: overflows ($ovf)"
tap_is "$errs" "$(field panthor_perf_stream errors <<<"$out")" \
  "trouble: errors ($errs)"
tap_is $((4 * (1101 - busy))) "$(field panthor_perf gpu_active_cycles <<<"$out")" \
  "trouble: gpu_active_cycles counts dropped periods too"

# Automatic samples (user_data 0) filling a 4-slot ring: the manual one
# is dropped each time; its period arrives with the next read's samples
# (the last read's never arrives).
out=$(seq 10 | run SHIM_PANTHOR_LAYOUT=v6 SHIM_PANTHOR_SCENARIO=auto_burst=3 \
  -- --execd --format=influx --RingSlots=4 2>/dev/null)
tap_is 33 "$(field panthor_perf_stream samples <<<"$out")" \
  "auto samples: 3 per read consumed"
tap_is $((4 * (44 - 1))) "$(field panthor_perf gpu_active_cycles <<<"$out")" \
  "auto samples: every period but the last read's dropped one"

# The kernel's refusals, in words; exit 1 (init failure).
out=$(run SHIM_PANTHOR_LAYOUT=none -- --once --window=0 2>"$T/err")
tap_is 1 $? "no uAPI: exit 1"
tap_is "" "$out" "no uAPI: nothing on stdout"
tap_is 1 "$(grep -c 'no performance counter uAPI' "$T/err")" \
  "no uAPI: one message"
tap_check "no uAPI: drm_fdinfo still reports engine time" \
  grep -q 'drm_fdinfo still reports panthor engine time' "$T/err"
run SHIM_PANTHOR_SCENARIO=others=2 -- --once --window=0 >/dev/null 2>"$T/err"
tap_is 1 $? "EBUSY at SETUP: exit 1"
tap_check "EBUSY at SETUP: two sessions or another counter set" \
  grep -q 'two perf sessions are already open.*another counter set' "$T/err"
run SHIM_PANTHOR_SCENARIO=unprivileged -- --once --window=0 \
  --CounterSet=tertiary >/dev/null 2>"$T/err"
tap_is 1 $? "EACCES at SETUP: exit 1"
tap_check "EACCES at SETUP: CAP_PERFMON" \
  grep -q 'counter set tertiary needs CAP_PERFMON' "$T/err"
run SHIM_PANTHOR_LAYOUT=v6 -- --once --window=0 --UAPI=rfc-v2 >/dev/null 2>"$T/err"
tap_is 1 $? "UAPI rfc-v2 on a v6 kernel: exit 1"
tap_check "UAPI rfc-v2 on a v6 kernel: the sizes in words" \
  grep -q 'UAPI rfc-v2 asks for a 48-byte perf_info but the kernel has 44' "$T/err"
run -- --once --window=0 --RingSlots=3 >/dev/null 2>&1
tap_is 2 $? "RingSlots 3: configuration error, exit 2"
run SHIM_PANTHOR_SCENARIO=header_pad=8192 -- --once --window=0 >/dev/null \
  2>"$T/err"
tap_is 1 $? "a malformed perf_info from the kernel: exit 1, not 2"
tap_check "malformed perf_info: the device and the field named" \
  grep -q "renderD128: perf_info: .*8248" "$T/err"
tap_check "malformed perf_info: not called a configuration error" \
  bash -c "! grep -q 'configuration error' '$T/err'"
# two devices whose nodes share a base name: one series each (minors 128
# and 129 in the shim)
out=$(SHIM_PANTHOR_PATH="$T/a/renderD128,$T/b/renderD128" LD_PRELOAD="$PRELOAD" \
  timeout 120 "$BIN" --Device="$T/a/renderD128" --Device="$T/b/renderD128" \
  --once --window=0 --format=influx 2>"$T/err")
tap_is 0 $? "two devices, one base name: exit 0"
tap_is "device=renderD128 device=renderD129" \
  "$(grep '^panthor_perf_stream,' <<<"$out" | grep -o 'device=[^ ,]*' | sort | xargs)" \
  "two devices, one base name: a device tag each, from the minor"
run -- --once --window=0 --RingSlots=2 >/dev/null 2>"$T/err"
tap_is 2 $? "RingSlots 2 (never samples): configuration error, exit 2"
tap_check "RingSlots 2: says why" \
  grep -q 'RingSlots: 2 slots can never take a sample.*at least 4' "$T/err"
run SHIM_PANTHOR_SCENARIO= SHIM_PANTHOR_LAYOUT=v6 -- --once --window=0 \
  >/dev/null 2>"$T/err"
tap_is 0 $? "v5/v6-era TEARDOWN check: exit 0"
tap_check "v5/v6-era TEARDOWN check: the kept session and its cost said" \
  grep -q 'TEARDOWN: Device or resource busy: this kernel kept the perf session.*counter set primary stays taken' "$T/err"
# Hot-plug under DevRoot (no Device): the node removed, back (a new
# inode), its minor renamed (128 -> 129), each while --interval=1 reads:
# one INFO line each way, the series of a gone node end, a node that
# comes back counts from a fresh base (1 sample at its first record).
HP=$T/hp
mkdir -p "$HP/dri"
: >"$HP/dri/renderD128"
SHIM_PANTHOR_PATH="$HP/dri/renderD128,$HP/dri/renderD129" LD_PRELOAD="$PRELOAD" \
  timeout 120 "$BIN" --DevRoot="$HP" --interval=1 --window=0 --format=influx \
  --log-level=info >"$T/hp.out" 2>"$T/hp.err" &
hp_pid=$!
S128='^panthor_perf_stream,device=renderD128 '
S129='^panthor_perf_stream,device=renderD129 '
tap_check "hot-plug: renderD128 read" hp_wait "$T/hp.out" "$S128" 20
rm "$HP/dri/renderD128"
tap_check "hot-plug: removed renderD128 said gone" \
  hp_wait "$T/hp.err" 'renderD128: gone: .*renderD128 was removed; its series end' 20
n1=$(hp_count "$T/hp.out" "$S128")
: >"$HP/dri/renderD128"
tap_check "hot-plug: renderD128 back, said appeared" \
  hp_wait "$T/hp.err" 'renderD128: appeared: .*Mali-G720' 20
tap_check "hot-plug: renderD128 read again" hp_wait "$T/hp.out" "$S128" 20 $((n1 + 1))
tap_is "samples=1i" "$(grep -E "$S128" "$T/hp.out" | sed -n "$((n1 + 1))p" |
  grep -o 'samples=[0-9]*i')" "hot-plug: back from a fresh base (its first sample)"
rm "$HP/dri/renderD128"
: >"$HP/dri/renderD129"
tap_check "hot-plug: renamed minor: 129 appeared" \
  hp_wait "$T/hp.err" 'renderD129: appeared: ' 20
tap_check "hot-plug: renamed minor: 129 read" hp_wait "$T/hp.out" "$S129" 20
tap_is 2 "$(hp_count "$T/hp.err" 'renderD128: gone: ')" "hot-plug: 128 said gone twice"
n2=$(hp_count "$T/hp.out" "$S128")
tap_check "hot-plug: 129 read once more" hp_wait "$T/hp.out" "$S129" 20 \
  $(($(hp_count "$T/hp.out" "$S129") + 1))
tap_is "$n2" "$(hp_count "$T/hp.out" "$S128")" "hot-plug: no record of 128 once gone"
kill -TERM "$hp_pid"
wait "$hp_pid"
tap_is 0 $? "hot-plug: exit 0 on SIGTERM"
tap_is "" "$(grep -vE '^info: ' "$T/hp.err")" "hot-plug: nothing but info lines"
tap_is 2 "$(hp_count "$T/hp.err" 'appeared: ')" "hot-plug: one line per appearance"

tap_done
