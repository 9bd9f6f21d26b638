#!/usr/bin/env bash
# panthor_perf's long-running path against the shim's panthor node:
#  - under valgrind, the executable in --execd mode serves 600 batches
#    over a 4-slot ring with busy, dropped and flagged samples, a GPU reset
#    at the 90th SAMPLE (the node dies; after the 1 s backoff the session
#    is reopened) and the shutdown (STOP, drain, TEARDOWN, unmap, close):
#    no memory errors, no leaks;
#  - without valgrind, its resident set after 1000 and after 11000 batches
#    is the same (no allocation per read).
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib/tap.sh
source tests/lib/require.sh
B=${BUILD:-build}
SHIM=$PWD/$B/tests/shim.so

require_not_sanitize "valgrind" "the ASan build cannot run under valgrind"
if ! command -v valgrind >/dev/null; then
  tap_fail "valgrind is not installed"
  tap_done
  exit
fi
T=$(mktemp -d "${TMPDIR:-/tmp}/pp-valgrind.XXXXXX")
trap 'rm -rf "$T"' EXIT
export SHIM_DRIVERS=panthor SHIM_PANTHOR_PATH=$T/renderD128
export SHIM_PANTHOR_LAYOUT=v6 SHIM_PANTHOR_GPU=g725

{
  seq 100
  # once the reset is said, wait out the reopen backoff (1 s)
  for ((i = 0; i < 600; i++)); do
    grep -q 'GPU reset' "$T/stderr" 2>/dev/null && break
    sleep 0.1
  done
  sleep 1.5
  seq 500
} | SHIM_PANTHOR_SCENARIO=busy_every=13,drop_every=10,overflow_every=7,reset_at=90 \
  LD_PRELOAD=$SHIM valgrind --quiet --error-exitcode=99 --leak-check=full \
  --errors-for-leak-kinds=definite,indirect --log-file="$T/valgrind.log" \
  "$B/panthor_perf" --execd --format=influx --RingSlots=4 --Timeout=1 \
  --Device="$T/renderD128" --Counter=shader:27 --PerCore=true \
  >"$T/out" 2>"$T/stderr"
rc=$?
tap_is 0 "$rc" "valgrind: no memory errors, no leaks (exit status)"
if [[ $rc -ne 0 ]]; then
  sed 's/^/# /' "$T/valgrind.log" | head -40
  tail -5 "$T/stderr" | sed 's/^/# stderr: /'
fi
reopens=$(grep '^panthor_perf_stream,' "$T/out" | tail -n 1 |
  grep -o 'reopens=[0-9]*' | cut -d= -f2)
tap_is 1 "$reopens" "valgrind: the session was reopened once"
tap_check "valgrind: the reset said once" \
  test "$(grep -c 'GPU reset or device gone' "$T/stderr")" -eq 1

# RSS after 1000 and after 11000 batches.
coproc PP { LD_PRELOAD=$SHIM exec "$B/panthor_perf" --execd --format=influx \
  --RingSlots=4 --Device="$T/renderD128" --Counter=shader:27 \
  --PerCore=true 2>"$T/rss.err"; }
pid=$PP_PID
batches() { # n: ask for n batches and read them back
  local n=$1 got=0 line
  for ((i = 0; i < n; i++)); do echo >&"${PP[1]}"; done
  while ((got < n)) && read -r -t 30 line <&"${PP[0]}"; do
    [[ $line == panthor_perf_stream,* ]] && got=$((got + 1))
  done
  ((got == n))
}
rss() { awk '/^VmRSS:/ { print $2 }' "/proc/$pid/status"; }
tap_check "rss: 1000 batches served" batches 1000
before=$(rss)
tap_check "rss: 10000 more batches served" batches 10000
after=$(rss)
exec {PP[1]}>&-
wait "$pid"
tap_is 0 $? "rss: exit 0 on EOF"
tap_check "rss: flat over 10000 batches ($before kB, then $after kB)" \
  test "$((after - before))" -le 64
tap_done
