#!/usr/bin/env bash
# Run every libFuzzer target in build/fuzz for a fixed total budget over a
# copy of its seed corpus (tests/fuzz/corpus/<name>/); TAP output.
# Usage: tests/fuzz/run.sh SECONDS_TOTAL
set -uo pipefail
cd "$(dirname "$0")/../.."
total=${1:-60}
targets=(build/fuzz/fuzz_*)
if [[ ! -x ${targets[0]} ]]; then
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
  corpus=$work/${name#fuzz_}
  mkdir -p "$corpus"
  cp -r "tests/fuzz/corpus/${name#fuzz_}/." "$corpus/" 2>/dev/null
  n=$((n + 1))
  if "$t" -max_total_time="$per" -rss_limit_mb=2048 -artifact_prefix="$work/" \
    "$corpus" >"$work/$name.log" 2>&1; then
    runs=$(grep -oE '#[0-9]+' "$work/$name.log" | tail -1)
    echo "ok $n - fuzz $name (${runs:-?} runs in ${per}s)"
  else
    failed=$((failed + 1))
    echo "not ok $n - fuzz $name"
    tail -30 "$work/$name.log" | sed 's/^/# /'
  fi
done
echo "1..$n"
[[ $failed -eq 0 ]]
