#!/usr/bin/env bash
# i915_oa's long-running path against the shim's i915 device:
#  - under valgrind, the executable in --execd mode serves 300 batches
#    with a flex config (ADD_CONFIG at start, REMOVE_CONFIG at exit),
#    lost records every batch, a buffer overflow and a corrupt record:
#    no memory errors, no leaks;
#  - without valgrind, its resident set after 1000 and after 11000
#    batches is the same (no allocation per read).
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib/tap.sh
source tests/lib/require.sh
source tests/lib/i915_tree.sh
source tests/lib/lineproto.sh
B=${BUILD:-build}
SHIM=$PWD/$B/tests/shim.so

require_not_sanitize "valgrind" "the ASan build cannot run under valgrind"
if ! command -v valgrind >/dev/null; then
  tap_fail "valgrind is not installed"
  tap_done
  exit
fi
T=$(mktemp -d "${TMPDIR:-/tmp}/i915-valgrind.XXXXXX")
trap 'rm -rf "$T"' EXIT
i915_tree "$T" 0000:00:02.0
args=(--DevRoot="$T/dev/dri" --SysfsRoot="$T/sys" --FlexEvent="eu_active 4"
  --FlexEvent="eu_stall 5" --execd --format=influx)

printf '\n%.0s' {1..300} |
  SHIM_I915_SCENARIO=$(i915_scenario "$T" lost_every=1,buffer_lost_at=50,corrupt_at=80) \
    LD_PRELOAD=$SHIM valgrind --quiet --error-exitcode=99 --leak-check=full \
    --errors-for-leak-kinds=definite,indirect --log-file="$T/valgrind.log" \
    "$B/i915_oa" "${args[@]}" >"$T/out" 2>"$T/stderr"
rc=$?
tap_is 0 "$rc" "valgrind: no memory errors, no leaks (exit status)"
if [[ $rc -ne 0 ]]; then
  sed 's/^/# /' "$T/valgrind.log" | head -40
  tail -5 "$T/stderr" | sed 's/^/# stderr: /'
fi
tap_is 300 "$(lp_count --measurement i915_oa_stream <"$T/out")" "valgrind: 300 batches"
tap_is 1 "$(lp_get malformed --measurement i915_oa_stream <"$T/out" | tail -n 1)" \
  "valgrind: the corrupt record counted"
tap_is 0 "$(find "$T/sys/devices" -path '*metrics/*' -name id | grep -vc db41edd4)" \
  "valgrind: the flex config removed at exit"

# RSS after 1000 and after 11000 batches.
export SHIM_I915_SCENARIO=$(i915_scenario "$T")
coproc OA { LD_PRELOAD=$SHIM exec "$B/i915_oa" "${args[@]}" 2>"$T/rss.err"; }
pid=$OA_PID
batches() { # n: ask for n batches and read them back
  local n=$1 got=0 line
  for ((i = 0; i < n; i++)); do echo >&"${OA[1]}"; done
  while ((got < n)) && read -r -t 30 line <&"${OA[0]}"; do
    [[ $line == i915_oa_stream,* ]] && got=$((got + 1))
  done
  ((got == n))
}
rss() { awk '/^VmRSS:/ { print $2 }' "/proc/$pid/status"; }
tap_check "rss: 1000 batches served" batches 1000
before=$(rss)
tap_check "rss: 10000 more batches served" batches 10000
after=$(rss)
exec {OA[1]}>&-
wait "$pid"
tap_is 0 $? "rss: exit 0 on EOF"
tap_check "rss: flat over 10000 batches ($before kB, then $after kB)" \
  test "$((after - before))" -le 64
tap_done
