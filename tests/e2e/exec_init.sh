#!/usr/bin/env bash
# A plugin's init runs on its instance's own worker thread (common/runner/
# runner.c: runner_init_start, runner_await_inits), with tests/tools/
# fake_multi, whose fake_other waits in init for a byte on a FIFO
# (InitHang, as a device that never answers at start):
#  - the other plugin starts once the start's wait (5 s) is over, and is
#    served; the hung one is said once, its success gauge 0;
#  - when its init returns, it is primed and read, and served;
#  - SIGTERM ends the process within the stop wait (2 s) though the init
#    still hangs, saying so;
#  - an init that fails late is said, the instance is never read, the
#    others go on; an init that fails at once still exits 1.
# Every wait is a bounded poll; processes are stopped by their pid.
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib/tap.sh
source tests/lib/require.sh
source tests/lib/backends.sh
B=${BUILD:-build}
M=$B/tests/fake_multi
require_cmd "exec init" python3 curl

T=$(mktemp -d "${TMPDIR:-/tmp}/exec-init.XXXXXX")
PIDS=()
cleanup() {
  local p
  for p in "${PIDS[@]}"; do kill -KILL "$p" 2>/dev/null; done
  rm -rf "$T"
}
trap cleanup EXIT

# until_true SECONDS 'SHELL CODE': evaluate the code every 50 ms until it
# succeeds, or SECONDS passed (then its last status)
until_true() {
  local deadline=$((SECONDS + $1))
  while ((SECONDS < deadline)); do
    eval "$2" && return 0
    sleep 0.05
  done
  eval "$2"
}
# release: one byte to the FIFO (the init waiting on it returns)
release() { timeout 10 sh -c "printf x >'$T/init'"; }
mkfifo "$T/init"

# ---- the Prometheus page while one init hangs ----
port=$(be_free_port)
"$M" --listen=127.0.0.1:$port --interval=0.1 --window=0 --log-level=info \
  --fake_other.InitHang="$T/init" >/dev/null 2>"$T/listen.err" &
pid=$!
PIDS+=($pid)
page() { curl -s "http://127.0.0.1:$port/metrics"; }
success_of() { page | sed -n "s/^gpu_telemetry_collector_success{plugin=\"$1\",.*} //p"; }
tap_check "an init hangs: the other plugin starts, its success is 1" \
  until_true 30 'test "$(success_of fake_plugin)" = 1'
tap_check "  ... and its records are served" \
  until_true 10 'page | grep -q "^fake_[a-z_]*{instance=\"fake_plugin\""'
tap_is 0 "$(success_of fake_other)" "  ... the hung one's success is 0"
tap_is 0 "$(page | grep -c '^fake_[a-z_]*{instance="fake_other"')" "  ... and nothing of it is served"
tap_is 1 "$(grep -c 'fake_other: fake_other: init: has not returned after [0-9.]* s: the other instances start' "$T/listen.err")" \
  "  ... said once"
release
tap_check "its init returns: its success is 1" until_true 20 'test "$(success_of fake_other)" = 1'
tap_check "  ... and its records are served" \
  until_true 10 'page | grep -q "^fake_[a-z_]*{instance=\"fake_other\""'
tap_check "  ... said at the info level" grep -q 'fake_other: fake_other: init: returned after [0-9.]* s: started' "$T/listen.err"
tap_is 1 "$(grep -c 'init: has not returned' "$T/listen.err")" "  ... the hang said once in all"
kill -TERM $pid
wait $pid
tap_is 0 $? "SIGTERM: exit 0"

# ---- stop while an init hangs ----
"$M" --interval=0.1 --fake_other.InitHang="$T/init" >"$T/out" 2>"$T/err" &
pid=$!
PIDS+=($pid)
tap_check "an init hangs (--interval): the other plugin's records are written" \
  until_true 30 'grep -q "^fake,instance=fake_plugin " "$T/out"'
tap_is 0 "$(grep -c '^fake,instance=fake_other ' "$T/out")" "  ... none of the hung one"
t0=$(date +%s%N)
kill -TERM $pid
wait $pid
rc=$?
ms=$((($(date +%s%N) - t0) / 1000000))
tap_is 0 $rc "SIGTERM with an init hung: exit 0"
tap_check "  ... within the stop wait of 2 s (took $ms ms)" test $ms -lt 4000
tap_check "  ... saying the init is left" \
  grep -q 'fake_other: fake_other: stop: its init has not returned after [0-9.]* s; exiting without freeing this instance' "$T/err"

# ---- an init that fails late, or at once ----
port=$(be_free_port)
"$M" --listen=127.0.0.1:$port --interval=0.1 --window=0 \
  --fake_other.InitHang="$T/init" --fake_other.FailInit=true >/dev/null 2>"$T/late.err" &
pid=$!
PIDS+=($pid)
tap_check "a late init that will fail: the other plugin's success is 1" \
  until_true 30 'test "$(success_of fake_plugin)" = 1'
release
tap_check "  ... when it fails, it is said" \
  until_true 10 'grep -q "fake_other: fake_other: init: failed after [0-9.]* s (Input/output error): this instance is not run" "$T/late.err"'
tap_is "0|1" "$(success_of fake_other)|$(success_of fake_plugin)" \
  "  ... its success stays 0, the other's 1"
tap_check "  ... and the process goes on" kill -0 $pid
kill -TERM $pid
wait $pid
tap_is 0 $? "  ... SIGTERM: exit 0"

"$M" --once --plugin=fake_other --fake_other.FailInit=true >/dev/null 2>"$T/err"
tap_is 1 $? "an init that fails at once: exit 1"
"$M" --once --fake_other.FailInit=true --window=0 >"$T/out" 2>"$T/err"
tap_is "1|0" "$?|$(wc -c <"$T/out")" "  ... of a plugin given a key: exit 1, nothing written"
printf 'LoadPlugin fake_plugin\nLoadPlugin fake_other\n<Plugin fake_other>\n  <Instance "a">\n    FailInit true\n  </Instance>\n</Plugin>\n' >"$T/c.conf"
"$M" --once --config="$T/c.conf" >/dev/null 2>"$T/err"
tap_is "1|1" "$?|$(grep -c 'FailInit is set' "$T/err")" "  ... of an instance a --config loads: exit 1, said by the plugin"

tap_done
