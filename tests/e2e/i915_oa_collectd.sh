#!/usr/bin/env bash
# The real collectd daemon loads build/i915_oa.so from the shipped snippet
# (conf.d/i915_oa.conf: flex events eu_active and eu_stall) against the
# shim's i915 device (LD_PRELOAD tests/shim.so, SHIM_DRIVERS=i915): the
# flex config is added, every read drains one batch of 4 reports (1 ms
# and 1e6 GPU clocks each; A7 moves by 8000 and A8 by 9000 per report),
# exact values in the csv rows, and the config removed at shutdown.
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib/tap.sh
source tests/lib/collectd.sh
source tests/lib/require.sh
source tests/lib/i915_tree.sh
require_collectd "i915_oa collectd end to end"
B=${BUILD:-build}
T=$(mktemp -d "${TMPDIR:-/tmp}/i915-collectd.XXXXXX")
trap 'collectd_stop; rm -rf "$T"; [[ -n ${CD_DIR:-} && -z ${KEEP:-} ]] && rm -rf "$CD_DIR"' EXIT
export COLLECTD_PRELOAD=$PWD/$B/tests/shim.so
i915_tree "$T" 0000:00:02.0
export SHIM_I915_SCENARIO=$(i915_scenario "$T")

row() { # glob row-number column: that value of that data row (csv module)
  local f
  for f in $1; do
    python3 -c 'import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
print(rows[int(sys.argv[2])][1])' "$f" "$2"
  done
}

# The shipped snippet, Interval 1, pointed at the synthetic tree.
snippet=$(sed -e 's|Interval 10|Interval 1|' \
  -e "s|<Instance \"gpu\">|<Instance \"gpu\">\n    DevRoot \"$T/dev/dri\"\n    SysfsRoot \"$T/sys\"|" \
  conf.d/i915_oa.conf)
collectd_start "$snippet"
tap_check "three rows of gpu_core_clocks" \
  collectd_wait_rows "$CD_CSV/e2e/i915_oa-gpu-0000:00:02.0-render0-*/gpu_cycles-gpu_core_clocks-*" 3 30
tap_check "three rows of reports" \
  collectd_wait_rows "$CD_CSV/e2e/i915_oa-gpu-0000:00:02.0-*/gpu_events-stream-reports-*" 3 30
metrics() { find "$T/sys/devices/pci0000:00/0000:00:02.0/drm/card0/metrics" \
  -mindepth 1 -maxdepth 1 -type d | wc -l; }
# the kernel's own set (the scenario's) and ours
tap_is 2 "$(metrics)" "the flex config is registered while collectd runs"
collectd_stop
tap_is 1 "$(metrics)" "the flex config (only ours) is removed at shutdown"

# i915_oa (label-device-engine-metric_set) and i915_oa_stream
# (label-device-metric_set) under plugin i915_oa
d=$(printf '%s\n' "$CD_CSV"/e2e/i915_oa-gpu-0000:00:02.0-render0-*)
s=${d/-render0-/-}
tap_check "plugin_instance: label, PCI address, engine, metric set uuid ($d)" \
  grep -qE '/i915_oa-gpu-0000:00:02\.0-render0-[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}$' <<<"$d"
# the 3rd read has drained 12 reports: 11 differences
tap_is 11000000 "$(row "$d/gpu_cycles-gpu_core_clocks-*" 3)" "gpu_core_clocks after 3 reads"
tap_is 11000000 "$(row "$d/gpu_time-gpu_time_ns-*" 3)" "gpu_time_ns after 3 reads"
tap_is 88000 "$(row "$d/gpu_events-eu_active-*" 3)" "eu_active (A7) by name"
tap_is 99000 "$(row "$d/gpu_events-eu_stall-*" 3)" "eu_stall (A8) by name"
tap_is 12 "$(row "$s/gpu_events-stream-reports-*" 3)" "reports after 3 reads"
tap_is 50 "$(printf '%.0f' "$(row "$d/percent-gpu_busy_percent-*" 2)")" \
  "gpu_busy_percent"
tap_is 1000000000 "$(printf '%.0f' "$(row "$d/gpu_hertz-avg_gpu_core_frequency_hz-*" 2)")" \
  "avg_gpu_core_frequency_hz"
tap_check "no read failure logged" bash -c "! grep -q 'read-function of plugin' '$CD_LOG'"
tap_check "no unknown type" bash -c "! grep -q 'no such type' '$CD_LOG'"
collectd_stop

# Ids unquoted: collectd reads `Format 10` and `MetricSet 1` as numbers;
# the keys that take a name or an id take their text (cfg.h)
collectd_start "LoadPlugin i915_oa
<Plugin i915_oa>
  <Instance \"ids\">
    Interval 1
    MetricSet 1
    Format 10
    DevRoot \"$T/dev/dri\"
    SysfsRoot \"$T/sys\"
  </Instance>
</Plugin>"
tap_check "Format 10 and MetricSet 1 unquoted: rows" \
  collectd_wait_rows "$CD_CSV/e2e/i915_oa-ids-0000:00:02.0-render0-1/gpu_cycles-gpu_core_clocks-*" 2 30
tap_check "... and no config error" bash -c "! grep -q 'config:' '$CD_LOG'"
tap_done
