#!/usr/bin/env bash
# Run every test layer and end with one line: "N passed, N failed".
# Each layer speaks TAP ("ok", "not ok", "# SKIP"); this script only counts.
# Environment: BUILD (build dir), SANITIZE=1 (ASan+UBSan build),
# TEST_FILTER (substring of the test program names to run).
set -uo pipefail
cd "$(dirname "$0")/.."
export BUILD=${BUILD:-build}
export LC_ALL=C
log_dir=$(mktemp -d "${TMPDIR:-/tmp}/gpu-tests.XXXXXX")
trap 'rm -rf "$log_dir"' EXIT
passed=0 failed=0 skipped=0

run_tap() { # name, command...
  local name=$1
  shift
  [[ -n ${TEST_FILTER:-} && $name != *"$TEST_FILTER"* ]] && return
  local out="$log_dir/$(echo "$name" | tr '/ ' '__').tap"
  "$@" >"$out" 2>"$out.err"
  local rc=$?
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
    printf '%-40s %4d passed, %d failed, %d skipped\n' "$name" "$p" "$f" "$s"
    grep -E '^not ok|^# ' "$out" | head -40 | sed 's/^/    /'
    tail -20 "$out.err" | sed 's/^/    stderr: /'
  else
    printf '%-40s %4d passed, %d skipped\n' "$name" "$p" "$s"
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

if [[ ${SANITIZE:-} != 1 && -z ${TEST_FILTER:-} ]]; then
  echo "== the same tree with clang -Werror"
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

if [[ ${SANITIZE:-} != 1 ]]; then
  echo "== fuzz smoke (fixed budget over tests/fuzz/corpus)"
  if make --no-print-directory -s fuzz-build >"$log_dir/fuzz-build.log" 2>&1; then
    run_tap "fuzz/smoke" tests/fuzz/run.sh 10
  else
    echo "not ok - fuzz targets failed to build" >"$log_dir/fuzzfail.tap"
    cat "$log_dir/fuzz-build.log" | tail -20
    failed=$((failed + 1))
  fi
fi

echo
echo "$passed passed, $failed failed, $skipped skipped"
[[ $failed -eq 0 ]]
