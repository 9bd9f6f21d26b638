#!/usr/bin/env bash
# bench/daemon_cost.sh: drm_fdinfo's always-on cost as an operator sees it.
# Starts PROCS (2000) extra processes holding FDS (30) fds each, then the
# real collectd daemon with `LoadPlugin drm_fdinfo` and nothing else (the
# plugin's defaults) at each Interval in INTERVALS ("10 1"), and reports
# the daemon's CPU time over RUN_SECONDS (60) after WARMUP (5) seconds as a
# share of one core: utime+stime from /proc/<pid>/stat (clock ticks) and
# the run time of every thread from /proc/<pid>/task/*/schedstat (ns).
#   BUILD=build bench/daemon_cost.sh
# Extra plugin options go in DFI_OPTIONS (collectd syntax, one per line).
# The helpers and the daemon are stopped by PID when the script exits.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
PROCS=${PROCS:-2000}
FDS=${FDS:-30}
SECONDS_RUN=${RUN_SECONDS:-60}
WARMUP=${WARMUP:-5}
INTERVALS=${INTERVALS:-10 1}
COLLECTD=${COLLECTD:-/usr/sbin/collectd}
BUILD=${BUILD:-build}
[[ -x $COLLECTD ]] || { echo "daemon_cost: $COLLECTD not found" >&2; exit 1; }
[[ -f $BUILD/drm_fdinfo.so ]] || { echo "daemon_cost: $BUILD/drm_fdinfo.so missing (make all)" >&2; exit 1; }
ulimit -n 4096 2>/dev/null || true
plugdir=$(cd "$BUILD" && pwd)

dir=$(mktemp -d "${TMPDIR:-/tmp}/daemon_cost.XXXXXX")
helpers=()
cd_pid=
cleanup() {
  [[ -n $cd_pid ]] && kill -TERM "$cd_pid" 2>/dev/null && wait "$cd_pid" 2>/dev/null
  for p in "${helpers[@]}"; do kill -TERM "$p" 2>/dev/null; done
  for p in "${helpers[@]}"; do wait "$p" 2>/dev/null; done
  rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

redirs=
for ((k = 3; k < 3 + FDS; k++)); do redirs+=" $k</dev/null"; done
for ((i = 0; i < PROCS; i++)); do
  eval "sleep 100000 $redirs &"
  helpers+=($!)
done
sleep 1
echo "daemon_cost: $PROCS helper processes x $FDS fds;" \
  "$(ls -d /proc/[0-9]* 2>/dev/null | wc -l) processes, $(ls /proc/[0-9]*/fd 2>/dev/null | grep -c '^[0-9]') fds in /proc"

ticks=$(getconf CLK_TCK)
# utime+stime of the process (every thread), in clock ticks
cpu_ticks() { awk '{ sub(/.*\) /, ""); print $12 + $13 }' "/proc/$1/stat"; }
# run time of every thread, ns
run_ns() { cat /proc/"$1"/task/*/schedstat 2>/dev/null | awk '{ s += $1 } END { print s + 0 }'; }

for interval in $INTERVALS; do
  cat >"$dir/collectd.conf" <<CONF
Hostname "cost"
FQDNLookup false
BaseDir "$dir"
PIDFile "$dir/collectd.pid"
Interval $interval
TypesDB "/usr/share/collectd/types.db" "$PWD/types.db"
LoadPlugin logfile
<Plugin logfile>
  LogLevel warning
  File "$dir/collectd.log"
</Plugin>
PluginDir "$plugdir"
LoadPlugin drm_fdinfo
${DFI_OPTIONS:+<Plugin drm_fdinfo>
$DFI_OPTIONS
</Plugin>}
CONF
  "$COLLECTD" -f -C "$dir/collectd.conf" >"$dir/stdout" 2>&1 &
  cd_pid=$!
  sleep "$WARMUP"
  if ! kill -0 "$cd_pid" 2>/dev/null; then
    echo "daemon_cost: collectd exited:" >&2
    cat "$dir/stdout" "$dir/collectd.log" >&2
    exit 1
  fi
  t0=$(cpu_ticks "$cd_pid") n0=$(run_ns "$cd_pid") w0=$(date +%s%N)
  sleep "$SECONDS_RUN"
  t1=$(cpu_ticks "$cd_pid") n1=$(run_ns "$cd_pid") w1=$(date +%s%N)
  kill -TERM "$cd_pid" 2>/dev/null
  wait "$cd_pid" 2>/dev/null
  cd_pid=
  awk -v i="$interval" -v t=$((t1 - t0)) -v hz="$ticks" -v n=$((n1 - n0)) \
    -v w=$((w1 - w0)) 'BEGIN {
      printf "Interval %s: utime+stime %d ticks over %.1f s = %.3f%% of one core; schedstat %.1f ms = %.3f%%\n",
        i, t, w / 1e9, 100 * t / hz / (w / 1e9), n / 1e6, 100 * n / w }'
  grep -i "error\|warn" "$dir/collectd.log" | head -3
done
