#!/usr/bin/env bash
# bench/one_process.sh: gpu-telemetry (every plugin in one process) against
# the five executables side by side, on the emulated devices (tests/shim,
# tests/lib/emulated.sh; drm_fdinfo on this machine's /proc), each set run
# for RUN_SECONDS (10) at --interval=INTERVAL (0.05) with Influx to
# /dev/null. Reports, in one run:
#   cpu_ratio  CPU time (utime+stime) of gpu-telemetry / the five summed
#              (target <= 1: one process costs no more than five)
#   rss_ratio  peak RSS (VmHWM) of gpu-telemetry / the five summed
#              (target <= 1)
# Needs the test tools (make tests-build: the shim and the sysfs trees).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
export BUILD=${BUILD:-build}
# BENCH_QUICK=1 (tests/e2e/bench_quick.sh): 1 s per set, the same path
if [[ -n ${BENCH_QUICK:-} && ${BENCH_QUICK} != 0 ]]; then
  RUN=${RUN_SECONDS:-1}
else
  RUN=${RUN_SECONDS:-10}
fi
INTERVAL=${INTERVAL:-0.05}
source tests/lib/emulated.sh
for f in "$BUILD/gpu-telemetry" "$BUILD/tests/shim.so" "$BUILD/tests/ddv_tree"; do
  [[ -e $f ]] || { echo "one_process: $f missing (make all tests-build)" >&2; exit 1; }
done
dir=$(mktemp -d "${TMPDIR:-/tmp}/one_process.XXXXXX")
pids=()
cleanup() {
  local p
  for p in "${pids[@]}"; do kill -KILL "$p" 2>/dev/null; done
  rm -rf "$dir"
}
trap cleanup EXIT
emu_setup "$dir/emu" >/dev/null 2>&1
PLUGINS=(drm_fdinfo tegra410_uncore panthor_perf i915_oa drm_device)
OA_OPTS=(--MetricSet=1)

ticks=$(getconf CLK_TCK)
# the process's utime+stime (ticks) and peak RSS (kB), before it ends
usage() {
  local t r
  t=$(awk '{ sub(/.*\) /, ""); print $12 + $13 }' "/proc/$1/stat")
  r=$(awk '/^VmHWM:/ { print $2 }' "/proc/$1/status")
  echo "$t $r"
}

# run_set NAME COMMAND-LINES...: start each (one per argument, eval'd),
# wait RUN seconds, sum their usage
run_set() {
  local name=$1 c p t r sum_t=0 sum_r=0
  shift
  local set=()
  for c in "$@"; do
    eval "exec $c" >/dev/null 2>>"$dir/$name.err" &
    set+=($!)
    pids+=($!)
  done
  sleep "$RUN"
  for p in "${set[@]}"; do
    read -r t r < <(usage "$p")
    sum_t=$((sum_t + t))
    sum_r=$((sum_r + r))
    kill -TERM "$p"
  done
  for p in "${set[@]}"; do wait "$p" 2>/dev/null; done
  echo "$sum_t $sum_r"
}

q() { printf '%q ' "$@"; }
five=()
for p in "${PLUGINS[@]}"; do
  emu_cmd "$p"
  extra=()
  [[ $p == i915_oa ]] && extra=("${OA_OPTS[@]}")
  five+=("$(q "${EMU_CMD[@]}" "${extra[@]}" --interval="$INTERVAL" --format=influx)")
done
emu_cmd_all
one="$(q "${EMU_CMD[@]}" --i915_oa.MetricSet=1 --interval="$INTERVAL" --format=influx)"

read -r five_t five_r < <(run_set five "${five[@]}")
read -r one_t one_r < <(run_set one "$one")
echo "one_process: ${RUN} s at --interval=$INTERVAL on the emulated devices"
awk -v ot="$one_t" -v ft="$five_t" -v orr="$one_r" -v fr="$five_r" -v hz="$ticks" 'BEGIN {
  printf "five executables: cpu %.2f s, peak rss %d kB (summed)\n", ft / hz, fr
  printf "gpu-telemetry:    cpu %.2f s, peak rss %d kB\n", ot / hz, orr
  printf "cpu_ratio %.3f (target <= 1)\n", (ft > 0 ? ot / ft : 0)
  printf "rss_ratio %.3f (target <= 1)\n", (fr > 0 ? orr / fr : 0)
}'
