#!/usr/bin/env bash
# The real collectd daemon loads build/panthor_perf.so from the shipped
# snippet against the shim's panthor node (LD_PRELOAD tests/shim.so,
# SHIM_DRIVERS=panthor): both uAPI layouts, exact values in the csv rows
# (counter k of block i moves by k x (i + 1) per sample, one sample per
# read, 1 ms of virtual time per sample), two instances sharing one
# kernel session, and the errors a kernel can give: no uAPI, EBUSY.
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib/tap.sh
source tests/lib/collectd.sh
source tests/lib/require.sh
require_collectd "panthor_perf collectd end to end"
B=${BUILD:-build}
T=$(mktemp -d "${TMPDIR:-/tmp}/pp-collectd.XXXXXX")
trap 'collectd_stop; rm -rf "$T"; [[ -n ${CD_DIR:-} ]] && rm -rf "$CD_DIR"' EXIT
export COLLECTD_PRELOAD=$PWD/$B/tests/shim.so
export SHIM_DRIVERS=panthor SHIM_PANTHOR_PATH=$T/renderD128

snippet() { # the shipped snippet, Interval 1, our node
  sed -e 's|Interval 10|Interval 1|' \
    -e "s|#Device \"/dev/dri/renderD128\"|Device \"$T/renderD128\"|" \
    conf.d/panthor_perf.conf
}

row() { # glob row-number: the first value of that data row (csv module)
  local f
  for f in $1; do
    python3 -c 'import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
print(rows[int(sys.argv[2])][1])' "$f" "$2"
  done
}

# layout gpu-model name bytes-per-sample-of-ext-read
for run in "v6 g720 Mali-G720 1536" "rfc-v2 g710 Mali-G710 1536" \
  "v6 g725 Mali-G725 10240"; do
  read -r layout model name bytes <<<"$run"
  export SHIM_PANTHOR_LAYOUT=$layout SHIM_PANTHOR_GPU=$model
  rm -rf "${CD_DIR:-/nonexistent}"
  collectd_start "$(snippet)"
  dir="$CD_CSV/e2e/panthor_perf-gpu-renderD128-$name"
  sdir="$CD_CSV/e2e/panthor_perf-gpu-renderD128"
  tap_check "$layout $name: three rows of gpu_active_cycles" \
    collectd_wait_rows "$dir/gpu_cycles-gpu_active_cycles-*" 3 30
  tap_check "$layout $name: three rows of samples" \
    collectd_wait_rows "$sdir/gpu_events-stream-samples-*" 3 30
  collectd_stop
  # CSHW 4 moves by 4 per sample; the 3rd read has consumed 3 samples
  tap_is 12 "$(row "$dir/gpu_cycles-gpu_active_cycles-*" 3)" \
    "$layout $name: gpu_active_cycles after 3 reads"
  tap_is 3 "$(row "$sdir/gpu_events-stream-samples-*" 3)" \
    "$layout $name: samples after 3 reads"
  tap_is 0 "$(row "$sdir/gpu_events-stream-dropped-*" 3)" \
    "$layout $name: nothing dropped"
  # L2_EXT_READ_BEATS (memsys 32) over the slices x bytes per beat, per
  # ms; the first read has no time base, so 3 reads give 2 rows
  bw=$(row "$dir/gpu_bytes_per_second-ext_read_bandwidth-*" 2)
  tap_is "$((bytes * 1000))" "$(printf '%.0f' "$bw")" \
    "$layout $name: ext_read_bandwidth ($bytes bytes per 1 ms sample)"
  tap_check "$layout $name: no read failure logged" \
    bash -c "! grep -q 'read-function of plugin' '$CD_LOG'"
done

# Two instances on one node share one kernel session: both report.
export SHIM_PANTHOR_LAYOUT=v6 SHIM_PANTHOR_GPU=g720
rm -rf "$CD_DIR"
collectd_start "LoadPlugin panthor_perf
<Plugin panthor_perf>
  <Instance \"a\">
    Interval 1
    Device \"$T/renderD128\"
  </Instance>
  <Instance \"b\">
    Interval 1
    Device \"$T/renderD128\"
    Counter \"shader:27\"
  </Instance>
</Plugin>"
for i in a b; do
  tap_check "shared session: instance $i reports" \
    collectd_wait_rows "$CD_CSV/e2e/panthor_perf-$i-renderD128/gpu_events-stream-samples-*" 3 30
done
collectd_stop
tap_check "shared session: no SETUP error" \
  bash -c "! grep -q 'SETUP' '$CD_LOG'"

# A mainline kernel: one message, no series.
export SHIM_PANTHOR_LAYOUT=none
rm -rf "$CD_DIR"
collectd_start "$(snippet)"
tap_check "no uAPI: the message" \
  collectd_wait_log 'no performance counter uAPI.*drm_fdinfo still reports panthor engine time' 30
sleep 1
collectd_stop
tap_is 1 "$(grep -c 'no performance counter uAPI' "$CD_LOG")" \
  "no uAPI: said once"
tap_check "no uAPI: no series" \
  bash -c "! ls -d '$CD_CSV'/e2e/panthor_perf* 2>/dev/null"

# Two sessions already open elsewhere: EBUSY in words.
export SHIM_PANTHOR_LAYOUT=v6 SHIM_PANTHOR_SCENARIO=others=2
rm -rf "$CD_DIR"
collectd_start "$(snippet)"
tap_check "EBUSY: the cause in words" \
  collectd_wait_log 'renderD128: SETUP: Device or resource busy: two perf sessions are already open' 30
collectd_stop
tap_done
