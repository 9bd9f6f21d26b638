#!/usr/bin/env bash
# gpu-telemetry's long-running path: every plugin in one process on the
# emulated devices (tests/lib/emulated.sh), under valgrind:
#  - --execd, 60 batches of every plugin (the runner's workers, snapshots
#    and batches), then EOF: no memory errors, no leaks;
#  - --listen, scraped 30 times while it reads every 0.5 s, then SIGTERM:
#    the same (the HTTP server's thread, the page of every current read).
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib/tap.sh
source tests/lib/require.sh
source tests/lib/backends.sh
source tests/lib/emulated.sh
B=${BUILD:-build}

require_not_sanitize "valgrind" "the ASan build cannot run under valgrind"
require_cmd "gpu-telemetry valgrind" valgrind curl
T=$(mktemp -d "${TMPDIR:-/tmp}/gpu-valgrind.XXXXXX")
pid=
trap '[[ -n $pid ]] && kill -KILL "$pid" 2>/dev/null; rm -rf "$T"' EXIT
emu_setup "$T/emu" >/dev/null 2>&1
emu_cmd_all
# env ... gpu-telemetry options: valgrind goes between env's assignments
# and the program (the shim is preloaded into the program only)
n_env=0
while [[ ${EMU_CMD[$((n_env + 1))]} == *=* ]]; do n_env=$((n_env + 1)); done
ENV=("${EMU_CMD[@]:0:$((n_env + 1))}")
PROG=("${EMU_CMD[@]:$((n_env + 1))}")
VG=(valgrind --quiet --error-exitcode=99 --leak-check=full
  --errors-for-leak-kinds=definite,indirect)

seq 60 | "${ENV[@]}" "${VG[@]}" --log-file="$T/execd.vg" "${PROG[@]}" \
  --i915_oa.MetricSet=1 --execd --format=influx >"$T/execd.out" 2>"$T/execd.err"
rc=$?
tap_is 0 "$rc" "--execd, 60 batches of five plugins: no memory errors, no leaks"
[[ $rc -ne 0 ]] && sed 's/^/# /' "$T/execd.vg" | head -40
tap_check "--execd: 60 batches of i915_oa (one per line)" \
  test "$(grep -c '^i915_oa_stream,' "$T/execd.out")" -ge 60

port=$(be_free_port)
"${ENV[@]}" "${VG[@]}" --log-file="$T/listen.vg" "${PROG[@]}" --i915_oa.MetricSet=1 \
  --listen=127.0.0.1:$port --interval=0.5 --window=0.2 >/dev/null 2>"$T/listen.err" &
pid=$!
tap_check "--listen under valgrind: /metrics answers" \
  be_wait_http "http://127.0.0.1:$port/metrics" "$pid" 120
# under valgrind a read may outlast 3 intervals: the page may then be
# stale (503, said as such); every scrape is answered either way
ok=0 answered=0
for _ in $(seq 30); do
  code=$(curl -s --compressed -o "$T/page" -w '%{http_code}' "http://127.0.0.1:$port/metrics")
  [[ $code == 200 || $code == 503 ]] && answered=$((answered + 1))
  [[ $code == 200 ]] && grep -q '^gpu_telemetry_collector_success' "$T/page" && ok=$((ok + 1))
done
tap_is 30 "$answered" "--listen: 30 scrapes answered (200, or 503 when stale)"
tap_check "--listen: pages with the collector gauges ($ok)" test "$ok" -ge 1
kill -TERM "$pid"
wait "$pid"
rc=$?
pid=
tap_is 0 "$rc" "--listen, SIGTERM: no memory errors, no leaks"
[[ $rc -ne 0 ]] && sed 's/^/# /' "$T/listen.vg" | head -40
tap_done
