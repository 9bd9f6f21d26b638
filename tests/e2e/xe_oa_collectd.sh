#!/usr/bin/env bash
# The real collectd daemon loads build/i915_oa.so from the shipped snippet
# (conf.d/i915_oa.conf, its FlexEvent lines replaced by MetricSet 1: flex
# configs are not added on xe) against the shim's xe device (LD_PRELOAD
# tests/shim.so, SHIM_DRIVERS=xe): an MTL on xe (A24u40_A14u32_B8_C8) and
# a BMG (PEC64u64). Every drain takes one batch of 4 reports (1 ms and 1e6
# GPU ticks each; counter n moves by 1000 x (n + 1)); the host's drain
# hook may drain between reads (BMG's 576-byte reports fill the OA buffer
# sooner), so each row is checked against its own report count: exact.
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib/tap.sh
source tests/lib/collectd.sh
source tests/lib/require.sh
require_collectd "i915_oa on xe, collectd end to end"
B=${BUILD:-build}
T=$(mktemp -d "${TMPDIR:-/tmp}/xe-collectd.XXXXXX")
trap 'collectd_stop; rm -rf "$T"; [[ -n ${CD_DIR:-} && -z ${KEEP:-} ]] && rm -rf "$CD_DIR"' EXIT
export COLLECTD_PRELOAD=$PWD/$B/tests/shim.so
export SHIM_DRIVERS=xe
mkdir -p "$T/dev/dri" "$T/sys"
export SHIM_XE_PATH=$T/dev/dri/renderD128
: >"$SHIM_XE_PATH"

row() { # glob row-number: the value of that data row (csv module)
  local f
  for f in $1; do
    python3 -c 'import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
print(rows[int(sys.argv[2])][1])' "$f" "$2"
  done
}

snippet=$(sed -e 's|Interval 10|Interval 1|' -e '/FlexEvent/d' \
  -e "s|<Instance \"gpu\">|<Instance \"gpu\">\n    MetricSet 1\n    DevRoot \"$T/dev/dri\"\n    SysfsRoot \"$T/sys\"|" \
  conf.d/i915_oa.conf)

for platform in mtl bmg; do
  export SHIM_XE_SCENARIO=platform=$platform
  collectd_start "$snippet"
  tap_check "$platform: three rows of gpu_core_clocks" \
    collectd_wait_rows "$CD_CSV/e2e/i915_oa-gpu-*-render0-*/gpu_cycles-gpu_core_clocks-*" 3 30
  tap_check "$platform: three rows of reports" \
    collectd_wait_rows "$CD_CSV/e2e/i915_oa-gpu-*/gpu_events-stream-reports-*" 3 30
  collectd_stop
  d=$(printf '%s\n' "$CD_CSV"/e2e/i915_oa-gpu-*-render0-*)
  s=${d/-render0-/-} # the stream's name: the same without the engine
  # the 3rd read: at least 3 batches (12 reports), reports - 1 differences
  n=$(row "$s/gpu_events-stream-reports-*" 3)
  tap_check "$platform: at least 12 reports after 3 reads ($n)" test "$n" -ge 12
  tap_is $(((n - 1) * 1000000)) "$(row "$d/gpu_cycles-gpu_core_clocks-*" 3)" "$platform: gpu_core_clocks after 3 reads"
  tap_is $(((n - 1) * 1000000)) "$(row "$d/gpu_time-gpu_time_ns-*" 3)" "$platform: gpu_time_ns after 3 reads"
  if [[ $platform == mtl ]]; then
    tap_is $(((n - 1) * 5000)) "$(row "$d/gpu_events-a4-*" 3)" "mtl: a4 (40-bit A counter)"
  else
    tap_is $(((n - 1) * 11000)) "$(row "$d/gpu_events-pec10-*" 3)" "bmg: pec10 (64-bit PEC counter)"
  fi
  tap_check "$platform: no read failure logged" bash -c "! grep -q 'read-function of plugin' '$CD_LOG'"
  tap_is 0 "$(row "$s/gpu_events-stream-counter_overflow-*" 3)" "$platform: counter_overflow"
  tap_is 0 "$(row "$s/gpu_events-stream-mmio_trigger_queue_full-*" 3)" "$platform: mmio_trigger_queue_full"
  rm -rf "$CD_DIR"
done
tap_done
