#!/usr/bin/env bash
# Run every test layer and end with one line: "N passed, N failed".
# Each layer speaks TAP ("ok", "not ok", "# SKIP"); this script only counts.
# Each program's line gives its time; a program still running after 20 s
# says so every 20 s (TEST_PROGRESS_SECONDS) with its results so far, so no
# step is silent long.
# Environment: BUILD (build dir), SANITIZE=1 (ASan+UBSan build),
# TEST_FILTER (substring of the test program names to run).
set -uo pipefail
cd "$(dirname "$0")/.."
export BUILD=${BUILD:-build}
export LC_ALL=C
log_dir=$(mktemp -d "${TMPDIR:-/tmp}/gpu-tests.XXXXXX")
# Only this shell removes it: bash runs an inherited EXIT trap in a
# background subshell (the ticker) killed before it could reset the trap.
main_pid=$$
trap '[[ $BASHPID == "$main_pid" ]] && rm -rf "$log_dir"' EXIT
passed=0 failed=0 skipped=0
exec 3>&1 # the terminal, for progress lines while a step's output is captured

# ticker LABEL FILE: every TEST_PROGRESS_SECONDS (20) s, "... LABEL: N s, K results so far" (the
# ok/not ok lines in FILE); stopped with kill by the caller.
ticker() {
  local s=0 k pid= every=${TEST_PROGRESS_SECONDS:-20}
  trap '[[ -n $pid ]] && kill "$pid" 2>/dev/null; exit 0' TERM
  while :; do
    sleep "$every" &
    pid=$!
    wait "$pid"
    s=$((s + every))
    k=$(grep -cE '^(not )?ok ' "$2" 2>/dev/null)
    printf '    ... %s: %d s, %d results so far\n' "$1" "$s" "${k:-0}" >&3
  done
}

# with_progress LABEL FILE COMMAND...: runs COMMAND with the ticker on
with_progress() {
  local label=$1 file=$2 tick rc
  shift 2
  ticker "$label" "$file" &
  tick=$!
  "$@"
  rc=$?
  kill "$tick" 2>/dev/null
  wait "$tick" 2>/dev/null
  return $rc
}

run_tap() { # name, command...
  local name=$1
  shift
  [[ -n ${TEST_FILTER:-} && $name != *"$TEST_FILTER"* ]] && return
  local out="$log_dir/$(echo "$name" | tr '/ ' '__').tap"
  local t0=$SECONDS
  with_progress "$name" "$out" "$@" >"$out" 2>"$out.err"
  local rc=$?
  local secs=$((SECONDS - t0))
  local p f s
  # cmocka prints a skipped case as "not ok N # SKIP", the shell layers as
  # "ok N - name # SKIP reason": both are skips, neither a pass nor a failure
  p=$(grep -cE '^ok ' "$out" | tr -d ' ')
  s=$(grep -ciE '^(not )?ok .*# skip' "$out" | tr -d ' ')
  f=$(grep -cE '^not ok ' "$out" | tr -d ' ')
  sf=$(grep -ciE '^not ok .*# skip' "$out" | tr -d ' ')
  p=$((p - (s - sf)))
  f=$((f - sf))
  if [[ $rc -ne 0 && $f -eq 0 ]]; then
    f=1 # a crash or a non-TAP failure still counts
    echo "not ok - $name exited with status $rc" >>"$out"
  fi
  if [[ $((p + f + s)) -eq 0 ]]; then
    f=1
    echo "not ok - $name ran no test" >>"$out"
  fi
  passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
  if [[ $f -gt 0 ]]; then
    printf '%-40s %4d passed, %d failed, %d skipped (%d s)\n' "$name" "$p" "$f" "$s" "$secs"
    grep -E '^not ok|^# ' "$out" | head -40 | sed 's/^/    /'
    tail -20 "$out.err" | sed 's/^/    stderr: /'
  else
    printf '%-40s %4d passed, %d skipped (%d s)\n' "$name" "$p" "$s" "$secs"
  fi
  grep -iE '^(not )?ok .*# skip' "$out" | sed 's/^/    /' | head -10
}

echo "== unit and fixture tests (cmocka)"
for t in "$BUILD"/tests/test_*; do
  [[ -x $t ]] || continue
  CMOCKA_MESSAGE_OUTPUT=TAP run_tap "unit/$(basename "$t")" "$t"
done

echo "== end-to-end tests"
for t in tests/e2e/*.sh; do
  [[ -x $t ]] || continue
  run_tap "e2e/$(basename "$t" .sh)" "$t"
done

wanted() { [[ -z ${TEST_FILTER:-} || $1 == *"$TEST_FILTER"* ]]; }

if [[ ${SANITIZE:-} != 1 ]] && wanted build/clang; then
  echo "== the same tree with clang -Werror (about 60 s on 2 cores)"
  clang_build() {
    if make --no-print-directory -s CC=clang BUILD=build/clang all \
      tests-build bench-build >"$log_dir/clang.log" 2>&1; then
      echo "ok 1 - clang builds every target with -Wall -Wextra -Werror"
    else
      echo "not ok 1 - clang build"
      tail -20 "$log_dir/clang.log" | sed 's/^/# /'
    fi
  }
  run_tap "build/clang" clang_build
fi

if [[ ${SANITIZE:-} != 1 ]] && wanted fuzz/smoke; then
  echo "== fuzz smoke: build the libFuzzer targets (clang, ASan, UBSan; about 3 min on 2 cores), then 10 s over tests/fuzz/corpus"
  # one line per target as it is built (FUZZ ...)
  if make --no-print-directory -j2 fuzz-build 2>"$log_dir/fuzz-build.log" | sed 's/^/  /'; [[ ${PIPESTATUS[0]} -eq 0 ]]; then
    run_tap "fuzz/smoke" tests/fuzz/run.sh 10
  else
    echo "not ok - fuzz targets failed to build" >"$log_dir/fuzzfail.tap"
    tail -20 "$log_dir/fuzz-build.log"
    failed=$((failed + 1))
  fi
fi

echo
echo "$passed passed, $failed failed, $skipped skipped"
[[ $failed -eq 0 ]]
