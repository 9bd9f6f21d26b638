#!/usr/bin/env bash
# make bench: every benchmark program in $BUILD/bench, one after another.
set -euo pipefail
cd "$(dirname "$0")/.."
ulimit -n 4096 2>/dev/null || true
for b in "${BUILD:-build}"/bench/*; do
  [[ -x $b ]] || continue
  echo "== $(basename "$b")"
  "$b"
done
