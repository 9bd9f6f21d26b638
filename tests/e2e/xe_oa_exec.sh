#!/usr/bin/env bash
# build/i915_oa (the exec/execd executable) against the shim's xe device
# (LD_PRELOAD tests/shim.so, SHIM_DRIVERS=xe; tests/shim/shim_xe.h): MTL
# on xe (A24u40_A14u32_B8_C8) and BMG (PEC64u64) in json and influx, by
# path, by uuid and by discovery; exact totals across every wrap in
# execd; the OA statuses after EIO; paranoid and a device without OA in
# words. The shim writes 4 reports per drain, each 1 ms of OA time (19200
# ticks at 19.2 MHz) and 1e6 GPU ticks; counter n (A0.. then B, C; PEC0..)
# moves by 1000 x (n + 1) per report.
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib/tap.sh
source tests/lib/lineproto.sh
B=${BUILD:-build}
BIN=$B/i915_oa
SHIM=$PWD/$B/tests/shim.so
PRELOAD=$SHIM
if [[ ${SANITIZE:-} == 1 ]]; then
  PRELOAD="$(${CC:-cc} -print-file-name=libasan.so):$(${CC:-cc} -print-file-name=libubsan.so):$SHIM"
fi
T=$(mktemp -d "${TMPDIR:-/tmp}/xe-exec.XXXXXX")
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/dev/dri" "$T/sys"
NODE=$T/dev/dri/renderD128
: >"$NODE"
UUID=01234567-89ab-cdef-0123-456789abcdef
# no device link in this tree: the card is the render node's index (card0)
mkdir -p "$T/sys/class/drm/card0/metrics/$UUID"
echo 1 >"$T/sys/class/drm/card0/metrics/$UUID/id"

run() { # scenario, then the executable's arguments
  local sc=$1
  shift
  SHIM_DRIVERS=xe SHIM_XE_PATH=$NODE SHIM_XE_SCENARIO=$sc LD_PRELOAD=$PRELOAD \
    timeout 120 "$BIN" --DevRoot="$T/dev/dri" --SysfsRoot="$T/sys" \
    --Period=0.001 "$@"
}
get() { # field measurement <<<influx
  lp_get "$1" --measurement "$2"
}
jget() { # measurement field <<<json
  python3 -c 'import json,sys; d=json.load(sys.stdin); print([x for x in d if x["name"]==sys.argv[1]][0][sys.argv[2]])' "$@"
}

# MTL on xe, --once: two drains of 4 reports, 7 differences
out=$(run platform=mtl --Device="$NODE" --MetricSet=$UUID --once --window=0 --format=json 2>"$T/err")
tap_is 0 $? "mtl json: exit 0"
tap_is "" "$(cat "$T/err")" "mtl json: nothing on stderr"
tap_is 7000000 "$(jget i915_oa gpu_core_clocks <<<"$out")" "mtl: gpu_core_clocks"
tap_is 7000000 "$(jget i915_oa gpu_time_ns <<<"$out")" "mtl: gpu_time_ns (7 ms at the unit's 19.2 MHz)"
tap_is 35000 "$(jget i915_oa a4 <<<"$out")" "mtl: a4 (40-bit)"
tap_is 266000 "$(jget i915_oa a37 <<<"$out")" "mtl: a37"
tap_is 378000 "$(jget i915_oa c7 <<<"$out")" "mtl: c7"
tap_is $UUID "$(jget i915_oa metric_set <<<"$out")" "mtl: metric_set tag"
tap_is 8 "$(jget i915_oa_stream reports <<<"$out")" "mtl: reports"
tap_is 0 "$(jget i915_oa_stream counter_overflow <<<"$out")" "mtl: counter_overflow field"

# The other platform's format of the same xe encoding (xe_oa.c:
# decode_oa_format would read A24u40 reports as asked for A32u40), and an
# engine instance xe ignores (xe_oa_assign_hwe): refused in words
run platform=mtl --Device="$NODE" --MetricSet=$UUID --Format=A32u40_A4u32_B8_C8 \
  --once --window=0 >/dev/null 2>"$T/err"
tap_is 1 $? "mtl, TGL's format: refused"
tap_check "mtl, TGL's format: names the platform's own" grep -q \
  'Format: A32u40_A4u32_B8_C8: xe on graphics 12.70 reads it in the layout of another format of the same encoding; this platform.s format is A24u40_A14u32_B8_C8' "$T/err"
run platform=mtl --Device="$NODE" --MetricSet=$UUID --Engine=render:1 \
  --once --window=0 >/dev/null 2>"$T/err"
tap_is 1 $? "mtl, Engine render:1: refused"
tap_check "mtl, Engine render:1: xe takes the unit's first engine, said" grep -q \
  'Engine: xe opens a system-wide stream on the first engine of the OA unit (class 0 instance 0)' "$T/err"

# BMG (Xe2): PEC64u64, discovery without --Device
out=$(run platform=bmg --MetricSet=1 --once --window=0 --format=influx 2>"$T/err")
tap_is 0 $? "bmg influx (discovery): exit 0"
tap_is "" "$(cat "$T/err")" "bmg: nothing on stderr"
tap_is 7000000 "$(get gpu_core_clocks i915_oa <<<"$out")" "bmg: gpu_core_clocks (64-bit ticks)"
tap_is 77000 "$(get pec10 i915_oa <<<"$out")" "bmg: pec10"
tap_is 448000 "$(get pec63 i915_oa <<<"$out")" "bmg: pec63"
tap_is "" "$(lp_get a0 --measurement i915_oa <<<"$out" 2>/dev/null)" "bmg: no a0 field"

# execd from two reports before every wrap: 1001 drains, 4003 differences
out=$(printf '\n%.0s' {1..1000} | run platform=mtl,near_wrap=1 --Device="$NODE" --MetricSet=1 --execd --format=influx 2>"$T/err")
tap_is 0 $? "mtl execd: exit 0 at EOF"
tap_is 1000 "$(lp_count --measurement i915_oa <<<"$out")" "mtl execd: one batch per line"
last=$(tail -n 2 <<<"$out")
tap_is 4003000000 "$(get gpu_core_clocks i915_oa <<<"$last")" "mtl execd: 32-bit ticks past 2^32, exact"
tap_is 4003000000 "$(get gpu_time_ns i915_oa <<<"$last")" "mtl execd: 32-bit timestamp past its wraps, exact"
tap_is 20015000 "$(get a4 i915_oa <<<"$last")" "mtl execd: a4 across its 40-bit wrap"
tap_is 4003000 "$(get a0 i915_oa <<<"$last")" "mtl execd: a0 across its 32-bit wrap"
out=$(printf '\n%.0s' {1..10} | run platform=bmg,near_wrap=1,clk_step=0x100000000000000 --Device="$NODE" --MetricSet=1 --execd --format=influx 2>"$T/err")
last=$(tail -n 2 <<<"$out")
tap_is 44 "$(get reports i915_oa_stream <<<"$last")" "bmg execd: 11 drains (one before the lines)"
tap_is 43000000 "$(get gpu_time_ns i915_oa <<<"$last")" "bmg execd: 56-bit timestamp across its wrap"
tap_is "$(python3 -c 'print(43 * 2**56)')" "$(get gpu_core_clocks i915_oa <<<"$last")" "bmg execd: 64-bit ticks across their wrap, exact"
tap_is 473000 "$(get pec10 i915_oa <<<"$last")" "bmg execd: pec10 across its 64-bit wrap"

# every OA status before the second batch: EIO, STATUS, read on
out=$(run platform=mtl,status_at=2,status=15 --Device="$NODE" --MetricSet=1 --once --window=0 --format=influx 2>"$T/err")
tap_is 0 $? "status: exit 0"
tap_is 1 "$(get report_lost i915_oa_stream <<<"$out")" "status: report_lost"
tap_is 1 "$(get buffer_lost i915_oa_stream <<<"$out")" "status: buffer_lost"
tap_is 1 "$(get rebases i915_oa_stream <<<"$out")" "status: the overflow's gap drops the base"
tap_is 1 "$(get counter_overflow i915_oa_stream <<<"$out")" "status: counter_overflow"
tap_is 1 "$(get mmio_trigger_queue_full i915_oa_stream <<<"$out")" "status: mmio_trigger_queue_full"
tap_is 0 "$(get reopens i915_oa_stream <<<"$out")" "status: not reopened"
tap_is 6000000 "$(get gpu_core_clocks i915_oa <<<"$out")" "status: 6 differences counted"

# FlexEvent: OP_ADD_CONFIG (ids from 1), A7 read by name, removed at exit
out=$(run "platform=mtl,card_dir=$T/sys/class/drm/card0" --Device="$NODE" --FlexEvent="eu_active 4" --once --window=0 --format=influx 2>"$T/err")
tap_is 0 $? "flex: exit 0"
tap_is "" "$(cat "$T/err")" "flex: nothing on stderr"
tap_is 56000 "$(get eu_active i915_oa <<<"$out")" "flex: eu_active (A7) by name"
tap_is "$UUID" "$(ls "$T/sys/class/drm/card0/metrics")" "flex: only the MetricSet's entry is left (ours removed at exit)"

# refusals in words, naming the device
run platform=mtl,perfmon=0 --Device="$NODE" --MetricSet=1 --once --window=0 >/dev/null 2>"$T/err"
tap_check "paranoid: EACCES names the sysctl, CAP_PERFMON and the device" \
  grep -q "^warning: i915_oa: $NODE: OBSERVATION STREAM_OPEN: Permission denied; hint: system-wide OA needs dev.xe.observation_paranoid=0 or CAP_PERFMON" "$T/err"
run platform=mtl,has_oa=0 --Device="$NODE" --MetricSet=1 --once --window=0 >/dev/null 2>"$T/err"
tap_is 1 "$(grep -c 'no OA (an SR-IOV VF, no GuC, or a kernel without xe OA); this device is left alone' "$T/err")" "no OA: said once"
run platform=mtl --Device="$NODE" --MetricSet=7 --once --window=0 >/dev/null 2>"$T/err"
tap_check "an unknown metric set id: EINVAL from STREAM_OPEN" \
  grep -q "$NODE: OBSERVATION STREAM_OPEN: Invalid argument" "$T/err"

# valgrind: no error, no leak, on both platforms with statuses and flex
if command -v valgrind >/dev/null && [[ ${SANITIZE:-} != 1 ]]; then
  for pl in mtl bmg; do
    tap_check "valgrind clean: $pl, statuses, FlexEvent" \
      env SHIM_DRIVERS=xe SHIM_XE_PATH="$NODE" \
      SHIM_XE_SCENARIO="platform=$pl,card_dir=$T/sys/class/drm/card0,status_at=2,status=15" \
      LD_PRELOAD="$SHIM" valgrind -q --error-exitcode=9 --leak-check=full \
      "$BIN" --Device="$NODE" --FlexEvent="eu_active 4" --Period=0.001 \
      --DevRoot="$T/dev/dri" --SysfsRoot="$T/sys" --once --window=0 --format=json
  done
else
  tap_skip "valgrind clean" "no valgrind, or a sanitizer build"
fi
tap_done
