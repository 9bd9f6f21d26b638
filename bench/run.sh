#!/usr/bin/env bash
# make bench: run every benchmark program in $BUILD/bench one after another
# (bench_scan: drm_fdinfo's scan cost against the syscall floor on the real
# /proc and on a synthetic tree; bench_t410: tegra410_uncore's read path;
# bench_pp: panthor_perf's sample walk against memcpy, and its allocations;
# bench_oa: i915_oa's record walk and accumulation against memcpy, and the
# allocations of its read path; bench_i915_live: its live drain through the
# in-process shim; bench_prom: a /metrics scrape of drm_fdinfo as a ratio to
# its read; bench_ddv: drm_device's read of one device, its read()s per
# attribute and its allocations; bench_top: what the --format=top view adds
# to one refresh of drm_fdinfo against the syscall floor of a full /proc walk);
# then bench/one_process.sh: gpu-telemetry's CPU and memory against the five
# executables side by side, as ratios.
# Environment knobs are listed at the top of each bench/*.c; BENCH_QUICK=1
# runs each with tiny counts (what tests/e2e/bench_quick.sh does inside
# make test, so that a benchmark cannot break unseen).
# bench/daemon_cost.sh (not run here: it takes over two minutes and needs
# collectd) measures drm_fdinfo's share of one core in the real daemon.
# A benchmark that forks helpers (bench_scan) releases them when it exits or
# dies; on Ctrl-C or failure the trap below stops the running benchmark by
# its PID, which does that.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
ulimit -n 4096 2>/dev/null || true
pid=
stop() {
  if [[ -n $pid ]]; then
    kill -TERM "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    pid=
  fi
}
trap stop EXIT
trap 'stop; exit 130' INT TERM
failed=0
for b in "${BUILD:-build}"/bench/*; do
  [[ -f $b && -x $b ]] || continue
  echo "== $(basename "$b")"
  "$b" &
  pid=$!
  if ! wait "$pid"; then
    echo "bench: $(basename "$b") failed" >&2
    failed=1
  fi
  pid=
done
echo "== one_process"
bench/one_process.sh || failed=1
exit $failed
