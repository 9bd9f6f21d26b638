#!/usr/bin/env bash
# Two promises of the executables' host around slow and blocked reads:
#  - --execd answers every line on stdin with a batch, also a line that
#    arrives while the start-up read is still running, past its round's
#    grace (a slow first scan): fake_plugin's reads wait on a FIFO (Hang),
#    two lines come while the start-up read waits, and both get a batch
#    once the reads are let through;
#  - a plugin blocked in the kernel is woken at stop: panthor_perf
#    --execd --Timeout=6000 waiting for a sample that never comes (the
#    shim drops every one) exits at SIGTERM at once, through the stop fd
#    the runner hands it (plugin_host.h: plugin_stop), not after the
#    runner's stop wait with "a read has not returned".
# Every wait is a bounded poll; processes are stopped by their pid.
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib/tap.sh
source tests/lib/require.sh
B=${BUILD:-build}
require_cmd "exec stop and execd" python3

T=$(mktemp -d "${TMPDIR:-/tmp}/exec-stop.XXXXXX")
PIDS=()
cleanup() {
  local p
  for p in "${PIDS[@]}"; do kill -KILL "$p" 2>/dev/null; done
  exec {IN}>&- 2>/dev/null
  rm -rf "$T"
}
trap cleanup EXIT

# until_true SECONDS 'SHELL CODE': every 50 ms until it succeeds or
# SECONDS passed (then its last status)
until_true() {
  local deadline=$((SECONDS + $1))
  while ((SECONDS < deadline)); do
    eval "$2" && return 0
    sleep 0.05
  done
  eval "$2"
}

# ---- --execd: a batch per line, also during a slow start-up read ----
mkfifo "$T/hang" "$T/in"
"$B/tests/fake_plugin" --execd --format=influx --Hang="$T/hang" \
  <"$T/in" >"$T/execd.out" 2>"$T/execd.err" &
pid=$!
PIDS+=($pid)
exec {IN}>"$T/in"
# the start-up read now waits on the FIFO; two lines come, and stay
# unanswered past the start-up round's grace (1 s, RUNNER_ROUND_GRACE_NS):
# the case in which the lines were lost
printf '\n\n' >&"$IN"
sleep 1.5 # the condition of the bug (the grace passing), not a wait for a result
release_one() { timeout 10 sh -c "printf x >'$T/hang'"; }
release_one # the start-up read
release_one # the first line's read
release_one # the second line's read
lines() { grep -c '^fake,instance=fake_plugin ' "$T/execd.out" 2>/dev/null || true; }
tap_check "execd: both lines sent during the start-up read get a batch ($(lines))" \
  until_true 20 'test "$(lines)" -ge 2'
exec {IN}>&-
wait $pid
tap_is 0 $? "execd: exit 0 on EOF"
tap_is 2 "$(lines)" "execd: exactly one batch per line"
tap_is "2 3" "$(sed -n 's/.*,reads=\([0-9]*\)i.*/\1/p' "$T/execd.out" | paste -sd' ')" \
  "execd: the batches are the two reads after the start-up read, in order"
tap_is "" "$(cat "$T/execd.err")" "execd: nothing on stderr"

# ---- a plugin blocked in the kernel is woken at stop ----
if [[ $(uname -m) != x86_64 ]]; then
  tap_skip "stop: panthor_perf woken in its wait" "the wait is found by the x86_64 poll syscall number"
  tap_done
  exit $?
fi
NODE=$T/renderD128
PRELOAD=$PWD/$B/tests/shim.so
if [[ ${SANITIZE:-} == 1 ]]; then
  PRELOAD="$(${CC:-cc} -print-file-name=libasan.so):$(${CC:-cc} -print-file-name=libubsan.so):$PRELOAD"
fi
SHIM_DRIVERS=panthor SHIM_PANTHOR_PATH=$NODE SHIM_PANTHOR_GPU=g720 \
  SHIM_PANTHOR_SCENARIO=teardown_fixed,drop_every=1 LD_PRELOAD="$PRELOAD" \
  "$B/panthor_perf" --Device="$NODE" --execd --format=influx --Timeout=6000 \
  <"$T/in" >"$T/pp.out" 2>"$T/pp.err" &
pid=$!
PIDS+=($pid)
exec {IN}>"$T/in"
# a worker in poll() with the 6000 ms timeout (0x1770): /proc/<tid>/syscall
# is "7 <fds> <nfds> 0x1770 ..." (x86_64 poll)
in_wait() {
  local f
  for f in /proc/$pid/task/*/syscall; do
    read -r nr _ _ tmo _ <"$f" 2>/dev/null || continue
    [[ $nr == 7 && $tmo == 0x1770 ]] && return 0
  done
  return 1
}
tap_check "stop: panthor_perf waits in poll() for a sample (Timeout 6000 ms)" \
  until_true 20 in_wait
t0=$(date +%s%N)
kill -TERM $pid
wait $pid
rc=$?
ms=$((($(date +%s%N) - t0) / 1000000))
tap_is 0 "$rc" "stop: SIGTERM during the wait: exit 0"
# at once: the runner's stop wait is 2 s and the Timeout 6 s; the wake
# takes milliseconds (bound generous for a loaded machine)
tap_check "stop: exits within 1 s, not after the stop wait (${ms} ms)" test "$ms" -lt 1000
tap_is "" "$(grep -i 'has not returned' "$T/pp.err")" \
  "stop: the read returned: no instance left to the process's exit"
tap_done
