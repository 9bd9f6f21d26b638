#!/usr/bin/env bash
# The real collectd daemon loads build/tegra410_uncore.so: the shipped
# snippet (the Tegra410 preset) on this machine, which has no Tegra410 PMU,
# runs without an error and reports nothing; an instance naming msr/tsc
# dispatches the counts and rates under the documented identifiers.
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib/tap.sh
source tests/lib/collectd.sh
source tests/lib/require.sh
require_collectd "collectd end to end"
require_perf_events "collectd end to end"
trap 'collectd_stop; [[ -n ${CD_DIR:-} ]] && rm -rf "$CD_DIR"' EXIT
snippet=$(sed -e 's|Interval 10|Interval 1|' conf.d/tegra410_uncore.conf)
collectd_start "$snippet"
tap_check "shipped snippet: says once that no Tegra410 PMU is here" \
  collectd_wait_log '^\[info\] tegra410_uncore: /sys: Preset: no Tegra410 PMU' 30
tap_check "shipped snippet: the daemon keeps running" kill -0 "$CD_PID"
tap_is "" "$(grep -E '^\[?(error|warning)|init callbacks failed|No such read function' "$CD_LOG")" \
  "shipped snippet: no error or warning in the log"
tap_check "shipped snippet: no tegra410_uncore series" \
  bash -c "! ls -d '$CD_CSV'/e2e/tegra410_uncore* 2>/dev/null"
tap_check "shipped snippet: collectd stops on SIGTERM" collectd_stop
rm -rf "$CD_DIR"

require_that "collectd msr/tsc" "this kernel has no msr PMU" \
  test -d /sys/bus/event_source/devices/msr
collectd_start 'LoadPlugin tegra410_uncore
<Plugin tegra410_uncore>
  <Instance "generic">
    Interval 1
    Event "msr/tsc/"
  </Instance>
</Plugin>'
dir="$CD_CSV/e2e/tegra410_uncore-generic-msr"
tap_check "csv: the count series appears" \
  collectd_wait_for "$dir/gpu_events-tsc-count-*" 30
tap_check "csv: the rate series appears" \
  collectd_wait_for "$dir/uncore_rate-tsc-rate-*" 30
v=$(collectd_getval "e2e/tegra410_uncore-generic-msr/uncore_rate-tsc-rate" |
  sed -n 's/^value=//p')
ncpu=$(getconf _NPROCESSORS_ONLN)
mhz=$(awk -F: '/^cpu MHz/ { print $2; exit }' /proc/cpuinfo)
ok=$(awk -v v="$v" -v n="$ncpu" -v m="$mhz" 'BEGIN {
  if (m == "") { print (v > 1e8) ? "yes" : "no: " v; exit }
  r = v / (n * m * 1e6); print (r > 0.8 && r < 1.25) ? "yes" : "no: " v }')
tap_is yes "$ok" "unixsock: TSC rate is about CPUs x nominal clock ($v)"
tap_check "collectd stops on SIGTERM" collectd_stop
tap_check "log: no read failures" \
  bash -c "! grep -q 'read-function of plugin .tegra410_uncore' '$CD_LOG'"

# One rule (docs/telegraf.md, "Exit status"): a block with one bad Event next to a
# good one is dropped whole; the other block keeps running.
rm -rf "$CD_DIR"
collectd_start 'LoadPlugin tegra410_uncore
<Plugin tegra410_uncore>
  <Instance "good">
    Interval 1
    Event "msr/tsc/"
  </Instance>
  <Instance "mixed">
    Interval 1
    Event "msr/tsc/"
    Event "msr/tsc,bogus=1/"
  </Instance>
</Plugin>'
tap_check "mixed block: the good block's series appears" \
  collectd_wait_for "$CD_CSV/e2e/tegra410_uncore-good-msr/gpu_events-tsc-count-*" 30
tap_check "mixed block: logged as dropped" \
  grep -q 'tegra410_uncore: init: Instance: "mixed": dropped' "$CD_LOG"
tap_check "mixed block: no series for it" \
  bash -c "! ls -d '$CD_CSV'/e2e/tegra410_uncore-mixed* 2>/dev/null"
collectd_stop
tap_done
