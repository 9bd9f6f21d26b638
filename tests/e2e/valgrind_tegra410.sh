#!/usr/bin/env bash
# The long-running path of tegra410_uncore under valgrind: the executable
# in --execd mode with the Tegra410 preset and two Filter blocks, on the
# synthetic sysfs of tests/lib/tegra410_tree.sh with the kernel emulation
# preloaded (tests/shim), serving 40 batches; one PMU refuses its events
# (EACCES) so the retry path runs too. Must be free of memory errors and
# leaks (the shim's own allocations included).
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib/tap.sh
source tests/lib/tegra410_tree.sh
source tests/lib/require.sh
B=${BUILD:-build}
SHIM=$PWD/$B/tests/shim.so

require_not_sanitize "valgrind" "the ASan build cannot run under valgrind"
if ! command -v valgrind >/dev/null; then
  tap_fail "valgrind is not installed"
  tap_done
  exit
fi
T=$(mktemp -d "${TMPDIR:-/tmp}/t410-valgrind.XXXXXX")
trap 'rm -rf "$T"' EXIT
t410_tree "$T"

# 40 requests, one every 50 ms (counters move between them), then EOF.
for i in $(seq 1 40); do
  echo
  sleep 0.05
done | SHIM_PERF_EACCES_TYPE=4028 LD_PRELOAD=$SHIM valgrind --quiet \
  --error-exitcode=99 --leak-check=full \
  --errors-for-leak-kinds=definite,indirect --log-file="$T/valgrind.log" \
  "$B/tegra410_uncore" --execd --format=influx --SysfsRoot="$T/sys" \
  >"$T/out" 2>"$T/stderr"
rc=$?
# one CMEM record per batch
batches=$(grep -c '^tegra410,pmu=nvidia_cmem_latency_pmu_0,' "$T/out")
tap_is 40 "$batches" "40 batches served under valgrind"
tap_is 0 "$rc" "valgrind: no memory errors, no leaks (exit status)"
if [[ $rc -ne 0 ]]; then
  sed 's/^/# /' "$T/valgrind.log" | head -40
  tail -5 "$T/stderr" | sed 's/^/# stderr: /'
fi
tap_done
