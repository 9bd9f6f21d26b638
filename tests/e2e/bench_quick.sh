#!/usr/bin/env bash
# Every benchmark of make bench in its quick mode (BENCH_QUICK=1,
# bench/bench_util.h: bench_count): the same programs and paths with tiny
# counts, so a benchmark that stops building, crashes or fails is seen by
# make test and not only by the next make bench. Each must exit 0 within a
# generous bound and print its result lines; the numbers themselves are not
# judged here (make bench reads the targets, as ratios).
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib/tap.sh
BUILD=${BUILD:-build}
export BENCH_QUICK=1
T=$(mktemp -d "${TMPDIR:-/tmp}/bench-quick.XXXXXX")
trap 'rm -rf "$T"' EXIT
ulimit -n 4096 2>/dev/null || true
if [[ ${SANITIZE:-} == 1 ]]; then
  # the benchmarks count allocations by interposing malloc
  # (bench/alloc_count.c), which ASan's allocator does not allow
  tap_skip "every benchmark in its quick mode" "SANITIZE=1: the allocation counter interposes malloc"
  tap_done
  exit $?
fi

# bench_NAME: a line its output must hold (its last measurement)
declare -A expect=(
  [bench_ddv]="allocations during"
  [bench_i915_live]="i915 live drain:"
  [bench_oa]="allocations during"
  [bench_pp]="allocations during"
  [bench_prom]="scrape cost / read"
  [bench_scan]="drm_fdinfo scan cost"
  [bench_t410]="preset setup, 29 PMUs"
  [bench_top]="top view cost per refresh"
)
for src in bench/bench_*.c; do
  name=$(basename "$src" .c)
  bin=$BUILD/bench/$name
  if [[ ! -x $bin ]]; then
    tap_fail "$name: $bin built (make tests-build builds the benchmarks)"
    continue
  fi
  timeout -k 5 300 "$bin" >"$T/$name.out" 2>"$T/$name.err"
  rc=$?
  tap_is 0 "$rc" "$name exits 0 in the quick mode ($(tail -n 3 "$T/$name.err" | tr '\n' ' '))"
  want=${expect[$name]:-}
  if [[ -z $want ]]; then
    tap_fail "$name: no expected line listed in tests/e2e/bench_quick.sh"
  elif [[ $name == bench_prom || $name == bench_top ]] && [[ $(id -u) != 0 ]]; then
    tap_skip "$name prints its result" "not root: it needs mknod and skips itself"
  else
    grep -qF -- "$want" "$T/$name.out" &&
      tap_ok "$name prints \"$want\"" ||
      tap_fail "$name prints \"$want\" (got: $(head -c 300 "$T/$name.out" | tr '\n' ' '))"
  fi
done

# bench/one_process.sh: both sets for 1 s each, and its two ratios
timeout -k 5 120 bench/one_process.sh >"$T/one.out" 2>"$T/one.err"
tap_is 0 $? "one_process.sh exits 0 in the quick mode ($(tail -n 3 "$T/one.err" | tr '\n' ' '))"
for r in cpu_ratio rss_ratio; do
  v=$(awk -v k="$r" '$1 == k { print $2 }' "$T/one.out")
  python3 -c 'import sys; v = float(sys.argv[1]); sys.exit(0 if v > 0 else 1)' "${v:-x}" 2>/dev/null &&
    tap_ok "one_process.sh prints $r ($v)" ||
    tap_fail "one_process.sh prints a positive $r (got '${v:-}')"
done
tap_done
