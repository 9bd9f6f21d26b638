#!/usr/bin/env bash
# Run every libFuzzer target build/fuzz/fuzz_<name> for an equal share of a
# fixed total budget (at least 2 s each) over a copy of its seed corpus
# tests/fuzz/corpus/<name>/, so the repository corpus is never modified.
# TAP output: "ok N - fuzz fuzz_<name>" or "not ok" with the tail of the
# crash output as "# " lines, then "1..N". A crashing input is kept in
# build/fuzz/artifacts/<name>/ (reproduce: build/fuzz/fuzz_<name> FILE).
# Exits non-zero when a target failed or none is built.
# Usage: tests/fuzz/run.sh SECONDS_TOTAL
set -uo pipefail
cd "$(dirname "$0")/../.."
total=${1:-60}
if [[ ! $total =~ ^[0-9]+$ ]]; then
  echo "usage: $0 SECONDS_TOTAL" >&2
  exit 2
fi
targets=()
for t in build/fuzz/fuzz_*; do
  [[ -f $t && -x $t ]] && targets+=("$t")
done
if [[ ${#targets[@]} -eq 0 ]]; then
  echo "not ok 1 - no fuzz targets built"
  echo "1..1"
  exit 1
fi
per=$((total / ${#targets[@]}))
((per < 2)) && per=2
work=$(mktemp -d "${TMPDIR:-/tmp}/fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT
n=0 failed=0
for t in "${targets[@]}"; do
  name=$(basename "$t")
  short=${name#fuzz_}
  corpus=$work/corpus/$short
  artifacts=build/fuzz/artifacts/$short
  mkdir -p "$corpus" "$artifacts"
  if [[ -d tests/fuzz/corpus/$short ]]; then
    cp -R "tests/fuzz/corpus/$short/." "$corpus/"
  fi
  chmod -R u+w "$corpus" # seeds may be read-only; libFuzzer adds files
  n=$((n + 1))
  # -timeout: one input running 10 s is a hang, reported as a failure.
  if "$t" -max_total_time="$per" -rss_limit_mb=2048 -timeout=10 \
    -artifact_prefix="$artifacts/" "$corpus" >"$work/$name.log" 2>&1; then
    runs=$(grep -oE '^#[0-9]+' "$work/$name.log" | tail -1)
    echo "ok $n - fuzz $name (${runs:-#?} runs in ${per}s)"
  else
    failed=$((failed + 1))
    echo "not ok $n - fuzz $name"
    tail -30 "$work/$name.log" | sed 's/^/# /'
    for a in "$artifacts"/*; do
      [[ -f $a ]] && echo "# input kept: $a"
    done
  fi
done
echo "1..$n"
[[ $failed -eq 0 ]]
